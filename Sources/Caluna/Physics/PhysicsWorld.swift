import CChipmunk

/// A Chipmunk space (cpSpace) stepped by the engine's clock: fixed steps from
/// an accumulator kept in clock ticks (DESIGN §3), so a second of 1/120 s
/// steps is exactly 120 steps however the host splits its frames. Like the
/// book's loop, the simulation runs up to one step ahead of the clock.
///
/// The world owns what is added to it; removing a body removes its shapes
/// and the constraints that use it. While the world steps, additions and
/// removals are deferred to the end of the step, other changes that Chipmunk
/// forbids there (mass, type, sleep) are errors.
public final class PhysicsWorld {
    let space: SpaceRef
    @WeakLink public private(set) var engine: Engine?
    /// The world's static body (like cpSpaceGetStaticBody).
    public private(set) var staticBody: PhysicsBody! = nil

    /// The length of one fixed step, in seconds.
    public private(set) var stepDuration: Double
    var stepTicks: Int64
    /// The caps on what the world holds and on a catch-up (PhysicsLimits.swift).
    public internal(set) var limits: PhysicsLimits
    /// Made for an engine with a memory limit: its caps cannot be raised.
    public let isSandboxed: Bool
    /// A paused world is not stepped by the clock (manual `step` still works).
    public var paused = false {
        didSet { if let e = engine { simulatedTick = e.clock.ticks } }
    }
    /// The clock reading the simulation has reached (ticks).
    var simulatedTick: Int64
    /// Steps taken since the world was made.
    public private(set) var stepCount = 0
    /// Steps dropped by maxStepsPerFrame.
    public private(set) var droppedSteps = 0

    var bodies: [PhysicsBody] = []
    /// The handles of the bodies that move (dynamic and kinematic), for the
    /// post-step scan in C; rebuilt when bodies come and go or change type.
    var movingHandles: [BodyRef?] = []
    var movingHandlesStale = true
    var constraints: [PhysicsConstraint] = []
    /// The contact-pair guard's state (PhysicsLimits.swift): shapes on the
    /// world's bodies (the static body's included); the pairs counted, once
    /// `pairsCounted`; the reach of shapes that join after the step; during a
    /// counted step, each shape's reach and handle and the pairs so far.
    var shapeCount = 0, pairEstimate = 0, pairsCounted = false
    var pendingReach: [calu_Reach] = []
    var stepReach: [calu_Reach] = [], stepReachShapes: [ShapeRef?] = [], stepPairs = 0
    /// The shapes in the space in body order, rebuilt when shapes join or leave it.
    var spaceShapes: [ShapeRef?] = [], spaceShapesStale = true, reachScratch: [calu_Reach] = []
    var handlers: [CollisionHandler.Selector: CollisionHandler] = [:]
    /// Bodies with layers bound to them, in binding order.
    var boundBodies: [PhysicsBody] = []

    /// True inside cpSpaceStep (and queries): the space is locked.
    public private(set) var isStepping = false
    /// Additions and removals made while stepping, run after the step.
    var deferred: [() -> Void] = []
    /// The first error a callback raised during the current step.
    var callbackError: Error?
    /// Mass, moment or constraint bodies changed: re-check before stepping.
    var needsPreflight = true
    public private(set) var isDestroyed = false

    public struct Settings {
        public var gravity = Point.zero
        public var iterations = 10
        public var damping = 1.0
        public var idleSpeedThreshold = 0.0
        public var sleepTimeThreshold = Double.infinity
        /// nil: Chipmunk's default (the float 0.1f, 0.100000001490116…):
        /// left alone so a port of C code gives the same numbers.
        public var collisionSlop: Double? = nil
        /// nil: Chipmunk's default, (1 − 0.1)⁶⁰.
        public var collisionBias: Double? = nil
        public var collisionPersistence = 3
        public var step = 1.0 / 120
        /// nil: the limits' default (16); 0: no cap (trusted worlds only).
        public var maxStepsPerFrame: Int? = nil
        /// nil: `PhysicsLimits.defaults(for:)` the world's ledger.
        public var limits: PhysicsLimits? = nil
        public init() {}
    }

    /// The space, its static body and bookkeeping, as charged to a ledger.
    public static let estimatedBytes = 16 * 1024
    /// The world's cost: on its engine's ledger (else the current one); its
    /// static body's shapes charge it too.
    let memoryCharge: MemoryCharge

    /// A world stepped by `engine`'s clock (nil: stepped only by hand).
    public init(engine: Engine?, settings: Settings = Settings()) throws {
        let ledger = engine?.memory ?? MemoryLedger.current
        memoryCharge = try MemoryCharge(ledger, PhysicsWorld.estimatedBytes, "a physics world")
        isSandboxed = (ledger?.limit ?? 0) > 0
        limits = PhysicsLimits.defaults(for: ledger)
        space = Chipmunk.newSpace()
        self.engine = engine
        stepDuration = 1.0 / 120
        stepTicks = Clock.ticksPerSecond / 120
        simulatedTick = engine?.clock.ticks ?? 0
        staticBody = PhysicsBody(staticBodyOf: self)
        staticBody.spaceWorld = self
        // Wildcard mode from the start: Chipmunk 7.0.3 makes contacts without
        // wildcard handlers until a space uses them, and a wildcard handler
        // added later calls through those missing handlers (a crash).
        _ = cpSpaceAddDefaultCollisionHandler(space)
        do {
            try apply(settings)
        } catch {
            tearDown()
            throw error
        }
        engine?.physicsWorlds.append(self)
    }

    deinit { tearDown() }

    func apply(_ s: Settings) throws {
        try setGravity(s.gravity)
        try setIterations(s.iterations)
        try setDamping(s.damping)
        try setIdleSpeedThreshold(s.idleSpeedThreshold)
        try setSleepTimeThreshold(s.sleepTimeThreshold)
        if let slop = s.collisionSlop { try setCollisionSlop(slop) }
        if let b = s.collisionBias { try setCollisionBias(b) }
        try setCollisionPersistence(s.collisionPersistence)
        try setStep(s.step)
        if let l = s.limits {
            try setLimit(\.maxBodies, "maxBodies", l.maxBodies)
            try setLimit(\.maxShapes, "maxShapes", l.maxShapes)
            try setLimit(\.maxConstraints, "maxConstraints", l.maxConstraints)
            try setLimit(\.maxContactPairs, "maxContactPairs", l.maxContactPairs)
            try setMaxStepsPerFrame(l.maxStepsPerFrame)
        }
        if let n = s.maxStepsPerFrame { try setMaxStepsPerFrame(n) }
    }

    /// Removes everything and frees the space; the engine stops stepping
    /// it. Bodies, shapes and constraints stay usable outside any world; the
    /// static body and its shapes become unusable.
    public func destroy() throws {
        try checkNotStepping("destroy")
        tearDown()
    }

    private func tearDown() {
        guard !isDestroyed else { return }
        isDestroyed = true
        engine?.physicsWorlds.removeAll { $0 === self }
        // No callback may reach a script while the world comes apart.
        for h in handlers.values { h.detach() }
        handlers = [:]
        // Dropped at once, not per shape (Chipmunk's removal scans them all).
        // Sleeping bodies keep their contacts in memory of their own, which waking frees.
        for b in bodies where b.kind == .dynamic && b.isSleeping { cpBodyActivate(b.handle) }
        var handles: [BodyRef?] = ([staticBody] + bodies).map(\.handle)
        handles.withUnsafeMutableBufferPointer { calu_cpSpaceForgetArbiters(space, $0.baseAddress, Int32($0.count)) }
        // In the order Chipmunk finds each at the start of its arrays.
        for c in PhysicsWorld.removalOrder(constraints) { cpSpaceRemoveConstraint(space, c.handle); c.world = nil }
        constraints = []
        for b in PhysicsWorld.removalOrder(bodies) { b.leave(self); b.world = nil }
        bodies = []
        movingHandles = []
        boundBodies = []
        staticBody.leave(self)
        staticBody.invalidate()
        cpSpaceFree(space)
    }

    public func checkAlive() throws {
        if isDestroyed { throw CalunaError(.staleHandle, "the physics world was destroyed") }
    }

    /// Inside a step, or in a separate callback run by a removal.
    var isLocked: Bool { isStepping || cpSpaceIsLocked(space) != 0 }

    func checkNotStepping(_ what: String) throws {
        try checkAlive()
        // Locked: inside a step, or in a separate callback run by a removal.
        if isLocked {
            throw CalunaError.invalid("\(what) cannot be done while the physics world steps (inside a collision or update callback)")
        }
    }

    // MARK: settings

    public var gravity: Point { Chipmunk.point(cpSpaceGetGravity(space)) }
    public func setGravity(_ g: Point) throws { try checkAlive(); cpSpaceSetGravity(space, try Chipmunk.vect(g, "gravity")) }

    public var iterations: Int { Int(cpSpaceGetIterations(space)) }
    public func setIterations(_ n: Int) throws {
        try checkAlive()
        guard (1...10_000).contains(n) else { throw CalunaError.invalid("iterations must be from 1 to 10000 (got \(n))") }
        cpSpaceSetIterations(space, Int32(n))
    }

    /// The fraction of velocity a body keeps each second (1: no damping).
    public var damping: Double { cpSpaceGetDamping(space) }
    public func setDamping(_ d: Double) throws {
        try checkAlive()
        cpSpaceSetDamping(space, try Chipmunk.number(d, "damping", min: 0, max: 1))
    }

    public var idleSpeedThreshold: Double { cpSpaceGetIdleSpeedThreshold(space) }
    public func setIdleSpeedThreshold(_ v: Double) throws {
        try checkAlive()
        cpSpaceSetIdleSpeedThreshold(space, try Chipmunk.positive(v, "idleSpeedThreshold", allowZero: true))
    }

    /// Seconds a group of bodies must be idle to fall asleep (∞: never).
    public var sleepTimeThreshold: Double { cpSpaceGetSleepTimeThreshold(space) }
    public func setSleepTimeThreshold(_ v: Double) throws {
        try checkAlive()
        if v == .infinity { cpSpaceSetSleepTimeThreshold(space, v); return }
        // 0 would put kinematic bodies to sleep, which Chipmunk aborts on.
        cpSpaceSetSleepTimeThreshold(space, try Chipmunk.positive(v, "sleepTimeThreshold"))
    }

    public var collisionSlop: Double { cpSpaceGetCollisionSlop(space) }
    public func setCollisionSlop(_ v: Double) throws {
        try checkAlive()
        cpSpaceSetCollisionSlop(space, try Chipmunk.positive(v, "collisionSlop", allowZero: true))
    }

    /// The fraction of overlap left after one second (Chipmunk's default (1 − 0.1)⁶⁰).
    public var collisionBias: Double { cpSpaceGetCollisionBias(space) }
    public func setCollisionBias(_ v: Double) throws {
        try checkAlive()
        cpSpaceSetCollisionBias(space, try Chipmunk.number(v, "collisionBias", min: 0, max: 1))
    }

    public var collisionPersistence: Int { Int(cpSpaceGetCollisionPersistence(space)) }
    public func setCollisionPersistence(_ n: Int) throws {
        try checkAlive()
        guard (0...1000).contains(n) else { throw CalunaError.invalid("collisionPersistence must be from 0 to 1000 (got \(n))") }
        cpSpaceSetCollisionPersistence(space, cpTimestamp(n))
    }

    public func setStep(_ dt: Double) throws {
        try checkAlive()
        guard dt.isFinite, dt > 0, dt <= 1 else { throw CalunaError.invalid("step must be in (0, 1] seconds (got \(dt))") }
        let ticks = try Clock.ticks(for: dt, what: "step")
        guard ticks > 0 else { throw CalunaError.invalid("step \(dt) s is shorter than one clock tick") }
        stepDuration = dt
        stepTicks = ticks
    }

    /// Seconds of simulation run so far (steps × their durations, by the clock).
    public var simulatedTime: Double { Clock.seconds(ticks: simulatedTick) }

    public var allBodies: [PhysicsBody] { bodies }
    public var allConstraints: [PhysicsConstraint] { constraints }

    // MARK: stepping

    /// Catches the simulation up with the clock at `tick` (the engine calls
    /// this each frame after timers and display links).
    func advance(toTick tick: Int64) throws {
        guard !isDestroyed else { return }
        if paused { simulatedTick = tick; return }
        var first = FirstError()
        var steps = 0
        while simulatedTick < tick {
            let cap = limits.maxStepsPerFrame
            if cap > 0, steps >= cap {
                droppedSteps += Int((tick - simulatedTick + stepTicks - 1) / stepTicks)
                simulatedTick = tick
                break
            }
            try Interruption.check()
            // A refused step ends the catch-up; the time stays owed (the next
            // frame tries again, within the cap).
            do { try admitStep(stepDuration) } catch { first.run { throw error }; break }
            simulatedTick += stepTicks
            steps += 1
            first.run { try stepOnce(stepDuration) }
            if isDestroyed { return }
        }
        if steps > 0 { syncBindings() }
        try first.rethrow()
    }

    /// One step of `dt` seconds now (cpSpaceStep), outside the accumulator:
    /// the book's variable-step loop (listing 11.3). Bound layers follow.
    public func step(_ dt: Double) throws {
        try checkNotStepping("step")
        guard dt.isFinite, dt > 0, dt <= 10 else { throw CalunaError.invalid("step: dt must be in (0, 10] seconds (got \(dt))") }
        try admitStep(dt)
        // Bound layers follow even when a callback failed.
        defer { syncBindings() }
        try stepOnce(dt)
    }

    private func stepOnce(_ dt: Double) throws {
        if needsPreflight { try preflight() }
        let started = engine != nil ? monotonicSeconds() : 0
        isStepping = true
        callbackError = nil
        withExtendedLifetime(self) { cpSpaceStep(space, dt) }
        isStepping = false
        stepCount += 1
        let error = callbackError
        callbackError = nil
        stepReach = []
        stepReachShapes = []
        runDeferred()
        pendingReach = []
        let diverged = checkDivergence()
        if let e = engine {
            e.pendingStats.physicsSteps += 1
            e.pendingStats.physicsStepMicroseconds += Int(((monotonicSeconds() - started) * 1e6).rounded())
        }
        if let error { throw error }
        if let diverged { throw diverged }
    }

    func runDeferred() {
        while !deferred.isEmpty {
            let work = deferred
            deferred = []
            for w in work { w() }
        }
    }

    /// What Chipmunk would assert on during a step: every dynamic body needs
    /// a usable mass and moment, every constraint a dynamic body.
    private func preflight() throws {
        for b in bodies where b.kind == .dynamic {
            let m = cpBodyGetMass(b.handle), i = cpBodyGetMoment(b.handle)
            guard m >= PhysicsBody.minimumMass, m <= Chipmunk.limit else {
                throw CalunaError.invalid("dynamic body \(b.label) has mass \(fmt(m)): give it a mass from \(fmt(PhysicsBody.minimumMass)) to \(fmt(Chipmunk.limit)), or shapes with a density or mass")
            }
            guard i >= PhysicsBody.minimumMass else {
                throw CalunaError.invalid("dynamic body \(b.label) has moment \(fmt(i)): give it a moment (or ∞), or a shape with area")
            }
        }
        for c in constraints { try c.checkSolvable() }
        needsPreflight = false
    }

    /// After a step: a body whose state left the bounds (a stiff spring, a
    /// huge force) is stopped where it can be, and reported. The common case
    /// (nothing wrong) is one C loop over raw handles.
    private func checkDivergence() -> Error? {
        if movingHandlesStale {
            movingHandles = bodies.filter { $0.kind != .static }.map(\.handle)
            movingHandlesStale = false
        }
        let first = movingHandles.withUnsafeMutableBufferPointer {
            calu_cpBodiesFirstBeyond($0.baseAddress, Int32($0.count), Chipmunk.limit)
        }
        return first < 0 ? nil : repairDivergedBodies()
    }

    private func repairDivergedBodies() -> Error? {
        var report: Error? = nil
        let limit = Chipmunk.limit
        for b in bodies where b.kind != .static {
            let h = b.handle
            let p = cpBodyGetPosition(h), v = cpBodyGetVelocity(h)
            let a = cpBodyGetAngle(h), w = cpBodyGetAngularVelocity(h)
            if abs(p.x) <= limit, abs(p.y) <= limit, abs(v.x) <= limit, abs(v.y) <= limit,
               abs(a) <= limit, abs(w) <= limit { continue }
            _ = calu_cpBodyRepairMotion(h, cpv(0, 0))
            let q = cpBodyGetPosition(h)
            cpBodySetVelocity(h, cpv(0, 0))
            cpBodySetAngularVelocity(h, 0)
            cpBodySetPosition(h, cpv(min(max(q.x, -limit), limit), min(max(q.y, -limit), limit)))
            let angle = cpBodyGetAngle(h)
            cpBodySetAngle(h, abs(angle) <= limit ? angle : 0)
            if report == nil {
                report = CalunaError.invalid("the simulation diverged: body \(b.label) reached position \(Chipmunk.point(p)), velocity \(Chipmunk.point(v)); it was stopped (a constraint too stiff or a force too large for the step?)")
            }
        }
        return report
    }

    /// Runs a script callback from inside a step: its error is kept for the
    /// step's caller and the step goes on.
    func runCallback<T>(default fallback: T, _ body: () throws -> T) -> T {
        do { return try body() } catch {
            if callbackError == nil { callbackError = error }
            return fallback
        }
    }

    // MARK: adding and removing

    /// Adds a body with its shapes (and, at the end of the step, if stepping).
    public func add(_ body: PhysicsBody) throws {
        try checkAlive()
        try body.check()
        if body.isStaticBodyOfWorld { throw CalunaError.invalid("a world's static body is already in its world") }
        if let w = body.world {
            throw CalunaError.invalid(w === self ? "body \(body.label) is already in this world" : "body \(body.label) is in another world; remove it there first")
        }
        // Removed from another world during its step: it leaves that space at the step's end.
        if let s = cpBodyGetSpace(body.handle), s != space {
            throw CalunaError.invalid("body \(body.label) is still leaving another world (removed during its step); add it after that step")
        }
        try admitBody(body)
        body.world = self
        bodies.append(body)
        shapeCount += body.shapes.count
        movingHandlesStale = true
        if !body.bindings.isEmpty { boundBodies.append(body) }
        needsPreflight = true
        whenUnlocked { [self] in
            cpSpaceAddBody(space, body.handle)
            body.spaceWorld = self
            for s in body.shapes where !s.inSpace { cpSpaceAddShape(space, s.handle); s.inSpace = true }
            spaceShapesStale = true
        }
    }

    /// Removes a body, its shapes and the constraints that use it.
    public func remove(_ body: PhysicsBody) throws {
        try checkAlive()
        guard body.world === self, !body.isStaticBodyOfWorld else {
            throw CalunaError.invalid("body \(body.label) is not in this world")
        }
        for c in constraints where c.bodyA === body || c.bodyB === body { try remove(c) }
        bodies.removeAll { $0 === body }
        shapeCount -= body.shapes.count
        movingHandlesStale = true
        boundBodies.removeAll { $0 === body }
        body.world = nil
        whenUnlocked { [self] in body.leave(self) }
        try takeCallbackError()
    }

    public func add(_ c: PhysicsConstraint) throws {
        try checkAlive()
        if let w = c.world {
            throw CalunaError.invalid(w === self ? "the \(c.kind.rawValue) constraint is already in this world" : "the \(c.kind.rawValue) constraint is in another world")
        }
        for b in [c.bodyA, c.bodyB] {
            try b.check()
            guard b.world === self else {
                throw CalunaError.invalid("the \(c.kind.rawValue) constraint's body \(b.label) is not in this world; add its bodies first")
            }
        }
        try c.checkSolvable()
        try admitConstraint()
        c.world = self
        constraints.append(c)
        needsPreflight = true
        whenUnlocked { [self] in cpSpaceAddConstraint(space, c.handle) }
    }

    public func remove(_ c: PhysicsConstraint) throws {
        try checkAlive()
        guard c.world === self else { throw CalunaError.invalid("the \(c.kind.rawValue) constraint is not in this world") }
        constraints.removeAll { $0 === c }
        c.world = nil
        whenUnlocked { [self] in cpSpaceRemoveConstraint(space, c.handle) }
    }

    /// Runs `work` now, or after the step when the space is locked. Work
    /// done now can run separate callbacks (a removal) that defer more work:
    /// it runs before this returns.
    func whenUnlocked(_ work: @escaping () -> Void) {
        if isStepping || cpSpaceIsLocked(space) != 0 { deferred.append(work); return }
        work()
        runDeferred()
    }

    /// The first error a callback raised outside a step (separate callbacks
    /// run by a removal), for the call that caused it.
    func takeCallbackError() throws {
        guard !isStepping, let e = callbackError else { return }
        callbackError = nil
        throw e
    }

    /// The body or world pointer's wrapper (Chipmunk's user data).
    static func body(_ h: BodyRef?) -> PhysicsBody? {
        guard let h, let p = cpBodyGetUserData(h) else { return nil }
        return Unmanaged<PhysicsBody>.fromOpaque(p).takeUnretainedValue()
    }
}

extension Engine {
    /// Destroys every world of the engine (a scene reset): their callbacks
    /// let go of whatever they hold.
    public func destroyPhysicsWorlds() {
        for w in physicsWorlds { try? w.destroy() }
    }

    /// The engine cannot step while one of its worlds is locked (a callback
    /// of a manual world step or of a removal): Chipmunk would step a
    /// locked space.
    func checkPhysicsUnlocked(_ api: String) throws {
        if physicsWorlds.contains(where: \.isLocked) {
            throw CalunaError.invalid("\(api) cannot be called from inside a physics callback")
        }
    }

    /// Steps every physics world up to the clock, in the order they were made.
    func stepPhysics(_ errors: inout FirstError) {
        let now = clock.ticks
        for w in physicsWorlds { errors.run { try w.advance(toTick: now) } }
    }
}
