/// The properties of a ReplicatorLayer (stub: filled in by issue #9).
public struct ReplicatorLayerState: Equatable {}

extension LayerProperties {
    static let replicatorLayer: [LayerProperty] = []
}
