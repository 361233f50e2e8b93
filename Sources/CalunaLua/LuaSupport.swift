import CLua
import CalunaLuaShim
import Caluna

/// A binding function: never raises; returns a result count or a CALU_RAISE code.
typealias LuaFunction = @convention(c) (OpaquePointer?) -> Int32

/// Runs a binding body; a thrown error becomes a Lua error raised by the C
/// trampoline after this Swift frame has returned (DESIGN §4).
@inline(__always)
func protect(_ L: OpaquePointer?, _ body: (OpaquePointer) throws -> Int32) -> Int32 {
    guard let L else { return 0 }
    do {
        return try body(L)
    } catch let e as CalunaError {
        // A script error already carries its own "file:line:"; pass it on as is.
        if e.code == .scriptError {
            lua_pushstring(L, e.message)
            return CALU_RAISE_AS_IS
        }
        lua_pushstring(L, "caluna: " + e.message)
        return CALU_RAISE
    } catch {
        lua_pushstring(L, "caluna: \(error)")
        return CALU_RAISE
    }
}

let registryIndex = calu_registryindex()

/// What `getmetatable` gives a script for any of caluna's objects and classes.
let lockedMetatable = "caluna: locked"

extension OpaquePointer {
    /// The Lua type name of the value at idx (for error messages).
    func typeName(_ idx: Int32) -> String {
        if let n = lua_typename(self, lua_type(self, idx)) { return String(cString: n) }
        return "no value"
    }

    func string(_ idx: Int32) -> String? {
        var length = 0
        guard lua_type(self, idx) == LUA_TSTRING, let p = lua_tolstring(self, idx, &length) else { return nil }
        // The whole string: a NUL inside is kept, not an end (Lua strings are byte arrays).
        return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
    }

    func number(_ idx: Int32) -> Double? {
        guard lua_type(self, idx) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(self, idx, nil)
    }

    /// Pushes all of `s`'s UTF-8 bytes (a NUL inside included).
    func push(_ s: String) {
        var s = s
        s.withUTF8 { b in _ = lua_pushlstring(self, b.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, b.count) }
    }

    /// t[name] without metamethods (a table from user code may have any).
    /// Anything but a table has no fields: nil is pushed (lua_rawget on a
    /// non-table would read it as one).
    @discardableResult
    func rawField(_ idx: Int32, _ name: String) -> Int32 {
        let t = lua_absindex(self, idx)
        guard lua_type(self, t) == LUA_TTABLE else { lua_pushnil(self); return LUA_TNIL }
        lua_pushstring(self, name)
        return lua_rawget(self, t)
    }

    /// Pushes {__mode = "v"}: the metatable of the registry's proxy caches.
    func pushWeakValuesMetatable() {
        calu_newtable(self)
        push("v")
        setField(-2, "__mode")
    }

    func setField(_ idx: Int32, _ name: String) {
        let t = lua_absindex(self, idx)
        lua_pushstring(self, name)
        calu_insert(self, -2)
        lua_rawset(self, t)
    }

    func setFunction(_ idx: Int32, _ name: String, _ fn: LuaFunction) {
        let t = lua_absindex(self, idx)
        calu_push_function(self, fn)
        setField(t, name)
    }

    func pop(_ n: Int32 = 1) { calu_pop(self, n) }

    /// Sets the table on top as the metatable of the value at `idx` (popping
    /// it), locked first: a script's getmetatable sees a string, and cannot
    /// reach the metamethods or replace the metatable.
    func setLockedMetatable(_ idx: Int32) {
        let target = lua_absindex(self, idx)
        lockMetatable(-1)
        lua_setmetatable(self, target)
    }

    /// luaL_newmetatable, the new metatable locked (see setLockedMetatable).
    /// True when it was made (it is on top of the stack either way).
    func newMetatable(_ name: String) -> Bool {
        guard luaL_newmetatable(self, name) != 0 else { return false }
        lockMetatable(-1)
        return true
    }

    /// Gives the metatable at `idx` its `__metatable` field.
    private func lockMetatable(_ idx: Int32) {
        let t = lua_absindex(self, idx)
        push(lockedMetatable)
        setField(t, "__metatable")
    }

    /// A constructor's table: calls `apply(key)` with t[key] on top of the
    /// stack for every key, in the order `rank` gives (ties by name), so
    /// `ca.Layer{…}` and `ca.BasicAnimation{…}` apply keys in a fixed order
    /// whatever order the table stores them in. Keys must be strings; a
    /// table of more than `maximumConstructorKeys` is refused as soon as the
    /// walk passes that many (no class has so many settable keys, so one must
    /// be unknown: two million keys must not cost seconds before the error).
    func applyFields(of t: Int32, _ api: String, rank: (String) -> Int, _ apply: (String) throws -> Void) throws {
        var keys: [String] = []
        lua_pushnil(self)
        while lua_next(self, t) != 0 {
            guard let k = string(-2) else {
                let what = typeName(-2)
                pop(2)
                throw CalunaError(.typeMismatch, "\(api){…}: keys must be property names, got a \(what) key")
            }
            guard keys.count < maximumConstructorKeys else {
                pop(2)
                throw CalunaError(.unknownKey, "\(api){…}: more than \(maximumConstructorKeys) keys (no class has that many properties)")
            }
            keys.append(k)
            pop()
        }
        for k in keys.sorted(by: { (rank($0), $0) < (rank($1), $1) }) {
            rawField(t, k)
            defer { pop() }
            try apply(k)
        }
    }
}

/// The most keys a constructor table may have (LuaSupport.applyFields).
let maximumConstructorKeys = 1024

/// Argument checking that throws (Swift errors, not Lua errors).
struct Args {
    let L: OpaquePointer
    let api: String

    var count: Int32 { lua_gettop(L) }

    func fail(_ i: Int32, _ expected: String) -> CalunaError {
        CalunaError(.typeMismatch, "\(api): argument \(i) expects \(expected), got \(L.typeName(i))")
    }

    func number(_ i: Int32) throws -> Double {
        guard let v = L.number(i) else { throw fail(i, "a number") }
        guard v.isFinite else { throw CalunaError(.invalidArgument, "\(api): argument \(i) must be finite (got \(v))") }
        return v
    }

    func optionalNumber(_ i: Int32, _ fallback: Double) throws -> Double {
        lua_type(L, i) <= LUA_TNIL ? fallback : try number(i)
    }

    func string(_ i: Int32) throws -> String {
        guard let s = L.string(i) else { throw fail(i, "a string") }
        return s
    }

    func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

    func table(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TTABLE else { throw fail(i, "a table") }
    }
}

/// Full userdata that holds one retained Swift object (layers, images, the
/// binding). `__gc` releases it exactly once.
///
/// Lua skips a finalizer that cannot start — "C stack overflow" when the
/// collector runs deep inside nested calls, a memory error at the sandbox's
/// cap — and frees the userdata without it. So the retain lives in a cell
/// linked into the state's ledger (`openLedger`), and the cells still there
/// when the binding's own finalizer runs, last as the state closes, are
/// released then (`closeLedger`): such an object lives until the state
/// closes, never longer.
enum RetainedUserdata {
    struct Cell {
        var object: UnsafeMutableRawPointer?
        var prev: UnsafeMutablePointer<Cell>?
        var next: UnsafeMutablePointer<Cell>?
    }
    private static let ledgerKey = "caluna.retained"

    /// Starts the ledger of state `L` (before anything is pushed).
    static func openLedger(_ L: OpaquePointer) {
        let head = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
        head.initialize(to: Cell(object: nil, prev: head, next: head))
        lua_pushlightuserdata(L, head)
        lua_setfield(L, registryIndex, ledgerKey)
    }

    /// Releases every object still in the ledger but `keep`'s (the binding's
    /// anchor, released by its own finalizer), and ends the ledger; objects
    /// pushed after this are released by their finalizers only.
    static func closeLedger(_ L: OpaquePointer, keep: UnsafeMutableRawPointer?) {
        lua_getfield(L, registryIndex, ledgerKey)
        let head = lua_touserdata(L, -1)?.assumingMemoryBound(to: Cell.self)
        L.pop()
        guard let head else { return }
        lua_pushnil(L)
        lua_setfield(L, registryIndex, ledgerKey)
        let kept = keep?.load(as: UnsafeMutablePointer<Cell>?.self)
        var c = head.pointee.next!
        while c != head {
            let next = c.pointee.next!
            c.pointee.prev = nil
            c.pointee.next = nil
            if c != kept {
                if let raw = c.pointee.object { Unmanaged<AnyObject>.fromOpaque(raw).release() }
                c.deallocate()
            }
            c = next
        }
        head.deallocate()
    }

    private static func ledger(_ L: OpaquePointer) -> UnsafeMutablePointer<Cell>? {
        defer { L.pop() }
        guard lua_getfield(L, registryIndex, ledgerKey) == LUA_TLIGHTUSERDATA else { return nil }
        return lua_touserdata(L, -1)?.assumingMemoryBound(to: Cell.self)
    }

    /// Pushes a new userdata holding `object`, with `userValues` user values.
    static func push<T: AnyObject>(_ L: OpaquePointer, _ object: T, userValues: Int32 = 0) {
        let p = lua_newuserdatauv(L, MemoryLayout<UnsafeMutablePointer<Cell>>.size, userValues)!
        let cell = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
        cell.initialize(to: Cell(object: Unmanaged.passRetained(object as AnyObject).toOpaque(), prev: nil, next: nil))
        if let head = ledger(L) {
            cell.pointee.prev = head
            cell.pointee.next = head.pointee.next
            head.pointee.next!.pointee.prev = cell
            head.pointee.next = cell
        }
        p.storeBytes(of: cell, as: UnsafeMutablePointer<Cell>?.self)
    }

    /// Pushes the one proxy of `object` (cached weakly under `cacheKey` in the
    /// registry, keyed by the object's address), making it if needed, so the
    /// same Lua value comes back for the same object.
    static func pushCached<T: AnyObject>(_ L: OpaquePointer, _ object: T, cacheKey: String, metatable: String) {
        let id = lua_Integer(Int64(bitPattern: UInt64(UInt(bitPattern: ObjectIdentifier(object)))))
        if lua_getfield(L, registryIndex, cacheKey) != LUA_TTABLE {
            L.pop()
            calu_newtable(L)
            L.pushWeakValuesMetatable()
            L.setLockedMetatable(-2)
            lua_pushvalue(L, -1)
            lua_setfield(L, registryIndex, cacheKey)
        }
        if lua_rawgeti(L, -1, id) == LUA_TUSERDATA { calu_remove(L, -2); return }
        L.pop()
        push(L, object)
        luaL_setmetatable(L, metatable)
        lua_pushvalue(L, -1)
        lua_rawseti(L, -3, id)
        calu_remove(L, -2)
    }

    /// The most one `noteExternalAllocation` reports: past this the
    /// collector already runs at every such allocation.
    static let maximumReport = 1 << 30

    /// Tells Lua's collector that `bytes` were allocated outside its heap on
    /// the script's behalf (an image's pixels, a path's storage): a block of
    /// that size is allocated and dropped at once. The collector counts it
    /// (`collectgarbage("count")` grows by it) and paces itself by it as by
    /// any allocation, so a script that drops such objects in a loop runs in
    /// flat memory without calling `collectgarbage`. The block has no
    /// finalizer, so the next sweep frees it; it is never written, so a large
    /// one costs no resident memory. A capped state refused nothing here
    /// (Swift holds it); a later Lua allocation refused by the cap first
    /// collects, freeing such blocks.
    static func noteExternalAllocation(_ L: OpaquePointer, _ bytes: Int) {
        guard bytes > 0 else { return }
        _ = lua_newuserdatauv(L, min(bytes, maximumReport), 0)
        L.pop()
    }

    /// The object in a userdata block, unretained (nil once released): for
    /// a call during which the userdata stays on the Lua stack.
    @inline(__always)
    static func unretained<T: AnyObject>(_ p: UnsafeMutableRawPointer?, as: T.Type) -> Unmanaged<T>? {
        guard let cell = p?.load(as: UnsafeMutablePointer<Cell>?.self), let raw = cell.pointee.object else { return nil }
        return Unmanaged<T>.fromOpaque(raw)
    }

    /// The object in a userdata block (nil once released).
    static func object<T: AnyObject>(_ p: UnsafeMutableRawPointer?, as: T.Type) -> T? {
        guard let cell = p?.load(as: UnsafeMutablePointer<Cell>?.self), let raw = cell.pointee.object else { return nil }
        return Unmanaged<T>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Releases the object (the __gc metamethod of such a userdata).
    static func release<T: AnyObject>(_ p: UnsafeMutableRawPointer?, as: T.Type) {
        guard let p, let cell = p.load(as: UnsafeMutablePointer<Cell>?.self) else { return }
        p.storeBytes(of: nil, as: UnsafeMutablePointer<Cell>?.self)
        if let prev = cell.pointee.prev, let next = cell.pointee.next {
            prev.pointee.next = next
            next.pointee.prev = prev
        }
        let raw = cell.pointee.object
        cell.deallocate()
        if let raw { Unmanaged<T>.fromOpaque(raw).release() }
    }
}

/// Runs `body`, naming `api` in front of an engine error's message (the
/// engine's own messages do not know which Lua call reached them).
func prefixed<T>(_ api: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as CalunaError where !e.message.hasPrefix(api) {
        throw CalunaError(e.code, "\(api): \(e.message)")
    }
}
