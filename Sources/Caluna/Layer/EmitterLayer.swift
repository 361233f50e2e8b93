/// CAEmitterLayer (listing 6.13): a particle system. The layer holds its
/// emitter geometry and the multipliers it applies to every cell; the cells
/// (EmitterCell.swift) are templates, and the particles are computed in
/// closed form from the seed and the layer's local time
/// (EmitterSimulation.swift), so a frame never depends on how the clock got
/// there.
public struct EmitterLayerState: Equatable {
    /// Centre of the emission shape, in the layer's coordinates.
    public var emitterPosition = Point.zero
    public var emitterZPosition = 0.0
    public var emitterSize = Size.zero
    public var emitterDepth = 0.0
    public var emitterShape = EmitterShape.point
    public var emitterMode = EmitterMode.volume
    public var renderMode = EmitterRenderMode.unordered
    // Multipliers of the cells' values (book: "以相乘的方式作用在一起").
    public var birthRate = 1.0
    public var lifetime = 1.0
    public var velocity = 1.0
    public var scale = 1.0
    public var spin = 1.0
    /// The random seed (an unsigned 32-bit number): the same seed gives the
    /// same particles.
    public var seed = 0.0
    /// Only false (flattened into the layer, Apple's default) is drawn.
    public var preservesDepth = false
}

/// kCAEmitterLayerPoint … Sphere.
public enum EmitterShape: String, CaseIterable, Sendable, StringEnumProperty {
    case point, line, rectangle, circle, cuboid, sphere
}

/// kCAEmitterLayerPoints … Volume: which part of the shape particles are born on.
public enum EmitterMode: String, CaseIterable, Sendable, StringEnumProperty {
    case points, outline, surface, volume
}

/// kCAEmitterLayerUnordered … Additive.
public enum EmitterRenderMode: String, CaseIterable, Sendable, StringEnumProperty {
    case unordered, oldestFirst, oldestLast, backToFront, additive
}

extension LayerProperties {
    /// A change starts a new stretch of the emission history at the time it
    /// is made (particles already born keep what they were born with).
    private static func noteEmitterChange(_ layer: Layer) { EmitterSimulation.noteChange(of: layer) }

    /// `unit`: what the value measures, for messages (the layer's birthRate,
    /// lifetime, velocity, scale and spin multiply the cells' own).
    private static func emitterNumber(_ key: String, _ path: WritableKeyPath<SpecialisedLayerState, Double>,
                                      animatable: Bool = true, nonNegative: Bool = false,
                                      unit: String = "times the cells' values") -> LayerProperty {
        .specialised(key, path, animatable: animatable, check: { v in
            if nonNegative { try LayerProperty.nonNegative(key, v) }
            try LayerProperty.checkMagnitude(key, unit: unit, v)
        }, didChange: noteEmitterChange)
    }

    static let emitterLayer: [LayerProperty] = [
        .specialised("emitterPosition", \.emitter.emitterPosition, animatable: true,
                     check: { try LayerProperty.checkMagnitude("emitterPosition", $0.x, $0.y) }, didChange: noteEmitterChange),
        emitterNumber("emitterZPosition", \.emitter.emitterZPosition, unit: "points"),
        .specialised("emitterSize", \.emitter.emitterSize, animatable: true, check: { s in
            try LayerProperty.checkMagnitude("emitterSize", s.width, s.height)
            guard s.width >= 0, s.height >= 0 else {
                throw CalunaError.invalid("emitterSize: width and height must not be negative (got \(s))")
            }
        }, didChange: noteEmitterChange),
        emitterNumber("emitterDepth", \.emitter.emitterDepth, nonNegative: true, unit: "points"),
        .specialisedChoice("emitterShape", \.emitter.emitterShape, didChange: noteEmitterChange),
        .specialisedChoice("emitterMode", \.emitter.emitterMode, didChange: noteEmitterChange),
        .specialisedChoice("renderMode", \.emitter.renderMode),
        emitterNumber("birthRate", \.emitter.birthRate, nonNegative: true),
        emitterNumber("lifetime", \.emitter.lifetime, nonNegative: true),
        emitterNumber("velocity", \.emitter.velocity),
        emitterNumber("scale", \.emitter.scale),
        emitterNumber("spin", \.emitter.spin),
        .specialised("seed", \.emitter.seed, animatable: false, check: { v in
            guard v >= 0, v <= 4294967295, v == v.rounded() else {
                throw CalunaError.invalid("seed must be a whole number in 0…4294967295 (got \(fmt(v)))")
            }
        }, didChange: noteEmitterChange),
        .specialised("preservesDepth", \.emitter.preservesDepth, animatable: false, check: { v in
            guard !v else {
                throw CalunaError(.notSupported, "preservesDepth = true is not supported: particles are flattened into the emitter layer (Apple's default)")
            }
        }),
    ]
}
