/// The painter's order of a 3D rendering context (spec ch.5 §1.9 [D]).
///
/// Layers are first sorted by the depth of their centres. That alone is
/// exact for layers parallel to the screen (listing 15.3's grid) but not for
/// turned ones: two faces of an off-centre cube can share a centre depth
/// while one hides the other. So for contexts of up to `exactLimit` layers,
/// each overlapping pair is also ordered by Newell's plane test, done in
/// post-projective space (x/w, y/w, z/w), where perspective has become an
/// orthographic view along z: a layer wholly behind the other's plane is
/// drawn first. Those constraints are merged into the centre order by a
/// topological sort; pairs the test cannot decide (intersecting layers) and
/// cycles keep the centre order. Intersecting layers are not split.
enum DepthOrder {
    /// Contexts larger than this use centre depths alone (the pair test is
    /// quadratic).
    static let exactLimit = 64

    /// One layer's quad in post-projective space, nil where a corner is at
    /// or behind the eye.
    struct Quad {
        let points: [(x: Double, y: Double, z: Double)]
        let box: (minX: Double, minY: Double, maxX: Double, maxY: Double)

        init?(_ bounds: Rect, _ m: Transform3D) {
            var pts: [(x: Double, y: Double, z: Double)] = []
            for c in bounds.corners {
                let w = c.x * m.m14 + c.y * m.m24 + m.m44
                guard w > 0 else { return nil }
                let p = ((c.x * m.m11 + c.y * m.m21 + m.m41) / w, (c.x * m.m12 + c.y * m.m22 + m.m42) / w,
                         (c.x * m.m13 + c.y * m.m23 + m.m43) / w)
                guard p.0.isFinite, p.1.isFinite, p.2.isFinite else { return nil }
                pts.append(p)
            }
            points = pts
            box = (pts.map(\.x).min()!, pts.map(\.y).min()!, pts.map(\.x).max()!, pts.map(\.y).max()!)
        }

        func overlaps(_ o: Quad) -> Bool {
            box.minX < o.box.maxX && o.box.minX < box.maxX && box.minY < o.box.maxY && o.box.minY < box.maxY
        }

        /// +1 when every point of `o` is on the viewer's side of this quad's
        /// plane, −1 when every point is behind it, 0 otherwise (or when the
        /// plane is edge-on or degenerate).
        func side(of o: Quad) -> Int {
            let p0 = points[0], p1 = points[1], p3 = points[3]
            let u = (p1.x - p0.x, p1.y - p0.y, p1.z - p0.z), v = (p3.x - p0.x, p3.y - p0.y, p3.z - p0.z)
            var n = (u.1 * v.2 - u.2 * v.1, u.2 * v.0 - u.0 * v.2, u.0 * v.1 - u.1 * v.0)
            let len = (n.0 * n.0 + n.1 * n.1 + n.2 * n.2).squareRoot()
            guard len > 0, len.isFinite, abs(n.2) > 1e-9 * len else { return 0 }
            if n.2 < 0 { n = (-n.0, -n.1, -n.2) }
            let scale = max(abs(box.maxX - box.minX), abs(box.maxY - box.minY), 1)
            let eps = 1e-7 * len * scale
            var front = 0, behind = 0
            for q in o.points {
                let s = n.0 * (q.x - p0.x) + n.1 * (q.y - p0.y) + n.2 * (q.z - p0.z)
                if s > eps { front += 1 } else if s < -eps { behind += 1 }
            }
            if behind == 0 && front > 0 { return 1 }
            if front == 0 && behind > 0 { return -1 }
            return 0
        }
    }

    /// Drawing order (indices into `depths`/`quads`), far to near.
    static func order(depths: [Double], quads: [Quad?]) -> [Int] {
        let centre = depths.indices.sorted { depths[$0] != depths[$1] ? depths[$0] < depths[$1] : $0 < $1 }
        let n = depths.count
        guard n > 1, n <= exactLimit else { return centre }
        // before[j] holds the layers that must be drawn before j.
        var before = [[Int]](repeating: [], count: n)
        var constrained = false
        for a in 0..<n {
            guard let qa = quads[a] else { continue }
            for b in (a + 1)..<n {
                guard let qb = quads[b], qa.overlaps(qb) else { continue }
                // b relative to a's plane, then a relative to b's plane.
                var aFirst: Bool? = nil
                switch qa.side(of: qb) {
                case 1: aFirst = true
                case -1: aFirst = false
                default:
                    switch qb.side(of: qa) {
                    case 1: aFirst = false
                    case -1: aFirst = true
                    default: break
                    }
                }
                guard let first = aFirst else { continue }
                if first { before[b].append(a) } else { before[a].append(b) }
                constrained = true
            }
        }
        guard constrained else { return centre }
        // Kahn's algorithm, always taking the earliest layer of the centre
        // order that is free; a cycle releases the earliest remaining one.
        var waiting = before.map(\.count)
        var after = [[Int]](repeating: [], count: n)
        for j in 0..<n { for i in before[j] { after[i].append(j) } }
        var done = [Bool](repeating: false, count: n)
        var result: [Int] = []
        result.reserveCapacity(n)
        while result.count < n {
            let free = centre.first { !done[$0] && waiting[$0] == 0 } ?? centre.first { !done[$0] }!
            done[free] = true
            result.append(free)
            for j in after[free] where !done[j] { waiting[j] -= 1 }
        }
        return result
    }
}
