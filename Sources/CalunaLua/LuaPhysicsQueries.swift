import CLua
import CalunaLuaShim
import Caluna

/// world:nearestPoint(p[, maxDistance, filter]) → {shape, point, distance, gradient} or nil
/// world:pointQuery(p[, maxDistance, filter]) → list of the same, nearest first
/// world:segmentQueryFirst(a, b[, radius, filter]) → {shape, point, normal, alpha} or nil
/// world:segmentQuery(a, b[, radius, filter]) → list of the same, along the segment
/// world:boundingBoxQuery(rect[, filter]) → list of shapes
/// world:shapeQuery(shape) → list of {shape, normal, points}
enum LuaPhysicsQueries {
    private static func filter(_ a: Args, _ i: Int32) throws -> ShapeFilter {
        a.isNil(i) ? .all : try LuaPhysics.filter(a.L, i, "\(a.api) filter")
    }

    private static func pushPointHit(_ L: OpaquePointer, _ h: PhysicsWorld.PointHit, _ b: LuaBinding) {
        lua_createtable(L, 0, 4)
        LuaPhysics.push(L, h.shape); L.setField(-2, "shape")
        LuaValues.push(L, .point(h.point), binding: b); L.setField(-2, "point")
        lua_pushnumber(L, h.distance); L.setField(-2, "distance")
        LuaValues.push(L, .point(h.gradient), binding: b); L.setField(-2, "gradient")
    }

    private static func pushSegmentHit(_ L: OpaquePointer, _ h: PhysicsWorld.SegmentHit, _ b: LuaBinding) {
        lua_createtable(L, 0, 4)
        LuaPhysics.push(L, h.shape); L.setField(-2, "shape")
        LuaValues.push(L, .point(h.point), binding: b); L.setField(-2, "point")
        LuaValues.push(L, .point(h.normal), binding: b); L.setField(-2, "normal")
        lua_pushnumber(L, h.alpha); L.setField(-2, "alpha")
    }

    /// maxDistance may be math.huge (anywhere).
    private static func distance(_ a: Args, _ i: Int32) throws -> Double {
        if a.isNil(i) { return 0 }
        guard let d = a.L.number(i) else { throw a.fail(i, "a number (maxDistance)") }
        return d
    }

    static let nearestPoint: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:nearestPoint")
        let w = try LuaPhysics.world(a, 1)
        let hit = try prefixed(a.api) { try w.nearestPoint(try LuaPhysics.point(a, 2, "point"), maxDistance: try distance(a, 3), filter: try filter(a, 4)) }
        if let hit { pushPointHit(L, hit, try LuaBinding.of(L)) } else { lua_pushnil(L) }
        return 1
    } }

    static let pointQuery: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:pointQuery")
        let w = try LuaPhysics.world(a, 1)
        let hits = try prefixed(a.api) { try w.pointQuery(try LuaPhysics.point(a, 2, "point"), maxDistance: try distance(a, 3), filter: try filter(a, 4)) }
        let b = try LuaBinding.of(L)
        LuaPhysics.pushList(L, hits) { pushPointHit(L, $0, b) }
        return 1
    } }

    static let segmentQueryFirst: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:segmentQueryFirst")
        let w = try LuaPhysics.world(a, 1)
        let hit = try prefixed(a.api) {
            try w.segmentQueryFirst(from: try LuaPhysics.point(a, 2, "start"), to: try LuaPhysics.point(a, 3, "end"),
                                    radius: try a.optionalNumber(4, 0), filter: try filter(a, 5))
        }
        if let hit { pushSegmentHit(L, hit, try LuaBinding.of(L)) } else { lua_pushnil(L) }
        return 1
    } }

    static let segmentQuery: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:segmentQuery")
        let w = try LuaPhysics.world(a, 1)
        let hits = try prefixed(a.api) {
            try w.segmentQuery(from: try LuaPhysics.point(a, 2, "start"), to: try LuaPhysics.point(a, 3, "end"),
                               radius: try a.optionalNumber(4, 0), filter: try filter(a, 5))
        }
        let b = try LuaBinding.of(L)
        LuaPhysics.pushList(L, hits) { pushSegmentHit(L, $0, b) }
        return 1
    } }

    static let boundingBoxQuery: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:boundingBoxQuery")
        let w = try LuaPhysics.world(a, 1)
        guard let r = LuaValues.rect(L, 2) else { throw a.fail(2, "a rect {x, y, width, height}") }
        let shapes = try prefixed(a.api) { try w.boundingBoxQuery(r, filter: try filter(a, 3)) }
        LuaPhysics.pushList(L, shapes) { LuaPhysics.push(L, $0) }
        return 1
    } }

    static let shapeQuery: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:shapeQuery")
        let w = try LuaPhysics.world(a, 1)
        let contacts = try prefixed(a.api) { try w.shapeQuery(try LuaPhysics.shape(a, 2)) }
        let b = try LuaBinding.of(L)
        LuaPhysics.pushList(L, contacts) { c in
            lua_createtable(L, 0, 3)
            LuaPhysics.push(L, c.shape); L.setField(-2, "shape")
            LuaValues.push(L, .point(c.normal), binding: b); L.setField(-2, "normal")
            LuaPhysics.pushContactPoints(L, c.points, b)
            L.setField(-2, "points")
        }
        return 1
    } }
}
