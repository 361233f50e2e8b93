extension Compositor {
    /// Stub (issue #9): the sublayers are drawn once, like a CALayer's.
    mutating func drawReplicatedSublayers(of layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "ReplicatorLayer drawing is not implemented yet")
    }
}
