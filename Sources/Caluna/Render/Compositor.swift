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

    /// Draws `layer` placed in the current space (canvas space for a root).
    mutating func draw(_ layer: Layer, inheritedOpacity: Double) throws {
        stats.layersVisited += 1
        guard !layer.hidden else { return }
        let opacity = min(max(layer.opacity, 0), 1)
        guard opacity > 0 else { return }

        guard let m = layer.toSuperlayer.affine else {
            throw CalunaError.unsupported("rendering a perspective transform is not supported yet (3D transforms, issue #7)")
        }
        // A degenerate (edge-on or zero-scale) layer draws nothing.
        guard m.a * m.d - m.b * m.c != 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_transform(cr, &cm)

        let visibleSublayers = layer.sublayers.contains { !$0.hidden && $0.opacity > 0 }
        let group = opacity < 1 && layer.allowsGroupOpacity && visibleSublayers
        let alpha = group ? 1 : inheritedOpacity * opacity
        if group {
            cairo_push_group(cr)
            stats.offscreenPasses += 1
        }

        let b = layer.bounds
        if layer.masksToBounds {
            cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
            cairo_clip(cr)
        }
        if let bg = layer.backgroundColor?.clamped, bg.alpha > 0, !b.isEmpty {
            cairo_set_antialias(cr, layer.allowsEdgeAntialiasing ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
            cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha * alpha)
            cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
            cairo_fill(cr)
            stats.layersDrawn += 1
        }
        if !layer.sublayers.isEmpty && !(layer.masksToBounds && b.isEmpty) {
            // Sublayers are placed in the sublayer space; toSuperlayer of each
            // already includes this layer's geometryFlipped, so nothing to add.
            for sub in layer.sublayersInDrawingOrder {
                try draw(sub, inheritedOpacity: alpha)
            }
        }

        if group {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, inheritedOpacity * opacity)
        }
    }
}
