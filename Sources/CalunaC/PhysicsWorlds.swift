import Caluna
import CalunaBridge
import Glibc

// Physics worlds (ABI 1.4): creation from caluna_world_options, settings by
// key, manual steps, and what a world holds.

/// The settings a caller's caluna_world_options asks for, and whether paused.
private func readWorldOptions(_ p: UnsafeRawPointer) throws -> (PhysicsWorld.Settings, paused: Bool) {
    typealias L = PhysicsLayout.WorldOptions
    let size = p.loadUnaligned(fromByteOffset: L.structSize, as: UInt32.self)
    guard size >= L.size else {
        throw CalunaError(.invalidArgument,
            "options.struct_size is \(size), at least \(L.size) expected (start from caluna_world_options_default())")
    }
    func number(_ offset: Int) -> Double { p.loadUnaligned(fromByteOffset: offset, as: Double.self) }
    func integer(_ offset: Int) -> Int { Int(p.loadUnaligned(fromByteOffset: offset, as: Int32.self)) }
    var s = PhysicsWorld.Settings()
    s.gravity = p.loadVect(at: L.gravity)
    s.iterations = integer(L.iterations)
    s.damping = number(L.damping)
    s.idleSpeedThreshold = number(L.idleSpeed)
    s.sleepTimeThreshold = number(L.sleepTime)
    s.collisionSlop = number(L.slop)
    s.step = number(L.step)
    s.maxStepsPerFrame = integer(L.maxSteps)
    return (s, integer(L.paused) != 0)
}

@_cdecl("caluna_world_create")
public func caluna_world_create(_ e: OpaquePointer?, _ opts: UnsafeRawPointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_world_create") { ce in
        let o = try output(out, "out")
        let (settings, paused) = try opts.map(readWorldOptions) ?? (PhysicsWorld.Settings(), false)
        let w = try PhysicsWorld(engine: ce.engine, settings: settings)
        w.paused = paused
        do { o.pointee = try ce.worldID(w) } catch {
            try? w.destroy()
            throw error
        }
    }
}

@_cdecl("caluna_world_destroy")
public func caluna_world_destroy(_ e: OpaquePointer?, _ world: UInt64) -> Int32 {
    withEngine(e, "caluna_world_destroy") { ce in
        let w = try ce.world(world)
        try w.destroy()
        ce.physics.worlds.close(world)
    }
}

@_cdecl("caluna_world_get")
public func caluna_world_get(_ e: OpaquePointer?, _ world: UInt64, _ key: UnsafePointer<CChar>?,
                             _ out: UnsafeMutableRawPointer?) -> Int32 {
    physicsGet(e, "caluna_world_get", key, out) { ce, k in try ce.world(world).value(forKey: k) }
}

@_cdecl("caluna_world_set")
public func caluna_world_set(_ e: OpaquePointer?, _ world: UInt64, _ key: UnsafePointer<CChar>?,
                             _ value: UnsafeRawPointer?) -> Int32 {
    physicsSet(e, "caluna_world_set", key, value) { ce, k, v in try ce.world(world).setValue(v, forKey: k) }
}

@_cdecl("caluna_world_step")
public func caluna_world_step(_ e: OpaquePointer?, _ world: UInt64, _ dt: Double) -> Int32 {
    withEngine(e, "caluna_world_step") { ce in
        let w = try ce.world(world)
        try w.step(dt)
    }
}

@_cdecl("caluna_world_static_body")
public func caluna_world_static_body(_ e: OpaquePointer?, _ world: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_world_static_body") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.bodyID(try ce.world(world).staticBody)
    }
}

// MARK: what a world holds

@_cdecl("caluna_world_add_body")
public func caluna_world_add_body(_ e: OpaquePointer?, _ world: UInt64, _ body: UInt64) -> Int32 {
    withEngine(e, "caluna_world_add_body") { ce in
        let w = try ce.world(world), b = try ce.body(body)
        try w.add(b)
    }
}

@_cdecl("caluna_world_remove_body")
public func caluna_world_remove_body(_ e: OpaquePointer?, _ world: UInt64, _ body: UInt64) -> Int32 {
    withEngine(e, "caluna_world_remove_body") { ce in
        let w = try ce.world(world), b = try ce.body(body)
        try w.remove(b)
    }
}

@_cdecl("caluna_world_add_constraint")
public func caluna_world_add_constraint(_ e: OpaquePointer?, _ world: UInt64, _ constraint: UInt64) -> Int32 {
    withEngine(e, "caluna_world_add_constraint") { ce in
        let w = try ce.world(world), c = try ce.constraint(constraint)
        try w.add(c)
    }
}

@_cdecl("caluna_world_remove_constraint")
public func caluna_world_remove_constraint(_ e: OpaquePointer?, _ world: UInt64, _ constraint: UInt64) -> Int32 {
    withEngine(e, "caluna_world_remove_constraint") { ce in
        let w = try ce.world(world), c = try ce.constraint(constraint)
        try w.remove(c)
    }
}

@_cdecl("caluna_world_bodies")
public func caluna_world_bodies(_ e: OpaquePointer?, _ world: UInt64, _ array: UnsafeMutablePointer<UInt64>?,
                                _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    physicsIDList(e, "caluna_world_bodies", array, capacity, count, { try $0.world(world).allBodies }, id: { try $0.bodyID($1) })
}

@_cdecl("caluna_world_constraints")
public func caluna_world_constraints(_ e: OpaquePointer?, _ world: UInt64, _ array: UnsafeMutablePointer<UInt64>?,
                                     _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    physicsIDList(e, "caluna_world_constraints", array, capacity, count, { try $0.world(world).allConstraints },
                  id: { try $0.constraintID($1) })
}
