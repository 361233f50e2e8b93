/// The engine's animated layers flattened so that the common case is
/// evaluated in one tight loop: a layer in the tree whose animations are all
/// started, typed basic animations (TypedBasic) of distinct properties, in
/// their active phase, and whose presentation needs only those properties
/// reset. For such a layer a frame is its local time, then per animation a
/// sample and a value written into the presentation state: no list taken
/// out and put back, no resets, no closures, no reference counting, and
/// what each animation needs copied side by side into `tracks` (at 100,000
/// layers, reaching into every animation object was most of a frame's
/// cost). Every other layer, and a fast one whose animation leaves its
/// active phase or whose presentation needs its whole state, takes the
/// general path (FrameLoop's `evaluate`), whose result this one equals bit
/// for bit (TypedEvaluationTests compares them with the plan off).
///
/// Keeping it current costs O(1) per change, not a rebuild per frame:
/// - `entries[i]` is `Engine.animatedLayers[i]`; layers that join the list
///   are appended (`sync`), layers that leave it are removed (`remove`);
/// - each entry records its layer's `animationsVersion`, which moves with
///   every change that can make the entry wrong: animations added, removed,
///   stamped, started or stopped, and a new host for the layer or any
///   ancestor (Layer.hostChanged); the loop takes the general path for a
///   moved entry and plans it again (`replan`);
/// - the plan is rebuilt only when garbage in `tracks` (replanned entries
///   append their tracks) outgrows the live tracks.
/// Entries point at their objects unretained and are used only after those
/// checks: a layer is held by `animatedLayers`, its presentation by the
/// layer, a host by the tree (and `owners`), a spring by its layer's list
/// (and `owners`).
struct EvaluationPlan {
    struct Entry {
        let layer: Unmanaged<Layer>
        /// For a general entry, the layer itself.
        let presentation: Unmanaged<Layer>
        let host: Unmanaged<Layer>?
        /// The layer's `animationsVersion` when planned.
        let version: UInt32
        /// The layer's tracks in `tracks`; none: the general path.
        let firstTrack: Int32, trackCount: Int32
    }
    /// What evaluating one animation needs, copied out of it (an attached
    /// animation is frozen).
    struct Track {
        /// For a spring's own fraction (`ownFraction`).
        let animation: Unmanaged<BasicAnimation>
        let timing: MediaTiming
        // The small fields fill the padding after the 50-byte timing.
        let slot: ResolvedKeyPath.Slot
        let toIsUnderlying: Bool, additive: Bool, cumulative: Bool, ownFraction: Bool
        /// Same timing, duration and curve as the layer's previous track:
        /// the same sample and eased progress (a curve is solved once).
        let sharesProgress: Bool
        /// Index in `curves`; -1: linear.
        let curve: Int32
        let duration: Double
        /// The ends (TypedBasic.endpoints at the captured value); `to` is
        /// the underlying value when `toIsUnderlying`.
        let from: TypedBasic.Components, to: TypedBasic.Components
    }
    private(set) var entries: [Entry] = []
    private(set) var tracks: [Track] = []
    /// The tracks' timing functions, each once.
    private(set) var curves: [TimingFunction.Solver] = []
    private var curveIndex: [TimingFunction: Int32] = [:]
    /// The function asked for last (most tracks in a row share one).
    private var lastCurve: (function: TimingFunction, index: Int32)? = nil
    /// Hosts and springs the entries point at (see the type's comment).
    private var owners: [AnyObject] = []
    /// Tracks no entry uses any more.
    private var garbage = 0
    /// False until the first `sync`, which sizes the entries for every
    /// animated layer at once (grown by doubling instead, the 100,000-layer
    /// row measured 19 ms instead of 7: a memory-layout effect).
    private var valid = false
    let isFast: Bool
    /// Past this many entries the loop asks for the objects of the entries
    /// ahead of the one it evaluates (calu_prefetch): memory, not arithmetic,
    /// bounds it then (100,000 layers: 7.3 ms a frame instead of 9.7–10.9).
    /// Fewer layers stay in the caches from frame to frame, and asking
    /// ahead only costs (8 % at 10,000).
    static let fetchAheadBeyond = 32_768

    init(fast: Bool) { isFast = fast }

    /// Brings the plan up to `layers` (the engine's animated layers): a
    /// rebuild when garbage outgrew the live tracks, else entries for the
    /// layers appended since.
    mutating func sync(with layers: [Layer], inTree: (Layer) -> Bool) {
        if !valid || garbage > 1024 + (tracks.count - garbage) / 2 || entries.count > layers.count {
            self = EvaluationPlan(fast: isFast)
            valid = true
            entries.reserveCapacity(layers.count)
            // Grown by doubling, the tracks would hold up to twice their count.
            tracks.reserveCapacity(layers.reduce(0) { $0 + $1.attachedAnimations.count })
        }
        while entries.count < layers.count { entries.append(plan(layers[entries.count], inTree)) }
    }

    /// Room for `n` entries about to be planned again, when they are many
    /// (every layer of a scene starting at once): the tracks array then
    /// grows once to its size instead of doubling past it (memory per
    /// animated layer). Few are left to the array's own growth.
    mutating func reserve(replanning n: Int) {
        if n > 1024, n > tracks.count / 4 { tracks.reserveCapacity(tracks.count + n) }
    }

    /// Plans entry `i` again (its layer's animations changed).
    mutating func replan(_ i: Int, inTree: (Layer) -> Bool) {
        garbage += Int(entries[i].trackCount)
        entries[i] = plan(entries[i].layer.takeUnretainedValue(), inTree)
    }

    /// Drops the entries at `indices` (ascending), as the engine drops
    /// those layers from its list.
    mutating func remove(_ indices: [Int]) {
        var next = 0, kept = 0
        for i in entries.indices {
            if next < indices.count, indices[next] == i {
                next += 1
                garbage += Int(entries[i].trackCount)
            } else {
                entries[kept] = entries[i]
                kept += 1
            }
        }
        entries.removeLast(entries.count - kept)
    }

    /// An entry for `l`: fast when the loop gives it what the general path
    /// would (see the type's comment), its tracks appended.
    private mutating func plan(_ l: Layer, _ inTree: (Layer) -> Bool) -> Entry {
        let version = l.animationsVersion
        let general = Entry(layer: .passUnretained(l), presentation: .passUnretained(l), host: nil, version: version,
                            firstTrack: 0, trackCount: 0)
        guard isFast, let p = l.presentationLayer, !l.attachedAnimations.isEmpty, inTree(l) else { return general }
        let first = tracks.count
        // Fields read in place: copying an AttachedAnimation retains all it holds.
        for i in l.attachedAnimations.indices {
            guard l.attachedAnimations[i].stamped, l.attachedAnimations[i].started, !l.attachedAnimations[i].stopped,
                  !l.attachedAnimations[i].replaced, l.attachedAnimations[i].reset != nil,
                  appendTrack(l.attachedAnimations[i].animation, first: first) else {
                tracks.removeLast(tracks.count - first)
                return general
            }
        }
        let host = l.hostLayer
        if let host, owners.last !== host { owners.append(host) }
        return Entry(layer: .passUnretained(l), presentation: .passUnretained(p), host: host.map { .passUnretained($0) },
                     version: version, firstTrack: Int32(first), trackCount: Int32(tracks.count - first))
    }

    /// Appends the track of `a` (the layer's tracks start at `first`); false
    /// when `a` is not a typed basic animation of a property no earlier
    /// track animates, with its captured value.
    private mutating func appendTrack(_ a: Animation, first: Int) -> Bool {
        // Exact class checks: a cast to the non-final BasicAnimation is
        // slow, and these are the only two kinds the loop evaluates.
        let kind = ObjectIdentifier(type(of: a))
        let spring = kind == ObjectIdentifier(SpringAnimation.self)
        guard spring || kind == ObjectIdentifier(BasicAnimation.self) else { return false }
        let b = unsafeDowncast(a, to: BasicAnimation.self)
        guard let typed = b.typedPlan, let c = b.capturedValue, let current = TypedBasic.components(c, typed.slot),
              !tracks[first...].contains(where: { $0.slot == typed.slot }) else { return false }
        let (from, to) = typed.endpoints(current: current)
        var curve: Int32 = -1
        if let f = b.timingFunction { curve = curveNumber(f) }
        if spring { owners.append(b) }
        let previous = tracks.count > first ? tracks.last : nil
        tracks.append(Track(animation: .passUnretained(b), timing: b.timing, slot: typed.slot,
                            toIsUnderlying: to == nil, additive: b.additive, cumulative: b.cumulative,
                            ownFraction: spring,
                            sharesProgress: previous.map { $0.timing.isIdentical(to: b.timing) && $0.curve == curve
                                && $0.duration.bitPattern == b.resolvedDuration.bitPattern } ?? false,
                            curve: curve, duration: b.resolvedDuration, from: from, to: to ?? from))
        return true
    }

    private mutating func curveNumber(_ f: TimingFunction) -> Int32 {
        if let last = lastCurve, last.function == f { return last.index }
        let i = curveIndex[f] ?? {
            curves.append(f.solver)
            curveIndex[f] = Int32(curves.count - 1)
            return Int32(curves.count - 1)
        }()
        lastCurve = (f, i)
        return i
    }
}

extension Engine {
    /// Evaluates entry `e` (its host's local time from `hosts`); false when
    /// the layer must take the general path this frame (anything written
    /// here is reset by it; the caller plans a moved entry again). The
    /// arithmetic is TypedBasic's (endpoints, blend) and
    /// Animation.linearProgress; references are borrowed from the plan.
    @inline(__always)
    func evaluateFast(_ e: EvaluationPlan.Entry, _ tracks: UnsafeBufferPointer<EvaluationPlan.Track>,
                      _ curves: UnsafeBufferPointer<TimingFunction.Solver>, hosts: inout HostTimes) -> Bool {
        e.layer._withUnsafeGuaranteedRef { l in
            guard l.animationsVersion == e.version, !l.presentationNeedsState else { return false }
            return e.presentation._withUnsafeGuaranteedRef { p in
                let local = l.withState { LayerState.timing($0) }.localTime(fromParent: hosts.time(of: e.host))
                let first = Int(e.firstTrack)
                var s = TimingSample(phase: .active, contributes: true, iterationTime: 0, iteration: 0)
                var eased = 0.0
                for k in first..<first + Int(e.trackCount) {
                    let t = tracks.baseAddress! + k
                    if !t.pointee.sharesProgress {
                        s = t.pointee.timing.sample(parentTime: local, duration: t.pointee.duration)
                        guard s.phase == .active, s.contributes else { return false }
                        let c = Int(t.pointee.curve), x = Animation.linearProgress(s, duration: t.pointee.duration)
                        eased = c < 0 ? x : curves[c].evaluate(x)
                    }
                    var f = eased
                    if t.pointee.ownFraction { f = t.pointee.animation._withUnsafeGuaranteedRef { $0.fraction(f) } }
                    // What the general path resets the property to before applying.
                    let slot = t.pointee.slot
                    var underlying = TypedBasic.Components()
                    if t.pointee.toIsUnderlying || t.pointee.additive || slot == .bounds {
                        underlying = l.withCommittedState { TypedBasic.read(slot, $0) }
                    }
                    let v = TypedBasic.blend(t.pointee.from, t.pointee.toIsUnderlying ? underlying : t.pointee.to, f, s,
                                             cumulative: t.pointee.cumulative, additive: t.pointee.additive,
                                             underlying: underlying)
                    TypedBasic.write(slot, &p.stateBox.value, TypedBasic.accepts(slot, v) ? v : underlying)
                }
                layerEvaluations &+= 1
                plannedEvaluations &+= 1
                p.renderChanged()
                return true
            }
        }
    }
}
