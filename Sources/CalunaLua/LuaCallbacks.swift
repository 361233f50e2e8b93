import CLua
import CalunaLuaShim
import Caluna

/// A Lua value kept alive for the engine (a callback, a delegate, a tag) in
/// the registry. Released when the Swift side lets go of it, unless the Lua
/// state is already closing.
final class LuaRef {
    let ref: Int32
    weak var binding: LuaBinding?

    /// Takes a reference to the value at idx (the stack is left unchanged).
    init(_ L: OpaquePointer, _ idx: Int32, binding: LuaBinding) {
        lua_pushvalue(L, idx)
        ref = luaL_ref(L, registryIndex)
        self.binding = binding
    }

    func push(_ L: OpaquePointer) { lua_rawgeti(L, registryIndex, lua_Integer(ref)) }

    deinit {
        guard let b = binding, !b.closing else { return }
        luaL_unref(b.mainState, registryIndex, ref)
    }
}

extension LuaBinding {
    static let methodCallerKey = "caluna.callMethod"

    /// Lua source for `call(object, name, …)`: looks the method up with
    /// metamethods (delegates may be objects with classes) and calls it as
    /// object:name(…); does nothing when the object has no such method. It
    /// is Lua so a failing __index raises inside lua_pcall, not across Swift.
    static let methodCallerSource = """
        return function(object, name, ...)
          local f = object[name]
          if f ~= nil then return f(object, ...) end
        end
        """

    /// Installs the method caller and the method checker (LuaDisplay) in the registry.
    func installMethodCaller(_ L: OpaquePointer) {
        for (source, key) in [(LuaBinding.methodCallerSource, LuaBinding.methodCallerKey),
                              (LuaBinding.methodCheckerSource, LuaBinding.methodCheckerKey)] {
            guard luaL_loadstring(L, source) == LUA_OK, calu_pcall(L, 0, 1, 0) == LUA_OK else { L.pop(); continue }
            lua_setfield(L, registryIndex, key)
        }
    }

    /// Calls object:name(args…) in protected mode on the current call thread;
    /// `pushArgs` pushes the arguments and returns how many. A Lua error
    /// becomes a script error with its "file:line:".
    func callMethod(_ object: LuaRef, _ name: String, _ pushArgs: (OpaquePointer) -> Int32) throws {
        let L = callState
        try LuaBinding.enterCallback(L)
        defer { calu_time_leave(L) }
        try LuaBinding.reserveStack(L)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try invokeMethod(L, name, object: object.push, pushArgs)
    }

    /// object:name(args…) through the method caller on thread L, leaving
    /// `results` results on the stack; `pushObject` pushes the object.
    func invokeMethod(_ L: OpaquePointer, _ name: String, results: Int32 = 0, object pushObject: (OpaquePointer) -> Void,
                      _ pushArgs: (OpaquePointer) -> Int32) throws {
        lua_getfield(L, registryIndex, LuaBinding.methodCallerKey)
        pushObject(L)
        L.push(name)
        try pcall(L, nargs: 2 + pushArgs(L), results: results)
    }

    /// Calls the function `fn` with arguments, in protected mode.
    func call(_ fn: LuaRef, _ pushArgs: (OpaquePointer) -> Int32) throws {
        try call(fn, pushArgs) { _ in () }
    }

    /// Calls `fn` with arguments and reads its first result (at the top of
    /// the stack) with `result`.
    func call<T>(_ fn: LuaRef, _ pushArgs: (OpaquePointer) -> Int32, result: (OpaquePointer) -> T) throws -> T {
        let L = callState
        try LuaBinding.enterCallback(L)
        defer { calu_time_leave(L) }
        try LuaBinding.reserveStack(L)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        fn.push(L)
        let n = pushArgs(L)
        try pcall(L, nargs: n, results: 1)
        return result(L)
    }

    /// Runs `body` (which enters Lua on thread L) so that engine work the
    /// script asks for (a render, an advance) stops once its budget or time
    /// is spent. Free for states without limits.
    static func withInterruption<R>(_ L: OpaquePointer, _ body: () throws -> R) rethrows -> R {
        guard calu_has_limits(L) != 0 else { return try body() }
        let state = UInt(bitPattern: L)
        return try Interruption.with({ OpaquePointer(bitPattern: state).flatMap(stopError) }, body)
    }

    /// The error of a script the sandbox has finished (budget or time spent),
    /// or nil while it may run.
    static func stopError(_ L: OpaquePointer) -> CalunaError? {
        let stop = calu_stop_reason(L)
        return stop == CALU_STOP_NONE ? nil : CalunaError(.limitReached, String(cString: calu_stop_message(stop)))
    }

    /// Starts timing a callback (calu_time_enter; the caller leaves), and
    /// refuses at once when the script is finished: nothing is pushed for a
    /// call that cannot run.
    static func enterCallback(_ L: OpaquePointer) throws {
        calu_time_enter(L)
        if let stop = stopError(L) { calu_time_leave(L); throw stop }
    }

    /// Room for a callback's function and arguments: the call thread may be
    /// deep inside a script when the engine calls back (lua_checkstack
    /// reports failure instead of raising).
    static func reserveStack(_ L: OpaquePointer) throws {
        guard lua_checkstack(L, 40) != 0 else {
            throw CalunaError(.scriptError, "caluna: no Lua stack left for a callback (recursion too deep)")
        }
    }

    /// Calls the function below `nargs` arguments in protected mode. A
    /// callback that fails between Transaction.begin and commit leaves no
    /// transaction open (the engine would defer every commit after it).
    func pcall(_ L: OpaquePointer, nargs: Int32, results: Int32 = 0) throws {
        try NativeStack.check("a Lua callback")
        let depth = engine.transaction.depth
        if LuaBinding.withInterruption(L, { calu_pcall(L, nargs, results, 0) }) != LUA_OK {
            let msg = L.string(-1) ?? "(error object is a \(L.typeName(-1)))"
            engine.transaction.unwind(to: depth)
            throw LuaBinding.stopError(L) ?? CalunaError(.scriptError, msg)
        }
    }
}

/// An animation delegate written in Lua: a table or object with optional
/// methods animationDidStart(self, anim) and animationDidStop(self, anim, finished).
final class LuaAnimationDelegate: AnimationDelegate {
    let object: LuaRef
    init(_ object: LuaRef) { self.object = object }

    func animationDidStart(_ animation: Animation) throws {
        guard let b = object.binding else { return }
        try b.callMethod(object, "animationDidStart") { L in
            LuaAnimation.push(L, animation, binding: b); return 1
        }
    }

    func animationDidStop(_ animation: Animation, finished: Bool) throws {
        guard let b = object.binding else { return }
        try b.callMethod(object, "animationDidStop") { L in
            LuaAnimation.push(L, animation, binding: b)
            lua_pushboolean(L, finished ? 1 : 0)
            return 2
        }
    }
}
