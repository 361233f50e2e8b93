import CChipmunk
import Synchronization

/// Collision geometry on a body (cpShape): a circle, a box, a convex
/// polygon or a segment, each with an optional rounding radius, in the
/// body's coordinates.
public final class PhysicsShape {
    public enum Geometry: Equatable {
        case circle(radius: Double, offset: Point)
        /// A width × height box centred on `center`.
        case box(width: Double, height: Double, radius: Double, center: Point)
        /// The convex hull of the points.
        case polygon(points: [Point], radius: Double)
        case segment(a: Point, b: Point, radius: Double)

        public var name: String {
            switch self {
            case .circle: return "circle"
            case .box: return "box"
            case .polygon: return "polygon"
            case .segment: return "segment"
            }
        }

        var radius: Double {
            switch self {
            case .circle(let r, _): return r
            case .box(_, _, let r, _), .polygon(_, let r), .segment(_, _, let r): return r
            }
        }

        /// The polygon's corners (a box's, counter-clockwise in y-up space).
        var corners: [Point] {
            switch self {
            case .box(let w, let h, _, let c):
                return [Point(c.x - w / 2, c.y - h / 2), Point(c.x + w / 2, c.y - h / 2),
                        Point(c.x + w / 2, c.y + h / 2), Point(c.x - w / 2, c.y + h / 2)]
            case .polygon(let pts, _): return pts
            default: return []
            }
        }

        /// Area, as Chipmunk computes it (cpAreaFor…).
        public var area: Double {
            switch self {
            case .circle(let r, _): return cpAreaForCircle(0, r)
            case .segment(let a, let b, let r): return cpAreaForSegment(cpv(a.x, a.y), cpv(b.x, b.y), r)
            case .box, .polygon:
                let v = corners.map { cpv($0.x, $0.y) }
                return cpAreaForPoly(Int32(v.count), v, radius)
            }
        }

        /// The moment of this geometry with mass `m` about the body's origin.
        public func moment(mass m: Double) -> Double {
            switch self {
            case .circle(let r, let o): return cpMomentForCircle(m, 0, r, cpv(o.x, o.y))
            case .segment(let a, let b, let r): return cpMomentForSegment(m, cpv(a.x, a.y), cpv(b.x, b.y), r)
            case .box(let w, let h, 0, .zero): return cpMomentForBox(m, w, h)
            case .box, .polygon:
                let v = corners.map { cpv($0.x, $0.y) }
                return cpMomentForPoly(m, Int32(v.count), v, cpv(0, 0), radius)
            }
        }

        /// Refuses what Chipmunk cannot use: NaN, ∞, negative sizes,
        /// degenerate polygons and zero-length segments.
        func validated() throws -> Geometry {
            let r = try Chipmunk.number(radius, "\(name) radius", min: 0)
            switch self {
            case .circle(_, let o):
                guard r > 0 else { throw CalunaError.invalid("a circle's radius must be positive (got \(fmt(r)))") }
                _ = try Chipmunk.vect(o, "circle offset")
            case .box(let w, let h, _, let c):
                _ = try Chipmunk.positive(w, "box width")
                _ = try Chipmunk.positive(h, "box height")
                _ = try Chipmunk.vect(c, "box center")
            case .polygon(let pts, _):
                guard (3...PhysicsShape.maximumVertices).contains(pts.count) else {
                    throw CalunaError.invalid("a polygon needs 3 to \(PhysicsShape.maximumVertices) points (got \(pts.count))")
                }
                let v = try pts.map { try Chipmunk.vect($0, "polygon point") }
                var hull = v
                let n = Int(cpConvexHull(Int32(v.count), v, &hull, nil, 0))
                let area = n >= 3 ? cpAreaForPoly(Int32(n), hull, 0) : 0
                guard n >= 3, area > 1e-12 else {
                    throw CalunaError.invalid("the polygon is degenerate (its points are collinear or coincide)")
                }
                return .polygon(points: hull.prefix(n).map { Point($0.x, $0.y) }, radius: r)
            case .segment(let a, let b, _):
                let va = try Chipmunk.vect(a, "segment a"), vb = try Chipmunk.vect(b, "segment b")
                guard va.x != vb.x || va.y != vb.y else { throw CalunaError.invalid("a segment's ends must differ") }
            }
            return self
        }
    }

    /// Chipmunk copies vertices onto the stack: keep polygons small.
    public static let maximumVertices = 256

    let handle: ShapeRef
    public let geometry: Geometry
    /// The body it is on; nil once taken off (or the body is gone).
    public private(set) weak var body: PhysicsBody?
    /// In its world's space (Chipmunk's view, which lags during a step).
    var inSpace = false
    public private(set) var collisionType = CollisionType.none
    public var userData: AnyObject?
    public let serial: Int
    private static let nextSerial = Atomic<Int>(0)

    /// The shape's cost, on its body's ledger (the world's for a static body).
    let memoryCharge: MemoryCharge

    /// Bytes a polygon costs per corner: Chipmunk keeps two splitting planes
    /// (a point and a normal each) per vertex, and the Swift side its corners
    /// and their hull (measured: 256-corner polygons used ~2.4× the earlier 2 points).
    static let bytesPerCorner = 6 * MemoryLayout<Point>.stride

    init(body: PhysicsBody, geometry: Geometry) throws {
        let g = try geometry.validated()
        memoryCharge = try MemoryCharge(body.ledger, PhysicsBody.estimatedBytes + g.corners.count * PhysicsShape.bytesPerCorner,
                                        "a physics shape")
        switch g {
        case .circle(let r, let o): handle = cpCircleShapeNew(body.handle, r, cpv(o.x, o.y))
        case .segment(let a, let b, let r): handle = cpSegmentShapeNew(body.handle, cpv(a.x, a.y), cpv(b.x, b.y), r)
        case .box(let w, let h, let r, .zero): handle = cpBoxShapeNew(body.handle, w, h, r)
        case .box, .polygon:
            let v = g.corners.map { cpv($0.x, $0.y) }
            handle = cpPolyShapeNew(body.handle, Int32(v.count), v, cpTransformIdentity, g.radius)
        }
        self.geometry = g
        self.body = body
        serial = PhysicsShape.nextSerial.add(1, ordering: .relaxed).newValue
        cpShapeSetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { cpShapeFree(handle) }

    /// Taken off its body, or the body is gone: the shape can no longer be changed.
    func detachFromBody() { body = nil }

    func check() throws {
        guard let b = body else { throw CalunaError(.staleHandle, "the shape was removed from its body") }
        try b.check()
    }

    static func shape(_ h: UnsafePointer<cpShape>?) -> PhysicsShape? {
        guard let h, let p = cpShapeGetUserData(h) else { return nil }
        return Unmanaged<PhysicsShape>.fromOpaque(p).takeUnretainedValue()
    }

    // MARK: properties

    public var friction: Double { cpShapeGetFriction(handle) }
    public func setFriction(_ v: Double) throws { try check(); cpShapeSetFriction(handle, try Chipmunk.positive(v, "friction", allowZero: true)) }

    public var elasticity: Double { cpShapeGetElasticity(handle) }
    public func setElasticity(_ v: Double) throws {
        try check(); cpShapeSetElasticity(handle, try Chipmunk.number(v, "elasticity", min: 0, max: 10))
    }

    /// The surface's own velocity (a conveyor belt), in world coordinates.
    public var surfaceVelocity: Point { Chipmunk.point(cpShapeGetSurfaceVelocity(handle)) }
    public func setSurfaceVelocity(_ v: Point) throws { try check(); cpShapeSetSurfaceVelocity(handle, try Chipmunk.vect(v, "surfaceVelocity")) }

    /// A sensor reports collisions but never collides.
    public var isSensor: Bool { cpShapeGetSensor(handle) != 0 }
    public func setSensor(_ v: Bool) throws { try check(); cpShapeSetSensor(handle, v ? 1 : 0) }

    public func setCollisionType(_ t: CollisionType) throws {
        try check()
        cpShapeSetCollisionType(handle, try t.number())
        collisionType = t
    }

    public var filter: ShapeFilter { ShapeFilter(cpShapeGetFilter(handle)) }
    public func setFilter(_ f: ShapeFilter) throws { try check(); cpShapeSetFilter(handle, f.cp) }

    /// Mass the shape gives its body (0: none; then the body's own mass counts).
    public var mass: Double { cpShapeGetMass(handle) }
    public func setMass(_ m: Double) throws {
        try checkMassChange()
        cpShapeSetMass(handle, try Chipmunk.positive(m, "mass", allowZero: true))
        body?.shapeMassChanged()
    }

    public var density: Double { cpShapeGetDensity(handle) }
    public func setDensity(_ d: Double) throws {
        try checkMassChange()
        let m = try Chipmunk.positive(d, "density", allowZero: true) * geometry.area
        guard m <= Chipmunk.limit else { throw CalunaError.invalid("density \(fmt(d)) gives a mass past \(fmt(Chipmunk.limit))") }
        cpShapeSetDensity(handle, d)
        body?.shapeMassChanged()
    }

    private func checkMassChange() throws {
        try check()
        if let w = body?.world { try w.checkNotStepping("changing a shape's mass") }
    }

    public var area: Double { geometry.area }

    /// The bounding box in world coordinates (as of the last step, or now
    /// for a shape not in a world).
    public func boundingBox() throws -> Rect {
        try check()
        let bb = inSpace ? cpShapeGetBB(handle) : cpShapeCacheBB(handle)
        return Rect(bb.l, bb.b, bb.r - bb.l, bb.t - bb.b)
    }
}
