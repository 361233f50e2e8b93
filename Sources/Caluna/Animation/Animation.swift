/// Receives an animation's start and stop (CAAnimationDelegate). The animation
/// passed is the layer's own copy, not the object that was added (R-D1).
/// Errors thrown here propagate to the step that delivered the event, after
/// every other event of that instant has been delivered.
public protocol AnimationDelegate: AnyObject {
    func animationDidStart(_ animation: Animation) throws
    func animationDidStop(_ animation: Animation, finished: Bool) throws
}

/// CAAnimation: timing, easing, a delegate and free-form tags. Subclasses say
/// what the animation changes. Adding an animation to a layer attaches a
/// frozen copy; the caller's object stays editable and is never touched again.
public class Animation {
    // The fields the evaluation loop reads in every frame are unchecked:
    // an attached copy is frozen, and the others are plain values. (The
    // flags follow the 50-byte timing, filling its padding.)
    @exclusivity(unchecked) public var timing = MediaTiming()
    public var removedOnCompletion = true
    /// True for the copy a layer holds: it may be read, never changed.
    public internal(set) var isFrozen = false
    /// nil means linear (explicit animations' default).
    @exclusivity(unchecked) public var timingFunction: TimingFunction? = nil
    /// Held strongly, as Core Animation does.
    public var delegate: AnimationDelegate? = nil
    /// Key-value tags (`setValue:forKey:` with any key); copies share them.
    public var tags: [String: Any] = [:]
    /// The attached copy's cost in its engine's ledger (AnimationMemory.swift).
    var memoryCharge = HeldCharge()

    /// The iteration length actually used: an attached copy's duration was
    /// resolved when it was attached (0 → the transaction's duration); any
    /// other animation's is its duration, or the default when that is 0.
    var resolvedDuration: Double {
        isFrozen ? timing.duration : (timing.duration > 0 ? timing.duration : MediaTiming.defaultDuration)
    }

    public init() {}

    /// Core Animation's class name without the prefix.
    public var className: String { "Animation" }

    /// A deep copy (group children included), unfrozen.
    public func copy() -> Animation {
        let c = makeEmpty()
        copyFields(to: c)
        return c
    }

    func makeEmpty() -> Animation { Animation() }

    func copyFields(to c: Animation) {
        c.timing = timing
        c.timingFunction = timingFunction
        c.removedOnCompletion = removedOnCompletion
        c.delegate = delegate
        c.tags = tags
    }

    /// Refuses to change an attached copy (Core Animation throws too).
    public func checkMutable() throws {
        if isFrozen {
            throw CalunaError.invalid("\(className) is attached to a layer and cannot be changed; " +
                                      "remove it and add a changed copy instead")
        }
    }

    /// Applies the animation's value at sample `s` to a presentation layer.
    func contribute(to layer: Layer, _ s: TimingSample) throws {}

    /// Checks what `addAnimation` needs before it attaches a copy.
    func validate(for layer: Layer) throws {}

    /// Freezes a copy for `layer`, resolving durations (0 → `fallback`):
    /// the attached copy reads the duration it runs for, as Core Animation's
    /// "is given the default duration" says.
    func prepareAttached(fallbackDuration fallback: Double) {
        isFrozen = true
        if !(timing.duration > 0) { timing.duration = fallback }
    }
}

/// A Core Animation value function name (CAValueFunction): turns the
/// interpolated number(s) into a transform.
public enum ValueFunction: String, CaseIterable, Sendable {
    case rotateX, rotateY, rotateZ, scale, scaleX, scaleY, scaleZ, translate, translateX, translateY, translateZ

    /// The transform for one interpolated value: a number, or for `scale`
    /// and `translate` a number (uniform) or an array of three numbers.
    func transform(_ v: Value) throws -> Transform3D {
        func three(_ v: Value, uniform: Bool) throws -> (Double, Double, Double) {
            switch v {
            case .number(let n): return uniform ? (n, n, n) : (n, n, 0)
            case .array(let a) where a.count == 3:
                guard case .number(let x) = a[0], case .number(let y) = a[1], case .number(let z) = a[2] else { break }
                return (x, y, z)
            default: break
            }
            throw CalunaError(.typeMismatch, "value function \(rawValue) expects a number or {x, y, z}, got \(v.kind.expectation)")
        }
        func number(_ v: Value) throws -> Double {
            guard case .number(let n) = v else {
                throw CalunaError(.typeMismatch, "value function \(rawValue) expects a number, got \(v.kind.expectation)")
            }
            return n
        }
        switch self {
        case .rotateX: return .rotation(try number(v), 1, 0, 0)
        case .rotateY: return .rotation(try number(v), 0, 1, 0)
        case .rotateZ: return .rotation(try number(v), 0, 0, 1)
        case .scale: let (x, y, z) = try three(v, uniform: true); return .scale(x, y, z)
        case .scaleX: return .scale(try number(v), 1, 1)
        case .scaleY: return .scale(1, try number(v), 1)
        case .scaleZ: return .scale(1, 1, try number(v))
        case .translate: let (x, y, z) = try three(v, uniform: false); return .translation(x, y, z)
        case .translateX: return .translation(try number(v), 0, 0)
        case .translateY: return .translation(0, try number(v), 0)
        case .translateZ: return .translation(0, 0, try number(v))
        }
    }

    /// What the animation's values are: numbers, or {x, y, z} for scale/translate.
    var valueKind: ValueKind { self == .scale || self == .translate ? .array : .number }
}

/// CAPropertyAnimation: an animation of one layer key path.
public class PropertyAnimation: Animation {
    /// "position", "position.x", "transform.rotation.z", "backgroundColor", …
    @exclusivity(unchecked) public var keyPath: String? = nil
    // Resolved when attached.
    @exclusivity(unchecked) var target: ResolvedKeyPath? = nil
    /// The value is added to the underlying value instead of replacing it.
    @exclusivity(unchecked) public var additive = false
    /// Each repeat starts where the previous one ended.
    @exclusivity(unchecked) public var cumulative = false
    @exclusivity(unchecked) public var valueFunction: ValueFunction? = nil
    /// `target` when it is a whole property the presentation can reset
    /// alone (AttachedAnimation.reset); overridden by kinds that write more.
    var resettableTarget: ResolvedKeyPath? { target.flatMap { $0.slot == .other ? nil : $0 } }

    public override var className: String { "PropertyAnimation" }
    override func makeEmpty() -> Animation { PropertyAnimation() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        guard let c = c as? PropertyAnimation else { return }
        c.keyPath = keyPath
        c.additive = additive
        c.cumulative = cumulative
        c.valueFunction = valueFunction
        c.target = target
    }

    /// The kind the animation's values take: the key path's kind, or a
    /// value function's input.
    public func valueKind() throws -> ValueKind {
        if let f = valueFunction { return f.valueKind }
        guard let keyPath else { throw CalunaError.invalid("\(className): set keyPath first") }
        // Resolved already (validate resolves it first): the same property, the same kind.
        if let target, target.keyPath == keyPath { return target.kind }
        return try Layer.kind(forKeyPath: keyPath).0
    }

    override func validate(for layer: Layer) throws {
        guard let keyPath else { throw CalunaError.invalid("\(className) has no keyPath") }
        let target = try ResolvedKeyPath.resolve(keyPath, for: layer)
        if valueFunction != nil, target.kind != .transform {
            throw CalunaError.invalid("\(className): a valueFunction needs a transform key path (got '\(keyPath)')")
        }
        self.target = target
    }
}
