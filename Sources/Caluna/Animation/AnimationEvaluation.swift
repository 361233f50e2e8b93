/// A layer key path resolved once, when an animation is attached: the
/// property and the component inside it ("position.x", "transform.rotation.z").
final class ResolvedKeyPath {
    let keyPath: String
    let property: LayerProperty
    let components: [Substring]
    let kind: ValueKind
    /// Whole properties animated every frame by many layers are read and
    /// written directly (the animated-layers benchmark asks for it).
    let slot: Slot
    enum Slot { case position, opacity, bounds, transform, backgroundColor, anchorPoint, other }
    private static let slots: [String: Slot] = ["position": .position, "opacity": .opacity, "bounds": .bounds,
                                                "transform": .transform, "backgroundColor": .backgroundColor,
                                                "anchorPoint": .anchorPoint]

    init(_ keyPath: String, kind layerKind: LayerKind) throws {
        let (key, rest) = Layer.splitKeyPath(keyPath)
        let property = try LayerProperties.resolve(key, kind: layerKind)
        guard property.animatable else {
            let hint = property.key == "frame" ? " (animate position and bounds)" : ""
            throw CalunaError.invalid("'\(property.key)' is not animatable\(hint)")
        }
        guard let kind = Value.componentKind(of: property.kind, rest) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer (\(property.key) is \(property.kind.expectation))")
        }
        self.keyPath = keyPath
        self.property = property
        self.components = rest
        self.kind = kind
        slot = rest.isEmpty ? ResolvedKeyPath.slots[property.key] ?? .other : .other
    }

    struct CacheKey: Hashable { let kind: LayerKind, keyPath: String }

    /// The key path resolved for `layer`'s kind, shared through its engine
    /// (it is immutable): an implicit animation per property set made one
    /// each time. Unknown paths throw as `init` does and are not kept; the
    /// cache holds at most Engine.maximumResolvedKeyPaths.
    static func resolve(_ keyPath: String, for layer: Layer) throws -> ResolvedKeyPath {
        guard let engine = layer.engine else { return try ResolvedKeyPath(keyPath, kind: layer.kind) }
        let key = CacheKey(kind: layer.kind, keyPath: keyPath)
        if let r = engine.resolvedKeyPaths[key] { return r }
        let r = try ResolvedKeyPath(keyPath, kind: layer.kind)
        if engine.resolvedKeyPaths.count < Engine.maximumResolvedKeyPaths { engine.resolvedKeyPaths[key] = r }
        return r
    }

    func read(_ layer: Layer) -> Value {
        switch slot {
        case .position: return .point(layer.state.position)
        case .opacity: return .number(layer.state.opacity)
        case .bounds: return .rect(layer.state.bounds)
        case .transform: return .transform(layer.transform)
        case .anchorPoint: return .point(layer.state.anchorPoint)
        case .backgroundColor: return layer.state.backgroundColor.map { .color($0) } ?? .null
        case .other: break
        }
        let whole = property.get(layer)
        return components.isEmpty ? whole : (whole.component(components) ?? whole)
    }

    /// Sets the property of presentation `layer` back to its value in
    /// `model`'s committed state: only for the properties `slot` names.
    func reset(_ layer: Layer, from model: Layer) {
        // The committed state is read in place (`committedState` copies all of it).
        switch slot {
        case .position: layer.state.position = model.withCommittedState { $0.pointee.position }
        case .opacity: layer.state.opacity = model.withCommittedState { $0.pointee.opacity }
        case .bounds: layer.state.bounds = model.withCommittedState { $0.pointee.bounds }
        case .transform: layer.state.transform = model.withCommittedState { $0.pointee.transform }
        case .anchorPoint: layer.state.anchorPoint = model.withCommittedState { $0.pointee.anchorPoint }
        case .backgroundColor: layer.state.backgroundColor = model.withCommittedState { $0.pointee.backgroundColor }
        case .other: break
        }
    }

    /// Writes a presentation value. A value the property refuses (a spring
    /// overshooting into a negative size) leaves the previous value.
    func write(_ layer: Layer, _ v: Value) {
        switch (slot, v) {
        case (.position, .point(let p)): layer.state.position = p; return
        case (.opacity, .number(let n)): layer.state.opacity = n; return
        case (.transform, .transform(let t)): layer.state.transform = t; return
        case (.anchorPoint, .point(let p)): layer.state.anchorPoint = p; return
        case (.backgroundColor, .color(let c)): layer.state.backgroundColor = c; return
        case (.bounds, .rect(let r)) where r.size.width >= 0 && r.size.height >= 0: layer.state.bounds = r; return
        default: break
        }
        if components.isEmpty {
            try? property.write(layer, v)
        } else if let whole = property.get(layer).settingComponent(components, to: v) {
            try? property.write(layer, whole)
        }
    }
}

extension Animation {
    /// The eased progress (0…1) of a sample.
    func progress(_ s: TimingSample) -> Double {
        let f = Animation.linearProgress(s, duration: resolvedDuration)
        return timingFunction?.evaluate(f) ?? f
    }

    /// The progress before easing, for an iteration length `d`.
    @inline(__always)
    static func linearProgress(_ s: TimingSample, duration d: Double) -> Double { d > 0 ? s.iterationTime / d : 1 }

    func sample(parentTime tp: Double, endInclusive: Bool = false) -> TimingSample {
        timing.sample(parentTime: tp, duration: resolvedDuration, endInclusive: endInclusive)
    }
}

/// What each kind of animation writes into a presentation layer at a sample
/// (called through `Animation.contribute`).
enum AnimationEvaluation {
    /// The "current value" a missing endpoint stands for.
    static func neutral(_ a: PropertyAnimation, underlying: Value) -> Value {
        guard let f = a.valueFunction else { return underlying }
        let one = f == .scale || f == .scaleX || f == .scaleY || f == .scaleZ
        return f.valueKind == .array ? .array(Array(repeating: .number(one ? 1 : 0), count: 3)) : .number(one ? 1 : 0)
    }

    /// Apple's from/to/by table: what a basic animation interpolates between.
    /// `current` is the presentation value when the animation started;
    /// `underlying` is the live value below this animation.
    static func endpoints(_ a: BasicAnimation, current: Value, underlying: Value) throws -> (Value, Value) {
        switch (a.fromValue, a.toValue, a.byValue) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, try Interpolation.add(f, b))
        case let (nil, t?, b?): return (try Interpolation.subtract(t, b), t)
        case let (f?, nil, nil): return (f, underlying)
        case let (nil, t?, nil): return (current, t)
        case let (nil, nil, b?): return (current, try Interpolation.add(current, b))
        case (nil, nil, nil): return (current, underlying)
        }
    }

    static func basic(_ a: BasicAnimation, _ layer: Layer, _ s: TimingSample) throws {
        if let plan = a.typedPlan, plan.apply(a, layer, s) { return }
        guard let target = a.target else { return }
        let underlying = target.read(layer)
        let base = neutral(a, underlying: underlying)
        let (from, to) = try endpoints(a, current: a.capturedValue ?? base, underlying: base)
        let f = a.fraction(a.progress(s))
        var v = try Interpolation.interpolate(from, to, f)
        if a.cumulative, s.iteration > 0 {
            v = try Interpolation.add(v, try Interpolation.multiply(try Interpolation.subtract(to, from), s.iteration))
        }
        try write(a, target, layer, v, underlying: underlying)
    }

    static func keyframe(_ a: KeyframeAnimation, _ layer: Layer, _ s: TimingSample) throws {
        guard let target = a.target, let track = a.frames else { return }
        let underlying = target.read(layer)
        var (v, angle) = try track.value(at: a.progress(s))
        if a.cumulative, s.iteration > 0 {
            v = try Interpolation.add(v, try Interpolation.multiply(try Interpolation.subtract(track.last, track.first), s.iteration))
        }
        try write(a, target, layer, v, underlying: underlying)
        // rotationMode: the layer turns to follow the path's tangent.
        if let mode = a.rotationMode, var angle, a.path != nil {
            if mode == .autoReverse { angle += Double.pi }
            layer.transform = Transform3D.rotation(angle, 0, 0, 1).concatenating(layer.transform)
        }
    }

    /// Writes an animated value: through the value function, added to the
    /// underlying value when additive.
    static func write(_ a: PropertyAnimation, _ target: ResolvedKeyPath, _ layer: Layer, _ value: Value, underlying: Value) throws {
        var v = value
        if let f = a.valueFunction { v = .transform(try f.transform(v)) }
        if a.additive { v = try Interpolation.add(underlying, v) }
        target.write(layer, v)
    }

    static func group(_ g: AnimationGroup, _ layer: Layer, _ s: TimingSample) throws {
        // Children see the group's eased local time; while the group fills
        // forwards, a child ending with it keeps its last frame.
        let tp = g.progress(s) * g.resolvedDuration
        for child in g.animations ?? [] {
            let cs = child.sample(parentTime: tp, endInclusive: s.phase == .after)
            if cs.contributes { try child.contribute(to: layer, cs) }
        }
    }
}

/// A basic animation of a whole number, point or rect property (position,
/// opacity, bounds, anchorPoint) without a value function, evaluated on
/// plain components: the same arithmetic as `AnimationEvaluation.basic` on
/// Values (Interpolation's per-component rules), without making or copying
/// a Value. Made from the animation's values when used: the animation keeps
/// only its slot (`BasicAnimation.typedSlot`, set when attached), not a copy
/// of its ends (memory per animated layer).
/// Tests/CalunaTests/TypedEvaluationTests.swift compares both paths bit for bit.
struct TypedBasic {
    typealias Components = SIMD4<Double>
    let slot: ResolvedKeyPath.Slot
    let from: Components?, to: Components?, by: Components?

    /// The plan for `a`, or nil when its values or property need Values.
    init?(_ a: BasicAnimation) {
        guard a.valueFunction == nil, let slot = a.target?.slot else { return nil }
        self.init(a, slot: slot)
    }

    /// The plan for `a` on `slot`, or nil when a value is not of the slot's kind.
    init?(_ a: BasicAnimation, slot: ResolvedKeyPath.Slot) {
        func typed(_ v: Value?) -> Components?? {
            guard let v, v != .null else { return .some(nil) }
            return TypedBasic.components(v, slot).map { .some($0) }
        }
        guard slot == .position || slot == .opacity || slot == .bounds || slot == .anchorPoint,
              let from = typed(a.fromValue), let to = typed(a.toValue), let by = typed(a.byValue) else { return nil }
        (self.slot, self.from, self.to, self.by) = (slot, from, to, by)
    }

    static func components(_ v: Value, _ slot: ResolvedKeyPath.Slot) -> Components? {
        switch (slot, v) {
        case (.opacity, .number(let n)): return Components(n, 0, 0, 0)
        case (.position, .point(let p)), (.anchorPoint, .point(let p)): return Components(p.x, p.y, 0, 0)
        case (.bounds, .rect(let r)): return Components(r.origin.x, r.origin.y, r.size.width, r.size.height)
        default: return nil
        }
    }

    func read(_ state: UnsafePointer<LayerState>) -> Components { TypedBasic.read(slot, state) }

    static func read(_ slot: ResolvedKeyPath.Slot, _ state: UnsafePointer<LayerState>) -> Components {
        switch slot {
        case .opacity: return Components(state.pointee.opacity, 0, 0, 0)
        case .position: return Components(state.pointee.position.x, state.pointee.position.y, 0, 0)
        case .anchorPoint: return Components(state.pointee.anchorPoint.x, state.pointee.anchorPoint.y, 0, 0)
        default:
            let r = state.pointee.bounds
            return Components(r.origin.x, r.origin.y, r.size.width, r.size.height)
        }
    }

    /// False for a value the property refuses: a negative size (as
    /// `ResolvedKeyPath.write`, the previous value stays).
    @inline(__always)
    static func accepts(_ slot: ResolvedKeyPath.Slot, _ v: Components) -> Bool {
        slot != .bounds || (v[2] >= 0 && v[3] >= 0)
    }

    /// Writes an accepted value (see `accepts`).
    static func write(_ slot: ResolvedKeyPath.Slot, _ state: inout LayerState, _ v: Components) {
        switch slot {
        case .opacity: state.opacity = v[0]
        case .position: state.position = Point(v[0], v[1])
        case .anchorPoint: state.anchorPoint = Point(v[0], v[1])
        default: state.bounds = Rect(v[0], v[1], v[2], v[3])
        }
    }

    /// Evaluates `a` at `s` into `layer`; false (nothing written) when the
    /// captured value is of another kind, so the Value path decides.
    func apply(_ a: BasicAnimation, _ layer: Layer, _ s: TimingSample) -> Bool {
        guard let v = value(a, underlying: layer.withState(read), s) else { return false }
        if TypedBasic.accepts(slot, v) { TypedBasic.write(slot, &layer.state, v) }
        return true
    }

    /// The value `a` shows at `s` over `underlying` (the value below it), or
    /// nil when its captured value is of another kind.
    @inline(__always)
    func value(_ a: BasicAnimation, underlying: Components, _ s: TimingSample) -> Components? {
        var current = underlying
        if let c = a.capturedValue {
            guard let t = TypedBasic.components(c, slot) else { return nil }
            current = t
        }
        let (f0, t0) = endpoints(current: current)
        return TypedBasic.blend(f0, t0 ?? underlying, a.fraction(a.progress(s)), s, cumulative: a.cumulative,
                                additive: a.additive, underlying: underlying)
    }

    /// Apple's from/to/by table (AnimationEvaluation.endpoints) at the value
    /// `current` the animation started from; a nil end is the underlying value.
    @inline(__always)
    func endpoints(current: Components) -> (Components, Components?) {
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, f + b)
        case let (nil, t?, b?): return (t - b, t)
        case let (f?, nil, nil): return (f, nil)
        case let (nil, t?, nil): return (current, t)
        case let (nil, nil, b?): return (current, current + b)
        case (nil, nil, nil): return (current, nil)
        }
    }

    /// The value between the ends at `fraction` (eased progress), carried on
    /// by each repeat when cumulative, over `underlying` when additive.
    @inline(__always)
    static func blend(_ f0: Components, _ t0: Components, _ fraction: Double, _ s: TimingSample,
                      cumulative: Bool, additive: Bool, underlying: Components) -> Components {
        var v = Interpolation.lerp(f0, t0, fraction)
        if cumulative, s.iteration > 0 { v = v + (t0 - f0) * s.iteration }
        if additive { v = underlying + v }
        return v
    }
}
