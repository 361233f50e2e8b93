import CLua
import CalunaLuaShim
import Caluna

/// `ca.Transform3D` (CATransform3D) and `ca.AffineTransform` (CGAffineTransform):
/// mutable value types held in userdata, documented in docs/lua.md.
///
///   ca.Transform3D.identity (a fresh value on each access), .translation(tx, ty[, tz]),
///   .scale(sx, sy[, sz]), .rotation(angle[, x, y, z]) (axis defaults to z),
///   .fromAffine(a), ca.Transform3D{16 numbers in row order}
///   t.m11 … t.m44 (read and write), t:translate/scale/rotate(…) (the operation first,
///   then t), t:concat(b) and t * b (t first), t:invert() (nil, "not invertible" when
///   singular), t:isIdentity(), t:isAffine(), t:affine(), t:apply(x, y[, z]),
///   t:elements(), t:copy(), t == u
///
///   ca.AffineTransform.identity, .translation(tx, ty), .scale(sx, sy), .rotation(angle),
///   .shear(x, y), ca.AffineTransform{a, b, c, d, tx, ty}
///   t.a … t.ty, t:translate/scale/rotate, t:concat(u), t * u, t:invert(), t:isIdentity(),
///   t:apply(point), t:applyRect(rect), t:toTransform3D(), t:elements(), t:copy(), t == u
///
/// Every value is finite: fields, constructor arguments and results that are not
/// raise an error naming the API.
enum LuaTransform {
    /// The Transform3D a value of kind transform denotes: a Transform3D, or an
    /// AffineTransform as CATransform3DMakeAffineTransform makes it. Layer
    /// properties, animation values and ca.interpolate read transforms with it.
    static func get(_ L: OpaquePointer, _ idx: Int32) -> Transform3D? {
        if let t = value(L, idx, Transform3D.self) { return t }
        return value(L, idx, AffineTransform.self).map(Transform3D.init)
    }

    static func push<T: LuaMatrix>(_ L: OpaquePointer, _ v: T) {
        let p = lua_newuserdatauv(L, MemoryLayout<T>.size, 0)!
        p.storeBytes(of: v, as: T.self)
        luaL_setmetatable(L, T.metatable)
    }

    /// The value at idx if it is exactly a T.
    static func value<T: LuaMatrix>(_ L: OpaquePointer, _ idx: Int32, _: T.Type) -> T? {
        guard let p = luaL_testudata(L, idx, T.metatable) else { return nil }
        return p.load(as: T.self)
    }

    /// A Transform3D or an AffineTransform.
    static func anyValue(_ L: OpaquePointer, _ idx: Int32) -> (any LuaMatrix)? {
        if let t = value(L, idx, Transform3D.self) { return t }
        return value(L, idx, AffineTransform.self)
    }

    /// "Transform3D", "AffineTransform" or LuaValues' description, for messages.
    static func describe(_ L: OpaquePointer, _ idx: Int32) -> String {
        anyValue(L, idx).map { type(of: $0).luaName } ?? LuaValues.describe(L, idx)
    }

    static func operand<T: LuaMatrix>(_ a: Args, _ i: Int32, _: T.Type) throws -> T {
        if let v = value(a.L, i, T.self) { return v }
        let hint = T.self == Transform3D.self && value(a.L, i, AffineTransform.self) != nil
            ? " (convert with ca.Transform3D.fromAffine(t) or t:toTransform3D())"
            : T.self == AffineTransform.self && value(a.L, i, Transform3D.self) != nil ? " (take t:affine() of a Transform3D)" : ""
        throw CalunaError(.typeMismatch, "\(a.api): argument \(i) expects \(T.article) \(T.luaName)\(hint), got \(describe(a.L, i))")
    }

    /// Pushes a result, refusing one that overflowed.
    static func pushResult<T: LuaMatrix>(_ a: Args, _ v: T) throws -> Int32 {
        guard v.isFinite else { throw CalunaError(.invalidArgument, "\(a.api): the result is not finite (overflow)") }
        push(a.L, v)
        return 1
    }

    /// Pushes a point or rect result as a table, refusing one that overflowed.
    static func pushGeometry(_ a: Args, _ v: Value) throws -> Int32 {
        guard v.isFinite else { throw CalunaError(.invalidArgument, "\(a.api): the result is not finite (overflow)") }
        LuaValues.push(a.L, v, binding: try LuaBinding.of(a.L))
        return 1
    }

    /// A method shared by both types: `self` (argument 1) of either type.
    private static func method(_ L: OpaquePointer?, _ name: String,
                               _ body: (any LuaMatrix, Args) throws -> Int32) -> Int32 {
        protect(L) { L in
            guard let v = anyValue(L, 1) else {
                throw CalunaError(.typeMismatch,
                                  "\(name): argument 1 expects a Transform3D or an AffineTransform (call it as t:\(name)(…)), got \(describe(L, 1))")
            }
            return try body(v, Args(L: L, api: "\(type(of: v).luaName):\(name)"))
        }
    }

    private static func concat<T: LuaMatrix>(_ v: T, _ a: Args) throws -> Int32 {
        try pushResult(a, v.concatenating(try operand(a, 2, T.self)))
    }

    private static func invert<T: LuaMatrix>(_ v: T, _ a: Args) -> Int32 {
        if let inv = v.inverted() {
            push(a.L, inv)
            return 1
        }
        lua_pushnil(a.L)
        a.L.push("not invertible")
        return 2
    }

    private static func equal<T: LuaMatrix>(_ v: T, _ other: (any LuaMatrix)?) -> Bool {
        (other as? T) == v
    }

    private static func pushElements(_ L: OpaquePointer, _ e: [Double]) {
        lua_createtable(L, Int32(e.count), 0)
        for (i, x) in e.enumerated() { lua_pushnumber(L, x); lua_rawseti(L, -2, lua_Integer(i + 1)) }
    }

    private static func index<T: LuaMatrix>(_ v: T, _ L: OpaquePointer) throws -> Int32 {
        guard let key = L.string(2) else {
            throw CalunaError(.typeMismatch, "\(T.luaName): a field or method name must be a string, got \(describe(L, 2))")
        }
        if let i = T.fieldNames.firstIndex(of: key) {
            lua_pushnumber(L, v.elements[i])
            return 1
        }
        lua_getfield(L, registryIndex, T.methodsKey)
        guard L.rawField(-1, key) == LUA_TFUNCTION else {
            throw CalunaError(.unknownKey, "\(T.luaName) has no field or method '\(key)' (fields: \(T.fieldList))")
        }
        return 1
    }

    /// t.field = number: the value must be a finite number; unknown fields are errors.
    private static func setField<T: LuaMatrix>(_ v: T, _ L: OpaquePointer) throws -> Int32 {
        guard let key = L.string(2), let i = T.fieldNames.firstIndex(of: key) else {
            let name = L.string(2).map { "'\($0)'" } ?? describe(L, 2)
            throw CalunaError(.unknownKey, "\(T.luaName) has no field \(name) (fields: \(T.fieldList))")
        }
        guard let x = L.number(3) else {
            throw CalunaError(.typeMismatch, "\(T.luaName).\(key) expects a finite number, got \(describe(L, 3))")
        }
        guard x.isFinite else { throw CalunaError(.invalidArgument, "\(T.luaName).\(key) must be finite (got \(x))") }
        var e = v.elements
        e[i] = x
        guard let changed = T(elements: e), let p = luaL_testudata(L, 1, T.metatable) else { return 0 }
        p.storeBytes(of: changed, as: T.self)
        return 0
    }

    private static func describeValue<T: LuaMatrix>(_ v: T) -> String {
        let e = v.elements.map { String($0) }
        let rows = stride(from: 0, to: e.count, by: T.rowLength).map { e[$0..<min($0 + T.rowLength, e.count)].joined(separator: ", ") }
        return T.luaName + "{" + rows.joined(separator: "; ") + "}"
    }

    static func register(_ L: OpaquePointer) {
        for metatable in [Transform3D.metatable, AffineTransform.metatable] {
            if L.newMetatable(metatable) {
                L.setFunction(-1, "__index", { L in LuaTransform.method(L, "__index") { v, a in try LuaTransform.index(v, a.L) } })
                L.setFunction(-1, "__newindex", { L in LuaTransform.method(L, "__newindex") { v, a in try LuaTransform.setField(v, a.L) } })
                L.setFunction(-1, "__eq", { L in protect(L) { L in
                    lua_pushboolean(L, LuaTransform.anyValue(L, 1).map { LuaTransform.equal($0, LuaTransform.anyValue(L, 2)) } ?? false ? 1 : 0)
                    return 1
                } })
                L.setFunction(-1, "__mul", { L in protect(L) { L in
                    guard let v = LuaTransform.anyValue(L, 1) else {
                        throw CalunaError(.typeMismatch, "a * b multiplies two Transform3D or two AffineTransform values, got \(LuaTransform.describe(L, 1)) * \(LuaTransform.describe(L, 2))")
                    }
                    return try LuaTransform.concat(v, Args(L: L, api: "\(type(of: v).luaName) *"))
                } })
                L.setFunction(-1, "__tostring", { L in LuaTransform.method(L, "__tostring") { v, a in a.L.push(LuaTransform.describeValue(v)); return 1 } })
            }
            L.pop()
        }

        // Methods both types share.
        let shared: [(String, LuaFunction)] = [
            ("translate", { L in LuaTransform.method(L, "translate") { v, a in try LuaTransform.pushResult(a, try v.luaTranslated(a)) } }),
            ("scale", { L in LuaTransform.method(L, "scale") { v, a in try LuaTransform.pushResult(a, try v.luaScaled(a)) } }),
            ("rotate", { L in LuaTransform.method(L, "rotate") { v, a in try LuaTransform.pushResult(a, try v.luaRotated(a)) } }),
            ("concat", { L in LuaTransform.method(L, "concat") { v, a in try LuaTransform.concat(v, a) } }),
            ("invert", { L in LuaTransform.method(L, "invert") { v, a in LuaTransform.invert(v, a) } }),
            ("isIdentity", { L in LuaTransform.method(L, "isIdentity") { v, a in lua_pushboolean(a.L, v.isIdentity ? 1 : 0); return 1 } }),
            ("elements", { L in LuaTransform.method(L, "elements") { v, a in LuaTransform.pushElements(a.L, v.elements); return 1 } }),
            ("copy", { L in LuaTransform.method(L, "copy") { v, a in LuaTransform.push(a.L, v); return 1 } }),
        ]
        for key in [Transform3D.methodsKey, AffineTransform.methodsKey] {
            calu_newtable(L)
            for (name, fn) in shared { L.setFunction(-1, name, fn) }
            if key == Transform3D.methodsKey { transform3DMethods(L) } else { affineMethods(L) }
            lua_setfield(L, registryIndex, key)
        }
    }

    private static func transform3DMethods(_ L: OpaquePointer) {
        L.setFunction(-1, "isAffine", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:isAffine")
            lua_pushboolean(L, try LuaTransform.operand(a, 1, Transform3D.self).isAffine ? 1 : 0)
            return 1
        } })
        L.setFunction(-1, "affine", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:affine")
            LuaTransform.push(L, try LuaTransform.operand(a, 1, Transform3D.self).affine)
            return 1
        } })
        // [x y z 1] · t, divided by w: x, y, z, w; nil, message when w ≤ 0.
        L.setFunction(-1, "apply", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D:apply")
            let t = try LuaTransform.operand(a, 1, Transform3D.self)
            try a.atMost(4, "(x, y[, z])")
            guard let p = t.project(try a.number(2), try a.number(3), try a.optionalNumber(4, 0)) else {
                lua_pushnil(L)
                L.push("the point is at or behind the viewer (w <= 0)")
                return 2
            }
            for x in [p.x, p.y, p.z, p.w] { lua_pushnumber(L, x) }
            return 4
        } })
    }

    private static func affineMethods(_ L: OpaquePointer) {
        L.setFunction(-1, "apply", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform:apply")
            let t = try LuaTransform.operand(a, 1, AffineTransform.self)
            let p: Point
            if lua_type(L, 2) == LUA_TNUMBER {
                try a.atMost(3, "(point) or (x, y)")
                p = Point(try a.number(2), try a.number(3))
            } else {
                try a.atMost(2, "(point) or (x, y)")
                guard let q = LuaValues.point(L, 2) else { throw a.fail(2, "a point {x, y} (or two numbers x, y)") }
                p = q
            }
            guard p.isFinite else { throw CalunaError(.invalidArgument, "\(a.api): the point must be finite") }
            return try LuaTransform.pushGeometry(a, .point(t.apply(p)))
        } })
        L.setFunction(-1, "applyRect", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform:applyRect")
            let t = try LuaTransform.operand(a, 1, AffineTransform.self)
            try a.atMost(2, "(rect)")
            guard let rect = LuaValues.rect(L, 2) else { throw a.fail(2, "a rect {x, y, width, height}") }
            guard rect.isFinite else { throw CalunaError(.invalidArgument, "\(a.api): the rect must be finite") }
            return try LuaTransform.pushGeometry(a, .rect(t.apply(rect)))
        } })
        L.setFunction(-1, "toTransform3D", { L in protect(L) { L in
            LuaTransform.push(L, Transform3D(try LuaTransform.operand(Args(L: L, api: "AffineTransform:toTransform3D"), 1, AffineTransform.self)))
            return 1
        } })
    }

    // MARK: class tables

    /// (angle, x, y, z) with the axis defaulting to z.
    static func rotationArgs(_ a: Args, from i: Int32) throws -> (Double, Double, Double, Double) {
        try a.atMost(i + 3, "(angle[, x, y, z])")
        let angle = try a.number(i)
        if a.isNil(i + 1) && a.isNil(i + 2) && a.isNil(i + 3) { return (angle, 0, 0, 1) }
        return (angle, try a.number(i + 1), try a.number(i + 2), try a.number(i + 3))
    }

    /// `ca.X{…}` / `ca.X.new{…}`: exactly T.fieldNames.count finite numbers in order.
    private static func construct<T: LuaMatrix>(_ L: OpaquePointer, first: Int32, _: T.Type) throws -> Int32 {
        let a = Args(L: L, api: T.luaName)
        let n = T.fieldNames.count
        let usage = "\(T.luaName){…} expects \(n) numbers \(T.fieldList) in order"
        guard lua_type(L, first) == LUA_TTABLE else { throw CalunaError(.typeMismatch, "\(usage), got \(describe(L, first))") }
        guard lua_rawlen(L, first) == n else {
            throw CalunaError(.invalidArgument, "\(usage), got a table of length \(lua_rawlen(L, first))")
        }
        var e: [Double] = []
        for i in 1...n {
            guard lua_rawgeti(L, first, lua_Integer(i)) == LUA_TNUMBER else {
                let what = describe(L, -1)
                L.pop()
                throw CalunaError(.typeMismatch, "\(usage); element \(i) (\(T.fieldNames[i - 1])) is \(what)")
            }
            e.append(lua_tonumberx(L, -1, nil))
            L.pop()
        }
        guard let v = T(elements: e), v.isFinite else {
            throw CalunaError(.invalidArgument, "\(a.api){…}: elements must be finite")
        }
        push(L, v)
        return 1
    }

    /// The metatable of a class table: `identity` is a fresh value on each access
    /// (values are mutable); calling the class constructs from a table.
    private static func setClassMetatable(_ L: OpaquePointer, index: LuaFunction, call: LuaFunction) {
        calu_newtable(L)
        L.setFunction(-1, "__index", index)
        L.setFunction(-1, "__call", call)
        L.setLockedMetatable(-2)
    }

    /// Pushes the `ca.Transform3D` class table.
    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "translation", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D.translation")
            try a.atMost(3, "(tx, ty[, tz])")
            return try LuaTransform.pushResult(a, Transform3D.translation(try a.number(1), try a.number(2), try a.optionalNumber(3, 0)))
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D.scale")
            try a.atMost(3, "(sx, sy[, sz])")
            return try LuaTransform.pushResult(a, Transform3D.scale(try a.number(1), try a.number(2), try a.optionalNumber(3, 1)))
        } })
        L.setFunction(-1, "rotation", { L in protect(L) { L in
            let a = Args(L: L, api: "Transform3D.rotation")
            let (angle, x, y, z) = try LuaTransform.rotationArgs(a, from: 1)
            return try LuaTransform.pushResult(a, Transform3D.rotation(angle, x, y, z))
        } })
        L.setFunction(-1, "fromAffine", { L in protect(L) { L in
            LuaTransform.push(L, Transform3D(try LuaTransform.operand(Args(L: L, api: "Transform3D.fromAffine"), 1, AffineTransform.self)))
            return 1
        } })
        L.setFunction(-1, "new", { L in protect(L) { L in try LuaTransform.construct(L, first: 1, Transform3D.self) } })
        setClassMetatable(L, index: { L in protect(L) { L in
            if L.string(2) == "identity" { LuaTransform.push(L, Transform3D.identity) } else { lua_pushnil(L) }
            return 1
        } }, call: { L in protect(L) { L in try LuaTransform.construct(L, first: 2, Transform3D.self) } })
    }

    /// Pushes the `ca.AffineTransform` class table.
    static func pushAffineClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "translation", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.translation")
            try a.atMost(2, "(tx, ty)")
            return try LuaTransform.pushResult(a, AffineTransform.translation(try a.number(1), try a.number(2)))
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.scale")
            try a.atMost(2, "(sx, sy)")
            return try LuaTransform.pushResult(a, AffineTransform.scale(try a.number(1), try a.number(2)))
        } })
        L.setFunction(-1, "rotation", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.rotation")
            try a.atMost(1, "(angle)")
            return try LuaTransform.pushResult(a, AffineTransform.rotation(try a.number(1)))
        } })
        L.setFunction(-1, "shear", { L in protect(L) { L in
            let a = Args(L: L, api: "AffineTransform.shear")
            try a.atMost(2, "(x, y)")
            return try LuaTransform.pushResult(a, AffineTransform.shear(try a.number(1), try a.number(2)))
        } })
        L.setFunction(-1, "new", { L in protect(L) { L in try LuaTransform.construct(L, first: 1, AffineTransform.self) } })
        setClassMetatable(L, index: { L in protect(L) { L in
            if L.string(2) == "identity" { LuaTransform.push(L, AffineTransform.identity) } else { lua_pushnil(L) }
            return 1
        } }, call: { L in protect(L) { L in try LuaTransform.construct(L, first: 2, AffineTransform.self) } })
    }
}

extension Args {
    /// Refuses arguments past `n` (a 2D call given a z, a typo'd extra value).
    func atMost(_ n: Int32, _ usage: String) throws {
        guard count <= n else {
            throw CalunaError(.invalidArgument, "\(api) takes \(usage): got \(count) arguments")
        }
    }
}

// MARK: the two value types

/// A matrix value type that Lua holds by value in a userdata.
protocol LuaMatrix: MatrixValue {
    static var luaName: String { get }
    static var article: String { get }
    static var metatable: String { get }
    static var methodsKey: String { get }
    /// Fields per row in `__tostring`.
    static var rowLength: Int { get }
    /// t:translate(…), t:scale(…), t:rotate(…) (arguments from index 2).
    func luaTranslated(_ a: Args) throws -> Self
    func luaScaled(_ a: Args) throws -> Self
    func luaRotated(_ a: Args) throws -> Self
}

extension LuaMatrix {
    static var metatable: String { "caluna." + luaName }
    static var methodsKey: String { metatable + ".methods" }
    static var fieldNames: [String] { elementNames }
    static var fieldList: String { elementNames.joined(separator: ", ") }
}

extension Transform3D: LuaMatrix {
    static let luaName = "Transform3D"
    static let article = "a"
    static let rowLength = 4

    func luaTranslated(_ a: Args) throws -> Transform3D {
        try a.atMost(4, "(tx, ty[, tz])")
        return translated(try a.number(2), try a.number(3), try a.optionalNumber(4, 0))
    }
    func luaScaled(_ a: Args) throws -> Transform3D {
        try a.atMost(4, "(sx, sy[, sz])")
        return scaled(try a.number(2), try a.number(3), try a.optionalNumber(4, 1))
    }
    func luaRotated(_ a: Args) throws -> Transform3D {
        let (angle, x, y, z) = try LuaTransform.rotationArgs(a, from: 2)
        return rotated(angle, x, y, z)
    }
}

extension AffineTransform: LuaMatrix {
    static let luaName = "AffineTransform"
    static let article = "an"
    static let rowLength = 6

    func luaTranslated(_ a: Args) throws -> AffineTransform {
        try a.atMost(3, "(tx, ty)")
        return translated(try a.number(2), try a.number(3))
    }
    func luaScaled(_ a: Args) throws -> AffineTransform {
        try a.atMost(3, "(sx, sy)")
        return scaled(try a.number(2), try a.number(3))
    }
    func luaRotated(_ a: Args) throws -> AffineTransform {
        try a.atMost(2, "(angle)")
        return rotated(try a.number(2))
    }
}
