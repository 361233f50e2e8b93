extension Compositor {
    /// Stub (issue #9): a ShapeLayer draws nothing yet.
    mutating func drawShape(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "ShapeLayer drawing is not implemented yet")
    }
}
