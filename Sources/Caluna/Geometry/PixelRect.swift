/// A rectangle of whole device pixels: what damage tracking reports to a host
/// (the pixels a render wrote) and what it redraws.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The whole pixels a device-space rectangle touches, grown by `margin`
    /// pixels; nil when empty, not finite, or beyond 1e9 pixels (far beyond
    /// any buffer, within Int and exact in Double).
    init?(covering r: Rect, margin: Double = 0) {
        guard r.isFinite, r.width > 0, r.height > 0 else { return nil }
        let x0 = (r.minX - margin).rounded(.down), y0 = (r.minY - margin).rounded(.down)
        let x1 = (r.maxX + margin).rounded(.up), y1 = (r.maxY + margin).rounded(.up)
        let limit = 1e9
        guard abs(x0) < limit, abs(y0) < limit, abs(x1) < limit, abs(y1) < limit else { return nil }
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }

    public func intersects(_ r: PixelRect) -> Bool {
        !isEmpty && !r.isEmpty && x < r.maxX && r.x < maxX && y < r.maxY && r.y < maxY
    }

    /// The common part (empty, with zero size, when they do not meet).
    public func intersection(_ r: PixelRect) -> PixelRect {
        let x0 = max(x, r.x), y0 = max(y, r.y), x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : PixelRect(x: x0, y: y0, width: 0, height: 0)
    }

    /// The bounding box of both (an empty one does not count).
    public func union(_ r: PixelRect) -> PixelRect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }

    public func grown(by d: Int) -> PixelRect { PixelRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }

    public func contains(_ r: PixelRect) -> Bool {
        r.isEmpty || (!isEmpty && r.x >= x && r.y >= y && r.maxX <= maxX && r.maxY <= maxY)
    }

    /// The parts of `self` outside `r`: at most four rectangles.
    public func subtracting(_ r: PixelRect) -> [PixelRect] {
        guard intersects(r) else { return isEmpty ? [] : [self] }
        let i = intersection(r)
        var out: [PixelRect] = []
        if i.y > y { out.append(PixelRect(x: x, y: y, width: width, height: i.y - y)) }
        if i.maxY < maxY { out.append(PixelRect(x: x, y: i.maxY, width: width, height: maxY - i.maxY)) }
        if i.x > x { out.append(PixelRect(x: x, y: i.y, width: i.x - x, height: i.height)) }
        if i.maxX < maxX { out.append(PixelRect(x: i.maxX, y: i.y, width: maxX - i.maxX, height: i.height)) }
        return out
    }

    /// As a device-space `Rect`.
    var rect: Rect { Rect(Double(x), Double(y), Double(width), Double(height)) }
}
