extension Compositor {
    /// Stub (issue #9): a TiledLayer draws nothing yet.
    mutating func drawTiles(_ layer: Layer, alpha: Double) throws {
        throw CalunaError(.notSupported, "TiledLayer drawing is not implemented yet")
    }
}
