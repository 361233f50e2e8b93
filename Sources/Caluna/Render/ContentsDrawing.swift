import CCairo
import Glibc

/// Drawing `contents` (ch.2): contentsRect picks the part of the image
/// (unit coordinates; beyond the image its edge pixels extend, F18), its
/// natural size is pixels / contentsScale, gravity places it in the bounds,
/// contentsCenter nine-slices it, and the filters sample it.
extension Compositor {
    /// The image's source rectangle (pixels) and where it goes (points).
    static func contentsGeometry(_ layer: Layer, _ img: Image) -> (source: Rect, dest: Rect)? {
        let cr = layer.contentsRect, W = Double(img.width), H = Double(img.height)
        let source = Rect(cr.origin.x * W, cr.origin.y * H, cr.size.width * W, cr.size.height * H)
        guard source.size.width > 0, source.size.height > 0, layer.contentsScale > 0 else { return nil }
        let natural = Size(source.size.width / layer.contentsScale, source.size.height / layer.contentsScale)
        let dest = layer.contentsGravity.rect(for: natural, in: layer.bounds.standardized)
        guard dest.width > 0, dest.height > 0, dest.isFinite else { return nil }
        return (source, dest)
    }

    mutating func drawContents(_ layer: Layer, alpha: Double) throws {
        if let img = layer.contents { try drawContents(img, of: layer, alpha: alpha) }
    }

    /// `img` drawn as the layer's contents (a pixel buffer layer's frame too).
    mutating func drawContents(_ img: Image, of layer: Layer, alpha: Double) throws {
        guard alpha > 0, let (source, dest) = Compositor.contentsGeometry(layer, img) else { return }
        stats.layersDrawn += 1
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Images stay upright under an odd number of flips; drawn backing
        // stores follow the layer's geometry like its sublayers (D16).
        if contentsFlipped && !img.isBackingStore {
            cairo_translate(cr, 0, dest.minY + dest.maxY)
            cairo_scale(cr, 1, -1)
        }
        cairo_rectangle(cr, dest.minX, dest.minY, dest.width, dest.height)
        cairo_clip(cr)
        let patches = ninePatches(layer, source: source, dest: dest)
        // Patches meet exactly on pixel centres without antialiasing (no
        // seams); the clip above keeps the outer edges smooth.
        if patches.count > 1 { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
        for (s, d) in patches { try drawPatch(img, layer: layer, source: s, dest: d, alpha: alpha) }
    }

    /// contentsCenter's nine patches: the corners keep their natural size
    /// (scaled down together when the destination is smaller, D9), the edges
    /// stretch along one axis, the centre along both. One patch when there is
    /// nothing to slice.
    func ninePatches(_ layer: Layer, source s: Rect, dest d: Rect) -> [(Rect, Rect)] {
        let c = layer.contentsCenter
        guard c != Rect(0, 0, 1, 1) else { return [(s, d)] }
        let k = layer.contentsScale
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        let left = clamp(c.minX) * s.width, right = clamp(1 - c.maxX) * s.width
        let top = clamp(c.minY) * s.height, bottom = clamp(1 - c.maxY) * s.height
        func cuts(_ lo: Double, _ hi: Double, _ srcStart: Double, _ srcLen: Double, _ dstStart: Double, _ dstLen: Double) -> ([Double], [Double]) {
            let (a, b) = (min(lo, srcLen), min(hi, max(0, srcLen - lo)))
            var (da, db) = (a / k, b / k)
            if da + db > dstLen, da + db > 0 { let f = dstLen / (da + db); da *= f; db *= f }
            return ([srcStart, srcStart + a, srcStart + srcLen - b, srcStart + srcLen],
                    [dstStart, dstStart + da, dstStart + dstLen - db, dstStart + dstLen])
        }
        let (sx, dx) = cuts(left, right, s.minX, s.width, d.minX, d.width)
        let (sy, dy) = cuts(top, bottom, s.minY, s.height, d.minY, d.height)
        var out: [(Rect, Rect)] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let src = Rect(sx[i], sy[j], sx[i + 1] - sx[i], sy[j + 1] - sy[j])
                let dst = Rect(dx[i], dy[j], dx[i + 1] - dx[i], dy[j + 1] - dy[j])
                if src.size.width > 0, src.size.height > 0, dst.size.width > 0, dst.size.height > 0 { out.append((src, dst)) }
            }
        }
        return out
    }

    /// Maps `source` (image pixels) onto `dest` (points), edge pixels
    /// extended, sampled with the layer's filter for this scale.
    mutating func drawPatch(_ img: Image, layer: Layer, source: Rect, dest: Rect, alpha: Double) throws {
        let sx = source.width / dest.width, sy = source.height / dest.height
        // Device pixels per image pixel decides magnification vs minification.
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let devicePerPixel = sqrt(abs(m.xx * m.yy - m.xy * m.yx) / (sx * sy))
        let filter = devicePerPixel > 1.0 + 1e-9 ? layer.magnificationFilter : layer.minificationFilter
        if filter == .trilinear, devicePerPixel < 1 - 1e-9 {
            return try drawTrilinear(img, layer: layer, source: source, dest: dest, alpha: alpha, devicePerPixel: devicePerPixel)
        }
        paint(img, scale: 1, source: source, dest: dest, filter: filter == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR,
              alpha: alpha)
    }

    /// Paints `level` (an image `scale` times the original's size) mapped as
    /// the original's `source` → `dest`.
    func paint(_ level: Image, scale: Double, source: Rect, dest: Rect, filter: cairo_filter_t, alpha: Double,
               op: cairo_operator_t = CAIRO_OPERATOR_OVER) {
        let pattern = cairo_pattern_create_for_surface(level.surface)!
        defer { cairo_pattern_destroy(pattern) }
        let sx = source.width / dest.width * scale, sy = source.height / dest.height * scale
        var pm = cairo_matrix_t(xx: sx, yx: 0, xy: 0, yy: sy,
                                x0: source.minX * scale - dest.minX * sx, y0: source.minY * scale - dest.minY * sy)
        cairo_pattern_set_matrix(pattern, &pm)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, filter)
        cairo_set_source(cr, pattern)
        cairo_set_operator(cr, op)
        cairo_rectangle(cr, dest.minX, dest.minY, dest.width, dest.height)
        if alpha >= 1 {
            cairo_fill(cr)
        } else {
            cairo_save(cr)
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, alpha)
            cairo_restore(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// Trilinear minification: the two mip levels around the scale, each
    /// sampled bilinearly, blended by where the scale falls between them.
    mutating func drawTrilinear(_ img: Image, layer: Layer, source: Rect, dest: Rect, alpha: Double, devicePerPixel: Double) throws {
        let chain = try img.mipmaps()
        // At most the last level: a scale that underflows to 0 gives ∞ (and
        // converting that to an Int traps).
        let level = min(max(0, log2(1 / devicePerPixel) + layer.minificationFilterBias), Double(chain.count - 1))
        let lo = Int(level.rounded(.down)), hi = min(lo + 1, chain.count - 1)
        let f = lo == hi ? 0 : level - Double(lo)
        func draw(_ i: Int, _ a: Double, _ op: cairo_operator_t) {
            let l = chain[i]
            paint(l, scale: Double(l.width) / Double(img.width), source: source, dest: dest, filter: CAIRO_FILTER_BILINEAR,
                  alpha: a, op: op)
        }
        if f <= 0 { return draw(lo, alpha, CAIRO_OPERATOR_OVER) }
        try pushGroup()
        draw(lo, 1, CAIRO_OPERATOR_OVER)
        draw(hi, f, CAIRO_OPERATOR_SOURCE)   // SOURCE through an alpha is a lerp
        popGroupToSource()
        cairo_paint_with_alpha(cr, alpha)
    }
}

extension Image {
    /// Level 0 (the image) and its halvings down to 1×1: each level is the
    /// 2×2 box average of the one above (spec D21), built once. The levels
    /// are charged to the current ledger: a refusal is thrown.
    func mipmaps() throws -> [Image] {
        if let c = mipmapChain { return [self] + c }
        try RenderBand.requireCallingThread()
        var chain = [self]
        while let last = chain.last, last.width > 1 || last.height > 1, chain.count < 32 {
            let w = max(1, (last.width + 1) / 2), h = max(1, (last.height + 1) / 2)
            let next = try Image(width: w, height: h)
            let cr = cairo_create(next.surface)!
            cairo_scale(cr, Double(w) / Double(last.width), Double(h) / Double(last.height))
            cairo_set_source_surface(cr, last.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
            cairo_destroy(cr)
            chain.append(next)
        }
        mipmapChain = Array(chain.dropFirst())   // not self: no retain cycle
        return chain
    }
}
