import CChipmunk
import Synchronization

/// A rigid body (cpBody). Dynamic bodies move under forces and collisions,
/// kinematic ones move only by their velocity, static ones not at all.
///
/// A dynamic body's mass comes from `mass` or from its shapes' density or
/// mass (Chipmunk 7). Its moment comes from `moment`; when none is given it
/// is computed from the shapes, the mass spread over their area — so a body
/// of mass 100 with one 32×32 box has cpMomentForBox(100, 32, 32).
public final class PhysicsBody {
    public enum Kind: String, CaseIterable { case dynamic, kinematic, `static` }

    /// The smallest mass and moment a dynamic body may have (smaller ones
    /// would let one step's impulses overflow).
    static let minimumMass = 1e-9

    let handle: BodyRef
    let isStaticBodyOfWorld: Bool
    /// The world the body is in (the owning world for its static body).
    public internal(set) weak var world: PhysicsWorld?
    /// The world whose Chipmunk space holds the body now. It differs from
    /// `world` while a removal made during a step waits for the step's end:
    /// the body is out of the world but still in its (locked) space.
    weak var spaceWorld: PhysicsWorld?
    public private(set) var shapes: [PhysicsShape] = []
    var bindings: [LayerBinding] = []
    /// False once the world owning its static body was destroyed.
    private(set) var isValid = true
    /// Usable: not the static body of a destroyed world.
    public var isUsable: Bool { isValid }
    /// No moment was given: it follows the shapes and the mass.
    var momentIsAutomatic = true
    /// Whatever the host attaches (a Lua value, a C pointer).
    public var userData: AnyObject?
    /// What the host made the update hooks from (a Lua function), to read back.
    public var velocityUpdateSource: AnyObject?
    public var positionUpdateSource: AnyObject?
    /// A serial number for messages and stable orders.
    public let serial: Int
    /// The index of its first shape in its world's reach list for the
    /// current step (PhysicsLimits.swift), -1 before any.
    var reachStart = -1
    private static let nextSerial = Atomic<Int>(0)

    /// Replaces the velocity integration (cpBodySetVelocityUpdateFunc):
    /// called with gravity, damping and dt; `updateVelocity` is the default.
    public var velocityUpdate: ((PhysicsBody, Point, Double, Double) throws -> Void)? {
        didSet { cpBodySetVelocityUpdateFunc(handle, velocityUpdate == nil ? cpBodyUpdateVelocity : velocityTrampoline) }
    }
    /// Replaces the position integration; `updatePosition` is the default.
    public var positionUpdate: ((PhysicsBody, Double) throws -> Void)? {
        didSet { cpBodySetPositionUpdateFunc(handle, positionUpdate == nil ? cpBodyUpdatePosition : positionTrampoline) }
    }

    /// Chipmunk's body and this object, as charged to a memory ledger.
    public static let estimatedBytes = 1024
    /// The body's cost (nil for a world's static body: the world's covers it);
    /// its shapes and constraints charge the same ledger.
    let memoryCharge: MemoryCharge?

    /// A body charged `estimatedBytes` to `memory` (by default the thread's
    /// current ledger, MemoryLedger.swift), refused past its limit.
    public init(kind: Kind = .dynamic, mass: Double? = nil, moment: Double? = nil,
                memory: MemoryLedger? = MemoryLedger.current) throws {
        if kind != .dynamic, mass != nil || moment != nil {
            throw CalunaError.invalid("a \(kind.rawValue) body has no mass or moment (only dynamic bodies do)")
        }
        let m = try mass.map { try PhysicsBody.checkMass($0) } ?? 0
        let i = try moment.map { try PhysicsBody.checkMoment($0) } ?? 0
        memoryCharge = try MemoryCharge(memory, PhysicsBody.estimatedBytes, "a physics body")
        switch kind {
        case .dynamic: handle = cpBodyNew(m, i)
        case .kinematic: handle = cpBodyNewKinematic()
        case .static: handle = cpBodyNewStatic()
        }
        isStaticBodyOfWorld = false
        momentIsAutomatic = moment == nil
        serial = PhysicsBody.takeSerial()
        cpBodySetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A world's static body. It is a static body of its own added to the
    /// space (not the space's built-in one, which dies with the space), so a
    /// script holding it after the world is destroyed reads valid memory.
    init(staticBodyOf world: PhysicsWorld) {
        handle = cpBodyNewStatic()
        cpSpaceAddBody(world.space, handle)
        memoryCharge = nil
        isStaticBodyOfWorld = true
        self.world = world
        serial = PhysicsBody.takeSerial()
        cpBodySetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The ledger the body's shapes and constraints charge.
    var ledger: MemoryLedger? { memoryCharge?.ledger ?? world?.memoryCharge.ledger }

    // Engines may run on several threads: serials come from an atomic.
    private static func takeSerial() -> Int { nextSerial.add(1, ordering: .relaxed).newValue }

    deinit {
        for s in shapes { s.detachFromBody() }
        cpBodyFree(handle)
    }

    /// "#12 (dynamic)" — how messages name a body.
    public var label: String { isStaticBodyOfWorld ? "static body of the world" : "#\(serial) (\(kind.rawValue))" }

    func check() throws {
        guard isValid else { throw CalunaError(.staleHandle, "the world that owned this static body was destroyed") }
    }

    func invalidate() {
        for s in shapes { s.detachFromBody() }
        shapes = []
        isValid = false
        world = nil
    }

    /// Leaves `world`: its shapes (and it) are taken out of the space.
    func leave(_ w: PhysicsWorld) {
        for s in shapes where s.inSpace { cpSpaceRemoveShape(w.space, s.handle); s.inSpace = false }
        w.spaceShapesStale = true
        if cpBodyGetSpace(handle) != nil { cpSpaceRemoveBody(w.space, handle) }
        spaceWorld = nil
    }

    static func checkMass(_ m: Double) throws -> Double {
        guard m.isFinite, m >= minimumMass, m <= Chipmunk.limit else {
            throw CalunaError.invalid("mass must be from \(fmt(minimumMass)) to \(fmt(Chipmunk.limit)) (got \(m))")
        }
        return m
    }

    /// A moment is positive, or ∞ for a body that never rotates.
    static func checkMoment(_ i: Double) throws -> Double {
        if i == .infinity { return i }
        guard i.isFinite, i >= minimumMass, i <= Chipmunk.limit * Chipmunk.limit else {
            throw CalunaError.invalid("moment must be from \(fmt(minimumMass)) to 1e30, or ∞ (got \(i))")
        }
        return i
    }

    /// Changes Chipmunk forbids during a step are refused there.
    func checkChangeable(_ what: String) throws {
        try check()
        if let w = world ?? spaceWorld { try w.checkNotStepping("changing a body's \(what)") }
    }

    // MARK: properties

    public var kind: Kind {
        switch cpBodyGetType(handle) {
        case CP_BODY_TYPE_KINEMATIC: return .kinematic
        case CP_BODY_TYPE_STATIC: return .static
        default: return .dynamic
        }
    }

    public func setKind(_ k: Kind) throws {
        try checkChangeable("type")
        if isStaticBodyOfWorld { throw CalunaError.invalid("the world's static body stays static") }
        guard k != kind else { return }
        if k != .dynamic, let w = world, w.constraints.contains(where: {
            ($0.bodyA === self && $0.bodyB.kind != .dynamic) || ($0.bodyB === self && $0.bodyA.kind != .dynamic)
        }) {
            throw CalunaError.invalid("body \(label) cannot become \(k.rawValue): a constraint joins it to a body that is not dynamic")
        }
        // Chipmunk moves the shapes between its static and moving indexes at once.
        if let w = world, cpBodyGetSpace(handle) != nil, (k == .static) != (kind == .static) {
            try w.admitPairs(of: shapes.filter(\.inSpace), moving: k != .static, "body \(label) did not become \(k.rawValue)")
        }
        world?.needsPreflight = true
        // A sleeping body changed to another type breaks its sleeping group.
        if cpBodyGetSpace(handle) != nil, kind != .static { cpBodyActivate(handle) }
        switch k {
        case .dynamic: cpBodySetType(handle, CP_BODY_TYPE_DYNAMIC)
        case .kinematic: cpBodySetType(handle, CP_BODY_TYPE_KINEMATIC)
        case .static: cpBodySetType(handle, CP_BODY_TYPE_STATIC)
        }
        if k == .dynamic { updateAutomaticMoment() }
        world?.needsPreflight = true
        world?.movingHandlesStale = true
    }

    public var mass: Double { cpBodyGetMass(handle) }
    public func setMass(_ m: Double) throws {
        try checkChangeable("mass")
        guard kind == .dynamic else { throw CalunaError.invalid("only a dynamic body has a mass (this one is \(kind.rawValue))") }
        cpBodySetMass(handle, try PhysicsBody.checkMass(m))
        updateAutomaticMoment()
        world?.needsPreflight = true
    }

    public var moment: Double { cpBodyGetMoment(handle) }
    public func setMoment(_ i: Double) throws {
        try checkChangeable("moment")
        guard kind == .dynamic else { throw CalunaError.invalid("only a dynamic body has a moment (this one is \(kind.rawValue))") }
        cpBodySetMoment(handle, try PhysicsBody.checkMoment(i))
        momentIsAutomatic = false
        world?.needsPreflight = true
    }

    /// With no moment given and no shape carrying mass, the moment of the
    /// shapes' geometry with the body's mass spread over their area.
    func updateAutomaticMoment() {
        guard momentIsAutomatic, kind == .dynamic, !shapes.contains(where: { $0.mass > 0 }) else { return }
        let m = mass
        guard m > 0 else { return }
        let areas = shapes.map { $0.geometry.area }
        let total = areas.reduce(0, +)
        guard total > 0 else { return }
        var i = 0.0
        for (s, a) in zip(shapes, areas) where a > 0 { i += s.geometry.moment(mass: m * a / total) }
        if i > 0, i.isFinite { cpBodySetMoment(handle, i) }
        world?.needsPreflight = true
    }

    public var position: Point { Chipmunk.point(cpBodyGetPosition(handle)) }
    public func setPosition(_ p: Point) throws {
        try check()
        let v = try Chipmunk.vect(p, "position")
        try moveStatic { cpBodySetPosition(handle, v) }
    }

    /// Radians, counter-clockwise in a y-up world (clockwise on a y-down screen).
    public var angle: Double { cpBodyGetAngle(handle) }
    public func setAngle(_ a: Double) throws {
        try check()
        let angle = try Chipmunk.number(a, "angle")
        try moveStatic { cpBodySetAngle(handle, angle) }
    }

    /// Static bodies are not re-indexed by steps: moving one re-indexes its
    /// shapes, which Chipmunk pairs at once with the moving shapes they
    /// overlap; past the world's maxContactPairs the move is undone.
    private func moveStatic(_ move: () -> Void) throws {
        guard kind == .static, let w = world, !w.isDestroyed else { move(); return }
        let p = cpBodyGetPosition(handle), a = cpBodyGetAngle(handle)
        move()
        do {
            try w.admitPairs(of: shapes.filter(\.inSpace), "the static body was not moved")
        } catch {
            cpBodySetPosition(handle, p)
            cpBodySetAngle(handle, a)
            for s in shapes { _ = cpShapeCacheBB(s.handle) }
            throw error
        }
        w.whenUnlocked { [self] in if cpBodyGetSpace(handle) != nil { cpSpaceReindexShapesForBody(w.space, handle) } }
    }

    public var velocity: Point { Chipmunk.point(cpBodyGetVelocity(handle)) }
    public func setVelocity(_ v: Point) throws { try check(); cpBodySetVelocity(handle, try Chipmunk.vect(v, "velocity")) }

    public var angularVelocity: Double { cpBodyGetAngularVelocity(handle) }
    public func setAngularVelocity(_ w: Double) throws {
        try check(); cpBodySetAngularVelocity(handle, try Chipmunk.number(w, "angularVelocity"))
    }

    /// The force applied during the next step (Chipmunk resets it after each step).
    public var force: Point { Chipmunk.point(cpBodyGetForce(handle)) }
    public func setForce(_ f: Point) throws { try check(); cpBodySetForce(handle, try Chipmunk.vect(f, "force")) }

    public var torque: Double { cpBodyGetTorque(handle) }
    public func setTorque(_ t: Double) throws { try check(); cpBodySetTorque(handle, try Chipmunk.number(t, "torque")) }

    /// The centre of gravity in body coordinates.
    public var centerOfGravity: Point { Chipmunk.point(cpBodyGetCenterOfGravity(handle)) }
    public func setCenterOfGravity(_ p: Point) throws {
        try checkChangeable("centre of gravity")
        cpBodySetCenterOfGravity(handle, try Chipmunk.vect(p, "centerOfGravity"))
    }

    public var kineticEnergy: Double { cpBodyKineticEnergy(handle) }
    public var isSleeping: Bool { cpBodyIsSleeping(handle) != 0 }

    // MARK: forces and points

    public func applyForce(_ f: Point, atWorldPoint p: Point) throws {
        try check()
        cpBodyApplyForceAtWorldPoint(handle, try Chipmunk.vect(f, "force"), try Chipmunk.vect(p, "point"))
        try checkAccumulated("force", cpBodyGetForce(handle))
    }

    public func applyForce(_ f: Point, atLocalPoint p: Point) throws {
        try check()
        cpBodyApplyForceAtLocalPoint(handle, try Chipmunk.vect(f, "force"), try Chipmunk.vect(p, "point"))
        try checkAccumulated("force", cpBodyGetForce(handle))
    }

    public func applyImpulse(_ j: Point, atWorldPoint p: Point) throws {
        try checkImpulsable()
        cpBodyApplyImpulseAtWorldPoint(handle, try Chipmunk.vect(j, "impulse"), try Chipmunk.vect(p, "point"))
        try checkAccumulated("velocity", cpBodyGetVelocity(handle))
    }

    public func applyImpulse(_ j: Point, atLocalPoint p: Point) throws {
        try checkImpulsable()
        cpBodyApplyImpulseAtLocalPoint(handle, try Chipmunk.vect(j, "impulse"), try Chipmunk.vect(p, "point"))
        try checkAccumulated("velocity", cpBodyGetVelocity(handle))
    }

    /// An impulse divides by mass and moment: a dynamic body without them
    /// would get NaN velocities (Chipmunk aborts on them later).
    private func checkImpulsable() throws {
        try check()
        if kind == .dynamic, !(mass > 0 && moment > 0) {
            throw CalunaError.invalid("body \(label) has no mass or moment yet: an impulse cannot move it")
        }
    }

    /// Forces and impulses add up: past the bound (or NaN) the sum is undone.
    private func checkAccumulated(_ what: String, _ v: cpVect) throws {
        let limit = Chipmunk.limit
        let within = { (x: Double) in abs(x) <= limit }
        guard !(within(v.x) && within(v.y) && within(cpBodyGetTorque(handle)) && within(cpBodyGetAngularVelocity(handle))) else { return }
        cpBodySetForce(handle, cpv(0, 0)); cpBodySetTorque(handle, 0)
        if what == "velocity" { cpBodySetVelocity(handle, cpv(0, 0)); cpBodySetAngularVelocity(handle, 0) }
        throw CalunaError.invalid("the body's \(what) would pass ±\(fmt(limit)); it was reset to 0")
    }

    public func localToWorld(_ p: Point) throws -> Point {
        try check()
        return Chipmunk.point(cpBodyLocalToWorld(handle, try Chipmunk.vect(p, "point")))
    }

    public func worldToLocal(_ p: Point) throws -> Point {
        try check()
        return Chipmunk.point(cpBodyWorldToLocal(handle, try Chipmunk.vect(p, "point")))
    }

    public func velocity(atWorldPoint p: Point) throws -> Point {
        try check()
        return Chipmunk.point(cpBodyGetVelocityAtWorldPoint(handle, try Chipmunk.vect(p, "point")))
    }

    // MARK: sleeping

    public func sleep() throws {
        try checkChangeable("sleep")
        guard kind == .dynamic else { throw CalunaError.invalid("only dynamic bodies sleep") }
        guard let w = world, cpBodyGetSpace(handle) != nil else { throw CalunaError.invalid("a body sleeps only in a world") }
        try w.checkNotStepping("putting a body to sleep")
        guard w.sleepTimeThreshold.isFinite else {
            throw CalunaError.invalid("the world does not let bodies sleep: give it a finite sleepTimeThreshold")
        }
        guard !isSleeping else { return }
        // Chipmunk keeps bodies joined by constraints or touching asleep or
        // awake together: its next step aborts ("inconsistency in the contact
        // graph", "dangling contact graph pointers") on a sleeping body joined
        // to or touching an awake one. So those dynamic bodies sleep with this
        // one, as one group (those asleep in other groups are woken first).
        guard let group = w.sleepComponent(of: self) else {
            throw CalunaError.invalid("a body touching or joined to a kinematic body cannot sleep (the kinematic body keeps it awake)")
        }
        for b in group where b !== self && b.isSleeping { cpBodyActivate(b.handle) }
        cpBodySleep(handle)
        for b in group where b !== self { cpBodySleepWithGroup(b.handle, handle) }
    }

    public func activate() throws {
        try check()
        guard let w = world, cpBodyGetSpace(handle) != nil else { return }
        try w.checkNotStepping("waking a body")
        if kind == .static { cpBodyActivateStatic(handle, nil) } else { cpBodyActivate(handle) }
    }

    /// The default integrations, for update callbacks that extend them.
    public func updateVelocity(gravity: Point, damping: Double, dt: Double) throws {
        try check()
        guard kind == .dynamic else { return }
        guard mass > 0, moment > 0 else {
            throw CalunaError.invalid("body \(label) has no mass or moment to integrate")
        }
        cpBodyUpdateVelocity(handle, try Chipmunk.vect(gravity, "gravity"),
                             try Chipmunk.number(damping, "damping", min: 0, max: 1),
                             try Chipmunk.number(dt, "dt", min: 0, max: 10))
    }

    public func updatePosition(dt: Double) throws {
        try check()
        cpBodyUpdatePosition(handle, try Chipmunk.number(dt, "dt", min: 0, max: 10))
    }

    // MARK: shapes

    /// Makes a shape on this body; in a world, it joins the world too.
    @discardableResult
    public func addShape(_ geometry: PhysicsShape.Geometry) throws -> PhysicsShape {
        try check()
        try world?.admitShapes(1)
        let s = try PhysicsShape(body: self, geometry: geometry)
        if let w = world {
            do { try w.admitPairs(of: [s], "the shape was not added") } catch { s.detachFromBody(); throw error }
            w.shapeCount += 1
        }
        shapes.append(s)
        if let w = world {
            w.whenUnlocked { [self] in
                guard s.body === self, !s.inSpace, !w.isDestroyed, cpBodyGetSpace(handle) != nil || isStaticBodyOfWorld else { return }
                cpSpaceAddShape(w.space, s.handle)
                s.inSpace = true
                w.spaceShapesStale = true
            }
        }
        updateAutomaticMoment()
        return s
    }

    /// Takes a shape off this body (and out of the world).
    public func removeShape(_ s: PhysicsShape) throws {
        try check()
        guard s.body === self, shapes.contains(where: { $0 === s }) else {
            throw CalunaError.invalid("the shape is not on this body")
        }
        shapes.removeAll { $0 === s }
        world?.shapeCount -= 1
        // Out of the space too (at the step's end if the space is locked,
        // also for a body whose own removal is still pending).
        if let w = world ?? spaceWorld {
            w.whenUnlocked {
                if s.inSpace, !w.isDestroyed { cpSpaceRemoveShape(w.space, s.handle); s.inSpace = false; w.spaceShapesStale = true }
            }
        }
        s.detachFromBody()
        updateAutomaticMoment()
        try world?.takeCallbackError()
    }

    func shapeMassChanged() {
        world?.needsPreflight = true
        updateAutomaticMoment()
    }
}

// The update hooks run inside cpSpaceStep: a failing hook falls back to the
// default integration and its error is reported after the step. A position
// hook's move is checked against the contact-pair guard (PhysicsLimits.swift).
private let velocityTrampoline: cpBodyVelocityFunc = { h, gravity, damping, dt in
    guard let b = PhysicsWorld.body(h), let hook = b.velocityUpdate, let w = b.world else {
        cpBodyUpdateVelocity(h, gravity, damping, dt); return
    }
    let ok = w.runCallback(default: false) { try hook(b, Chipmunk.point(gravity), damping, dt); return true }
    if !ok { cpBodyUpdateVelocity(h, gravity, damping, dt) }
}

private let positionTrampoline: cpBodyPositionFunc = { h, dt in
    guard let h, let b = PhysicsWorld.body(h), let hook = b.positionUpdate, let w = b.world else {
        cpBodyUpdatePosition(h, dt); return
    }
    let pose = calu_cpBodyPose(h)
    let ok = w.runCallback(default: false) { try hook(b, dt); return true }
    if !ok { cpBodyUpdatePosition(h, dt) }
    w.checkHookMove(b, from: pose, dt: dt)
}
