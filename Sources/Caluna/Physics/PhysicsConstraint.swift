import CChipmunk

/// A joint between two bodies (cpConstraint). Anchors are in each body's
/// coordinates; `pivot` is a world point. Every kind has maxForce, errorBias,
/// maxBias and collideBodies, and reports the last step's impulse.
public final class PhysicsConstraint {
    public enum Kind: String, CaseIterable {
        case pin, slide, pivot, groove, dampedSpring, dampedRotarySpring, rotaryLimit, ratchet, gear, simpleMotor
    }

    let handle: ConstraintRef
    public let kind: Kind
    public let bodyA: PhysicsBody
    public let bodyB: PhysicsBody
    public internal(set) weak var world: PhysicsWorld?
    public var userData: AnyObject?
    /// The constraint's cost, on its first body's ledger.
    let memoryCharge: MemoryCharge

    /// Makes a constraint of `kind` from its parameters (the kind's
    /// properties, plus `pivot` for a pivot joint given in world coordinates).
    public init(_ kind: Kind, _ a: PhysicsBody, _ b: PhysicsBody, _ parameters: [String: Value] = [:]) throws {
        try a.check(); try b.check()
        guard a !== b else { throw CalunaError.invalid("a \(kind.rawValue) constraint needs two different bodies") }
        if let wa = a.world, let wb = b.world, wa !== wb {
            throw CalunaError.invalid("a \(kind.rawValue) constraint cannot join bodies of two worlds")
        }
        let table = PhysicsConstraint.properties(of: kind)
        for key in parameters.keys where table[key] == nil && !(kind == .pivot && key == "pivot") {
            throw CalunaError(.unknownKey, "a \(kind.rawValue) constraint has no parameter '\(key)'")
        }
        let p = Parameters(values: parameters, kind: kind)
        memoryCharge = try MemoryCharge(a.ledger ?? b.ledger, PhysicsBody.estimatedBytes, "a \(kind.rawValue) constraint")
        let A = a.handle, B = b.handle
        switch kind {
        case .pin:
            let pa = try p.vect("anchorA"), pb = try p.vect("anchorB")
            // Chipmunk warns on stderr about a pin of length 0: refuse it here.
            let wa = cpBodyLocalToWorld(A, pa), wb = cpBodyLocalToWorld(B, pb)
            guard wa.x != wb.x || wa.y != wb.y else {
                throw CalunaError.invalid("pin: the anchors coincide (a pin of length 0); use a pivot joint")
            }
            handle = cpPinJointNew(A, B, pa, pb)
        case .slide:
            let lo = try p.number("min", 0, min: 0), hi = try p.number("max", lo, min: 0)
            guard lo <= hi else { throw CalunaError.invalid("slide: min \(fmt(lo)) is above max \(fmt(hi))") }
            handle = cpSlideJointNew(A, B, try p.vect("anchorA"), try p.vect("anchorB"), lo, hi)
        case .pivot:
            if parameters["pivot"] != nil {
                if parameters["anchorA"] != nil || parameters["anchorB"] != nil {
                    throw CalunaError.invalid("pivot: give either pivot (a world point) or anchorA and anchorB")
                }
                handle = cpPivotJointNew(A, B, try p.vect("pivot"))
            } else {
                handle = cpPivotJointNew2(A, B, try p.vect("anchorA"), try p.vect("anchorB"))
            }
        case .groove:
            let ga = try p.vect("grooveA"), gb = try p.vect("grooveB")
            guard ga.x != gb.x || ga.y != gb.y else { throw CalunaError.invalid("groove: grooveA and grooveB must differ") }
            handle = cpGrooveJointNew(A, B, ga, gb, try p.vect("anchorB"))
        case .dampedSpring:
            handle = cpDampedSpringNew(A, B, try p.vect("anchorA"), try p.vect("anchorB"),
                                       try p.number("restLength", 0, min: 0), try p.number("stiffness", 0),
                                       try p.number("damping", 0, min: 0))
        case .dampedRotarySpring:
            handle = cpDampedRotarySpringNew(A, B, try p.number("restAngle", 0), try p.number("stiffness", 0),
                                             try p.number("damping", 0, min: 0))
        case .rotaryLimit:
            let lo = try p.number("min", 0), hi = try p.number("max", lo)
            guard lo <= hi else { throw CalunaError.invalid("rotaryLimit: min \(fmt(lo)) is above max \(fmt(hi))") }
            handle = cpRotaryLimitJointNew(A, B, lo, hi)
        case .ratchet:
            handle = cpRatchetJointNew(A, B, try p.number("phase", 0), try PhysicsConstraint.ratchetStep(p.number("ratchet", 1)))
        case .gear:
            handle = cpGearJointNew(A, B, try p.number("phase", 0), try PhysicsConstraint.gearRatio(p.number("ratio", 1)))
        case .simpleMotor: handle = cpSimpleMotorNew(A, B, try p.number("rate", 0))
        }
        self.kind = kind
        bodyA = a
        bodyB = b
        cpConstraintSetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
        // The rest (maxForce, distance, …) through the property table.
        let creation: Set<String> = ["anchorA", "anchorB", "pivot", "min", "max", "grooveA", "grooveB",
                                     "restLength", "stiffness", "damping", "restAngle", "phase", "ratchet", "ratio", "rate"]
        for (key, value) in parameters.sorted(by: { $0.key < $1.key }) where !creation.contains(key) {
            try setValue(value, forKey: key)
        }
    }

    deinit { cpConstraintFree(handle) }

    /// Chipmunk aborts on a constraint it cannot solve: one of the bodies
    /// must be dynamic, and for the rotary kinds able to turn (finite moment).
    func checkSolvable() throws {
        let rotary: Set<Kind> = [.dampedRotarySpring, .rotaryLimit, .ratchet, .gear, .simpleMotor]
        let turns = { (b: PhysicsBody) in b.kind == .dynamic && (!rotary.contains(self.kind) || b.moment.isFinite) }
        guard turns(bodyA) || turns(bodyB) else {
            throw CalunaError.invalid(rotary.contains(kind)
                ? "a \(kind.rawValue) constraint needs a dynamic body with a finite moment (bodies \(bodyA.label) and \(bodyB.label))"
                : "a \(kind.rawValue) constraint needs at least one dynamic body (bodies \(bodyA.label) and \(bodyB.label)); Chipmunk cannot solve it")
        }
    }

    static func gearRatio(_ r: Double) throws -> Double {
        guard abs(r) >= 1e-9, abs(r) <= 1e9 else { throw CalunaError.invalid("gear: ratio must be non-zero, from ±1e-9 to ±1e9 (got \(fmt(r)))") }
        return r
    }

    static func ratchetStep(_ r: Double) throws -> Double {
        guard abs(r) >= 1e-9 else { throw CalunaError.invalid("ratchet: the ratchet interval must be non-zero (got \(fmt(r)))") }
        return r
    }

    /// The impulse the constraint applied in the last step (divide by the
    /// step for a force).
    public var impulse: Double { cpConstraintGetImpulse(handle) }

    /// A property of this kind by name ("maxForce", "anchorA", "stiffness", …).
    public func value(forKey key: String) throws -> Value {
        guard let p = PhysicsConstraint.properties(of: kind)[key] else {
            throw CalunaError(.unknownKey, "a \(kind.rawValue) constraint has no property '\(key)'")
        }
        return p.get(self)
    }

    public func setValue(_ v: Value, forKey key: String) throws {
        guard let p = PhysicsConstraint.properties(of: kind)[key] else {
            throw CalunaError(.unknownKey, "a \(kind.rawValue) constraint has no property '\(key)'")
        }
        guard let set = p.set else { throw CalunaError.invalid("\(kind.rawValue).\(key) is read-only") }
        if let w = world { try w.checkAlive() }
        try set(self, try p.checked(v, "\(kind.rawValue).\(key)"))
    }

    /// Reads creation parameters with defaults.
    private struct Parameters {
        let values: [String: Value]
        let kind: Kind
        func vect(_ key: String) throws -> cpVect {
            guard let v = values[key] else { return cpv(0, 0) }
            guard case .point(let p) = v else { throw CalunaError(.typeMismatch, "\(kind.rawValue).\(key) must be a point") }
            return try Chipmunk.vect(p, "\(kind.rawValue).\(key)")
        }
        func number(_ key: String, _ fallback: Double, min: Double = -Chipmunk.limit) throws -> Double {
            guard let v = values[key] else { return fallback }
            guard case .number(let n) = v else { throw CalunaError(.typeMismatch, "\(kind.rawValue).\(key) must be a number") }
            return try Chipmunk.number(n, "\(kind.rawValue).\(key)", min: min)
        }
    }
}
