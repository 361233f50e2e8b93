/// The properties of a ScrollLayer (stub: filled in by issue #9).
public struct ScrollLayerState: Equatable {}

extension LayerProperties {
    static let scrollLayer: [LayerProperty] = []
}
