/// The properties of a TiledLayer (stub: filled in by issue #9).
public struct TiledLayerState: Equatable {}

extension LayerProperties {
    static let tiledLayer: [LayerProperty] = []
}
