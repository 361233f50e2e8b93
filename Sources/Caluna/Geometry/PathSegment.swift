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
        pieces(of: path).compactMap { $0.closes && $0.segment.start == $0.segment.end ? nil : $0.segment }
    }

    /// A segment with its place in the path's subpaths (stroke trimming needs both).
    public struct Piece: Sendable {
        public let segment: PathSegment
        /// The first segment after a move or a close.
        public let startsSubpath: Bool
        /// Made by a close element (zero-length when the subpath already ended at its start).
        public let closes: Bool
    }

    /// Every drawn piece of a path in order, zero-length closes included.
    public static func pieces(of path: Path) -> [Piece] {
        var out: [Piece] = []
        var current: Point? = nil, subpathStart: Point? = nil, fresh = true
        func add(_ pts: [Point], closes: Bool = false) {
            out.append(Piece(segment: PathSegment(points: pts), startsSubpath: fresh, closes: closes))
            fresh = false
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                current = p; subpathStart = p; fresh = true
            case .line(let p):
                if let c = current { add([c, p]) } else { subpathStart = p }
                current = p
            case .quad(let c1, let p):
                if let c = current { add([c, c1, p]) } else { subpathStart = p }
                current = p
            case .cubic(let c1, let c2, let p):
                if let c = current { add([c, c1, c2, p]) } else { subpathStart = p }
                current = p
            case .close:
                if let c = current, let s = subpathStart, !fresh { add([c, s], closes: true) }
                // The next segment starts a new subpath at the same point (CGPath).
                current = subpathStart; fresh = true
            }
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

    /// The piece between curve parameters t0 ≤ t1 (de Casteljau), as the
    /// same kind of segment: strokeStart/strokeEnd trim paths with it.
    public func subsegment(from t0: Double, to t1: Double) -> PathSegment {
        // The first part of a split at t: the left edges of de Casteljau's triangle.
        func head(_ pts: [Point], _ t: Double) -> [Point] {
            var row = pts, out = [pts[0]]
            while row.count > 1 {
                row = (0..<row.count - 1).map { i in
                    Point(row[i].x + (row[i + 1].x - row[i].x) * t, row[i].y + (row[i + 1].y - row[i].y) * t)
                }
                out.append(row[0])
            }
            return out
        }
        let left = head(points, t1)
        guard t0 > 0, t1 > 0 else { return PathSegment(points: left) }
        // The tail of `left` from t0/t1 is the head of its reverse.
        let tail = head(Array(left.reversed()), 1 - t0 / t1).reversed()
        return PathSegment(points: Array(tail))
    }

    /// The bytes `pieces(of:)` makes for `path` (a curve keeps its measured
    /// arc lengths): what callers charge before measuring a path.
    public static func estimatedBytes(of path: Path) -> Int {
        let line = 2 * MemoryLayout<Point>.stride + 96
        let curve = 4 * MemoryLayout<Point>.stride + (lengthSamples + 1) * MemoryLayout<Double>.stride + 128
        var n = 0
        for e in path.elements {
            switch e {
            case .move: break
            case .line, .close: n += line
            case .quad, .cubic: n += curve
            }
        }
        return n
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
