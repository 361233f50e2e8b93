/// The properties of a GradientLayer (stub: filled in by issue #9).
public struct GradientLayerState: Equatable {}

extension LayerProperties {
    static let gradientLayer: [LayerProperty] = []
}
