import Caluna
import CalunaBridge
import Glibc

// Collision handlers (ABI 1.4): C callbacks per pair of collision types, per
// type (wildcard) and for every collision, each receiving an arbiter id
// valid only during the call; and what an arbiter tells and lets change.

public typealias CCollisionFilterCallback = @convention(c) (OpaquePointer?, UInt64, UnsafeMutableRawPointer?) -> Int32
public typealias CCollisionCallback = @convention(c) (OpaquePointer?, UInt64, UnsafeMutableRawPointer?) -> Void

/// Runs a C callback with an id for `arb` that goes stale when it returns.
private func withArbiterID<T>(_ ce: CEngine?, _ world: PhysicsWorld?, _ arb: Arbiter, _ fallback: T,
                              _ call: (OpaquePointer, UInt64) -> T) throws -> T {
    guard let ce, let world, !world.isDestroyed else { return fallback }
    let id = try ce.physics.arbiters.id(for: arb)
    defer { ce.physics.arbiters.close(id) }
    return call(ce.pointer, id)
}

/// Installs a caller's caluna_collision_callbacks (NULL: none) on the
/// handler `selector` names; phases left NULL get Chipmunk's defaults.
private func setHandler(_ e: OpaquePointer?, _ function: String, _ world: UInt64, _ callbacks: UnsafeRawPointer?,
                        _ user: UnsafeMutableRawPointer?,
                        _ selector: @escaping () throws -> CollisionHandler.Selector) -> Int32 {
    withEngine(e, function) { ce in
        typealias L = PhysicsLayout.Callbacks
        let w = try ce.world(world)
        let sel = try selector()
        let h = try w.collisionHandler(sel)
        func filter(_ offset: Int) -> ((Arbiter) throws -> Bool)? {
            guard let f = callbacks?.loadUnaligned(fromByteOffset: offset, as: CCollisionFilterCallback?.self) else { return nil }
            return { [weak ce, weak w] arb in try withArbiterID(ce, w, arb, true) { f($0, $1, user) != 0 } }
        }
        func notify(_ offset: Int) -> ((Arbiter) throws -> Void)? {
            guard let f = callbacks?.loadUnaligned(fromByteOffset: offset, as: CCollisionCallback?.self) else { return nil }
            return { [weak ce, weak w] arb in try withArbiterID(ce, w, arb, ()) { f($0, $1, user) } }
        }
        h.begin = filter(L.begin)
        h.preSolve = filter(L.preSolve)
        h.postSolve = notify(L.postSolve)
        h.separate = notify(L.separate)
    }
}

@_cdecl("caluna_world_set_collision_handler")
public func caluna_world_set_collision_handler(_ e: OpaquePointer?, _ world: UInt64, _ typeA: UInt64, _ typeB: UInt64,
                                               _ callbacks: UnsafeRawPointer?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    setHandler(e, "caluna_world_set_collision_handler", world, callbacks, user) {
        .pair(try CollisionTypeNumbers.type(typeA, "type_a"), try CollisionTypeNumbers.type(typeB, "type_b"))
    }
}

@_cdecl("caluna_world_set_wildcard_handler")
public func caluna_world_set_wildcard_handler(_ e: OpaquePointer?, _ world: UInt64, _ type: UInt64,
                                              _ callbacks: UnsafeRawPointer?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    setHandler(e, "caluna_world_set_wildcard_handler", world, callbacks, user) {
        .wildcard(try CollisionTypeNumbers.type(type, "type"))
    }
}

@_cdecl("caluna_world_set_default_handler")
public func caluna_world_set_default_handler(_ e: OpaquePointer?, _ world: UInt64, _ callbacks: UnsafeRawPointer?,
                                             _ user: UnsafeMutableRawPointer?) -> Int32 {
    setHandler(e, "caluna_world_set_default_handler", world, callbacks, user) { .any }
}

// MARK: arbiters

@_cdecl("caluna_arbiter_shapes")
public func caluna_arbiter_shapes(_ e: OpaquePointer?, _ arb: UInt64, _ outA: UnsafeMutablePointer<UInt64>?,
                                  _ outB: UnsafeMutablePointer<UInt64>?) -> Int32 {
    physicsIDPair(e, "caluna_arbiter_shapes", outA, outB, names: ("shape_a", "shape_b")) { ce in
        let (a, b) = try ce.arbiter(arb).shapes()
        return (try ce.shapeID(a), try ce.shapeID(b))
    }
}

@_cdecl("caluna_arbiter_bodies")
public func caluna_arbiter_bodies(_ e: OpaquePointer?, _ arb: UInt64, _ outA: UnsafeMutablePointer<UInt64>?,
                                  _ outB: UnsafeMutablePointer<UInt64>?) -> Int32 {
    physicsIDPair(e, "caluna_arbiter_bodies", outA, outB, names: ("body_a", "body_b")) { ce in
        let (a, b) = try ce.arbiter(arb).bodies()
        return (try ce.bodyID(a), try ce.bodyID(b))
    }
}

/// Writes contact points as caluna_contact_point.
func contactPointWriter(_ c: Arbiter.ContactPoint) -> (UnsafeMutableRawPointer) -> Void {
    { p in
        typealias L = PhysicsLayout.ContactPoint
        p.storeVect(c.pointA, at: L.pointA)
        p.storeVect(c.pointB, at: L.pointB)
        p.storeBytes(of: c.distance, toByteOffset: L.distance, as: Double.self)
    }
}

@_cdecl("caluna_arbiter_contact_points")
public func caluna_arbiter_contact_points(_ e: OpaquePointer?, _ arb: UInt64, _ array: UnsafeMutableRawPointer?,
                                          _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_arbiter_contact_points") { ce in
        let points = try ce.arbiter(arb).contactPoints()
        try writeList(points, to: array, capacity: capacity, stride: PhysicsLayout.ContactPoint.size, count: count, contactPointWriter)
    }
}

private func number(_ v: Value, _ key: String) throws -> Double {
    guard case .number(let n) = v else { throw CalunaError(.typeMismatch, "arbiter.\(key) expects a number, got \(v.kind.rawValue)") }
    return n
}

/// What caluna_arbiter_get reads.
private let arbiterGetters: [String: @Sendable (Arbiter) throws -> Value] = [
    "normal": { .point(try $0.normal()) },
    "count": { .number(Double(try $0.contactPoints().count)) },
    "totalImpulse": { .point(try $0.totalImpulse()) },
    "totalKineticEnergy": { .number(try $0.totalKineticEnergy()) },
    "isFirstContact": { .bool(try $0.isFirstContact()) },
    "isRemoval": { .bool(try $0.isRemoval()) },
    "restitution": { .number(try $0.restitution()) },
    "friction": { .number(try $0.friction()) },
    "surfaceVelocity": { .point(try $0.surfaceVelocity()) },
]

/// What caluna_arbiter_set changes (for this contact only).
private let arbiterSetters: [String: @Sendable (Arbiter, Value) throws -> Void] = [
    "restitution": { a, v in try a.setRestitution(try number(v, "restitution")) },
    "friction": { a, v in try a.setFriction(try number(v, "friction")) },
    "surfaceVelocity": { a, v in
        guard case .point(let p) = v else {
            throw CalunaError(.typeMismatch, "arbiter.surfaceVelocity expects a point, got \(v.kind.rawValue)")
        }
        try a.setSurfaceVelocity(p)
    },
]

@_cdecl("caluna_arbiter_get")
public func caluna_arbiter_get(_ e: OpaquePointer?, _ arb: UInt64, _ key: UnsafePointer<CChar>?,
                               _ out: UnsafeMutableRawPointer?) -> Int32 {
    physicsGet(e, "caluna_arbiter_get", key, out) { ce, k in
        let a = try ce.arbiter(arb)
        guard let get = arbiterGetters[k] else { throw CalunaError(.unknownKey, "an arbiter has no property '\(k)'") }
        return try get(a)
    }
}

@_cdecl("caluna_arbiter_set")
public func caluna_arbiter_set(_ e: OpaquePointer?, _ arb: UInt64, _ key: UnsafePointer<CChar>?,
                               _ value: UnsafeRawPointer?) -> Int32 {
    physicsSet(e, "caluna_arbiter_set", key, value) { ce, k, v in
        let a = try ce.arbiter(arb)
        guard let set = arbiterSetters[k] else {
            throw arbiterGetters[k] == nil ? CalunaError(.unknownKey, "an arbiter has no property '\(k)'")
                                           : CalunaError(.invalidArgument, "arbiter.\(k) is read-only")
        }
        try set(a, v)
    }
}
