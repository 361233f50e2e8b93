import CLua
import CalunaLuaShim
import Caluna
import CalunaBridge

/// Layer userdata: one proxy per layer (the same Lua object comes back for the
/// same layer), holding a strong reference to it. Properties are read and
/// written through the property table; methods live in LuaLayerMethods.
///
/// Proxies are cached by layer id in a weak-valued registry table. A proxy
/// that carries Lua data (callbacks) is also listed, weakly, among the
/// proxies with data, and pinned while its layer is in the engine's tree, so
/// the data lives as long as the layer is shown.
enum LuaLayer {
    static let metatable = "caluna.Layer"
    static let cacheKey = "caluna.Layer.proxies"
    static let pinKey = "caluna.Layer.pinned"
    static let dataKey = "caluna.Layer.withData"
    static let methodsKey = "caluna.Layer.methods"

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Layer? {
        RetainedUserdata.object(luaL_testudata(L, idx, LuaLayer.metatable), as: Layer.self)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> Layer {
        guard let l = LuaLayer.get(a.L, i) else { throw a.fail(i, "a Layer") }
        return l
    }

    static func optionalArg(_ a: Args, _ i: Int32) throws -> Layer? {
        a.isNil(i) ? nil : try LuaLayer.arg(a, i)
    }

    /// Pushes the proxy of `layer`, making it if needed.
    static func push(_ L: OpaquePointer, _ layer: Layer, binding: LuaBinding) {
        let id = lua_Integer(Int64(bitPattern: binding.session.handles.id(for: layer)))
        lua_getfield(L, registryIndex, LuaLayer.cacheKey)
        if lua_rawgeti(L, -1, id) == LUA_TUSERDATA {
            calu_remove(L, -2)
            return
        }
        L.pop()
        RetainedUserdata.push(L, layer, userValues: 1)
        luaL_setmetatable(L, LuaLayer.metatable)
        lua_pushvalue(L, -1)
        lua_rawseti(L, -3, id)                  // cache[id] = proxy
        calu_remove(L, -2)
    }

    static func pushOptional(_ L: OpaquePointer, _ layer: Layer?, binding: LuaBinding) {
        if let layer { LuaLayer.push(L, layer, binding: binding) } else { lua_pushnil(L) }
    }

    /// Pushes the value stored under `name` on the proxy at idx (a callback
    /// function, the delegate object); false (nothing pushed) if none.
    static func pushStored(_ L: OpaquePointer, _ idx: Int32, _ name: String) -> Bool {
        guard lua_getiuservalue(L, idx, 1) == LUA_TTABLE else { L.pop(); return false }
        L.rawField(-1, name)
        calu_remove(L, -2)
        if lua_type(L, -1) > LUA_TNIL { return true }
        L.pop()
        return false
    }

    /// Stores (or clears, for nil) a callback function or the delegate object
    /// of the proxy at idx, and pins the proxy. Kept in the proxy's user
    /// value, the Lua garbage collector sees any cycle back to the layer.
    static func setCallback(_ L: OpaquePointer, _ idx: Int32, _ name: String, valueAt v: Int32, layer: Layer,
                            binding: LuaBinding) throws {
        let ud = lua_absindex(L, idx), value = lua_absindex(L, v)
        let type = lua_type(L, value)
        if name == "delegate" {
            guard type == LUA_TTABLE || type == LUA_TUSERDATA || type <= LUA_TNIL else {
                throw CalunaError(.typeMismatch, "Layer.delegate expects an object (a table with actionForLayer / layoutSublayers methods) or nil, got \(LuaValues.describe(L, value))")
            }
        } else if type != LUA_TFUNCTION && type > LUA_TNIL {
            throw CalunaError(.typeMismatch, "Layer.\(name) expects a function or nil, got \(LuaValues.describe(L, value))")
        }
        pushStore(L, ud)
        lua_pushvalue(L, value)
        L.setField(-2, name)
        // The binding answers for the layer while any callback is set.
        var any = false
        for n in LuaBinding.callbackNames.union(["delegate"]) {
            if L.rawField(-1, n) > LUA_TNIL { any = true }
            L.pop()
        }
        L.pop()
        layer.delegate = any ? binding : nil
        if name == "defaultActionForKey" {
            layer.defaultActionOverride = type <= LUA_TNIL ? nil : { [weak binding] l, key in
                try binding?.defaultAction(for: l, forKey: key) ?? Layer.defaultAction(forKey: key, transaction: l.engine?.transaction, kind: l.kind)
            }
        }
        LuaLayer.pin(L, ud, layer, binding: binding)
    }

    /// Pushes the table of Lua data (callbacks, handlers) kept in the user
    /// value of the proxy at `ud`, making it on first use.
    static func pushStore(_ L: OpaquePointer, _ ud: Int32) {
        guard lua_getiuservalue(L, ud, 1) != LUA_TTABLE else { return }
        L.pop()
        calu_newtable(L)
        lua_pushvalue(L, -1)
        lua_setiuservalue(L, ud, 1)
        // Listed among the proxies with data (weakly: the list keeps nothing alive).
        guard let layer = LuaLayer.get(L, ud), let binding = try? LuaBinding.of(L) else { return }
        lua_getfield(L, registryIndex, LuaLayer.dataKey)
        lua_pushvalue(L, ud)
        lua_rawseti(L, -2, lua_Integer(Int64(bitPattern: binding.session.handles.id(for: layer))))
        L.pop()
        binding.proxiesGainedData = true
    }

    static func pin(_ L: OpaquePointer, _ ud: Int32, _ layer: Layer, binding: LuaBinding) {
        lua_getfield(L, registryIndex, LuaLayer.pinKey)
        lua_pushvalue(L, ud)
        lua_rawseti(L, -2, lua_Integer(Int64(bitPattern: binding.session.handles.id(for: layer))))
        L.pop()
    }

    /// Unpins proxies whose layer left the engine's tree; pins proxies with
    /// Lua data whose layer is in it. Run after each step and render, it
    /// looks only when the tree changed or a proxy gained data since it last
    /// looked, and then only at proxies with data: its cost does not depend
    /// on how many layers Lua holds.
    static func sweepPins(_ L: OpaquePointer, binding: LuaBinding) {
        let engine = binding.engine
        let root = engine.root!
        let now = (root: ObjectIdentifier(root), version: engine.treeVersion)
        if let last = binding.pinsSwept, last == now, !binding.proxiesGainedData { return }
        binding.pinsSwept = now
        binding.proxiesGainedData = false
        lua_getfield(L, registryIndex, LuaLayer.pinKey)
        let pins = lua_gettop(L)
        var drop: [lua_Integer] = []
        lua_pushnil(L)
        while lua_next(L, pins) != 0 {
            if let l = LuaLayer.get(L, -1), l.rootAncestor !== root { drop.append(lua_tointegerx(L, -2, nil)) }
            L.pop()
        }
        for id in drop { lua_pushnil(L); lua_rawseti(L, pins, id) }
        lua_getfield(L, registryIndex, LuaLayer.dataKey)
        let listed = lua_gettop(L)
        var add: [lua_Integer] = []
        lua_pushnil(L)
        while lua_next(L, listed) != 0 {
            if let l = LuaLayer.get(L, -1), l.rootAncestor === root { add.append(lua_tointegerx(L, -2, nil)) }
            L.pop()
        }
        for id in add { lua_rawgeti(L, listed, id); lua_rawseti(L, pins, id) }
        lua_settop(L, pins - 1)
    }

    static func register(_ L: OpaquePointer) {
        calu_newtable(L)
        L.pushWeakValuesMetatable()
        L.setLockedMetatable(-2)
        lua_setfield(L, registryIndex, LuaLayer.cacheKey)
        calu_newtable(L)
        lua_setfield(L, registryIndex, LuaLayer.pinKey)
        calu_newtable(L)
        L.pushWeakValuesMetatable()
        L.setLockedMetatable(-2)
        lua_setfield(L, registryIndex, LuaLayer.dataKey)
        calu_newtable(L)
        LuaLayerMethods.add(to: L)
        lua_setfield(L, registryIndex, LuaLayer.methodsKey)

        guard L.newMetatable(LuaLayer.metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaLayer.metatable), as: Layer.self)
            return 0
        } })
        LuaLayerFastPath.install(L, index: LuaLayer.index, newIndex: LuaLayer.newIndex)
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            let l = try LuaLayer.arg(Args(L: L, api: "Layer"), 1)
            L.push("Layer(\(l.name.map { "\"\($0)\"" } ?? "") frame=\(l.frame))"); return 1
        } })
        L.pop()
    }

    static let index: LuaFunction = { L in
        if let L, let n = LuaLayerFastPath.index(L) { return n }
        return LuaLayer.generalIndex(L)
    }

    static let generalIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Layer")
        let layer = try LuaLayer.arg(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property or method name") }
        let binding = try LuaBinding.of(L)
        if key == "contents", layer.contents == nil, let foreign = layer.foreignContents as? LuaRef {
            foreign.push(L)
            return 1
        }
        if key == "affineTransform" {   // CGAffineTransform, not the Transform3D the property table stores
            LuaTransform.push(L, layer.affineTransform)
            return 1
        }
        if let prop = LayerProperties.named(key, kind: layer.kind) {
            LuaValues.push(L, prop.get(layer), binding: binding)
            return 1
        }
        lua_getfield(L, registryIndex, LuaLayer.methodsKey)
        if L.rawField(-1, key) != LUA_TNIL { return 1 }
        L.pop(2)
        switch key {
        case "sublayers":
            lua_createtable(L, Int32(layer.sublayers.count), 0)
            for (i, s) in layer.sublayers.enumerated() {
                LuaLayer.push(L, s, binding: binding)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        case "superlayer":
            LuaLayer.pushOptional(L, layer.superlayer, binding: binding)
            return 1
        case "className":
            L.push(layer.kind.className)
            return 1
        case "mask":
            LuaLayer.pushOptional(L, layer.mask, binding: binding)
            return 1
        case "actions":
            LuaActions.pushDictionary(L, layer.actions, binding: binding)
            return 1
        case "style":
            LuaActions.pushStyle(L, layer.style, binding: binding)
            return 1
        case "emitterCells" where layer.kind == .emitterLayer:
            LuaEmitterLayer.pushCells(L, layer.emitterCells)
            return 1
        default:
            if LuaBinding.callbackNames.contains(key) || key == "delegate" {
                if !LuaLayer.pushStored(L, 1, key) { lua_pushnil(L) }
                return 1
            }
            _ = try LayerProperties.resolve(key, kind: layer.kind)   // throws the right error
            return 0
        }
    } }

    static let newIndex: LuaFunction = { L in
        if let L, let n = LuaLayerFastPath.newIndex(L) { return n }
        return LuaLayer.generalNewIndex(L)
    }

    static let generalNewIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Layer")
        let layer = try LuaLayer.arg(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        let binding = try LuaBinding.of(L)
        // Actions run by the change call Lua on this thread.
        try binding.withCallState(L) {
            try LuaLayer.assign(L, layer: layer, proxy: 1, key: key, valueAt: 3, binding: binding)
        }
        return 0
    } }

    /// layer[key] = value at `v`; shared by __newindex and the constructor.
    static func assign(_ L: OpaquePointer, layer: Layer, proxy: Int32, key: String, valueAt v: Int32,
                       binding: LuaBinding) throws {
        let v = lua_absindex(L, v)
        // Anything but an image shows nothing, as in Core Animation (spec F6, D13).
        if key == "contents", lua_type(L, v) > LUA_TNIL, LuaImage.get(L, v) == nil {
            try LayerProperties.resolve("contents").set(layer, .null)
            layer.foreignContents = LuaRef(L, v, binding: binding)
            return
        }
        if let prop = LayerProperties.named(key, kind: layer.kind) {
            guard !prop.derived || key == "frame" || key == "affineTransform" else {
                throw CalunaError(.invalidArgument, "Layer.\(key) is read-only")
            }
            let value = try LuaValues.value(L, v, kind: prop.kind, nullable: prop.nullable, what: "Layer.\(key)",
                                            allowsInfinity: prop.allowsInfinity, element: prop.elementKind)
            try prop.set(layer, value)
            return
        }
        if key == "drawFrame", layer.kind != .pixelBufferLayer {
            throw CalunaError(.unknownKey, "\(layer.kind.className) has no drawFrame (it belongs to PixelBufferLayer)")
        }
        if LuaBinding.callbackNames.contains(key) || key == "delegate" {
            try LuaLayer.setCallback(L, proxy, key, valueAt: v, layer: layer, binding: binding)
            return
        }
        switch key {
        case "sublayers":
            guard lua_type(L, v) == LUA_TTABLE else {
                throw CalunaError(.typeMismatch, "Layer.sublayers expects an array of Layers, got \(LuaValues.describe(L, v))")
            }
            var layers: [Layer] = []
            let n = lua_rawlen(L, v)
            for i in 0..<n {
                lua_rawgeti(L, v, lua_Integer(i + 1))
                defer { L.pop() }
                guard let l = LuaLayer.get(L, -1) else {
                    throw CalunaError(.typeMismatch, "Layer.sublayers[\(i + 1)] expects a Layer, got \(LuaValues.describe(L, -1))")
                }
                layers.append(l)
            }
            try layer.setSublayers(layers)
        case "superlayer":
            throw CalunaError(.invalidArgument, "Layer.superlayer is read-only (use addSublayer / removeFromSuperlayer)")
        case "className":
            throw CalunaError(.invalidArgument, "Layer.className is read-only (make a transform layer with ca.TransformLayer{…})")
        case "mask":
            guard lua_type(L, v) <= LUA_TNIL || LuaLayer.get(L, v) != nil else {
                throw CalunaError(.typeMismatch, "Layer.mask expects a Layer or nil, got \(LuaValues.describe(L, v))")
            }
            try layer.setMask(LuaLayer.get(L, v))
            if lua_type(L, v) > LUA_TNIL { try LuaLayerMethods.pinIfNeeded(L, v) }
        case "actions":
            try layer.checkModel("actions")
            layer.actions = try LuaActions.dictionary(L, v, binding: binding, what: "Layer.actions")
        case "style":
            try layer.checkModel("style")
            layer.style = try LuaActions.style(L, v, binding: binding)
        case "emitterCells" where layer.kind == .emitterLayer:
            try LuaEmitterLayer.setLayerCells(L, layer, valueAt: v)
        default:
            _ = try LayerProperties.resolve(key, kind: layer.kind)
        }
    }
}
