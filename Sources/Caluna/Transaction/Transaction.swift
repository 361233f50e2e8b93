/// A completion block (CATransaction's completionBlock). `payload` is what the
/// bridge that made it wants back from `value(forKey:)` (a Lua function, a C
/// callback record).
public final class CompletionBlock {
    let body: () throws -> Void
    public let payload: Any?
    public init(payload: Any? = nil, _ body: @escaping () throws -> Void) {
        self.body = body
        self.payload = payload
    }
}

/// One completion block waiting for the animations added after it was set
/// (by its transaction or transactions nested in it). It fires once it is
/// sealed — its transaction committed or the block replaced — and nothing it
/// waits for is still running.
final class CompletionGroup {
    let block: CompletionBlock
    var pending = 0
    var sealed = false
    init(_ block: CompletionBlock) { self.block = block }
    var ready: Bool { sealed && pending == 0 }
}

/// CATransaction's stack for one engine. Reading a setting finds the
/// innermost transaction that set it (else the default); setting writes the
/// innermost. The bottom entry is the implicit transaction, made by the first
/// setting or completion block outside `begin`/`commit` and committed by the
/// engine's next commit (flush, step or render). While an explicit
/// transaction is open the engine defers its commit until the outermost one
/// is committed, as Core Animation does.
public final class TransactionStack {
    /// Core Animation's transaction keys (kCATransaction…).
    public static let animationDurationKey = "animationDuration"
    public static let disableActionsKey = "disableActions"
    public static let animationTimingFunctionKey = "animationTimingFunction"
    public static let completionBlockKey = "completionBlock"

    /// Deeper nesting is refused: it can only be a runaway loop.
    public static let maximumDepth = 256

    private final class Frame {
        let implicit: Bool
        var values: [String: Any] = [:]
        var completion: CompletionGroup? = nil
        init(implicit: Bool) { self.implicit = implicit }
    }

    private var frames: [Frame] = []
    /// Sealed completion groups waiting to fire, in the order they were sealed.
    private(set) var waiting: [CompletionGroup] = []

    init() {}

    /// Open explicit transactions.
    public var depth: Int { frames.count - (frames.first?.implicit == true ? 1 : 0) }

    /// +begin: pushes an explicit transaction.
    public func begin() throws {
        guard depth < TransactionStack.maximumDepth else {
            throw CalunaError.invalid("Transaction.begin: more than \(TransactionStack.maximumDepth) transactions are open (a begin without commit in a loop?)")
        }
        frames.append(Frame(implicit: false))
    }

    /// +commit: pops the innermost explicit transaction. Its changes reach the
    /// screen at the engine's next commit once no explicit transaction is open.
    public func commit() throws {
        guard let top = frames.last, !top.implicit else {
            throw CalunaError.invalid("Transaction.commit: there is no open transaction (commit without begin)")
        }
        frames.removeLast()
        seal(top.completion)
    }

    /// Commits the explicit transactions above `depth` (a script that failed
    /// between begin and commit must not leave the engine deferring forever).
    public func unwind(to depth: Int) {
        while self.depth > max(depth, 0) { try? commit() }
    }

    /// The engine committed: the implicit transaction ends.
    func commitImplicit() {
        guard let f = frames.first, f.implicit, frames.count == 1 else { return }
        frames.removeAll()
        seal(f.completion)
    }

    /// Forgets everything (the engine is reset).
    func reset() {
        frames.removeAll()
        waiting.removeAll()
    }

    private func seal(_ group: CompletionGroup?) {
        guard let group, !group.sealed else { return }
        group.sealed = true
        waiting.append(group)
    }

    private var top: Frame {
        if let f = frames.last { return f }
        let f = Frame(implicit: true)
        frames.append(f)
        return f
    }

    // MARK: values

    /// +valueForKey: the innermost transaction's value for `key`, or nil.
    public func value(forKey key: String) -> Any? {
        if key == TransactionStack.completionBlockKey { return completionBlock }
        if let v = innermost(key) { return v }
        switch key {
        case TransactionStack.animationDurationKey: return MediaTiming.defaultDuration
        case TransactionStack.disableActionsKey: return false
        default: return nil
        }
    }

    /// The innermost value set for `key`, or nil. Frames without values are
    /// passed over without a lookup: every property set with actions asks
    /// for three of these.
    @inline(__always)
    private func innermost(_ key: String) -> Any? {
        for f in frames.reversed() where !f.values.isEmpty { if let v = f.values[key] { return v } }
        return nil
    }

    /// +setValue:forKey: on the innermost transaction; nil removes the
    /// innermost value (outer values show again). The four Core Animation
    /// keys are checked.
    public func setValue(_ value: Any?, forKey key: String) throws {
        if value == nil, key != TransactionStack.completionBlockKey {
            if let f = frames.last { f.values[key] = nil }
            return
        }
        switch key {
        case TransactionStack.animationDurationKey:
            guard let v = value as? Double, v.isFinite, v >= 0 else {
                throw CalunaError.invalid("Transaction.animationDuration must be a finite number of seconds ≥ 0 (got \(describe(value)))")
            }
        case TransactionStack.disableActionsKey:
            guard value is Bool else { throw CalunaError(.typeMismatch, "Transaction.disableActions expects a boolean (got \(describe(value)))") }
        case TransactionStack.animationTimingFunctionKey:
            guard value == nil || value is TimingFunction else {
                throw CalunaError(.typeMismatch, "Transaction.animationTimingFunction expects a timing function or nil (got \(describe(value)))")
            }
        case TransactionStack.completionBlockKey:
            guard value == nil || value is CompletionBlock else {
                throw CalunaError(.typeMismatch, "Transaction.completionBlock expects a function or nil (got \(describe(value)))")
            }
            completionBlock = value as? CompletionBlock
            return
        default:
            break
        }
        top.values[key] = value
    }

    private func describe(_ v: Any?) -> String { v.map { "\($0)" } ?? "nil" }

    public var animationDuration: Double {
        get { innermost(TransactionStack.animationDurationKey) as? Double ?? MediaTiming.defaultDuration }
        set { try? setValue(newValue, forKey: TransactionStack.animationDurationKey) }
    }

    public var disableActions: Bool {
        get { innermost(TransactionStack.disableActionsKey) as? Bool ?? false }
        set { top.values[TransactionStack.disableActionsKey] = newValue }
    }

    public var animationTimingFunction: TimingFunction? {
        get { innermost(TransactionStack.animationTimingFunctionKey) as? TimingFunction }
        set { top.values[TransactionStack.animationTimingFunctionKey] = newValue }
    }

    /// The innermost transaction's completion block. Setting one seals the
    /// block it replaces (which then waits only for what was already added).
    public var completionBlock: CompletionBlock? {
        get {
            for f in frames.reversed() { if let c = f.completion { return c.block } }
            return nil
        }
        set {
            let f = top
            seal(f.completion)
            f.completion = newValue.map(CompletionGroup.init)
        }
    }

    // MARK: engine hooks

    /// The completion groups an animation added now counts toward.
    func groupsForNewAnimation() -> [CompletionGroup] {
        var groups: [CompletionGroup] = []
        for f in frames { if let c = f.completion { c.pending += 1; groups.append(c) } }
        return groups
    }

    var hasReadyCompletions: Bool { waiting.contains { $0.ready } }

    /// Removes and returns the ready groups, in seal order.
    func takeReadyCompletions() -> [CompletionGroup] {
        let ready = waiting.filter { $0.ready }
        if !ready.isEmpty { waiting.removeAll { $0.ready } }
        return ready
    }
}
