/// What a layer can draw, in its own space: the compositor clips shadow
/// groups to it, sizes replicator groups and projected offscreens by it, and
/// damage tracking (Damage.swift) places it on the target. Pure geometry of
/// the presentation state: no cairo context.
extension Layer {
    /// Where the contents image is drawn (points), nil without contents.
    var contentsPlacement: Rect? {
        contents.flatMap { Compositor.contentsGeometry(self, $0)?.dest }
    }

    /// What the layer draws itself in its own space, before its shadow:
    /// bounds (background, border), contents, a shape's stroke (which can
    /// reach outside the bounds, ShapeRendering.swift).
    var ownExtent: Rect {
        var r = bounds.standardized
        if let placed = contentsPlacement { r = r.union(placed) }
        if let shape = shapeExtent { r = r.union(shape) }
        return r
    }

    /// What a layer can draw, in its own space: bounds, placed contents and
    /// sublayers (clipped by masksToBounds), plus its shadow; nil when a
    /// perspective sublayer makes it unknown.
    func visualExtent(depth: Int = 0) -> Rect? {
        var r = ownExtent
        if !masksToBounds {
            guard depth < 64 else { return nil }
            if kind == .replicatorLayer {   // every instance, not the sublayers once
                guard let e = replicatedExtent else { return nil }
                r = r.union(e)
            } else if sublayersAreFlat {
                let space = sublayerSpaceAffine
                for s in sublayers where !s.hidden {
                    guard let m = s.affineToSuperlayer(parentSpace: space), let e = s.visualExtent(depth: depth + 1) else { return nil }
                    r = r.union(m.apply(e))
                }
            } else {
                guard Layer.extend(&r, with: sublayers, outer: sublayerSpaceTransform, depth: depth + 1) else { return nil }
            }
            if let t = transitionFrame {
                // The new content and the snapshot, each where the slide has them.
                let (old, new) = t.offsets(in: bounds)
                r = r.union(bounds).offsetBy(new.x, new.y)
                if let snapshot = t.transition.snapshot {
                    guard let e = snapshot.visualExtent(depth: depth + 1) else { return nil }
                    r = r.union(e.offsetBy(old.x, old.y))
                }
            }
        }
        if depth > 0 && castsShadow {
            let grow = 3 * shadowRadius + 1
            let shadow = (shadowPath?.controlPointBounds ?? r)
                .offsetBy(shadowOffset.width, shadowOffset.height).insetBy(-grow, -grow)
            r = r.union(shadow)
        }
        return r
    }

    /// Adds the projected extents of 3D-placed sublayers (transform layers
    /// passed through); false when one reaches the eye's plane (unbounded).
    private static func extend(_ r: inout Rect, with layers: [Layer], outer: Transform3D, depth: Int) -> Bool {
        guard depth < 64 else { return false }
        for s in layers where !s.hidden {
            let m = s.geometryTransform.concatenating(outer)
            if s.kind.preservesDepth {
                guard Layer.extend(&r, with: s.sublayers, outer: s.sublayerSpaceTransform.concatenating(m), depth: depth + 1) else { return false }
                continue
            }
            guard let e = s.visualExtent(depth: depth) else { return false }
            let p = m.planeProjection
            var corners: [Point] = []
            for c in e.corners {
                guard let q = p.apply(c) else { return false }
                corners.append(q)
            }
            r = r.union(Rect.bounding(corners))
        }
        return true
    }

    /// The box every instance's sublayers cover in the replicator's space,
    /// nil when unbounded or not affine. Each sublayer's extent is taken once
    /// and placed per instance, so nested replicators add, not multiply.
    var replicatedExtent: Rect? {
        guard let placed = Layer.placedExtents(sublayers) else { return nil }
        var box = Rect.zero
        for space in replicatorInstanceSpaces {
            guard let m = space.planeProjection.affine, let e = Layer.instanceExtent(placed, m) else { return nil }
            box = box.union(e)
        }
        return box
    }

    /// The visible sublayers with what each draws in its own space (its
    /// shadow included), nil when one is unbounded.
    static func placedExtents(_ subs: [Layer]) -> [(Layer, Rect)]? {
        var out: [(Layer, Rect)] = []
        for s in subs where !s.hidden {
            guard let e = s.visualExtent(depth: 1) else { return nil }
            out.append((s, e))
        }
        return out
    }

    /// The box one instance's sublayers cover in the current space, nil when
    /// not affine (the group is then as large as the clip).
    static func instanceExtent(_ placed: [(Layer, Rect)], _ m: AffineTransform) -> Rect? {
        var box: Rect? = nil
        for (s, e) in placed {
            guard let a = s.affineToSuperlayer(parentSpace: m) else { return nil }
            let q = a.apply(e)
            box = box.map { $0.union(q) } ?? q
        }
        return box ?? .zero
    }
}
