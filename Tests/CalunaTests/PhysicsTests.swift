import Testing
@testable import Caluna
#if canImport(Glibc)
import Glibc
#endif

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

// MARK: safety — each of these would abort the process inside Chipmunk

func expectInvalid(_ what: String, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): expected an error")
    } catch let e as CalunaError {
        #expect(e.code == .invalidArgument || e.code == .staleHandle || e.code == .typeMismatch, "\(what): \(e)")
    } catch {
        Issue.record("\(what): unexpected \(error)")
    }
}

@Test func badNumbersNeverReachChipmunk() throws {
    let w = try PhysicsWorld(engine: nil)
    let b = try PhysicsBody(mass: 1, moment: 1)
    try w.add(b)
    for v in [Double.nan, .infinity, -.infinity, 1e300] {
        expectInvalid("position \(v)") { try b.setPosition(Point(v, 0)) }
        expectInvalid("velocity \(v)") { try b.setVelocity(Point(0, v)) }
        expectInvalid("angle \(v)") { try b.setAngle(v) }
        expectInvalid("angularVelocity \(v)") { try b.setAngularVelocity(v) }
        expectInvalid("force \(v)") { try b.setForce(Point(v, v)) }
        expectInvalid("torque \(v)") { try b.setTorque(v) }
        expectInvalid("mass \(v)") { try b.setMass(v) }
        expectInvalid("gravity \(v)") { try w.setGravity(Point(v, 0)) }
        expectInvalid("impulse \(v)") { try b.applyImpulse(Point(v, 0), atWorldPoint: .zero) }
        expectInvalid("cog \(v)") { try b.setCenterOfGravity(Point(v, 0)) }
        expectInvalid("step \(v)") { try w.step(v) }
    }
    for m in [0.0, -1] { expectInvalid("mass \(m)") { try b.setMass(m) } }
    expectInvalid("moment 0") { try b.setMoment(0) }
    expectInvalid("damping 2") { try w.setDamping(2) }
    expectInvalid("iterations 0") { try w.setIterations(0) }
    expectInvalid("sleepTimeThreshold 0") { try w.setSleepTimeThreshold(0) }
    let k = try PhysicsBody(kind: .kinematic)
    expectInvalid("mass on kinematic") { try k.setMass(1) }
    expectInvalid("kinematic with mass") { _ = try PhysicsBody(kind: .static, mass: 1) }
    // Forces add up: past the bound the sum is refused.
    for _ in 0..<2 { try? b.applyForce(Point(9e14, 0), atWorldPoint: .zero) }
    #expect(abs(b.force.x) <= Chipmunk.limit)
    try w.step(1.0 / 60)
    #expect(b.position.x.isFinite)
}

@Test func degenerateShapesAreRefused() throws {
    let b = try PhysicsBody(mass: 1)
    expectInvalid("collinear") { try b.addShape(.polygon(points: [Point(0, 0), Point(1, 1), Point(2, 2)], radius: 0)) }
    expectInvalid("coincident") { try b.addShape(.polygon(points: [Point(1, 1), Point(1, 1), Point(1, 1)], radius: 1)) }
    expectInvalid("two points") { try b.addShape(.polygon(points: [Point(0, 0), Point(1, 0)], radius: 0)) }
    expectInvalid("too many") {
        try b.addShape(.polygon(points: (0..<300).map { Point(cos(Double($0)), sin(Double($0))) }, radius: 0))
    }
    expectInvalid("zero segment") { try b.addShape(.segment(a: Point(1, 1), b: Point(1, 1), radius: 2)) }
    expectInvalid("zero circle") { try b.addShape(.circle(radius: 0, offset: .zero)) }
    expectInvalid("negative radius") { try b.addShape(.box(width: 1, height: 1, radius: -1, center: .zero)) }
    expectInvalid("nan box") { try b.addShape(.box(width: .nan, height: 1, radius: 0, center: .zero)) }
    #expect(b.shapes.isEmpty)
    let s = try b.addShape(.polygon(points: [Point(0, 0), Point(2, 2), Point(2, 0), Point(0, 2), Point(1, 1)], radius: 0))
    #expect(s.geometry.corners.count == 4, "the hull drops the inner point")
    #expect(near(s.area, 4))
    expectInvalid("density overflow") { try s.setDensity(1e15) }
}

@Test func aDynamicBodyWithoutMassIsAnErrorNotAnAbort() throws {
    let w = try PhysicsWorld(engine: nil)
    let b = try PhysicsBody()
    try w.add(b)
    expectInvalid("no mass") { try w.step(1.0 / 60) }
    try b.addShape(.circle(radius: 1, offset: .zero)).setDensity(2)
    try w.step(1.0 / 60)
    #expect(near(b.mass, 2 * .pi, 1e-9))
}

@Test func membershipIsChecked() throws {
    let w1 = try PhysicsWorld(engine: nil), w2 = try PhysicsWorld(engine: nil)
    let b = try PhysicsBody(mass: 1, moment: 1)
    try w1.add(b)
    expectInvalid("twice") { try w1.add(b) }
    expectInvalid("other world") { try w2.add(b) }
    expectInvalid("not there") { try w2.remove(b) }
    expectInvalid("static body") { try w1.add(w1.staticBody) }
    expectInvalid("same body") { _ = try PhysicsConstraint(.pin, b, b) }
    expectInvalid("two static") {
        try w1.add(try PhysicsConstraint(.pivot, w1.staticBody, try { let s = try PhysicsBody(kind: .static); try w1.add(s); return s }(), ["pivot": .point(.zero)]))
    }
    expectInvalid("bodies of two worlds") { _ = try PhysicsConstraint(.pivot, w2.staticBody, b, ["pivot": .point(.zero)]) }
    let loose = try PhysicsBody(mass: 1, moment: 1)
    expectInvalid("a body not in the world") { try w1.add(try PhysicsConstraint(.pin, b, loose)) }
    let spinner = try PhysicsBody(mass: 1, moment: .infinity)
    try w1.add(spinner)
    expectInvalid("gear on a body that cannot turn") { try w1.add(try PhysicsConstraint(.gear, w1.staticBody, spinner)) }
    expectInvalid("gear ratio 0") { _ = try PhysicsConstraint(.gear, w1.staticBody, b, ["ratio": .number(0)]) }
    expectInvalid("sleep without threshold") { try b.sleep() }
    try w1.setSleepTimeThreshold(0.5)
    try b.sleep()
    try b.sleep()   // sleeping twice aborts in Chipmunk: here it is nothing
    #expect(b.isSleeping)
    try w1.remove(b)
    #expect(b.world == nil)
    try w2.add(b)
    try w2.step(1.0 / 60)
}

@Test func aStiffSpringDivergesWithoutAborting() throws {
    let w = try PhysicsWorld(engine: nil)
    let a = try PhysicsBody(mass: 1e-6, moment: 1e-6), b = try PhysicsBody(mass: 1e-6, moment: 1e-6)
    try a.setPosition(Point(0, 0)); try b.setPosition(Point(100, 0))
    try w.add(a); try w.add(b)
    try w.add(try PhysicsConstraint(.dampedSpring, a, b, ["restLength": .number(10), "stiffness": .number(1e15)]))
    var diverged = 0
    for _ in 0..<240 {
        do { try w.step(1.0 / 120) } catch { diverged += 1 }
    }
    #expect(diverged > 0, "the step reports the divergence")
    for body in [a, b] {
        #expect(abs(body.position.x) <= Chipmunk.limit && body.position.x.isFinite)
        #expect(body.velocity.x.isFinite)
    }
    // A huge velocity alone is caught the same way.
    let fast = try PhysicsBody(mass: 1, moment: 1)
    try fast.setVelocity(Point(1e15, 0))
    try w.add(fast)
    for _ in 0..<1200 { try? w.step(1.0 / 120) }
    #expect(fast.position.x.isFinite)
}

@Test func callbacksDeferAdditionsAndRefuseForbiddenChanges() throws {
    var s = PhysicsWorld.Settings()
    s.gravity = Point(0, -100)
    let w = try PhysicsWorld(engine: nil, settings: s)
    try w.staticBody.addShape(.segment(a: Point(-100, 0), b: Point(100, 0), radius: 0)).setCollisionType(.name("floor"))
    let ball = try PhysicsBody(mass: 1)
    try ball.setPosition(Point(0, 1.5))
    try ball.addShape(.circle(radius: 1, offset: .zero)).setCollisionType(.name("ball"))
    try w.add(ball)
    let extra = try PhysicsBody(mass: 1)
    try extra.addShape(.circle(radius: 1, offset: Point(50, 50)))
    var seen: [String] = []
    let h = try w.collisionHandler(.pair(.name("ball"), .name("floor")))
    #expect(try w.collisionHandler(.pair(.name("floor"), .name("ball"))) === h, "one handler per unordered pair")
    h.begin = { arb in
        seen.append("begin")
        #expect(try arb.isFirstContact())
        #expect(try arb.bodies().0 === ball)
        try w.add(extra)                    // deferred to the end of the step
        #expect(throws: CalunaError.self) { try ball.setMass(2) }
        #expect(throws: CalunaError.self) { try w.step(0.01) }
        #expect(throws: CalunaError.self) { try w.destroy() }
        try w.remove(ball)                  // deferred too
        return true
    }
    var kept: Arbiter? = nil
    h.separate = { arb in seen.append("separate"); kept = arb }
    for _ in 0..<30 where ball.world != nil { try w.step(1.0 / 60) }
    #expect(seen == ["begin", "separate"], "removal separates: \(seen)")
    #expect(ball.world == nil)
    #expect(extra.world === w)
    #expect(throws: CalunaError.self) { _ = try kept?.normal() }
}

@Test func aCallbackErrorSurfacesAfterTheStep() throws {
    struct Boom: Error {}
    let w = try PhysicsWorld(engine: nil)
    try w.staticBody.addShape(.circle(radius: 5, offset: .zero))
    let b = try PhysicsBody(mass: 1)
    try b.addShape(.circle(radius: 5, offset: .zero))
    try w.add(b)
    try w.collisionHandler(.any).begin = { _ in throw Boom() }
    #expect(throws: Boom.self) { try w.step(1.0 / 60) }
    try w.step(1.0 / 60)     // the world keeps working
}

@Test func aDestroyedWorldIsStale() throws {
    let e = try Engine(size: Size(100, 100))
    let w = try PhysicsWorld(engine: e)
    let b = try PhysicsBody(mass: 1, moment: 1)
    try b.addShape(.circle(radius: 1, offset: .zero))
    try w.add(b)
    let wall = try w.staticBody.addShape(.segment(a: .zero, b: Point(1, 0), radius: 0))
    try w.destroy()
    #expect(b.world == nil)
    #expect(throws: CalunaError.self) { try w.step(0.01) }
    #expect(throws: CalunaError.self) { try w.staticBody.setPosition(.zero) }
    #expect(throws: CalunaError.self) { try wall.setFriction(1) }
    try e.step(1)           // the engine no longer steps it
    let w2 = try PhysicsWorld(engine: e)
    try w2.add(b)           // bodies survive their world
    try e.step(0.1)
    #expect(w2.stepCount == 12)
}

@Test func queriesFindShapesInAStableOrder() throws {
    let w = try PhysicsWorld(engine: nil)
    let near1 = try w.staticBody.addShape(.circle(radius: 1, offset: Point(5, 0)))
    let far1 = try w.staticBody.addShape(.circle(radius: 1, offset: Point(10, 0)))
    let hit = try w.nearestPoint(.zero, maxDistance: .infinity)
    #expect(hit?.shape === near1)
    #expect(near(hit?.distance ?? 0, 4))
    let ray = try w.segmentQuery(from: .zero, to: Point(20, 0))
    #expect(ray.map { ObjectIdentifier($0.shape) } == [near1, far1].map(ObjectIdentifier.init))
    #expect(near(ray[0].alpha, 4.0 / 20))
    #expect(try w.segmentQueryFirst(from: .zero, to: Point(20, 0))?.shape === near1)
    #expect(try w.boundingBoxQuery(Rect(8, -2, 4, 4)).first === far1)
    let probe = try PhysicsBody(kind: .static)
    let p = try probe.addShape(.box(width: 2, height: 2, radius: 0, center: Point(5, 0)))
    #expect(try w.shapeQuery(p).map { ObjectIdentifier($0.shape) } == [ObjectIdentifier(near1)])
    try near1.setFilter(ShapeFilter(categories: 2, mask: .max))
    #expect(try w.pointQuery(Point(5, 0), filter: ShapeFilter(mask: 1)).isEmpty)
}

/// Sleeping a body that touches an awake one left a contact with one end
/// asleep, and Chipmunk aborted the next step ("dangling contact graph
/// pointers", found by the C fuzzer): the touching bodies sleep with it. A
/// body touching a kinematic one is refused (Chipmunk keeps it awake).
@Test func sleepingABodyTakesTheBodiesTouchingItAlong() throws {
    let w = try PhysicsWorld(engine: nil)
    try w.setSleepTimeThreshold(0.5)
    let a = try PhysicsBody(mass: 1), b = try PhysicsBody(mass: 1), far = try PhysicsBody(mass: 1)
    for (body, x) in [(a, 0.0), (b, 15), (far, 500)] {
        try body.setPosition(Point(x, 0))
        _ = try body.addShape(.circle(radius: 10, offset: .zero))
        try w.add(body)
    }
    try w.step(1.0 / 60)   // a and b overlap: one contact
    try a.sleep()
    #expect(a.isSleeping && b.isSleeping && !far.isSleeping)
    for _ in 0..<10 { try w.step(1.0 / 60) }
    let k = try PhysicsBody(kind: .kinematic)
    try k.setPosition(Point(500, 15))
    _ = try k.addShape(.circle(radius: 10, offset: .zero))
    try w.add(k)
    try w.step(1.0 / 60)
    #expect(throws: CalunaError.self) { try far.sleep() }
    #expect(!far.isSleeping)
    for _ in 0..<10 { try w.step(1.0 / 60) }
}
