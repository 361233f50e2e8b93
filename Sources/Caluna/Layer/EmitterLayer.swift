/// The properties of a EmitterLayer (stub: filled in by issue #9).
public struct EmitterLayerState: Equatable {}

extension LayerProperties {
    static let emitterLayer: [LayerProperty] = []
}
