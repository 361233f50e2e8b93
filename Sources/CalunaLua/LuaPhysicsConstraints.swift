import CLua
import CalunaLuaShim
import Caluna

/// Constraints (ca.physics.PinJoint{…} and the other kinds), arbiters
/// passed to collision callbacks, and the moment and area helpers.
extension LuaPhysics {
    /// ca.physics.<Kind>{a = body, b = body, …parameters…}: a constraint in
    /// no world (add it with world:add).
    static let newConstraint: LuaFunction = { L in protect(L) { L in
        guard lua_type(L, 1) == LUA_TTABLE, L.rawField(1, "kind") == LUA_TSTRING,
              let kind = PhysicsConstraint.Kind(rawValue: L.string(-1) ?? "") else {
            throw CalunaError.invalid("call a constraint class as ca.physics.PinJoint{…}")
        }
        L.pop()
        let a = Args(L: L, api: "ca.physics.\(constraintClassName(kind))")
        try a.table(2)
        func bodyField(_ key: String) throws -> PhysicsBody {
            defer { L.pop() }
            L.rawField(2, key)
            guard let b = body(L, -1) else { throw CalunaError(.typeMismatch, "\(a.api): \(key) must be a physics Body, got \(LuaValues.describe(L, -1))") }
            return b
        }
        let bodyA = try bodyField("a"), bodyB = try bodyField("b")
        let table = PhysicsConstraint.properties(of: kind)
        var parameters: [String: Value] = [:]
        var userData: AnyObject? = nil
        try L.applyFields(of: 2, a.api, rank: { _ in 0 }) { key in
            switch key {
            case "a", "b": return
            case "userData": userData = try LuaPhysics.userData(L, -1); return
            case "pivot" where kind == .pivot: parameters[key] = .point(try point(Args(L: L, api: a.api), lua_gettop(L), key))
            default:
                guard let p = table[key] else { throw CalunaError(.unknownKey, "\(a.api): no parameter '\(key)'") }
                parameters[key] = try value(L, -1, kinds: p.kinds, what: "\(a.api).\(key)")
            }
        }
        let c = try prefixed(a.api) { try PhysicsConstraint(kind, bodyA, bodyB, parameters) }
        c.userData = userData
        push(L, c)
        return 1
    } }

    static let constraintIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics constraint")
        guard let c = constraint(L, 1) else { throw a.fail(1, "a physics constraint") }
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        switch key {
        case "a", "bodyA": push(L, c.bodyA)
        case "b", "bodyB": push(L, c.bodyB)
        case "world": push(L, c.world)
        case "userData": pushUserData(L, c.userData)
        default:
            guard PhysicsConstraint.properties(of: c.kind)[key] != nil else { throw noSuchKey(c.kind.rawValue, key) }
            LuaValues.push(L, try c.value(forKey: key), binding: try LuaBinding.of(L))
        }
        return 1
    } }

    static let constraintNewIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics constraint")
        guard let c = constraint(L, 1) else { throw a.fail(1, "a physics constraint") }
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        if key == "userData" { c.userData = try userData(L, 3); return 0 }
        guard let p = PhysicsConstraint.properties(of: c.kind)[key] else { throw noSuchKey(c.kind.rawValue, key) }
        let what = "\(c.kind.rawValue).\(key)"
        try prefixed(what) { try c.setValue(try value(L, 3, kinds: p.kinds, what: what), forKey: key) }
        return 0
    } }
}

/// The arbiter a collision callback receives: valid only during the call.
///   arb.shapeA, arb.shapeB, arb.bodyA, arb.bodyB   (a has the handler's typeA)
///   arb.normal, arb.points ({pointA, pointB, distance}…), arb.count
///   arb.isFirstContact, arb.isRemoval, arb.totalImpulse, arb.totalKineticEnergy
///   arb.restitution, arb.friction, arb.surfaceVelocity (settable in begin/preSolve)
enum LuaArbiter {
    static let metatable = "caluna.physics.Arbiter"
    final class Box { let arbiter: Arbiter; init(_ a: Arbiter) { arbiter = a } }

    static func register(_ L: OpaquePointer) {
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaArbiter.metatable), as: Box.self); return 0
        } })
        L.setFunction(-1, "__index", index)
        L.setFunction(-1, "__newindex", newIndex)
        L.pop()
    }

    static func get(_ a: Args) throws -> Arbiter {
        guard let b = RetainedUserdata.object(luaL_testudata(a.L, 1, metatable), as: Box.self) else { throw a.fail(1, "an arbiter") }
        return b.arbiter
    }

    /// Calls `fn(arbiter)`; only an explicit false means "ignore the contact".
    static func call(_ binding: LuaBinding, _ fn: LuaRef, _ arbiter: Arbiter) throws -> Bool {
        try binding.call(fn, { L in
            RetainedUserdata.push(L, Box(arbiter))
            luaL_setmetatable(L, metatable)
            return 1
        }, result: { L in !(lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1) == 0) })
    }

    static let index: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Arbiter")
        let arb = try get(a)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        let binding = try LuaBinding.of(L)
        try prefixed("Arbiter.\(key)") {
            switch key {
            case "shapeA": LuaPhysics.push(L, try arb.shapes().0)
            case "shapeB": LuaPhysics.push(L, try arb.shapes().1)
            case "bodyA": LuaPhysics.push(L, try arb.bodies().0)
            case "bodyB": LuaPhysics.push(L, try arb.bodies().1)
            case "normal": LuaValues.push(L, .point(try arb.normal()), binding: binding)
            case "count": lua_pushinteger(L, lua_Integer(try arb.contactPoints().count))
            case "points":
                LuaPhysics.pushContactPoints(L, try arb.contactPoints(), binding)
            case "isFirstContact": lua_pushboolean(L, try arb.isFirstContact() ? 1 : 0)
            case "isRemoval": lua_pushboolean(L, try arb.isRemoval() ? 1 : 0)
            case "totalImpulse": LuaValues.push(L, .point(try arb.totalImpulse()), binding: binding)
            case "totalKineticEnergy": lua_pushnumber(L, try arb.totalKineticEnergy())
            case "restitution": lua_pushnumber(L, try arb.restitution())
            case "friction": lua_pushnumber(L, try arb.friction())
            case "surfaceVelocity": LuaValues.push(L, .point(try arb.surfaceVelocity()), binding: binding)
            default: throw CalunaError(.unknownKey, "an arbiter has no property '\(key)'")
            }
        }
        return 1
    } }

    static let newIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Arbiter")
        let arb = try get(a)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        try prefixed("Arbiter.\(key)") {
            switch key {
            case "restitution": try arb.setRestitution(try a.number(3))
            case "friction": try arb.setFriction(try a.number(3))
            case "surfaceVelocity": try arb.setSurfaceVelocity(try LuaPhysics.point(a, 3, key))
            default: throw CalunaError(.unknownKey, "an arbiter's \(key) cannot be set (restitution, friction, surfaceVelocity)")
            }
        }
        return 0
    } }
}

/// ca.physics.momentForCircle(m, r1, r2[, offset]), momentForBox(m, w, h),
/// momentForPolygon(m, points[, offset, radius]), momentForSegment(m, a, b[, radius]),
/// areaForCircle(r1, r2), areaForPolygon(points[, radius]), areaForSegment(a, b[, radius]).
enum LuaPhysicsMath {
    static func add(to L: OpaquePointer) {
        L.setFunction(-1, "momentForCircle", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.momentForCircle")
            let offset = try LuaPhysics.optionalPoint(a, 4, "offset") ?? .zero
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.momentForCircle(mass: try a.number(1), inner: try a.number(2), outer: try a.number(3), offset: offset) })
        } })
        L.setFunction(-1, "momentForBox", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.momentForBox")
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.momentForBox(mass: try a.number(1), width: try a.number(2), height: try a.number(3)) })
        } })
        L.setFunction(-1, "momentForPolygon", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.momentForPolygon")
            let pts = try LuaPhysicsMath.points(a, 2)
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.momentForPolygon(mass: try a.number(1), points: pts,
                                                            offset: try LuaPhysics.optionalPoint(a, 3, "offset") ?? .zero,
                                                            radius: try a.optionalNumber(4, 0)) })
        } })
        L.setFunction(-1, "momentForSegment", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.momentForSegment")
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.momentForSegment(mass: try a.number(1), a: try LuaPhysics.point(a, 2, "a"),
                                                            b: try LuaPhysics.point(a, 3, "b"), radius: try a.optionalNumber(4, 0)) })
        } })
        L.setFunction(-1, "areaForCircle", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.areaForCircle")
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.areaForCircle(inner: try a.number(1), outer: try a.number(2)) })
        } })
        L.setFunction(-1, "areaForPolygon", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.areaForPolygon")
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.areaForPolygon(points: try LuaPhysicsMath.points(a, 1), radius: try a.optionalNumber(2, 0)) })
        } })
        L.setFunction(-1, "areaForSegment", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.physics.areaForSegment")
            return LuaPhysicsMath.push(L, try prefixed(a.api) { try PhysicsMath.areaForSegment(a: try LuaPhysics.point(a, 1, "a"), b: try LuaPhysics.point(a, 2, "b"),
                                                          radius: try a.optionalNumber(3, 0)) })
        } })
    }

    private static func push(_ L: OpaquePointer, _ v: Double) -> Int32 { lua_pushnumber(L, v); return 1 }

    private static func points(_ a: Args, _ i: Int32) throws -> [Point] {
        try a.table(i)
        let n = lua_rawlen(a.L, i)
        guard n <= UInt64(PhysicsShape.maximumVertices) else {
            throw CalunaError.invalid("\(a.api): at most \(PhysicsShape.maximumVertices) points")
        }
        return try (0..<n).map { k in
            lua_rawgeti(a.L, i, lua_Integer(k + 1))
            defer { a.L.pop() }
            guard let p = LuaValues.point(a.L, -1) else { throw CalunaError(.typeMismatch, "\(a.api): points[\(k + 1)] must be a point {x, y}") }
            return p
        }
    }
}
