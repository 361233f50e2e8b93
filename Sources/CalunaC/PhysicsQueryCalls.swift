import Caluna
import CalunaBridge
import Glibc

// Spatial queries (ABI 1.4), written into caller arrays: the total number
// of results goes to *count even when the array holds fewer.

/// Writes a caluna_point_hit or caluna_segment_hit: the shape's id first,
/// then two vectors and a number at their offsets.
private func hitWriter(_ ce: CEngine, _ shape: PhysicsShape, _ vects: [(Int, Point)],
                       _ number: (Int, Double)) throws -> (UnsafeMutableRawPointer) -> Void {
    let id = try ce.shapeID(shape)
    return { p in
        p.storeBytes(of: id, as: UInt64.self)
        for (offset, v) in vects { p.storeVect(v, at: offset) }
        p.storeBytes(of: number.1, toByteOffset: number.0, as: Double.self)
    }
}

private func pointHitWriter(_ ce: CEngine) -> (PhysicsWorld.PointHit) throws -> (UnsafeMutableRawPointer) -> Void {
    typealias L = PhysicsLayout.PointHit
    return { try hitWriter(ce, $0.shape, [(L.point, $0.point), (L.gradient, $0.gradient)], (L.distance, $0.distance)) }
}

private func segmentHitWriter(_ ce: CEngine) -> (PhysicsWorld.SegmentHit) throws -> (UnsafeMutableRawPointer) -> Void {
    typealias L = PhysicsLayout.SegmentHit
    return { try hitWriter(ce, $0.shape, [(L.point, $0.point), (L.normal, $0.normal)], (L.alpha, $0.alpha)) }
}

/// The one result of a *_first query into a caller's struct (zeroed, shape 0, when there is none).
private func queryFirst<T>(_ e: OpaquePointer?, _ function: String, _ out: UnsafeMutableRawPointer?, size: Int,
                           _ writer: @escaping (CEngine) -> (T) throws -> (UnsafeMutableRawPointer) -> Void,
                           _ query: @escaping (CEngine) throws -> T?) -> Int32 {
    if let out { memset(out, 0, size) }
    return withEngine(e, function) { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        if let hit = try query(ce) { try writer(ce)(hit)(out) }
    }
}

@_cdecl("caluna_world_nearest_point")
public func caluna_world_nearest_point(_ e: OpaquePointer?, _ world: UInt64, _ x: Double, _ y: Double, _ maxDistance: Double,
                                       _ filter: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    queryFirst(e, "caluna_world_nearest_point", out, size: PhysicsLayout.PointHit.size, pointHitWriter) { ce in
        try ce.world(world).nearestPoint(Point(x, y), maxDistance: maxDistance, filter: readFilter(filter))
    }
}

@_cdecl("caluna_world_point_query")
public func caluna_world_point_query(_ e: OpaquePointer?, _ world: UInt64, _ x: Double, _ y: Double, _ maxDistance: Double,
                                     _ filter: UnsafeRawPointer?, _ hits: UnsafeMutableRawPointer?, _ capacity: UInt,
                                     _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_world_point_query") { ce in
        let found = try ce.world(world).pointQuery(Point(x, y), maxDistance: maxDistance, filter: readFilter(filter))
        try writeList(found, to: hits, capacity: capacity, stride: PhysicsLayout.PointHit.size, count: count, pointHitWriter(ce))
    }
}

@_cdecl("caluna_world_segment_query_first")
public func caluna_world_segment_query_first(_ e: OpaquePointer?, _ world: UInt64, _ ax: Double, _ ay: Double,
                                             _ bx: Double, _ by: Double, _ radius: Double, _ filter: UnsafeRawPointer?,
                                             _ out: UnsafeMutableRawPointer?) -> Int32 {
    queryFirst(e, "caluna_world_segment_query_first", out, size: PhysicsLayout.SegmentHit.size, segmentHitWriter) { ce in
        try ce.world(world).segmentQueryFirst(from: Point(ax, ay), to: Point(bx, by), radius: radius, filter: readFilter(filter))
    }
}

@_cdecl("caluna_world_segment_query")
public func caluna_world_segment_query(_ e: OpaquePointer?, _ world: UInt64, _ ax: Double, _ ay: Double,
                                       _ bx: Double, _ by: Double, _ radius: Double, _ filter: UnsafeRawPointer?,
                                       _ hits: UnsafeMutableRawPointer?, _ capacity: UInt,
                                       _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_world_segment_query") { ce in
        let found = try ce.world(world).segmentQuery(from: Point(ax, ay), to: Point(bx, by), radius: radius,
                                                     filter: readFilter(filter))
        try writeList(found, to: hits, capacity: capacity, stride: PhysicsLayout.SegmentHit.size, count: count, segmentHitWriter(ce))
    }
}

@_cdecl("caluna_world_bb_query")
public func caluna_world_bb_query(_ e: OpaquePointer?, _ world: UInt64, _ x: Double, _ y: Double, _ width: Double,
                                  _ height: Double, _ filter: UnsafeRawPointer?, _ shapes: UnsafeMutablePointer<UInt64>?,
                                  _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    physicsIDList(e, "caluna_world_bb_query", shapes, capacity, count, { ce in
        try finite([("x", x), ("y", y), ("width", width), ("height", height)])
        return try ce.world(world).boundingBoxQuery(Rect(x, y, width, height), filter: readFilter(filter))
    }, id: { try $0.shapeID($1) })
}

@_cdecl("caluna_world_shape_query")
public func caluna_world_shape_query(_ e: OpaquePointer?, _ world: UInt64, _ shape: UInt64,
                                     _ contacts: UnsafeMutableRawPointer?, _ capacity: UInt,
                                     _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_world_shape_query") { ce in
        let found = try ce.world(world).shapeQuery(try ce.shape(shape))
        try writeList(found, to: contacts, capacity: capacity, stride: PhysicsLayout.ShapeContact.size, count: count) { c in
            typealias L = PhysicsLayout.ShapeContact
            let id = try ce.shapeID(c.shape)
            let points = c.points.prefix(2).map(contactPointWriter)
            return { p in
                memset(p, 0, L.size)
                p.storeBytes(of: id, toByteOffset: L.shape, as: UInt64.self)
                p.storeVect(c.normal, at: L.normal)
                p.storeBytes(of: Int32(points.count), toByteOffset: L.count, as: Int32.self)
                for (i, w) in points.enumerated() { w(p + L.points + i * PhysicsLayout.ContactPoint.size) }
            }
        }
    }
}
