import CLua
import CalunaLuaShim
import Caluna

/// ca.MediaTimingFunction (CAMediaTimingFunction), ca.easing (Penner's
/// functions, the book's bounce) and ca.interpolate.
enum LuaTiming {
    static let metatable = "caluna.MediaTimingFunction"

    final class Box { let f: TimingFunction; init(_ f: TimingFunction) { self.f = f } }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> TimingFunction? {
        RetainedUserdata.object(luaL_testudata(L, idx, metatable), as: Box.self)?.f
    }

    static func push(_ L: OpaquePointer, _ f: TimingFunction) {
        RetainedUserdata.push(L, Box(f))
        luaL_setmetatable(L, metatable)
    }

    static func register(_ L: OpaquePointer) {
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaTiming.metatable), as: Box.self); return 0
        } })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            guard let f = LuaTiming.get(L, 1) else { return 0 }
            L.push("MediaTimingFunction(\(f))"); return 1
        } })
        L.setFunction(-1, "__eq", { L in protect(L) { L in
            lua_pushboolean(L, LuaTiming.get(L, 1) != nil && LuaTiming.get(L, 1) == LuaTiming.get(L, 2) ? 1 : 0); return 1
        } })
        calu_newtable(L)
        L.setFunction(-1, "getControlPoint", { L in protect(L) { L in
            let a = Args(L: L, api: "MediaTimingFunction:getControlPoint")
            guard let f = LuaTiming.get(L, 1) else { throw a.fail(1, "a MediaTimingFunction") }
            let i = try a.number(2)
            guard i == i.rounded(), abs(i) < 1e9 else { throw CalunaError.invalid("\(a.api): the index must be 0, 1, 2 or 3 (got \(i))") }
            let p = try prefixed(a.api) { try f.controlPoint(Int(i)) }
            lua_pushnumber(L, p.x); lua_pushnumber(L, p.y); return 2
        } })
        L.setFunction(-1, "evaluate", { L in protect(L) { L in
            let a = Args(L: L, api: "MediaTimingFunction:evaluate")
            guard let f = LuaTiming.get(L, 1) else { throw a.fail(1, "a MediaTimingFunction") }
            lua_pushnumber(L, f.evaluate(try a.number(2))); return 1
        } })
        L.setFunction(-1, "name", { L in protect(L) { L in
            guard let f = LuaTiming.get(L, 1) else { throw Args(L: L, api: "MediaTimingFunction:name").fail(1, "a MediaTimingFunction") }
            if let n = f.name { L.push(n) } else { lua_pushnil(L) }
            return 1
        } })
        L.setField(-2, "__index")
        L.pop()
    }

    /// ca.MediaTimingFunction("easeIn") or (c1x, c1y, c2x, c2y); also .named(n).
    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "named", { L in protect(L) { L in
            LuaTiming.push(L, try TimingFunction.named(try Args(L: L, api: "MediaTimingFunction.named").string(1))); return 1
        } })
        calu_newtable(L)
        L.setFunction(-1, "__call", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.MediaTimingFunction")
            if let s = L.string(2) {
                LuaTiming.push(L, try TimingFunction.named(s))
            } else {
                LuaTiming.push(L, try TimingFunction(try a.number(2), try a.number(3), try a.number(4), try a.number(5)))
            }
            return 1
        } })
        L.setLockedMetatable(-2)
    }

    /// ca.easing: a table of functions, one per entry of Easing.all, built
    /// in Lua around one Swift evaluator (bindings cannot capture state).
    static func pushEasing(_ L: OpaquePointer) throws {
        let source = """
            local evaluate, names = ...
            local easing = {}
            for _, name in ipairs(names) do
              easing[name] = function(t) return evaluate(name, t) end
            end
            return easing
            """
        guard luaL_loadstring(L, source) == LUA_OK else { throw CalunaError.invalid("ca.easing: \(L.string(-1) ?? "")") }
        calu_push_function(L, { L in protect(L) { L in
            let a = Args(L: L, api: "ca.easing")
            let name = try a.string(1)
            guard let f = Easing.named(name) else { throw CalunaError(.unknownKey, "ca.easing has no function '\(name)'") }
            // The functions are defined on 0…1 (outside it some are not real).
            let t = min(max(try Args(L: L, api: "ca.easing.\(name)").number(2), 0), 1)
            lua_pushnumber(L, f(t))
            return 1
        } })
        lua_createtable(L, Int32(Easing.all.count), 0)
        for (i, e) in Easing.all.enumerated() { L.push(e.name); lua_rawseti(L, -2, lua_Integer(i + 1)) }
        guard calu_pcall(L, 2, 1, 0) == LUA_OK else { throw CalunaError.invalid("ca.easing: \(L.string(-1) ?? "")") }
    }

    /// ca.interpolate(from, to, t): Core Animation's interpolation of two
    /// values of the same kind (numbers, points, sizes, rects, colours,
    /// transforms; anything else switches at t = 0.5).
    static let interpolate: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.interpolate")
        let t = try a.number(3)
        let b = try LuaBinding.of(L)
        let kind = guessKind(L, 1)
        let from = try LuaValues.value(L, 1, kind: kind, nullable: true, what: "ca.interpolate from")
        let to = try LuaValues.value(L, 2, kind: kind, nullable: true, what: "ca.interpolate to")
        LuaValues.push(L, try Interpolation.interpolate(from, to, t), binding: b)
        return 1
    } }

    /// The value kind a Lua value most plausibly is: numbers, transforms,
    /// colour strings, {r, g, b, a} colours, sizes {width, height} and
    /// positional tables (two numbers: a point; four: a rect).
    static func guessKind(_ L: OpaquePointer, _ i: Int32) -> ValueKind {
        func has(_ key: String) -> Bool { let t = L.rawField(i, key); L.pop(); return t != LUA_TNIL }
        switch lua_type(L, i) {
        case LUA_TNUMBER: return .number
        case LUA_TBOOLEAN: return .bool
        case LUA_TSTRING: return .color
        case LUA_TUSERDATA: return LuaTransform.get(L, i) != nil ? .transform : .image
        case LUA_TTABLE:
            if has("r") { return .color }
            if has("width") || has("w") { return has("x") ? .rect : .size }
            if has("x") { return .point }
            return lua_rawlen(L, i) == 4 ? .rect : .point
        default: return .null
        }
    }
}
