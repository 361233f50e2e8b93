import CCairo

/// What one render cost.
public struct RenderStats: Sendable, Equatable {
    public var layersVisited = 0
    public var layersDrawn = 0
    public var offscreenPasses = 0
    public init() {}
}

/// Draws a layer tree into a bitmap with cairo, per layer in this order:
/// background < sublayers (stably sorted by zPosition), clipped by
/// masksToBounds, then opacity — as one group when allowsGroupOpacity is set
/// and the layer has visible sublayers, otherwise multiplied into each
/// descendant. Later issues add contents, border, shadow and mask to this order.
struct Compositor {
    let cr: OpaquePointer
    var stats = RenderStats()

    init(target: Image, scale: Double) {
        cr = cairo_create(target.surface)
        cairo_scale(cr, scale, scale)
    }

    func finish() { cairo_destroy(cr) }

    /// Draws `layer` placed in the current space (canvas space for a root);
    /// `parentSpace` is the superlayer's geometryFlipped map, passed down so
    /// no layer has to look its superlayer up.
    mutating func draw(_ layer: Layer, parentSpace: AffineTransform?, inheritedOpacity: Double) throws {
        stats.layersVisited += 1
        guard !layer.hidden else { return }
        let opacity = min(max(layer.opacity, 0), 1)
        guard opacity > 0 else { return }
        guard let m = layer.affineToSuperlayer(parentSpace: parentSpace) else {
            throw CalunaError.unsupported("rendering a perspective transform is not supported yet (3D transforms, issue #7)")
        }
        // A degenerate (edge-on or zero-scale) layer draws nothing.
        guard m.a * m.d - m.b * m.c != 0 else { return }
        let b = layer.bounds
        let sublayers = layer.sublayers

        // Leaf fast path: an axis-aligned layer with nothing but a background
        // is one rectangle in the parent's space (no save/transform/restore).
        if sublayers.isEmpty, m.b == 0, m.c == 0, layer.transitionFrame == nil {
            fillBackground(layer, Rect(b.minX * m.a + m.tx, b.minY * m.d + m.ty, b.width * m.a, b.height * m.d),
                           alpha: inheritedOpacity * opacity)
            return
        }

        cairo_save(cr)
        defer { cairo_restore(cr) }
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_transform(cr, &cm)

        // Group opacity matters where more than the background is drawn.
        let drawsMore = sublayers.contains { !$0.hidden && $0.opacity > 0 } || layer.transitionFrame != nil
        let group = opacity < 1 && layer.allowsGroupOpacity && drawsMore
        let alpha = group ? 1 : inheritedOpacity * opacity
        if group {
            cairo_push_group(cr)
            stats.offscreenPasses += 1
        }
        if layer.masksToBounds {
            cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
            cairo_clip(cr)
        }
        if let t = layer.transitionFrame {
            try drawTransition(t, over: layer, alpha: alpha)
        } else {
            try drawContent(layer, alpha: alpha)
        }
        if group {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, inheritedOpacity * opacity)
        }
    }

    /// What a layer shows in its own space: background, then sublayers.
    mutating func drawContent(_ layer: Layer, alpha: Double) throws {
        let b = layer.bounds
        fillBackground(layer, b, alpha: alpha)
        if !layer.sublayers.isEmpty && !(layer.masksToBounds && b.isEmpty) {
            let space = layer.sublayerSpaceAffine
            for sub in layer.sublayersInDrawingOrder {
                try draw(sub, parentSpace: space, inheritedOpacity: alpha)
            }
        }
    }

    /// The background colour over `rect` (current space). Antialiasing stays
    /// at cairo's default except around layers that turn it off.
    private mutating func fillBackground(_ layer: Layer, _ rect: Rect, alpha: Double) {
        guard let bg = layer.backgroundColor?.clamped, bg.alpha > 0, !rect.isEmpty else { return }
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
        cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha * alpha)
        cairo_rectangle(cr, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
        cairo_fill(cr)
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT) }
        stats.layersDrawn += 1
    }
}
