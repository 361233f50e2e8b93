/// Mapping a convex polygon through a plane projection without the artefacts
/// of a naive perspective divide: the polygon is clipped in homogeneous
/// coordinates (before dividing by w) against the near plane w > 0, so
/// geometry behind the viewer is dropped rather than mirrored, and
/// optionally against a viewport, so the result stays finite and small.
public enum ProjectiveClipping {
    /// The projected polygon and whether the near plane cut it.
    public struct Result {
        public var points: [Point]
        public var cutByNearPlane: Bool
    }

    private struct Homogeneous { var x, y, w: Double }

    /// `polygon` (convex, in the source plane) through `m`, clipped to w ≥ a
    /// small positive bound and, when given, to `viewport` (target space).
    public static func project(_ polygon: [Point], through m: PlaneProjection, within viewport: Rect? = nil) -> Result {
        var poly = polygon.map { p in
            Homogeneous(x: p.x * m.m11 + p.y * m.m21 + m.m41,
                        y: p.x * m.m12 + p.y * m.m22 + m.m42,
                        w: p.x * m.m14 + p.y * m.m24 + m.m44)
        }
        guard poly.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.w.isFinite }) else {
            return Result(points: [], cutByNearPlane: false)
        }
        // The near bound is relative to the polygon's own w scale: anything
        // closer to the eye than a millionth of the farthest point is dropped.
        let farthest = poly.map(\.w).max() ?? 0
        guard farthest > 0 else { return Result(points: [], cutByNearPlane: true) }
        let near = farthest * 1e-6
        let cut = !poly.allSatisfy { $0.w >= near }
        if cut { poly = clip(poly) { $0.w - near } }
        if let v = viewport {
            poly = clip(poly) { $0.x - v.minX * $0.w }
            poly = clip(poly) { v.maxX * $0.w - $0.x }
            poly = clip(poly) { $0.y - v.minY * $0.w }
            poly = clip(poly) { v.maxY * $0.w - $0.y }
        }
        return Result(points: poly.map { Point($0.x / $0.w, $0.y / $0.w) }, cutByNearPlane: cut)
    }

    /// Twice the signed area (shoelace); positive for a polygon listed
    /// clockwise on a y-down screen (TL, TR, BR, BL).
    public static func signedArea(_ p: [Point]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return s
    }

    /// One Sutherland–Hodgman pass: keeps the part where `distance` ≥ 0.
    private static func clip(_ poly: [Homogeneous], _ distance: (Homogeneous) -> Double) -> [Homogeneous] {
        guard !poly.isEmpty else { return poly }
        var out: [Homogeneous] = []
        out.reserveCapacity(poly.count + 2)
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let da = distance(a), db = distance(b)
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) {
                let t = da / (da - db)
                out.append(Homogeneous(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, w: a.w + (b.w - a.w) * t))
            }
        }
        return out
    }
}
