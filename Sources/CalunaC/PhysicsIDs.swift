import Caluna
import CalunaBridge
import Glibc
import Synchronization

// Physics (ABI 1.4): the ids of worlds, bodies, shapes, constraints and
// arbiters, and the struct layouts the other Physics*.swift files read and
// write. The Swift core checks everything Chipmunk would abort on.

/// The physics ids of one engine.
final class PhysicsIDs {
    let worlds, bodies, shapes, constraints, arbiters: ExternalTable

    init(tag: UInt16) {
        worlds = ExternalTable(tag: tag, kind: .world)
        bodies = ExternalTable(tag: tag, kind: .body)
        shapes = ExternalTable(tag: tag, kind: .shape)
        constraints = ExternalTable(tag: tag, kind: .constraint)
        arbiters = ExternalTable(tag: tag, kind: .arbiter)
    }
}

// MARK: lookups

extension CEngine {
    func world(_ id: UInt64, _ name: String = "world") throws -> PhysicsWorld {
        let w = try object(in: physics.worlds, id, name, as: PhysicsWorld.self)
        guard !w.isDestroyed else { throw CalunaError(.staleHandle, "\(name): the world was destroyed") }
        return w
    }

    func body(_ id: UInt64, _ name: String = "body") throws -> PhysicsBody {
        let b = try object(in: physics.bodies, id, name, as: PhysicsBody.self)
        guard b.isUsable else {
            throw CalunaError(.staleHandle, "\(name): the world that owned this static body was destroyed")
        }
        return b
    }

    func shape(_ id: UInt64, _ name: String = "shape") throws -> PhysicsShape {
        try object(in: physics.shapes, id, name, as: PhysicsShape.self)
    }

    func constraint(_ id: UInt64, _ name: String = "constraint") throws -> PhysicsConstraint {
        let c = try object(in: physics.constraints, id, name, as: PhysicsConstraint.self)
        guard c.bodyA.isUsable, c.bodyB.isUsable else {
            throw CalunaError(.staleHandle, "\(name): the constraint joins the static body of a destroyed world")
        }
        return c
    }

    func arbiter(_ id: UInt64, _ name: String = "arbiter") throws -> Arbiter {
        try object(in: physics.arbiters, id, name, as: Arbiter.self)
    }

    // Borrowed ids (assigned on first use).
    func worldID(_ w: PhysicsWorld?) throws -> UInt64 { try w.map { try physics.worlds.id(for: $0) } ?? 0 }
    func shapeID(_ s: PhysicsShape?) throws -> UInt64 { try s.map { try physics.shapes.id(for: $0) } ?? 0 }
    func constraintID(_ c: PhysicsConstraint) throws -> UInt64 { try physics.constraints.id(for: c) }

    func bodyID(_ b: PhysicsBody?) throws -> UInt64 {
        guard let b else { return 0 }
        return try physics.bodies.id(for: b)
    }

    /// A new owned id: the caller's reference keeps the object alive.
    func ownedID(_ table: ExternalTable, _ object: AnyObject) throws -> UInt64 {
        let id = try table.id(for: object)
        try table.retain(id)
        return id
    }
}

// MARK: collision types

/// Collision types as C numbers: the core's own numbering (integers below
/// 2^48, names from 2^48 up, process-wide), so C and Lua agree on names.
enum CollisionTypeNumbers {
    static func number(naming name: String) throws -> UInt64 { UInt64(try CollisionType.name(name).number()) }

    static func type(_ n: UInt64, _ what: String) throws -> CollisionType {
        guard let t = CollisionType(number: UInt(n)) else {
            throw CalunaError(.invalidArgument,
                "\(what) \(n) is neither a number below 2^48 nor one that caluna_collision_type_named returned")
        }
        return t
    }

    static func number(_ t: CollisionType) throws -> UInt64 { UInt64(try t.number()) }
}

// MARK: struct layouts (checked by the header at compile time, LP64)

enum PhysicsLayout {
    /// caluna_vect: two doubles.
    static let vect = 16

    enum WorldOptions {
        static let structSize = 0, iterations = 4, gravity = 8, damping = 24, idleSpeed = 32, sleepTime = 40
        static let slop = 48, step = 56, maxSteps = 64, paused = 68
        static let size: UInt32 = 72
    }
    enum Filter { static let group = 0, categories = 8, mask = 12 }
    enum Mapping { static let origin = 0, scale = 16, flipY = 24, rotates = 28 }
    enum PointHit { static let size = 48, point = 8, distance = 24, gradient = 32 }
    enum SegmentHit { static let size = 48, point = 8, normal = 24, alpha = 40 }
    enum ContactPoint { static let size = 40, pointA = 0, pointB = 16, distance = 32 }
    enum ShapeContact { static let size = 112, shape = 0, normal = 8, count = 24, points = 32 }
    enum Param { static let size = 144, key = 0, value = 8 }
    enum Callbacks { static let begin = 0, preSolve = 8, postSolve = 16, separate = 24 }
}

extension UnsafeMutableRawPointer {
    func storeVect(_ p: Point, at offset: Int) {
        storeBytes(of: p.x, toByteOffset: offset, as: Double.self)
        storeBytes(of: p.y, toByteOffset: offset + 8, as: Double.self)
    }
}

extension UnsafeRawPointer {
    func loadVect(at offset: Int) -> Point {
        Point(loadUnaligned(fromByteOffset: offset, as: Double.self), loadUnaligned(fromByteOffset: offset + 8, as: Double.self))
    }
}

/// A caller's caluna_shape_filter; NULL is every shape (CP_SHAPE_FILTER_ALL).
func readFilter(_ p: UnsafeRawPointer?) -> ShapeFilter {
    guard let p else { return .all }
    return ShapeFilter(group: UInt(p.loadUnaligned(fromByteOffset: PhysicsLayout.Filter.group, as: UInt64.self)),
                       categories: p.loadUnaligned(fromByteOffset: PhysicsLayout.Filter.categories, as: UInt32.self),
                       mask: p.loadUnaligned(fromByteOffset: PhysicsLayout.Filter.mask, as: UInt32.self))
}

/// Writes `items` into a caller's array of `capacity` elements of `stride`
/// bytes and their total number into *count (which may exceed capacity: the
/// rest is not written). Everything that can fail runs before the first write.
func writeList<T>(_ items: [T], to array: UnsafeMutableRawPointer?, capacity: UInt, stride: Int,
                  count: UnsafeMutablePointer<UInt>?, _ encode: (T) throws -> (UnsafeMutableRawPointer) -> Void) throws {
    let total = try output(count, "count")
    guard capacity == 0 || array != nil else {
        throw CalunaError(.invalidArgument, "the array is NULL but capacity is \(capacity)")
    }
    let writers = try items.prefix(Int(min(capacity, UInt(Int.max)))).map(encode)
    if let array {
        for (i, w) in writers.enumerated() { w(array + i * stride) }
    }
    total.pointee = UInt(items.count)
}

/// A call that lists ids: `items` as ids into a caller's array (see writeList).
func physicsIDList<T>(_ e: OpaquePointer?, _ function: String, _ array: UnsafeMutablePointer<UInt64>?, _ capacity: UInt,
                      _ count: UnsafeMutablePointer<UInt>?, _ items: (CEngine) throws -> [T],
                      id: (CEngine, T) throws -> UInt64) -> Int32 {
    count?.pointee = 0
    return withEngine(e, function) { ce in
        try writeList(try items(ce), to: array.map(UnsafeMutableRawPointer.init), capacity: capacity, stride: 8, count: count) { item in
            let v = try id(ce, item)
            return { $0.storeBytes(of: v, as: UInt64.self) }
        }
    }
}

/// A call that answers two ids (an arbiter's shapes or bodies, a constraint's
/// bodies): both outputs are required, and 0 on failure.
func physicsIDPair(_ e: OpaquePointer?, _ function: String, _ outA: UnsafeMutablePointer<UInt64>?,
                   _ outB: UnsafeMutablePointer<UInt64>?, names: (String, String),
                   _ ids: (CEngine) throws -> (UInt64, UInt64)) -> Int32 {
    outA?.pointee = 0
    outB?.pointee = 0
    return withEngine(e, function) { ce in
        let a = try output(outA, names.0), b = try output(outB, names.1)
        (a.pointee, b.pointee) = try ids(ce)
    }
}

// MARK: generic property access

/// caluna_*_get: the value of `key` read by `read`, or NIL on failure.
func physicsGet(_ e: OpaquePointer?, _ function: String, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutableRawPointer?,
                _ read: (CEngine, String) throws -> Value) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, function) { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let k = try string(key, "key")
        do { try writeValue(try read(ce, k), to: out, engine: ce) } catch {
            memset(out, 0, ValueLayout.size)
            throw error
        }
    }
}

/// caluna_*_set: `value` (a NUMBER may be +∞: moments, thresholds, forces)
/// written by `write`.
func physicsSet(_ e: OpaquePointer?, _ function: String, _ key: UnsafePointer<CChar>?, _ value: UnsafeRawPointer?,
                _ write: (CEngine, String, Value) throws -> Void) -> Int32 {
    withEngine(e, function) { ce in
        let k = try string(key, "key")
        guard let value else { throw CalunaError(.invalidArgument, "value is NULL") }
        let v: Value
        do { v = try readValue(value, allowingInfinity: true) } catch let err as CalunaError {
            throw CalunaError(err.code, "\(k): \(err.message)")
        }
        try write(ce, k, v)
    }
}
