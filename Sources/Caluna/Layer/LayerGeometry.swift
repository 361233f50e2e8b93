/// Derived geometry (ch.3): frame, the layer-to-superlayer mapping, point and
/// rect conversion, containsPoint and hitTest. A layer flattens its subtree
/// into its own plane, so each hop between layers is a plane projection.
extension Layer {
    /// The anchor point in the layer's own (bounds) coordinates.
    public var anchorInBounds: Point {
        Point(bounds.origin.x + anchorPoint.x * bounds.size.width,
              bounds.origin.y + anchorPoint.y * bounds.size.height)
    }

    /// Local space → the superlayer's sublayer space (before the superlayer's
    /// sublayerTransform and geometryFlipped), in 3D (spec ch.5 §1.5):
    /// p ↦ (p − anchor) · transform + (position, zPosition), where the anchor
    /// is (anchorInBounds, anchorPointZ).
    public var geometryTransform: Transform3D {
        let a = anchorInBounds
        return Transform3D.translation(-a.x, -a.y, -anchorPointZ)
            .concatenating(transform)
            .concatenating(.translation(position.x, position.y, zPosition))
    }

    /// How the layer's sublayer space maps into its own space:
    /// sublayerTransform about the anchor point (one vanishing point for all
    /// sublayers, spec ch.5 §1.7), then the flip about the bounds'
    /// horizontal mid-line when geometryFlipped is set.
    public var sublayerSpaceTransform: Transform3D {
        var m = Transform3D.identity
        if sublayerTransform != .identity {
            let a = anchorInBounds
            m = Transform3D.translation(-a.x, -a.y).concatenating(sublayerTransform).concatenating(.translation(a.x, a.y))
        }
        if geometryFlipped { m = m.concatenating(Transform3D(Layer.flip(bounds))) }
        return m
    }

    /// The geometryFlipped flip of `bounds` as a 2D map.
    static func flip(_ bounds: Rect) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: bounds.minY + bounds.maxY)
    }

    /// The space a mask is placed in: the flip alone (masks are not
    /// sublayers, so sublayerTransform does not apply to them).
    var maskSpaceAffine: AffineTransform? { geometryFlipped ? Layer.flip(bounds) : nil }

    /// `sublayerSpaceTransform` as a 2D map, nil when it is the identity. Only
    /// meaningful when `sublayerTransform.isAffine` (the compositor's flat path).
    var sublayerSpaceAffine: AffineTransform? {
        guard geometryFlipped || sublayerTransform != .identity else { return nil }
        return sublayerSpaceTransform.planeProjection.affine
    }

    /// True when every sublayer lands in this layer's plane by a 2D affine map
    /// with depth given by zPosition alone, so plain zPosition order is the
    /// depth order (the compositor's flat path). Otherwise the sublayers form
    /// a 3D rendering context (spec ch.5 §1.8).
    var sublayersAreFlat: Bool {
        sublayerTransform.isAffine && !sublayers.contains { $0.kind.preservesDepth || !$0.transform.isAffine }
    }

    /// `geometryTransform` flattened to 2D, then through `parentSpace` (the
    /// superlayer's sublayer space, if any); nil under perspective.
    /// The identity transform, by far the most common, takes a short path.
    func affineToSuperlayer(parentSpace: AffineTransform?) -> AffineTransform? {
        var m: AffineTransform
        if transform == .identity {
            let a = anchorInBounds
            m = .translation(position.x - a.x, position.y - a.y)
        } else {
            guard let p = geometryTransform.planeProjection.affine else { return nil }
            m = p
        }
        if let f = parentSpace { m = m.concatenating(f) }
        return m
    }

    /// Local 3D space → the superlayer's own 3D space.
    public var toSuperlayer3D: Transform3D {
        var m = geometryTransform
        if let s = superlayer { m = m.concatenating(s.sublayerSpaceTransform) }
        return m
    }

    /// Local plane → the superlayer's own plane (or canvas space for a root).
    public var toSuperlayer: PlaneProjection { toSuperlayer3D.planeProjection }

    /// Local plane → the plane of the nearest ancestor that flattens its
    /// sublayers (transform layers are passed through in 3D), and that ancestor.
    func toFlatteningAncestor() -> (PlaneProjection, Layer?) {
        var m = toSuperlayer3D
        var s = superlayer
        while let cur = s, cur.kind.preservesDepth {
            m = m.concatenating(cur.toSuperlayer3D)
            s = cur.superlayer
        }
        return (m.planeProjection, s)
    }

    /// Local plane → canvas space (the space the root ancestor is placed in).
    public var toCanvas: PlaneProjection {
        var (m, s) = toFlatteningAncestor()
        while let cur = s {
            let (up, next) = cur.toFlatteningAncestor()
            m = m.concatenating(up)
            s = next
        }
        return m
    }

    /// The layer's extent in its superlayer's (sublayer) space: the axis-aligned
    /// box of the transformed bounds. Perspective is ignored (spec D5).
    public var frame: Rect {
        get {
            geometryTransform.affine.apply(bounds)
        }
        set {
            // Spec D5: the setter ignores the transform.
            bounds.size = newValue.size
            position = Point(newValue.origin.x + anchorPoint.x * newValue.size.width,
                             newValue.origin.y + anchorPoint.y * newValue.size.height)
        }
    }

    /// CGAffineTransform view of `transform` (setAffineTransform: /
    /// affineTransform). A transform that is not affine reads as the
    /// identity, as in Core Animation (not its affine part).
    public var affineTransform: AffineTransform {
        get { let t = transform; return t.isAffine ? t.affine : .identity }
        set { transform = Transform3D(newValue) }
    }

    private func canvasMapping(_ layer: Layer?) throws -> PlaneProjection {
        guard let layer else { return .identity }
        guard layer.rootAncestor === rootAncestor else {
            throw CalunaError(.treeError, "convert: the two layers are not in the same layer tree")
        }
        return layer.toCanvas
    }

    /// convertPoint:fromLayer: — `p` is in `layer`'s space (nil: canvas space).
    public func convert(_ p: Point, from layer: Layer?) throws -> Point {
        let there = try canvasMapping(layer)
        guard let back = toCanvas.inverted(), let q = there.concatenating(back).apply(p) else {
            throw CalunaError(.invalidArgument, "convert: the point has no image in the target layer (singular or edge-on transform)")
        }
        return q
    }

    /// convertPoint:toLayer:
    public func convert(_ p: Point, to layer: Layer?) throws -> Point {
        let there = try canvasMapping(layer)
        guard let back = there.inverted(), let q = toCanvas.concatenating(back).apply(p) else {
            throw CalunaError(.invalidArgument, "convert: the point has no image in the target layer (singular or edge-on transform)")
        }
        return q
    }

    /// convertRect:fromLayer: — the bounding box of the converted corners (spec D25).
    public func convert(_ r: Rect, from layer: Layer?) throws -> Rect {
        Rect.bounding(try r.corners.map { try convert($0, from: layer) })
    }

    public func convert(_ r: Rect, to layer: Layer?) throws -> Rect {
        Rect.bounding(try r.corners.map { try convert($0, to: layer) })
    }

    /// containsPoint: — `p` in the layer's own space, against bounds, half-open.
    public func contains(_ p: Point) -> Bool { bounds.contains(p) }

    /// hitTest: — `p` in the superlayer's space. Returns the deepest visible
    /// layer containing it, the last sublayer first: array order, not depth,
    /// and back-facing layers are hit too (spec ch.5 §1.11; zPosition is
    /// ignored). Transform layers are passed through to their sublayers in
    /// 3D. Nil when the point is outside this layer's bounds (spec D3) or
    /// maps to a point behind the viewer.
    ///
    /// A depth-first search with its own stack, not native recursion: a tree at
    /// the depth limit must fit a host thread's small stack.
    public func hitTest(_ p: Point) -> Layer? {
        // One entered layer: the point in the plane its sublayers are tested in,
        // the map of enclosing transform layers, the next sublayer to test (the
        // last first), and whether the layer itself is hit when none of them is
        // (false for transform layers, which pass through).
        struct Visit { let layer: Layer; let point: Point; let outer: Transform3D; var next: Int; let hitsSelf: Bool }
        // `outer` maps the superlayer's space into the plane `p` lies in.
        func enter(_ l: Layer, _ p: Point, _ outer: Transform3D) -> Visit? {
            guard !l.hidden else { return nil }
            let m = l.toSuperlayer3D.concatenating(outer)
            if l.kind.preservesDepth {
                return Visit(layer: l, point: p, outer: m, next: l.sublayers.count - 1, hitsSelf: false)
            }
            guard let inverse = m.planeProjection.inverted(), let local = inverse.apply(p), l.contains(local) else { return nil }
            return Visit(layer: l, point: local, outer: .identity, next: l.sublayers.count - 1, hitsSelf: true)
        }
        guard let first = enter(self, p, .identity) else { return nil }
        var stack = [first]
        while var top = stack.popLast() {
            if top.next >= 0 {
                let sub = top.layer.sublayers[top.next]
                top.next -= 1
                stack.append(top)
                if let v = enter(sub, top.point, top.outer) { stack.append(v) }
            } else if top.hitsSelf {
                return top.layer
            }
        }
        return nil
    }
}
