import Glibc

/// The memory an engine makes on a script's behalf, against one cap (DESIGN
/// §4, untrusted scripts): bitmaps, layers, animations, paths, text
/// layouts, physics objects. Each kind is charged where it is made, before
/// the allocation, and released when it is freed (`MemoryCharge` does both).
///
/// Thread-safe: objects may be freed on another thread than the one that
/// made them, so the counters sit behind a lock.
///
/// Finding the ledger: code that knows its engine uses `engine.memory`
/// (layers, animations, physics worlds; shapes and constraints use their
/// body's). Bitmaps and free-standing objects
/// (images decoded by a script, physics bodies made before a world holds
/// them) take the thread's *current* ledger, `MemoryLedger.current`: the
/// engine sets it while it works (step, render, display, snapshot) and the
/// C ABI and Lua entry points set it around each call with
/// `engine.memory.withCurrent { … }`. Outside any such call there is no
/// current ledger and nothing is charged (trusted Swift use).
public final class MemoryLedger: @unchecked Sendable {
    private struct State {
        var limit = 0
        var used = 0
        var peak = 0
        var external: (@Sendable () -> Int)? = nil
        var reclaim: (@Sendable () -> Void)? = nil
        var reclaiming = false
        /// `external()` as read when a parallel section began (nil: ask it).
        var frozenExternal: Int? = nil
    }
    private let state = Locked(State())

    /// A ledger capped at `limit` bytes; 0 (the default) is no limit, so
    /// nothing changes for trusted use.
    public init(limit: Int = 0) { state.withLock { $0.limit = max(limit, 0) } }

    /// The cap in bytes on `used` + `external()`; 0 (the default) means no
    /// limit. Negative values are stored as 0. Lowering it below what is
    /// charged frees nothing: the next charge is refused.
    public var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = max(newValue, 0) } }
    }

    /// Bytes counted elsewhere that share the cap (the Lua heap), asked at
    /// each charge while a limit is set; nil (the default) counts 0.
    public var external: (@Sendable () -> Int)? {
        get { state.withLock { $0.external } }
        set { state.withLock { $0.external = newValue } }
    }

    /// Frees what can be freed (the Lua binding runs a full collection, so
    /// bitmaps only garbage still holds are let go), called once before a
    /// charge is refused; nil (the default) refuses at once.
    public var reclaim: (@Sendable () -> Void)? {
        get { state.withLock { $0.reclaim } }
        set { state.withLock { $0.reclaim = newValue } }
    }

    /// Engine bytes charged now.
    public var used: Int { state.withLock { $0.used } }
    /// The most `used` has been since the ledger was made.
    public var peak: Int { state.withLock { $0.peak } }

    /// Adds `bytes` to `used`, or refuses with `.outOfMemory` ("<what>: the
    /// engine memory limit (N MiB) is reached") when a limit is set and
    /// `used + external + bytes` would pass it. A negative byte count is
    /// refused with `.invalidArgument`; overflow is refused, never a trap.
    public func charge(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        do {
            try admit(bytes, what, commit: true)
        } catch let e as CalunaError where e.code == .outOfMemory {
            guard reclaimOnce() else { throw e }
            try admit(bytes, what, commit: true)
        }
    }

    /// Runs `reclaim` unless it is running already (it may free, never charge
    /// again through itself); true when it ran.
    private func reclaimOnce() -> Bool {
        let run: (@Sendable () -> Void)? = state.withLock { s in
            guard !s.reclaiming, s.frozenExternal == nil, let r = s.reclaim else { return nil }
            s.reclaiming = true
            return r
        }
        guard let run else { return false }
        run()
        state.withLock { $0.reclaiming = false }
        return true
    }

    /// Refuses as `charge` would, without charging (for a size that must be
    /// checked before an allocation made elsewhere, then `force`d).
    public func check(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        try admit(bytes, what, commit: false)
    }

    private func admit(_ bytes: Int, _ what: () -> String, commit: Bool) throws {
        guard bytes >= 0 else { throw CalunaError.invalid("\(what()): a negative memory charge (\(bytes) bytes)") }
        // Asked outside the lock: the callback may take locks of its own.
        let (limited, frozen) = state.withLock { ($0.limit > 0, $0.frozenExternal) }
        let ext = limited ? frozen ?? max(external?() ?? 0, 0) : 0
        enum Outcome { case admitted, overflow, refused(limit: Int) }
        let outcome: Outcome = state.withLock { s in
            let (total, o1) = s.used.addingReportingOverflow(bytes)
            if o1 { return .overflow }
            let (all, o2) = total.addingReportingOverflow(ext)
            if s.limit > 0, o2 || all > s.limit { return .refused(limit: s.limit) }
            if commit {
                s.used = total
                s.peak = max(s.peak, total)
            }
            return .admitted
        }
        switch outcome {
        case .admitted: return
        case .overflow: throw CalunaError.invalid("\(what()): a memory charge of \(bytes) bytes overflows")
        case .refused(let limit):
            throw CalunaError(.outOfMemory, "\(what()): the engine memory limit (\(MemoryLedger.mebibytes(limit)) MiB) is reached")
        }
    }

    /// Runs `body` while several threads charge this ledger (a render's
    /// bands): `external` is read once before, and nothing is reclaimed (both
    /// call into a script's state, which only its own thread may touch); a
    /// charge that would need reclaiming is refused instead.
    func withFrozenExternal<R>(_ body: () throws -> R) rethrows -> R {
        let ext = max(external?() ?? 0, 0)
        let previous = state.withLock { s in
            defer { s.frozenExternal = ext }
            return s.frozenExternal
        }
        defer { state.withLock { $0.frozenExternal = previous } }
        return try body()
    }

    /// Adds bytes already allocated (after a `check`): never refused, so
    /// `used` stays true to what exists. Negative counts are ignored.
    func force(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { s in
            s.used = s.used.addingReportingOverflow(bytes).overflow ? Int.max : s.used + bytes
            s.peak = max(s.peak, s.used)
        }
    }

    /// Gives back bytes charged earlier (clamped at 0; negative counts are ignored).
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.used = max($0.used - bytes, 0) }
    }

    /// "1.5" for 1.5 MiB, "64" for 64 MiB.
    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20)" : fmt((Double(bytes) / Double(1 << 20) * 100).rounded() / 100)
    }

    // MARK: the current ledger

    /// The ledger the innermost `withCurrent` (or ThreadContext.enter) on
    /// this thread set, or nil.
    public static var current: MemoryLedger? {
        guard let p = ThreadContext.ledger else { return nil }
        return Unmanaged<MemoryLedger>.fromOpaque(p).takeUnretainedValue()
    }

    /// Runs `body` with `ledger` as this thread's current ledger (nil: none),
    /// restoring the previous one afterwards, also when `body` throws; calls
    /// nest. The ledger stays alive for the call (the caller holds it), so
    /// the thread's record keeps an unretained pointer.
    public static func withCurrent<R>(_ ledger: MemoryLedger?, _ body: () throws -> R) rethrows -> R {
        let previous = ThreadContext.ledger
        ThreadContext.ledger = ledger.map { Unmanaged.passUnretained($0).toOpaque() }
        defer { ThreadContext.ledger = previous }
        return try withExtendedLifetime(ledger) { try body() }
    }

    /// `MemoryLedger.withCurrent(self, body)`.
    public func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
        try MemoryLedger.withCurrent(self, body)
    }
}

/// One charge held by the object it pays for, stored inline in it (no
/// object of its own: the layers and animations that hold one per instance
/// would each pay 48 bytes more): made (and refused) before the
/// allocation, released exactly once when the holder is freed, whatever
/// path frees it. `resize` follows storage that grows or shrinks.
public struct HeldCharge: ~Copyable, @unchecked Sendable {
    /// nil: nothing is charged (no ledger was current).
    public let ledger: MemoryLedger?
    /// Bytes held now.
    public private(set) var bytes = 0

    /// Nothing charged.
    public init() { ledger = nil }

    /// Charges `bytes` to `ledger` (nothing when it is nil); throws as
    /// `MemoryLedger.charge` does.
    public init(_ ledger: MemoryLedger?, _ bytes: Int, _ what: @autoclosure () -> String) throws {
        try ledger?.charge(bytes, what())
        self.ledger = ledger
        self.bytes = ledger == nil ? 0 : bytes
    }

    /// For memory already allocated after a `check`: never refused.
    init(forcing ledger: MemoryLedger?, _ bytes: Int) {
        self.ledger = ledger
        ledger?.force(bytes)
        self.bytes = ledger == nil ? 0 : max(bytes, 0)
    }

    /// Charges or releases the difference so `bytes` becomes `newBytes`; on
    /// refusal nothing changes.
    public mutating func resize(to newBytes: Int, _ what: @autoclosure () -> String) throws {
        guard let ledger else { return }
        guard newBytes >= 0 else { throw CalunaError.invalid("\(what()): a negative memory charge (\(newBytes) bytes)") }
        if newBytes > bytes { try ledger.charge(newBytes - bytes, what()) } else { ledger.release(bytes - newBytes) }
        bytes = newBytes
    }

    /// Sets the charge to `newBytes` without refusal (storage already made
    /// after a check).
    mutating func force(to newBytes: Int) {
        guard let ledger, newBytes >= 0 else { return }
        if newBytes > bytes { ledger.force(newBytes - bytes) } else { ledger.release(bytes - newBytes) }
        bytes = newBytes
    }

    deinit { ledger?.release(bytes) }
}

/// A HeldCharge as an object, for holders that are values (copied, kept in
/// arrays) and so cannot hold a noncopyable charge themselves.
public final class MemoryCharge: @unchecked Sendable {
    private var held: HeldCharge
    public var ledger: MemoryLedger? { held.ledger }
    public var bytes: Int { held.bytes }

    public init(_ ledger: MemoryLedger?, _ bytes: Int, _ what: @autoclosure () -> String) throws {
        held = try HeldCharge(ledger, bytes, what())
    }

    init(forcing ledger: MemoryLedger?, _ bytes: Int) { held = HeldCharge(forcing: ledger, bytes) }

    public func resize(to newBytes: Int, _ what: @autoclosure () -> String) throws { try held.resize(to: newBytes, what()) }

    func force(to newBytes: Int) { held.force(to: newBytes) }
}
