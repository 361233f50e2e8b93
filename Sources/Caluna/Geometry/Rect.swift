/// An origin and a size in points. Core Animation's CGRect.
/// Widths and heights may be negative, as in Core Graphics; `standardized`
/// and the min/max accessors account for that.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }
    public static let zero = Rect(0, 0, 0, 0)

    public var isFinite: Bool { origin.isFinite && size.isFinite }
    public var standardized: Rect {
        Rect(min(origin.x, origin.x + size.width), min(origin.y, origin.y + size.height),
             abs(size.width), abs(size.height))
    }
    public var minX: Double { standardized.origin.x }
    public var minY: Double { standardized.origin.y }
    public var maxX: Double { let s = standardized; return s.origin.x + s.size.width }
    public var maxY: Double { let s = standardized; return s.origin.y + s.size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { abs(size.width) }
    public var height: Double { abs(size.height) }
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }
    /// Every edge on a whole number.
    public var isIntegral: Bool {
        minX.rounded() == minX && minY.rounded() == minY && maxX.rounded() == maxX && maxY.rounded() == maxY
    }

    /// CGRectContainsPoint: half-open, minX ≤ x < maxX and minY ≤ y < maxY.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    public func intersects(_ r: Rect) -> Bool {
        !(r.maxX <= minX || r.minX >= maxX || r.maxY <= minY || r.minY >= maxY) && !isEmpty && !r.isEmpty
    }

    /// CGRectIntersection: the overlap (standardized), or an empty rect at the origin of neither.
    public func intersection(_ r: Rect) -> Rect {
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x0, y0, 0, 0) }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    /// CGRectUnion: the smallest rect containing both (an empty rect adds nothing).
    public func union(_ r: Rect) -> Rect {
        if isEmpty { return r.standardized }
        if r.isEmpty { return standardized }
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return Rect(x0, y0, max(maxX, r.maxX) - x0, max(maxY, r.maxY) - y0)
    }

    /// CGRectInset: shrunk by dx on each side horizontally and dy vertically.
    public func insetBy(_ dx: Double, _ dy: Double) -> Rect {
        let s = standardized
        return Rect(s.origin.x + dx, s.origin.y + dy, max(0, s.size.width - 2 * dx), max(0, s.size.height - 2 * dy))
    }

    /// CGRectOffset.
    public func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(origin.x + dx, origin.y + dy, size.width, size.height) }

    /// The smallest rect containing every point (an empty list gives .zero).
    public static func bounding(_ points: [Point]) -> Rect {
        guard let first = points.first else { return .zero }
        var lo = first, hi = first
        for p in points.dropFirst() {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y)
            hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        return Rect(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
    }

    public var corners: [Point] {
        [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
    }

    public var description: String {
        "(\(fmt(origin.x)), \(fmt(origin.y)), \(fmt(size.width)), \(fmt(size.height)))"
    }
}
