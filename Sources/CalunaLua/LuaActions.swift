import CLua
import CalunaLuaShim
import Caluna

/// Layer actions in Lua: `layer.actions`, `layer.style`, `layer.delegate`
/// (actionForLayer), the `defaultActionForKey` override and
/// `layer:actionForKey`. An action is an animation, a function
/// fn(key, layer, args), an object with run(self, key, layer, args), or
/// `false` / `ca.null` (stop: no action).
enum LuaActions {
    /// The Lua value at `idx` as an action; nil for nil (search on).
    static func action(_ L: OpaquePointer, _ idx: Int32, binding: LuaBinding, what: String) throws -> LayerAction? {
        let i = lua_absindex(L, idx)
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE:
            return nil
        case LUA_TBOOLEAN where lua_toboolean(L, i) == 0:
            return .null
        case LUA_TFUNCTION:
            return .custom(LuaFunctionAction(LuaRef(L, i, binding: binding)))
        case LUA_TUSERDATA:
            if LuaTransaction.isNull(L, i) { return .null }
            if let a = LuaAnimation.get(L, i) { return .animation(a) }
            return .custom(LuaObjectAction(LuaRef(L, i, binding: binding)))
        case LUA_TTABLE:
            // A plain table must carry run(); one with a metatable may inherit it.
            if lua_getmetatable(L, i) != 0 {
                L.pop()
            } else {
                let t = L.rawField(i, "run")
                L.pop()
                guard t == LUA_TFUNCTION else { throw expectation(L, i, what) }
            }
            return .custom(LuaObjectAction(LuaRef(L, i, binding: binding)))
        default:
            throw expectation(L, i, what)
        }
    }

    private static func expectation(_ L: OpaquePointer, _ i: Int32, _ what: String) -> CalunaError {
        CalunaError(.typeMismatch, "\(what) expects an animation, a function(key, layer, args), an object with run(key, layer, args), false or ca.null, got \(LuaValues.describe(L, i))")
    }

    static func push(_ L: OpaquePointer, _ a: LayerAction?, binding: LuaBinding) {
        switch a {
        case nil: lua_pushnil(L)
        case .null?: LuaTransaction.pushNull(L)
        case .animation(let anim)?: LuaAnimation.push(L, anim, binding: binding)
        case .custom(let c)?:
            if let f = c as? LuaFunctionAction { f.fn.push(L) }
            else if let o = c as? LuaObjectAction { o.object.push(L) }
            else { L.push("<action of the host: \(type(of: c))>") }
        }
    }

    /// {key = action, …} → the dictionary (nil for nil).
    static func dictionary(_ L: OpaquePointer, _ idx: Int32, binding: LuaBinding, what: String) throws -> [String: LayerAction]? {
        let t = lua_absindex(L, idx)
        if lua_type(L, t) <= LUA_TNIL { return nil }
        guard lua_type(L, t) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(what) expects a table {key = action} or nil, got \(LuaValues.describe(L, t))")
        }
        // The keys first: an action takes a registry reference, and nothing may
        // be added to the table lua_next walks (the registry itself, through debug).
        var keys: [String] = []
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            L.pop()
            guard let key = L.string(-1) else {
                throw CalunaError(.typeMismatch, "\(what): keys must be property or event names (strings), got \(LuaValues.describe(L, -1))")
            }
            keys.append(key)
        }
        var out: [String: LayerAction] = [:]
        for key in keys {
            L.rawField(t, key)
            defer { L.pop() }
            out[key] = try action(L, -1, binding: binding, what: "\(what).\(key)")
        }
        return out
    }

    static func pushDictionary(_ L: OpaquePointer, _ d: [String: LayerAction]?, binding: LuaBinding) {
        guard let d else { lua_pushnil(L); return }
        lua_createtable(L, 0, Int32(d.count))
        for (k, a) in d.sorted(by: { $0.key < $1.key }) { push(L, a, binding: binding); L.setField(-2, k) }
    }

    /// {actions = {…}, style = {…}} → a style (nil for nil). Style dictionaries
    /// in caluna carry actions only.
    static func style(_ L: OpaquePointer, _ idx: Int32, binding: LuaBinding, level: Int = 0) throws -> LayerStyle? {
        let t = lua_absindex(L, idx)
        let what = "Layer.style" + String(repeating: ".style", count: level)
        if lua_type(L, t) <= LUA_TNIL { return nil }
        guard lua_type(L, t) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(what) expects a table {actions = {…}, style = {…}} or nil, got \(LuaValues.describe(L, t))")
        }
        guard level < LayerStyle.maximumNesting else {
            throw CalunaError.invalid("\(what): styles nest more than \(LayerStyle.maximumNesting) deep (a style containing itself?)")
        }
        // Each level keeps two values on the stack: make room (Lua only
        // promises 20 slots to a C function).
        guard lua_checkstack(L, 4) != 0 else { throw CalunaError(.outOfMemory, "\(what): the Lua stack cannot grow") }
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            let key = lua_type(L, -2) == LUA_TSTRING ? L.string(-2) : nil
            L.pop()
            guard key == "actions" || key == "style" else {
                L.pop()
                throw CalunaError(.notSupported, "\(what).\(key ?? "?"): a style supplies actions and a nested style only (property defaults from a style are not supported)")
            }
        }
        let s = LayerStyle()
        L.rawField(t, "actions")
        defer { L.pop() }
        s.actions = try dictionary(L, -1, binding: binding, what: "\(what).actions")
        L.rawField(t, "style")
        defer { L.pop() }
        s.style = try style(L, -1, binding: binding, level: level + 1)
        return s
    }

    static func pushStyle(_ L: OpaquePointer, _ s: LayerStyle?, binding: LuaBinding, level: Int = 0) {
        guard let s, level < LayerStyle.maximumNesting, lua_checkstack(L, 4) != 0 else { lua_pushnil(L); return }
        calu_newtable(L)
        pushDictionary(L, s.actions, binding: binding); L.setField(-2, "actions")
        pushStyle(L, s.style, binding: binding, level: level + 1); L.setField(-2, "style")
    }
}

/// A Lua function used as an action: fn(key, layer, args).
final class LuaFunctionAction: CustomAction {
    let fn: LuaRef
    init(_ fn: LuaRef) { self.fn = fn }

    func run(forKey event: String, layer: Layer, arguments: [String: Value]?) throws {
        guard let b = fn.binding else { return }
        try b.call(fn, b.actionArguments(event, layer))
    }
}

/// An object used as an action: object:run(key, layer, args).
final class LuaObjectAction: CustomAction {
    let object: LuaRef
    init(_ object: LuaRef) { self.object = object }

    func run(forKey event: String, layer: Layer, arguments: [String: Value]?) throws {
        guard let b = object.binding else { return }
        try b.callMethod(object, "run", b.actionArguments(event, layer))
    }
}

extension LuaBinding {
    // MARK: LayerDelegate (actions)

    /// actionForLayer:forKey: — the delegate object's actionForLayer(layer, key).
    func action(for layer: Layer, forKey key: String) throws -> LayerAction? {
        try withLayerValue(layer, "delegate") { L, object in
            try invokeMethod(L, "actionForLayer", results: 1, object: { lua_pushvalue($0, object) },
                             layerAndKey(layer, key))
            return try LuaActions.action(L, -1, binding: self, what: "delegate:actionForLayer")
        } ?? nil
    }

    /// The layer's defaultActionForKey(layer, key) override; the built-in
    /// default when the function has gone (its proxy was collected).
    func defaultAction(for layer: Layer, forKey key: String) throws -> LayerAction? {
        let found: LayerAction?? = try withLayerValue(layer, "defaultActionForKey") { L, fn in
            lua_pushvalue(L, fn)
            try pcall(L, nargs: layerAndKey(layer, key)(L), results: 1)
            return try LuaActions.action(L, -1, binding: self, what: "Layer.defaultActionForKey")
        }
        return found ?? Layer.defaultAction(forKey: key, transaction: engine.transaction, kind: layer.kind)
    }

    /// Pushes (layer, key): the arguments of actionForLayer and defaultActionForKey.
    private func layerAndKey(_ layer: Layer, _ key: String) -> (OpaquePointer) -> Int32 {
        { L in
            LuaLayer.push(L, layer, binding: self)
            L.push(key)
            return 2
        }
    }

    /// Pushes (event, layer, nil): an action's run arguments (Core
    /// Animation passes no arguments dictionary for the events caluna sends).
    func actionArguments(_ event: String, _ layer: Layer) -> (OpaquePointer) -> Int32 {
        { L in
            L.push(event)
            LuaLayer.push(L, layer, binding: self)
            lua_pushnil(L)
            return 3
        }
    }

    /// Runs `body` with the value stored under `name` on the layer's proxy
    /// (its index passed in); nil when there is none.
    func withLayerValue<T>(_ layer: Layer, _ name: String, _ body: (OpaquePointer, Int32) throws -> T) throws -> T? {
        let L = callState
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        LuaLayer.push(L, layer, binding: self)
        guard LuaLayer.pushStored(L, -1, name) else { return nil }
        return try body(L, lua_gettop(L))
    }
}
