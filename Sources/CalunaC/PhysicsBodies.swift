import Caluna
import CalunaBridge
import Glibc

// Physics bodies (ABI 1.4): creation, properties by key, forces and
// impulses, point conversions, sleep, integration callbacks, bound layers.

/// Body keys whose change Chipmunk forbids while its space is locked.

/// caluna_*_retain / caluna_*_release of a physics id. Release skips the
/// liveness checks of lookups, so a reference to a dead static body can
/// still be dropped.
func physicsReference(_ e: OpaquePointer?, _ function: String, _ id: UInt64, retain: Bool,
                      _ table: @escaping (PhysicsIDs) -> ExternalTable) -> Int32 {
    withEngine(e, function) { ce in
        if retain { try table(ce.physics).retain(id) } else { try table(ce.physics).release(id) }
    }
}

@_cdecl("caluna_body_create")
public func caluna_body_create(_ e: OpaquePointer?, _ type: Int32, _ mass: Double, _ moment: Double,
                               _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_body_create") { ce in
        let o = try output(out, "out")
        let kinds: [PhysicsBody.Kind] = [.dynamic, .kinematic, .static]
        guard type >= 0, Int(type) < kinds.count else {
            throw CalunaError(.invalidArgument, "type \(type) is not a caluna_body_type (0…2)")
        }
        // 0 means "not given": the mass comes from the shapes, the moment follows them.
        let b = try PhysicsBody(kind: kinds[Int(type)], mass: mass == 0 ? nil : mass, moment: moment == 0 ? nil : moment)
        o.pointee = try ce.ownedID(ce.physics.bodies, b)
    }
}

@_cdecl("caluna_body_retain")
public func caluna_body_retain(_ e: OpaquePointer?, _ body: UInt64) -> Int32 {
    physicsReference(e, "caluna_body_retain", body, retain: true) { $0.bodies }
}

@_cdecl("caluna_body_release")
public func caluna_body_release(_ e: OpaquePointer?, _ body: UInt64) -> Int32 {
    physicsReference(e, "caluna_body_release", body, retain: false) { $0.bodies }
}

@_cdecl("caluna_body_get")
public func caluna_body_get(_ e: OpaquePointer?, _ body: UInt64, _ key: UnsafePointer<CChar>?,
                            _ out: UnsafeMutableRawPointer?) -> Int32 {
    physicsGet(e, "caluna_body_get", key, out) { ce, k in try ce.body(body).value(forKey: k) }
}

@_cdecl("caluna_body_set")
public func caluna_body_set(_ e: OpaquePointer?, _ body: UInt64, _ key: UnsafePointer<CChar>?,
                            _ value: UnsafeRawPointer?) -> Int32 {
    physicsSet(e, "caluna_body_set", key, value) { ce, k, v in
        try ce.body(body).setValue(v, forKey: k)
    }
}

@_cdecl("caluna_body_world")
public func caluna_body_world(_ e: OpaquePointer?, _ body: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_body_world") { ce in
        let o = try output(out, "out")
        let w = try ce.body(body).world
        o.pointee = w?.isDestroyed == false ? try ce.worldID(w) : 0
    }
}

// MARK: forces, impulses and points

private func applying(_ e: OpaquePointer?, _ function: String, _ body: UInt64, _ vector: Point, _ point: Point,
                      _ apply: @escaping (PhysicsBody) -> (Point, Point) throws -> Void) -> Int32 {
    withEngine(e, function) { ce in try apply(try ce.body(body))(vector, point) }
}

@_cdecl("caluna_body_apply_force_at_world_point")
public func caluna_body_apply_force_at_world_point(_ e: OpaquePointer?, _ body: UInt64, _ fx: Double, _ fy: Double,
                                                   _ x: Double, _ y: Double) -> Int32 {
    applying(e, "caluna_body_apply_force_at_world_point", body, Point(fx, fy), Point(x, y)) { b in b.applyForce(_:atWorldPoint:) }
}

@_cdecl("caluna_body_apply_force_at_local_point")
public func caluna_body_apply_force_at_local_point(_ e: OpaquePointer?, _ body: UInt64, _ fx: Double, _ fy: Double,
                                                   _ x: Double, _ y: Double) -> Int32 {
    applying(e, "caluna_body_apply_force_at_local_point", body, Point(fx, fy), Point(x, y)) { b in b.applyForce(_:atLocalPoint:) }
}

@_cdecl("caluna_body_apply_impulse_at_world_point")
public func caluna_body_apply_impulse_at_world_point(_ e: OpaquePointer?, _ body: UInt64, _ jx: Double, _ jy: Double,
                                                     _ x: Double, _ y: Double) -> Int32 {
    applying(e, "caluna_body_apply_impulse_at_world_point", body, Point(jx, jy), Point(x, y)) { b in b.applyImpulse(_:atWorldPoint:) }
}

@_cdecl("caluna_body_apply_impulse_at_local_point")
public func caluna_body_apply_impulse_at_local_point(_ e: OpaquePointer?, _ body: UInt64, _ jx: Double, _ jy: Double,
                                                     _ x: Double, _ y: Double) -> Int32 {
    applying(e, "caluna_body_apply_impulse_at_local_point", body, Point(jx, jy), Point(x, y)) { b in b.applyImpulse(_:atLocalPoint:) }
}

/// A point computed from (x, y) by `convert`, written to a caller's caluna_vect.
private func converting(_ e: OpaquePointer?, _ function: String, _ body: UInt64, _ x: Double, _ y: Double,
                        _ out: UnsafeMutableRawPointer?, _ convert: @escaping (PhysicsBody) -> (Point) throws -> Point) -> Int32 {
    if let out { memset(out, 0, PhysicsLayout.vect) }
    return withEngine(e, function) { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        out.storeVect(try convert(try ce.body(body))(Point(x, y)), at: 0)
    }
}

@_cdecl("caluna_body_local_to_world")
public func caluna_body_local_to_world(_ e: OpaquePointer?, _ body: UInt64, _ x: Double, _ y: Double,
                                       _ out: UnsafeMutableRawPointer?) -> Int32 {
    converting(e, "caluna_body_local_to_world", body, x, y, out) { b in b.localToWorld }
}

@_cdecl("caluna_body_world_to_local")
public func caluna_body_world_to_local(_ e: OpaquePointer?, _ body: UInt64, _ x: Double, _ y: Double,
                                       _ out: UnsafeMutableRawPointer?) -> Int32 {
    converting(e, "caluna_body_world_to_local", body, x, y, out) { b in b.worldToLocal }
}

@_cdecl("caluna_body_velocity_at_world_point")
public func caluna_body_velocity_at_world_point(_ e: OpaquePointer?, _ body: UInt64, _ x: Double, _ y: Double,
                                                _ out: UnsafeMutableRawPointer?) -> Int32 {
    converting(e, "caluna_body_velocity_at_world_point", body, x, y, out) { b in b.velocity(atWorldPoint:) }
}

// MARK: sleeping

@_cdecl("caluna_body_sleep")
public func caluna_body_sleep(_ e: OpaquePointer?, _ body: UInt64) -> Int32 {
    withEngine(e, "caluna_body_sleep") { ce in
        let b = try ce.body(body)
        try b.sleep()
    }
}

@_cdecl("caluna_body_activate")
public func caluna_body_activate(_ e: OpaquePointer?, _ body: UInt64) -> Int32 {
    withEngine(e, "caluna_body_activate") { ce in
        let b = try ce.body(body)
        try b.activate()
    }
}

// MARK: integration callbacks

public typealias CVelocityUpdateCallback = @convention(c) (OpaquePointer?, UInt64, Double, Double, Double, Double,
                                                          UnsafeMutableRawPointer?) -> Void
public typealias CPositionUpdateCallback = @convention(c) (OpaquePointer?, UInt64, Double, UnsafeMutableRawPointer?) -> Void

@_cdecl("caluna_body_set_velocity_update")
public func caluna_body_set_velocity_update(_ e: OpaquePointer?, _ body: UInt64, _ callback: CVelocityUpdateCallback?,
                                            _ user: UnsafeMutableRawPointer?) -> Int32 {
    withEngine(e, "caluna_body_set_velocity_update") { ce in
        let b = try ce.body(body)
        b.velocityUpdate = callback.map { callback in
            { [weak ce] b, gravity, damping, dt in
                guard let ce else { return }
                callback(ce.pointer, try ce.bodyID(b), gravity.x, gravity.y, damping, dt, user)
            }
        }
    }
}

@_cdecl("caluna_body_set_position_update")
public func caluna_body_set_position_update(_ e: OpaquePointer?, _ body: UInt64, _ callback: CPositionUpdateCallback?,
                                            _ user: UnsafeMutableRawPointer?) -> Int32 {
    withEngine(e, "caluna_body_set_position_update") { ce in
        let b = try ce.body(body)
        b.positionUpdate = callback.map { callback in
            { [weak ce] b, dt in
                guard let ce else { return }
                callback(ce.pointer, try ce.bodyID(b), dt, user)
            }
        }
    }
}

@_cdecl("caluna_body_update_velocity")
public func caluna_body_update_velocity(_ e: OpaquePointer?, _ body: UInt64, _ gx: Double, _ gy: Double,
                                        _ damping: Double, _ dt: Double) -> Int32 {
    withEngine(e, "caluna_body_update_velocity") { ce in
        try ce.body(body).updateVelocity(gravity: Point(gx, gy), damping: damping, dt: dt)
    }
}

@_cdecl("caluna_body_update_position")
public func caluna_body_update_position(_ e: OpaquePointer?, _ body: UInt64, _ dt: Double) -> Int32 {
    withEngine(e, "caluna_body_update_position") { ce in try ce.body(body).updatePosition(dt: dt) }
}

// MARK: bound layers

/// A caller's caluna_layer_mapping; NULL is the identity.
private func readMapping(_ p: UnsafeRawPointer?) -> LayerMapping {
    guard let p else { return .identity }
    typealias L = PhysicsLayout.Mapping
    return LayerMapping(origin: p.loadVect(at: L.origin),
                        scale: p.loadUnaligned(fromByteOffset: L.scale, as: Double.self),
                        flipY: p.loadUnaligned(fromByteOffset: L.flipY, as: Int32.self) != 0,
                        rotates: p.loadUnaligned(fromByteOffset: L.rotates, as: Int32.self) != 0)
}

@_cdecl("caluna_body_bind_layer")
public func caluna_body_bind_layer(_ e: OpaquePointer?, _ body: UInt64, _ layer: UInt64, _ mapping: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_body_bind_layer") { ce in
        let b = try ce.body(body), l = try ce.layer(layer, "layer")
        try b.bind(l, mapping: readMapping(mapping))
    }
}

@_cdecl("caluna_body_unbind_layer")
public func caluna_body_unbind_layer(_ e: OpaquePointer?, _ body: UInt64, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_body_unbind_layer") { ce in
        let b = try ce.body(body)
        b.unbind(try ce.optionalLayer(layer, "layer"))
    }
}
