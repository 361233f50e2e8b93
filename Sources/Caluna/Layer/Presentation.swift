/// The presentation tree: one read-only copy per committed model layer,
/// showing the committed model state with the attached animations applied at
/// the current time. The renderer draws it; `presentation()` returns it.
extension Layer {
    /// The layer as it is on screen now, or nil before it was first committed
    /// (R-P5: uncommitted model changes do not show). On a presentation layer,
    /// itself.
    public func presentation() -> Layer? {
        if isPresentation { return self }
        engine?.updatePresentationIfNeeded()
        return presentationLayer
    }

    /// The presentation copy, made (with its subtree's) when first needed.
    @discardableResult
    /// Iterative: a tree at the depth limit must not need a native stack
    /// frame per level (hosts may call from threads with small stacks).
    func ensurePresentation() -> Layer {
        if let p = presentationLayer { return p }
        var made: [(model: Layer, copy: Layer)] = []
        var pending = [self]
        while let m = pending.popLast() {
            guard m.presentationLayer == nil else { continue }
            let p = Layer(engine: m.engine, kind: m.kind, charged: false)  // the model layer's charge covers it
            p.modelLayerReference = m
            p.isPresentationCopy = true
            m.commitState()
            p.showCommittedState(of: m)
            m.presentationLayer = p
            made.append((m, p))
            pending.append(contentsOf: m.sublayers)
            if let k = m.maskLayer { pending.append(k) }
        }
        for (m, p) in made {
            p.sublayers = m.sublayers.compactMap(\.presentationLayer)
            for s in p.sublayers { s.superlayer = p }
            p.maskLayer = m.maskLayer?.presentationLayer
            p.maskLayer?.maskOwner = p
        }
        return made[0].copy
    }

    /// Makes the presentation's sublayers mirror the model's.
    func commitSublayers() {
        guard let p = presentationLayer else { return }
        let fresh = sublayers.map { $0.ensurePresentation() }
        // A set keeps this linear: a parent of N sublayers commits in O(N).
        let kept = Set(fresh.map(ObjectIdentifier.init))
        var detached = false
        for old in p.sublayers where old.superlayer === p && !kept.contains(ObjectIdentifier(old)) {
            old.superlayer = nil
            detached = true
        }
        for s in fresh { s.superlayer = p }
        p.sublayers = fresh
        p.drawingOrderCache = nil
        let freshMask = maskLayer?.ensurePresentation()
        if let old = p.maskLayer, old !== freshMask, old.maskOwner === p {
            old.maskOwner = nil
            detached = true
        }
        freshMask?.maskOwner = p
        p.maskLayer = freshMask
        // The change list holds its layers strongly: a layer that left goes now.
        if detached && !p.changedChildren.isEmpty { p.compactChangedChildren() }
    }

    /// Replaces a presentation layer's values, keeping its parent's drawing
    /// order current when zPosition moves.
    func showState(_ s: Boxed<LayerState>) {
        let zChanged = zPosition != s.withValue { $0.pointee.zPosition }
        if !stateBox.isSame(as: s) {
            stateBox = s
            renderChanged()
        }
        if transitionFrame != nil { transitionFrame = nil }
        if zChanged { superlayer?.sublayerOrderChanged() }
    }

    /// Gives presentation `p` the committed state before the animations
    /// apply: the whole state when it changed or the set of animations did,
    /// or an animation writes a property that cannot be reset alone;
    /// otherwise (most frames) just the properties the animations write —
    /// copying the whole state per animated layer and frame was a third of
    /// evaluating them.
    func resetPresentation(_ p: Layer) {
        // Fields read in place: copying an AttachedAnimation retains all it holds.
        if !presentationNeedsState && attachedAnimations.indices.allSatisfy({
            !attachedAnimations[$0].stamped || attachedAnimations[$0].reset != nil
        }) {
            for i in attachedAnimations.indices where attachedAnimations[i].stamped {
                attachedAnimations[i].reset?.reset(p, from: self)
            }
        } else {
            p.showCommittedState(of: self)
            presentationNeedsState = false
        }
    }

    /// The layer's local time at media time `t`: each ancestor's beginTime,
    /// speed and timeOffset applied from the root down (CAMediaTiming).
    public func localTime(atMediaTime t: Double) -> Double {
        timing.localTime(fromParent: hostLayer?.localTime(atMediaTime: t) ?? t)
    }

    /// Media time for local time `t` (the inverse of `localTime`; a paused
    /// layer maps back to its beginTime).
    public func mediaTime(fromLocal t: Double) -> Double {
        var time = t
        var l: Layer? = self
        while let cur = l { time = cur.timing.parentTime(fromLocal: time); l = cur.hostLayer }
        return time
    }

    /// convertTime:fromLayer: — `t` in `other`'s time (media time when nil)
    /// to this layer's.
    public func convertTime(_ t: Double, from other: Layer?) -> Double {
        localTime(atMediaTime: other?.mediaTime(fromLocal: t) ?? t)
    }

    /// convertTime:toLayer: — `t` in this layer's time to `other`'s (media
    /// time when nil).
    public func convertTime(_ t: Double, to other: Layer?) -> Double {
        let media = mediaTime(fromLocal: t)
        return other?.localTime(atMediaTime: media) ?? media
    }
}
