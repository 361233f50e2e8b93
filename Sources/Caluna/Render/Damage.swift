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
/// layers, tiled layers, transform layers and 3D rendering contexts. The
/// compositor never skips a unit (its drawing may run callbacks or count
/// against a per-render budget); a unit without known bounds, or a layer
/// placed by a perspective homography, redraws the whole frame.
///
/// Unchanged subtrees in unchanged places are passed over (each presentation
/// layer counts the changes below it), so a frame costs what changed.
final class DamageTracker {
    /// What one layer drew in the last render of this tracker's target. Kept
    /// on the layer (`Layer.damageRecord`), so finding it costs no lookup; a
    /// layer holds the record of one tracker at a time (Engine.render(into:)
    /// makes a target that lost its records redraw in full).
    final class Record {
        unowned(unsafe) let owner: DamageTracker
        @WeakLink var layer: Layer?
        /// The layer, without reference counting: only read while the layer
        /// is known to live (the compositor, right after the walk that kept
        /// the record in its parent's list).
        unowned(unsafe) let layerRef: Layer
        var fingerprint: Fingerprint
        /// `layer.subtreeGeneration` when it was recorded.
        var subtreeGeneration: UInt64 = 0
        /// The pixels it drew itself (its own shadow included), nil for none.
        var extent: PixelRect? = nil
        /// Itself and everything below it (nil: nothing), for culling.
        var subtree: PixelRect? = nil
        /// What its body draws (its shadow left out), and that with everything
        /// below: a region that misses `content` but meets `subtree` sees
        /// only the layer's own shadow (Compositor.seesOnlyShadow).
        var own: PixelRect? = nil
        var content: PixelRect? = nil
        /// The compositor may skip the subtree when `subtree` misses the
        /// region drawn (false when it holds a unit whose drawing counts
        /// against a per-render budget or runs callbacks).
        var cullable = true
        /// The records below: sublayers in drawing order, then the mask.
        var children: [Record] = []
        var mask: Record? = nil
        /// Holds a unit that changes with the clock or at every render: the
        /// walk cannot pass over it.
        var live = false
        /// Its subtree (itself included) changes with the clock / at every
        /// render, as of `fingerprint.unit` (a unit, or a layer whose content
        /// casts a shadow).
        var timedBelow = false, everyRenderBelow = false

        /// The subtree summary as recorded (the hash is the fingerprint's).
        var summary: Summary {
            Summary(hash: fingerprint.unit, timed: timedBelow, everyRender: everyRenderBelow)
        }
        /// The layer it was recorded under (a layer that moved to another
        /// parent keeps the record its new parent made).
        var parent: ObjectIdentifier?

        /// Takes `subtree`, `cullable` and `live` from `extent` and the
        /// records below, as of `layer`'s changes now.
        func summarize(_ layer: Layer) {
            subtree = extent
            content = own
            cullable = mask?.cullable ?? true
            live = mask?.live ?? false
            for c in children {
                if let e = c.subtree {
                    subtree = subtree.map { $0.union(e) } ?? e
                    content = content.map { $0.union(e) } ?? e
                }
                cullable = cullable && c.cullable
                live = live || c.live
            }
            subtreeGeneration = layer.subtreeGeneration
        }

        /// It draws nothing but its background, an axis-aligned box on whole
        /// device pixels (which a partial redraw cuts to its region).
        var fillsOnlyWholePixels: Bool {
            let d = fingerprint.device
            guard let l = layer, l.drawsOnlyBackground, d.b == 0, d.c == 0 else { return false }
            return d.apply(l.bounds).isIntegral
        }

        init(owner: DamageTracker, layer: Layer, fingerprint: Fingerprint, parent: ObjectIdentifier?) {
            self.owner = owner
            self.layer = layer
            layerRef = layer
            self.fingerprint = fingerprint
            self.parent = parent
        }
    }

    struct Fingerprint: Equatable {
        var generation: UInt64
        var contentsVersion: Int
        var device: AffineTransform
        var alpha: Double
        var flipped: Bool
        /// A unit's subtree hash (a content-shadowed layer's too).
        var unit: UInt64
        /// The clock, for units that change with it (0 for others).
        var ticks: Int64
        /// Drawn as a unit: switching between unit and layer by layer is a change.
        var isUnit: Bool
        /// Faded as one group: whether it is depends on the sublayers shown,
        /// and switching changes how every pixel of it rounds.
        var grouped = false
    }

    private var root: Record? = nil
    /// The root layer's record as of the last update (band planning reads it).
    var rootRecord: Record? { root }
    /// Set by `update`: pixels to redraw, and whether only a full redraw is exact.
    private(set) var damage: [PixelRect] = []
    private(set) var needsFullRedraw = false
    /// Changes whenever an update finds damage (or the records are reset):
    /// the extents the records hold are those of the last change.
    private(set) var version: UInt64 = 0
    private var ticks: Int64 = 0
    /// The target's pixels: the extent of what has no known bounds.
    private var canvasPixels = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// Device pixels of antialiasing and filtering around what a layer draws.
    static let margin = 2.0

    deinit { reset() }

    /// Forgets every record (the next update damages everything it finds).
    func reset() {
        if let r = root { drop(r) }
        root = nil
        version &+= 1
    }

    /// Removes a record tree from its layers without damage.
    private func drop(_ r: Record) {
        var stack = [r]
        while let x = stack.popLast() {
            if let l = x.layer, l.damageRecord === x { l.damageRecord = nil }
            stack += x.children
            if let m = x.mask { stack.append(m) }
        }
    }

    /// This tracker's record of `layer`, if it has one.
    @inline(__always) func record(of layer: Layer) -> Record? {
        guard let r = layer.damageRecord, r.owner === self else { return nil }
        return r
    }

    /// Walks the presentation tree under `rootLayer`, placed by `canvas` (the
    /// target's scale), and finds what changed since the last update. An
    /// unchanged subtree in an unchanged place is passed over: the cost
    /// follows what changed, not the tree's size.
    func update(root rootLayer: Layer, canvas: AffineTransform, pixels: PixelRect, ticks: Int64) {
        self.ticks = ticks
        canvasPixels = pixels
        damage = []
        needsFullRedraw = false
        if let old = root, old.layer !== rootLayer { forget(old, under: nil) }
        let v = visit(rootLayer, parent: nil, parentSpace: nil, ctm: canvas, alpha: 1, flipped: false, forced: false)
        root = v.record
        if !v.drawn, let r = record(of: rootLayer) { forget(r, under: nil) }
        if !damage.isEmpty || needsFullRedraw { version &+= 1 }
    }

    private struct Visit {
        var drawn = true
        var changed = false
        var record: Record? = nil
    }

    /// Drops the record of a layer no longer drawn under `parent` and those
    /// below it, damaging what they drew (records a new parent made this
    /// walk stay).
    private func forget(_ r: Record, under parent: ObjectIdentifier?) {
        var stack = [(r, parent)]
        while let (x, p) = stack.popLast() {
            guard x.parent == p, x.layer.map({ $0.damageRecord === x }) ?? true else { continue }
            if let l = x.layer { l.damageRecord = nil }
            if let e = x.extent { damage.append(e) }
            let id = x.layer.map(ObjectIdentifier.init)
            stack += x.children.map { ($0, id) }
            if let m = x.mask { stack.append((m, id)) }
            x.children = []
            x.mask = nil
        }
    }

    /// Mirrors Compositor.draw(_:parentSpace:inheritedOpacity:).
    private func visit(_ layer: Layer, parent: ObjectIdentifier?, parentSpace: AffineTransform?, ctm: AffineTransform,
                       alpha: Double, flipped: Bool, forced: Bool) -> Visit {
        let old = record(of: layer)
        let gone = Visit(drawn: false, changed: old != nil, record: old)
        guard !layer.hidden else { return gone }
        // A tree too deep for this thread's stack (or placed by a homography,
        // drawn offscreen at a resolution set by the visible part) is recorded
        // as covering everything: a full redraw, where the compositor's own
        // stack check refuses the tree cleanly.
        let m = NativeStack.hasRoom ? layer.affineToSuperlayer(parentSpace: parentSpace) : nil
        guard let m else {
            needsFullRedraw = true
            let r = fresh(old, layer, Fingerprint(generation: 0, contentsVersion: 0, device: .identity, alpha: .nan,
                                                   flipped: false, unit: 0, ticks: 0, isUnit: true), parent)
            r.extent = canvasPixels
            r.subtree = canvasPixels
            r.content = canvasPixels
            r.cullable = false
            r.live = true
            return Visit(changed: true, record: r)
        }
        let opacity = layer.drawnOpacity
        guard opacity > 0, m.a * m.d - m.b * m.c != 0 else { return gone }
        let device = m.concatenating(ctm), a = alpha * opacity
        if isUnit(layer, old) {
            return visitUnit(layer, old: old, parent: parent, device: device, alpha: a, flipped: flipped, forced: forced)
        }
        // A shadow drawn from the content is blurred over the layer's visual
        // extent, which counts sublayers that draw nothing (opacity 0): any
        // change below changes it.
        let casts = layer.castsShadow && layer.shadowPath == nil
        var fingerprint = Fingerprint(generation: layer.renderGeneration, contentsVersion: layer.contents?.version ?? -1,
                                      device: device, alpha: a, flipped: flipped, unit: old?.fingerprint.unit ?? 0, ticks: 0,
                                      isUnit: false)
        fingerprint.grouped = layer.drawsAsOpacityGroup(opacity)
        let below = old?.subtreeGeneration != layer.subtreeGeneration
        var summary = old?.summary
        if casts && (below || old == nil) { summary = DamageTracker.summary(of: layer) }
        // The shadow is blurred from what the subtree draws now.
        if casts, let summary {
            fingerprint.unit = summary.hash
            if summary.timed { fingerprint.ticks = ticks }
        }
        let changed = forced || old?.fingerprint != fingerprint || (casts && summary?.everyRender == true)
        if let old, !changed, old.parent == parent {
            // Nothing here or below changed, and nothing below moves with the clock.
            if !below && !old.live { return Visit(record: old) }
            // Only some sublayers (or the mask) changed: visit just those.
            if let v = visitChanged(layer, old) { return v }
        }
        layer.clearChangedChildren()

        let oldExtent = old?.extent, oldChildren = old?.children ?? [], oldMask = old?.mask
        let id = ObjectIdentifier(layer)
        let r = fresh(old, layer, fingerprint, parent)
        r.timedBelow = casts && summary?.timed == true
        r.everyRenderBelow = casts && summary?.everyRender == true
        var anyChanged = changed
        let innerFlipped = layer.geometryFlipped ? !flipped : flipped
        let own = PixelRect(covering: device.apply(layer.ownExtent), margin: DamageTracker.margin)
        var content = own
        r.mask = nil
        if let maskLayer = layer.maskLayer {
            let v = visit(maskLayer, parent: id, parentSpace: layer.maskSpaceAffine, ctm: device, alpha: 1, flipped: innerFlipped,
                          forced: changed)
            anyChanged = anyChanged || v.changed
            if v.drawn, let mr = v.record {
                r.mask = mr
            } else if let mr = v.record {
                forget(mr, under: id)
            }
        }
        if let om = oldMask, om !== r.mask { forget(om, under: id) }
        var children: [Record] = []
        if !(layer.masksToBounds && layer.bounds.isEmpty) && !layer.sublayers.isEmpty {
            let subs = layer.sublayersInDrawingOrder
            let reordered = !oldChildren.isEmpty && DamageTracker.reordered(from: oldChildren, to: subs)
            let space = layer.sublayerSpaceAffine
            children.reserveCapacity(subs.count)
            for s in subs {
                let v = visit(s, parent: id, parentSpace: space, ctm: device, alpha: a, flipped: innerFlipped,
                              forced: changed || reordered)
                anyChanged = anyChanged || v.changed
                guard let cr = v.record else { continue }
                guard v.drawn else { forget(cr, under: id); continue }
                children.append(cr)
                if let e = cr.subtree { content = content.map { $0.union(e) } ?? e }
            }
        }
        // Sublayers that left (or are no longer drawn here).
        if !oldChildren.isEmpty && !(oldChildren.count == children.count && zip(oldChildren, children).allSatisfy { $0 === $1 }) {
            let kept = Set(children.map(ObjectIdentifier.init))
            for c in oldChildren where !kept.contains(ObjectIdentifier(c)) { forget(c, under: id) }
        }
        var extent = own
        if layer.castsShadow, let shadow = shadowExtent(of: layer, device: device, content: content) {
            extent = extent.map { $0.union(shadow) } ?? shadow
        }
        // A shadow drawn from the content changes with anything below it.
        if changed || (casts && anyChanged) {
            if let e = oldExtent { damage.append(e) }
            if let e = extent { damage.append(e) }
        }
        r.extent = extent
        r.own = own
        r.children = children
        r.summarize(layer)
        return Visit(changed: anyChanged, record: r)
    }

    /// `layer.isDamageUnit`, without scanning every sublayer when the record
    /// tells: nothing here changed (then nothing below did either, or only
    /// the listed sublayers, and only a sublayer turned 3D makes it a unit).
    private func isUnit(_ layer: Layer, _ old: Record?) -> Bool {
        guard let old, old.fingerprint.generation == layer.renderGeneration else { return layer.isDamageUnit }
        if old.subtreeGeneration == layer.subtreeGeneration || old.fingerprint.isUnit { return old.fingerprint.isUnit }
        return layer.changedChildren.contains { c in
            c.superlayer === layer && (c.kind.preservesDepth || !c.transform.isAffine)
        }
    }

    /// The walk of an unchanged layer in an unchanged place with changes
    /// below: only the sublayers listed as changed (and units that change
    /// with the clock) are visited. Nil when one of them was not drawn here
    /// before (its place in the order is needed: the full walk of the layer).
    private func visitChanged(_ layer: Layer, _ r: Record) -> Visit? {
        let id = ObjectIdentifier(layer)
        var candidates = layer.changedChildren.filter { $0.hostLayer === layer }
        if r.live { candidates += (r.children + [r.mask].compactMap { $0 }).filter(\.live).compactMap(\.layer) }
        var seen = Set<ObjectIdentifier>()
        candidates = candidates.filter { seen.insert(ObjectIdentifier($0)).inserted }
        for c in candidates {
            guard let cr = record(of: c), cr.parent == id else { return nil }
        }
        layer.clearChangedChildren()
        let device = r.fingerprint.device, flipped = r.fingerprint.flipped
        let innerFlipped = layer.geometryFlipped ? !flipped : flipped
        var anyChanged = false
        for c in candidates {
            let v: Visit
            if c === layer.maskLayer {
                v = visit(c, parent: id, parentSpace: layer.maskSpaceAffine, ctm: device, alpha: 1, flipped: innerFlipped,
                          forced: false)
            } else {
                v = visit(c, parent: id, parentSpace: layer.sublayerSpaceAffine, ctm: device, alpha: r.fingerprint.alpha,
                          flipped: innerFlipped, forced: false)
            }
            anyChanged = anyChanged || v.changed
            if !v.drawn, let cr = v.record {
                forget(cr, under: id)
                r.children.removeAll { $0 === cr }
                if r.mask === cr { r.mask = nil }
            }
        }
        r.summarize(layer)
        return Visit(changed: anyChanged, record: r)
    }

    /// The layer's record for this walk: the old one updated, or a new one.
    private func fresh(_ old: Record?, _ layer: Layer, _ fingerprint: Fingerprint, _ parent: ObjectIdentifier?) -> Record {
        if let old {
            old.fingerprint = fingerprint
            old.parent = parent
            return old
        }
        let r = Record(owner: self, layer: layer, fingerprint: fingerprint, parent: parent)
        layer.damageRecord = r
        return r
    }

    /// A layer drawn as one unit: its fingerprint hashes the whole subtree.
    private func visitUnit(_ layer: Layer, old: Record?, parent: ObjectIdentifier?, device: AffineTransform, alpha: Double,
                           flipped: Bool, forced: Bool) -> Visit {
        // Its subtree is no longer tracked layer by layer.
        if let old {
            for c in old.children { forget(c, under: ObjectIdentifier(layer)) }
            if let m = old.mask { forget(m, under: ObjectIdentifier(layer)) }
        }
        // The subtree is summed up again only when something below changed.
        // A layer anywhere below that moves with the clock or draws at every
        // render (a tiled layer in a rasterized one) makes the unit do so.
        let summary = old.flatMap { $0.subtreeGeneration == layer.subtreeGeneration ? $0.summary : nil }
            ?? DamageTracker.summary(of: layer)
        let timed = summary.timed, everyRender = summary.everyRender
        let fingerprint = Fingerprint(generation: layer.renderGeneration, contentsVersion: layer.contents?.version ?? -1,
                                      device: device, alpha: alpha, flipped: flipped, unit: summary.hash,
                                      ticks: timed ? ticks : 0, isUnit: true)
        let changed = forced || old?.fingerprint != fingerprint || everyRender
        let oldExtent = old?.extent
        var extent = layer.unitExtent.flatMap { PixelRect(covering: device.apply($0), margin: DamageTracker.margin) }
        // Unbounded: the whole frame now, and damaged whole by the next change.
        if extent == nil { needsFullRedraw = true; extent = canvasPixels }
        if changed {
            if let e = oldExtent { damage.append(e) }
            if let e = extent { damage.append(e) }
        }
        let r = fresh(old, layer, fingerprint, parent)
        r.extent = extent
        r.subtree = extent
        r.content = extent
        r.cullable = false
        r.children = []
        r.mask = nil
        r.live = timed || everyRender
        r.timedBelow = timed
        r.everyRenderBelow = everyRender
        r.subtreeGeneration = layer.subtreeGeneration
        return Visit(changed: changed, record: r)
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
        let sigma = layer.shadowRadius * device.linearScale
        // The blur's reach, the resampling pixel at a fractional offset, and antialiasing.
        let margin = GaussianBlur.margin(sigma: sigma) + 1 + Int(DamageTracker.margin)
        let dx = layer.shadowOffset.width * device.a + layer.shadowOffset.height * device.c
        let dy = layer.shadowOffset.width * device.b + layer.shadowOffset.height * device.d
        guard let shifted = PixelRect(covering: source.rect.offsetBy(dx, dy)) else { return nil }
        return shifted.grown(by: margin)
    }

    /// True when the sublayers kept in both orders changed their relative order.
    static func reordered(from old: [Record], to new: [Layer]) -> Bool {
        if old.count == new.count && zip(old, new).allSatisfy({ $0.layer === $1 }) { return false }
        var index: [ObjectIdentifier: Int] = [:]
        for (i, r) in old.enumerated() { if let l = r.layer { index[ObjectIdentifier(l)] = i } }
        var last = -1
        for l in new {
            guard let i = index[ObjectIdentifier(l)] else { continue }
            if i < last { return true }
            last = i
        }
        return false
    }

    static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        (h ^ v) &* 0x100_0000_01b3 &+ 0x9E37_79B9_7F4A_7C15
    }

    /// What a subtree draws, summed up: a hash of every layer in it (masks
    /// included) with its generation and contents version, in order (any
    /// change changes it), and whether any of them changes with the clock
    /// alone or draws at every render.
    struct Summary { var hash: UInt64, timed: Bool, everyRender: Bool }

    static func summary(of layer: Layer) -> Summary {
        var s = Summary(hash: 0xcbf2_9ce4_8422_2325, timed: false, everyRender: false)
        var stack = [layer]
        while let l = stack.popLast() {
            s.hash = mix(s.hash, UInt64(UInt(bitPattern: ObjectIdentifier(l).hashValue)))
            s.hash = mix(s.hash, l.renderGeneration)
            s.hash = mix(s.hash, UInt64(bitPattern: Int64(l.contents?.version ?? -1)))
            s.timed = s.timed || l.changesWithTime
            s.everyRender = s.everyRender || l.redrawsEveryRender
            if let m = l.maskLayer { stack.append(m) }
            stack.append(contentsOf: l.sublayers)
        }
        return s
    }
}

extension Layer {
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
