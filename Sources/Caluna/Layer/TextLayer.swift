/// The properties of a TextLayer (stub: filled in by issue #9).
public struct TextLayerState: Equatable {}

extension LayerProperties {
    static let textLayer: [LayerProperty] = []
}
