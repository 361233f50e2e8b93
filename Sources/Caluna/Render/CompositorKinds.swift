/// Where the specialised layers draw: each kind's own content goes between
/// the layer's contents and its sublayers (DESIGN §4's order); each kind's
/// drawing lives in its own file (ShapeRendering.swift, …).
extension LayerKind {
    /// Kinds that draw something of their own at render time.
    var drawsOwnContent: Bool {
        switch self {
        case .layer, .transformLayer, .replicatorLayer, .scrollLayer: return false
        case .shapeLayer, .textLayer, .gradientLayer, .tiledLayer, .emitterLayer, .pixelBufferLayer: return true
        }
    }
}

extension Compositor {
    /// The kind's own content in the layer's space, at `alpha`.
    mutating func drawKindContent(_ layer: Layer, alpha: Double) throws {
        switch layer.kind {
        case .shapeLayer: try drawShape(layer, alpha: alpha)
        case .textLayer: try drawText(layer, alpha: alpha)
        case .gradientLayer: try drawGradient(layer, alpha: alpha)
        case .tiledLayer: try drawTiles(layer, alpha: alpha)
        case .emitterLayer: try drawParticles(layer, alpha: alpha)
        case .pixelBufferLayer: try drawPixelBuffer(layer, alpha: alpha)
        case .layer, .transformLayer, .replicatorLayer, .scrollLayer: break
        }
    }
}
