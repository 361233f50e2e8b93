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

    /// CGRectContainsPoint: half-open, minX ≤ x < maxX and minY ≤ y < maxY.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    public func intersects(_ r: Rect) -> Bool {
        !(r.maxX <= minX || r.minX >= maxX || r.maxY <= minY || r.minY >= maxY) && !isEmpty && !r.isEmpty
    }

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
