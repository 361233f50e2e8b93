import CLua
import CalunaLuaShim
import Caluna

/// ca.Path: a CGPath builder (for keyframe paths now; shape layers and
/// shadow paths use the same object later). Methods return the path, so
/// calls chain: ca.Path():moveTo(0, 150):curveTo(75, 0, 225, 300, 300, 150).
enum LuaPath {
    static let metatable = "caluna.Path"

    final class Box { var path = Path() }

    static func box(_ L: OpaquePointer, _ idx: Int32) -> Box? {
        RetainedUserdata.object(luaL_testudata(L, idx, metatable), as: Box.self)
    }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Path? { box(L, idx)?.path }

    static func push(_ L: OpaquePointer, _ path: Path) {
        let b = Box()
        b.path = path
        RetainedUserdata.push(L, b)
        luaL_setmetatable(L, metatable)
    }

    static func register(_ L: OpaquePointer) {
        guard luaL_newmetatable(L, metatable) != 0 else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in RetainedUserdata.release(luaL_testudata(L, 1, LuaPath.metatable), as: Box.self); return 0 })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            L.push("Path(\(LuaPath.get(L, 1)?.elements.count ?? 0) elements)"); return 1
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
            if name != "moveTo", name != "addRect", name != "addEllipse", b.path.elements.isEmpty {
                throw CalunaError.invalid("\(a.api): start the path with moveTo")
            }
            body(&b.path, n)
            lua_settop(L, 1)
            return 1
        }
    }

    /// ca.Path() → an empty path.
    static let new: LuaFunction = { L in protect(L) { L in LuaPath.push(L, Path()); return 1 } }
}
