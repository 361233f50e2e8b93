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
    /// geometryFlipped): p ↦ position + transform·(p − anchor), in 3D.
    public var geometryTransform: Transform3D {
        let a = anchorInBounds
        return Transform3D.translation(-a.x, -a.y, -anchorPointZ)
            .concatenating(transform)
            .concatenating(.translation(position.x, position.y, zPosition + anchorPointZ))
    }

    /// How the layer's sublayer space maps into its own space: the flip about
    /// the bounds' horizontal mid-line when geometryFlipped is set.
    public var sublayerSpaceTransform: Transform3D {
        guard geometryFlipped else { return .identity }
        return Transform3D.scale(1, -1).concatenating(.translation(0, bounds.minY + bounds.maxY))
    }

    /// The flip geometryFlipped applies to the sublayer space, as a 2D map.
    var sublayerSpaceAffine: AffineTransform? {
        guard geometryFlipped else { return nil }
        return AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: bounds.minY + bounds.maxY)
    }

    /// `geometryTransform` flattened to 2D, then through `parentSpace` (the
    /// superlayer's sublayer-space flip, if any); nil under perspective.
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

    /// Local plane → the superlayer's own plane (or canvas space for a root).
    public var toSuperlayer: PlaneProjection {
        var m = geometryTransform
        if let s = superlayer { m = m.concatenating(s.sublayerSpaceTransform) }
        return m.planeProjection
    }

    /// Local plane → canvas space (the space the root ancestor is placed in).
    public var toCanvas: PlaneProjection {
        var m = toSuperlayer
        var l = superlayer
        while let cur = l { m = m.concatenating(cur.toSuperlayer); l = cur.superlayer }
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

    /// CGAffineTransform view of `transform` (setAffineTransform: / affineTransform).
    public var affineTransform: AffineTransform {
        get { transform.affine }
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
    /// layer containing it, the last sublayer first (zPosition is ignored);
    /// nil when the point is outside this layer's bounds (spec D3).
    public func hitTest(_ p: Point) -> Layer? {
        guard !hidden, let inverse = toSuperlayer.inverted(), let local = inverse.apply(p) else { return nil }
        guard contains(local) else { return nil }
        for sub in sublayers.reversed() {
            if let hit = sub.hitTest(local) { return hit }
        }
        return self
    }
}
