/// The properties of a PixelBufferLayer (stub: filled in by issue #9).
public struct PixelBufferLayerState: Equatable {}

extension LayerProperties {
    static let pixelBufferLayer: [LayerProperty] = []
}
