import Caluna

// CATransform3D and CGAffineTransform math without an engine (ABI 1.5). A
// CATransform3D is `double m[16]` in row order m11 m12 … m44, a CGAffineTransform
// `double t[6]` a b c d tx ty. Every result is computed by Caluna's Transform3D and
// AffineTransform (one place for the math). The inputs are read before anything
// is written, so an out array may be the same memory as an input.

/// The matrix at `p` (MatrixValue.elementNames.count doubles), all finite; then
/// the call's other arguments `finite` must be finite too.
private func matrix<M: MatrixValue>(_ p: UnsafePointer<Double>?, _ name: String, _: M.Type,
                                    finite others: [(String, Double)] = []) throws -> M {
    guard let p else { throw CalunaError(.invalidArgument, "\(name) is NULL") }
    let names = M.elementNames
    let e = (0..<names.count).map { p[$0] }
    if let i = e.firstIndex(where: { !$0.isFinite }) {
        throw CalunaError(.invalidArgument, "\(name)[\(i)] (\(names[i])) must be finite (got \(e[i]))")
    }
    guard let m = M(elements: e) else { throw CalunaError(.invalidArgument, "\(name) has the wrong number of elements") }
    try finite(others)
    return m
}

/// Runs an engine-less call that writes `count` doubles to `out`. On failure `out`
/// holds what `onFailure` gives (zeros unless it gives something).
private func writing(_ function: String, _ out: UnsafeMutablePointer<Double>?, count: Int,
                     onFailure: () -> [Double]? = { nil }, _ body: () throws -> [Double]) -> Int32 {
    let status = withoutEngine(function) {
        let o = try output(out, "out")
        let r = try body()
        guard r.allSatisfy({ $0.isFinite }) else {
            throw CalunaError(.invalidArgument, "the result is not finite (overflow)")
        }
        for (i, v) in r.enumerated() { o[i] = v }
    }
    if status != CalunaStatus.ok, let out {
        let fallback = onFailure() ?? []
        for i in 0..<count { out[i] = i < fallback.count ? fallback[i] : 0 }
    }
    return status
}

/// A call that writes a matrix.
private func producing<M: MatrixValue>(_ function: String, _ out: UnsafeMutablePointer<Double>?,
                                       _ body: () throws -> M) -> Int32 {
    writing(function, out, count: M.elementNames.count) { try body().elements }
}

/// A call that answers yes (1) or no (0).
private func answering(_ function: String, _ out: UnsafeMutablePointer<Int32>?, _ body: () throws -> Bool) -> Int32 {
    out?.pointee = 0
    return withoutEngine(function) {
        let o = try output(out, "out")
        o.pointee = try body() ? 1 : 0
    }
}

/// The inverse; a singular input leaves out = t (CATransform3DInvert and
/// CGAffineTransformInvert return their argument) and fails.
private func inverting<M: MatrixValue>(_ function: String, _ t: UnsafePointer<Double>?,
                                       _ out: UnsafeMutablePointer<Double>?, _: M.Type) -> Int32 {
    var input: M?
    return writing(function, out, count: M.elementNames.count, onFailure: { input?.elements }) {
        let m = try matrix(t, "t", M.self)
        input = m
        guard let inv = m.inverted() else {
            throw CalunaError(.invalidArgument, "t is not invertible (singular); out is t unchanged")
        }
        return inv.elements
    }
}

// MARK: CATransform3D

@_cdecl("caluna_transform3d_identity")
public func caluna_transform3d_identity(_ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_identity", out) { Transform3D.identity }
}

@_cdecl("caluna_transform3d_make_translation")
public func caluna_transform3d_make_translation(_ tx: Double, _ ty: Double, _ tz: Double,
                                                _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_make_translation", out) {
        try finite([("tx", tx), ("ty", ty), ("tz", tz)])
        return Transform3D.translation(tx, ty, tz)
    }
}

@_cdecl("caluna_transform3d_make_scale")
public func caluna_transform3d_make_scale(_ sx: Double, _ sy: Double, _ sz: Double,
                                          _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_make_scale", out) {
        try finite([("sx", sx), ("sy", sy), ("sz", sz)])
        return Transform3D.scale(sx, sy, sz)
    }
}

@_cdecl("caluna_transform3d_make_rotation")
public func caluna_transform3d_make_rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double,
                                             _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_make_rotation", out) {
        try finite([("angle", angle), ("x", x), ("y", y), ("z", z)])
        return Transform3D.rotation(angle, x, y, z)
    }
}

@_cdecl("caluna_transform3d_translate")
public func caluna_transform3d_translate(_ t: UnsafePointer<Double>?, _ tx: Double, _ ty: Double, _ tz: Double,
                                         _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_translate", out) {
        try matrix(t, "t", Transform3D.self, finite: [("tx", tx), ("ty", ty), ("tz", tz)]).translated(tx, ty, tz)
    }
}

@_cdecl("caluna_transform3d_scale")
public func caluna_transform3d_scale(_ t: UnsafePointer<Double>?, _ sx: Double, _ sy: Double, _ sz: Double,
                                     _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_scale", out) {
        try matrix(t, "t", Transform3D.self, finite: [("sx", sx), ("sy", sy), ("sz", sz)]).scaled(sx, sy, sz)
    }
}

@_cdecl("caluna_transform3d_rotate")
public func caluna_transform3d_rotate(_ t: UnsafePointer<Double>?, _ angle: Double, _ x: Double, _ y: Double,
                                      _ z: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_rotate", out) {
        try matrix(t, "t", Transform3D.self, finite: [("angle", angle), ("x", x), ("y", y), ("z", z)]).rotated(angle, x, y, z)
    }
}

@_cdecl("caluna_transform3d_concat")
public func caluna_transform3d_concat(_ a: UnsafePointer<Double>?, _ b: UnsafePointer<Double>?,
                                      _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_concat", out) {
        try matrix(a, "a", Transform3D.self).concatenating(try matrix(b, "b", Transform3D.self))
    }
}

@_cdecl("caluna_transform3d_invert")
public func caluna_transform3d_invert(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    inverting("caluna_transform3d_invert", t, out, Transform3D.self)
}

@_cdecl("caluna_transform3d_is_identity")
public func caluna_transform3d_is_identity(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    answering("caluna_transform3d_is_identity", out) { try matrix(t, "t", Transform3D.self).isIdentity }
}

@_cdecl("caluna_transform3d_equal")
public func caluna_transform3d_equal(_ a: UnsafePointer<Double>?, _ b: UnsafePointer<Double>?,
                                     _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    answering("caluna_transform3d_equal", out) {
        try matrix(a, "a", Transform3D.self) == matrix(b, "b", Transform3D.self)
    }
}

@_cdecl("caluna_transform3d_is_affine")
public func caluna_transform3d_is_affine(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    answering("caluna_transform3d_is_affine", out) { try matrix(t, "t", Transform3D.self).isAffine }
}

@_cdecl("caluna_transform3d_get_affine")
public func caluna_transform3d_get_affine(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_get_affine", out) { try matrix(t, "t", Transform3D.self).affine }
}

@_cdecl("caluna_transform3d_make_affine")
public func caluna_transform3d_make_affine(_ a: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_transform3d_make_affine", out) { Transform3D(try matrix(a, "a", AffineTransform.self)) }
}

@_cdecl("caluna_transform3d_apply")
public func caluna_transform3d_apply(_ t: UnsafePointer<Double>?, _ x: Double, _ y: Double, _ z: Double,
                                     _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    writing("caluna_transform3d_apply", out, count: 3) {
        let m = try matrix(t, "t", Transform3D.self, finite: [("x", x), ("y", y), ("z", z)])
        guard let p = m.project(x, y, z) else {
            throw CalunaError(.invalidArgument,
                              "the point is at or behind the viewer (w = \(m.homogeneous(x, y, z).w) <= 0) or does not project to finite coordinates")
        }
        return [p.x, p.y, p.z]
    }
}

// MARK: CGAffineTransform

@_cdecl("caluna_affine_identity")
public func caluna_affine_identity(_ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_identity", out) { AffineTransform.identity }
}

@_cdecl("caluna_affine_make_translation")
public func caluna_affine_make_translation(_ tx: Double, _ ty: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_make_translation", out) {
        try finite([("tx", tx), ("ty", ty)])
        return AffineTransform.translation(tx, ty)
    }
}

@_cdecl("caluna_affine_make_scale")
public func caluna_affine_make_scale(_ sx: Double, _ sy: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_make_scale", out) {
        try finite([("sx", sx), ("sy", sy)])
        return AffineTransform.scale(sx, sy)
    }
}

@_cdecl("caluna_affine_make_rotation")
public func caluna_affine_make_rotation(_ angle: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_make_rotation", out) {
        try finite([("angle", angle)])
        return AffineTransform.rotation(angle)
    }
}

@_cdecl("caluna_affine_translate")
public func caluna_affine_translate(_ t: UnsafePointer<Double>?, _ tx: Double, _ ty: Double,
                                    _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_translate", out) {
        try matrix(t, "t", AffineTransform.self, finite: [("tx", tx), ("ty", ty)]).translated(tx, ty)
    }
}

@_cdecl("caluna_affine_scale")
public func caluna_affine_scale(_ t: UnsafePointer<Double>?, _ sx: Double, _ sy: Double,
                                _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_scale", out) {
        try matrix(t, "t", AffineTransform.self, finite: [("sx", sx), ("sy", sy)]).scaled(sx, sy)
    }
}

@_cdecl("caluna_affine_rotate")
public func caluna_affine_rotate(_ t: UnsafePointer<Double>?, _ angle: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_rotate", out) {
        try matrix(t, "t", AffineTransform.self, finite: [("angle", angle)]).rotated(angle)
    }
}

@_cdecl("caluna_affine_concat")
public func caluna_affine_concat(_ a: UnsafePointer<Double>?, _ b: UnsafePointer<Double>?,
                                 _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    producing("caluna_affine_concat", out) {
        try matrix(a, "a", AffineTransform.self).concatenating(try matrix(b, "b", AffineTransform.self))
    }
}

@_cdecl("caluna_affine_invert")
public func caluna_affine_invert(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    inverting("caluna_affine_invert", t, out, AffineTransform.self)
}

@_cdecl("caluna_affine_is_identity")
public func caluna_affine_is_identity(_ t: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    answering("caluna_affine_is_identity", out) { try matrix(t, "t", AffineTransform.self).isIdentity }
}

@_cdecl("caluna_affine_equal")
public func caluna_affine_equal(_ a: UnsafePointer<Double>?, _ b: UnsafePointer<Double>?,
                                _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    answering("caluna_affine_equal", out) {
        try matrix(a, "a", AffineTransform.self) == matrix(b, "b", AffineTransform.self)
    }
}

@_cdecl("caluna_affine_apply_point")
public func caluna_affine_apply_point(_ t: UnsafePointer<Double>?, _ x: Double, _ y: Double,
                                      _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    writing("caluna_affine_apply_point", out, count: 2) {
        let p = try matrix(t, "t", AffineTransform.self, finite: [("x", x), ("y", y)]).apply(Point(x, y))
        return [p.x, p.y]
    }
}

@_cdecl("caluna_affine_apply_rect")
public func caluna_affine_apply_rect(_ t: UnsafePointer<Double>?, _ r: UnsafePointer<Double>?,
                                     _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    writing("caluna_affine_apply_rect", out, count: 4) {
        let m = try matrix(t, "t", AffineTransform.self)
        guard let r else { throw CalunaError(.invalidArgument, "r is NULL") }
        let (x, y, w, h) = (r[0], r[1], r[2], r[3])
        try finite([("r[0] (x)", x), ("r[1] (y)", y), ("r[2] (width)", w), ("r[3] (height)", h)])
        let b = m.apply(Rect(x, y, w, h))
        return [b.origin.x, b.origin.y, b.size.width, b.size.height]
    }
}
