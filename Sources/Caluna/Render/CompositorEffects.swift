import CCairo
import Glibc

/// Chapter 4's effects as the compositor draws them: rounded corners,
/// borders, shadows (the mask and group opacity are in Compositor.swift).
extension Compositor {
    /// The bounds as a path, rounded by cornerRadius on the masked corners
    /// (the radius is capped at half the shorter side, as Core Animation does).
    func addRoundedBounds(_ layer: Layer, inset: Double = 0) {
        let r0 = layer.bounds.standardized
        let b = r0.insetBy(inset, inset)
        let radius = max(0, min(layer.cornerRadius - inset, b.width / 2, b.height / 2))
        let corners = layer.maskedCorners
        guard radius > 0, corners != [] else {
            cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
            return
        }
        func r(_ c: CornerMask) -> Double { corners.contains(c) ? radius : 0 }
        let (x0, y0, x1, y1) = (b.minX, b.minY, b.maxX, b.maxY)
        cairo_new_sub_path(cr)
        // Clockwise on screen from the top-left corner's end (y down).
        let tl = r(.minXMinY), tr = r(.maxXMinY), br = r(.maxXMaxY), bl = r(.minXMaxY)
        cairo_move_to(cr, x0 + tl, y0)
        cairo_line_to(cr, x1 - tr, y0)
        if tr > 0 { cairo_arc(cr, x1 - tr, y0 + tr, tr, -Double.pi / 2, 0) }
        cairo_line_to(cr, x1, y1 - br)
        if br > 0 { cairo_arc(cr, x1 - br, y1 - br, br, 0, Double.pi / 2) }
        cairo_line_to(cr, x0 + bl, y1)
        if bl > 0 { cairo_arc(cr, x0 + bl, y1 - bl, bl, Double.pi / 2, Double.pi) }
        cairo_line_to(cr, x0, y0 + tl)
        if tl > 0 { cairo_arc(cr, x0 + tl, y0 + tl, tl, Double.pi, 3 * Double.pi / 2) }
        cairo_close_path(cr)
    }

    /// masksToBounds: clip to the (rounded) bounds.
    func clipToRoundedBounds(_ layer: Layer) {
        addRoundedBounds(layer)
        cairo_clip(cr)
    }

    mutating func fillRoundedBackground(_ layer: Layer, alpha: Double) {
        guard let bg = layer.backgroundColor?.clamped, bg.alpha > 0, !layer.bounds.isEmpty else { return }
        cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha * alpha)
        addRoundedBounds(layer)
        cairo_fill(cr)
        stats.layersDrawn += 1
    }

    /// The border: inside the bounds, following the rounded corners, above
    /// everything else the layer draws (spec F58–F61).
    mutating func drawBorder(_ layer: Layer, alpha: Double) {
        let w = min(layer.borderWidth, layer.bounds.width / 2, layer.bounds.height / 2)
        guard w > 0, let c = layer.borderColor?.clamped, c.alpha > 0 else { return }
        cairo_save(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        addRoundedBounds(layer)
        addRoundedBounds(layer, inset: w)
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    // MARK: shadows

    /// A shadowPath's shadow (non-zero fill, no offscreen pass of the content).
    mutating func drawShadow(of path: Path, layer: Layer, alpha: Double) throws {
        cairo_save(cr)
        cairo_new_path(cr)
        path.append(to: cr)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_path_extents(cr, &x0, &y0, &x1, &y1)
        let user = Rect(x0, y0, x1 - x0, y1 - y0)
        cairo_new_path(cr)
        cairo_restore(cr)
        try paintShadow(layer: layer, extent: user, alpha: alpha) { scr in
            cairo_set_fill_rule(scr, CAIRO_FILL_RULE_WINDING)
            path.append(to: scr)
            cairo_fill(scr)
        }
    }

    /// The shadow of an offscreen group (its alpha is the silhouette);
    /// `direct`: the group is the layer's content, drawn for the target
    /// itself (not inside another group), and its mask is noted by layer.
    mutating func drawShadow(of content: OpaquePointer, layer: Layer, direct: Bool) throws {
        guard let e = layer.visualExtent() ?? clipInUserSpace() else { return }
        try paintShadow(layer: layer, extent: e, alpha: 1, keptByLayer: direct) { scr in
            cairo_set_source(scr, content)
            cairo_paint(scr)
        }
    }

    /// The shadow of `layer`'s content painted from the mask its last drawing
    /// used, when the effect cache has it for the layer as it is now
    /// (EffectCache.mask(of:as:)): the pixels drawing the content would give,
    /// without drawing it. False when there is no such mask.
    mutating func drawShadowFromCache(of layer: Layer) -> Bool {
        guard let color = layer.shadowColor?.clamped, let e = layer.visualExtent() ?? clipInUserSpace(),
              let p = shadowPlacement(layer: layer, extent: e) else { return true }
        guard let effects, groupCharges.isEmpty, let key = layerShadow(layer, p),
              let mask = effects.mask(of: layer, as: key) else { return false }
        defer { cairo_surface_destroy(mask) }
        paintShadowMask(mask, at: p, layer: layer, color: color, alpha: 1)
        return true
    }

    /// Where a shadow lands, in device pixels: σ, the blurred pixels wanted
    /// (where the blur can reach, seen through the clip, before the offset;
    /// one pixel more for the resampling at a fractional offset), the
    /// silhouette pixels they depend on, and the offset.
    struct ShadowPlacement {
        let ctm: cairo_matrix_t
        let sigma: Double
        let wanted: PixelRect, needed: PixelRect
        let dx: Double, dy: Double
    }

    /// `layer`'s shadow of `extent` (its space) as the current space and
    /// clip place it; nil when no pixel of it shows or its buffers would be
    /// too large.
    func shadowPlacement(layer: Layer, extent: Rect) -> ShadowPlacement? {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        // A huge transform scales the blur past any target: see maximumSigma.
        let sigma = GaussianBlur.clamped(sigma: layer.shadowRadius * AffineTransform(cairo: m).linearScale)
        let margin = Double(GaussianBlur.margin(sigma: sigma))
        guard let clip = deviceClip() else { return nil }
        var dx = layer.shadowOffset.width, dy = layer.shadowOffset.height
        cairo_user_to_device_distance(cr, &dx, &dy)
        let dev = deviceRect(of: extent)
        guard let wanted = PixelRect(covering: dev.insetBy(-margin, -margin).intersection(clip.offsetBy(-dx, -dy).insetBy(-1, -1))),
              let needed = PixelRect(covering: dev.intersection(wanted.rect.insetBy(-margin, -margin))) else { return nil }
        guard Compositor.fitsOffscreen(wanted.width, wanted.height), Compositor.fitsOffscreen(needed.width, needed.height),
              Compositor.fitsOffscreen(wanted.width, needed.height) else { return nil }
        return ShadowPlacement(ctm: m, sigma: sigma, wanted: wanted, needed: needed, dx: dx, dy: dy)
    }

    /// The key of `layer`'s shadow in the effect cache's by-layer index, when
    /// it can have one: not in a replicator or under a clip from above, with
    /// a damage record (the caller knows it is drawn for the target itself).
    func layerShadow(_ layer: Layer, _ p: ShadowPlacement) -> EffectCache.LayerShadow? {
        guard replicating == 0, clips == 0, let r = records?.record(of: layer),
              !r.everyRenderBelow else { return nil }
        return EffectCache.LayerShadow(fingerprint: r.fingerprint, ctm: AffineTransform(cairo: p.ctm),
                                       contentsFlipped: contentsFlipped, sigma: p.sigma.bitPattern,
                                       needed: p.needed, wanted: p.wanted)
    }

    /// Draws a silhouette (in the layer's space) into an A8 buffer in device
    /// pixels, blurs it into a second buffer covering only the part of the
    /// shadow the target shows, and paints the shadow colour through that,
    /// offset by shadowOffset (in the layer's space, D18). The silhouette
    /// buffer holds only what can reach that part (within the blur's margin),
    /// so a wide blur of a small layer costs the visible area, not (6σ)².
    /// `keptByLayer`: the silhouette is the layer's content, and the mask is
    /// noted in the effect cache's by-layer index.
    private mutating func paintShadow(layer: Layer, extent: Rect, alpha: Double, keptByLayer: Bool = false,
                                      silhouette: (OpaquePointer) -> Void) throws {
        guard let color = layer.shadowColor?.clamped, let p = shadowPlacement(layer: layer, extent: extent) else { return }
        let (w, h, sw, sh) = (p.wanted.width, p.wanted.height, p.needed.width, p.needed.height)
        // The two A8 buffers and the blur's scratch, for this call only.
        let bytes = sw * sh + w * h + GaussianBlur.scratchBytes(source: (sw, sh), target: (w, h), sigma: p.sigma) + 256
        let scratch = try MemoryCharge(memory, bytes, "render: a shadow of \(w)×\(h) pixels from \(sw)×\(sh)")
        defer { withExtendedLifetime(scratch) {} }
        guard let source = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(sw), Int32(sh)),
              cairo_surface_status(source) == CAIRO_STATUS_SUCCESS else { return }
        defer { cairo_surface_destroy(source) }
        stats.offscreenPasses += 1
        stats.offscreenPixels += sw * sh + w * h
        let scr = cairo_create(source)!
        cairo_translate(scr, Double(-p.needed.x), Double(-p.needed.y))
        var m = p.ctm
        cairo_transform(scr, &m)
        silhouette(scr)
        cairo_destroy(scr)
        guard let (target, key) = blurred(source, sigma: p.sigma, from: p.needed, to: p.wanted) else { return }
        defer { cairo_surface_destroy(target) }
        if keptByLayer, let effects, let key, let byLayer = layerShadow(layer, p) {
            effects.noteMask(key, of: layer, as: byLayer)
        }
        paintShadowMask(target, at: p, layer: layer, color: color, alpha: alpha)
    }

    /// The shadow colour painted through `mask` (the blurred pixels `p.wanted`).
    private func paintShadowMask(_ mask: OpaquePointer, at p: ShadowPlacement, layer: Layer, color: Color, alpha: Double) {
        let a = min(max(layer.shadowOpacity, 0), 1) * color.alpha * alpha
        cairo_save(cr)
        cairo_identity_matrix(cr)
        // Each pixel of a mask painted at a translation is computed on its
        // own, so a partial redraw paints only its region's: outside shadow
        // content (whose pixels must all be there for a blur), and where no
        // other clip is set (cairo intersects a rounded clip with the region
        // geometrically, which rounds its edge differently).
        if let partial, partial.suspended == 0, clips == 0, replicating == 0 {
            for r in partial.region { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
            cairo_clip(cr)
        }
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, a)
        cairo_mask_surface(cr, mask, Double(p.wanted.x) + p.dx, Double(p.wanted.y) + p.dy)
        cairo_restore(cr)
    }

    /// The silhouette `source` (device pixels `needed`) blurred over the
    /// pixels `wanted`, with its effect-cache key (nil without a cache): from
    /// the effect cache when the same silhouette was blurred the same way
    /// before, else blurred now (and kept). The caller releases the surface.
    private mutating func blurred(_ source: OpaquePointer, sigma: Double, from needed: PixelRect,
                                  to wanted: PixelRect) -> (OpaquePointer, EffectCache.Key?)? {
        var key: EffectCache.Key? = nil
        if let effects {
            let k = EffectCache.key(source, sigma: sigma, dx: wanted.x - needed.x, dy: wanted.y - needed.y,
                                    w: wanted.width, h: wanted.height)
            if let mask = effects.mask(k, silhouette: source) {
                stats.effectCacheHits += 1
                return (mask, k)
            }
            key = k
        }
        guard let target = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(wanted.width), Int32(wanted.height)),
              cairo_surface_status(target) == CAIRO_STATUS_SUCCESS else { return nil }
        GaussianBlur.blur(GaussianBlur.Plane(surface: source, origin: (needed.x, needed.y)),
                          into: GaussianBlur.Plane(surface: target, origin: (wanted.x, wanted.y)), sigma: sigma)
        if let effects, let key {
            stats.effectCacheMisses += 1
            effects.insert(key, silhouette: source, mask: target, memory: memory)
        }
        return (target, key)
    }

    /// A shadow buffer this large is skipped (the old bound: twice an
    /// image's side, an image's pixels).
    static func fitsOffscreen(_ w: Int, _ h: Int) -> Bool {
        w > 0 && h > 0 && w <= Image.maximumSide * 2 && h <= Image.maximumSide * 2 && w * h <= Image.maximumPixels
    }

    /// A user-space rect's bounding box in device pixels.
    func deviceRect(of r: Rect) -> Rect {
        Rect.bounding(r.corners.map { p in
            var x = p.x, y = p.y
            cairo_user_to_device(cr, &x, &y)
            return Point(x, y)
        })
    }

    /// The current clip in device pixels (nil when everything is clipped away).
    func deviceClip() -> Rect? {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        guard x1 > x0, y1 > y0 else { return nil }
        return deviceRect(of: Rect(x0, y0, x1 - x0, y1 - y0))
    }

    /// The current clip in user space (the fallback extent of a silhouette).
    func clipInUserSpace() -> Rect? {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }
}
