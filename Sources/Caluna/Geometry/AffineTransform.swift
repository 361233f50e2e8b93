import Glibc

/// Core Graphics' CGAffineTransform: x' = a·x + c·y + tx, y' = b·x + d·y + ty
/// (the row vector [x y 1] times [[a b 0], [c d 0], [tx ty 1]]).
/// `concatenating(b)` applies self first, then b (CGAffineTransformConcat); the
/// builder methods (`translated`, `scaled`, `rotated`) apply their operation
/// before the receiver, like CGAffineTransformTranslate(t, …) = Translation · t.
public struct AffineTransform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The 6 fields in the order a, b, c, d, tx, ty.
    public init?(elements e: [Double]) {
        guard e.count == 6 else { return nil }
        self.init(a: e[0], b: e[1], c: e[2], d: e[3], tx: e[4], ty: e[5])
    }

    public var elements: [Double] { [a, b, c, d, tx, ty] }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public var isIdentity: Bool { self == .identity }
    public var isFinite: Bool { elements.allSatisfy { $0.isFinite } }

    public static func translation(_ tx: Double, _ ty: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    /// Positive angles turn clockwise on screen (y points down).
    public static func rotation(_ angle: Double) -> AffineTransform {
        let c = cos(angle), s = sin(angle)
        return AffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// The book's CGAffineTransformMakeShear(x, y) (listing 5.3): the identity
    /// with c = −x and b = y, so a point moves by (−x·y, y·x).
    public static func shear(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: y, c: -x, d: 1, tx: 0, ty: 0)
    }

    /// CGAffineTransformConcat(self, t): self first, then t.
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// CGAffineTransformTranslate(self, …): translate first, then self.
    public func translated(_ tx: Double, _ ty: Double) -> AffineTransform {
        AffineTransform.translation(tx, ty).concatenating(self)
    }
    /// CGAffineTransformScale(self, …): scale first, then self.
    public func scaled(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform.scale(sx, sy).concatenating(self)
    }
    /// CGAffineTransformRotate(self, angle): rotate first, then self.
    public func rotated(_ angle: Double) -> AffineTransform {
        AffineTransform.rotation(angle).concatenating(self)
    }

    /// How lengths scale on average: √|det| (a shadow's blur radius is
    /// scaled by it, in the compositor and in damage tracking alike).
    public var linearScale: Double { abs(a * d - b * c).squareRoot() }

    public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
    /// CGRectApplyAffineTransform: the axis-aligned box of the transformed corners.
    /// (Without arrays: the compositor asks this of every layer of a 3D
    /// context; the same corners in the same order as `Rect.bounding`.)
    public func apply(_ r: Rect) -> Rect {
        let c0 = apply(Point(r.minX, r.minY)), c1 = apply(Point(r.maxX, r.minY))
        let c2 = apply(Point(r.maxX, r.maxY)), c3 = apply(Point(r.minX, r.maxY))
        var lo = c0, hi = c0
        lo.x = min(lo.x, c1.x); lo.y = min(lo.y, c1.y); hi.x = max(hi.x, c1.x); hi.y = max(hi.y, c1.y)
        lo.x = min(lo.x, c2.x); lo.y = min(lo.y, c2.y); hi.x = max(hi.x, c2.x); hi.y = max(hi.y, c2.y)
        lo.x = min(lo.x, c3.x); lo.y = min(lo.y, c3.y); hi.x = max(hi.x, c3.x); hi.y = max(hi.y, c3.y)
        return Rect(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
    }

    /// CGAffineTransformInvert, or nil when the matrix is singular (or its
    /// inverse overflows).
    public func inverted() -> AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let r = AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        return r.isFinite ? r : nil
    }
}
