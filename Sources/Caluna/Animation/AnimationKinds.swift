/// CABasicAnimation: from, to and by values (Apple's combination table lives
/// in `AnimationEvaluation.endpoints`).
public class BasicAnimation: PropertyAnimation {
    /// Set when attached, for whole numbers, points and rects: the property
    /// evaluated on components (TypedBasic). (First: it fits in the bytes
    /// PropertyAnimation's flags leave before the values.)
    @exclusivity(unchecked) var typedSlot: ResolvedKeyPath.Slot? = nil
    // Plain values, read on every attach (an exclusivity check per read
    // was a tenth of an implicit animation, with the fields below).
    @exclusivity(unchecked) public var fromValue: Value? = nil
    @exclusivity(unchecked) public var toValue: Value? = nil
    @exclusivity(unchecked) public var byValue: Value? = nil

    // Resolved at commit: the presentation value when the animation started,
    // used where the table says "the current value".
    @exclusivity(unchecked) var capturedValue: Value? = nil
    /// The typed plan (made from the frozen values each time it is asked for).
    var typedPlan: TypedBasic? { typedSlot.flatMap { TypedBasic(self, slot: $0) } }

    public override var className: String { "BasicAnimation" }
    override func makeEmpty() -> Animation { BasicAnimation() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        guard let c = c as? BasicAnimation else { return }
        c.fromValue = fromValue
        c.toValue = toValue
        c.byValue = byValue
        c.capturedValue = capturedValue
    }

    override func contribute(to layer: Layer, _ s: TimingSample) throws { try AnimationEvaluation.basic(self, layer, s) }

    override func prepareAttached(fallbackDuration fallback: Double) {
        super.prepareAttached(fallbackDuration: fallback)
        typedSlot = LayerProperty.fastPathsEnabled ? TypedBasic(self)?.slot : nil
    }

    /// How far from the start value to the end value at eased progress `p`.
    func fraction(_ p: Double) -> Double { p }

    override func validate(for layer: Layer) throws {
        try super.validate(for: layer)
        let kind = try valueKind()
        // Each value in turn (an array of them cost an allocation per implicit animation).
        func check(_ name: String, _ v: Value?) throws {
            guard let v, v != .null else { return }
            if kind == .array, v.kind == .number { return }   // scale/translate: uniform
            if v.kind != kind && !(kind == .color && v.kind == .null) {
                throw CalunaError(.typeMismatch, "\(className).\(name) for '\(keyPath ?? "")' expects \(kind.expectation), got \(v.kind.expectation)")
            }
        }
        try check("fromValue", fromValue)
        try check("toValue", toValue)
        try check("byValue", byValue)
    }
}

/// CASpringAnimation: a basic animation whose progress follows a damped
/// spring in real (local) seconds instead of a timing curve. Its duration is
/// what you set (0 → the default); `settlingDuration` says how long the spring
/// needs, as in Core Animation.
public final class SpringAnimation: BasicAnimation {
    public var spring = SpringCurve.standard

    public var settlingDuration: Double { spring.settlingDuration }

    /// The spring runs in real local seconds (the timing function warps them).
    override func fraction(_ p: Double) -> Double { spring.fraction(at: p * resolvedDuration) }

    public override var className: String { "SpringAnimation" }
    override func makeEmpty() -> Animation { SpringAnimation() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        (c as? SpringAnimation)?.spring = spring
    }
}

/// CAKeyframeAnimation.
public final class KeyframeAnimation: PropertyAnimation {
    public enum CalculationMode: String, CaseIterable, Sendable { case linear, discrete, paced, cubic, cubicPaced }
    public enum RotationMode: String, CaseIterable, Sendable { case auto, autoReverse }

    public var values: [Value]? = nil
    /// Overrides `values` for point key paths: every element after a move is a keyframe.
    public var path: Path? = nil
    /// One per keyframe (one more for discrete mode is also accepted), in [0, 1], non-decreasing.
    public var keyTimes: [Double]? = nil
    /// One per segment (keyframes − 1); missing ones are linear, extra ones ignored.
    public var timingFunctions: [TimingFunction]? = nil
    public var calculationMode = CalculationMode.linear
    public var rotationMode: RotationMode? = nil
    /// A rotation mode writes the transform too.
    override var resettableTarget: ResolvedKeyPath? { rotationMode == nil ? super.resettableTarget : nil }
    /// Kochanek–Bartels parameters for the cubic modes (0 when absent).
    public var tensionValues: [Double]? = nil
    public var continuityValues: [Double]? = nil
    public var biasValues: [Double]? = nil

    // Resolved when attached.
    var frames: KeyframeTrack? = nil

    public override var className: String { "KeyframeAnimation" }
    override func makeEmpty() -> Animation { KeyframeAnimation() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        guard let c = c as? KeyframeAnimation else { return }
        c.values = values
        c.path = path
        c.keyTimes = keyTimes
        c.timingFunctions = timingFunctions
        c.calculationMode = calculationMode
        c.rotationMode = rotationMode
        c.tensionValues = tensionValues
        c.continuityValues = continuityValues
        c.biasValues = biasValues
        c.frames = frames
    }

    override func contribute(to layer: Layer, _ s: TimingSample) throws { try AnimationEvaluation.keyframe(self, layer, s) }

    override func validate(for layer: Layer) throws {
        try super.validate(for: layer)
        frames = try KeyframeTrack(self)
    }
}

/// CAAnimationGroup: children run together in the group's time. Children
/// with duration 0 take the group's; the children's delegates and
/// removedOnCompletion are ignored (Apple).
public final class AnimationGroup: Animation {
    /// The children. Scripts and hosts set them through `setAnimations`,
    /// which bounds the tree; the counts below follow every assignment.
    public var animations: [Animation]? = nil {
        didSet { (nestingDepth, animationCount) = AnimationGroup.measure(animations ?? [], depth: 1, count: 0) }
    }
    /// 1 for a group of plain animations, 2 for a group holding such a group, …
    public private(set) var nestingDepth = 1
    /// The animations below this group, nested ones included (a group that
    /// holds the same group twice counts it twice: each is a copy).
    public private(set) var animationCount = 0

    /// At most this many animations in one group's tree. Children are
    /// copies, so a group added to itself doubles: 32 levels of that would
    /// be 2^32 animations to copy and evaluate.
    public static let maximumAnimationCount = 100_000

    /// Sets copies of `children` as the animations, refused (nothing
    /// changes) past `maximumNesting` levels or `maximumAnimationCount`
    /// animations, checked before anything is copied.
    public func setAnimations(_ children: [Animation]?, _ api: String) throws {
        try checkMutable()
        guard let children else { animations = nil; return }
        try checkRoom(for: children, depth: 1, count: 0, api)
        animations = children.map { $0.copy() }
    }

    /// Appends a copy of `child`, under the same bounds.
    public func addAnimation(_ child: Animation, _ api: String) throws {
        try checkMutable()
        try checkRoom(for: [child], depth: nestingDepth, count: animationCount, api)
        animations = (animations ?? []) + [child.copy()]
    }

    /// The nesting depth and animation count of a group holding `children`
    /// besides what it keeps of its own (`depth`, `count`).
    private static func measure(_ children: [Animation], depth: Int, count: Int) -> (depth: Int, count: Int) {
        children.reduce((depth, count)) { r, c in
            let g = c as? AnimationGroup
            return (max(r.0, 1 + (g?.nestingDepth ?? 0)), r.1 + 1 + (g?.animationCount ?? 0))
        }
    }

    private func checkRoom(for children: [Animation], depth ownDepth: Int, count ownCount: Int, _ api: String) throws {
        let (depth, count) = AnimationGroup.measure(children, depth: ownDepth, count: ownCount)
        guard depth <= AnimationGroup.maximumNesting else {
            throw CalunaError.invalid("\(api): groups nest at most \(AnimationGroup.maximumNesting) deep")
        }
        guard count <= AnimationGroup.maximumAnimationCount else {
            throw CalunaError.invalid("\(api): the group would hold \(count) animations, nested ones included (at most \(AnimationGroup.maximumAnimationCount); each child is a copy)")
        }
    }

    public override var className: String { "AnimationGroup" }
    override func makeEmpty() -> Animation { AnimationGroup() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        (c as? AnimationGroup)?.animations = animations?.map { $0.copy() }
    }

    override func contribute(to layer: Layer, _ s: TimingSample) throws { try AnimationEvaluation.group(self, layer, s) }

    override func validate(for layer: Layer) throws {
        try super.validate(for: layer)
        guard nestingDepth <= AnimationGroup.maximumNesting else {
            throw CalunaError.invalid("AnimationGroup: groups nest at most \(AnimationGroup.maximumNesting) deep")
        }
        for child in animations ?? [] { try child.validate(for: layer) }
    }

    /// Deeper nesting is refused: copying and evaluating recurse per level.
    public static let maximumNesting = 32

    override func prepareAttached(fallbackDuration fallback: Double) {
        super.prepareAttached(fallbackDuration: fallback)
        for child in animations ?? [] { child.prepareAttached(fallbackDuration: resolvedDuration) }
    }
}
