import Caluna

/// One engine as seen from outside Swift: the engine and its id table. The C
/// ABI wraps one per engine pointer; the Lua binding keeps one per Lua state.
public final class Session {
    public private(set) var engine: Engine
    /// (No dynamic exclusivity check: the C ABI reads it on every call.
    /// Every access is a plain read, or `reset`'s write, which frees the old
    /// table only after the write has ended; so no access can overlap another.)
    @exclusivity(unchecked) public private(set) var handles = HandleTable()
    /// The memory cap for everything the session's engines make (the C ABI
    /// and the Lua binding set its `limit` and `external`); every engine the
    /// session makes, after a `reset` too, charges this one ledger.
    public let memory: MemoryLedger
    /// The gate every call naming a file goes through (FileAccess.swift):
    /// unrestricted unless a sandbox narrows it; kept across `reset`.
    public var fileAccess: FileAccess = .unrestricted
    /// Threads each engine of the session renders on (`Engine.setRenderThreads`:
    /// 0 is one per core); kept across `reset`.
    public private(set) var renderThreads = 0

    /// Sets `renderThreads` for this engine and those `reset` makes.
    public func setRenderThreads(_ n: Int) throws {
        try engine.setRenderThreads(n)
        renderThreads = n
    }

    public init(size: Size = Engine.defaultSize, scale: Double = 1) throws {
        let m = MemoryLedger()
        memory = m
        engine = try Engine(size: size, scale: scale, memory: m)
    }

    /// Replaces the engine with a fresh one (the test runner does this between
    /// tests). Ids of the old engine become foreign.
    public func reset(size: Size, scale: Double) throws {
        let e = try Engine(size: size, scale: scale, memory: memory)
        try e.setRenderThreads(renderThreads)
        engine = e
        let old = handles
        handles = HandleTable()
        withExtendedLifetime(old) {}
    }
}
