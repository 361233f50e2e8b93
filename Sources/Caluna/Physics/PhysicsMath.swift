import CChipmunk

/// Chipmunk's moment and area formulas (cpMomentFor…, cpAreaFor…), with
/// their inputs checked. Moments are about the body's origin.
public enum PhysicsMath {
    public static func momentForCircle(mass: Double, inner: Double, outer: Double, offset: Point = .zero) throws -> Double {
        try check(mass: mass)
        return cpMomentForCircle(mass, try radius(inner), try radius(outer), try Chipmunk.vect(offset, "offset"))
    }

    /// m·(w² + h²)/12: a box centred on the origin.
    public static func momentForBox(mass: Double, width: Double, height: Double) throws -> Double {
        try check(mass: mass)
        return cpMomentForBox(mass, try Chipmunk.positive(width, "width", allowZero: true), try Chipmunk.positive(height, "height", allowZero: true))
    }

    public static func momentForPolygon(mass: Double, points: [Point], offset: Point = .zero, radius r: Double = 0) throws -> Double {
        try check(mass: mass)
        let v = try vertices(points)
        let i = cpMomentForPoly(mass, Int32(v.count), v, try Chipmunk.vect(offset, "offset"), try radius(r))
        // Collinear or coincident points have no area to turn about.
        guard i.isFinite else { throw CalunaError.invalid("momentForPolygon: the polygon is degenerate (its points are collinear or coincide)") }
        return i
    }

    public static func momentForSegment(mass: Double, a: Point, b: Point, radius r: Double = 0) throws -> Double {
        try check(mass: mass)
        return cpMomentForSegment(mass, try Chipmunk.vect(a, "a"), try Chipmunk.vect(b, "b"), try radius(r))
    }

    public static func areaForCircle(inner: Double, outer: Double) throws -> Double {
        cpAreaForCircle(try radius(inner), try radius(outer))
    }

    public static func areaForPolygon(points: [Point], radius r: Double = 0) throws -> Double {
        let v = try vertices(points)
        return cpAreaForPoly(Int32(v.count), v, try radius(r))
    }

    public static func areaForSegment(a: Point, b: Point, radius r: Double = 0) throws -> Double {
        cpAreaForSegment(try Chipmunk.vect(a, "a"), try Chipmunk.vect(b, "b"), try radius(r))
    }

    private static func check(mass: Double) throws { _ = try Chipmunk.positive(mass, "mass", allowZero: true) }
    private static func radius(_ r: Double) throws -> Double { try Chipmunk.positive(r, "radius", allowZero: true) }

    /// Clockwise or counter-clockwise, 1 to maximumVertices points.
    private static func vertices(_ points: [Point]) throws -> [cpVect] {
        guard (1...PhysicsShape.maximumVertices).contains(points.count) else {
            throw CalunaError.invalid("a polygon needs 1 to \(PhysicsShape.maximumVertices) points (got \(points.count))")
        }
        return try points.map { try Chipmunk.vect($0, "point") }
    }
}
