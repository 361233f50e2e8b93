import CCairo
import Glibc

/// True 3D (spec ch.5 §1.8–1.10, DESIGN §4 "3D"): the sublayers of a layer
/// that are not flat form a 3D rendering context. Transform layers are passed
/// through (their sublayers join the context with the matrices multiplied);
/// every other layer flattens its own subtree into its plane. The context's
/// layers are drawn back to front by the depth of their centres, back faces
/// are culled when doubleSided is false, and a layer whose placement is
/// projective is drawn flat offscreen and composited through a homography
/// by pixman (bilinear, perspective-correct, clipped at the near plane).
extension Compositor {
    /// A layer of a 3D rendering context: its map into the context layer's
    /// own space and the opacity of the transform layers it was reached through.
    struct ContextLayer {
        let layer: Layer
        let matrix: Transform3D
        let opacity: Double
        /// z / w of the layer's centre after `matrix` (larger is nearer);
        /// −∞ when the centre is at or behind the eye.
        let depth: Double
    }

    /// Draws the layer's sublayers as one depth-sorted 3D rendering context
    /// (DepthOrder.swift). Intersecting layers are not split: each is drawn whole.
    mutating func drawRenderingContext(of layer: Layer, alpha: Double) throws {
        var members: [ContextLayer] = []
        try collect(layer.sublayersInDrawingOrder, outer: layer.sublayerSpaceTransform, opacity: 1, into: &members, level: 0)
        let quads = members.count <= DepthOrder.exactLimit ? members.map { DepthOrder.Quad($0.layer.bounds, $0.matrix) } : []
        let order = DepthOrder.order(depths: members.map(\.depth), quads: quads)
        let clip = deviceClip()
        var cm = cairo_matrix_t()
        cairo_get_matrix(cr, &cm)
        let toDevice = AffineTransform(a: cm.xx, b: cm.yx, c: cm.xy, d: cm.yy, tx: cm.x0, ty: cm.y0)
        for i in order {
            let m = members[i]
            if !m.layer.doubleSided && !Compositor.facesViewer(m.layer.bounds, m.matrix, flipped: layer.geometryFlipped) {
                continue
            }
            let placement = m.matrix.planeProjection
            if let clip, Compositor.isOutside(m.layer, placedBy: placement, toDevice, clip) { continue }
            try draw(m.layer, placement: placement, inheritedOpacity: alpha * m.opacity)
        }
    }

    /// True when everything `layer` draws (its visual extent, shadow and
    /// sublayers included) placed affinely lands outside the device clip:
    /// drawing it would change no pixel, so a context of mostly off-screen
    /// layers (the book's G2) costs what it shows. Projective placements
    /// are clipped by drawProjected.
    private static func isOutside(_ layer: Layer, placedBy placement: PlaneProjection, _ toDevice: AffineTransform,
                                  _ clip: Rect) -> Bool {
        guard let a = placement.affine else { return false }
        // A plain coloured leaf draws its bounds (visualExtent would say so, at more cost).
        let plain = layer.sublayers.isEmpty && layer.kind == .layer && layer.transitionFrame == nil && layer.drawsOnlyBackground
        // depth 1: with the layer's own shadow (depth 0 leaves it to the caller).
        guard let extent = plain ? layer.bounds : layer.visualExtent(depth: 1) else { return false }
        return !toDevice.apply(a.apply(extent)).intersects(clip)
    }

    private mutating func collect(_ layers: [Layer], outer: Transform3D, opacity: Double,
                                  into members: inout [ContextLayer], level: Int) throws {
        guard level < Layer.maximumTreeDepth else {
            throw CalunaError(.treeError, "render: transform layers nest deeper than \(Layer.maximumTreeDepth) levels")
        }
        for sub in layers {
            stats.layersVisited += 1
            guard !sub.hidden else { continue }
            let m = sub.geometryTransform.concatenating(outer)
            if sub.kind.preservesDepth {
                let o = sub.drawnOpacity
                guard o > 0 else { continue }
                try collect(sub.sublayersInDrawingOrder, outer: sub.sublayerSpaceTransform.concatenating(m),
                            opacity: opacity * o, into: &members, level: level + 1)
            } else {
                members.append(ContextLayer(layer: sub, matrix: m, opacity: opacity, depth: Compositor.depth(of: sub.bounds, m)))
            }
        }
    }

    static func depth(of bounds: Rect, _ m: Transform3D) -> Double {
        let x = bounds.midX, y = bounds.midY
        let z = x * m.m13 + y * m.m23 + m.m43, w = x * m.m14 + y * m.m24 + m.m44
        guard w > 0 else { return -.infinity }
        return z / w
    }

    /// Spec ch.5 §1.10: the bounds' corners (TL, TR, BR, BL) projected into
    /// the context (near-plane clipped) turn clockwise on a y-down screen.
    /// A flipped context mirrors y, so its sense is reversed.
    static func facesViewer(_ bounds: Rect, _ m: Transform3D, flipped: Bool) -> Bool {
        let projected = ProjectiveClipping.project(bounds.corners, through: m.planeProjection).points
        let area = ProjectiveClipping.signedArea(projected)
        return flipped ? area < 0 : area > 0
    }

    // MARK: projective placement

    /// The largest offscreen a projected layer is drawn into (pixels).
    static let maximumProjectedPixels = 16_000_000.0

    /// Draws `layer` (its whole flattened subtree) through the projective
    /// `placement` (layer plane → current user space).
    mutating func drawProjected(_ layer: Layer, _ placement: PlaneProjection, inheritedOpacity: Double) throws {
        let opacity = layer.drawnOpacity
        guard opacity > 0 else { return }
        try checkNesting()
        let alpha = inheritedOpacity * opacity
        var user = cairo_matrix_t()
        cairo_get_matrix(cr, &user)
        let toDevice = placement.concatenating(PlaneProjection(
            m11: user.xx, m12: user.yx, m14: 0, m21: user.xy, m22: user.yy, m24: 0, m41: user.x0, m42: user.y0, m44: 1))
        guard let clip = deviceClip() else { return }
        // Unbounded (a sublayer reaches the eye's plane): the layer's own
        // bounds; a transform layer has nothing of its own to fall back on.
        let extent = layer.visualExtent() ?? (layer.kind.preservesDepth ? .zero : layer.bounds)
        guard !extent.isEmpty else { return }
        let visible = ProjectiveClipping.project(extent.corners, through: toDevice, within: clip.insetBy(-2, -2))
        guard visible.points.count >= 3, ProjectiveClipping.signedArea(visible.points) != 0 else { return }

        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        // A plain coloured rectangle is exactly its projected polygon.
        if layer.sublayers.isEmpty, layer.transitionFrame == nil, layer.kind == .layer, layer.drawsOnlyBackground {
            fillBackground(layer, alpha: alpha) { Compositor.addPolygon($0, visible.points) }
            return
        }
        guard let fromDevice = toDevice.inverted() else { return }
        let preimage = visible.points.compactMap { fromDevice.apply($0) }
        guard preimage.count == visible.points.count else { return }
        let source = Rect.bounding(preimage).intersection(extent)
        guard !source.isEmpty else { return }
        // Resolution: the largest magnification over the visible part, so
        // the nearest texels are not stretched; bounded in total size.
        var k = preimage.map { Compositor.stretch(of: toDevice, at: $0) }.max() ?? 1
        k = min(k, (Compositor.maximumProjectedPixels / (source.width * source.height)).squareRoot(), 8192 / max(source.width, source.height))
        guard k.isFinite, k > 0 else { return }
        let image = try Image(width: Int((source.width * k).rounded(.up)) + 2, height: Int((source.height * k).rounded(.up)) + 2)
        var sub = offscreen(image.surface)
        sub.depth = depth + 1
        // One transparent texel of margin gives antialiased edges.
        cairo_translate(sub.cr, 1, 1)
        cairo_scale(sub.cr, k, k)
        cairo_translate(sub.cr, -source.minX, -source.minY)
        do {
            defer { sub.finish() }
            try sub.drawBody(layer, alpha: 1)
        }
        absorb(sub)
        stats.offscreenPasses += 1
        stats.offscreenPixels += image.width * image.height

        let box = Rect.bounding(visible.points).intersection(clip)
        let x0 = floor(box.minX), y0 = floor(box.minY)
        let w = Int(ceil(box.maxX) - x0), h = Int(ceil(box.maxY) - y0)
        guard w > 0, h > 0 else { return }
        // target pixel → device → layer plane → offscreen texel
        let texel = PlaneProjection(m11: k, m12: 0, m14: 0, m21: 0, m22: k, m24: 0,
                                    m41: 1 - k * source.minX, m42: 1 - k * source.minY, m44: 1)
        let targetToTexel = PlaneProjection(m11: 1, m12: 0, m14: 0, m21: 0, m22: 1, m24: 0, m41: x0, m42: y0, m44: 1)
            .concatenating(fromDevice).concatenating(texel)
        let target = try Image(width: w, height: h)
        Compositor.warp(image, into: target, by: targetToTexel)
        // Only the projected polygon is valid: far outside it pixman's
        // fixed-point source coordinates overflow. One pixel of margin keeps
        // the filtered edge.
        Compositor.addPolygon(cr, Compositor.grow(visible.points, by: 1))
        cairo_set_source_surface(cr, target.surface, x0, y0)
        if alpha >= 1 {
            cairo_fill(cr)
        } else {
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
    }

    /// A convex polygon with each vertex moved `d` away from the centroid.
    static func grow(_ points: [Point], by d: Double) -> [Point] {
        let n = Double(points.count)
        let c = Point(points.reduce(0) { $0 + $1.x } / n, points.reduce(0) { $0 + $1.y } / n)
        return points.map { p in
            let dx = p.x - c.x, dy = p.y - c.y, len = (dx * dx + dy * dy).squareRoot()
            return len > 0 ? Point(p.x + dx / len * d, p.y + dy / len * d) : p
        }
    }

    /// The local magnification of `m` at `p`: the longer image of a unit step.
    static func stretch(of m: PlaneProjection, at p: Point) -> Double {
        let x = p.x * m.m11 + p.y * m.m21 + m.m41, y = p.x * m.m12 + p.y * m.m22 + m.m42
        let w = p.x * m.m14 + p.y * m.m24 + m.m44
        guard w > 0 else { return 1 }
        let dxdu = (m.m11 * w - x * m.m14) / (w * w), dydu = (m.m12 * w - y * m.m14) / (w * w)
        let dxdv = (m.m21 * w - x * m.m24) / (w * w), dydv = (m.m22 * w - y * m.m24) / (w * w)
        return max((dxdu * dxdu + dydu * dydu).squareRoot(), (dxdv * dxdv + dydv * dydv).squareRoot())
    }

    /// Resamples `source` into `target` with pixman: each target pixel
    /// centre is mapped by `targetToSource` (a homography) and sampled
    /// bilinearly; outside the source is transparent.
    static func warp(_ source: Image, into target: Image, by targetToSource: PlaneProjection) {
        cairo_surface_flush(source.surface)
        guard let src = pixmanImage(of: source), let dst = pixmanImage(of: target) else { return }
        defer { pixman_image_unref(src); pixman_image_unref(dst) }
        // pixman multiplies column vectors in 16.16 fixed point, and its
        // homogeneous results must stay below 2^15: transpose, and scale the
        // (scale-free) matrix so the largest |u|, |v|, |w| over the target —
        // reached at a corner, the map being linear — is 2^14.
        let m = targetToSource
        let rows = [[m.m11, m.m21, m.m41], [m.m12, m.m22, m.m42], [m.m14, m.m24, m.m44]]
        let w = Double(target.width) + 1, h = Double(target.height) + 1
        let largest = [(0.0, 0.0), (w, 0), (0, h), (w, h)].flatMap { (x, y) in rows.map { abs($0[0] * x + $0[1] * y + $0[2]) } }.max() ?? 0
        guard largest > 0, largest.isFinite else { return }
        let f = 16384 / largest
        var t = pixman_transform()
        withUnsafeMutableBytes(of: &t.matrix) { raw in
            let e = raw.bindMemory(to: pixman_fixed_t.self)
            for r in 0..<3 { for c in 0..<3 { e[r * 3 + c] = pixman_fixed_t((rows[r][c] * f * 65536).rounded()) } }
        }
        pixman_image_set_transform(src, &t)
        pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE)
        pixman_image_composite32(PIXMAN_OP_SRC, src, nil, dst, 0, 0, 0, 0, 0, 0,
                                 Int32(target.width), Int32(target.height))
        cairo_surface_mark_dirty(target.surface)
    }

    private static func pixmanImage(of image: Image) -> OpaquePointer? {
        guard let data = cairo_image_surface_get_data(image.surface) else { return nil }
        return pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height),
                                        UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                        cairo_image_surface_get_stride(image.surface))
    }

    static func addPolygon(_ cr: OpaquePointer, _ points: [Point]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
    }
}
