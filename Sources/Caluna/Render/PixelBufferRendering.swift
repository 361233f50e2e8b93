extension Compositor {
    /// Stub (issue #9): a PixelBufferLayer draws nothing yet.
    mutating func drawPixelBuffer(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "PixelBufferLayer drawing is not implemented yet")
    }
}
