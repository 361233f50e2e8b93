import CLua
import CalunaLuaShim
import Caluna

/// Input from Lua (docs/lua.md, "Events"): ca.on / layer:on handlers,
/// ca.send and ca.loadEvents for scripted input, the event tables handlers
/// receive, and handler objects with :remove().
enum LuaEvents {
    static let eventMetatable = "caluna.Event"
    static let handlerMetatable = "caluna.EventHandler"
    /// The proxy user-value entry holding a layer's handler functions (kept
    /// there, a cycle back to the layer is visible to the garbage collector).
    static let layerHandlersKey = "eventHandlers"

    /// Pushes a handler object. A layer handler's `tag` is the slot of its
    /// function in the layer proxy's table.
    static func pushHandler(_ L: OpaquePointer, _ h: EventHandler) {
        RetainedUserdata.push(L, h)
        luaL_setmetatable(L, handlerMetatable)
    }

    static func register(_ L: OpaquePointer) {
        if L.newMetatable(handlerMetatable) {
            L.setFunction(-1, "__gc", { L in protect(L) { L in
                RetainedUserdata.release(luaL_testudata(L, 1, LuaEvents.handlerMetatable), as: EventHandler.self); return 0
            } })
            L.setFunction(-1, "__tostring", { L in protect(L) { L in
                let h = try LuaEvents.handler(Args(L: L, api: "EventHandler"), 1)
                L.push("EventHandler(\(h.name)\(h.isValid ? "" : ", removed"))"); return 1
            } })
            L.setFunction(-1, "__index", { L in protect(L) { L in
                let h = try LuaEvents.handler(Args(L: L, api: "EventHandler"), 1)
                switch L.string(2) ?? "" {
                case "name": L.push(h.name)
                case "valid": lua_pushboolean(L, h.isValid ? 1 : 0)
                case "layer": LuaLayer.pushOptional(L, h.layer, binding: try LuaBinding.of(L))
                case "remove": calu_push_function(L, { L in LuaEvents.remove(L) })
                default: lua_pushnil(L)
                }
                return 1
            } })
        }
        L.pop()
        guard L.newMetatable(eventMetatable) else { L.pop(); return }
        calu_newtable(L)
        L.setFunction(-1, "locationIn", { L in protect(L) { L in
            let a = Args(L: L, api: "event:locationIn")
            try a.table(1)
            let layer = try LuaLayer.arg(a, 2)
            let b = try LuaBinding.of(L)
            let p = try b.engine.location(try LuaEvents.eventLocation(L, a.api), in: layer)
            LuaValues.push(L, .point(p), binding: b)
            return 1
        } })
        L.setFunction(-1, "setTranslation", { L in protect(L) { L in
            let a = Args(L: L, api: "event:setTranslation")
            try a.table(1)
            let p = try LuaLayerMethods.point(a, 2)
            try prefixed(a.api) { try LuaBinding.of(L).engine.setPanTranslation(p, pointer: try LuaEvents.pointerID(L, a.api)) }
            return 0
        } })
        L.setFunction(-1, "capture", { L in protect(L) { L in
            let a = Args(L: L, api: "event:capture")
            try a.table(1)
            let layer = try LuaLayer.optionalArg(a, 2)
            try prefixed(a.api) { try LuaBinding.of(L).engine.capturePointer(try LuaEvents.pointerID(L, a.api), to: layer) }
            return 0
        } })
        L.setField(-2, "__index")
        L.pop()
    }

    static func handler(_ a: Args, _ i: Int32) throws -> EventHandler {
        guard let h = RetainedUserdata.object(luaL_testudata(a.L, i, handlerMetatable), as: EventHandler.self) else {
            throw a.fail(i, "an EventHandler")
        }
        return h
    }

    /// `x` and `y` of the event table at 1.
    static func eventLocation(_ L: OpaquePointer, _ api: String) throws -> Point {
        let px = L.rawField(1, "x") == LUA_TNUMBER ? lua_tonumberx(L, -1, nil) : Double.nan
        let py = L.rawField(1, "y") == LUA_TNUMBER ? lua_tonumberx(L, -1, nil) : Double.nan
        L.pop(2)
        guard px.isFinite, py.isFinite else { throw CalunaError.invalid("\(api): the event has no position") }
        return Point(px, py)
    }

    static func pointerID(_ L: OpaquePointer, _ api: String) throws -> Int64 {
        defer { L.pop() }
        guard L.rawField(1, "id") == LUA_TNUMBER, lua_isinteger(L, -1) != 0 else {
            throw CalunaError.invalid("\(api): not a pointer event")
        }
        return Int64(lua_tointegerx(L, -1, nil))
    }

    // MARK: handlers

    /// ca.on(name, fn) → handler: fn(event) on the engine.
    static let on: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.on")
        let name = try a.string(1)
        let fn = try LuaFrameCallbacks.function(a, 2)
        let b = try LuaBinding.of(L)
        let h = try prefixed(a.api) { try b.engine.addEventHandler(name) { [weak b] e in
            guard let b else { return false }
            return try b.call(fn, { L in LuaEvents.push(L, e, binding: b); return 1 }, result: { lua_toboolean($0, -1) != 0 })
        } }
        pushHandler(L, h)
        return 1
    } }

    /// layer:on(name, fn) → handler: fn(event) when a pointer event or a
    /// gesture reaches the layer (it or a sublayer was hit).
    static let layerOn: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Layer:on")
        let layer = try LuaLayer.arg(a, 1)
        let name = try a.string(2)
        guard lua_type(L, 3) == LUA_TFUNCTION else { throw a.fail(3, "a function") }
        let b = try LuaBinding.of(L)
        // Validate before storing anything.
        try prefixed(a.api) { try Engine.checkLayerHandlerName(name) }
        guard layer.engine === b.engine, !layer.isPresentation else {
            throw CalunaError.invalid("\(a.api): handlers go on model layers of this engine")
        }
        let slot = b.nextHandlerSlot
        b.nextHandlerSlot += 1
        LuaLayer.pushStore(L, 1)
        if L.rawField(-1, layerHandlersKey) != LUA_TTABLE {
            L.pop()
            calu_newtable(L)
            lua_pushvalue(L, -1)
            L.setField(-3, layerHandlersKey)
        }
        lua_pushvalue(L, 3)
        lua_rawseti(L, -2, slot)
        L.pop(2)
        let h = try prefixed(a.api) { try b.engine.addEventHandler(name, on: layer) { [weak b, link = layer.link] e in
            guard let b, let layer = link.target else { return false }
            return try b.withLayerValue(layer, layerHandlersKey) { L, table in
                guard lua_rawgeti(L, table, slot) == LUA_TFUNCTION else { return false }
                LuaEvents.push(L, e, binding: b)
                try b.pcall(L, nargs: 1, results: 1)
                return lua_toboolean(L, -1) != 0
            } ?? false
        } }
        h.tag = Int64(slot)
        LuaLayer.pin(L, 1, layer, binding: b)
        pushHandler(L, h)
        return 1
    } }

    /// layer:off([name]): removes the layer's handlers of `name` (all when nil).
    static let layerOff: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Layer:off")
        let layer = try LuaLayer.arg(a, 1)
        let name = a.isNil(2) ? nil : try a.string(2)
        let b = try LuaBinding.of(L)
        let removed = b.engine.removeEventHandlers(name, on: layer)
        if !removed.isEmpty, lua_getiuservalue(L, 1, 1) == LUA_TTABLE, L.rawField(-1, layerHandlersKey) == LUA_TTABLE {
            for h in removed { lua_pushnil(L); lua_rawseti(L, -2, lua_Integer(h.tag)) }
        }
        lua_settop(L, 2)
        lua_pushinteger(L, lua_Integer(removed.count))
        return 1
    } }

    /// handler:remove(): removes it (a second call does nothing).
    static func remove(_ L: OpaquePointer?) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: "EventHandler:remove")
            let h = try handler(a, 1)
            let b = try LuaBinding.of(L)
            let layer = h.layer
            b.engine.removeEventHandler(h)
            if let layer {
                LuaLayer.push(L, layer, binding: b)
                if lua_getiuservalue(L, -1, 1) == LUA_TTABLE, L.rawField(-1, layerHandlersKey) == LUA_TTABLE {
                    lua_pushnil(L)
                    lua_rawseti(L, -2, lua_Integer(h.tag))
                }
                lua_settop(L, 1)
            }
            return 0
        }
    }

    // MARK: sending

    /// ca.send{type = …, …}: queues the event(s) a scripted table describes.
    static let send: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.send")
        try a.table(1)
        let payload = try payload(L, 1, api: a.api, depth: 0)
        try prefixed(a.api) { try LuaBinding.of(L).engine.sendScripted(payload) }
        return 0
    } }

    /// ca.loadEvents(path) → count: queues a JSON Lines file of events.
    static let loadEvents: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.loadEvents")
        let path = try a.string(1)
        let b = try LuaBinding.of(L)
        let n = try prefixed(a.api) { try b.engine.loadEvents(path: path, access: b.session.fileAccess, api: a.api) }
        lua_pushinteger(L, lua_Integer(n))
        return 1
    } }

    /// A Lua value as event data: a sequence becomes an array, other
    /// tables objects (string keys), scalars themselves.
    static func payload(_ L: OpaquePointer, _ idx: Int32, api: String, depth: Int, path: String = "") throws -> EventPayload {
        let i = lua_absindex(L, idx)
        let at = path.isEmpty ? "" : " (at \(path))"
        switch lua_type(L, i) {
        case LUA_TNIL: return .null
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER:
            let d = lua_tonumberx(L, i, nil)
            guard d.isFinite else { throw CalunaError.invalid("\(api): numbers must be finite\(at), got \(d)") }
            return .number(d)
        case LUA_TSTRING: return .string(L.string(i) ?? "")
        case LUA_TTABLE:
            guard depth < EventPayload.maximumDepth else { throw CalunaError.invalid("\(api): event data is nested more than \(EventPayload.maximumDepth) deep (a cycle?)") }
            // Each level holds a key and a value on the stack (C functions get 20 slots).
            guard lua_checkstack(L, 4) != 0 else { throw CalunaError(.outOfMemory, "\(api): event data is too deep for the Lua stack") }
            let n = lua_rawlen(L, i)
            var count = 0
            var fields: [(String, EventPayload)] = []
            var items: [EventPayload] = []
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                count += 1
                if count > EventPayload.maximumNodes { lua_settop(L, i); throw CalunaError.invalid("\(api): event data is too large") }
                if lua_type(L, -2) == LUA_TSTRING {
                    let key = L.string(-2) ?? ""
                    do {
                        fields.append((key, try payload(L, -1, api: api, depth: depth + 1, path: path.isEmpty ? key : path + "." + key)))
                    } catch { lua_settop(L, i); throw error }
                } else if lua_isinteger(L, -2) == 0 {
                    lua_settop(L, i)
                    throw CalunaError.invalid("\(api): event data tables have string keys or are lists")
                }
                L.pop()
            }
            if n > 0 {
                guard count == Int(n), fields.isEmpty else { throw CalunaError.invalid("\(api): a table in event data mixes a list with other keys") }
                for k in 1...Int(n) {
                    lua_rawgeti(L, i, lua_Integer(k))
                    defer { L.pop() }
                    items.append(try payload(L, -1, api: api, depth: depth + 1, path: "\(path)[\(k)]"))
                }
                return .array(items)
            }
            guard count == fields.count else { throw CalunaError.invalid("\(api): event data tables have string keys or are lists") }
            return .object(fields.sorted { $0.0 < $1.0 })
        default:
            throw CalunaError(.typeMismatch, "\(api): event data holds numbers, strings, booleans and tables, not \(LuaValues.describe(L, i))\(at)")
        }
    }

    /// Event data as a Lua value.
    static func push(_ L: OpaquePointer, _ v: EventPayload) {
        // Payloads are at most 32 deep; each level needs two slots.
        guard lua_checkstack(L, 3) != 0 else { lua_pushnil(L); return }
        switch v {
        case .null: lua_pushnil(L)
        case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
        case .number(let d):
            if d == d.rounded(), abs(d) < 9.007e15 { lua_pushinteger(L, lua_Integer(d)) } else { lua_pushnumber(L, d) }
        case .string(let s): L.push(s)
        case .array(let a):
            lua_createtable(L, Int32(clamping: a.count), 0)
            for (k, x) in a.enumerated() { push(L, x); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        case .object(let o):
            lua_createtable(L, 0, Int32(clamping: o.count))
            for (k, x) in o { push(L, x); L.setField(-2, k) }
        }
    }

    // MARK: the event table

    /// The table a handler receives.
    static func push(_ L: OpaquePointer, _ e: InputEvent, binding b: LuaBinding) {
        calu_newtable(L)
        L.push(e.kind.rawValue); L.setField(-2, "type")
        L.push(e.name); L.setField(-2, "name")
        lua_pushnumber(L, e.time); L.setField(-2, "time")
        if let t = e.target { LuaLayer.push(L, t, binding: b); L.setField(-2, "target") }
        if let c = e.currentTarget { LuaLayer.push(L, c, binding: b); L.setField(-2, "layer") }
        func number(_ v: Double, _ k: String) { lua_pushnumber(L, v); L.setField(-2, k) }
        func point(_ p: Point, _ k: String) { LuaValues.push(L, .point(p), binding: b); L.setField(-2, k) }
        if e.kind.reachesLayers {
            lua_pushinteger(L, lua_Integer(e.pointerID)); L.setField(-2, "id")
            number(e.location.x, "x"); number(e.location.y, "y")
            lua_pushinteger(L, lua_Integer(e.buttons)); L.setField(-2, "buttons")
        }
        if e.kind == .pan {
            L.push(e.phase.rawValue); L.setField(-2, "state")
            point(e.translation, "translation")
            point(e.velocity, "velocity")
        }
        switch e.kind {
        case .keyDown, .keyUp:
            L.push(e.key); L.setField(-2, "key")
            L.push(e.text); L.setField(-2, "text")
        case .tilt:
            number(e.acceleration.x, "x"); number(e.acceleration.y, "y"); number(e.acceleration.z, "z")
        case .resize:
            number(e.size.width, "width"); number(e.size.height, "height"); number(b.engine.scale, "scale")
        case .custom:
            push(L, e.payload); L.setField(-2, "data")
        default: break
        }
        if e.kind.reachesLayers || e.kind == .keyDown || e.kind == .keyUp {
            calu_newtable(L)
            for (n, m) in InputEvent.Modifiers.names where e.modifiers.contains(m) { lua_pushboolean(L, 1); L.setField(-2, n) }
            L.setField(-2, "modifiers")
        }
        luaL_setmetatable(L, eventMetatable)
    }
}
