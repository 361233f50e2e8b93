import CCairo

/// renderInContext: and snapshots: a layer's model subtree drawn in its own
/// coordinate space (its own transform and position are not applied; its
/// opacity is), as it is now — animations are not sampled.
extension Layer {
    /// Draws the layer and its sublayers into a draw callback's context.
    public func render(in ctx: DrawingContext) throws {
        let cr = try ctx.live("Layer.renderInContext")
        try withEngineMemory { try renderStandalone(cr) }
    }

    private func renderStandalone(_ cr: OpaquePointer) throws {
        var compositor = Compositor(cairo: cairo_reference(cr))
        defer { compositor.finish() }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        try compositor.drawStandalone(self)
        engine?.pendingStats.absorb(compositor.stats)
    }

    /// The layer's bounds as an image of bounds × scale pixels (rounded up).
    public func snapshot(scale: Double = 1) throws -> Image {
        guard scale.isFinite, scale > 0, scale <= 64 else {
            throw CalunaError.invalid("snapshot: scale must be in (0, 64] (got \(scale))")
        }
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        guard w >= 1, h >= 1, w <= Double(Image.maximumSide), h <= Double(Image.maximumSide) else {
            throw CalunaError.invalid("snapshot: \(fmt(w))×\(fmt(h)) pixels is empty or too large (at most \(Image.maximumSide) per side)")
        }
        return try withEngineMemory {
            let image = try Image(width: Int(w), height: Int(h))
            let ctx = DrawingContext(image: image, scale: scale, origin: bounds.origin)
            defer { ctx.invalidate() }
            try render(in: ctx)
            return image
        }
    }
}

extension Compositor {
    /// A layer as the root of a drawing, in its bounds space.
    mutating func drawStandalone(_ layer: Layer) throws {
        stats.layersVisited += 1
        let opacity = layer.drawnOpacity
        guard !layer.hidden, opacity > 0 else { return }
        try drawBody(layer, alpha: opacity, asGroup: opacity < 1 && layer.drawsOverlappingParts && layer.allowsGroupOpacity)
    }
}
