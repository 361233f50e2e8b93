import Glibc

/// A Transform3D split into the parts Core Animation interpolates one by one
/// (the "unmatrix" of Graphics Gems II, as in CSS Transforms Level 2).
///
/// In the row-vector convention a point passes through the parts left to right:
///
///     M = Scale · Skew · Rotation · Translation · Perspective
///
/// - Scale = diag(scale.x, scale.y, scale.z, 1).
/// - Skew is a unit lower-triangular shear: row 2 gains `xy` × row 1, row 3
///   gains `xz` × row 1 + `yz` × row 2 (shear factors, not angles).
/// - Rotation is the unit quaternion `rotation` (w ≥ 0 after decomposition);
///   (0, 0, sin(a/2), cos(a/2)) is `Transform3D.rotation(a, 0, 0, 1)`.
/// - Translation is m41…m43 exactly.
/// - Perspective is the identity with its last column replaced by (x, y, z, w).
///
/// Unlike the textbook algorithm the matrix is not first divided by m44: a
/// perspective transform built the Core Animation way (m34 = −1/d, then
/// translated) would otherwise read back a scale ≠ 1 and a stretched
/// translation. `transform` therefore recomposes the matrix exactly.
public struct DecomposedTransform: Equatable, Sendable {
    public struct Vector3: Equatable, Sendable {
        public var x, y, z: Double
        public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    }
    public struct Skew: Equatable, Sendable {
        public var xy, xz, yz: Double
        public init(xy: Double, xz: Double, yz: Double) { self.xy = xy; self.xz = xz; self.yz = yz }
    }
    public struct Perspective: Equatable, Sendable {
        public var x, y, z, w: Double
        public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) {
            self.x = x; self.y = y; self.z = z; self.w = w
        }
    }
    public struct Quaternion: Equatable, Sendable {
        public var x, y, z, w: Double
        public init(x: Double, y: Double, z: Double, w: Double) { self.x = x; self.y = y; self.z = z; self.w = w }
        public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)
    }
    public enum Axis: Sendable { case x, y, z }

    public var translation = Vector3(0, 0, 0)
    public var scale = Vector3(1, 1, 1)
    public var skew = Skew(xy: 0, xz: 0, yz: 0)
    public var perspective = Perspective(0, 0, 0, 1)
    public var rotation = Quaternion.identity

    public init(translation: Vector3 = Vector3(0, 0, 0), scale: Vector3 = Vector3(1, 1, 1),
                skew: Skew = Skew(xy: 0, xz: 0, yz: 0), perspective: Perspective = Perspective(0, 0, 0, 1),
                rotation: Quaternion = .identity) {
        self.translation = translation; self.scale = scale; self.skew = skew
        self.perspective = perspective; self.rotation = rotation
    }

    public static let identity = DecomposedTransform()

    /// Nil when the matrix is not finite, m44 is 0, or its 3×3 part is
    /// singular (a zero scale, or rows that are (nearly) linearly dependent).
    public init?(_ t: Transform3D) {
        guard t.isFinite, t.m44 != 0 else { return nil }
        var r0 = Vector3(t.m11, t.m12, t.m13), r1 = Vector3(t.m21, t.m22, t.m23), r2 = Vector3(t.m31, t.m32, t.m33)
        // Singular test relative to the row lengths, so that a tiny but
        // uniform scale still decomposes while a flattened matrix does not.
        let det = r0.dot(r1.cross(r2))
        let n0 = r0.length, n1 = r1.length, n2 = r2.length
        guard n0 > 0, n1 > 0, n2 > 0, abs(det) > 1e-12 * n0 * n1 * n2 else { return nil }

        translation = Vector3(t.m41, t.m42, t.m43)
        // Column 4 = L · p (L = the 3×3 part), so p = L⁻¹ · column 4.
        let c = Vector3(t.m14, t.m24, t.m34)
        if c == Vector3(0, 0, 0) {
            perspective = Perspective(0, 0, 0, t.m44)
        } else {
            let p = (r1.cross(r2) * c.x + r2.cross(r0) * c.y + r0.cross(r1) * c.z) * (1 / det)
            perspective = Perspective(p.x, p.y, p.z, t.m44 - translation.dot(p))
        }

        // Gram-Schmidt on the rows: scale and shear fall out, rotation remains.
        var sx = n0
        r0 = r0 * (1 / sx)
        var xy = r0.dot(r1)
        r1 = r1 - r0 * xy
        var sy = r1.length
        r1 = r1 * (1 / sy); xy /= sy
        var xz = r0.dot(r2)
        r2 = r2 - r0 * xz
        var yz = r1.dot(r2)
        r2 = r2 - r1 * yz
        var sz = r2.length
        r2 = r2 * (1 / sz); xz /= sz; yz /= sz

        // A mirror: negate one axis. Choosing the axis whose rotation diagonal
        // is smallest keeps a plain flip (scale.x = −1) a flip, not a turn.
        if r0.dot(r1.cross(r2)) < 0 {
            let diag = [r0.x, r1.y, r2.z]
            let i = diag[1] < diag[0] ? (diag[2] < diag[1] ? 2 : 1) : (diag[2] < diag[0] ? 2 : 0)
            switch i {
            case 0: sx = -sx; r0 = r0 * -1; xy = -xy; xz = -xz
            case 1: sy = -sy; r1 = r1 * -1; xy = -xy; yz = -yz
            default: sz = -sz; r2 = r2 * -1; xz = -xz; yz = -yz
            }
        }
        scale = Vector3(sx, sy, sz)
        skew = Skew(xy: xy, xz: xz, yz: yz)
        rotation = Quaternion(rows: r0, r1, r2)
    }

    /// The matrix S · K · R · T · P.
    public var transform: Transform3D {
        let (u0, u1, u2) = rotation.rows
        let r0 = u0 * scale.x
        let r1 = (u0 * skew.xy + u1) * scale.y
        let r2 = (u0 * skew.xz + u1 * skew.yz + u2) * scale.z
        let p = Vector3(perspective.x, perspective.y, perspective.z), t = translation
        return Transform3D(m11: r0.x, m12: r0.y, m13: r0.z, m14: r0.dot(p),
                           m21: r1.x, m22: r1.y, m23: r1.z, m24: r1.dot(p),
                           m31: r2.x, m32: r2.y, m33: r2.z, m34: r2.dot(p),
                           m41: t.x, m42: t.y, m43: t.z, m44: t.dot(p) + perspective.w)
    }

    /// Linear in translation, scale, skew and perspective; rotation by slerp
    /// along the shorter arc. f outside 0…1 extrapolates along the same lines
    /// and the same great circle (for overshooting springs).
    public static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform,
                                   _ f: Double) -> DecomposedTransform {
        func l(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        func l3(_ x: Vector3, _ y: Vector3) -> Vector3 { Vector3(l(x.x, y.x), l(x.y, y.y), l(x.z, y.z)) }
        return DecomposedTransform(
            translation: l3(a.translation, b.translation), scale: l3(a.scale, b.scale),
            skew: Skew(xy: l(a.skew.xy, b.skew.xy), xz: l(a.skew.xz, b.skew.xz), yz: l(a.skew.yz, b.skew.yz)),
            perspective: Perspective(l(a.perspective.x, b.perspective.x), l(a.perspective.y, b.perspective.y),
                                     l(a.perspective.z, b.perspective.z), l(a.perspective.w, b.perspective.w)),
            rotation: Quaternion.slerp(a.rotation, b.rotation, f))
    }

    // MARK: Euler angles (transform.rotation.x/y/z)

    /// The rotation as angles in radians, each in (−π, π], such that
    /// `rotation(x, 1,0,0).concatenating(rotation(y, 0,1,0)).concatenating(rotation(z, 0,0,1))`
    /// is the rotation: about x first, then y, then z (fixed axes).
    /// Two angle triples describe every rotation; the one whose x and z are
    /// smaller is chosen, so a pure rotation about one axis reads back its
    /// angle, even Ry beyond ±π/2. At y = ±π/2 (gimbal lock) x is 0.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        let q = rotation
        let m11 = 1 - 2 * (q.y * q.y + q.z * q.z), m12 = 2 * (q.x * q.y + q.z * q.w)
        let m13 = 2 * (q.x * q.z - q.y * q.w), m21 = 2 * (q.x * q.y - q.z * q.w)
        let m22 = 1 - 2 * (q.x * q.x + q.z * q.z), m23 = 2 * (q.y * q.z + q.x * q.w)
        let m33 = 1 - 2 * (q.x * q.x + q.y * q.y)
        let cy = (m11 * m11 + m12 * m12).squareRoot()
        if cy < 1e-9 {
            return (0, atan2(-m13, cy), atan2(-m21, m22))
        }
        let a = (x: atan2(m23, m33), y: atan2(-m13, cy), z: atan2(m12, m11))
        let b = (x: wrapAngle(a.x + .pi), y: wrapAngle(.pi - a.y), z: wrapAngle(a.z + .pi))
        return abs(b.x) + abs(b.z) < abs(a.x) + abs(a.z) - 1e-9 ? b : a
    }
    public var rotationX: Double { eulerAngles.x }
    public var rotationY: Double { eulerAngles.y }
    public var rotationZ: Double { eulerAngles.z }

    /// Replaces one Euler angle (see `eulerAngles`), keeping the other two.
    public mutating func setRotation(_ axis: Axis, to angle: Double) {
        var e = eulerAngles
        switch axis {
        case .x: e.x = angle
        case .y: e.y = angle
        case .z: e.z = angle
        }
        rotation = Quaternion(eulerX: e.x, y: e.y, z: e.z)
    }
}

/// An angle in (−π, π].
func wrapAngle(_ a: Double) -> Double {
    let r = remainder(a, 2 * Double.pi)
    return r <= -Double.pi ? r + 2 * Double.pi : r
}

extension DecomposedTransform.Vector3 {
    static func + (a: Self, b: Self) -> Self { Self(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Self, b: Self) -> Self { Self(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: Self, k: Double) -> Self { Self(a.x * k, a.y * k, a.z * k) }
    func dot(_ b: Self) -> Double { x * b.x + y * b.y + z * b.z }
    func cross(_ b: Self) -> Self { Self(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    var length: Double { dot(self).squareRoot() }
}

extension DecomposedTransform.Quaternion {
    /// From the rows of a proper rotation matrix (row-vector convention),
    /// branching on the largest diagonal term for accuracy; w ≥ 0.
    init(rows u0: DecomposedTransform.Vector3, _ u1: DecomposedTransform.Vector3, _ u2: DecomposedTransform.Vector3) {
        let (m11, m12, m13) = (u0.x, u0.y, u0.z), (m21, m22, m23) = (u1.x, u1.y, u1.z)
        let (m31, m32, m33) = (u2.x, u2.y, u2.z)
        let trace = m11 + m22 + m33
        var q: Self
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Self(x: (m23 - m32) / s, y: (m31 - m13) / s, z: (m12 - m21) / s, w: s / 4)
        } else if m11 >= m22, m11 >= m33 {
            let s = (1 + m11 - m22 - m33).squareRoot() * 2
            q = Self(x: s / 4, y: (m12 + m21) / s, z: (m13 + m31) / s, w: (m23 - m32) / s)
        } else if m22 >= m33 {
            let s = (1 + m22 - m11 - m33).squareRoot() * 2
            q = Self(x: (m12 + m21) / s, y: s / 4, z: (m23 + m32) / s, w: (m31 - m13) / s)
        } else {
            let s = (1 + m33 - m11 - m22).squareRoot() * 2
            q = Self(x: (m13 + m31) / s, y: (m23 + m32) / s, z: s / 4, w: (m12 - m21) / s)
        }
        q = q.normalized
        self = q.w < 0 ? q.scaled(-1) : q
    }

    /// Rotation about x by `x`, then y by `y`, then z by `z` (radians).
    public init(eulerX x: Double, y: Double, z: Double) {
        let qx = Self(x: sin(x / 2), y: 0, z: 0, w: cos(x / 2))
        let qy = Self(x: 0, y: sin(y / 2), z: 0, w: cos(y / 2))
        let qz = Self(x: 0, y: 0, z: sin(z / 2), w: cos(z / 2))
        // Hamilton products compose right to left: qx acts first.
        let q = qz.times(qy).times(qx)
        self = q.w < 0 ? q.scaled(-1) : q
    }

    /// self ⊗ b: b's rotation first, then self's.
    func times(_ b: Self) -> Self {
        Self(x: w * b.x + x * b.w + y * b.z - z * b.y,
             y: w * b.y - x * b.z + y * b.w + z * b.x,
             z: w * b.z + x * b.y - y * b.x + z * b.w,
             w: w * b.w - x * b.x - y * b.y - z * b.z)
    }
    func dot(_ b: Self) -> Double { x * b.x + y * b.y + z * b.z + w * b.w }
    func scaled(_ k: Double) -> Self { Self(x: x * k, y: y * k, z: z * k, w: w * k) }
    var normalized: Self {
        let n = dot(self).squareRoot()
        return n > 0 && n.isFinite ? scaled(1 / n) : .identity
    }

    /// The angle (0…π) of the rotation taking a to b.
    static func angle(_ a: Self, _ b: Self) -> Double { 2 * acos(min(1, abs(a.normalized.dot(b.normalized)))) }

    /// Spherical interpolation along the shorter arc (q and −q are the same
    /// rotation, so b is flipped when the two lie more than 90° apart on the
    /// 4-sphere). Works for any f: the formula follows the great circle.
    static func slerp(_ a: Self, _ b0: Self, _ f: Double) -> Self {
        var b = b0, d = a.dot(b0)
        if d < 0 { b = b.scaled(-1); d = -d }
        let theta = acos(min(d, 1))
        let s = sin(theta)
        if s < 1e-9 {
            // (Nearly) the same rotation: a normalised lerp is exact enough.
            return Self(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f,
                        z: a.z + (b.z - a.z) * f, w: a.w + (b.w - a.w) * f).normalized
        }
        let ka = sin((1 - f) * theta) / s, kb = sin(f * theta) / s
        return Self(x: a.x * ka + b.x * kb, y: a.y * ka + b.y * kb, z: a.z * ka + b.z * kb,
                    w: a.w * ka + b.w * kb).normalized
    }

    /// The rotation matrix rows (row-vector convention).
    var rows: (DecomposedTransform.Vector3, DecomposedTransform.Vector3, DecomposedTransform.Vector3) {
        typealias V = DecomposedTransform.Vector3
        return (V(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                V(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                V(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }
}

// MARK: Virtual key paths (CALayer "Key-Value Coding Extensions")

/// `transform.rotation[.x|.y|.z]`, `transform.scale[.x|.y|.z]` and
/// `transform.translation[.x|.y|.z]`, for any transform-valued property.
/// `rotation` is rotation.z; `scale` reads the mean of the three scales and
/// writes all three; `translation` is a size (x, y). Values are read from the
/// decomposition and written by replacing one part and recomposing.
///
/// Singular matrices (no decomposition, e.g. a zero scale): rotations read 0,
/// translation reads m41…m43 (what the decomposition would give), scales read
/// the lengths of the 3×3 rows. Writing still works: translation sets
/// m41…m43; a scale rescales its row (a zero row takes the direction
/// orthogonal to the other two when they span a plane, else its own axis);
/// a rotation replaces the 3×3 part by the row lengths times that rotation
/// (the old rotation cannot be recovered).
extension Transform3D {
    static func virtualComponentKind(_ path: [Substring]) -> ValueKind? {
        guard let first = path.first, path.count <= 2 else { return nil }
        if path.count == 2, !["x", "y", "z"].contains(path[1]) { return nil }
        switch first {
        case "rotation", "scale": return .number
        case "translation": return path.count == 1 ? .size : .number
        default: return nil
        }
    }

    private static func axis(_ path: [Substring]) -> Substring? { path.count == 2 ? path[1] : nil }

    private var rowLengths: DecomposedTransform.Vector3 {
        typealias V = DecomposedTransform.Vector3
        return V(V(m11, m12, m13).length, V(m21, m22, m23).length, V(m31, m32, m33).length)
    }

    func virtualComponent(_ path: [Substring]) -> Value? {
        guard Transform3D.virtualComponentKind(path) != nil else { return nil }
        let axis = Transform3D.axis(path)
        switch path[0] {
        case "rotation":
            guard let d = DecomposedTransform(self) else { return .number(0) }
            let e = d.eulerAngles
            return .number(axis == "x" ? e.x : axis == "y" ? e.y : e.z)
        case "scale":
            let s = DecomposedTransform(self)?.scale ?? rowLengths
            switch axis {
            case "x": return .number(s.x)
            case "y": return .number(s.y)
            case "z": return .number(s.z)
            default: return .number((s.x + s.y + s.z) / 3)
            }
        default:
            switch axis {
            case "x": return .number(m41)
            case "y": return .number(m42)
            case "z": return .number(m43)
            default: return .size(Size(m41, m42))
            }
        }
    }

    func settingVirtualComponent(_ path: [Substring], to v: Value) -> Transform3D? {
        guard let kind = Transform3D.virtualComponentKind(path), v.kind == kind else { return nil }
        let axis = Transform3D.axis(path)
        if path[0] == "translation", (m14, m24, m34) == (0, 0, 0) || DecomposedTransform(self) == nil {
            // Without perspective (or without a decomposition) the translation
            // is exactly m41…m43: write it directly, leaving no rounding noise.
            var t = self
            switch (axis, v) {
            case ("x", .number(let n)): t.m41 = n
            case ("y", .number(let n)): t.m42 = n
            case ("z", .number(let n)): t.m43 = n
            case (nil, .size(let s)): t.m41 = s.width; t.m42 = s.height
            default: return nil
            }
            return t
        }
        guard var d = DecomposedTransform(self) else { return settingSingular(path[0], axis, v) }
        switch (path[0], axis, v) {
        case ("rotation", "x", .number(let a)): d.setRotation(.x, to: a)
        case ("rotation", "y", .number(let a)): d.setRotation(.y, to: a)
        case ("rotation", _, .number(let a)): d.setRotation(.z, to: a)
        case ("scale", "x", .number(let s)): d.scale.x = s
        case ("scale", "y", .number(let s)): d.scale.y = s
        case ("scale", "z", .number(let s)): d.scale.z = s
        case ("scale", nil, .number(let s)): d.scale = .init(s, s, s)
        case ("translation", "x", .number(let n)): d.translation.x = n
        case ("translation", "y", .number(let n)): d.translation.y = n
        case ("translation", "z", .number(let n)): d.translation.z = n
        case ("translation", nil, .size(let s)): d.translation.x = s.width; d.translation.y = s.height
        default: return nil
        }
        return d.transform
    }

    /// Rotation and scale writes on a matrix with no decomposition.
    private func settingSingular(_ name: Substring, _ axis: Substring?, _ v: Value) -> Transform3D? {
        typealias V = DecomposedTransform.Vector3
        guard case .number(let n) = v else { return nil }
        var rows = [V(m11, m12, m13), V(m21, m22, m23), V(m31, m32, m33)]
        var col4 = [m14, m24, m34]
        let lengths = rows.map(\.length)
        if name == "rotation" {
            let q: DecomposedTransform.Quaternion
            switch axis {
            case "x": q = .init(eulerX: n, y: 0, z: 0)
            case "y": q = .init(eulerX: 0, y: n, z: 0)
            default: q = .init(eulerX: 0, y: 0, z: n)
            }
            let r = q.rows
            rows = [r.0 * lengths[0], r.1 * lengths[1], r.2 * lengths[2]]
        } else {
            let axes: [Int] = axis == "x" ? [0] : axis == "y" ? [1] : axis == "z" ? [2] : [0, 1, 2]
            let zeroRows = lengths.filter { $0 == 0 }.count
            let old = rows
            for i in axes {
                if lengths[i] > 0 {
                    rows[i] = old[i] * (n / lengths[i])
                    col4[i] *= n / lengths[i]
                    continue
                }
                var dir = [V(1, 0, 0), V(0, 1, 0), V(0, 0, 1)][i]
                if zeroRows == 1 {
                    let c = old[(i + 1) % 3].cross(old[(i + 2) % 3])
                    if c.length > 0 { dir = c * (1 / c.length) }
                }
                rows[i] = dir * n
            }
        }
        return Transform3D(m11: rows[0].x, m12: rows[0].y, m13: rows[0].z, m14: col4[0],
                           m21: rows[1].x, m22: rows[1].y, m23: rows[1].z, m24: col4[1],
                           m31: rows[2].x, m32: rows[2].y, m33: rows[2].z, m34: col4[2],
                           m41: m41, m42: m42, m43: m43, m44: m44)
    }
}
