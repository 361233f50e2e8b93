import CLua
import CalunaLuaShim
import Caluna

/// ca.Path: a CGPath / UIBezierPath builder (keyframe paths, shape layers,
/// shadow paths). Arcs, rounded rects and
/// transforms follow UIBezierPath (docs/lua.md). Methods return the path, so
/// calls chain: ca.Path():moveTo(0, 150):curveTo(75, 0, 225, 300, 300, 150).
enum LuaPath {
    static let metatable = "caluna.Path"

    typealias Box = PathBuilder

    static func box(_ L: OpaquePointer, _ idx: Int32) -> Box? {
        RetainedUserdata.object(luaL_testudata(L, idx, metatable), as: Box.self)
    }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Path? { box(L, idx)?.path }

    static func push(_ L: OpaquePointer, _ path: Path) {
        let b = PathBuilder(path)
        RetainedUserdata.push(L, b)
        luaL_setmetatable(L, metatable)
    }

    static func register(_ L: OpaquePointer) {
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPath.metatable), as: Box.self); return 0
        } })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            L.push("Path(\(LuaPath.get(L, 1)?.elements.count ?? 0) elements)"); return 1
        } })
        // #path: the number of elements (CGPathApply's count).
        L.setFunction(-1, "__len", { L in protect(L) { L in
            lua_pushinteger(L, lua_Integer(LuaPath.get(L, 1)?.elements.count ?? 0)); return 1
        } })
        calu_newtable(L)
        L.setFunction(-1, "moveTo", { L in LuaPath.edit(L, "moveTo", 2) { p, n in p.move(to: Point(n[0], n[1])) } })
        L.setFunction(-1, "lineTo", { L in LuaPath.edit(L, "lineTo", 2) { p, n in p.line(to: Point(n[0], n[1])) } })
        L.setFunction(-1, "quadCurveTo", { L in LuaPath.edit(L, "quadCurveTo", 4) { p, n in
            p.elements.append(.quad(Point(n[0], n[1]), Point(n[2], n[3])))
        } })
        L.setFunction(-1, "curveTo", { L in LuaPath.edit(L, "curveTo", 6) { p, n in
            p.elements.append(.cubic(Point(n[0], n[1]), Point(n[2], n[3]), Point(n[4], n[5])))
        } })
        L.setFunction(-1, "closePath", { L in LuaPath.edit(L, "closePath", 0) { p, _ in p.close() } })
        L.setFunction(-1, "addRect", { L in LuaPath.edit(L, "addRect", 4) { p, n in p.addRect(Rect(n[0], n[1], n[2], n[3])) } })
        L.setFunction(-1, "addEllipse", { L in LuaPath.edit(L, "addEllipse", 4) { p, n in p.addEllipse(in: Rect(n[0], n[1], n[2], n[3])) } })
        registerConstruction(L)
        L.setFunction(-1, "pointAt", { L in protect(L) { L in
            // The point at a fraction of the segments (for tests and scripts).
            let a = Args(L: L, api: "Path:pointAt")
            guard let path = LuaPath.get(L, 1) else { throw a.fail(1, "a Path") }
            let segs = PathSegment.segments(of: path)
            guard !segs.isEmpty else { throw CalunaError.invalid("Path:pointAt: the path has no segments") }
            let f = min(max(try a.number(2), 0), 1) * Double(segs.count)
            let i = min(Int(f), segs.count - 1)
            let p = segs[i].point(at: f - Double(i))
            lua_pushnumber(L, p.x); lua_pushnumber(L, p.y); return 2
        } })
        L.setField(-2, "__index")
        L.pop()
    }

    /// Runs an edit of `b`'s path and tells Lua's collector of the storage
    /// it grew by (storage at least doubles: a path built element by element
    /// reports O(log n) times).
    static func growing(_ L: OpaquePointer, _ b: Box, _ body: () throws -> Void) rethrows {
        let before = b.chargedBytes
        try body()
        RetainedUserdata.noteExternalAllocation(L, b.chargedBytes - before)
    }

    /// Appends to the path at 1 from `count` numeric arguments; returns the path.
    static func edit(_ L: OpaquePointer?, _ name: String, _ count: Int32, _ body: (inout Path, [Double]) -> Void) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: "Path:\(name)")
            guard let b = LuaPath.box(L, 1) else { throw a.fail(1, "a Path") }
            var n: [Double] = []
            for i in 0..<count {
                let v = try a.number(i + 2)
                guard abs(v) <= maximumCoordinate else { throw CalunaError.invalid("\(a.api): \(v) is beyond ±1e8 points") }
                n.append(v)
            }
            if !["moveTo", "addRect", "addEllipse", "addArc", "addRoundedRect"].contains(name), b.path.elements.isEmpty {
                throw CalunaError.invalid("\(a.api): start the path with moveTo")
            }
            try LuaPath.growing(L, b) { try b.edit(adding: 6, a.api) { body(&$0, n) } }
            lua_settop(L, 1)
            return 1
        }
    }

    /// ca.Path() → an empty path.
    static let new: LuaFunction = { L in protect(L) { L in LuaPath.push(L, Path()); return 1 } }
}

// UIBezierPath's construction beyond lines and curves, and the queries tests use.
extension LuaPath {
    /// UIRectCorner names (CACornerMask's bits: top = minY in y-down space).
    static let cornerNames: [(String, CornerMask)] = [
        ("topLeft", .minXMinY), ("topRight", .maxXMinY), ("bottomLeft", .minXMaxY), ("bottomRight", .maxXMaxY),
        ("allCorners", .all),
    ]

    static func registerConstruction(_ L: OpaquePointer) {
        // path:addArc(cx, cy, radius, startAngle, endAngle, clockwise)
        L.setFunction(-1, "addArc", { L in protect(L) { L in
            let a = Args(L: L, api: "Path:addArc")
            guard let b = LuaPath.box(L, 1) else { throw a.fail(1, "a Path") }
            let c = Point(try LuaPath.coordinate(a, 2), try LuaPath.coordinate(a, 3))
            let r = try LuaPath.coordinate(a, 4)
            guard r >= 0 else { throw CalunaError.invalid("\(a.api): radius must be ≥ 0 (got \(r))") }
            let a0 = try LuaPath.angle(a, 5), a1 = try LuaPath.angle(a, 6)
            guard lua_type(L, 7) == LUA_TBOOLEAN else { throw a.fail(7, "a boolean (clockwise)") }
            try LuaPath.growing(L, b) { try b.edit(adding: 6, a.api) { $0.addArc(center: c, radius: r, startAngle: a0, endAngle: a1, clockwise: lua_toboolean(L, 7) != 0) } }
            lua_settop(L, 1); return 1
        } })
        // path:addRoundedRect(x, y, w, h, radii[, corners])
        L.setFunction(-1, "addRoundedRect", { L in protect(L) { L in
            let a = Args(L: L, api: "Path:addRoundedRect")
            guard let b = LuaPath.box(L, 1) else { throw a.fail(1, "a Path") }
            let r = Rect(try LuaPath.coordinate(a, 2), try LuaPath.coordinate(a, 3), try LuaPath.coordinate(a, 4), try LuaPath.coordinate(a, 5))
            let radii: Size
            if lua_type(L, 6) == LUA_TNUMBER {
                let v = try LuaPath.coordinate(a, 6)
                radii = Size(v, v)
            } else if let s = LuaValues.size(L, 6) {
                radii = Size(try LuaPath.checked(a, "radii.width", s.width), try LuaPath.checked(a, "radii.height", s.height))
            } else { throw a.fail(6, "a radius or a size {w, h}") }
            guard radii.width >= 0, radii.height >= 0 else {
                throw CalunaError.invalid("\(a.api): radii must be ≥ 0 (got \(radii))")
            }
            let corners = try LuaPath.corners(a, 7)
            try LuaPath.growing(L, b) { try b.edit(adding: 10, a.api) { $0.addRoundedRect(r, cornerRadii: radii, corners: corners) } }
            lua_settop(L, 1); return 1
        } })
        L.setFunction(-1, "addPath", { L in protect(L) { L in
            let a = Args(L: L, api: "Path:addPath")
            guard let b = LuaPath.box(L, 1) else { throw a.fail(1, "a Path") }
            guard let other = LuaPath.get(L, 2) else { throw a.fail(2, "a Path") }
            try LuaPath.growing(L, b) { try b.edit(adding: other.elements.count, a.api) { $0.addPath(other) } }
            lua_settop(L, 1); return 1
        } })
        // path:applyTransform(t): every point mapped by an affine transform, in place.
        L.setFunction(-1, "applyTransform", { L in protect(L) { L in
            let a = Args(L: L, api: "Path:applyTransform")
            guard let b = LuaPath.box(L, 1) else { throw a.fail(1, "a Path") }
            let t: AffineTransform
            if let m = LuaTransform.value(L, 2, AffineTransform.self) {
                t = m
            } else if let m = LuaTransform.value(L, 2, Transform3D.self), m.isAffine {
                t = m.affine
            } else { throw a.fail(2, "an AffineTransform (or an affine Transform3D)") }
            let p = b.path.applying(t)
            for q in p.points where !(q.isFinite && abs(q.x) <= maximumCoordinate && abs(q.y) <= maximumCoordinate) {
                throw CalunaError.invalid("\(a.api): the transform takes a point to \(q), beyond ±1e8 points")
            }
            try LuaPath.growing(L, b) { try b.replace(with: p, a.api) }
            lua_settop(L, 1); return 1
        } })
        L.setFunction(-1, "copy", { L in protect(L) { L in
            guard let p = LuaPath.get(L, 1) else { throw Args(L: L, api: "Path:copy").fail(1, "a Path") }
            LuaPath.push(L, p); return 1
        } })
        // path:currentPoint() → x, y (nil for an empty path).
        L.setFunction(-1, "currentPoint", { L in protect(L) { L in
            guard let b = LuaPath.box(L, 1) else { throw Args(L: L, api: "Path:currentPoint").fail(1, "a Path") }
            guard let p = b.path.currentPoint else { lua_pushnil(L); return 1 }
            lua_pushnumber(L, p.x); lua_pushnumber(L, p.y); return 2
        } })
        // path:bounds() → {x, y, width, height}: control points included (UIBezierPath.bounds).
        L.setFunction(-1, "bounds", { L in protect(L) { L in
            guard let b = LuaPath.box(L, 1) else { throw Args(L: L, api: "Path:bounds").fail(1, "a Path") }
            let r = b.path.controlPointBounds
            lua_createtable(L, 0, 4)
            for (k, v) in [("x", r.origin.x), ("y", r.origin.y), ("width", r.size.width), ("height", r.size.height)] {
                lua_pushnumber(L, v); L.setField(-2, k)
            }
            return 1
        } })
    }

    private static func checked(_ a: Args, _ what: String, _ v: Double) throws -> Double {
        guard v.isFinite, abs(v) <= maximumCoordinate else {
            throw CalunaError.invalid("\(a.api): \(what) must be finite and within ±1e8 points (got \(v))")
        }
        return v
    }

    private static func coordinate(_ a: Args, _ i: Int32) throws -> Double {
        let v = try a.number(i)
        guard abs(v) <= maximumCoordinate else { throw CalunaError.invalid("\(a.api): \(v) is beyond ±1e8 points") }
        return v
    }

    private static func angle(_ a: Args, _ i: Int32) throws -> Double {
        let v = try a.number(i)
        guard abs(v) <= 1e6 else { throw CalunaError.invalid("\(a.api): angle \(v) is beyond ±1e6 radians") }
        return v
    }

    /// nil: all four; a name; a list of names; or CACornerMask's bits (0…15).
    private static func corners(_ a: Args, _ i: Int32) throws -> CornerMask {
        let L = a.L
        func named(_ s: String) throws -> CornerMask {
            guard let m = cornerNames.first(where: { $0.0 == s })?.1 else {
                throw CalunaError.invalid("\(a.api): unknown corner \"\(s)\" (use \(cornerNames.map { "\"\($0.0)\"" }.joined(separator: ", ")))")
            }
            return m
        }
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return .all
        case LUA_TSTRING: return try named(try a.string(i))
        case LUA_TNUMBER:
            guard let m = CornerMask(value: .number(lua_tonumberx(L, i, nil))) else {
                throw CalunaError.invalid("\(a.api): a corner mask must be an integer in 0…15")
            }
            return m
        case LUA_TTABLE:
            var m: CornerMask = []
            let n = min(Int(lua_rawlen(L, i)), 16)
            for k in 0..<n {
                lua_rawgeti(L, i, lua_Integer(k + 1))
                defer { L.pop() }
                guard let s = L.string(-1), lua_type(L, -1) == LUA_TSTRING else { throw a.fail(i, "a list of corner names") }
                m.formUnion(try named(s))
            }
            return m
        default: throw a.fail(i, "corner names or a mask")
        }
    }
}
