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
}

/// CALayer's animation API: addAnimation:forKey:, animationForKey:,
/// animationKeys, removeAnimationForKey:, removeAllAnimations.
extension Layer {
    /// Attaches a copy of `animation` (later changes to `animation` have no
    /// effect). An animation already under `key` is removed first and told it
    /// did not finish. A duration of 0 becomes the default of 0.25 s.
    /// Returns the attached (read-only) copy.
    @discardableResult
    public func addAnimation(_ animation: Animation, forKey key: String?) throws -> Animation {
        try checkModel("addAnimation")
        let copy = animation.copy()
        try copy.validate(for: self)
        copy.prepareAttached(fallbackDuration: MediaTiming.defaultDuration)
        if let key { removeAnimation(forKey: key) }
        attachedAnimations.append(AttachedAnimation(key: key, animation: copy))
        if copy.delegate != nil { engine?.animationsWithDelegates += 1 }
        engine?.animationsChanged(on: self, added: true)
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
        let a = attachedAnimations.remove(at: i)
        if a.animation.delegate != nil { engine?.animationsWithDelegates -= 1 }
        if !a.stopped, a.animation.delegate != nil {
            engine?.queueStop(a.animation, layer: self, finished: finished)
        }
        engine?.animationsChanged(on: self)
    }

    /// Presentation layers are read-only copies; only model layers change.
    /// `api` names the call in the error.
    public func checkModel(_ api: String) throws {
        if isPresentation {
            throw CalunaError.invalid("\(api): this is a presentation layer (read-only); use its modelLayer")
        }
    }
}
