import CChipmunk

/// Spatial queries (cpSpace…Query). Results that list several shapes are
/// sorted (by distance, or by position along the segment, then by the
/// order the shapes were made), so they do not depend on Chipmunk's index.
extension PhysicsWorld {
    public struct PointHit {
        public let shape: PhysicsShape
        /// The nearest point on the shape's surface.
        public let point: Point
        /// Negative inside the shape.
        public let distance: Double
        public let gradient: Point
    }

    public struct SegmentHit {
        public let shape: PhysicsShape
        public let point: Point
        public let normal: Point
        /// Where along the segment, 0 at its start and 1 at its end.
        public let alpha: Double
    }

    public struct ShapeContact {
        public let shape: PhysicsShape
        public let normal: Point
        public let points: [Arbiter.ContactPoint]
    }

    /// Collects a query's results: Chipmunk's callbacks cannot reach a script.
    private final class Collector<T> { var items: [T] = [] }

    private func maxDistance(_ d: Double) throws -> Double {
        d == .infinity ? d : try Chipmunk.number(d, "maxDistance", min: 0)
    }

    /// The nearest shape within maxDistance of p (∞: anywhere).
    public func nearestPoint(_ p: Point, maxDistance d: Double = 0, filter: ShapeFilter = .all) throws -> PointHit? {
        try checkAlive()
        var info = cpPointQueryInfo()
        let found = cpSpacePointQueryNearest(space, try Chipmunk.vect(p, "point"), try maxDistance(d), filter.cp, &info)
        guard found != nil, let s = PhysicsShape.shape(info.shape) else { return nil }
        return PointHit(shape: s, point: Chipmunk.point(info.point), distance: info.distance, gradient: Chipmunk.point(info.gradient))
    }

    /// Every shape within maxDistance of p, nearest first.
    public func pointQuery(_ p: Point, maxDistance d: Double = 0, filter: ShapeFilter = .all) throws -> [PointHit] {
        try checkAlive()
        let vp = try Chipmunk.vect(p, "point"), md = try maxDistance(d)
        let c = Collector<PointHit>()
        withExtendedLifetime(c) {
            cpSpacePointQuery(space, vp, md, filter.cp, { shape, point, distance, gradient, data in
                guard let data, let s = PhysicsShape.shape(shape) else { return }
                Unmanaged<Collector<PointHit>>.fromOpaque(data).takeUnretainedValue().items.append(
                    PointHit(shape: s, point: Chipmunk.point(point), distance: distance, gradient: Chipmunk.point(gradient)))
            }, Unmanaged.passUnretained(c).toOpaque())
        }
        return c.items.sorted { ($0.distance, $0.shape.serial) < ($1.distance, $1.shape.serial) }
    }

    /// The first shape a segment (swept with `radius`) hits from a to b.
    public func segmentQueryFirst(from a: Point, to b: Point, radius: Double = 0, filter: ShapeFilter = .all) throws -> SegmentHit? {
        try checkAlive()
        var info = cpSegmentQueryInfo()
        let found = cpSpaceSegmentQueryFirst(space, try Chipmunk.vect(a, "start"), try Chipmunk.vect(b, "end"),
                                             try Chipmunk.number(radius, "radius", min: 0), filter.cp, &info)
        guard found != nil, let s = PhysicsShape.shape(info.shape) else { return nil }
        return SegmentHit(shape: s, point: Chipmunk.point(info.point), normal: Chipmunk.point(info.normal), alpha: info.alpha)
    }

    /// Every shape the segment hits, in order along it.
    public func segmentQuery(from a: Point, to b: Point, radius: Double = 0, filter: ShapeFilter = .all) throws -> [SegmentHit] {
        try checkAlive()
        let va = try Chipmunk.vect(a, "start"), vb = try Chipmunk.vect(b, "end")
        let r = try Chipmunk.number(radius, "radius", min: 0)
        let c = Collector<SegmentHit>()
        withExtendedLifetime(c) {
            cpSpaceSegmentQuery(space, va, vb, r, filter.cp, { shape, point, normal, alpha, data in
                guard let data, let s = PhysicsShape.shape(shape) else { return }
                Unmanaged<Collector<SegmentHit>>.fromOpaque(data).takeUnretainedValue().items.append(
                    SegmentHit(shape: s, point: Chipmunk.point(point), normal: Chipmunk.point(normal), alpha: alpha))
            }, Unmanaged.passUnretained(c).toOpaque())
        }
        return c.items.sorted { ($0.alpha, $0.shape.serial) < ($1.alpha, $1.shape.serial) }
    }

    /// Every shape whose bounding box meets the rectangle, in the order they were made.
    public func boundingBoxQuery(_ r: Rect, filter: ShapeFilter = .all) throws -> [PhysicsShape] {
        try checkAlive()
        let lo = try Chipmunk.vect(Point(r.minX, r.minY), "rect"), hi = try Chipmunk.vect(Point(r.maxX, r.maxY), "rect")
        let c = Collector<PhysicsShape>()
        withExtendedLifetime(c) {
            cpSpaceBBQuery(space, cpBB(l: lo.x, b: lo.y, r: hi.x, t: hi.y), filter.cp, { shape, data in
                guard let data, let s = PhysicsShape.shape(shape) else { return }
                Unmanaged<Collector<PhysicsShape>>.fromOpaque(data).takeUnretainedValue().items.append(s)
            }, Unmanaged.passUnretained(c).toOpaque())
        }
        return c.items.sorted { $0.serial < $1.serial }
    }

    /// Every shape of the world that overlaps `shape` (which need not be in
    /// the world), with the contacts, in the order they were made.
    public func shapeQuery(_ shape: PhysicsShape) throws -> [ShapeContact] {
        try checkAlive()
        try shape.check()
        let c = Collector<ShapeContact>()
        withExtendedLifetime(c) {
            _ = cpSpaceShapeQuery(space, shape.handle, { other, set, data in
                guard let data, let s = PhysicsShape.shape(other), let set else { return }
                let pts = Arbiter.ContactPoint.all(in: set)
                Unmanaged<Collector<ShapeContact>>.fromOpaque(data).takeUnretainedValue().items.append(
                    ShapeContact(shape: s, normal: Chipmunk.point(set.pointee.normal), points: pts))
            }, Unmanaged.passUnretained(c).toOpaque())
        }
        return c.items.filter { $0.shape !== shape }.sorted { $0.shape.serial < $1.shape.serial }
    }
}
