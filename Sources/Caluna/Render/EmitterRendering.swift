extension Compositor {
    /// Stub (issue #9): a EmitterLayer draws nothing yet.
    mutating func drawParticles(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "EmitterLayer drawing is not implemented yet")
    }
}
