import CLua
import CalunaLuaShim
import Caluna

/// The Lua side of CAEmitterLayer: `ca.EmitterCell{…}` objects (one proxy
/// per cell), `layer.emitterCells = {cell, …}` (LuaLayer forwards the key
/// here), and read-only inspection: `layer:particles()`, `layer:particleCount()`.
enum LuaEmitterLayer {
    static let metatable = "caluna.EmitterCell"
    static let cacheKey = "caluna.EmitterCell.proxies"

    static func register(_ L: OpaquePointer) {
        if L.newMetatable(metatable) {
            L.setFunction(-1, "__gc", { L in protect(L) { L in
                RetainedUserdata.release(luaL_testudata(L, 1, LuaEmitterLayer.metatable), as: EmitterCell.self)
                return 0
            } })
            L.setFunction(-1, "__index", index)
            L.setFunction(-1, "__newindex", newIndex)
            L.setFunction(-1, "__tostring", { L in protect(L) { L in
                let c = try LuaEmitterLayer.arg(Args(L: L, api: "EmitterCell"), 1)
                L.push("EmitterCell(\(c.parameters.name.map { "\"\($0)\"" } ?? ""))")
                return 1
            } })
        }
        L.pop()
        // The module table is on top: ca.EmitterCell{…}.
        L.setFunction(-1, "EmitterCell", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.EmitterCell")
            let cell = EmitterCell()
            if !a.isNil(1) {
                try a.table(1)
                // emitterCells last, so sub-cells see the finished cell.
                try L.applyFields(of: 1, "ca.EmitterCell", rank: { $0 == "emitterCells" ? 1 : 0 }) { k in
                    try LuaEmitterLayer.assign(L, cell, key: k, valueAt: -1)
                }
            }
            LuaEmitterLayer.push(L, cell)
            return 1
        } })
        lua_getfield(L, registryIndex, LuaLayer.methodsKey)
        L.setFunction(-1, "particles", { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:particles"), 1)
            let frame = try prefixed("Layer:particles") { try layer.emitterParticles() }
            lua_createtable(L, Int32(frame.particles.count), 0)
            for (i, p) in frame.particles.enumerated() {
                lua_createtable(L, 0, 12)
                for (k, v) in [("x", p.position.x), ("y", p.position.y), ("z", p.z), ("age", p.age),
                               ("lifetime", p.lifetime), ("birthTime", p.birthTime), ("alpha", p.color.alpha),
                               ("scale", p.scale), ("angle", p.angle)] {
                    lua_pushnumber(L, v); L.setField(-2, k)
                }
                lua_createtable(L, 0, 4)
                for (k, v) in [("r", p.color.red), ("g", p.color.green), ("b", p.color.blue), ("a", p.color.alpha)] {
                    lua_pushnumber(L, v); L.setField(-2, k)
                }
                L.setField(-2, "color")
                lua_pushinteger(L, lua_Integer(p.level)); L.setField(-2, "level")
                if let name = frame.cells[p.cell].name { L.push(name); L.setField(-2, "cell") }
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        } })
        L.setFunction(-1, "particleCount", { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:particleCount"), 1)
            let frame = try prefixed("Layer:particleCount") { try layer.emitterParticles() }
            lua_pushinteger(L, lua_Integer(frame.particles.count))
            return 1
        } })
        L.pop()
    }

    static func push(_ L: OpaquePointer, _ cell: EmitterCell) {
        RetainedUserdata.pushCached(L, cell, cacheKey: cacheKey, metatable: metatable)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> EmitterCell {
        guard let c = RetainedUserdata.object(luaL_testudata(a.L, i, metatable), as: EmitterCell.self) else {
            throw a.fail(i, "an EmitterCell")
        }
        return c
    }

    /// A Lua array of cells at `v` (nil: none); `what` names the receiver.
    static func cells(_ L: OpaquePointer, _ v: Int32, what: String) throws -> [EmitterCell] {
        let v = lua_absindex(L, v)
        if lua_type(L, v) <= LUA_TNIL { return [] }
        guard lua_type(L, v) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(what) expects an array of EmitterCells or nil, got \(LuaValues.describe(L, v))")
        }
        let n = lua_rawlen(L, v)
        guard n <= 10_000 else { throw CalunaError.invalid("\(what): \(n) cells is more than 10000") }
        var out: [EmitterCell] = []
        for i in 0..<n {
            lua_rawgeti(L, v, lua_Integer(i + 1))
            defer { L.pop() }
            guard let c = RetainedUserdata.object(luaL_testudata(L, -1, metatable), as: EmitterCell.self) else {
                throw CalunaError(.typeMismatch, "\(what)[\(i + 1)] expects an EmitterCell, got \(LuaValues.describe(L, -1))")
            }
            out.append(c)
        }
        return out
    }

    static func pushCells(_ L: OpaquePointer, _ cells: [EmitterCell]) {
        lua_createtable(L, Int32(cells.count), 0)
        for (i, c) in cells.enumerated() {
            push(L, c)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    /// layer.emitterCells = {…} (from LuaLayer.assign).
    static func setLayerCells(_ L: OpaquePointer, _ layer: Layer, valueAt v: Int32) throws {
        try layer.setEmitterCells(try cells(L, v, what: "Layer.emitterCells"))
    }

    static func assign(_ L: OpaquePointer, _ cell: EmitterCell, key: String, valueAt v: Int32) throws {
        if key == "emitterCells" {
            return try cell.setEmitterCells(try cells(L, v, what: "EmitterCell.emitterCells"))
        }
        let p = try EmitterCell.property(key)
        let value = try LuaValues.value(L, v, kind: p.kind, nullable: p.nullable, what: "EmitterCell.\(key)")
        try cell.setValue(value, forKey: key)
    }

    static let index: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "EmitterCell")
        let cell = try LuaEmitterLayer.arg(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        switch key {
        case "emitterCells": LuaEmitterLayer.pushCells(L, cell.emitterCells)
        case "className": L.push("CAEmitterCell")
        default: LuaValues.push(L, try cell.value(forKey: key), binding: try LuaBinding.of(L))
        }
        return 1
    } }

    static let newIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "EmitterCell")
        let cell = try LuaEmitterLayer.arg(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        try LuaEmitterLayer.assign(L, cell, key: key, valueAt: 3)
        return 0
    } }
}
