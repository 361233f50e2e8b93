/// A vector path in points: Core Graphics' CGPath, as a value.
public struct Path: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)          // control, end
        case cubic(Point, Point, Point)  // control 1, control 2, end
        case close
    }
    public var elements: [Element] = []
    public init(_ elements: [Element] = []) { self.elements = elements }

    public mutating func move(to p: Point) { elements.append(.move(p)) }
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    public mutating func close() { elements.append(.close) }
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY)); line(to: Point(r.maxX, r.minY))
        line(to: Point(r.maxX, r.maxY)); line(to: Point(r.minX, r.maxY)); close()
    }
    /// Four cubic arcs (κ = 0.5523), as CGPathAddEllipseInRect does.
    public mutating func addEllipse(in r: Rect) {
        let k = 0.5522847498307936
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        move(to: Point(cx + rx, cy))
        elements.append(.cubic(Point(cx + rx, cy + k * ry), Point(cx + k * rx, cy + ry), Point(cx, cy + ry)))
        elements.append(.cubic(Point(cx - k * rx, cy + ry), Point(cx - rx, cy + k * ry), Point(cx - rx, cy)))
        elements.append(.cubic(Point(cx - rx, cy - k * ry), Point(cx - k * rx, cy - ry), Point(cx, cy - ry)))
        elements.append(.cubic(Point(cx + k * rx, cy - ry), Point(cx + rx, cy - k * ry), Point(cx + rx, cy)))
        close()
    }
    /// Every point of the path, control points included, in order.
    public var points: [Point] {
        var out: [Point] = []
        out.reserveCapacity(elements.count * 2)
        for e in elements {
            switch e {
            case .move(let p), .line(let p): out.append(p)
            case .quad(let a, let b): out += [a, b]
            case .cubic(let a, let b, let c): out += [a, b, c]
            case .close: break
            }
        }
        return out
    }

    /// The box of every point, control points included: it contains the path.
    public var controlPointBounds: Rect { Rect.bounding(points) }

    public var isFinite: Bool { points.allSatisfy { $0.isFinite } }
}
