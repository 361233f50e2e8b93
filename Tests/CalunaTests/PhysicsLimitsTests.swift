import Testing
import CChipmunk
@testable import Caluna

// The physics caps (PhysicsLimits.swift, docs/physics.md "Caps"): which defaults a world
// starts from, what a sandbox may not raise, the pair count the contact guard takes, and a
// teardown that drops Chipmunk's contacts at once.

private func circle(_ w: PhysicsWorld, at p: Point, kind: PhysicsBody.Kind = .dynamic) throws -> PhysicsBody {
    let b = try PhysicsBody(kind: kind, mass: kind == .dynamic ? 1 : nil)
    try b.setPosition(p)
    try b.addShape(.circle(radius: 5, offset: .zero))
    try w.add(b)
    return b
}

@Test func aWorldOfATrustedEngineStartsFromTheTrustedCaps() throws {
    let w = try PhysicsWorld(engine: try Engine(size: Size(100, 100)))
    #expect(!w.isSandboxed)
    #expect(w.limits == .trusted)
    #expect([w.maxBodies, w.maxShapes, w.maxConstraints, w.maxContactPairs, w.maxStepsPerFrame] == [20_000, 40_000, 40_000, 100_000, 16])
    try w.setMaxStepsPerFrame(0)
    try w.setLimit(\.maxContactPairs, "maxContactPairs", 1_000_000_000)
    #expect(throws: CalunaError.invalid("maxBodies must be from 0 to 1000000000 (got 1000000001)")) {
        try w.setLimit(\.maxBodies, "maxBodies", 1_000_000_001)
    }
    #expect(throws: CalunaError.invalid("maxStepsPerFrame must be from 0 (no cap) to 1000000000 (got -1)")) {
        try w.setMaxStepsPerFrame(-1)
    }
}

@Test func aWorldOfASandboxedEngineStartsLowerAndCannotBeRaised() throws {
    let e = try Engine(size: Size(100, 100), memory: MemoryLedger(limit: 64 << 20))
    let w = try PhysicsWorld(engine: e)
    #expect(w.isSandboxed)
    #expect(w.limits == .sandboxed)
    #expect([w.maxBodies, w.maxShapes, w.maxConstraints, w.maxContactPairs, w.maxStepsPerFrame] == [2_000, 4_000, 4_000, 20_000, 16])
    #expect(throws: CalunaError.invalid("maxContactPairs must be from 0 to 20000 in a sandbox (got 20001)")) {
        try w.setLimit(\.maxContactPairs, "maxContactPairs", 20_001)
    }
    #expect(throws: CalunaError.invalid("maxStepsPerFrame must be from 1 to 16 in a sandbox (got 0)")) {
        try w.setMaxStepsPerFrame(0)
    }
    try w.setLimit(\.maxBodies, "maxBodies", 10)
    try w.setMaxStepsPerFrame(1)
    #expect(w.maxBodies == 10 && w.maxStepsPerFrame == 1)
    // Settings go through the same checks.
    var s = PhysicsWorld.Settings()
    s.maxStepsPerFrame = 0
    #expect(throws: CalunaError.invalid("maxStepsPerFrame must be from 1 to 16 in a sandbox (got 0)")) {
        _ = try PhysicsWorld(engine: e, settings: s)
    }
    var l = PhysicsLimits.trusted
    l.maxStepsPerFrame = 8
    s = PhysicsWorld.Settings()
    s.limits = l
    #expect(throws: CalunaError.invalid("maxBodies must be from 0 to 2000 in a sandbox (got 20000)")) {
        _ = try PhysicsWorld(engine: e, settings: s)
    }
}

@Test func theGuardCountsPairsWithAMovingShapeWhoseReachOverlaps() throws {
    var s = PhysicsWorld.Settings()
    s.limits = PhysicsLimits(maxBodies: 100, maxShapes: 100, maxConstraints: 100, maxContactPairs: 10, maxStepsPerFrame: 16)
    let w = try PhysicsWorld(engine: nil, settings: s)
    // Static shapes never pair with each other: 30 coincident ones are no pair at all.
    for _ in 0..<30 { try w.staticBody.addShape(.circle(radius: 5, offset: .zero)) }
    try w.step(1.0 / 120)
    #expect(w.pairsCounted && w.pairEstimate == 0)
    // Each moving circle at the pile pairs with the 30 static ones: over the cap at once.
    #expect(throws: CalunaError(.outOfMemory, "the shapes were not added: Chipmunk would make 30 more pairs of shapes whose bounding boxes overlap, passing the world's maxContactPairs (10; shapes piled in one place?)")) {
        _ = try circle(w, at: .zero)
    }
    #expect(w.allBodies.isEmpty && w.shapeCount == 30)
    // Five moving circles apart from it, coincident: 10 pairs, the cap exactly.
    for _ in 0..<5 { _ = try circle(w, at: Point(100, 0)) }
    try w.step(1.0 / 120)
    #expect(w.pairEstimate == 10)
}

@Test func theReachOfAShapeGrowsWithItsMotion() throws {
    var s = PhysicsWorld.Settings()
    s.limits = PhysicsLimits(maxBodies: 100, maxShapes: 100, maxConstraints: 100, maxContactPairs: 0, maxStepsPerFrame: 16)
    let w = try PhysicsWorld(engine: nil, settings: s)
    let a = try circle(w, at: .zero), b = try circle(w, at: Point(20, 0))
    try w.step(1.0 / 120)
    #expect(w.pairEstimate == 0 && w.stepCount == 1)
    // 10 units apart; at 1200 units/s each closes 10 in a 1/120 s step.
    try a.setVelocity(Point(1200, 0))
    try b.setVelocity(Point(-1200, 0))
    #expect(throws: CalunaError(.outOfMemory, "the physics world was not stepped: more than 0 pairs of shapes could touch in the next step (its maxContactPairs; shapes piled in one place, or moving fast?)")) {
        try w.step(1.0 / 120)
    }
    #expect(w.pairEstimate == 1 && w.stepCount == 1)
    #expect(a.position == .zero)
}

@Test func aDestroyedWorldsBodiesWithContactsJoinAnotherWorld() throws {
    // Teardown drops Chipmunk's contacts at once (calu_cpSpaceForgetArbiters): the bodies, awake
    // with contacts or asleep, must come out whole and work in the next world.
    var s = PhysicsWorld.Settings()
    s.gravity = Point(0, -100)
    func pile(_ s: PhysicsWorld.Settings, _ bodies: [PhysicsBody]?) throws -> (PhysicsWorld, [PhysicsBody]) {
        let w = try PhysicsWorld(engine: nil, settings: s)
        try w.staticBody.addShape(.segment(a: Point(-500, 0), b: Point(500, 0), radius: 1))
        var list = bodies ?? []
        if let bodies { for b in bodies { try w.add(b) } } else {
            for i in 0..<60 { list.append(try circle(w, at: Point(Double(i % 10) * 9, 6 + Double(i / 10) * 9))) }
        }
        for _ in 0..<240 { try w.step(1.0 / 120) }
        return (w, list)
    }
    let (first, bodies) = try pile(s, nil)
    #expect(cpHashSetCount(first.space.pointee.cachedArbiters) > 50)
    try first.destroy()
    s.sleepTimeThreshold = 0.1
    let (second, same) = try pile(s, bodies)
    for b in same { try b.sleep() }
    #expect(same.allSatisfy { $0.isSleeping })
    try second.destroy()
    #expect(bodies.allSatisfy { $0.world == nil && !$0.isSleeping })
    s.sleepTimeThreshold = .infinity
    let (third, _) = try pile(s, bodies)
    #expect(cpHashSetCount(third.space.pointee.cachedArbiters) > 50)
    #expect(bodies.allSatisfy { $0.position.y > 0 && $0.position.y < 100 })
}

@Test func teardownRemovesTheFirstThenTheRestFromTheLast() {
    #expect(PhysicsWorld.removalOrder([1, 2, 3, 4]) == [1, 4, 3, 2])
    #expect(PhysicsWorld.removalOrder([Int]()) == [])
}
