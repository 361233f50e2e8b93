import CChipmunk

/// Caps that keep a world's cost bounded whatever a script or host does
/// (DESIGN §4). Chipmunk allocates its collision records inside
/// cpSpaceAddShape and cpSpaceStep and crashes when malloc fails, so every
/// cap holds before Chipmunk allocates: objects are refused when added, and a
/// step that could pair too many shapes is not run.
///
/// A world made for an engine whose memory ledger has a limit (a sandboxed
/// script, `LuaHost.Sandbox`, or a C host's `caluna_engine_set_sandbox*`)
/// starts from `sandboxed`, and its caps can be lowered, not raised; other
/// worlds start from `trusted` and take any value up to 10⁹.
public struct PhysicsLimits: Equatable, Sendable {
    /// Bodies in the world, its static body not counted.
    public var maxBodies: Int
    /// Shapes in the world, the static body's included.
    public var maxShapes: Int
    /// Constraints in the world.
    public var maxConstraints: Int
    /// Pairs of shapes whose bounding boxes may overlap during a step (at least
    /// one of them moving): Chipmunk keeps about 550 bytes and does collision
    /// work for each. Counted when shapes join the world and before each step
    /// (only once the world has enough shapes to pass it at all).
    public var maxContactPairs: Int
    /// Fixed steps one catch-up of the clock may run (a frame, or an input
    /// instant within one); the rest are dropped (`droppedSteps`) and the
    /// simulation falls behind the clock instead of spiralling (the book's
    /// death spiral, ch. 11). 0: no cap (the book's loop; trusted worlds only).
    public var maxStepsPerFrame: Int

    public init(maxBodies: Int, maxShapes: Int, maxConstraints: Int, maxContactPairs: Int, maxStepsPerFrame: Int) {
        self.maxBodies = maxBodies
        self.maxShapes = maxShapes
        self.maxConstraints = maxConstraints
        self.maxContactPairs = maxContactPairs
        self.maxStepsPerFrame = maxStepsPerFrame
    }

    /// Far beyond a real game (the book's pile has 200 crates), and at most
    /// ~58 MB of Chipmunk contact memory and ~0.1 s a step (measured).
    public static let trusted = PhysicsLimits(maxBodies: 20_000, maxShapes: 40_000, maxConstraints: 40_000,
                                              maxContactPairs: 100_000, maxStepsPerFrame: 16)
    /// At most ~12 MB of Chipmunk contact memory, 16 steps of ~13 ms a frame.
    public static let sandboxed = PhysicsLimits(maxBodies: 2_000, maxShapes: 4_000, maxConstraints: 4_000,
                                                maxContactPairs: 20_000, maxStepsPerFrame: 16)
    /// The largest value a trusted world accepts for any cap.
    public static let maximum = 1_000_000_000

    /// The defaults for a world charged to `ledger`: sandboxed when it has a limit.
    public static func defaults(for ledger: MemoryLedger?) -> PhysicsLimits {
        (ledger?.limit ?? 0) > 0 ? .sandboxed : .trusted
    }
}

extension PhysicsWorld {
    public var maxBodies: Int { limits.maxBodies }
    public var maxShapes: Int { limits.maxShapes }
    public var maxConstraints: Int { limits.maxConstraints }
    public var maxContactPairs: Int { limits.maxContactPairs }
    public var maxStepsPerFrame: Int { limits.maxStepsPerFrame }

    /// Sets one cap: 0…10⁹ (maxStepsPerFrame 0 = no cap), or in a sandboxed
    /// world up to the sandbox's default (and maxStepsPerFrame at least 1).
    /// Lowering a cap below what the world holds removes nothing: further
    /// additions are refused.
    public func setLimit(_ key: WritableKeyPath<PhysicsLimits, Int>, _ name: String, _ n: Int) throws {
        try checkAlive()
        let top = isSandboxed ? PhysicsLimits.sandboxed[keyPath: key] : PhysicsLimits.maximum
        let bottom = isSandboxed && key == \PhysicsLimits.maxStepsPerFrame ? 1 : 0
        guard n >= bottom, n <= top else {
            throw CalunaError.invalid(isSandboxed
                ? "\(name) must be from \(bottom) to \(top) in a sandbox (got \(n))"
                : "\(name) must be from 0\(key == \PhysicsLimits.maxStepsPerFrame ? " (no cap)" : "") to \(top) (got \(n))")
        }
        limits[keyPath: key] = n
    }

    public func setMaxStepsPerFrame(_ n: Int) throws { try setLimit(\.maxStepsPerFrame, "maxStepsPerFrame", n) }

    /// Chipmunk looks an object up from the start of its array and moves the
    /// last entry into the hole: removed first, then from the last, each is at
    /// the start (a teardown in linear time).
    static func removalOrder<T>(_ items: [T]) -> [T] { items.isEmpty ? [] : [items[0]] + items.dropFirst().reversed() }

    // MARK: counts

    func admitBody(_ body: PhysicsBody) throws {
        guard bodies.count < limits.maxBodies else {
            throw CalunaError(.outOfMemory, "the physics world holds \(bodies.count) bodies, its maxBodies; body \(body.label) was not added")
        }
        try admitShapes(body.shapes.count)
        try admitPairs(of: body.shapes)
    }

    func admitShapes(_ n: Int) throws {
        guard shapeCount + n <= limits.maxShapes else {
            throw CalunaError(.outOfMemory, "the physics world holds \(shapeCount) shapes and its maxShapes is \(limits.maxShapes): \(n == 1 ? "the shape was" : "\(n) more shapes were") not added")
        }
    }

    func admitConstraint() throws {
        guard constraints.count < limits.maxConstraints else {
            throw CalunaError(.outOfMemory, "the physics world holds \(constraints.count) constraints, its maxConstraints; the constraint was not added")
        }
    }

    // MARK: contact pairs

    /// `n` shapes make at most n(n − 1)/2 pairs: below the cap nothing needs counting.
    private func fewEnough(_ n: Int) -> Bool {
        let (product, overflow) = n.multipliedReportingOverflow(by: n - 1)
        return n < 2 || (!overflow && product / 2 <= limits.maxContactPairs)
    }

    /// Refuses shapes entering Chipmunk's indexes (joining the world, a static
    /// body moved or a body changing type) when the pairs Chipmunk would make
    /// for them at once would pass maxContactPairs. `moving` overrides the
    /// index they join (a type change); shapes already in the space are not
    /// counted against themselves.
    func admitPairs(of shapes: [PhysicsShape], moving: Bool? = nil, _ what: String = "the shapes were not added") throws {
        guard !shapes.isEmpty else { return }
        guard !fewEnough(shapeCount + shapes.count) else { pairsCounted = false; return }
        let flag: Int32 = moving.map { $0 ? 1 : 0 } ?? -1
        var reach = shapes.map { calu_cpShapeReach($0.handle, stepDuration, flag) }
        var k = 0
        for (s, r) in zip(shapes, reach) {
            k += calu_cpIndexOverlaps(space, r.box, r.moving, s.inSpace ? s.handle : nil)
            k += pendingReach.withUnsafeBufferPointer { calu_cpReachOverlaps($0.baseAddress, Int32($0.count), r.box) }
        }
        k += reach.withUnsafeMutableBufferPointer { calu_cpReachPairs($0.baseAddress, Int32($0.count), Int.max) }
        let cap = limits.maxContactPairs
        // Not counted since the world grew past the cheap bound, or over: count what is there.
        if !pairsCounted || pairEstimate + k > cap {
            pairEstimate = pairs(among: currentReach(stepDuration) + pendingReach, cap: cap)
            pairsCounted = true
        }
        guard pairEstimate + k <= cap else {
            throw CalunaError(.outOfMemory, "\(what): Chipmunk would make \(k) more pairs of shapes whose bounding boxes overlap, "
                + "passing the world's maxContactPairs (\(cap); shapes piled in one place?)")
        }
        pairEstimate += k
        // Additions made while the space is locked join it after the step:
        // later ones are counted against them too.
        if isLocked { pendingReach += reach }
    }

    /// Every shape in the space with its reach for a step of `dt`, in body
    /// order (each body's `reachStart` marks its first entry).
    private func currentReach(_ dt: Double) -> [calu_Reach] {
        if spaceShapesStale {
            spaceShapes.removeAll(keepingCapacity: true)
            for b in [staticBody!] + bodies {
                b.reachStart = spaceShapes.count
                for s in b.shapes where s.inSpace { spaceShapes.append(s.handle) }
            }
            spaceShapesStale = false
        }
        let n = spaceShapes.count
        return spaceShapes.withUnsafeBufferPointer { shapes in
            [calu_Reach](unsafeUninitializedCapacity: n) { out, count in
                calu_cpShapesReach(shapes.baseAddress, Int32(n), dt, out.baseAddress)
                count = n
            }
        }
    }

    /// The pairs among `reach` (counted on a copy: the count sorts it), up to just past `cap`.
    private func pairs(among reach: [calu_Reach], cap: Int) -> Int {
        reachScratch.removeAll(keepingCapacity: true)
        reachScratch.append(contentsOf: reach)
        return reachScratch.withUnsafeMutableBufferPointer { calu_cpReachPairs($0.baseAddress, Int32($0.count), cap) }
    }

    /// Before a step of `dt`: counts the pairs of shapes that can overlap
    /// during it, and refuses the step (nothing is allocated) past
    /// maxContactPairs. The reach stays for the position hooks of the step.
    func admitStep(_ dt: Double) throws {
        stepReach = []
        stepReachShapes = []
        pendingReach = []
        guard !fewEnough(shapeCount) else { pairsCounted = false; return }
        let reach = currentReach(dt)
        let cap = limits.maxContactPairs
        let pairs = pairs(among: reach, cap: cap)
        pairEstimate = pairs
        pairsCounted = true
        guard pairs <= cap else {
            throw CalunaError(.outOfMemory, "the physics world was not stepped: more than \(cap) pairs of shapes could touch "
                + "in the next step (its maxContactPairs; shapes piled in one place, or moving fast?)")
        }
        stepReach = reach
        stepReachShapes = spaceShapes
        stepPairs = pairs
    }

    /// After a body's positionUpdate ran inside a step: a body moved outside
    /// the reach counted before the step (a teleport) is counted again where
    /// it is; past maxContactPairs its move is undone (Chipmunk's own update
    /// from `pose` instead) and the step reports an error.
    func checkHookMove(_ body: PhysicsBody, from pose: calu_Pose, dt: Double) {
        guard !stepReach.isEmpty, body.reachStart >= 0 else { return }
        var moved: [(index: Int?, handle: ShapeRef, reach: calu_Reach)] = []
        var added = 0
        var i = body.reachStart
        for s in body.shapes where s.inSpace {
            let r = calu_cpShapeReach(s.handle, 0, 1)
            let known = i < stepReachShapes.count && stepReachShapes[i] == s.handle
            if !known || cpBBContainsBB(stepReach[i].box, r.box) == 0 {
                added += stepReach.withUnsafeBufferPointer { calu_cpReachOverlaps($0.baseAddress, Int32($0.count), r.box) }
                moved.append((known ? i : nil, s.handle, r))
            }
            i += 1
        }
        guard stepPairs + added > limits.maxContactPairs else {
            stepPairs += added
            for m in moved {
                if let j = m.index { stepReach[j] = m.reach } else { stepReach.append(m.reach); stepReachShapes.append(m.handle) }
            }
            return
        }
        calu_cpBodyRestorePose(body.handle, pose, dt)
        for s in body.shapes where s.inSpace { _ = cpShapeCacheBB(s.handle) }
        if callbackError == nil {
            callbackError = CalunaError(.outOfMemory, "body \(body.label)'s positionUpdate moved it among too many shapes "
                + "(more than the world's maxContactPairs, \(limits.maxContactPairs), pairs could touch): the move was undone")
        }
    }
}
