import CChipmunk

/// One property of a physics object, by name: the one table the Lua binding
/// and the C ABI read and write worlds, bodies, shapes and constraints through.
public struct PhysicsProperty<Object: AnyObject> {
    public let key: String
    /// The kinds of value it takes (a collision type takes a number or a name).
    public let kinds: [ValueKind]
    let get: (Object) -> Value
    let set: ((Object, Value) throws -> Void)?
    public var isReadOnly: Bool { self.set == nil }

    func checked(_ v: Value, _ what: String) throws -> Value {
        guard kinds.contains(v.kind) else {
            throw CalunaError(.typeMismatch, "\(what) expects \(kinds.map(\.rawValue).joined(separator: " or ")), got \(v.kind.rawValue)")
        }
        return v
    }

    static func number(_ key: String, _ get: @escaping (Object) -> Double,
                       _ set: ((Object, Double) throws -> Void)? = nil) -> PhysicsProperty {
        PhysicsProperty(key: key, kinds: [.number], get: { .number(get($0)) }, set: set.map { set in
            { o, v in if case .number(let n) = v { try set(o, n) } }
        })
    }

    /// A whole number (iterations, counts).
    static func integer(_ key: String, _ get: @escaping (Object) -> Int,
                        _ set: @escaping (Object, Int) throws -> Void) -> PhysicsProperty {
        number(key, { Double(get($0)) }) { o, n in
            guard n == n.rounded(), abs(n) <= 1e9 else { throw CalunaError.invalid("\(key) must be a whole number (got \(n))") }
            try set(o, Int(n))
        }
    }

    static func point(_ key: String, _ get: @escaping (Object) -> Point,
                      _ set: ((Object, Point) throws -> Void)? = nil) -> PhysicsProperty {
        PhysicsProperty(key: key, kinds: [.point], get: { .point(get($0)) }, set: set.map { set in
            { o, v in if case .point(let p) = v { try set(o, p) } }
        })
    }

    static func bool(_ key: String, _ get: @escaping (Object) -> Bool,
                     _ set: ((Object, Bool) throws -> Void)? = nil) -> PhysicsProperty {
        PhysicsProperty(key: key, kinds: [.bool], get: { .bool(get($0)) }, set: set.map { set in
            { o, v in if case .bool(let b) = v { try set(o, b) } }
        })
    }

    static func table(_ list: [PhysicsProperty]) -> [String: PhysicsProperty] {
        Dictionary(uniqueKeysWithValues: list.map { ($0.key, $0) })
    }
}

/// Reading and writing by name, for the bindings.
public protocol PhysicsObject: AnyObject {
    static var properties: [String: PhysicsProperty<Self>] { get }
    static var typeName: String { get }
    /// Throws when the object can no longer be used (a destroyed world, the
    /// static body of one).
    func checkUsable() throws
}

extension PhysicsObject {
    public func value(forKey key: String) throws -> Value {
        guard let p = Self.properties[key] else { throw CalunaError(.unknownKey, "a physics \(Self.typeName) has no property '\(key)'") }
        try checkUsable()
        return p.get(self)
    }

    public func setValue(_ v: Value, forKey key: String) throws {
        guard let p = Self.properties[key] else { throw CalunaError(.unknownKey, "a physics \(Self.typeName) has no property '\(key)'") }
        guard let set = p.set else { throw CalunaError.invalid("\(Self.typeName).\(key) is read-only") }
        try checkUsable()
        try set(self, try p.checked(v, "\(Self.typeName).\(key)"))
    }
}

extension PhysicsWorld: PhysicsObject {
    public func checkUsable() throws { try checkAlive() }
    public static let typeName = "world"
    public static let properties = PhysicsProperty<PhysicsWorld>.table([
        .point("gravity", { $0.gravity }) { try $0.setGravity($1) },
        .integer("iterations", { $0.iterations }) { try $0.setIterations($1) },
        .number("damping", { $0.damping }) { try $0.setDamping($1) },
        .number("idleSpeedThreshold", { $0.idleSpeedThreshold }) { try $0.setIdleSpeedThreshold($1) },
        .number("sleepTimeThreshold", { $0.sleepTimeThreshold }) { try $0.setSleepTimeThreshold($1) },
        .number("collisionSlop", { $0.collisionSlop }) { try $0.setCollisionSlop($1) },
        .number("collisionBias", { $0.collisionBias }) { try $0.setCollisionBias($1) },
        .integer("collisionPersistence", { $0.collisionPersistence }) { try $0.setCollisionPersistence($1) },
        .number("step", { $0.stepDuration }) { try $0.setStep($1) },
        // world.step is the method in Lua: timeStep reads (and sets) the same.
        .number("timeStep", { $0.stepDuration }) { try $0.setStep($1) },
        .integer("maxStepsPerFrame", { $0.maxStepsPerFrame }) { try $0.setMaxStepsPerFrame($1) },
        .integer("maxBodies", { $0.maxBodies }) { try $0.setLimit(\.maxBodies, "maxBodies", $1) },
        .integer("maxShapes", { $0.maxShapes }) { try $0.setLimit(\.maxShapes, "maxShapes", $1) },
        .integer("maxConstraints", { $0.maxConstraints }) { try $0.setLimit(\.maxConstraints, "maxConstraints", $1) },
        .integer("maxContactPairs", { $0.maxContactPairs }) { try $0.setLimit(\.maxContactPairs, "maxContactPairs", $1) },
        .bool("paused", { $0.paused }) { w, p in w.paused = p },
        .number("time", { $0.simulatedTime }),
        .number("steps", { Double($0.stepCount) }),
        .number("droppedSteps", { Double($0.droppedSteps) }),
    ])
}

extension PhysicsBody: PhysicsObject {
    public func checkUsable() throws { try check() }
    public static let typeName = "body"
    public static let properties = PhysicsProperty<PhysicsBody>.table([
        PhysicsProperty(key: "type", kinds: [.string], get: { .string($0.kind.rawValue) }, set: { b, v in
            guard case .string(let s) = v, let k = Kind(rawValue: s) else {
                throw CalunaError.invalid("body type must be dynamic, kinematic or static")
            }
            try b.setKind(k)
        }),
        .number("mass", { $0.mass }) { try $0.setMass($1) },
        .number("moment", { $0.moment }) { try $0.setMoment($1) },
        .point("position", { $0.position }) { try $0.setPosition($1) },
        .number("angle", { $0.angle }) { try $0.setAngle($1) },
        .point("velocity", { $0.velocity }) { try $0.setVelocity($1) },
        .number("angularVelocity", { $0.angularVelocity }) { try $0.setAngularVelocity($1) },
        .point("force", { $0.force }) { try $0.setForce($1) },
        .number("torque", { $0.torque }) { try $0.setTorque($1) },
        .point("centerOfGravity", { $0.centerOfGravity }) { try $0.setCenterOfGravity($1) },
        .number("kineticEnergy", { $0.kineticEnergy }),
        .bool("sleeping", { $0.isSleeping }),
    ])
}

extension PhysicsShape: PhysicsObject {
    /// A shape's own memory stays valid: reading is always safe, and its
    /// setters check that it is still on a body.
    public func checkUsable() throws {}
    public static let typeName = "shape"
    public static let properties = PhysicsProperty<PhysicsShape>.table([
        .number("friction", { $0.friction }) { try $0.setFriction($1) },
        .number("elasticity", { $0.elasticity }) { try $0.setElasticity($1) },
        .point("surfaceVelocity", { $0.surfaceVelocity }) { try $0.setSurfaceVelocity($1) },
        .bool("sensor", { $0.isSensor }) { try $0.setSensor($1) },
        PhysicsProperty(key: "collisionType", kinds: [.number, .string], get: { $0.collisionType.value },
                        set: { s, v in try s.setCollisionType(try CollisionType(v)) }),
        .number("mass", { $0.mass }) { try $0.setMass($1) },
        .number("density", { $0.density }) { try $0.setDensity($1) },
        .number("area", { $0.area }),
        .number("radius", { $0.geometry.radius }),
        PhysicsProperty(key: "type", kinds: [.string], get: { .string($0.geometry.name) }, set: nil),
        PhysicsProperty(key: "boundingBox", kinds: [.rect], get: { .rect((try? $0.boundingBox()) ?? .zero) }, set: nil),
    ])
}

extension PhysicsConstraint {
    private typealias P = PhysicsProperty<PhysicsConstraint>

    private static let common: [P] = [
        PhysicsProperty(key: "type", kinds: [.string], get: { .string($0.kind.rawValue) }, set: nil),
        .number("maxForce", { cpConstraintGetMaxForce($0.handle) }) { c, v in
            cpConstraintSetMaxForce(c.handle, v == .infinity ? v : try Chipmunk.positive(v, "maxForce", allowZero: true))
        },
        .number("maxBias", { cpConstraintGetMaxBias($0.handle) }) { c, v in
            cpConstraintSetMaxBias(c.handle, v == .infinity ? v : try Chipmunk.positive(v, "maxBias", allowZero: true))
        },
        .number("errorBias", { cpConstraintGetErrorBias($0.handle) }) { c, v in
            cpConstraintSetErrorBias(c.handle, try Chipmunk.number(v, "errorBias", min: 0, max: 1))
        },
        .bool("collideBodies", { cpConstraintGetCollideBodies($0.handle) != 0 }) { c, v in
            cpConstraintSetCollideBodies(c.handle, v ? 1 : 0)
        },
        .number("impulse", { $0.impulse }),
    ]

    private static func anchor(_ key: String, _ get: @escaping (UnsafePointer<cpConstraint>?) -> cpVect,
                               _ set: @escaping (ConstraintRef?, cpVect) -> Void) -> P {
        .point(key, { Chipmunk.point(get($0.handle)) }) { c, p in set(c.handle, try Chipmunk.vect(p, key)) }
    }

    private static func scalar(_ key: String, min: Double = -Chipmunk.limit, _ get: @escaping (UnsafePointer<cpConstraint>?) -> Double,
                               _ set: @escaping (ConstraintRef?, Double) -> Void) -> P {
        .number(key, { get($0.handle) }) { c, v in set(c.handle, try Chipmunk.number(v, key, min: min)) }
    }

    private static let tables: [Kind: [String: P]] = {
        var t: [Kind: [P]] = [:]
        t[.pin] = [anchor("anchorA", cpPinJointGetAnchorA, cpPinJointSetAnchorA),
                   anchor("anchorB", cpPinJointGetAnchorB, cpPinJointSetAnchorB),
                   scalar("distance", min: 0, cpPinJointGetDist, cpPinJointSetDist)]
        t[.slide] = [anchor("anchorA", cpSlideJointGetAnchorA, cpSlideJointSetAnchorA),
                     anchor("anchorB", cpSlideJointGetAnchorB, cpSlideJointSetAnchorB),
                     scalar("min", min: 0, cpSlideJointGetMin, cpSlideJointSetMin),
                     scalar("max", min: 0, cpSlideJointGetMax, cpSlideJointSetMax)]
        t[.pivot] = [anchor("anchorA", cpPivotJointGetAnchorA, cpPivotJointSetAnchorA),
                     anchor("anchorB", cpPivotJointGetAnchorB, cpPivotJointSetAnchorB)]
        t[.groove] = [anchor("grooveA", cpGrooveJointGetGrooveA, cpGrooveJointSetGrooveA),
                      anchor("grooveB", cpGrooveJointGetGrooveB, cpGrooveJointSetGrooveB),
                      anchor("anchorB", cpGrooveJointGetAnchorB, cpGrooveJointSetAnchorB)]
        t[.dampedSpring] = [anchor("anchorA", cpDampedSpringGetAnchorA, cpDampedSpringSetAnchorA),
                            anchor("anchorB", cpDampedSpringGetAnchorB, cpDampedSpringSetAnchorB),
                            scalar("restLength", min: 0, cpDampedSpringGetRestLength, cpDampedSpringSetRestLength),
                            scalar("stiffness", cpDampedSpringGetStiffness, cpDampedSpringSetStiffness),
                            scalar("damping", min: 0, cpDampedSpringGetDamping, cpDampedSpringSetDamping)]
        t[.dampedRotarySpring] = [scalar("restAngle", cpDampedRotarySpringGetRestAngle, cpDampedRotarySpringSetRestAngle),
                                  scalar("stiffness", cpDampedRotarySpringGetStiffness, cpDampedRotarySpringSetStiffness),
                                  scalar("damping", min: 0, cpDampedRotarySpringGetDamping, cpDampedRotarySpringSetDamping)]
        t[.rotaryLimit] = [scalar("min", cpRotaryLimitJointGetMin, cpRotaryLimitJointSetMin),
                           scalar("max", cpRotaryLimitJointGetMax, cpRotaryLimitJointSetMax)]
        t[.ratchet] = [scalar("angle", cpRatchetJointGetAngle, cpRatchetJointSetAngle),
                       scalar("phase", cpRatchetJointGetPhase, cpRatchetJointSetPhase),
                       .number("ratchet", { cpRatchetJointGetRatchet($0.handle) }) { c, v in
                           cpRatchetJointSetRatchet(c.handle, try PhysicsConstraint.ratchetStep(try Chipmunk.number(v, "ratchet")))
                       }]
        t[.gear] = [scalar("phase", cpGearJointGetPhase, cpGearJointSetPhase),
                    .number("ratio", { cpGearJointGetRatio($0.handle) }) { c, v in
                        cpGearJointSetRatio(c.handle, try PhysicsConstraint.gearRatio(try Chipmunk.number(v, "ratio")))
                    }]
        t[.simpleMotor] = [scalar("rate", cpSimpleMotorGetRate, cpSimpleMotorSetRate)]
        return t.mapValues { P.table(common + $0) }
    }()

    /// The properties of a kind of constraint.
    public static func properties(of kind: Kind) -> [String: PhysicsProperty<PhysicsConstraint>] { tables[kind]! }
}
