import CCairo
import Glibc

/// CAReplicatorLayer's drawing (spec ch.6 §2.8): instance k of every
/// sublayer is placed by the sublayer's own geometry, then instanceTransform^k
/// about the replicator's bounds centre, then the replicator's sublayer space.
/// Order: for each instance k = 0…N−1, all sublayers in zPosition order
/// (instance 0 at the back). Each instance is tinted by its modulation colour
/// as one group (instanceColor + k·offsets, clamped), and sees its sublayers'
/// animations at media time t − k·instanceDelay. With 3D content (or a 3D
/// instanceTransform) all instances form one depth-sorted 3D context in the
/// replicator's plane, tinted per layer.
extension Compositor {
    mutating func drawReplicatedSublayers(of layer: Layer, alpha: Double) throws {
        let r = layer.state.specialised.value.replicator
        let n = r.count
        guard n > 0 else { return }
        let flat = layer.sublayersAreFlat && r.instanceTransform.isAffine
        if r.preservesDepth && !flat {
            throw CalunaError(.notSupported, "CAReplicatorLayer: preservesDepth = true with 3D content (a 3D instanceTransform or sublayer transform) is not supported; set it to false (the instances are then flattened into the replicator)")
        }
        // The copies of the whole nesting are counted before any is drawn;
        // replicators drawn inside this one are part of that count.
        if replicating == 0 { try chargeReplicas(of: layer) }
        replicating += 1
        defer { replicating -= 1 }
        let now = layer.engine?.mediaTime ?? 0
        let animated = r.instanceDelay != 0 && layer.sublayers.contains { Compositor.hasAnimations($0) }
        var members: [(ContextLayer, Int)] = []
        // A tint's group is bounded by the instance's extent: the sublayers'
        // own extents are the same for every instance (unless delayed copies).
        var placed: [(Layer, Rect)]?? = nil
        for (k, instance) in layer.replicatorInstanceSpaces.enumerated() {
            if k & 63 == 0 { try Interruption.check() }
            var subs = layer.sublayersInDrawingOrder
            if animated && k > 0 {
                subs = try subs.map { try Compositor.delayedCopy(of: $0, at: now - Double(k) * r.instanceDelay, level: 0) }
            }
            if flat, let m = instance.planeProjection.affine {
                let tint = r.modulation(k)
                var extent: Rect? = nil
                if tint != .white {
                    if placed == nil || (animated && k > 0) { placed = Layer.placedExtents(subs) }
                    extent = placed!.flatMap { Layer.instanceExtent($0, m) }
                }
                try tinted(tint, within: extent) {
                    for sub in subs { try $0.draw(sub, parentSpace: m, inheritedOpacity: alpha) }
                }
            } else {
                for sub in subs {
                    stats.layersVisited += 1
                    guard !sub.hidden else { continue }
                    guard !sub.kind.preservesDepth else {
                        throw CalunaError(.notSupported, "CAReplicatorLayer: a CATransformLayer sublayer with 3D instances is not supported")
                    }
                    let m = sub.geometryTransform.concatenating(instance)
                    members.append((ContextLayer(layer: sub, matrix: m, opacity: 1, depth: Compositor.depth(of: sub.bounds, m)), k))
                }
            }
        }
        guard !members.isEmpty else { return }
        let quads = members.count <= DepthOrder.exactLimit ? members.map { DepthOrder.Quad($0.0.layer.bounds, $0.0.matrix) } : []
        for i in DepthOrder.order(depths: members.map(\.0.depth), quads: quads) {
            let (m, k) = members[i]
            if !m.layer.doubleSided && !Compositor.facesViewer(m.layer.bounds, m.matrix, flipped: layer.geometryFlipped) {
                continue
            }
            try tinted(r.modulation(k)) {
                try $0.draw(m.layer, placement: m.matrix.planeProjection, inheritedOpacity: alpha)
            }
        }
    }

    /// Draws `body`'s output multiplied by `tint` (straight alpha): every
    /// premultiplied channel times tint·alpha, alpha times alpha. White draws
    /// directly; an alpha-only tint is a faded group; a colour tint
    /// multiplies the group's pixels with pixman (a component-alpha mask).
    /// `extent` (current space), when known, bounds the group.
    mutating func tinted(_ tint: Color, within extent: Rect? = nil, _ body: (inout Compositor) throws -> Void) throws {
        if tint == .white { return try body(&self) }
        guard tint.alpha > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let e = extent {
            cairo_rectangle(cr, e.minX - 1, e.minY - 1, e.width + 2, e.height + 2)
            cairo_clip(cr)
        }
        try pushGroup()
        do { try body(&self) } catch {
            endGroup(popGroup())
            throw error
        }
        if tint.red < 1 || tint.green < 1 || tint.blue < 1, let target = cairo_get_group_target(cr) {
            Compositor.multiply(target, by: tint)
            popGroupToSource()
            cairo_paint(cr)
        } else {
            popGroupToSource()
            cairo_paint_with_alpha(cr, tint.alpha)
        }
    }

    /// Counts the layers drawing a top-level replicator's instances draws
    /// (`Layer.replicatedLayerCount`) against the render's budget, and
    /// refuses the frame before drawing any when it is spent.
    mutating func chargeReplicas(of layer: Layer) throws {
        let copies = layer.replicatedLayerCount
        let total = replicatedLayers.addingReportingOverflow(copies)
        let limit = ReplicatorLayerState.maximumReplicatedLayers
        guard !total.overflow, total.partialValue <= limit else {
            let n = copies == Int.max ? "more than \(Int.max)" : "\(copies)"
            throw CalunaError.invalid("ReplicatorLayer: one render would draw \(n) replicated layers (at most \(limit) per render, every replicator's instances times its sublayers' layers, nested replicators multiplying); lower instanceCount or nest fewer replicators")
        }
        replicatedLayers = total.partialValue
    }

    /// Multiplies an image surface's premultiplied pixels by (r·a, g·a, b·a, a).
    static func multiply(_ surface: OpaquePointer, by c: Color) {
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
              let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
        guard let dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                                 cairo_image_surface_get_stride(surface)) else { return }
        func u16(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
        var white = pixman_color_t(red: 0xffff, green: 0xffff, blue: 0xffff, alpha: 0xffff)
        var factor = pixman_color_t(red: u16(c.red * c.alpha), green: u16(c.green * c.alpha), blue: u16(c.blue * c.alpha), alpha: u16(c.alpha))
        let src = pixman_image_create_solid_fill(&white), mask = pixman_image_create_solid_fill(&factor)
        defer { pixman_image_unref(dst); if let src { pixman_image_unref(src) }; if let mask { pixman_image_unref(mask) } }
        guard let src, let mask else { return }
        pixman_image_set_component_alpha(mask, 1)
        // IN_REVERSE with a component-alpha mask: dest = dest × mask, per channel.
        pixman_image_composite32(PIXMAN_OP_IN_REVERSE, src, mask, dst, 0, 0, 0, 0, 0, 0, w, h)
        cairo_surface_mark_dirty(surface)
    }

    /// True when the presentation layer's model or a descendant has animations.
    static func hasAnimations(_ p: Layer) -> Bool {
        if let m = p.modelLayerReference, !m.attachedAnimations.isEmpty { return true }
        if let mask = p.maskLayer, hasAnimations(mask) { return true }
        return p.sublayers.contains { hasAnimations($0) }
    }

    /// A presentation copy of `p`'s subtree evaluated at media time `t`
    /// (instanceDelay): each model layer's committed state with its
    /// animations sampled at its local time for `t`. Animations already
    /// removed on completion no longer contribute.
    static func delayedCopy(of p: Layer, at t: Double, level: Int) throws -> Layer {
        try RenderBand.requireCallingThread()
        guard level < Layer.maximumTreeDepth else {
            throw CalunaError(.treeError, "render: replicated layers nest deeper than \(Layer.maximumTreeDepth) levels")
        }
        guard let model = p.modelLayerReference else { return p }
        let c = Layer(engine: p.engine, kind: p.kind, charged: false)  // lives for this render only
        c.modelLayerReference = model
        c.state = model.committedState
        c.kindCache = p.kindCache
        let local = model.localTime(atMediaTime: t)
        for a in model.attachedAnimations where a.stamped {
            let s = a.animation.sample(parentTime: local)
            if s.contributes { try a.animation.contribute(to: c, s) }
        }
        c.sublayers = try p.sublayers.map { try delayedCopy(of: $0, at: t, level: level + 1) }
        for s in c.sublayers { s.superlayer = c }
        if let mask = p.maskLayer {
            c.maskLayer = try delayedCopy(of: mask, at: t, level: level + 1)
            c.maskLayer?.maskOwner = c
        }
        return c
    }
}

extension Layer {
    /// The layers drawing a replicator's instances draws: instanceCount times
    /// the layers of its visible sublayer subtrees (masks included), each
    /// nested replicator counted the same way, so nesting multiplies; Int.max
    /// when that overflows. One walk of the subtree (not of the copies),
    /// without recursion: trees may be 1024 levels deep.
    var replicatedLayerCount: Int {
        // A layer draws 1 + its mask's layers + its sublayers' (times
        // instanceCount for a replicator); `subs` and `mask` gather them.
        struct Visit { let layer: Layer; var next = 0; var subs = 0; var mask = 0 }
        var stack = [Visit(layer: self)]
        while true {
            let top = stack.count - 1, l = stack[top].layer, i = stack[top].next
            let children = l.sublayers.count + (l.maskLayer != nil && top > 0 ? 1 : 0)
            if i < children {
                stack[top].next += 1
                let child = i < l.sublayers.count ? l.sublayers[i] : l.maskLayer!
                if !child.hidden { stack.append(Visit(layer: child)) }
                continue
            }
            let v = stack.removeLast()
            let n = l.kind == .replicatorLayer ? l.state.specialised.value.replicator.count : 1
            let product = n.multipliedReportingOverflow(by: v.subs)
            let inside = product.overflow ? Int.max : product.partialValue
            guard let parent = stack.indices.last else { return inside }   // self: its instances only
            let drawn = Layer.add(Layer.add(inside, v.mask), 1)
            if stack[parent].next > stack[parent].layer.sublayers.count {
                stack[parent].mask = drawn
            } else {
                stack[parent].subs = Layer.add(stack[parent].subs, drawn)
            }
        }
    }

    /// a + b, Int.max when it overflows (counts are never negative).
    private static func add(_ a: Int, _ b: Int) -> Int {
        let r = a.addingReportingOverflow(b)
        return r.overflow ? Int.max : r.partialValue
    }

    /// Where each instance of a replicator places its sublayers: instance k
    /// is instanceTransform^k about the bounds centre, then sublayerTransform.
    var replicatorInstanceSpaces: [Transform3D] {
        let r = state.specialised.value.replicator
        let b = bounds
        let toCentre = Transform3D.translation(-b.midX, -b.midY), fromCentre = Transform3D.translation(b.midX, b.midY)
        let space = sublayerSpaceTransform
        var power = Transform3D.identity
        var spaces: [Transform3D] = []
        spaces.reserveCapacity(r.count)
        for k in 0..<r.count {
            if k > 0 { power = power.concatenating(r.instanceTransform) }
            spaces.append(toCentre.concatenating(power).concatenating(fromCentre).concatenating(space))
        }
        return spaces
    }
}
