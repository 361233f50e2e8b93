import CLua
import CalunaLuaShim
import Caluna

/// `ca.Transform3D`: an immutable CATransform3D value (userdata).
///   ca.Transform3D.identity, .translation(tx, ty[, tz]), .scale(sx, sy[, sz]),
///   .rotation(angle[, x, y, z])  (axis defaults to z), ca.Transform3D{16 numbers}
///   t:translate(…), t:scale(…), t:rotate(…)  (CATransform3DTranslate etc.: the
///   operation first, then t), t:concat(b) (t first, then b), t * b == t:concat(b),
///   t:invert() (nil if singular), t:isIdentity(), t:isAffine(), t.m11 … t.m44.
/// `ca.AffineTransform` builds the same values for the 2D case.
enum LuaTransform {
    static let metatable = "caluna.Transform3D"
    static let fieldNames = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                             "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44"]

    static func push(_ L: OpaquePointer, _ t: Transform3D) {
        let p = lua_newuserdatauv(L, MemoryLayout<Transform3D>.size, 0)!
        p.storeBytes(of: t, as: Transform3D.self)
        luaL_setmetatable(L, LuaTransform.metatable)
    }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Transform3D? {
        guard let p = luaL_testudata(L, idx, LuaTransform.metatable) else { return nil }
        return p.load(as: Transform3D.self)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> Transform3D {
        guard let t = LuaTransform.get(a.L, i) else { throw a.fail(i, "a Transform3D") }
        return t
    }

    /// (angle, x, y, z) with the axis defaulting to z.
    static func rotationArgs(_ a: Args, from i: Int32) throws -> (Double, Double, Double, Double) {
        let angle = try a.number(i)
        if a.isNil(i + 1) && a.isNil(i + 2) && a.isNil(i + 3) { return (angle, 0, 0, 1) }
        return (angle, try a.number(i + 1), try a.number(i + 2), try a.number(i + 3))
    }

    static func register(_ L: OpaquePointer) {
        // The instance LuaTransform.metatable.
        if luaL_newmetatable(L, LuaTransform.metatable) != 0 {
            L.setFunction(-1, "__index", { L in protect(L) { L in
                let a = Args(L: L, api: "Transform3D")
                let t = try LuaTransform.arg(a, 1)
                if let key = L.string(2), let i = LuaTransform.fieldNames.firstIndex(of: key) {
                    lua_pushnumber(L, t.elements[i]); return 1
                }
                guard let key = L.string(2) else { throw a.fail(2, "a field name") }
                lua_getfield(L, registryIndex, "caluna.Transform3D.methods")
                L.rawField(-1, key)
                guard lua_type(L, -1) == LUA_TFUNCTION else {
                    throw CalunaError(.unknownKey, "Transform3D has no field or method '\(key)'")
                }
                return 1
            } })
            L.setFunction(-1, "__newindex", { L in protect(L) { _ in
                throw CalunaError(.invalidArgument, "Transform3D values are immutable: build a new one (e.g. t:rotate(…))")
            } })
            L.setFunction(-1, "__eq", { L in protect(L) { L in
                lua_pushboolean(L, LuaTransform.get(L, 1) == LuaTransform.get(L, 2) ? 1 : 0); return 1
            } })
            L.setFunction(-1, "__mul", { L in protect(L) { L in
                let a = Args(L: L, api: "Transform3D.__mul")
                LuaTransform.push(L, try LuaTransform.arg(a, 1).concatenating(try LuaTransform.arg(a, 2))); return 1
            } })
            L.setFunction(-1, "__tostring", { L in protect(L) { L in
                let t = try LuaTransform.arg(Args(L: L, api: "Transform3D"), 1)
                let rows = stride(from: 0, to: 16, by: 4).map { r in t.elements[r..<r + 4].map { String($0) }.joined(separator: ", ") }
                L.push("Transform3D{" + rows.joined(separator: "; ") + "}"); return 1
            } })
        }
        L.pop()

        // Methods shared by all values.
        calu_newtable(L)
        L.setFunction(-1, "translate", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:translate")
            LuaTransform.push(L, try LuaTransform.arg(a, 1).translated(try a.number(2), try a.number(3), try a.optionalNumber(4, 0))); return 1
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:scale")
            LuaTransform.push(L, try LuaTransform.arg(a, 1).scaled(try a.number(2), try a.number(3), try a.optionalNumber(4, 1))); return 1
        } })
        L.setFunction(-1, "rotate", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:rotate")
            let (angle, x, y, z) = try LuaTransform.rotationArgs(a, from: 2)
            LuaTransform.push(L, try LuaTransform.arg(a, 1).rotated(angle, x, y, z)); return 1
        } })
        L.setFunction(-1, "concat", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:concat")
            LuaTransform.push(L, try LuaTransform.arg(a, 1).concatenating(try LuaTransform.arg(a, 2))); return 1
        } })
        L.setFunction(-1, "invert", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:invert")
            if let inv = try LuaTransform.arg(a, 1).inverted() { LuaTransform.push(L, inv) } else { lua_pushnil(L) }
            return 1
        } })
        L.setFunction(-1, "isIdentity", { L in protect(L) { L in
            lua_pushboolean(L, try LuaTransform.arg(Args(L: L, api: "Transform3D:isIdentity"), 1).isIdentity ? 1 : 0); return 1
        } })
        L.setFunction(-1, "isAffine", { L in protect(L) { L in
            lua_pushboolean(L, try LuaTransform.arg(Args(L: L, api: "Transform3D:isAffine"), 1).isAffine ? 1 : 0); return 1
        } })
        L.setFunction(-1, "elements", { L in protect(L) { L in
            let t = try LuaTransform.arg(Args(L: L, api: "Transform3D:elements"), 1)
            lua_createtable(L, 16, 0)
            for (i, e) in t.elements.enumerated() { lua_pushnumber(L, e); lua_rawseti(L, -2, lua_Integer(i + 1)) }
            return 1
        } })
        lua_setfield(L, registryIndex, "caluna.Transform3D.methods")
    }

    /// Pushes the `ca.Transform3D` class table.
    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        LuaTransform.push(L, .identity)
        L.setField(-2, "identity")
        L.setFunction(-1, "translation", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D.translation")
            LuaTransform.push(L, .translation(try a.number(1), try a.number(2), try a.optionalNumber(3, 0))); return 1
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D.scale")
            LuaTransform.push(L, .scale(try a.number(1), try a.number(2), try a.optionalNumber(3, 1))); return 1
        } })
        L.setFunction(-1, "rotation", { L in protect(L) { L in
            let (angle, x, y, z) = try LuaTransform.rotationArgs(Args(L: L, api: "Transform3D.rotation"), from: 1)
            LuaTransform.push(L, .rotation(angle, x, y, z)); return 1
        } })
        L.setFunction(-1, "new", { L in protect(L) { L in try LuaTransform.construct(L, first: 1) } })
        // Callable: ca.Transform3D{m11, …, m44}
        calu_newtable(L)
        L.setFunction(-1, "__call", { L in protect(L) { L in try LuaTransform.construct(L, first: 2) } })
        lua_setmetatable(L, -2)
    }

    private static func construct(_ L: OpaquePointer, first: Int32) throws -> Int32 {
        let a = Args(L: L, api: "Transform3D")
        try a.table(first)
        var e: [Double] = []
        for i in 1...16 {
            guard lua_rawgeti(L, first, lua_Integer(i)) == LUA_TNUMBER else {
                L.pop(); throw CalunaError(.typeMismatch, "Transform3D{…} expects 16 numbers m11…m44 in row order")
            }
            e.append(lua_tonumberx(L, -1, nil)); L.pop()
        }
        guard let t = Transform3D(elements: e), t.isFinite else {
            throw CalunaError(.invalidArgument, "Transform3D{…}: elements must be finite")
        }
        LuaTransform.push(L, t)
        return 1
    }

    /// Pushes `ca.AffineTransform`: 2D constructors giving affine Transform3D values.
    static func pushAffineClass(_ L: OpaquePointer) {
        calu_newtable(L)
        LuaTransform.push(L, .identity)
        L.setField(-2, "identity")
        L.setFunction(-1, "rotation", { L in protect(L) { L in
            LuaTransform.push(L, Transform3D(AffineTransform.rotation(try Args(L: L, api: "AffineTransform.rotation").number(1)))); return 1
        } })
        L.setFunction(-1, "translation", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.translation")
            LuaTransform.push(L, Transform3D(AffineTransform.translation(try a.number(1), try a.number(2)))); return 1
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.scale")
            LuaTransform.push(L, Transform3D(AffineTransform.scale(try a.number(1), try a.number(2)))); return 1
        } })
    }
}
