/// One animation attached to a layer: the layer's frozen copy, its key, and
/// how far the engine has taken it (stamped at commit, started, stopped).
struct AttachedAnimation {
    var key: String?
    let animation: Animation
    /// beginTime fixed and "current" values captured (at the first commit
    /// that found the layer in the tree).
    var stamped = false
    var started = false
    var stopped = false
    /// Replaced under its key while a transaction was open: it keeps
    /// showing (unlisted) until the commit that starts its replacement.
    var replaced = false
    /// The transaction completion blocks waiting for this animation (nil
    /// when none: the frame loop copies this struct per animation per frame,
    /// and an empty array would still cost a retain and a release).
    let completions: [CompletionGroup]?
    var completionsDone = false
    /// Someone hears when it starts or stops (the engine visits those times).
    var observed: Bool { animation.delegate != nil || completions != nil }
    /// The one property the animation writes, when the presentation can be
    /// reset by resetting it alone (Layer.resetPresentation); nil when it
    /// writes anything else (a group, a transition, a rotation mode).
    let reset: ResolvedKeyPath?

    init(key: String?, animation: Animation, completions: [CompletionGroup]) {
        self.key = key
        self.animation = animation
        self.completions = completions.isEmpty ? nil : completions
        reset = (animation as? PropertyAnimation)?.resettableTarget
    }

    /// The animation finished or was removed: its completion blocks stop
    /// waiting for it.
    mutating func releaseCompletions() {
        guard !completionsDone, let completions else { return }
        completionsDone = true
        for g in completions { g.pending -= 1 }
    }
}

/// CALayer's animation API: addAnimation:forKey:, animationForKey:,
/// animationKeys, removeAnimationForKey:, removeAllAnimations.
extension Layer {
    /// Attaches a copy of `animation` (later changes to `animation` have no
    /// effect). An animation already under `key` is removed first and told it
    /// did not finish. A duration of 0 becomes the transaction's
    /// animationDuration (0.25 s by default); a nil timing function becomes
    /// the transaction's animationTimingFunction when it has one. Completion
    /// blocks of the open transactions wait for it. A Transition always goes
    /// under "transition". Returns the attached (read-only) copy.
    @discardableResult
    public func addAnimation(_ animation: Animation, forKey key: String?) throws -> Animation {
        try checkModel("addAnimation")
        return try attach(animation.copy(), forKey: key)
    }

    /// addAnimation for an animation no one else holds (an action's own
    /// copy): attached as it is, not copied again.
    @discardableResult
    func attach(_ copy: Animation, forKey key: String?) throws -> Animation {
        try checkModel("addAnimation")
        // One transition per layer: whatever key is given, a transition is
        // kept under "transition" (kCATransition; spec R-X2, fact 8-44).
        let key = copy is Transition ? ActionKey.transition : key
        // Charged before validation builds the keyframe track.
        copy.memoryCharge = try HeldCharge(engine?.memory, copy.estimatedBytes(on: self), "addAnimation (\(copy.className))")
        try copy.validate(for: self)
        let transaction = engine?.transaction
        if copy.timingFunction == nil, let f = transaction?.animationTimingFunction { copy.timingFunction = f }
        copy.prepareAttached(fallbackDuration: transaction?.animationDuration ?? MediaTiming.defaultDuration)
        // What the replaced animation shows now is where a new one without a
        // fromValue starts.
        engine?.evaluateIfClockMoved()
        if let key {
            // The replacement waits for the commit that stamps it (of an
            // explicit transaction or of the step); so does the removal of
            // what it replaces (Core Animation commits both together), or the
            // layer would show its model value meanwhile.
            if let i = attachedAnimations.firstIndex(where: { $0.key == key }), attachedAnimations[i].stamped {
                attachedAnimations[i].key = nil
                attachedAnimations[i].replaced = true
            } else {
                removeAnimation(forKey: key)
            }
        }
        let attached = AttachedAnimation(key: key, animation: copy, completions: transaction?.groupsForNewAnimation() ?? [])
        attachedAnimations.append(attached)
        if attached.observed { engine?.observedAnimations += 1 }
        engine?.animationsChanged(on: self, added: true, shown: false)
        return copy
    }

    /// The attached copy under `key` (read-only), or nil.
    public func animation(forKey key: String) -> Animation? {
        attachedAnimations.first { $0.key == key }?.animation
    }

    /// Keys of the attached animations, in the order they apply (animations
    /// added without a key are not listed).
    public var animationKeys: [String] { attachedAnimations.compactMap { $0.key } }

    /// Every attached animation, in the order they apply.
    public var animations: [Animation] { attachedAnimations.map { $0.animation } }

    /// Stops one animation at once: the layer shows its model value again and
    /// the animation's delegate hears `finished: false` at the next step.
    public func removeAnimation(forKey key: String) {
        guard let i = attachedAnimations.firstIndex(where: { $0.key == key }) else { return }
        detachAnimation(at: i, finished: false)
    }

    public func removeAllAnimations() {
        while !attachedAnimations.isEmpty { detachAnimation(at: 0, finished: false) }
    }

    func detachAnimation(at i: Int, finished: Bool) {
        var a = attachedAnimations.remove(at: i)
        a.releaseCompletions()
        if a.observed { engine?.observedAnimations -= 1 }
        if !a.stopped, a.animation.delegate != nil {
            engine?.queueStop(a.animation, layer: self, finished: finished)
        }
        engine?.animationsChanged(on: self, shown: a.stamped)
    }

    /// Presentation layers are read-only copies; only model layers change.
    /// `api` names the call in the error.
    public func checkModel(_ api: String) throws {
        if isPresentation {
            throw CalunaError.invalid("\(api): this is a presentation layer (read-only); use its modelLayer")
        }
    }
}
