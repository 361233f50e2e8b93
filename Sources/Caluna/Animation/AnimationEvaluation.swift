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
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        let property = try LayerProperties.resolve(String(parts[0]), kind: layerKind)
        guard property.animatable else {
            let hint = property.key == "frame" ? " (animate position and bounds)" : ""
            throw CalunaError.invalid("'\(property.key)' is not animatable\(hint)")
        }
        let rest = Array(parts.dropFirst())
        guard let kind = Value.componentKind(of: property.kind, rest) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer (\(property.key) is \(property.kind.expectation))")
        }
        self.keyPath = keyPath
        self.property = property
        self.components = rest
        self.kind = kind
        slot = rest.isEmpty ? ResolvedKeyPath.slots[property.key] ?? .other : .other
    }

    func read(_ layer: Layer) -> Value {
        switch slot {
        case .position: return .point(layer.state.position)
        case .opacity: return .number(layer.state.opacity)
        case .bounds: return .rect(layer.state.bounds)
        case .transform: return .transform(layer.state.transform)
        case .anchorPoint: return .point(layer.state.anchorPoint)
        case .backgroundColor: return layer.state.backgroundColor.map { .color($0) } ?? .null
        case .other: break
        }
        let whole = property.get(layer)
        return components.isEmpty ? whole : (whole.component(components) ?? whole)
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
        let d = resolvedDuration
        let f = d > 0 ? s.iterationTime / d : 1
        return timingFunction?.evaluate(f) ?? f
    }

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
