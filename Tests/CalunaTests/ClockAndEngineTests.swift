import Testing
@testable import Caluna

// The virtual clock (DESIGN §4 "Time": integer ticks, host-driven, never
// backwards) and the engine's output setup (DESIGN §4 "C ABI": no bad input aborts).

@Test func clockStartsAtZero() {
    let c = Clock()
    #expect(c.ticks == 0)
    #expect(c.seconds == 0)
}

@Test func thirtyStepsOfAThirtiethAreExactlyOneSecond() throws {
    var c = Clock()
    for _ in 0..<30 { try c.step(1.0 / 30) }
    #expect(c.ticks == 705_600_000)
    #expect(c.seconds == 1)
}

@Test func commonFrameRatesDoNotDrift() throws {
    for fps in [24, 25, 30, 48, 50, 60, 90, 100, 120, 144] {
        var c = Clock()
        for _ in 0..<(fps * 3) { try c.step(1.0 / Double(fps)) }
        #expect(c.ticks == 3 * Clock.ticksPerSecond, "\(fps) fps")
        #expect(c.seconds == 3, "\(fps) fps")
    }
}

@Test func advanceMovesToAnAbsoluteTime() throws {
    var c = Clock()
    try c.advance(to: 2.5)
    #expect(c.seconds == 2.5)
    try c.advance(to: 2.5)
    #expect(c.seconds == 2.5, "advancing to now is allowed")
    try c.step(0)
    #expect(c.seconds == 2.5)
}

@Test func advanceBackwardsIsAnError() throws {
    var c = Clock()
    try c.advance(to: 2)
    #expect(errorCode { try c.advance(to: 1.999) } == .invalidArgument)
    #expect(c.seconds == 2)
}

@Test func badTimesAreErrors() {
    var c = Clock()
    for bad in [Double.nan, .infinity, -.infinity, -0.001, 1e12] {
        #expect(errorCode { try c.step(bad) } == .invalidArgument, "step(\(bad))")
        #expect(errorCode { try c.advance(to: bad) } == .invalidArgument, "advance(to: \(bad))")
    }
    #expect(c.ticks == 0)
}

@Test func clockRangeIsEnforcedAcrossSteps() throws {
    var c = Clock()
    try c.step(Clock.maximumSeconds)
    #expect(errorCode { try c.step(1) } == .invalidArgument)
    #expect(c.seconds == Clock.maximumSeconds)
}

@Test func engineStepAdvancesMediaTime() throws {
    let e = try Engine(size: Size(10, 10))
    #expect(e.mediaTime == 0)
    for _ in 0..<60 { try e.step(1.0 / 60) }
    #expect(e.mediaTime == 1)
    try e.advance(to: 4)
    #expect(e.mediaTime == 4)
    #expect(errorCode { try e.step(.nan) } == .invalidArgument)
    #expect(errorCode { try e.advance(to: 3) } == .invalidArgument)
    #expect(e.mediaTime == 4)
}

@Test func engineRejectsBadSizes() {
    for size in [Size(0, 100), Size(100, 0), Size(-1, 100), Size(100, -5), Size(.nan, 100),
                 Size(100, .infinity), Size(1e9, 100), Size(100, 1e9)] {
        #expect(errorCode { try Engine(size: size) } == .invalidArgument, "\(size)")
    }
}

@Test func engineRejectsBadScales() {
    for scale in [0, -1, Double.nan, .infinity, 1e9] {
        #expect(errorCode { try Engine(size: Size(100, 100), scale: scale) } == .invalidArgument, "scale \(scale)")
    }
    #expect(errorCode { try Engine(size: Size(10_000, 10), scale: 4) } == .invalidArgument, "40,000 px wide")
}

@Test func rootFrameIsTheOutputRect() throws {
    let e = try Engine(size: Size(300, 200))
    #expect(e.size == Size(300, 200))
    #expect(near(e.root.frame, Rect(0, 0, 300, 200), derivedTolerance))
    #expect(e.root.bounds == Rect(0, 0, 300, 200))
    #expect(e.root.position == Point(150, 100))
    #expect(e.root.superlayer == nil)
    #expect(e.root.engine === e)
    #expect(try Engine().size == Engine.defaultSize)
}

@Test func setupResizesTheRoot() throws {
    let e = try Engine(size: Size(300, 200))
    try e.setup(size: Size(640, 480))
    #expect(e.size == Size(640, 480))
    #expect(near(e.root.frame, Rect(0, 0, 640, 480), derivedTolerance))
    try e.setup(scale: 2)
    #expect(e.scale == 2 && e.size == Size(640, 480))
    #expect(errorCode { try e.setup(size: Size(-1, 10)) } == .invalidArgument)
    #expect(errorCode { try e.setup(scale: .nan) } == .invalidArgument)
    #expect(e.size == Size(640, 480) && e.scale == 2, "a refused setup changes nothing")
    #expect(near(e.root.frame, Rect(0, 0, 640, 480), derivedTolerance))
}

@Test func pixelSizeFollowsScale() throws {
    let e = try Engine(size: Size(100, 50), scale: 2)
    #expect(e.pixelSize.width == 200 && e.pixelSize.height == 100)
    let image = try e.render()
    #expect(image.width == 200 && image.height == 100)
    let odd = try Engine(size: Size(10.5, 10), scale: 1)
    #expect(odd.pixelSize.width == 11 && odd.pixelSize.height == 10, "fractional sizes round up")
    try e.setup(scale: 1.5)
    #expect(e.pixelSize.width == 150 && e.pixelSize.height == 75)
}

@Test func makeLayerBelongsToTheEngine() throws {
    let e = try Engine(size: Size(10, 10))
    let l = e.makeLayer()
    #expect(l.engine === e)
    #expect(l.superlayer == nil)
    #expect(Layer().engine == nil)
}
