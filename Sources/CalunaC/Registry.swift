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
    private var host: LuaHost?
    /// Limits for the Lua state, set before it is made (caluna_engine_set_sandbox).
    private var sandbox: LuaHost.Sandbox?
    /// The message of the last failed call; never NULL ("" until a call fails).
    private var errorText: UnsafeMutablePointer<CChar>
    /// The buffer behind the last STRING result of caluna_layer_get.
    private var stringResult: UnsafeMutablePointer<CChar>?
    /// Set while a call runs: a second thread entering the same engine is
    /// refused instead of racing (DESIGN §4: one engine, one thread at a time).
    let busy = Atomic<Bool>(false)
    /// The thread holding `busy` (pthread_self as a number; 0 when free). A
    /// callback the engine runs inside a call (a delegate, a display link, a
    /// timer) may call back into the engine from that same thread.
    let owner = Atomic<UInt>(0)
    /// How many calls of the owner thread are inside the engine (1 = a plain
    /// call, more = calls made from inside a callback). Only the owner touches it.
    var depth = 0
    /// Typed property keys by the address of the host's string (PropertyFastPath.swift).
    let propertyKeys = PropertyKeyCache()
    /// Ids of animations, display links and timers (Animations.swift).
    private(set) lazy var objects = ObjectTable(tag: handles.tag)
    /// Release callbacks of host `user` pointers the engine let go of, run at
    /// the end of the outermost call (HostReference): never in the middle of
    /// a Swift mutation a release that calls back into the engine could meet.
    var dueReleases: [DueRelease] = []
    /// Layers' C action delegates (Actions.swift). Layer.delegate is weak, so
    /// the engine keeps them until the host clears one or its layer dies.
    var actionDelegates: [ObjectIdentifier: CActionDelegate] = [:]
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

/// Addresses of the live engines. A pointer not in this set is refused before
/// it is dereferenced, so NULL, destroyed and garbage engine pointers are errors.
private let liveEngines = Mutex(LiveEngines())

/// The live engine addresses: the first few in a small array scanned
/// linearly, the rest in a set (hashing an address cost a sixth of a
/// `caluna_layer_set`, and a host rarely has more than a handful).
private struct LiveEngines {
    static let listed = 8
    var few: [UInt] = []
    var more: Set<UInt> = []

    func contains(_ key: UInt) -> Bool { few.contains(key) || (!more.isEmpty && more.contains(key)) }

    mutating func insert(_ key: UInt) {
        if few.count < LiveEngines.listed { few.append(key) } else { more.insert(key) }
    }

    /// False if `key` was not there.
    mutating func remove(_ key: UInt) -> Bool {
        if let i = few.firstIndex(of: key) {
            few.remove(at: i)
            // Keep the array full while the set has some.
            if let k = more.popFirst() { few.append(k) }
            return true
        }
        return more.remove(key) != nil
    }
}

func registerEngine(_ ce: CEngine) -> OpaquePointer {
    let p = Unmanaged.passRetained(ce).toOpaque()
    liveEngines.withLock { $0.insert(UInt(bitPattern: p)) }
    return OpaquePointer(p)
}

/// The engine behind `p`, strongly referenced (so a concurrent destroy cannot
/// free it under the caller), or the error for a NULL or dead pointer.
func lookupEngine(_ p: UnsafeRawPointer?, _ function: String) -> Result<CEngine, CalunaError> {
    guard let p else {
        return .failure(CalunaError(.invalidArgument, "\(function): the engine is NULL"))
    }
    let key = UInt(bitPattern: p)
    let found: CEngine? = liveEngines.withLock { set in
        set.contains(key) ? Unmanaged<CEngine>.fromOpaque(p).takeUnretainedValue() : nil
    }
    guard let ce = found else {
        return .failure(CalunaError(.staleHandle,
            "\(function): \(p) is not a live engine (destroyed, or not made by caluna_engine_create)"))
    }
    return .success(ce)
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

/// Looks the engine up and marks it busy for the duration of a call. The
/// thread that holds the engine may enter again (from a callback the engine
/// runs); other threads are refused. Pair with `releaseEngine`.
func acquireEngine(_ p: OpaquePointer?, _ function: String) -> Result<CEngine, CalunaError> {
    switch lookupEngine(p.map { UnsafeRawPointer($0) }, function) {
    case .failure(let e): return .failure(e)
    case .success(let ce):
        let me = currentThread()
        if ce.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            ce.owner.store(me, ordering: .relaxed)
            ce.depth = 1
            return .success(ce)
        }
        // Only this thread ever stores its own id, so reading it here means
        // this thread holds the engine: the call comes from inside a callback.
        guard ce.owner.load(ordering: .relaxed) == me else {
            return .failure(CalunaError(.invalidArgument,
                "\(function): the engine is in use by another call (an engine is used by one thread at a time)"))
        }
        if refusedInCallbacks.contains(function) {
            let e = CalunaError(.invalidArgument,
                "\(function) cannot be called from inside a callback the engine is running (a delegate, action, completion, release, display link or timer); " +
                "the engine is in the middle of a frame — do it after the call that ran the callback returns")
            ce.record(e)
            return .failure(e)
        }
        ce.depth += 1
        return .success(ce)
    }
}

/// Ends a call that `acquireEngine` admitted. The outermost call first runs
/// the release callbacks that came due (still holding the engine, so they may
/// call back in like any callback).
func releaseEngine(_ ce: CEngine) {
    if ce.depth > 1 {
        ce.depth -= 1
        return
    }
    ce.runDueReleases()
    ce.depth = 0
    ce.owner.store(0, ordering: .relaxed)
    ce.busy.store(false, ordering: .releasing)
}

/// Removes a destroyed engine from the registry; false if it was not there.
func unregisterEngine(_ p: OpaquePointer) -> Bool {
    let key = UInt(bitPattern: UnsafeRawPointer(p))
    return liveEngines.withLock { $0.remove(key) }
}

/// The engine of the innermost call running on this thread (a callback of
/// one engine may call another): what a caluna_value's IMAGE id is read
/// against (readValue has no engine parameter).
private let currentEngineKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// The engine inside whose call this thread is now, if any (unretained: the
/// call holds it).
func currentEngine() -> CEngine? {
    guard let p = pthread_getspecific(currentEngineKey) else { return nil }
    return Unmanaged<CEngine>.fromOpaque(p).takeUnretainedValue()
}

/// The common shape of every engine call: find the engine, run `body`, turn
/// any error into its status and message. Nothing escapes as a trap.
func withEngine(_ p: OpaquePointer?, _ function: String, _ body: (CEngine) throws -> Void) -> Int32 {
    let ce: CEngine
    switch acquireEngine(p, function) {
    case .failure(let e):
        setThreadError(e.message)
        return e.code.rawValue
    case .success(let c):
        ce = c
    }
    defer { releaseEngine(ce) }
    let outer = pthread_getspecific(currentEngineKey)
    pthread_setspecific(currentEngineKey, Unmanaged.passUnretained(ce).toOpaque())
    defer { pthread_setspecific(currentEngineKey, outer) }
    do {
        try ce.session.memory.withCurrent { try body(ce) }
        return CalunaStatus.ok
    } catch {
        let e = calunaError(error, function)
        ce.record(e)
        return e.code.rawValue
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
