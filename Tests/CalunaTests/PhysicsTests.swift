import Testing
@testable import Caluna

// The physics world (DESIGN §4 "Physics", spec chapter 11.2): the book's
// crates, the fixed-step accumulator, and every input Chipmunk would abort on.

/// The book's crate (listing 11.3): mass 100, a box centred on the body.
@discardableResult
func addCrate(_ w: PhysicsWorld, frame x: Double, _ y: Double, _ size: Double) throws -> PhysicsBody {
    let b = try PhysicsBody(mass: 100)
    try b.setPosition(Point(x + size / 2, 300 - y - size / 2))
    let s = try b.addShape(.box(width: size, height: size, radius: 0, center: .zero))
    try s.setFriction(0.5)
    try s.setElasticity(0.8)
    try w.add(b)
    return b
}

func addWalls(_ w: PhysicsWorld) throws {
    let corners = [Point(0, 0), Point(300, 0), Point(300, 300), Point(0, 300)]
    for i in 0..<4 {
        let s = try w.staticBody.addShape(.segment(a: corners[i], b: corners[(i + 1) % 4], radius: 1))
        try s.setFriction(0.5)
        try s.setElasticity(0.8)
        try s.setCollisionType(.number(2))
    }
}

@Test func theMomentOfACrateIsCpMomentForBox() throws {
    let w = try PhysicsWorld(engine: nil)
    let b = try addCrate(w, frame: 100, 0, 100)
    #expect(near(b.moment, 166_666.666_666_666_67, 1e-6))
    let small = try addCrate(w, frame: 0, 0, 32)
    #expect(near(small.moment, 17_066.666_666_666_67, 1e-6))
}

@Test func aFallingCrateFollowsChipmunksIntegrationOrder() throws {
    // Listing 11.3 (a): y after n steps of 1/60 is 250 − 1000·(1/60)²·n(n−1)/2.
    var s = PhysicsWorld.Settings()
    s.gravity = Point(0, -1000)
    let w = try PhysicsWorld(engine: nil, settings: s)
    let b = try addCrate(w, frame: 100, 0, 100)
    #expect(b.position == Point(150, 250))
    for _ in 0..<60 { try w.step(1.0 / 60) }
    let expected: Double = 250 - 1000.0 / 3600 * (60 * 59 / 2)
    #expect(near(b.position.y, expected, 1e-9))
    #expect(near(b.position.y, -241.666_666_666_666_7, 1e-9))
    #expect(near(b.velocity.y, -1000, 1e-9))
}

@Test func theEngineStepsExactly120TimesASecond() throws {
    let e = try Engine(size: Size(300, 300))
    let w = try PhysicsWorld(engine: e)
    for _ in 0..<60 { try e.step(1.0 / 60) }
    #expect(w.stepCount == 120)
    // Irregular frames reach the same count at the same time.
    let e2 = try Engine(size: Size(300, 300))
    let w2 = try PhysicsWorld(engine: e2)
    var t = 0.0
    while t + 0.036 <= 1 { try e2.step(0.005); try e2.step(0.031); t += 0.036 }
    try e2.advance(to: 1)
    #expect(w2.stepCount == 120)
}

@Test func theSimulationRunsAtMostOneStepAhead() throws {
    let e = try Engine(size: Size(300, 300))
    let w = try PhysicsWorld(engine: e)
    for dt in [0.001, 0.02, 0.013, 0.1, 1.0 / 60] {
        try e.step(dt)
        let ahead = w.simulatedTime - e.mediaTime
        #expect(ahead >= 0 && ahead < 1.0 / 120, "ahead \(ahead)")
    }
}

@Test func maxStepsPerFrameDropsTheBacklog() throws {
    let e = try Engine(size: Size(300, 300))
    var s = PhysicsWorld.Settings()
    s.maxStepsPerFrame = 4
    let w = try PhysicsWorld(engine: e, settings: s)
    try e.step(1)
    #expect(w.stepCount == 4)
    #expect(w.droppedSteps == 116)
}

@Test func identicalScenesGiveIdenticalTrajectories() throws {
    func run(_ frames: [Double]) throws -> [Double] {
        let e = try Engine(size: Size(300, 300))
        var s = PhysicsWorld.Settings()
        s.gravity = Point(0, -1000)
        let w = try PhysicsWorld(engine: e, settings: s)
        try addWalls(w)
        let crates = try [(0.0, 0.0, 32.0), (32, 0, 32), (64, 0, 64), (128, 0, 32), (0, 32, 64)].map {
            try addCrate(w, frame: $0.0, $0.1, $0.2)
        }
        for dt in frames { try e.step(dt) }
        #expect(w.stepCount == 360)
        return crates.flatMap { [$0.position.x, $0.position.y, $0.angle, $0.velocity.x, $0.velocity.y] }
    }
    let regular = try run(Array(repeating: 1.0 / 60, count: 180))
    #expect(try run(Array(repeating: 1.0 / 60, count: 180)) == regular)
    var irregular: [Double] = []
    var t = 0.0
    while t + 0.036 <= 3 { irregular += [0.005, 0.031]; t += 0.036 }
    irregular.append(3 - t)
    #expect(try run(irregular) == regular)
}

@Test func boundLayersFollowTheirBodiesWithoutAnimating() throws {
    let e = try Engine(size: Size(300, 300))
    var s = PhysicsWorld.Settings()
    s.gravity = Point(0, -1000)
    let w = try PhysicsWorld(engine: e, settings: s)
    let b = try addCrate(w, frame: 100, 0, 100)
    let layer = e.makeLayer()
    try e.root.addSublayer(layer)
    try b.setAngularVelocity(1)
    try b.bind(layer)
    #expect(layer.position == Point(150, 250))
    try e.step(1.0 / 60)
    #expect(layer.position == b.position)
    #expect(near(layer.affineTransform, .rotation(b.angle)))
    #expect(layer.attachedAnimations.isEmpty, "no implicit animation")
    try b.setPosition(Point(10, 20))
    try b.setAngle(0.5)
    try b.bind(layer, mapping: LayerMapping(origin: Point(0, 300), scale: 2, flipY: true))
    #expect(layer.position == Point(20, 260))
    #expect(near(layer.affineTransform, .rotation(-0.5)))
    b.unbind(layer)
    try b.setPosition(Point(50, 50))
    try e.step(1.0 / 60)
    #expect(layer.position == Point(20, 260), "unbound layers stay put")
}
