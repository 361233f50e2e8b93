import CCairo
import Glibc

/// Draws a layer tree into a bitmap with cairo, per layer in DESIGN §4's
/// order: shadow < background < contents < sublayers (stably sorted by
/// zPosition) < border; then the masksToBounds clip (rounded by
/// cornerRadius) and the mask; then opacity — as one group when
/// allowsGroupOpacity (or shouldRasterize) is set and more than one thing is
/// drawn, otherwise multiplied into each descendant.
struct Compositor {
    let cr: OpaquePointer
    var stats = FrameStats()
    /// An odd number of geometryFlipped ancestors: images are drawn
    /// counter-flipped so they stay upright (spec D16).
    var contentsFlipped = false
    /// Recursion guard: masks of masks are not bounded by the tree depth limit.
    var depth = 0
    /// Offscreen buffers are charged here while they live (MemoryLedger.swift).
    let memory = MemoryLedger.current
    /// One charge per offscreen group alive, innermost last (groups nest).
    var groupCharges: [MemoryCharge] = []
    /// Layers this render's replicators draw, counted against
    /// `ReplicatorLayerState.maximumReplicatedLayers` (ReplicatorRendering.swift).
    var replicatedLayers = 0
    /// Replicators being drawn: inside one, the copies are counted already.
    var replicating = 0
    /// Emitter particles this render has gathered, against
    /// `maximumParticlesPerRender` (EmitterRendering.swift).
    var particlesGathered = 0
    /// A partial redraw's region and what damage tracking knows of each
    /// layer's pixels (RenderTarget.swift); nil: draw everything.
    var partial: PartialRedraw? = nil
    /// Blurred shadow masks kept between renders (nil: blur every time).
    var effects: EffectCache? = nil
    /// The damage records of the target drawn into (nil: none), which name
    /// a layer's shadow in the effect cache's by-layer index.
    var records: DamageTracker? = nil
    /// Clips of masksToBounds layers above the layer being drawn.
    var clips = 0

    init(target: Image, scale: Double) {
        self.init(cairo: cairo_create(target.surface))
        target.endClearShortcut()
        cairo_scale(cr, scale, scale)
    }

    init(cairo: OpaquePointer) { cr = cairo }

    /// Draws the tree under `root` at `scale` on a fresh bitmap; `stats`
    /// carries the counters in and out.
    static func drawTree(_ root: Layer, on image: Image, scale: Double, effects: EffectCache?,
                         records: DamageTracker? = nil, stats: inout FrameStats) throws {
        var compositor = Compositor(target: image, scale: scale)
        defer { compositor.finish() }
        compositor.effects = effects
        compositor.records = records
        compositor.stats = stats
        defer { stats = compositor.stats }
        try compositor.draw(root, parentSpace: nil, inheritedOpacity: 1)
    }

    func finish() { cairo_destroy(cr) }

    /// A compositor for an offscreen pass of this render (raster cache,
    /// projected layer): it carries the render's state on; `absorb` takes
    /// its counters back.
    func offscreen(_ surface: OpaquePointer) -> Compositor {
        var sub = Compositor(cairo: cairo_create(surface))
        sub.contentsFlipped = contentsFlipped
        sub.depth = depth
        sub.replicatedLayers = replicatedLayers
        sub.replicating = replicating
        sub.particlesGathered = particlesGathered
        sub.effects = effects
        return sub
    }

    /// Takes back what an offscreen pass counted.
    mutating func absorb(_ sub: Compositor) {
        stats.absorb(sub.stats)
        replicatedLayers = sub.replicatedLayers
        particlesGathered = sub.particlesGathered
    }

    /// Draws `layer` placed in the current space (canvas space for a root);
    /// `parentSpace` is the superlayer's (2D) sublayer space, passed down so
    /// no layer has to look its superlayer up.
    mutating func draw(_ layer: Layer, parentSpace: AffineTransform?, inheritedOpacity: Double) throws {
        // A subtree an earlier band draws too is counted there, once; inside
        // it, a subtree no earlier band draws is counted here (`kept`) —
        // unless inside a shadow's content group, which bands draw whole.
        if partial?.suspended == 0, let quiet = partial?.quiet, let earlier = partial!.drawnByEarlierBand(layer),
           quiet != earlier {
            let outer = stats, outerKept = partial!.kept
            stats = FrameStats()
            partial!.quiet = earlier
            if earlier { partial!.kept = FrameStats() }
            defer {
                if earlier {
                    // Leaving a subtree counted elsewhere: only what counted inside it stays.
                    stats = outer
                    stats.absorb(partial!.kept)
                    partial!.kept = outerKept
                } else {
                    partial!.kept.absorb(stats)
                    stats = outer
                }
                partial!.quiet = quiet
            }
            return try drawCounted(layer, parentSpace: parentSpace, inheritedOpacity: inheritedOpacity)
        }
        try drawCounted(layer, parentSpace: parentSpace, inheritedOpacity: inheritedOpacity)
    }

    private mutating func drawCounted(_ layer: Layer, parentSpace: AffineTransform?, inheritedOpacity: Double) throws {
        stats.layersVisited += 1
        if stats.layersVisited & 63 == 0 { try Interruption.check() }
        guard !layer.hidden else { return }
        if partial?.skips(layer) == true { return }
        guard let m = layer.affineToSuperlayer(parentSpace: parentSpace) else {
            var g = layer.geometryTransform
            if let f = parentSpace { g = g.concatenating(Transform3D(f)) }
            return try drawProjected(layer, g.planeProjection, inheritedOpacity: inheritedOpacity)
        }
        try draw(layer, placedBy: m, inheritedOpacity: inheritedOpacity)
    }

    /// Draws `layer` placed in the current space by a plane projection:
    /// cairo's affine path when it is affine, the homography path otherwise.
    mutating func draw(_ layer: Layer, placement: PlaneProjection, inheritedOpacity: Double) throws {
        if let m = placement.affine {
            try draw(layer, placedBy: m, inheritedOpacity: inheritedOpacity)
        } else {
            try drawProjected(layer, placement, inheritedOpacity: inheritedOpacity)
        }
    }

    /// Draws `layer` placed in the current space by the affine map `m`.
    mutating func draw(_ layer: Layer, placedBy m: AffineTransform, inheritedOpacity: Double) throws {
        let opacity = layer.drawnOpacity
        guard opacity > 0 else { return }
        // A degenerate (edge-on or zero-scale) layer draws nothing.
        guard m.a * m.d - m.b * m.c != 0 else { return }
        try checkNesting()
        try NativeStack.check("render")
        let b = layer.bounds
        let alpha = inheritedOpacity * opacity

        // Leaf fast path: an axis-aligned layer with nothing but a background
        // is one rectangle in the parent's space (no save/transform/restore).
        if layer.sublayers.isEmpty, m.b == 0, m.c == 0, layer.transitionFrame == nil, layer.kind == .layer,
           layer.drawsOnlyBackground {
            fillBackground(layer, Rect(b.minX * m.a + m.tx, b.minY * m.d + m.ty, b.width * m.a, b.height * m.d),
                           alpha: alpha)
            return
        }

        cairo_save(cr)
        defer { cairo_restore(cr) }
        var cm = m.cairoMatrix
        cairo_transform(cr, &cm)
        depth += 1
        defer { depth -= 1 }

        if layer.shouldRasterize, !layer.kind.preservesDepth, try drawRasterized(layer, alpha: alpha) { return }
        // A transform layer applies its opacity to each sublayer (Apple's rule).
        try drawBody(layer, alpha: alpha, asGroup: layer.drawsAsOpacityGroup(opacity))
    }

    /// The body at `alpha`: faded as one offscreen group, or with the alpha
    /// multiplied into each part.
    mutating func drawBody(_ layer: Layer, alpha: Double, asGroup: Bool) throws {
        guard asGroup else { return try drawBody(layer, alpha: alpha) }
        try pushGroup()
        try drawBody(layer, alpha: 1)
        popGroupToSource()
        cairo_paint_with_alpha(cr, alpha)
    }

    /// The layer in its own space without its opacity: clip, mask, shadow
    /// and G(L) (background, contents, sublayers, border).
    mutating func drawBody(_ layer: Layer, alpha: Double) throws {
        // A transform layer draws only its sublayers: its clip, mask, shadow,
        // background, contents and border are ignored (Apple's rules).
        if layer.kind.preservesDepth { return try drawSublayers(of: layer, alpha: alpha) }
        if layer.masksToBounds { clipToRoundedBounds(layer) }
        clips += layer.masksToBounds ? 1 : 0
        defer { clips -= layer.masksToBounds ? 1 : 0 }
        if let mask = layer.maskLayer {
            try pushGroup()
            try drawShadowed(layer, alpha: alpha)
            let content = popGroup()
            defer { endGroup(content) }
            try pushGroup()
            let saved = (contentsFlipped, layer.geometryFlipped)
            if saved.1 { contentsFlipped.toggle() }
            try draw(mask, parentSpace: layer.maskSpaceAffine, inheritedOpacity: 1)
            contentsFlipped = saved.0
            let maskPattern = popGroup()
            defer { endGroup(maskPattern) }
            cairo_set_source(cr, content)
            cairo_mask(cr, maskPattern)
        } else {
            try drawShadowed(layer, alpha: alpha)
        }
    }

    /// G(L) with its shadow beneath it.
    mutating func drawShadowed(_ layer: Layer, alpha: Double) throws {
        guard layer.castsShadow else { return try drawLayerContent(layer, alpha: alpha) }
        try drawWithShadow(layer, alpha: alpha)
    }

    /// G(L) and its shadow. Out of line: its locals stay off the native stack
    /// of every level of a deep tree without shadows.
    @inline(never)
    private mutating func drawWithShadow(_ layer: Layer, alpha: Double) throws {
        let shadowAlone = seesOnlyShadow(of: layer)
        if let path = layer.shadowPath {
            try drawShadow(of: path, layer: layer, alpha: alpha)
            return shadowAlone ? () : try drawLayerContent(layer, alpha: alpha)
        }
        // A band that sees only the shadow paints it from the mask kept for
        // the layer, or blurs the content again but leaves it out (it misses
        // the band): either way it writes nothing outside the band.
        if shadowAlone, drawShadowFromCache(of: layer) { return }
        let direct = groupCharges.isEmpty
        // The shadow follows the alpha of everything the layer draws (all
        // of it, in a partial redraw too: the blur reaches across).
        cairo_save(cr)
        if let e = layer.visualExtent() {
            cairo_rectangle(cr, e.minX, e.minY, e.width, e.height)
            cairo_clip(cr)
        }
        try pushGroup()
        do {
            partial?.suspended += 1
            defer { partial?.suspended -= 1 }
            try drawLayerContent(layer, alpha: alpha)
        }
        let content = popGroup()
        cairo_restore(cr)
        defer { endGroup(content) }
        try drawShadow(of: content, layer: layer, direct: direct)
        if shadowAlone { return }
        cairo_set_source(cr, content)
        cairo_paint(cr)
    }

    /// A band that an earlier band counts `layer` for (RenderBands.swift),
    /// whose region misses what the layer's body and sublayers draw: only
    /// its shadow reaches the band.
    func seesOnlyShadow(of layer: Layer) -> Bool {
        guard let p = partial, p.quiet, p.suspended == 0, let r = p.tracker.record(of: layer) else { return false }
        guard let content = r.content else { return true }
        return !p.region.contains { $0.intersects(content) }
    }

    /// What a layer shows in its own space: background, contents, sublayers
    /// (or the transition in progress), border.
    mutating func drawLayerContent(_ layer: Layer, alpha: Double) throws {
        if let t = layer.transitionFrame {
            try drawTransition(t, over: layer, alpha: alpha)
        } else {
            try drawContent(layer, alpha: alpha)
        }
        drawBorder(layer, alpha: alpha)
    }

    /// Background, contents, then sublayers.
    mutating func drawContent(_ layer: Layer, alpha: Double) throws {
        let b = layer.bounds
        if layer.cornerRadius > 0 && layer.maskedCorners != [] {
            fillRoundedBackground(layer, alpha: alpha)
        } else {
            fillBackground(layer, b, alpha: alpha)
        }
        try drawContents(layer, alpha: alpha)
        if layer.kind.drawsOwnContent { try drawKindContent(layer, alpha: alpha) }
        if !(layer.masksToBounds && b.isEmpty) { try drawSublayers(of: layer, alpha: alpha) }
    }

    /// The sublayers in the layer's own space: in zPosition order when they
    /// are flat, otherwise as a depth-sorted 3D rendering context.
    mutating func drawSublayers(of layer: Layer, alpha: Double) throws {
        guard !layer.sublayers.isEmpty else { return }
        let saved = contentsFlipped
        if layer.geometryFlipped { contentsFlipped.toggle() }
        defer { contentsFlipped = saved }
        if layer.kind == .replicatorLayer { return try drawReplicatedSublayers(of: layer, alpha: alpha) }
        guard layer.sublayersAreFlat else { return try drawRenderingContext(of: layer, alpha: alpha) }
        let space = layer.sublayerSpaceAffine
        // A partial redraw looks at the damage records of the sublayers drawn
        // (in drawing order) and touches only the layers that reach the region.
        if let p = partial, let children = p.drawnSublayers(of: layer) {
            for c in children where p.reaches(c) { try draw(c.layerRef, parentSpace: space, inheritedOpacity: alpha) }
            return
        }
        for sub in layer.sublayersInDrawingOrder {
            try draw(sub, parentSpace: space, inheritedOpacity: alpha)
        }
    }

    /// The background colour over `rect` (current space). Antialiasing stays
    /// at cairo's default except around layers that turn it off.
    mutating func fillBackground(_ layer: Layer, _ rect: Rect, alpha: Double) {
        guard !rect.isEmpty else { return }
        if cutsBoxes {
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            // A box on whole pixels (the root's background, the largest
            // fill) has no partly covered pixel, so cutting it to a partial
            // redraw's region changes nothing; a fractional one is drawn whole.
            let device = deviceRect(of: rect)
            if m.xy == 0 && m.yx == 0 && device.isIntegral {
                return fillBackground(layer, alpha: alpha, fill: { $0.fillBoxInRegion(device) })
            }
        }
        fillBackground(layer, alpha: alpha) {
            cairo_rectangle($0, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
        }
    }

    /// The background colour over the shape `addPath` adds (current space).
    mutating func fillBackground(_ layer: Layer, alpha: Double, addPath: (OpaquePointer) -> Void) {
        fillBackground(layer, alpha: alpha) { c in
            addPath(c.cr)
            cairo_fill(c.cr)
        }
    }

    /// The background colour set up (antialiasing as the layer asks) around `fill`.
    private mutating func fillBackground(_ layer: Layer, alpha: Double, fill: (Compositor) -> Void) {
        guard let bg = layer.backgroundColor?.clamped, bg.alpha > 0 else { return }
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
        cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha * alpha)
        fill(self)
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT) }
        stats.layersDrawn += 1
    }

    /// Masks and projected layers recurse outside the tree-depth limit.
    func checkNesting() throws {
        guard depth < 2 * Layer.maximumTreeDepth else {
            throw CalunaError(.treeError, "render: masks nest deeper than \(2 * Layer.maximumTreeDepth) levels")
        }
    }

    /// Starts an offscreen group bounded by the current clip, counting it
    /// and charging its pixels until the group ends (`popGroupToSource`, or
    /// `popGroup` … `endGroup`); refused past the memory limit.
    mutating func pushGroup() throws {
        var pixels = 0
        if let d = deviceClip(), d.width * d.height < 1e12 {
            pixels = Int(d.width.rounded(.up) * d.height.rounded(.up))
        }
        groupCharges.append(try MemoryCharge(memory, pixels * 4 + 256, "render: an offscreen group of \(pixels) pixels"))
        stats.offscreenPasses += 1
        stats.offscreenPixels += pixels
        cairo_push_group(cr)
    }

    /// Ends the innermost group as the source (its pixels go once the
    /// source changes, so its charge goes now).
    mutating func popGroupToSource() {
        cairo_pop_group_to_source(cr)
        if !groupCharges.isEmpty { groupCharges.removeLast() }
    }

    /// Ends the innermost group as a pattern, still charged until `endGroup`.
    func popGroup() -> OpaquePointer { cairo_pop_group(cr)! }

    /// Frees a pattern `popGroup` returned and releases its charge.
    mutating func endGroup(_ pattern: OpaquePointer) {
        cairo_pattern_destroy(pattern)
        if !groupCharges.isEmpty { groupCharges.removeLast() }
    }
}

extension Layer {
    /// The opacity as drawn: clamped to 0…1.
    var drawnOpacity: Double { min(max(opacity, 0), 1) }

    /// Nothing but (at most) a background rectangle: the leaf fast path.
    var drawsOnlyBackground: Bool {
        contents == nil && borderWidth <= 0 && !castsShadow && maskLayer == nil && !shouldRasterize
            && (cornerRadius <= 0 || backgroundColor == nil)
    }

    var castsShadow: Bool {
        min(max(shadowOpacity, 0), 1) > 0 && (shadowColor?.alpha ?? 0) > 0
    }

    /// Faded at `opacity` as one offscreen group rather than part by part
    /// (the two round differently): a transform layer applies its opacity
    /// to each sublayer (Apple's rule).
    func drawsAsOpacityGroup(_ opacity: Double) -> Bool {
        opacity < 1 && (allowsGroupOpacity || shouldRasterize) && drawsOverlappingParts && !kind.preservesDepth
    }

    /// More than one thing is drawn, so per-part opacity would differ from
    /// group opacity where they overlap.
    var drawsOverlappingParts: Bool {
        var parts = 0
        if backgroundColor != nil { parts += 1 }
        if contents != nil { parts += 1 }
        if borderWidth > 0 { parts += 1 }
        if castsShadow { parts += 1 }
        if transitionFrame != nil { parts += 2 }
        // A kind's own content (a shape's fill and stroke, text, particles)
        // may overlap itself and the background.
        if kind.drawsOwnContent { parts += 2 }
        if maskLayer != nil { parts += 2 }
        parts += sublayers.contains { !$0.hidden && $0.opacity > 0 } ? 2 : 0
        return parts > 1
    }
}
