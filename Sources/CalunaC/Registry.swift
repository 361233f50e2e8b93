import Caluna
import CalunaBridge
import CalunaLua
import Glibc
import Synchronization

/// What a `caluna_engine *` points to: a retained Swift object holding the
/// session (engine + id table), the Lua host (created on first script), and
/// the C strings the engine hands out (last error, string results).
final class CEngine {
    let session: Session
    /// `session.memory` (it never changes), unretained: the engine keeps it.
    let ledger: Unmanaged<MemoryLedger>
    private var host: LuaHost?
    /// Limits for the Lua state, set before it is made (caluna_engine_set_sandbox).
    private var sandbox: LuaHost.Sandbox?
    /// The message of the last failed call; never NULL ("" until a call fails).
    private var errorText: UnsafeMutablePointer<CChar>
    /// The buffer behind the last STRING result of caluna_layer_get.
    private var stringResult: UnsafeMutablePointer<CChar>?
    /// Typed property keys by the address of the host's string (PropertyFastPath.swift).
    let propertyKeys = PropertyKeyCache()
    /// Ids of animations, display links and timers (Animations.swift).
    private(set) lazy var objects = ObjectTable(tag: handles.tag)
    /// Release callbacks of host `user` pointers the engine let go of, run at
    /// the end of the outermost call (HostReference): never in the middle of
    /// a Swift mutation a release that calls back into the engine could meet.
    /// (No dynamic exclusivity check, here and on `actionDelegates`: every
    /// outermost call reads both, and the checks were a tenth of a
    /// caluna_layer_set. A DueRelease holds no reference, so every access
    /// — read, append, replace — is a plain read or write that calls
    /// nothing, and no access can overlap another.)
    @exclusivity(unchecked) var dueReleases: [DueRelease] = []
    /// Layers' C action delegates (Actions.swift). Layer.delegate is weak, so
    /// the engine keeps them until the host clears one or its layer dies.
    /// (Unchecked: a write may free a CActionDelegate, whose only effect is
    /// its HostReference appending to `dueReleases`; nothing it frees reaches
    /// this dictionary, so no access can overlap another.)
    @exclusivity(unchecked) var actionDelegates: [ObjectIdentifier: CActionDelegate] = [:]
    /// Ids of images and of the drawing contexts of running draw callbacks
    /// (Images.swift, Drawing.swift).
    private(set) lazy var images = ExternalTable(tag: handles.tag, kind: .image)
    private(set) lazy var contexts = ExternalTable(tag: handles.tag, kind: .context)
    /// Ids of physics worlds, bodies, shapes, constraints and arbiters (Physics*.swift).
    private(set) lazy var physics = PhysicsIDs(tag: handles.tag)
    /// Ids of input handlers (Events.swift).
    private(set) lazy var eventHandlers = ExternalTable(tag: handles.tag, kind: .eventHandler)
    /// Ids of emitter cells (EmitterLayers.swift).
    private(set) lazy var emitterCells = ExternalTable(tag: handles.tag, kind: .emitterCell)
    /// Ids of render targets (RenderTargets.swift).
    private(set) lazy var renderTargets = ExternalTable(tag: handles.tag, kind: .renderTarget)
    /// Layers whose C draw callback is running now (a display of one of them
    /// from inside would recurse forever), innermost last.
    var drawingLayers: [ObjectIdentifier] = []
    /// The buffer behind the last PATH result (caluna_value), valid until the next call.
    private var pathResult = ResultBuffer()
    /// The buffer behind the last ARRAY result, valid until the next call.
    private var arrayResult = ResultBuffer()

    init(session: Session) throws {
        self.session = session
        ledger = Unmanaged.passUnretained(session.memory)
        guard let empty = strdup("") else { throw CalunaError(.outOfMemory, "cannot allocate the engine's error buffer") }
        errorText = empty
    }

    deinit {
        // The engine is unregistered: a release callback calling back in is refused.
        runDueReleases()
        free(errorText)
        free(stringResult)
        pathResult.free()
        arrayResult.free()
    }

    /// Sandboxes the scripts this engine will run; only before the first script.
    func setSandbox(_ sb: LuaHost.Sandbox) throws {
        guard host == nil else {
            throw CalunaError.invalid("the sandbox must be set before the first script is loaded")
        }
        try sb.apply(to: session)
        sandbox = sb
    }

    var engine: Engine { session.engine }
    var handles: HandleTable { session.handles }

    /// The Lua host, created on first use and kept for the engine's life.
    func luaHost() throws -> LuaHost {
        if let h = host { return h }
        let h = try LuaHost(session: session, sandbox: sandbox)
        host = h
        return h
    }

    func record(_ e: CalunaError) {
        // If even this allocation fails, the previous message stays (better than none).
        if let p = strdup(e.message) {
            free(errorText)
            errorText = p
        }
    }

    var lastError: UnsafePointer<CChar> { UnsafePointer(errorText) }

    /// Lets go of the C delegates of dead layers, then runs the due release
    /// callbacks (and the ones they cause). The failed call's message stays
    /// what caluna_last_error reports, whatever the callbacks call.
    func runDueReleases() {
        // The common case, checked first: nothing to let go of.
        if actionDelegates.isEmpty && dueReleases.isEmpty { return }
        if actionDelegates.values.contains(where: { $0.layer == nil }) {
            actionDelegates = actionDelegates.filter { $0.value.layer != nil }
        }
        guard !dueReleases.isEmpty else { return }
        let message = String(cString: errorText)
        while !dueReleases.isEmpty {
            let due = dueReleases
            dueReleases = []
            for r in due { r.release(r.user) }
        }
        if String(cString: errorText) != message { record(CalunaError(.invalidArgument, message)) }
    }

    /// Copies `s` into the engine-owned string buffer (valid until the next call).
    func keep(_ s: String) throws -> UnsafePointer<CChar> {
        guard let p = strdup(s) else { throw CalunaError(.outOfMemory, "cannot allocate \(s.utf8.count + 1) bytes for a string result") }
        free(stringResult)
        stringResult = p
        return UnsafePointer(p)
    }

    /// An engine-owned buffer of at least `bytes` bytes for a PATH result
    /// (valid until the next call); never NULL.
    func pathBuffer(_ bytes: Int) throws -> UnsafeMutableRawPointer {
        try pathResult.reserve(bytes, "a path result")
    }

    /// An engine-owned buffer for an ARRAY result's elements (valid until the next call).
    func arrayBuffer(_ bytes: Int) throws -> UnsafeMutableRawPointer {
        try arrayResult.reserve(bytes, "an array result")
    }
}

/// A malloc'd buffer behind results that stay valid until the next call:
/// it grows when a result needs more, and is reused otherwise.
struct ResultBuffer {
    private var pointer: UnsafeMutableRawPointer? = nil
    private var capacity = 0

    mutating func reserve(_ bytes: Int, _ what: String) throws -> UnsafeMutableRawPointer {
        if bytes <= capacity, let p = pointer { return p }
        guard let p = malloc(max(bytes, 1)) else {
            throw CalunaError(.outOfMemory, "cannot allocate \(bytes) bytes for \(what)")
        }
        Glibc.free(pointer)
        pointer = p
        capacity = max(bytes, 1)
        return p
    }

    mutating func free() {
        Glibc.free(pointer)
        pointer = nil
        capacity = 0
    }
}

// MARK: the registry

/// Where a call finds an engine and claims it (DESIGN §4: one engine, one
/// thread at a time). Slots are never freed — a destroyed engine's slot
/// serves a later engine — so a call may claim a slot before it knows that
/// the pointer it was given is a live engine: it touches the engine itself
/// only once it holds the slot and has seen that the slot still names that
/// pointer. NULL, destroyed and garbage engine pointers are thus refused
/// without being dereferenced, and without taking a lock or counting a
/// reference on the common path.
struct EngineSlot: ~Copyable {
    /// The engine's address; 0 while the slot is free. Written under the
    /// registry lock, by `registerEngine` and by the holder destroying it.
    let address = Atomic<UInt>(0)
    /// The thread inside the engine (pthread_self as a number; 0: none). A
    /// call claims the engine by changing it from 0; a second thread is
    /// refused instead of racing. A callback the engine runs inside a call
    /// (a delegate, a display link, a timer) may call back in from the same thread.
    let holder = Atomic<UInt>(0)
    /// How many calls of the holder are inside the engine (1 = a plain call,
    /// more = calls made from inside a callback). Only the holder touches it.
    let depth = Atomic<Int>(0)
}

/// The first slots, found by a linear scan without the lock (hashing an
/// address cost a sixth of a `caluna_layer_set`, the lock as much again,
/// and a host rarely has more than a handful of engines).
private let listedCount = 8
private let listed: UnsafeMutablePointer<EngineSlot> = {
    let p = UnsafeMutablePointer<EngineSlot>.allocate(capacity: listedCount)
    for i in 0..<listedCount { (p + i).initialize(to: EngineSlot()) }
    return p
}()

/// The slots of engines beyond the listed ones, found under the lock.
private struct MoreEngines {
    var slots: [UInt: UnsafeMutablePointer<EngineSlot>] = [:]
    /// Free slots of destroyed engines, for later ones.
    var spare: [UnsafeMutablePointer<EngineSlot>] = []
}
private let registry = Mutex(MoreEngines())

/// The listed slot naming `key`, if any (no lock: the caller confirms after claiming).
private func listedSlot(_ key: UInt) -> UnsafeMutablePointer<EngineSlot>? {
    for i in 0..<listedCount where listed[i].address.load(ordering: .acquiring) == key { return listed + i }
    return nil
}

func registerEngine(_ ce: CEngine) -> OpaquePointer {
    let p = Unmanaged.passRetained(ce).toOpaque()
    let key = UInt(bitPattern: p)
    registry.withLock { more in
        // A slot still held is not free: its engine is being destroyed (or a
        // call with a stale pointer is backing out of it).
        for i in 0..<listedCount where listed[i].address.load(ordering: .relaxed) == 0
            && listed[i].holder.load(ordering: .acquiring) == 0 {
            listed[i].address.store(key, ordering: .releasing)
            return
        }
        let slot = more.spare.popLast() ?? {
            let s = UnsafeMutablePointer<EngineSlot>.allocate(capacity: 1)
            s.initialize(to: EngineSlot())
            return s
        }()
        slot.pointee.address.store(key, ordering: .releasing)
        more.slots[key] = slot
    }
    return OpaquePointer(p)
}

/// The engine behind `p`, strongly referenced (so a concurrent destroy cannot
/// free it under the caller), or nil for a NULL or dead pointer. For calls
/// that read an engine without entering it (caluna_last_error).
func lookupEngine(_ p: UnsafeRawPointer?) -> CEngine? {
    guard let p else { return nil }
    let key = UInt(bitPattern: p)
    // Addresses change only under the lock, so what it sees is settled.
    return registry.withLock { more in
        listedSlot(key) != nil || more.slots[key] != nil ? Unmanaged<CEngine>.fromOpaque(p).takeUnretainedValue() : nil
    }
}

/// Calls that a callback running inside the engine may not make: they run a
/// frame, commit, draw, run scripts or end the engine the callback is part of.
private let refusedInCallbacks: Set<String> = [
    "caluna_engine_destroy", "caluna_engine_step", "caluna_engine_advance", "caluna_engine_flush",
    "caluna_transaction_flush",
    "caluna_render", "caluna_render_png", "caluna_render_target_draw", "caluna_engine_load_file", "caluna_engine_load_string",
    "caluna_engine_set_sandbox", "caluna_engine_set_sandbox_options",
]

/// The calling thread as a number (never 0 for a live thread on Linux).
private func currentThread() -> UInt { UInt(pthread_self()) }

/// A call admitted into an engine: the engine, unretained — holding its slot
/// keeps it alive, as only the holder can destroy it — and the slot.
struct EngineAdmission {
    let engine: Unmanaged<CEngine>
    let slot: UnsafeMutablePointer<EngineSlot>
}

/// Admits a call into the engine `p` for the duration of a call. The thread
/// that holds the engine may enter again (from a callback the engine runs);
/// other threads are refused. Pair with `releaseEngine`.
func acquireEngine(_ p: OpaquePointer?, _ function: String) -> Result<EngineAdmission, CalunaError> {
    guard let p else {
        return .failure(CalunaError(.invalidArgument, "\(function): the engine is NULL"))
    }
    let key = UInt(bitPattern: UnsafeRawPointer(p))
    func stale() -> Result<EngineAdmission, CalunaError> {
        .failure(CalunaError(.staleHandle,
            "\(function): \(p) is not a live engine (destroyed, or not made by caluna_engine_create)"))
    }
    guard let slot = listedSlot(key) ?? registry.withLock({ $0.slots[key] }) else { return stale() }
    let admitted = EngineAdmission(engine: Unmanaged<CEngine>.fromOpaque(UnsafeRawPointer(p)), slot: slot)
    let me = currentThread()
    let claim = slot.pointee.holder.compareExchange(expected: 0, desired: me, ordering: .acquiring)
    if claim.exchanged {
        // The slot may have passed to another engine since it was found.
        guard slot.pointee.address.load(ordering: .acquiring) == key else {
            slot.pointee.holder.store(0, ordering: .releasing)
            return stale()
        }
        slot.pointee.depth.store(1, ordering: .relaxed)
        return .success(admitted)
    }
    // Only this thread ever stores its own id, so reading it here means this
    // thread holds the engine: the call comes from inside a callback. (The
    // address cannot change under the holder but by its own destroy.)
    guard claim.original == me else {
        return .failure(CalunaError(.invalidArgument,
            "\(function): the engine is in use by another call (an engine is used by one thread at a time)"))
    }
    guard slot.pointee.address.load(ordering: .relaxed) == key else { return stale() }
    if refusedInCallbacks.contains(function) {
        let e = CalunaError(.invalidArgument,
            "\(function) cannot be called from inside a callback the engine is running (a delegate, action, completion, release, display link or timer); " +
            "the engine is in the middle of a frame — do it after the call that ran the callback returns")
        admitted.engine._withUnsafeGuaranteedRef { $0.record(e) }
        return .failure(e)
    }
    slot.pointee.depth.add(1, ordering: .relaxed)
    return .success(admitted)
}

/// Ends a call that `acquireEngine` admitted. The outermost call first runs
/// the release callbacks that came due (still holding the engine, so they may
/// call back in like any callback).
func releaseEngine(_ a: EngineAdmission) {
    let depth = a.slot.pointee.depth.load(ordering: .relaxed)
    if depth > 1 {
        a.slot.pointee.depth.store(depth - 1, ordering: .relaxed)
        return
    }
    a.engine._withUnsafeGuaranteedRef { $0.runDueReleases() }
    a.slot.pointee.depth.store(0, ordering: .relaxed)
    a.slot.pointee.holder.store(0, ordering: .releasing)
}

/// Destroys the engine of an outermost call `acquireEngine` admitted: it
/// leaves the registry, then is freed while its slot is still held (a
/// release callback calling back in finds no engine), then the slot is freed.
func destroyEngine(_ a: EngineAdmission) {
    let key = UInt(bitPattern: a.engine.toOpaque())
    registry.withLock { more in
        a.slot.pointee.address.store(0, ordering: .releasing)
        more.slots[key] = nil
    }
    // Drop the registry's reference (the last one: calls hold none).
    a.engine.release()
    let isListed = a.slot >= listed && a.slot < listed + listedCount
    a.slot.pointee.depth.store(0, ordering: .relaxed)
    a.slot.pointee.holder.store(0, ordering: .releasing)
    if !isListed { registry.withLock { $0.spare.append(a.slot) } }
}

/// The engine of the innermost call running on this thread (a callback of
/// one engine may call another), if any: what a caluna_value's IMAGE id is
/// read against (readValue has no engine parameter). Unretained: the call
/// holds it.
func currentEngine() -> CEngine? {
    guard let p = ThreadContext.call else { return nil }
    return Unmanaged<CEngine>.fromOpaque(p).takeUnretainedValue()
}

/// The common shape of every engine call: find the engine, run `body`, turn
/// any error into its status and message. Nothing escapes as a trap.
func withEngine(_ p: OpaquePointer?, _ function: String, _ body: (CEngine) throws -> Void) -> Int32 {
    let admitted: EngineAdmission
    switch acquireEngine(p, function) {
    case .failure(let e):
        setThreadError(e.message)
        return e.code.rawValue
    case .success(let a):
        admitted = a
    }
    defer { releaseEngine(admitted) }
    // The held slot keeps the engine alive (and so its ledger): no reference
    // is counted for the call. The engine and its ledger are this thread's
    // current ones until the call ends (put back before the due releases run).
    return admitted.engine._withUnsafeGuaranteedRef { ce in
        let saved = ThreadContext.enter(ledger: ce.ledger, call: admitted.engine.toOpaque())
        defer { ThreadContext.leave(saved) }
        do {
            try body(ce)
            return CalunaStatus.ok
        } catch {
            let e = calunaError(error, function)
            ce.record(e)
            return e.code.rawValue
        }
    }
}

/// Any error as a CalunaError whose message names the C function.
func calunaError(_ error: Error, _ function: String) -> CalunaError {
    if let e = error as? CalunaError { return CalunaError(e.code, "\(function): \(e.message)") }
    return CalunaError(.scriptError, "\(function): \(error)")
}

// MARK: host user pointers

public typealias CReleaseCallback = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// A release callback that came due, with the pointer it releases.
struct DueRelease {
    let release: CReleaseCallback
    let user: UnsafeMutableRawPointer?
}

/// A host's `user` pointer and the release callback that ends the engine's
/// hold on it. The callback runs exactly once, when the last reference to
/// this object goes: queued on the engine (run as its outermost call ends),
/// or at once while the engine itself is being destroyed.
final class HostReference {
    let user: UnsafeMutableRawPointer?
    private let release: CReleaseCallback?
    /// nil once the engine is being destroyed.
    private(set) weak var engine: CEngine?

    init(user: UnsafeMutableRawPointer?, release: CReleaseCallback?, engine: CEngine) {
        self.user = user
        self.release = release
        self.engine = engine
    }

    deinit {
        guard let release else { return }
        if let ce = engine {
            ce.dueReleases.append(DueRelease(release: release, user: user))
        } else {
            release(user)
        }
    }
}
