import CCairo

/// Drawing an emitter layer's particles (listing 6.13): above the layer's
/// background and contents, below its sublayers (CompositorKinds). Each
/// particle is its cell's contents centred on its position, scaled, turned
/// by its spin and tinted by its colour (a multiply) at its alpha.
/// `additive` adds overlapping particles with cairo's ADD operator, so they
/// brighten toward white; the other modes draw source-over in their order
/// (EmitterFrame.order).
extension Compositor {
    /// Particles one render draws in all, over every emitter layer and every
    /// replicated copy of one (each layer draws at most
    /// `EmitterSimulation.maximumParticles`): the layers drawn after the
    /// budget is spent show their newest particles only, or none.
    public static let maximumParticlesPerRender = 100_000

    mutating func drawParticles(_ layer: Layer, alpha: Double) throws {
        guard alpha > 0, let sim = EmitterSimulation.of(layer) else { return }
        // The simulation records its history as it is drawn.
        try RenderBand.requireCallingThread()
        let room = Compositor.maximumParticlesPerRender - particlesGathered
        guard room > 0 else { return }
        let frame = sim.frame(for: layer, at: EmitterSimulation.localNow(layer), limit: room)
        particlesGathered += frame.particles.count
        guard !frame.particles.isEmpty else { return }
        let cache: EmitterSpriteCache
        if let c = sim.renderCache as? EmitterSpriteCache { cache = c } else {
            cache = EmitterSpriteCache()
            sim.renderCache = cache
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if layer.state.specialised.value.emitter.renderMode == .additive { cairo_set_operator(cr, CAIRO_OPERATOR_ADD) }
        var base = cairo_matrix_t()
        cairo_get_matrix(cr, &base)
        var drawn = 0
        for p in frame.particles {
            let cell = frame.cells[p.cell]
            let a = alpha * p.color.alpha
            guard let img = cell.contents, a > 0, p.scale > 0 else { continue }
            let r = cell.contentsRect, W = Double(img.width), H = Double(img.height)
            let sx = r.origin.x * W, sy = r.origin.y * H, sw = r.size.width * W, sh = r.size.height * H
            guard sw > 0, sh > 0, let sprite = try cache.sprite(img, tint: p.color) else { continue }
            let k = p.scale / cell.contentsScale   // points per image pixel
            cairo_set_matrix(cr, &base)
            cairo_translate(cr, p.position.x, p.position.y)
            if p.angle != 0 { cairo_rotate(cr, p.angle) }
            cairo_scale(cr, k, contentsFlipped ? -k : k)
            cairo_set_source_surface(cr, sprite, -sw / 2 - sx, -sh / 2 - sy)
            let filter = k >= 1 ? cell.magnificationFilter : cell.minificationFilter
            cairo_pattern_set_filter(cairo_get_source(cr), filter == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
            if r == Rect(0, 0, 1, 1) {
                cairo_paint_with_alpha(cr, a)
            } else {
                // Only the contentsRect part: clipped (beyond the image, nothing).
                cairo_save(cr)
                cairo_rectangle(cr, -sw / 2, -sh / 2, sw, sh)
                cairo_clip(cr)
                cairo_paint_with_alpha(cr, a)
                cairo_restore(cr)
            }
            drawn += 1
        }
        cairo_set_matrix(cr, &base)
        stats.particlesDrawn += drawn
    }
}

/// Tinted copies of the cells' sprites, one per image and 8-bit colour,
/// made once and reused (a cell's colour often stays the same for all its
/// particles). Bounded: past `limit` copies it starts again.
final class EmitterSpriteCache {
    private struct Key: Hashable {
        let image: ObjectIdentifier
        let version: Int
        let rgb: UInt32
    }
    /// Each copy keeps its charge (the current ledger's when it was made).
    private var sprites: [Key: (image: Image, surface: OpaquePointer, charge: MemoryCharge)] = [:]
    static let limit = 256

    deinit { for s in sprites.values { cairo_surface_destroy(s.surface) } }

    /// The image multiplied by the tint's red, green and blue (premultiplied
    /// channels scale alike), or the image itself for white.
    func sprite(_ img: Image, tint: Color) throws -> OpaquePointer? {
        // Truncated, so overlapping sprites drawn source-over, whose 8-bit
        // rounding can add one, stay within the nominal colour (T6.13).
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255 + 1e-9).rounded(.down)) }
        let r = byte(tint.red), g = byte(tint.green), b = byte(tint.blue)
        if r == 255, g == 255, b == 255 { return img.surface }
        let key = Key(image: ObjectIdentifier(img), version: img.version, rgb: r << 16 | g << 8 | b)
        if let s = sprites[key], s.image === img { return s.surface }
        if sprites.count >= EmitterSpriteCache.limit {
            for s in sprites.values { cairo_surface_destroy(s.surface) }
            sprites = [:]
        }
        let charge = try MemoryCharge(MemoryLedger.current, Image.chargedBytes(img.width, img.height), "CAEmitterLayer: a tinted sprite")
        guard let out = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(img.width), Int32(img.height)),
              cairo_surface_status(out) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_flush(out)
        guard let data = cairo_image_surface_get_data(out) else { cairo_surface_destroy(out); return nil }
        let dst = UnsafeMutableRawPointer(data), dstStride = Int(cairo_image_surface_get_stride(out))
        img.withPixels { src, srcStride in
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let w = src.load(fromByteOffset: y * srcStride + x * 4, as: UInt32.self)
                    func scaled(_ shift: UInt32, _ t: UInt32) -> UInt32 { ((((w >> shift) & 0xFF) * t + 127) / 255) << shift }
                    let tinted = (w & 0xFF00_0000) | scaled(16, r) | scaled(8, g) | scaled(0, b)
                    dst.storeBytes(of: tinted, toByteOffset: y * dstStride + x * 4, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(out)
        sprites[key] = (img, out, charge)
        return out
    }
}
