import Caluna
import CalunaBridge
import Glibc

// Physics shapes (ABI 1.4): made on a body (circle, box, polygon, segment),
// properties by key, filters and collision types.

/// Shape keys whose change Chipmunk forbids while its space is locked.

/// Makes a shape on a body; its id is borrowed (the body holds the shape).
private func addShape(_ e: OpaquePointer?, _ function: String, _ body: UInt64, _ out: UnsafeMutablePointer<UInt64>?,
                      _ geometry: @escaping () throws -> PhysicsShape.Geometry) -> Int32 {
    out?.pointee = 0
    return withEngine(e, function) { ce in
        let o = try output(out, "out")
        let b = try ce.body(body)
        o.pointee = try ce.shapeID(try b.addShape(try geometry()))
    }
}

@_cdecl("caluna_body_add_circle")
public func caluna_body_add_circle(_ e: OpaquePointer?, _ body: UInt64, _ radius: Double, _ offsetX: Double, _ offsetY: Double,
                                   _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    addShape(e, "caluna_body_add_circle", body, out) { .circle(radius: radius, offset: Point(offsetX, offsetY)) }
}

@_cdecl("caluna_body_add_box")
public func caluna_body_add_box(_ e: OpaquePointer?, _ body: UInt64, _ width: Double, _ height: Double, _ radius: Double,
                                _ centerX: Double, _ centerY: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    addShape(e, "caluna_body_add_box", body, out) {
        .box(width: width, height: height, radius: radius, center: Point(centerX, centerY))
    }
}

@_cdecl("caluna_body_add_polygon")
public func caluna_body_add_polygon(_ e: OpaquePointer?, _ body: UInt64, _ points: UnsafeRawPointer?, _ count: UInt,
                                    _ radius: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    addShape(e, "caluna_body_add_polygon", body, out) {
        // Checked before reading: the shape checks the lower bound itself.
        let most = UInt(PhysicsShape.maximumVertices)
        guard count <= most else { throw CalunaError(.invalidArgument, "count \(count) is out of range (3…\(most))") }
        guard count == 0 || points != nil else { throw CalunaError(.invalidArgument, "points is NULL but count is \(count)") }
        let pts = (0..<Int(count)).map { points!.loadVect(at: $0 * PhysicsLayout.vect) }
        return .polygon(points: pts, radius: radius)
    }
}

@_cdecl("caluna_body_add_segment")
public func caluna_body_add_segment(_ e: OpaquePointer?, _ body: UInt64, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                    _ radius: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    addShape(e, "caluna_body_add_segment", body, out) { .segment(a: Point(ax, ay), b: Point(bx, by), radius: radius) }
}

@_cdecl("caluna_body_remove_shape")
public func caluna_body_remove_shape(_ e: OpaquePointer?, _ body: UInt64, _ shape: UInt64) -> Int32 {
    withEngine(e, "caluna_body_remove_shape") { ce in
        let b = try ce.body(body), s = try ce.shape(shape)
        try b.removeShape(s)
    }
}

@_cdecl("caluna_body_shapes")
public func caluna_body_shapes(_ e: OpaquePointer?, _ body: UInt64, _ array: UnsafeMutablePointer<UInt64>?,
                               _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    physicsIDList(e, "caluna_body_shapes", array, capacity, count, { try $0.body(body).shapes }, id: { try $0.shapeID($1) })
}

// MARK: the shape

@_cdecl("caluna_shape_retain")
public func caluna_shape_retain(_ e: OpaquePointer?, _ shape: UInt64) -> Int32 {
    physicsReference(e, "caluna_shape_retain", shape, retain: true) { $0.shapes }
}

@_cdecl("caluna_shape_release")
public func caluna_shape_release(_ e: OpaquePointer?, _ shape: UInt64) -> Int32 {
    physicsReference(e, "caluna_shape_release", shape, retain: false) { $0.shapes }
}

@_cdecl("caluna_shape_get")
public func caluna_shape_get(_ e: OpaquePointer?, _ shape: UInt64, _ key: UnsafePointer<CChar>?,
                             _ out: UnsafeMutableRawPointer?) -> Int32 {
    physicsGet(e, "caluna_shape_get", key, out) { ce, k in try ce.shape(shape).value(forKey: k) }
}

@_cdecl("caluna_shape_set")
public func caluna_shape_set(_ e: OpaquePointer?, _ shape: UInt64, _ key: UnsafePointer<CChar>?,
                             _ value: UnsafeRawPointer?) -> Int32 {
    physicsSet(e, "caluna_shape_set", key, value) { ce, k, v in
        try ce.shape(shape).setValue(v, forKey: k)
    }
}

@_cdecl("caluna_shape_body")
public func caluna_shape_body(_ e: OpaquePointer?, _ shape: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_shape_body") { ce in
        let o = try output(out, "out")
        let b = try ce.shape(shape).body
        o.pointee = b?.isUsable == false ? 0 : try ce.bodyID(b)
    }
}

@_cdecl("caluna_shape_get_filter")
public func caluna_shape_get_filter(_ e: OpaquePointer?, _ shape: UInt64, _ out: UnsafeMutableRawPointer?) -> Int32 {
    typealias L = PhysicsLayout.Filter
    if let out { memset(out, 0, 16) }
    return withEngine(e, "caluna_shape_get_filter") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let f = try ce.shape(shape).filter
        out.storeBytes(of: UInt64(f.group), toByteOffset: L.group, as: UInt64.self)
        out.storeBytes(of: f.categories, toByteOffset: L.categories, as: UInt32.self)
        out.storeBytes(of: f.mask, toByteOffset: L.mask, as: UInt32.self)
    }
}

@_cdecl("caluna_shape_set_filter")
public func caluna_shape_set_filter(_ e: OpaquePointer?, _ shape: UInt64, _ filter: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_shape_set_filter") { ce in
        let s = try ce.shape(shape)
        guard let filter else { throw CalunaError(.invalidArgument, "filter is NULL (use CALUNA_SHAPE_FILTER_ALL's values)") }
        try s.setFilter(readFilter(filter))
    }
}

@_cdecl("caluna_shape_collision_type")
public func caluna_shape_collision_type(_ e: OpaquePointer?, _ shape: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_shape_collision_type") { ce in
        let o = try output(out, "out")
        o.pointee = try CollisionTypeNumbers.number(try ce.shape(shape).collisionType)
    }
}

@_cdecl("caluna_shape_set_collision_type")
public func caluna_shape_set_collision_type(_ e: OpaquePointer?, _ shape: UInt64, _ type: UInt64) -> Int32 {
    withEngine(e, "caluna_shape_set_collision_type") { ce in
        let s = try ce.shape(shape)
        try s.setCollisionType(try CollisionTypeNumbers.type(type, "type"))
    }
}

@_cdecl("caluna_collision_type_named")
public func caluna_collision_type_named(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    do {
        let o = try output(out, "out")
        let n = try string(name, "name")
        guard !n.isEmpty, n.utf8.count <= 256 else {
            throw CalunaError(.invalidArgument, "a collision type name has 1 to 256 bytes (got \(n.utf8.count))")
        }
        o.pointee = try CollisionTypeNumbers.number(naming: n)
        return CalunaStatus.ok
    } catch {
        return failWithoutEngine("caluna_collision_type_named", error)
    }
}
