import CalunaStack
/// An animation start or stop waiting for delivery to its delegate.
struct AnimationEvent {
    enum Kind { case start, stop(finished: Bool) }
    let kind: Kind
    let layer: Layer
    let animation: Animation
}

/// The frame loop (DESIGN §3): commit, clock, timers and display links,
/// layout, evaluation of the presentation tree, delivery of animation events.
extension Engine {
    /// Commits what changed at the current time without moving the clock:
    /// lays out, stamps new animations, updates the presentation tree and
    /// evaluates it. Events it finds are delivered by the next step.
    public func flush() throws {
        try checkNotInFrame("flush")
        try memory.withCurrent { try flushFrame() }
    }

    private func flushFrame() throws {
        runningFrame = true
        defer { runningFrame = false }
        try root.layoutIfNeeded()
        var errors = FirstError()
        if transaction.depth == 0 { errors.run { try displayPass() } }
        commitAndEvaluate()
        try takeActionError()
        try errors.rethrow()
    }

    func checkNotInFrame(_ api: String) throws {
        if runningFrame {
            throw CalunaError.invalid("\(api) cannot be called from inside a callback while the engine runs a frame")
        }
    }

    /// One step from the current time to `target` ticks. Event times in
    /// between (animation starts and ends that have a delegate) are visited
    /// exactly, so results do not depend on the step size. The first error a
    /// callback raised is rethrown once the frame is complete.
    func runFrame(to target: Int64) throws {
        runningFrame = true
        defer { runningFrame = false }
        var errors = FirstError()
        let start = clock.ticks
        input.sentThisStep = 0
        errors.run { try takeActionError() }
        settle(&errors)
        // Input sent for now (or late) is handled before the clock moves.
        if !input.queue.isEmpty {
            deliverDueInput(&errors)
            settle(&errors)
        }
        var inputInstants = 0
        while true {
            let animationTick = nextEventTick(before: target)
            if let t = nextInputTick(upTo: target), animationTick.map({ t <= $0 }) ?? true {
                // Input is handled at its own time: physics catches up first,
                // and what the handlers change is committed at that time, so
                // scripted input gives the same frames whatever the step size.
                inputInstants += 1
                moveClock(toTick: inputInstants > InputState.maximumInstantsPerStep ? target : t)
                stepPhysics(&errors)
                settle(&errors)
                deliverDueInput(&errors)
                settle(&errors)
                if inputInstants > InputState.maximumInstantsPerStep { break }
            } else if let t = animationTick {
                moveClock(toTick: t)
                settle(&errors)
            } else {
                break
            }
        }
        moveClock(toTick: target)
        fireFrameCallbacks(from: start, &errors)
        stepPhysics(&errors)
        settle(&errors)
        try errors.rethrow()
    }

    /// Layout, commit, evaluate, deliver — until callbacks stop changing
    /// things (bounded, so a callback that always adds work cannot hang).
    private func settle(_ errors: inout FirstError) {
        for _ in 0..<16 {
            errors.run { try root.layoutIfNeeded() }
            if transaction.depth == 0 { errors.run { try displayPass() } }
            commitAndEvaluate()
            errors.run { try takeActionError() }
            if queuedEvents.isEmpty && !transaction.hasReadyCompletions { return }
            deliverEvents(&errors)
        }
    }

    // MARK: commit

    /// The layer's list of animations changed. `shown`: the change shows
    /// before the next commit — a stamped animation left. An added one, or
    /// one that left unstamped, shows nothing until a commit stamps what is
    /// new (Core Animation's presentation shows committed animations only),
    /// so the presentation is not evaluated again for it: N implicit sets in
    /// one frame evaluate nothing until the commit.
    func animationsChanged(on layer: Layer, added: Bool = false, shown: Bool = true) {
        layer.animationsVersion &+= 1
        if shown {
            presentationChanged(layer)
        } else if changedAnimationIDs.insert(ObjectIdentifier(layer)).inserted {
            // Evaluated at the next commit all the same: one left without
            // animations is let go there.
            layersWithChangedAnimations.append(layer)
        }
        if added { layersWithNewAnimations.append(layer) }
        if animatedLayerIDs.insert(ObjectIdentifier(layer)).inserted { animatedLayers.append(layer) }
    }

    /// What `layer`'s presentation shows must be evaluated again, from its
    /// whole committed state.
    private func presentationChanged(_ layer: Layer) {
        presentationStale = true
        layer.presentationNeedsState = true
        if changedAnimationIDs.insert(ObjectIdentifier(layer)).inserted { layersWithChangedAnimations.append(layer) }
    }

    func queueStop(_ animation: Animation, layer: Layer, finished: Bool) {
        queuedEvents.append(AnimationEvent(kind: .stop(finished: finished), layer: layer, animation: animation))
    }

    func isInTree(_ layer: Layer) -> Bool { layer.rootAncestor === root }

    /// A subtree joined a tree: its layers' waiting animations are tracked
    /// again (they are stamped by the next commit if the tree is the engine's).
    func adoptAnimations(in layer: Layer) {
        var stack = [layer]
        while let l = stack.popLast() {
            if !l.attachedAnimations.isEmpty {
                animationsChanged(on: l, added: l.attachedAnimations.contains { !$0.stamped })
            }
            stack.append(contentsOf: l.sublayers)
        }
    }

    /// The engine's commit (the end of Core Animation's run-loop turn). While
    /// an explicit transaction is open nothing is committed: the presentation
    /// is only brought to the current time.
    private func commitAndEvaluate() {
        if transaction.depth > 0 { updatePresentationIfNeeded(); return }
        transaction.commitImplicit()
        // Nothing changed since the presentation was evaluated at this time.
        if lastEvaluatedTick == clock.ticks, !presentationStale, layersNeedingCommit.isEmpty,
           layersWithNewAnimations.isEmpty, layersWithChangedAnimations.isEmpty { return }
        // New animations start from what is on screen now: their layers are
        // brought to the current time (the others are evaluated below).
        if !layersWithNewAnimations.isEmpty, lastEvaluatedTick != nil, lastEvaluatedTick != clock.ticks {
            let now = mediaTime
            var hosts = HostTimes(now: now)
            var seen = Set<ObjectIdentifier>()
            for l in layersWithNewAnimations where seen.insert(ObjectIdentifier(l)).inserted
                && animatedLayerIDs.contains(ObjectIdentifier(l)) {
                _ = evaluate(l, now: now, parentTime: { hosts.time(of: .passUnretained($0)) })
            }
        }
        stampNewAnimations()
        // The first commit makes the presentation tree (scene set-up before it
        // does not animate: layers without a presentation run no actions).
        if root.presentationLayer == nil { root.ensurePresentation() }
        let changed = layersNeedingCommit.compactMap { $0.layer }
        layersNeedingCommit = []
        // A committed timing of a layer with layers below moves their time.
        var timeMoved = false
        for l in changed {
            l.needsCommit = false
            guard let p = l.presentationLayer else { continue }
            if !timeMoved, !l.sublayers.isEmpty || l.maskLayer != nil, l.timingChangedSinceCommit { timeMoved = true }
            l.commitState()
            let id = ObjectIdentifier(l)
            if !animatedLayerIDs.contains(id) {
                p.showCommittedState(of: l)
            } else if changedAnimationIDs.insert(id).inserted {
                layersWithChangedAnimations.append(l)
            }
        }
        for l in changed where l.sublayersNeedCommit {
            l.sublayersNeedCommit = false
            l.commitSublayers()
        }
        // At the time the presentation was evaluated, only the layers that
        // changed are evaluated again: a frame with changes made between
        // steps evaluated every animated layer twice (before and after the
        // clock moved).
        if lastEvaluatedTick == clock.ticks, !timeMoved { evaluateChangedAnimations() } else { evaluateAnimations() }
    }

    /// Fixes beginTime (0 → the layer's time now) and captures the values a
    /// missing fromValue stands for, for animations whose layer is in the tree.
    private func stampNewAnimations() {
        let now = mediaTime
        let candidates = layersWithNewAnimations
        layersWithNewAnimations = []
        for l in candidates where l.attachedAnimations.contains(where: { !$0.stamped }) {
            // A layer outside the tree keeps its new animations until it joins
            // the tree (adoptAnimations); the engine does not hold it meanwhile,
            // and completion blocks do not wait for them.
            guard isInTree(l) else {
                for i in l.attachedAnimations.indices where !l.attachedAnimations[i].stamped {
                    l.attachedAnimations[i].releaseCompletions()
                }
                continue
            }
            // What the new animations replace ends now.
            while let i = l.attachedAnimations.firstIndex(where: { $0.replaced }) {
                l.detachAnimation(at: i, finished: false)
            }
            let local = l.localTime(atMediaTime: now)
            for i in l.attachedAnimations.indices where !l.attachedAnimations[i].stamped {
                let a = l.attachedAnimations[i].animation
                if a.timing.beginTime == 0 { a.timing.beginTime = local }
                Engine.capture(a, from: l.presentationLayer, model: l)
                l.attachedAnimations[i].stamped = true
                l.animationsVersion &+= 1
            }
            presentationChanged(l)
        }
    }

    /// Records what an animation starts from: the value on screen (the model
    /// value for a layer never shown), or for a transition a snapshot of the
    /// layer as it looks (nothing for a layer never shown).
    private static func capture(_ a: Animation, from shown: Layer?, model: Layer) {
        if let b = a as? BasicAnimation, b.valueFunction == nil, let target = b.target {
            b.capturedValue = target.read(shown ?? model)
        }
        if let t = a as? Transition { t.snapshot = shown?.snapshotTree() }
        for child in (a as? AnimationGroup)?.animations ?? [] { capture(child, from: shown, model: model) }
    }

    // MARK: evaluation

    /// Brings the presentation tree to the current time. New animations are
    /// not stamped here: as in Core Animation, the presentation shows
    /// committed animations only, and they start at the next commit.
    func updatePresentationIfNeeded() {
        guard presentationStale || lastEvaluatedTick != clock.ticks else { return }
        if lastEvaluatedTick == clock.ticks { evaluateChangedAnimations() } else { evaluateAnimations() }
    }

    /// At the time the presentation was last evaluated, only the layers whose
    /// animations changed since can show anything else: they are evaluated
    /// again, the others are left as they are (the same result as evaluating
    /// every layer; an implicit animation reads its layer's presentation, so
    /// N sets in one frame cost O(N), not O(N²)).
    private func evaluateChangedAnimations() {
        presentationStale = false
        let changed = layersWithChangedAnimations
        layersWithChangedAnimations = []
        changedAnimationIDs = []
        var hosts = HostTimes(now: mediaTime)
        var emptied = Set<ObjectIdentifier>()
        for l in changed where animatedLayerIDs.contains(ObjectIdentifier(l)) {
            if !evaluate(l, now: hosts.now, parentTime: { hosts.time(of: .passUnretained($0)) }) {
                emptied.insert(ObjectIdentifier(l))
            }
        }
        // Layers left without animations are let go now, not at the next
        // time the clock moves (a script stepping by 0 frees them).
        if !emptied.isEmpty {
            dropAnimatedLayers(at: animatedLayers.indices.filter { emptied.contains(ObjectIdentifier(animatedLayers[$0])) })
        }
    }

    /// Evaluates the presentation at the current time if the clock moved
    /// since it was last evaluated (callbacks change things between times).
    func evaluateIfClockMoved() {
        if lastEvaluatedTick != nil, lastEvaluatedTick != clock.ticks { evaluateAnimations() }
    }

    /// Sets every animated presentation layer to its committed state plus its
    /// animations at the current time; records starts and stops; removes
    /// finished animations (removedOnCompletion) and those of layers that
    /// left the tree.
    private func evaluateAnimations() {
        presentationStale = false
        lastEvaluatedTick = clock.ticks
        layersWithChangedAnimations = []
        changedAnimationIDs = []
        let now = mediaTime
        evaluationPlan.sync(with: animatedLayers, inTree: isInTree)
        // Siblings share their superlayer's time: compute it once per run.
        var hosts = HostTimes(now: now)
        var done: [Int] = [], moved: [Int] = []
        do {
            let plan = evaluationPlan
            plan.entries.withUnsafeBufferPointer { entries in
                plan.tracks.withUnsafeBufferPointer { tracks in plan.curves.withUnsafeBufferPointer { curves in
                    let n = entries.count
                    let ahead = n > EvaluationPlan.fetchAheadBeyond
                    for i in entries.indices {
                        if ahead, i + 8 < n {
                            calu_prefetch(entries[i + 8].layer.toOpaque())
                            calu_prefetch(entries[i + 8].presentation.toOpaque())
                        }
                        if ahead, i + 4 < n {
                            entries[i + 4].layer._withUnsafeGuaranteedRef { $0.prefetchState() }
                            entries[i + 4].presentation._withUnsafeGuaranteedRef { $0.prefetchState() }
                        }
                        let e = entries[i]
                        if e.trackCount > 0, evaluateFast(e, tracks, curves, hosts: &hosts) { continue }
                        let l = e.layer.takeUnretainedValue()
                        if !evaluate(l, now: now, parentTime: { hosts.time(of: .passUnretained($0)) }) {
                            done.append(i)
                        } else if l.animationsVersion != e.version {
                            moved.append(i)
                        }
                    }
                } }
            }
        }
        evaluationPlan.reserve(replanning: moved.count)
        for i in moved { evaluationPlan.replan(i, inTree: isInTree) }
        dropAnimatedLayers(at: done)
    }

    /// Drops the animated layers at `indices` (ascending) and their plan entries.
    private func dropAnimatedLayers(at indices: [Int]) {
        guard !indices.isEmpty else { return }
        var kept: [Layer] = []
        kept.reserveCapacity(animatedLayers.count - indices.count)
        var next = 0
        for (i, l) in animatedLayers.enumerated() {
            if next < indices.count, indices[next] == i {
                next += 1
                animatedLayerIDs.remove(ObjectIdentifier(l))
            } else {
                kept.append(l)
            }
        }
        animatedLayers = kept
        evaluationPlan.remove(indices)
    }

    /// The local time of each host layer, remembered for the next sibling.
    struct HostTimes {
        let now: Double
        var last: Unmanaged<Layer>? = nil
        var lastTime = 0.0
        init(now: Double) { self.now = now }
        mutating func time(of host: Unmanaged<Layer>?) -> Double {
            guard let host else { return now }
            if host.toOpaque() != last?.toOpaque() {
                last = host
                lastTime = host._withUnsafeGuaranteedRef { $0.localTime(atMediaTime: now) }
            }
            return lastTime
        }
    }

    /// One animated layer at media time `now` (`parentTime` gives its host's
    /// local time): false when it has no animations left (it left the tree,
    /// or its last one finished).
    private func evaluate(_ l: Layer, now: Double, parentTime: (Layer) -> Double) -> Bool {
        layerEvaluations &+= 1
        guard let p = l.presentationLayer, isInTree(l) else {
            if let p = l.presentationLayer { p.holdingChanges { l.resetPresentation(p) } }
            // Out of the tree: running animations end (finished: false);
            // ones never started wait for the layer to be committed.
            var i = 0
            while i < l.attachedAnimations.count {
                if l.attachedAnimations[i].stamped { l.detachAnimation(at: i, finished: false) } else { i += 1 }
            }
            return false
        }
        let host = l.hostLayer
        let local = l.timing.localTime(fromParent: host.map(parentTime) ?? now)
        p.holdingChanges { evaluate(l, into: p, atLocalTime: local) }
        return !l.attachedAnimations.isEmpty
    }

    /// One animated layer: its presentation reset to the committed state,
    /// then each stamped animation sampled at `local` (its starts and stops
    /// noted, finished ones removed) and applied.
    private func evaluate(_ l: Layer, into p: Layer, atLocalTime local: Double) {
        l.resetPresentation(p)
        // The list is taken out while it is worked on (nothing below reads
        // the layer's), so it is edited in place, and its fields are read
        // in place: copying an AttachedAnimation retains all it holds.
        var list = l.attachedAnimations
        l.attachedAnimations = []
        defer { l.attachedAnimations = list }
        var i = 0
        while i < list.count {
            guard list[i].stamped else { i += 1; continue }
            let animation = list[i].animation
            let s = animation.sample(parentTime: local)
            if !list[i].started, s.phase != .before {
                list[i].started = true
                l.animationsVersion &+= 1
                if animation.delegate != nil { queuedEvents.append(AnimationEvent(kind: .start, layer: l, animation: animation)) }
            }
            if s.phase == .after, !list[i].stopped {
                list[i].stopped = true
                l.animationsVersion &+= 1
                list[i].releaseCompletions()
                if animation.delegate != nil { queueStop(animation, layer: l, finished: true) }
                if animation.removedOnCompletion {
                    if list.remove(at: i).observed { observedAnimations -= 1 }
                    continue
                }
            }
            if s.contributes { try? animation.contribute(to: p, s) }
            i += 1
        }
    }

    // MARK: events

    /// The earliest tick in (now, target) at which an observed animation (a
    /// delegate or a completion block waits) starts or ends, or nil. Only
    /// layers whose time runs forwards (every speed on the way up positive)
    /// are predicted; others are noticed at the end of the step.
    private func nextEventTick(before target: Int64) -> Int64? {
        guard observedAnimations > 0 else { return nil }
        let now = clock.ticks
        var best: Int64? = nil
        for l in animatedLayers where l.attachedAnimations.contains(where: { $0.observed })
            && isInTree(l) && timeRunsForward(l) {
            for a in l.attachedAnimations where a.stamped && !a.stopped && a.observed {
                let anim = a.animation
                guard anim.timing.speed > 0 else { continue }
                var locals: [(Double, TimingSample.Phase)] = []
                if !a.started && anim.delegate != nil { locals.append((anim.timing.beginTime, .active)) }
                let end = anim.timing.beginTime + anim.timing.activeDuration(iteration: anim.resolvedDuration) / anim.timing.speed
                if end.isFinite { locals.append((end, .after)) }
                for (t, phase) in locals {
                    let media = l.mediaTime(fromLocal: t)
                    guard media.isFinite, media >= 0, media < Clock.maximumSeconds else { continue }
                    var tick = Int64((media * Double(Clock.ticksPerSecond)).rounded())
                    // Round up to the first tick at which the change shows.
                    for _ in 0..<4 where !reached(phase, anim, l, tick) { tick += 1 }
                    if tick > now, tick < target, best.map({ tick < $0 }) ?? true { best = tick }
                }
            }
        }
        return best
    }

    private func reached(_ phase: TimingSample.Phase, _ a: Animation, _ l: Layer, _ tick: Int64) -> Bool {
        let s = a.sample(parentTime: l.localTime(atMediaTime: Clock.seconds(ticks: tick)))
        return phase == .after ? s.phase == .after : s.phase != .before
    }

    private func timeRunsForward(_ l: Layer) -> Bool {
        var cur: Layer? = l
        while let c = cur { if !(c.timing.speed > 0) { return false }; cur = c.hostLayer }
        return true
    }

    /// Delivers queued events: starts before stops, each in layer tree order
    /// then in the order the layer applies its animations (DESIGN §3).
    func deliverEvents(_ errors: inout FirstError) {
        var events = queuedEvents
        queuedEvents = []
        if Set(events.map { ObjectIdentifier($0.layer) }).count > 1 {
            var order: [ObjectIdentifier: Int] = [:]
            var stack = [root!]
            while let l = stack.popLast() {
                order[ObjectIdentifier(l)] = order.count
                stack.append(contentsOf: l.sublayers.reversed())
            }
            let indexed = events.enumerated().map { ($0.offset, $0.element) }
            events = indexed.sorted { a, b in
                let sa = a.1.isStart ? 0 : 1, sb = b.1.isStart ? 0 : 1
                if sa != sb { return sa < sb }
                let oa = order[ObjectIdentifier(a.1.layer)] ?? Int.max, ob = order[ObjectIdentifier(b.1.layer)] ?? Int.max
                return oa != ob ? oa < ob : a.0 < b.0
            }.map { $0.1 }
        } else {
            events = events.filter { $0.isStart } + events.filter { !$0.isStart }
        }
        for e in events {
            guard let d = e.animation.delegate else { continue }
            errors.run {
                switch e.kind {
                case .start: try d.animationDidStart(e.animation)
                case .stop(let finished): try d.animationDidStop(e.animation, finished: finished)
                }
            }
        }
        // Transaction completion blocks last, in the order their
        // transactions committed (spec ch.7–9 §5-17).
        for g in transaction.takeReadyCompletions() { errors.run { try g.block.body() } }
    }
}

extension AnimationEvent {
    var isStart: Bool { if case .start = kind { return true } else { return false } }
}
