extension Compositor {
    /// Stub (issue #9): a GradientLayer draws nothing yet.
    mutating func drawGradient(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "GradientLayer drawing is not implemented yet")
    }
}
