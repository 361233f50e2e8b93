import CLua
import CalunaLuaShim
import Caluna
import CalunaBridge

/// The state the `caluna` module keeps for one Lua state: the session it
/// drives, and the bridge from layer callbacks to Lua functions.
final class LuaBinding: LayerDelegate {
    let session: Session
    /// The Lua thread callbacks run on: the main state, or the coroutine that
    /// is inside a ca.* call that can run callbacks (step, render, …).
    var callState: OpaquePointer
    /// The state the binding was installed in (registry references live there).
    let mainState: OpaquePointer
    /// Set while the Lua state closes: references are no longer released.
    var closing = false
    /// The next slot for a layer handler's function (LuaEvents).
    var nextHandlerSlot: lua_Integer = 1
    /// The tree (engine root and `treeVersion`) the Lua pins were last
    /// swept against, and whether a proxy gained Lua data since (LuaLayer.sweepPins).
    var pinsSwept: (root: ObjectIdentifier, version: UInt64)? = nil
    var proxiesGainedData = false
    /// Layer callbacks a script may set, by name (the overrides a subclass
    /// would make; `delegate` holds an object instead).
    static let callbackNames: Set<String> = ["layoutSublayers", "defaultActionForKey", "draw", "drawFrame"]

    init(session: Session, state: OpaquePointer) {
        self.session = session
        callState = state
        mainState = state
    }

    var engine: Engine { session.engine }

    static let registryKey = "caluna.binding"

    /// Installs the binding in the registry; a __gc anchor releases it when
    /// the Lua state closes.
    func install(in L: OpaquePointer) {
        RetainedUserdata.openLedger(L)
        RetainedUserdata.push(L, self)
        calu_newtable(L)
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            // Only the anchor itself (a __gc called with anything else releases nothing).
            lua_getfield(L, registryIndex, LuaBinding.registryKey)
            guard lua_type(L, 1) == LUA_TUSERDATA, lua_rawequal(L, 1, -1) != 0 else { return 0 }
            RetainedUserdata.object(lua_touserdata(L, 1), as: LuaBinding.self)?.closing = true
            // Finalized last (made first): what is still in the ledger lost its finalizer.
            RetainedUserdata.closeLedger(L, keep: lua_touserdata(L, 1))
            RetainedUserdata.release(lua_touserdata(L, 1), as: LuaBinding.self)
            return 0
        } })
        L.setLockedMetatable(-2)
        lua_setfield(L, registryIndex, LuaBinding.registryKey)
        installMethodCaller(L)
    }

    static func of(_ L: OpaquePointer) throws -> LuaBinding {
        lua_getfield(L, registryIndex, registryKey)
        defer { L.pop() }
        guard let b = RetainedUserdata.object(lua_touserdata(L, -1), as: LuaBinding.self) else {
            throw CalunaError(.invalidArgument, "the caluna module is not initialised in this Lua state")
        }
        return b
    }

    /// Runs engine work that may call back into Lua, on thread `L`.
    func withCallState<T>(_ L: OpaquePointer, _ body: () throws -> T) rethrows -> T {
        let saved = callState
        callState = L
        defer { callState = saved }
        return try body()
    }

    // MARK: LayerDelegate

    /// The layer's layoutSublayers function, else its delegate's
    /// layoutSublayers(layer) method.
    func layoutSublayers(of layer: Layer) throws {
        let handled = try withLayerValue(layer, "layoutSublayers") { L, fn in
            guard lua_type(L, fn) == LUA_TFUNCTION else { return false }
            lua_pushvalue(L, fn)
            LuaLayer.push(L, layer, binding: self)
            // No message handler: the error keeps its "file:line:" and travels
            // up unchanged to the ca.* call that ran the callback.
            try pcall(L, nargs: 1)
            return true
        } ?? false
        if handled { return }
        _ = try withLayerValue(layer, "delegate") { L, object in
            try invokeMethod(L, "layoutSublayers", object: { lua_pushvalue($0, object) }) { L in
                LuaLayer.push(L, layer, binding: self)
                return 1
            }
        }
    }
}
