import Glibc

/// One drawn piece of a Path (a line, quadratic or cubic Bézier) with the
/// point, tangent and arc-length queries keyframe animations along a path need.
public struct PathSegment: Equatable, Sendable {
    /// Control points: 2 for a line, 3 for a quadratic, 4 for a cubic.
    public let points: [Point]
    /// Curves only: chord lengths summed at `lengthSamples` + 1 evenly spaced
    /// parameters, measured once (paced animations read it every frame).
    private let cumulativeLengths: [Double]

    public init(points: [Point]) {
        self.points = points
        cumulativeLengths = points.count == 2 ? [] : PathSegment.measure(points)
    }

    public var start: Point { points[0] }
    public var end: Point { points[points.count - 1] }

    /// The segments of a path, in order; moves start a new subpath and are
    /// not segments themselves; a close is a line back to the subpath start.
    public static func segments(of path: Path) -> [PathSegment] {
        var out: [PathSegment] = []
        var current: Point? = nil, subpathStart: Point? = nil
        for e in path.elements {
            switch e {
            case .move(let p):
                current = p; subpathStart = p
            case .line(let p):
                if let c = current { out.append(PathSegment(points: [c, p])) }
                current = p
            case .quad(let c1, let p):
                if let c = current { out.append(PathSegment(points: [c, c1, p])) }
                current = p
            case .cubic(let c1, let c2, let p):
                if let c = current { out.append(PathSegment(points: [c, c1, c2, p])) }
                current = p
            case .close:
                if let c = current, let s = subpathStart, c != s { out.append(PathSegment(points: [c, s])) }
                current = subpathStart
            }
            if subpathStart == nil { subpathStart = current }
        }
        return out
    }

    /// The point at curve parameter t in [0, 1].
    public func point(at t: Double) -> Point { PathSegment.point(points, at: t) }

    private static func point(_ points: [Point], at t: Double) -> Point {
        let s = 1 - t
        switch points.count {
        case 2:
            return Point(s * points[0].x + t * points[1].x, s * points[0].y + t * points[1].y)
        case 3:
            let a = s * s, b = 2 * s * t, c = t * t
            return Point(a * points[0].x + b * points[1].x + c * points[2].x,
                         a * points[0].y + b * points[1].y + c * points[2].y)
        default:
            let a = s * s * s, b = 3 * s * s * t, c = 3 * s * t * t, d = t * t * t
            return Point(a * points[0].x + b * points[1].x + c * points[2].x + d * points[3].x,
                         a * points[0].y + b * points[1].y + c * points[2].y + d * points[3].y)
        }
    }

    /// The derivative dB/dt at t.
    public func tangent(at t: Double) -> Point {
        let s = 1 - t
        func d(_ p: Point, _ q: Point) -> Point { Point(q.x - p.x, q.y - p.y) }
        switch points.count {
        case 2:
            return d(points[0], points[1])
        case 3:
            let a = d(points[0], points[1]), b = d(points[1], points[2])
            return Point(2 * (s * a.x + t * b.x), 2 * (s * a.y + t * b.y))
        default:
            let a = d(points[0], points[1]), b = d(points[1], points[2]), c = d(points[2], points[3])
            return Point(3 * (s * s * a.x + 2 * s * t * b.x + t * t * c.x),
                         3 * (s * s * a.y + 2 * s * t * b.y + t * t * c.y))
        }
    }

    /// The direction of travel at t (radians, atan2(dy, dx); y points down,
    /// so positive angles turn clockwise on screen). Where the derivative
    /// vanishes (a control point on an end point) the chord direction is used.
    public func angle(at t: Double) -> Double {
        var v = tangent(at: t)
        if v.x == 0 && v.y == 0 {
            let a = point(at: max(t - 1e-6, 0)), b = point(at: min(t + 1e-6, 1))
            v = Point(b.x - a.x, b.y - a.y)
            if v.x == 0 && v.y == 0 { v = Point(end.x - start.x, end.y - start.y) }
        }
        return atan2(v.y, v.x)
    }

    /// Samples used for arc length: plenty for any curve a layer follows.
    static let lengthSamples = 256

    private static func measure(_ points: [Point]) -> [Double] {
        var acc = [0.0]
        var prev = points[0]
        for i in 1...PathSegment.lengthSamples {
            let p = point(points, at: Double(i) / Double(PathSegment.lengthSamples))
            acc.append(acc[acc.count - 1] + prev.distance(to: p))
            prev = p
        }
        return acc
    }

    /// Arc length (exact for lines, to about 1e-5 relative for curves).
    public var length: Double {
        if points.count == 2 {
            return start.distance(to: end)
        }
        return cumulativeLengths[PathSegment.lengthSamples]
    }

    /// The curve parameter at which the given fraction of the arc length has
    /// been travelled (paced motion).
    public func parameter(atLengthFraction f: Double) -> Double {
        if points.count == 2 { return f }
        let acc = cumulativeLengths
        let target = min(max(f, 0), 1) * acc[acc.count - 1]
        guard target > 0 else { return 0 }
        var lo = 0, hi = acc.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if acc[mid] < target { lo = mid } else { hi = mid }
        }
        let span = acc[hi] - acc[lo]
        let w = span > 0 ? (target - acc[lo]) / span : 0
        return (Double(lo) + w) / Double(PathSegment.lengthSamples)
    }
}
