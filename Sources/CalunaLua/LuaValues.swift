import CLua
import CalunaLuaShim
import Caluna

/// Lua ⇄ Value conversion (DESIGN §4): points {x, y}, sizes {w, h}, rects
/// {x, y, w, h} — positional or named fields — colours as "#rrggbb[aa]", CSS
/// names or {r, g, b, a} in 0…1, transforms as Transform3D userdata.
/// Reading never runs metamethods of user tables (raw access only).
enum LuaValues {
    /// The numbers of a table: positional [1…n], else the first present of
    /// each alternative name list. Nil if the shape does not match.
    static func numbers(_ L: OpaquePointer, _ idx: Int32, _ names: [[String]], optionalLast: Double? = nil) -> [Double]? {
        guard lua_type(L, idx) == LUA_TTABLE else { return nil }
        let t = lua_absindex(L, idx)
        var out: [Double] = []
        let positional = lua_rawgeti(L, t, 1) != LUA_TNIL
        L.pop()
        for (i, alternatives) in names.enumerated() {
            var found: Double? = nil
            var sawNonNumber = false
            if positional {
                let ty = lua_rawgeti(L, t, lua_Integer(i + 1))
                if ty == LUA_TNUMBER { found = lua_tonumberx(L, -1, nil) } else if ty != LUA_TNIL { sawNonNumber = true }
                L.pop()
            } else {
                for name in alternatives where found == nil {
                    let ty = L.rawField(t, name)
                    if ty == LUA_TNUMBER { found = lua_tonumberx(L, -1, nil) } else if ty != LUA_TNIL { sawNonNumber = true }
                    L.pop()
                }
            }
            if sawNonNumber { return nil }
            if found == nil, i == names.count - 1, let d = optionalLast { found = d }
            guard let v = found else { return nil }
            out.append(v)
        }
        return out
    }

    static func point(_ L: OpaquePointer, _ idx: Int32) -> Point? {
        numbers(L, idx, [["x"], ["y"]]).map { Point($0[0], $0[1]) }
    }

    static func size(_ L: OpaquePointer, _ idx: Int32) -> Size? {
        numbers(L, idx, [["width", "w"], ["height", "h"]]).map { Size($0[0], $0[1]) }
    }

    static func rect(_ L: OpaquePointer, _ idx: Int32) -> Rect? {
        numbers(L, idx, [["x"], ["y"], ["width", "w"], ["height", "h"]]).map { Rect($0[0], $0[1], $0[2], $0[3]) }
    }

    static func color(_ L: OpaquePointer, _ idx: Int32, what: String) throws -> Color? {
        if let s = L.string(idx) { return Color(parsing: s) }
        guard let c = numbers(L, idx, [["r", "red"], ["g", "green"], ["b", "blue"], ["a", "alpha"]], optionalLast: 1) else {
            return nil
        }
        guard c.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
            throw CalunaError(.invalidArgument, "\(what): colour components must be in 0…1 (got {\(c.map { fmt($0) }.joined(separator: ", "))})")
        }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }

    /// The most entries an array property takes (gradient stops, dashes).
    static let maximumArrayCount = 1 << 20

    private static func fmt(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }

    /// Converts the Lua value at idx to a Value of `kind`; `what` names the
    /// receiver in errors ("Layer.position").
    /// `element`: for an array kind, the kind of each entry (a sequence).
    static func value(_ L: OpaquePointer, _ idx: Int32, kind: ValueKind, nullable: Bool, what: String,
                      allowsInfinity: Bool = false, element: ValueKind? = nil) throws -> Value {
        let ty = lua_type(L, idx)
        if ty <= LUA_TNIL {
            guard nullable else { throw mismatch(L, idx, kind, what) }
            return .null
        }
        let v: Value?
        switch kind {
        case .number: v = ty == LUA_TNUMBER ? .number(lua_tonumberx(L, idx, nil)) : nil
        case .bool: v = ty == LUA_TBOOLEAN ? .bool(lua_toboolean(L, idx) != 0) : nil
        case .string: v = L.string(idx).map(Value.string)
        case .point: v = point(L, idx).map(Value.point)
        case .size: v = size(L, idx).map(Value.size)
        case .rect: v = rect(L, idx).map(Value.rect)
        case .color:
            if let s = L.string(idx), Color(parsing: s) == nil {
                throw CalunaError(.invalidArgument, "\(what): unknown colour \"\(s)\" (use \"#rrggbb[aa]\", a CSS name or {r, g, b, a})")
            }
            v = try color(L, idx, what: what).map(Value.color)
        case .transform: v = LuaTransform.get(L, idx).map(Value.transform)
        case .image: v = LuaImage.get(L, idx).map(Value.image)
        case .path: v = LuaPath.get(L, idx).map(Value.path)
        case .array:
            guard let element, ty == LUA_TTABLE else { v = nil; break }
            let t = lua_absindex(L, idx)
            let n = Int(lua_rawlen(L, t))
            guard n <= LuaValues.maximumArrayCount else {
                throw CalunaError(.invalidArgument, "\(what): \(n) entries is more than the \(LuaValues.maximumArrayCount) allowed")
            }
            var items: [Value] = []
            items.reserveCapacity(n)
            for i in 0..<n {
                lua_rawgeti(L, t, lua_Integer(i + 1))
                defer { L.pop() }
                items.append(try value(L, -1, kind: element, nullable: false, what: "\(what)[\(i + 1)]"))
            }
            v = .array(items)
        case .null: v = nil
        }
        guard let v else { throw mismatch(L, idx, kind, what) }
        if allowsInfinity, v == .number(.infinity) { return v }
        guard v.isFinite else { throw CalunaError(.invalidArgument, "\(what) must be finite (got NaN or infinity)") }
        return v
    }

    static func mismatch(_ L: OpaquePointer, _ idx: Int32, _ kind: ValueKind, _ what: String) -> CalunaError {
        CalunaError(.typeMismatch, "\(what) expects \(kind.expectation), got \(describe(L, idx))")
    }

    /// "string \"abc\"", "number 3", "table", … for error messages.
    static func describe(_ L: OpaquePointer, _ idx: Int32) -> String {
        switch lua_type(L, idx) {
        case LUA_TSTRING: return "string \"\(L.string(idx) ?? "")\""
        case LUA_TNUMBER: return "number \(fmt(lua_tonumberx(L, idx, nil)))"
        case LUA_TBOOLEAN: return lua_toboolean(L, idx) != 0 ? "true" : "false"
        case LUA_TTABLE: return "a table of another shape"
        default: return L.typeName(idx)
        }
    }

    /// Pushes a Value (points, sizes, rects and colours as named-field tables).
    /// Points, sizes, rects and colours as tables of named numbers (what the
    /// Value push below and the typed fast path, LuaLayerFastPath, both make).
    static func push(_ L: OpaquePointer, _ p: Point) { fields(L, ("x", p.x), ("y", p.y)) }
    static func push(_ L: OpaquePointer, _ s: Size) { fields(L, ("width", s.width), ("height", s.height)) }
    static func push(_ L: OpaquePointer, _ r: Rect) {
        fields(L, ("x", r.origin.x), ("y", r.origin.y), ("width", r.size.width), ("height", r.size.height))
    }
    static func push(_ L: OpaquePointer, _ c: Color) { fields(L, ("r", c.red), ("g", c.green), ("b", c.blue), ("a", c.alpha)) }

    /// A new table of up to four named numbers (fixed arity: no array per call).
    private static func fields(_ L: OpaquePointer, _ a: (StaticString, Double), _ b: (StaticString, Double),
                               _ c: (StaticString, Double)? = nil, _ d: (StaticString, Double)? = nil) {
        func set(_ f: (StaticString, Double)) {
            lua_pushnumber(L, f.1)
            lua_setfield(L, -2, UnsafeRawPointer(f.0.utf8Start).assumingMemoryBound(to: CChar.self))
        }
        lua_createtable(L, 0, c == nil ? 2 : 4)
        set(a)
        set(b)
        if let c { set(c) }
        if let d { set(d) }
    }

    static func push(_ L: OpaquePointer, _ v: Value, binding: LuaBinding) {
        switch v {
        case .null: lua_pushnil(L)
        case .number(let n): lua_pushnumber(L, n)
        case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
        case .string(let s): L.push(s)
        case .point(let p): push(L, p)
        case .size(let s): push(L, s)
        case .rect(let r): push(L, r)
        case .color(let c): push(L, c)
        case .transform(let t): LuaTransform.push(L, t)
        case .image(let i): LuaImage.push(L, i)
        case .path(let p): LuaPath.push(L, p)
        case .array(let a):
            lua_createtable(L, Int32(a.count), 0)
            for (i, e) in a.enumerated() { push(L, e, binding: binding); lua_rawseti(L, -2, lua_Integer(i + 1)) }
        }
    }
}
