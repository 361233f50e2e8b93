/// The properties of a ShapeLayer (stub: filled in by issue #9).
public struct ShapeLayerState: Equatable {}

extension LayerProperties {
    static let shapeLayer: [LayerProperty] = []
}
