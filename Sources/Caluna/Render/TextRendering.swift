extension Compositor {
    /// Stub (issue #9): a TextLayer draws nothing yet.
    mutating func drawText(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "TextLayer drawing is not implemented yet")
    }
}
