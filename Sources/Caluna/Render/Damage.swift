/// Damage tracking between two renders of one target (RenderTarget.swift).
///
/// Each render walks the presentation tree as the compositor does and keeps,
/// per drawn layer, a fingerprint of what it drew (its render generation, its
/// contents' version, its place on the target, its inherited opacity and
/// flip) and the device pixels it covered. A layer whose fingerprint changed,
/// that appeared or that went away damages its old and new pixels; a change
/// damages the layer's whole subtree (a clip, an opacity or a transform acts
/// on every descendant). A shadow without a shadowPath follows its subtree's
/// pixels, so a change below it damages the shadow too.
///
/// Some layers are drawn as one unit, their subtree not tracked layer by
/// layer: replicators, emitters, transitions, pixel buffers, rasterized
/// layers, and layers whose
/// drawing sizes offscreen work by what the target shows (perspective, 3D
/// rendering contexts, tiled layers). The compositor never skips a unit, and
/// a change to one of the offscreen-sized kinds redraws the whole frame.
struct DamageTracker {
    /// What one layer drew in the last render.
    struct Record {
        /// Held, so its identifier is not reused while the record lives.
        let layer: Layer
        var fingerprint: Fingerprint
        /// The pixels it drew itself (its own shadow included), nil for none.
        var extent: PixelRect?
        /// Itself and everything below it (nil: nothing), for culling.
        var subtree: PixelRect?
        /// The compositor may skip the subtree when `subtree` misses the
        /// region drawn (false when it holds a unit whose drawing counts
        /// against a per-render budget or runs callbacks).
        var cullable: Bool
        /// Sublayers in drawing order (reordering damages them).
        var order: [ObjectIdentifier]
        /// The walk that last found it.
        var seen: UInt64
    }

    struct Fingerprint: Equatable {
        var generation: UInt64
        var contentsVersion: Int
        var device: AffineTransform
        var alpha: Double
        var flipped: Bool
        /// A unit's subtree hash (and the clock, for kinds that change with time).
        var unit: UInt64
    }

    private(set) var records: [ObjectIdentifier: Record] = [:]
    private var walk: UInt64 = 0
    /// Set by `update`: pixels to redraw, and whether only a full redraw is exact.
    private(set) var damage: [PixelRect] = []
    private(set) var needsFullRedraw = false
    private var ticks: Int64 = 0
    /// The target's pixels: the extent of what has no known bounds.
    private var canvasPixels = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// Device pixels of antialiasing and filtering around what a layer draws.
    static let margin = 2.0

    /// Forgets every record (the next update damages everything it finds).
    mutating func reset() { records = [:] }

    /// Walks the presentation tree under `root`, placed by `canvas` (the
    /// target's scale), and finds what changed since the last update.
    mutating func update(root: Layer, canvas: AffineTransform, pixels: PixelRect, ticks: Int64) {
        walk &+= 1
        self.ticks = ticks
        canvasPixels = pixels
        damage = []
        needsFullRedraw = false
        _ = visit(root, parentSpace: nil, ctm: canvas, alpha: 1, flipped: false, forced: false)
        // What was drawn before and not now.
        for (id, r) in records where r.seen != walk {
            if let e = r.extent { damage.append(e) }
            records[id] = nil
        }
    }

    /// The subtree extent and cullability the compositor checks before
    /// drawing `layer` (nil: draw it).
    func cullExtent(of layer: Layer) -> PixelRect?? {
        guard let r = records[ObjectIdentifier(layer)], r.seen == walk, r.cullable else { return nil }
        return .some(r.subtree)
    }

    private struct Visit {
        var changed = false
        var subtree: PixelRect? = nil
        var cullable = true
    }

    /// Mirrors Compositor.draw(_:parentSpace:inheritedOpacity:).
    private mutating func visit(_ layer: Layer, parentSpace: AffineTransform?, ctm: AffineTransform, alpha: Double,
                                flipped: Bool, forced: Bool) -> Visit {
        // Not drawn: a change if it was drawn last time (its record goes at
        // the end of the update, damaging what it drew).
        let gone = Visit(changed: records[ObjectIdentifier(layer)] != nil)
        guard !layer.hidden else { return gone }
        guard let m = layer.affineToSuperlayer(parentSpace: parentSpace) else {
            // Placed by a homography: drawn offscreen at a resolution set by
            // the visible part. Recorded as covering everything, so the frame
            // after it damages all it may have drawn.
            needsFullRedraw = true
            records[ObjectIdentifier(layer)] = Record(layer: layer, fingerprint: Fingerprint(generation: 0, contentsVersion: 0,
                device: .identity, alpha: .nan, flipped: false, unit: 0), extent: canvasPixels, subtree: canvasPixels,
                cullable: false, order: [], seen: walk)
            return Visit(changed: true, subtree: canvasPixels, cullable: false)
        }
        let opacity = layer.drawnOpacity
        guard opacity > 0, m.a * m.d - m.b * m.c != 0 else { return gone }
        let device = m.concatenating(ctm), a = alpha * opacity
        if layer.isDamageUnit { return visitUnit(layer, device: device, alpha: a, flipped: flipped, forced: forced) }

        let id = ObjectIdentifier(layer)
        let old = records[id]
        // A shadow drawn from the content is blurred over the layer's visual
        // extent, which counts sublayers that draw nothing (opacity 0): any
        // change below changes it.
        let shadowHash = layer.castsShadow && layer.shadowPath == nil ? DamageTracker.subtreeHash(layer) : 0
        let fingerprint = Fingerprint(generation: layer.renderGeneration, contentsVersion: layer.contents?.version ?? -1,
                                      device: device, alpha: a, flipped: flipped, unit: shadowHash)
        let changed = forced || old?.fingerprint != fingerprint
        var result = Visit(changed: changed)
        let innerFlipped = layer.geometryFlipped ? !flipped : flipped
        var content = PixelRect(covering: device.apply(layer.ownExtent), margin: DamageTracker.margin)
        if let mask = layer.maskLayer {
            let v = visit(mask, parentSpace: layer.maskSpaceAffine, ctm: device, alpha: 1, flipped: innerFlipped, forced: changed)
            result.changed = result.changed || v.changed
            result.cullable = result.cullable && v.cullable
        }
        var order: [ObjectIdentifier] = []
        if !(layer.masksToBounds && layer.bounds.isEmpty) && !layer.sublayers.isEmpty {
            let subs = layer.sublayersInDrawingOrder
            order = subs.map(ObjectIdentifier.init)
            let reordered = old.map { DamageTracker.reordered(from: $0.order, to: order) } ?? false
            let space = layer.sublayerSpaceAffine
            for s in subs {
                let v = visit(s, parentSpace: space, ctm: device, alpha: a, flipped: innerFlipped, forced: changed || reordered)
                result.changed = result.changed || v.changed
                result.cullable = result.cullable && v.cullable
                if let e = v.subtree { content = content.map { $0.union(e) } ?? e }
            }
        }
        var extent = PixelRect(covering: device.apply(layer.ownExtent), margin: DamageTracker.margin)
        var shadowed = false
        if layer.castsShadow, let shadow = shadowExtent(of: layer, device: device, content: content) {
            extent = extent.map { $0.union(shadow) } ?? shadow
            shadowed = layer.shadowPath == nil
        }
        // A shadow drawn from the content changes with anything below it.
        if changed || (shadowed && result.changed) {
            if let e = old?.extent { damage.append(e) }
            if let e = extent { damage.append(e) }
        }
        switch (extent, content) {
        case let (e?, c?): result.subtree = e.union(c)
        case let (e, c): result.subtree = e ?? c
        }
        records[id] = Record(layer: layer, fingerprint: fingerprint, extent: extent, subtree: result.subtree,
                             cullable: result.cullable, order: order, seen: walk)
        return result
    }

    /// A layer drawn as one unit: its fingerprint hashes the whole subtree.
    private mutating func visitUnit(_ layer: Layer, device: AffineTransform, alpha: Double, flipped: Bool,
                                    forced: Bool) -> Visit {
        let id = ObjectIdentifier(layer)
        let old = records[id]
        var hash = DamageTracker.subtreeHash(layer)
        if layer.changesWithTime { hash = DamageTracker.mix(hash, UInt64(bitPattern: ticks)) }
        let fingerprint = Fingerprint(generation: layer.renderGeneration, contentsVersion: layer.contents?.version ?? -1,
                                      device: device, alpha: alpha, flipped: flipped, unit: hash)
        let changed = forced || old?.fingerprint != fingerprint || layer.redrawsEveryRender
        if layer.sizesOffscreenByClip { needsFullRedraw = true }
        var extent = layer.unitExtent.flatMap { PixelRect(covering: device.apply($0), margin: DamageTracker.margin) }
        // Unbounded: the whole frame now, and damaged whole by the next change.
        if extent == nil { needsFullRedraw = true; extent = canvasPixels }
        if changed {
            if let e = old?.extent { damage.append(e) }
            if let e = extent { damage.append(e) }
        }
        records[id] = Record(layer: layer, fingerprint: fingerprint, extent: extent, subtree: extent, cullable: false,
                             order: [], seen: walk)
        return Visit(changed: changed, subtree: extent, cullable: false)
    }

    /// The device pixels a layer's shadow covers.
    private func shadowExtent(of layer: Layer, device: AffineTransform, content: PixelRect?) -> PixelRect? {
        let source: PixelRect?
        if let path = layer.shadowPath {
            source = PixelRect(covering: device.apply(path.controlPointBounds), margin: DamageTracker.margin)
        } else {
            source = content
        }
        guard let source else { return nil }
        let sigma = layer.shadowRadius * DamageTracker.linearScale(device)
        // The blur's reach, the resampling pixel at a fractional offset, and antialiasing.
        let margin = GaussianBlur.margin(sigma: sigma) + 1 + Int(DamageTracker.margin)
        let dx = layer.shadowOffset.width * device.a + layer.shadowOffset.height * device.c
        let dy = layer.shadowOffset.width * device.b + layer.shadowOffset.height * device.d
        guard let shifted = PixelRect(covering: source.rect.offsetBy(dx, dy)) else { return nil }
        return shifted.grown(by: margin)
    }

    /// The scale a shadow's radius is blurred at (as the compositor takes it).
    static func linearScale(_ m: AffineTransform) -> Double { abs(m.a * m.d - m.b * m.c).squareRoot() }

    /// True when the sublayers kept in both orders changed their relative order.
    static func reordered(from old: [ObjectIdentifier], to new: [ObjectIdentifier]) -> Bool {
        guard old != new else { return false }
        var index: [ObjectIdentifier: Int] = [:]
        for (i, id) in old.enumerated() { index[id] = i }
        var last = -1
        for id in new {
            guard let i = index[id] else { continue }
            if i < last { return true }
            last = i
        }
        return false
    }

    static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        (h ^ v) &* 0x100_0000_01b3 &+ 0x9E37_79B9_7F4A_7C15
    }

    /// Every layer below `layer` (masks included) with its generation and
    /// contents version, in order: any change changes the hash.
    static func subtreeHash(_ layer: Layer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var stack = [layer]
        while let l = stack.popLast() {
            h = mix(h, UInt64(UInt(bitPattern: ObjectIdentifier(l).hashValue)))
            h = mix(h, l.renderGeneration)
            h = mix(h, UInt64(bitPattern: Int64(l.contents?.version ?? -1)))
            if let m = l.maskLayer { stack.append(m) }
            stack.append(contentsOf: l.sublayers)
        }
        return h
    }
}

extension Layer {
    /// What the layer draws itself in its own space, before its shadow:
    /// bounds (background, border), contents, a shape's stroke.
    var ownExtent: Rect {
        var r = bounds.standardized
        if let placed = contentsPlacement { r = r.union(placed) }
        if let shape = shapeExtent { r = r.union(shape) }
        return r
    }

    /// Drawn as one unit by damage tracking (its subtree is not tracked layer
    /// by layer): see DamageTracker.
    var isDamageUnit: Bool {
        switch kind {
        case .replicatorLayer, .emitterLayer, .tiledLayer, .pixelBufferLayer, .transformLayer: return true
        default:
            // A raster cache is drawn filtered: a change anywhere below spreads
            // by a cache texel, so the whole cached extent is damaged.
            return transitionFrame != nil || !sublayersAreFlat || shouldRasterize
        }
    }

    /// A unit whose offscreen work is sized by the target's clip: only a full
    /// redraw gives the same pixels.
    var sizesOffscreenByClip: Bool {
        switch kind {
        case .tiledLayer, .transformLayer: return true
        case .replicatorLayer:
            return !(sublayersAreFlat && state.specialised.value.replicator.instanceTransform.isAffine)
                || !DamageTracker.subtreeIsFlat(self)
        default: return !sublayersAreFlat
        }
    }

    /// What a unit draws in its own space, its shadow included; nil when unbounded.
    var unitExtent: Rect? {
        switch kind {
        case .emitterLayer: return masksToBounds ? bounds.standardized : nil
        case .pixelBufferLayer:
            // Frames come during the render: only a placement that does not
            // depend on the frame's size is known before it.
            guard masksToBounds || contentsGravity == .resize || contentsGravity == .resizeAspect else { return nil }
            return visualExtent(depth: 1)
        default:
            return transitionFrame != nil && !masksToBounds ? nil : visualExtent(depth: 1)
        }
    }

    /// Units whose pixels move with the clock alone: particles, tile fades,
    /// delayed replicator instances.
    var changesWithTime: Bool {
        switch kind {
        case .emitterLayer, .tiledLayer: return true
        case .replicatorLayer: return state.specialised.value.replicator.instanceDelay != 0
        default: return transitionFrame != nil
        }
    }

    /// A pixel buffer layer without retained backing asks for a frame at
    /// every render.
    var redrawsEveryRender: Bool {
        kind == .pixelBufferLayer && !state.specialised.value.pixelBuffer.retainedBacking
    }
}

extension DamageTracker {
    /// True when nothing below `layer` is placed in 3D.
    static func subtreeIsFlat(_ layer: Layer) -> Bool {
        var stack = layer.sublayers
        while let l = stack.popLast() {
            if l.kind.preservesDepth || !l.transform.isAffine || !l.sublayersAreFlat { return false }
            stack.append(contentsOf: l.sublayers)
        }
        return true
    }
}
