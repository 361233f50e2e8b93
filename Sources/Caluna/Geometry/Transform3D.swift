import Glibc

/// Core Animation's CATransform3D: a 4×4 matrix in the row-vector convention
/// (a point is the row [x y z 1] multiplied on the left, so translation sits in
/// m41…m43). `a.concatenating(b)` applies a first, then b, like
/// CATransform3DConcat(a, b); the builder methods (`translated`, `scaled`,
/// `rotated`) apply their operation before the receiver, like
/// CATransform3DTranslate(t, …) = Translation · t.
public struct Transform3D: Hashable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The 16 entries in row order m11, m12 … m44.
    public init?(elements e: [Double]) {
        guard e.count == 16 else { return nil }
        self.init(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                  m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    public var elements: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    public var isIdentity: Bool { self == .identity }
    public var isFinite: Bool { elements.allSatisfy { $0.isFinite } }

    /// CATransform3DIsAffine: the matrix only maps x/y within the plane.
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D {
        var t = identity; t.m41 = tx; t.m42 = ty; t.m43 = tz; return t
    }

    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double = 1) -> Transform3D {
        var t = identity; t.m11 = sx; t.m22 = sy; t.m33 = sz; return t
    }

    /// CATransform3DMakeRotation: `angle` radians about the axis (x, y, z).
    /// Positive angles about +z turn clockwise on screen (y points down).
    /// A zero axis gives the identity.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0, len.isFinite else { return identity }
        let (x, y, z) = (x / len, y / len, z / len)
        let c = cos(angle), s = sin(angle), k = 1 - c
        return Transform3D(
            m11: c + x * x * k, m12: z * s + x * y * k, m13: -y * s + x * z * k, m14: 0,
            m21: -z * s + x * y * k, m22: c + y * y * k, m23: x * s + y * z * k, m24: 0,
            m31: y * s + x * z * k, m32: -x * s + y * z * k, m33: c + z * z * k, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// CATransform3DConcat(self, b): self first, then b.
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        func row(_ r1: Double, _ r2: Double, _ r3: Double, _ r4: Double) -> (Double, Double, Double, Double) {
            (r1 * b.m11 + r2 * b.m21 + r3 * b.m31 + r4 * b.m41,
             r1 * b.m12 + r2 * b.m22 + r3 * b.m32 + r4 * b.m42,
             r1 * b.m13 + r2 * b.m23 + r3 * b.m33 + r4 * b.m43,
             r1 * b.m14 + r2 * b.m24 + r3 * b.m34 + r4 * b.m44)
        }
        let r1 = row(a.m11, a.m12, a.m13, a.m14), r2 = row(a.m21, a.m22, a.m23, a.m24)
        let r3 = row(a.m31, a.m32, a.m33, a.m34), r4 = row(a.m41, a.m42, a.m43, a.m44)
        return Transform3D(m11: r1.0, m12: r1.1, m13: r1.2, m14: r1.3, m21: r2.0, m22: r2.1, m23: r2.2, m24: r2.3,
                           m31: r3.0, m32: r3.1, m33: r3.2, m34: r3.3, m41: r4.0, m42: r4.1, m43: r4.2, m44: r4.3)
    }

    /// CATransform3DTranslate(self, …): translate first, then self.
    public func translated(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D {
        Transform3D.translation(tx, ty, tz).concatenating(self)
    }
    public func scaled(_ sx: Double, _ sy: Double, _ sz: Double = 1) -> Transform3D {
        Transform3D.scale(sx, sy, sz).concatenating(self)
    }
    public func rotated(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.rotation(angle, x, y, z).concatenating(self)
    }

    /// CATransform3DInvert, or nil when the matrix is singular.
    public func inverted() -> Transform3D? {
        let m = elements
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = m[5]*m[10]*m[15] - m[5]*m[11]*m[14] - m[9]*m[6]*m[15] + m[9]*m[7]*m[14] + m[13]*m[6]*m[11] - m[13]*m[7]*m[10]
        inv[4] = -m[4]*m[10]*m[15] + m[4]*m[11]*m[14] + m[8]*m[6]*m[15] - m[8]*m[7]*m[14] - m[12]*m[6]*m[11] + m[12]*m[7]*m[10]
        inv[8] = m[4]*m[9]*m[15] - m[4]*m[11]*m[13] - m[8]*m[5]*m[15] + m[8]*m[7]*m[13] + m[12]*m[5]*m[11] - m[12]*m[7]*m[9]
        inv[12] = -m[4]*m[9]*m[14] + m[4]*m[10]*m[13] + m[8]*m[5]*m[14] - m[8]*m[6]*m[13] - m[12]*m[5]*m[10] + m[12]*m[6]*m[9]
        inv[1] = -m[1]*m[10]*m[15] + m[1]*m[11]*m[14] + m[9]*m[2]*m[15] - m[9]*m[3]*m[14] - m[13]*m[2]*m[11] + m[13]*m[3]*m[10]
        inv[5] = m[0]*m[10]*m[15] - m[0]*m[11]*m[14] - m[8]*m[2]*m[15] + m[8]*m[3]*m[14] + m[12]*m[2]*m[11] - m[12]*m[3]*m[10]
        inv[9] = -m[0]*m[9]*m[15] + m[0]*m[11]*m[13] + m[8]*m[1]*m[15] - m[8]*m[3]*m[13] - m[12]*m[1]*m[11] + m[12]*m[3]*m[9]
        inv[13] = m[0]*m[9]*m[14] - m[0]*m[10]*m[13] - m[8]*m[1]*m[14] + m[8]*m[2]*m[13] + m[12]*m[1]*m[10] - m[12]*m[2]*m[9]
        inv[2] = m[1]*m[6]*m[15] - m[1]*m[7]*m[14] - m[5]*m[2]*m[15] + m[5]*m[3]*m[14] + m[13]*m[2]*m[7] - m[13]*m[3]*m[6]
        inv[6] = -m[0]*m[6]*m[15] + m[0]*m[7]*m[14] + m[4]*m[2]*m[15] - m[4]*m[3]*m[14] - m[12]*m[2]*m[7] + m[12]*m[3]*m[6]
        inv[10] = m[0]*m[5]*m[15] - m[0]*m[7]*m[13] - m[4]*m[1]*m[15] + m[4]*m[3]*m[13] + m[12]*m[1]*m[7] - m[12]*m[3]*m[5]
        inv[14] = -m[0]*m[5]*m[14] + m[0]*m[6]*m[13] + m[4]*m[1]*m[14] - m[4]*m[2]*m[13] - m[12]*m[1]*m[6] + m[12]*m[2]*m[5]
        inv[3] = -m[1]*m[6]*m[11] + m[1]*m[7]*m[10] + m[5]*m[2]*m[11] - m[5]*m[3]*m[10] - m[9]*m[2]*m[7] + m[9]*m[3]*m[6]
        inv[7] = m[0]*m[6]*m[11] - m[0]*m[7]*m[10] - m[4]*m[2]*m[11] + m[4]*m[3]*m[10] + m[8]*m[2]*m[7] - m[8]*m[3]*m[6]
        inv[11] = -m[0]*m[5]*m[11] + m[0]*m[7]*m[9] + m[4]*m[1]*m[11] - m[4]*m[3]*m[9] - m[8]*m[1]*m[7] + m[8]*m[3]*m[5]
        inv[15] = m[0]*m[5]*m[10] - m[0]*m[6]*m[9] - m[4]*m[1]*m[10] + m[4]*m[2]*m[9] + m[8]*m[1]*m[6] - m[8]*m[2]*m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite, let r = Transform3D(elements: inv.map { $0 / det }), r.isFinite else { return nil }
        return r
    }

    /// The row vector [x y z 1] times the matrix: the homogeneous (x, y, z, w).
    public func homogeneous(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        (x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42,
         x * m13 + y * m23 + z * m33 + m43, x * m14 + y * m24 + z * m34 + m44)
    }

    /// The point after the perspective divide (x/w, y/w, z/w), with its w; nil
    /// when w ≤ 0 (at or behind the viewer, e.g. z ≥ d under m34 = −1/d) or
    /// when the result is not finite.
    public func project(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double)? {
        let h = homogeneous(x, y, z)
        guard h.w > 0, h.w.isFinite else { return nil }
        let r = (x: h.x / h.w, y: h.y / h.w, z: h.z / h.w, w: h.w)
        guard r.x.isFinite, r.y.isFinite, r.z.isFinite else { return nil }
        return r
    }

    /// The affine part (CATransform3DGetAffineTransform): drops z and perspective.
    public var affine: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// CATransform3DMakeAffineTransform.
    public init(_ t: AffineTransform) {
        self = .identity
        m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    /// The map this matrix induces on the z = 0 plane, viewed orthographically
    /// along z (which is how a flattening layer sees its sublayers).
    public var planeProjection: PlaneProjection {
        PlaneProjection(m11: m11, m12: m12, m14: m14, m21: m21, m22: m22, m24: m24, m41: m41, m42: m42, m44: m44)
    }
}

/// A 3×3 projective map of the plane (row-vector convention):
/// [x y 1] · M, then divide by w. It is what a 3D layer transform does to
/// points of the layer's own plane once the result is flattened.
public struct PlaneProjection: Hashable, Sendable {
    public var m11, m12, m14, m21, m22, m24, m41, m42, m44: Double

    public static let identity = PlaneProjection(m11: 1, m12: 0, m14: 0, m21: 0, m22: 1, m24: 0, m41: 0, m42: 0, m44: 1)

    public init(m11: Double, m12: Double, m14: Double, m21: Double, m22: Double, m24: Double,
                m41: Double, m42: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m14 = m14; self.m21 = m21; self.m22 = m22; self.m24 = m24
        self.m41 = m41; self.m42 = m42; self.m44 = m44
    }

    /// The point, or nil where it maps to infinity or behind the viewer (w ≤ 0).
    public func apply(_ p: Point) -> Point? {
        let w = p.x * m14 + p.y * m24 + m44
        guard w > 0, w.isFinite else { return nil }
        let r = Point((p.x * m11 + p.y * m21 + m41) / w, (p.x * m12 + p.y * m22 + m42) / w)
        return r.isFinite ? r : nil
    }

    /// self first, then b.
    public func concatenating(_ b: PlaneProjection) -> PlaneProjection {
        PlaneProjection(
            m11: m11 * b.m11 + m12 * b.m21 + m14 * b.m41, m12: m11 * b.m12 + m12 * b.m22 + m14 * b.m42,
            m14: m11 * b.m14 + m12 * b.m24 + m14 * b.m44,
            m21: m21 * b.m11 + m22 * b.m21 + m24 * b.m41, m22: m21 * b.m12 + m22 * b.m22 + m24 * b.m42,
            m24: m21 * b.m14 + m22 * b.m24 + m24 * b.m44,
            m41: m41 * b.m11 + m42 * b.m21 + m44 * b.m41, m42: m41 * b.m12 + m42 * b.m22 + m44 * b.m42,
            m44: m41 * b.m14 + m42 * b.m24 + m44 * b.m44)
    }

    public func inverted() -> PlaneProjection? {
        let det = m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
        guard det != 0, det.isFinite else { return nil }
        let r = PlaneProjection(
            m11: (m22 * m44 - m24 * m42) / det, m12: -(m12 * m44 - m14 * m42) / det, m14: (m12 * m24 - m14 * m22) / det,
            m21: -(m21 * m44 - m24 * m41) / det, m22: (m11 * m44 - m14 * m41) / det, m24: -(m11 * m24 - m14 * m21) / det,
            m41: (m21 * m42 - m22 * m41) / det, m42: -(m11 * m42 - m12 * m41) / det, m44: (m11 * m22 - m12 * m21) / det)
        return r
    }

    /// The affine map when there is no perspective (m14 = m24 = 0), else nil.
    public var affine: AffineTransform? {
        guard m14 == 0, m24 == 0, m44 != 0 else { return nil }
        return AffineTransform(a: m11 / m44, b: m12 / m44, c: m21 / m44, d: m22 / m44, tx: m41 / m44, ty: m42 / m44)
    }
}
