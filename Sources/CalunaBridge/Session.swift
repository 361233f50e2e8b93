import Caluna

/// One engine as seen from outside Swift: the engine and its id table. The C
/// ABI wraps one per engine pointer; the Lua binding keeps one per Lua state.
public final class Session {
    public private(set) var engine: Engine
    public private(set) var handles = HandleTable()

    public init(size: Size = Engine.defaultSize, scale: Double = 1) throws {
        engine = try Engine(size: size, scale: scale)
    }

    /// Replaces the engine with a fresh one (the test runner does this between
    /// tests). Ids of the old engine become foreign.
    public func reset(size: Size, scale: Double) throws {
        let e = try Engine(size: size, scale: scale)
        engine = e
        handles = HandleTable()
    }
}
