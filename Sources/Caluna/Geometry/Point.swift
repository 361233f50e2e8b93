/// A location in points (y grows downwards). Core Animation's CGPoint.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    public var isFinite: Bool { x.isFinite && y.isFinite }
    public var description: String { "(\(fmt(x)), \(fmt(y)))" }
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    /// The straight-line distance to `p`.
    public func distance(to p: Point) -> Double { ((p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)).squareRoot() }
}

/// A width and height in points. Core Animation's CGSize.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(0, 0)
    public var isFinite: Bool { width.isFinite && height.isFinite }
    public var description: String { "(\(fmt(width)), \(fmt(height)))" }
}

/// Shortest faithful text for a Double: integers print without ".0".
@usableFromInline func fmt(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}
