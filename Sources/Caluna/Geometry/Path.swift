import Glibc

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

    /// Bytes one element takes in `elements`.
    public static let elementBytes = MemoryLayout<Element>.stride
    /// Bytes the elements take (memory estimates).
    public var storageBytes: Int { elements.count * Path.elementBytes }

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
    public mutating func quad(to p: Point, control c: Point) { elements.append(.quad(c, p)) }
    public mutating func curve(to p: Point, control1 c1: Point, control2 c2: Point) { elements.append(.cubic(c1, c2, p)) }

    /// Where the next element starts: the last end point, or after a close
    /// the start of that subpath (nil for an empty path).
    public var currentPoint: Point? {
        var sawClose = false
        for e in elements.reversed() {
            switch e {
            case .move(let p): return p
            case .line(let p), .quad(_, let p), .cubic(_, _, let p): if !sawClose { return p }
            case .close: sawClose = true
            }
        }
        return nil
    }

    /// UIBezierPath addArcWithCenter:radius:startAngle:endAngle:clockwise:
    /// in y-down space: angles in radians from +x, `clockwise` turns
    /// clockwise on screen (increasing angle). A line joins the current point
    /// to the arc's start when they differ (a move starts an empty path). As
    /// cairo_arc does, the end angle is moved by whole turns to lie on the
    /// requested side of the start; a sweep over one turn draws one circle.
    /// Drawn as cubics of at most a quarter turn each (error < 3e-4 · r).
    public mutating func addArc(center: Point, radius r: Double, startAngle a0: Double, endAngle a1: Double,
                                clockwise: Bool) {
        guard center.isFinite, r.isFinite, a0.isFinite, a1.isFinite else { return }  // callers validate
        var sweep = a1 - a0
        let turn = 2 * Double.pi
        if clockwise {
            if sweep < 0 { sweep += turn * ((-sweep) / turn).rounded(.up) }
            sweep = min(sweep, turn)
        } else {
            if sweep > 0 { sweep -= turn * (sweep / turn).rounded(.up) }
            sweep = max(sweep, -turn)
        }
        func at(_ a: Double) -> Point { Point(center.x + r * cos(a), center.y + r * sin(a)) }
        let start = at(a0)
        if let c = currentPoint { if c != start { line(to: start) } } else { move(to: start) }
        guard sweep != 0 else { return }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4) * r
        for i in 0..<pieces {
            let s = a0 + step * Double(i), e = i == pieces - 1 ? a0 + sweep : s + step
            let p0 = at(s), p1 = at(e)
            curve(to: p1, control1: Point(p0.x - k * sin(s), p0.y + k * cos(s)),
                  control2: Point(p1.x + k * sin(e), p1.y - k * cos(e)))
        }
    }

    /// UIBezierPath bezierPathWithRoundedRect:byRoundingCorners:cornerRadii:
    /// a closed subpath, clockwise on screen from the end of the top-left
    /// corner; the `corners` get elliptical corners of `radii` (each clamped
    /// to half the width or height), the others stay square.
    public mutating func addRoundedRect(_ rect: Rect, cornerRadii radii: Size, corners: CornerMask = .all) {
        let b = rect.standardized
        let rx = min(max(radii.width, 0), b.width / 2), ry = min(max(radii.height, 0), b.height / 2)
        func has(_ c: CornerMask) -> Bool { corners.contains(c) && rx > 0 && ry > 0 }
        let (x0, y0, x1, y1) = (b.minX, b.minY, b.maxX, b.maxY)
        let k = 0.5522847498307936
        // One quarter ellipse from `from` to `to` around the corner `c`.
        func corner(_ c: Point, _ from: Point, _ to: Point) {
            curve(to: to, control1: Point(from.x + k * (c.x - from.x), from.y + k * (c.y - from.y)),
                  control2: Point(to.x + k * (c.x - to.x), to.y + k * (c.y - to.y)))
        }
        let tl = has(.minXMinY), tr = has(.maxXMinY), br = has(.maxXMaxY), bl = has(.minXMaxY)
        move(to: Point(tl ? x0 + rx : x0, y0))
        line(to: Point(tr ? x1 - rx : x1, y0))
        if tr { corner(Point(x1, y0), Point(x1 - rx, y0), Point(x1, y0 + ry)) }
        line(to: Point(x1, br ? y1 - ry : y1))
        if br { corner(Point(x1, y1), Point(x1, y1 - ry), Point(x1 - rx, y1)) }
        line(to: Point(bl ? x0 + rx : x0, y1))
        if bl { corner(Point(x0, y1), Point(x0 + rx, y1), Point(x0, y1 - ry)) }
        line(to: Point(x0, tl ? y0 + ry : y0))
        if tl { corner(Point(x0, y0), Point(x0, y0 + ry), Point(x0 + rx, y0)) }
        close()
    }

    /// Appends another path's elements (CGPathAddPath).
    public mutating func addPath(_ other: Path) { elements += other.elements }

    /// Every point mapped by `t` (UIBezierPath applyTransform:, CGPathCreateCopyByTransformingPath).
    public func applying(_ t: AffineTransform) -> Path {
        Path(elements.map { e in
            switch e {
            case .move(let p): return .move(t.apply(p))
            case .line(let p): return .line(t.apply(p))
            case .quad(let c, let p): return .quad(t.apply(c), t.apply(p))
            case .cubic(let c1, let c2, let p): return .cubic(t.apply(c1), t.apply(c2), t.apply(p))
            case .close: return .close
            }
        })
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
