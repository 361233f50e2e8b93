import Testing
@testable import Caluna

// Input (issue #8): events queued on the virtual clock and delivered at their
// own time during step, hit testing on the presentation tree, bubbling,
// capture, tap and pan, scripted input, and hostile input.

/// Root 400×300 with listing 7.7's red 100×100 layer at (100, 150).
private func tapScene() throws -> (Engine, Layer) {
    let e = try Engine(size: Size(400, 300))
    let l = e.makeLayer()
    l.bounds = Rect(0, 0, 100, 100)
    l.position = Point(100, 150)
    l.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
    try e.root.addSublayer(l)
    try e.step(0)
    return (e, l)
}

/// Listing 7.7's handler: a tap on the (seen) layer turns it blue, a tap
/// elsewhere moves it there in a 4 s transaction.
private func installListing77(_ e: Engine, _ l: Layer) throws {
    try e.addEventHandler("tap") { ev in
        if ev.target === l {
            l.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 1)
        } else {
            try e.transaction.begin()
            e.transaction.animationDuration = 4
            l.position = ev.location
            try e.transaction.commit()
        }
        return true
    }
}

@Test func listing77TapsHitWhereTheLayerIsSeen() throws {
    let (e, l) = try tapScene()
    try installListing77(e, l)
    try e.sendScripted(try EventPayload(json: #"{"type": "tap", "x": 300, "y": 150, "time": 0}"#))
    try e.sendScripted(try EventPayload(json: #"{"type": "tap", "x": 230, "y": 150, "time": 2}"#))
    try e.advance(to: 2)
    // The tap at t = 0 moved it (default curve): x(2) = 100 + 200·0.802403.
    #expect(near(l.presentation()!.position.x, 260.4806, 1e-3))
    #expect(l.backgroundColor?.blue == 1, "the tap at (230, 150) hit the presentation layer")
    try e.advance(to: 2.125)
    // The colour change started at exactly 2.0 and does not disturb the move.
    let c = l.presentation()!.backgroundColor!
    #expect(near(c.blue, 0.802403, 1e-4) && near(c.red, 1 - 0.802403, 1e-4))
    #expect(near(l.presentation()!.position.x, 266.35, 0.01))
    try e.advance(to: 4)
    #expect(near(l.presentation()!.position, Point(300, 150), 1e-9))
}

@Test func listing77WithTheModelTreeYouMustTapTheDestination() throws {
    let (e, l) = try tapScene()
    try installListing77(e, l)
    e.hitTestsPresentation = false
    try e.sendScripted(try EventPayload(json: #"{"type": "tap", "x": 300, "y": 150, "time": 0}"#))
    try e.advance(to: 2)
    // Outside the layer the root is hit.
    #expect(e.hitLayer(at: Point(230, 150)) === e.root)
    #expect(e.hitLayer(at: Point(340, 150)) === l)
    e.hitTestsPresentation = true
    #expect(e.hitLayer(at: Point(230, 150)) === l)
    #expect(e.hitLayer(at: Point(340, 150)) === e.root)
    #expect(e.hitLayer(at: Point(500, 150)) == nil, "outside the output nothing is hit")
}

/// The time a handler changed something decides when its animation began:
/// the same input gives the same presentation whatever the step size.
@Test func inputIsDeliveredAtItsOwnTimeWhateverTheStepSize() throws {
    func run(_ steps: [Double]) throws -> [Double] {
        let (e, l) = try tapScene()
        try installListing77(e, l)
        try e.sendScripted(jsonLines: """
            {"type": "tap", "x": 300, "y": 150, "time": 0.3}
            {"type": "tap", "x": 50, "y": 50, "time": 1.7}
            """, source: "test")
        var xs: [Double] = []
        for dt in steps {
            try e.step(dt)
            if near(e.mediaTime, 1, 1e-9) || near(e.mediaTime, 2.1, 1e-9) { xs.append(l.presentation()!.position.x) }
        }
        return xs
    }
    let a = try run(Array(repeating: 1.0 / 30, count: 63))
    let b = try run(Array(repeating: 1.0 / 60, count: 126))
    let c = try run([1, 1.1])
    #expect(a.count == 2 && a == b && b == c, "\(a) \(b) \(c)")
}

@Test func eventsOfOneInstantKeepTheirOrderAndComeBeforeDisplayLinks() throws {
    let e = try Engine()
    var log: [String] = []
    _ = DisplayLink(engine: e) { _ in log.append("link \(e.mediaTime)") }
    try e.addEventHandler("a") { _ in log.append("a \(e.mediaTime)"); return false }
    try e.addEventHandler("b") { _ in log.append("b \(e.mediaTime)"); return false }
    try e.send(.custom("b"), at: 0.5)
    try e.send(.custom("a"), at: 0.5)
    try e.send(.custom("a"), at: 0.25)
    try e.send(.custom("b"))  // now: before the clock moves
    try e.step(0.5)
    #expect(log == ["b 0.0", "a 0.25", "b 0.5", "a 0.5", "link 0.5"])
}

@Test func lateEventsComeAtTheNextStepAndEventsSentByHandlersWait() throws {
    let e = try Engine()
    try e.step(1)
    var log: [Double] = []
    try e.addEventHandler("ping") { ev in
        log.append(e.mediaTime)
        if log.count < 3 { try e.send(.custom("ping")) }  // "now", from inside a frame
        return false
    }
    try e.send(.custom("ping"), at: 0.2)  // already passed
    #expect(e.input.pendingCount == 1)
    try e.step(0.1)
    #expect(log == [1.0])
    try e.step(0.1)
    try e.step(0.1)
    #expect(log.count == 3 && near(log[1], 1.1, 1e-9) && near(log[2], 1.2, 1e-9))
    #expect(e.input.pendingCount == 0)
}

@Test func pointerEventsBubbleUntilAHandlerConsumesThem() throws {
    let e = try Engine(size: Size(200, 200))
    let outer = e.makeLayer(), inner = e.makeLayer()
    outer.frame = Rect(0, 0, 200, 200)
    inner.frame = Rect(50, 50, 50, 50)
    try outer.addSublayer(inner)
    try e.root.addSublayer(outer)
    var log: [String] = []
    var innerConsumes = false
    try e.addEventHandler("pointerdown", on: inner) { ev in
        log.append("inner target=\(ev.target === inner) current=\(ev.currentTarget === inner)")
        return innerConsumes
    }
    try e.addEventHandler("pointerdown", on: outer) { ev in log.append("outer current=\(ev.currentTarget === outer)"); return false }
    try e.addEventHandler("pointerdown") { ev in log.append("engine current=\(ev.currentTarget == nil)"); return false }
    try e.send(.pointer(.pointerDown, at: Point(60, 60)))
    try e.send(.pointer(.pointerUp, at: Point(60, 60)))
    try e.step(0)
    #expect(log == ["inner target=true current=true", "outer current=true", "engine current=true"])
    log = []
    innerConsumes = true
    try e.send(.pointer(.pointerDown, at: Point(60, 60)))
    try e.step(0)
    #expect(log == ["inner target=true current=true"])
    log = []
    try e.send(.pointer(.pointerDown, id: 2, at: Point(10, 10)))
    try e.step(0)
    #expect(log == ["outer current=true", "engine current=true"], "the outer layer was hit")
}

@Test func aPointerStaysWithTheLayerItWentDownOn() throws {
    let e = try Engine(size: Size(200, 200))
    let a = e.makeLayer(), b = e.makeLayer()
    a.frame = Rect(0, 0, 50, 50)
    b.frame = Rect(100, 0, 50, 50)
    try e.root.addSublayer(a)
    try e.root.addSublayer(b)
    var got: [String] = []
    for (l, n) in [(a, "a"), (b, "b")] {
        for k in ["pointermove", "pointerup"] {
            try e.addEventHandler(k, on: l) { ev in got.append("\(n) \(ev.name)"); return true }
        }
    }
    try e.send(.pointer(.pointerMove, at: Point(120, 10), buttons: 0))  // hover: hit-tested
    try e.send(.pointer(.pointerDown, at: Point(10, 10)))
    try e.send(.pointer(.pointerMove, at: Point(120, 10)))            // dragged over b
    try e.send(.pointer(.pointerUp, at: Point(120, 10)))
    try e.step(0)
    #expect(got == ["b pointermove", "a pointermove", "a pointerup"])
    #expect(!e.isPointerDown(1))
    // Capture moves the pointer to another layer; nil hit-tests again.
    got = []
    try e.send(.pointer(.pointerDown, at: Point(10, 10)))
    try e.step(0)
    try e.capturePointer(1, to: b)
    try e.send(.pointer(.pointerMove, at: Point(10, 20)))
    try e.step(0)
    try e.capturePointer(1, to: nil)
    try e.send(.pointer(.pointerMove, at: Point(10, 30)))
    try e.step(0)
    #expect(got == ["b pointermove", "a pointermove"])
    #expect(errorCode { try e.capturePointer(9, to: a) } == .invalidArgument)
}

@Test func tapAndPanAreSeparatedByTenPoints() throws {
    let e = try Engine(size: Size(200, 200))
    var log: [String] = []
    try e.addEventHandler("tap") { ev in log.append("tap \(ev.location)"); return false }
    try e.addEventHandler("pan") { ev in
        log.append("pan \(ev.phase.rawValue) \(ev.translation) v=\(ev.velocity)")
        return false
    }
    // A move of exactly 10 points is still a tap.
    try e.send(.pointer(.pointerDown, at: Point(50, 50)), at: 0)
    try e.send(.pointer(.pointerMove, at: Point(60, 50)), at: 0.1)
    try e.send(.pointer(.pointerUp, at: Point(58, 50)), at: 0.2)
    try e.advance(to: 0.2)
    #expect(log == ["tap (58, 50)"])
    log = []
    // 11 points: a pan (no tap); velocity from the last two samples.
    try e.send(.pointer(.pointerDown, at: Point(50, 50)), at: 1)
    try e.send(.pointer(.pointerMove, at: Point(61, 50)), at: 1.1)
    try e.send(.pointer(.pointerMove, at: Point(81, 60)), at: 1.2)
    try e.send(.pointer(.pointerUp, at: Point(81, 60)), at: 1.2)
    try e.advance(to: 2)
    #expect(log.count == 3)
    #expect(log[0].hasPrefix("pan began (11, 0)"))
    #expect(log[1].hasPrefix("pan changed (31, 10)"))
    #expect(log[2].hasPrefix("pan ended (31, 10)"))
    #expect(!log.contains { $0.hasPrefix("tap") })
}

@Test func panVelocityAndSetTranslation() throws {
    let e = try Engine(size: Size(200, 200))
    var samples: [(InputEvent.Phase, Point, Point)] = []
    try e.addEventHandler("pan") { ev in
        samples.append((ev.phase, ev.translation, ev.velocity))
        try e.setPanTranslation(.zero, pointer: ev.pointerID)  // the book's listing 9.4 pattern
        return true
    }
    try e.sendScripted(try EventPayload(json: #"{"type": "drag", "from": [150, 100], "to": [50, 100], "duration": 0.5, "steps": 5, "time": 1}"#))
    try e.advance(to: 2)
    // Moves of −20 every 0.1 s: velocity −200 pt/s; with the translation reset
    // after each event, each reports only its own step, and they sum to −100.
    #expect(samples.map(\.0) == [.began, .changed, .changed, .changed, .changed, .ended])
    #expect(samples.dropLast().map(\.1.x) == [-20, -20, -20, -20, -20])
    #expect(samples.last!.1.x == 0, "the up reports no further motion")
    #expect(samples.allSatisfy { near($0.2.x, -200, 1e-6) && $0.2.y == 0 })
    #expect(errorCode { try e.setPanTranslation(.zero, pointer: 1) } == .invalidArgument, "the pan ended")
}

@Test func panCancelledByPointerCancel() throws {
    let e = try Engine(size: Size(200, 200))
    var phases: [InputEvent.Phase] = []
    try e.addEventHandler("pan") { ev in phases.append(ev.phase); return false }
    try e.send(.pointer(.pointerDown, at: Point(0, 0)))
    try e.send(.pointer(.pointerMove, at: Point(0, 30)))
    try e.send(.pointer(.pointerCancel, at: Point(0, 30)))
    try e.step(0)
    #expect(phases == [.began, .cancelled])
}

@Test func aResizeEventResizesTheOutputWhenDelivered() throws {
    let e = try Engine(size: Size(100, 100))
    var seen: Size? = nil
    try e.addEventHandler("resize") { ev in seen = e.size; return false }
    try e.send(.resize(Size(300, 200), scale: 2), at: 0.5)
    try e.step(0.25)
    #expect(e.size == Size(100, 100))
    try e.step(0.25)
    #expect(seen == Size(300, 200) && e.scale == 2 && e.root.bounds.size == Size(300, 200))
    #expect(e.pixelSize == (600, 400))
}

@Test func tiltChangesGravityAtItsOwnTimeWhateverTheStepSize() throws {
    func run(_ dt: Double) throws -> Point {
        let e = try Engine()
        let w = try PhysicsWorld(engine: e)
        try w.setMaxStepsPerFrame(0)   // a 1 s frame takes all its 120 steps (the default cap is 16)
        let body = try PhysicsBody(mass: 1, moment: 1)
        try w.add(body)
        try e.addEventHandler("tilt") { ev in
            // Listing 11.4's mapping: gravity (ay·1000, −ax·1000).
            try w.setGravity(Point(ev.acceleration.y * 1000, -ev.acceleration.x * 1000))
            return true
        }
        try e.sendScripted(try EventPayload(json: #"{"type": "tilt", "x": 0.4, "y": 0.92, "time": 0.5}"#))
        while e.mediaTime < 1 - 1e-9 { try e.step(min(dt, 1 - e.mediaTime)) }
        #expect(w.gravity == Point(920, -400))
        return body.position
    }
    let a = try run(1.0 / 60), b = try run(1.0 / 7), c = try run(1)
    #expect(a == b && b == c, "\(a) \(b) \(c)")
    #expect(a.x > 0 && a.y < 0)
}

@Test func handlerErrorsSurfaceFromStepAndTheEngineGoesOn() throws {
    let e = try Engine()
    var calls = 0
    try e.addEventHandler("boom") { _ in calls += 1; throw CalunaError(.scriptError, "boom.lua:3: kaput") }
    try e.addEventHandler("boom") { _ in calls += 1; return false }
    try e.send(.custom("boom"))
    #expect(errorCode { try e.step(0.1) } == .scriptError)
    #expect(calls == 2, "the next handler still ran")
    #expect(e.mediaTime == 0.1)
    try e.step(0.1)
    // Step cannot be called from a handler.
    try e.addEventHandler("nested") { _ in try e.step(1); return false }
    try e.send(.custom("nested"))
    #expect(errorCode { try e.step(0) } == .invalidArgument)
}

@Test func handlersCanBeRemovedEvenWhileDispatching() throws {
    let e = try Engine()
    var log: [String] = []
    var second: EventHandler? = nil
    let first = try e.addEventHandler("x") { _ in
        log.append("first")
        if let s = second { e.removeEventHandler(s) }
        return false
    }
    second = try e.addEventHandler("x") { _ in log.append("second"); return false }
    try e.send(.custom("x"))
    try e.step(0)
    #expect(log == ["first"])
    e.removeEventHandler(first)
    e.removeEventHandler(first)
    try e.send(.custom("x"))
    try e.step(0)
    #expect(log == ["first"])
    let l = e.makeLayer()
    try e.addEventHandler("tap", on: l) { _ in true }
    try e.addEventHandler("pan", on: l) { _ in true }
    #expect(e.removeEventHandlers("tap", on: l).count == 1)
    #expect(l.eventHandlers.map(\.name) == ["pan"])
}

@Test func customEventsCarryTheirData() throws {
    let e = try Engine()
    var got: EventPayload? = nil
    try e.addEventHandler("score") { ev in got = ev.payload; return false }
    try e.sendScripted(try EventPayload(json: #"{"type": "custom", "name": "score", "data": {"points": 3, "tags": ["a", true, null]}}"#))
    try e.step(0)
    #expect(got == .object([("points", .number(3)), ("tags", .array([.string("a"), .bool(true), .null]))]))
    #expect(got?.jsonText == #"{"points":3,"tags":["a",true,null]}"#)
}

@Test func hostileInputIsRefusedAndNothingIsQueued() throws {
    let e = try Engine()
    #expect(errorCode { try e.send(.pointer(.pointerDown, at: Point(.nan, 0))) } == .invalidArgument)
    #expect(errorCode { try e.send(.pointer(.pointerDown, at: Point(0, .infinity))) } == .invalidArgument)
    #expect(errorCode { try e.send(.pointer(.pointerDown, at: .zero), at: -1) } == .invalidArgument)
    #expect(errorCode { try e.send(.pointer(.pointerDown, at: .zero), at: .nan) } == .invalidArgument)
    #expect(errorCode { try e.send(.pointer(.pointerDown, at: .zero), at: 1e300) } == .invalidArgument)
    #expect(errorCode { try e.send(.key(.keyDown, "")) } == .invalidArgument)
    #expect(errorCode { try e.send(.tilt(x: .nan, y: 0)) } == .invalidArgument)
    #expect(errorCode { try e.send(.resize(Size(-1, 10))) } == .invalidArgument)
    #expect(errorCode { try e.send(.resize(Size(1e9, 1e9))) } == .invalidArgument)
    #expect(errorCode { try e.send(.custom("tap")) } == .invalidArgument)
    #expect(errorCode { try e.send(.custom("")) } == .invalidArgument)
    #expect(errorCode { try e.send(InputEvent(.tap)) } == .invalidArgument)
    var deep = EventPayload.null
    for _ in 0..<40 { deep = .array([deep]) }
    #expect(errorCode { try e.send(.custom("deep", deep)) } == .invalidArgument)
    #expect(errorCode { try e.addEventHandler("pointerDown") { _ in true } } == .unknownKey)
    #expect(errorCode { try e.addEventHandler("custom") { _ in true } } == .invalidArgument)
    #expect(errorCode { try e.addEventHandler("keydown", on: e.root) { _ in true } } == .unknownKey)
    try e.step(0)
    #expect(errorCode { try e.addEventHandler("tap", on: e.root.presentation()!) { _ in true } } == .invalidArgument)
    let other = try Engine()
    #expect(errorCode { try e.addEventHandler("tap", on: other.root) { _ in true } } == .treeError)
    // Scripted input: every line is checked before any is queued.
    for bad in [#"{"type": "pointerdown", "x": 1}"#, #"{"type": "teleport"}"#, #"{"type": "tap", "x": 1, "y": 2, "colour": 3}"#,
                #"{"type": "drag", "from": [0, 0], "to": [1, 1], "steps": 1e9}"#, #"{"type": "tap", "x": 1, "y": 2, "modifiers": ["hyper"]}"#,
                #"{"type": "tap", "x": "1", "y": 2}"#, #"[1, 2]"#, #"{"type": "tap", "x": 1, "y": 2"#, #"{"type": "tap", "x": 1, "y": 2, "time": -3}"#,
                #"{"type": "drag", "from": [0, 0], "to": [1, 1], "time": 1e12}"#] {
        let text = "{\"type\": \"tap\", \"x\": 1, \"y\": 1}\n\n# a comment\n" + bad
        do {
            try e.sendScripted(jsonLines: text, source: "in.jsonl")
            Issue.record("accepted: \(bad)")
        } catch let err as CalunaError {
            #expect(err.message.hasPrefix("in.jsonl:4: "), "\(err.message)")
        }
    }
    #expect(e.input.pendingCount == 0)
    // One object standing for several events: none is queued when one is out of range.
    #expect(errorCode { try e.sendScripted(try EventPayload(json: #"{"type": "tap", "x": 1, "y": 2, "time": 999999999.9, "duration": 1}"#)) } == .invalidArgument)
    #expect(e.input.pendingCount == 0)
    #expect(errorCode { try e.loadEvents(path: "/nonexistent/events.jsonl", access: .unrestricted) } == .ioError)
    // The queue is bounded.
    for _ in 0..<InputState.maximumQueued { try e.send(.custom("n")) }
    #expect(errorCode { try e.send(.custom("n")) } == .invalidArgument)
    try e.step(0)
    #expect(e.input.pendingCount == 0)
    try e.send(.pointer(.pointerDown, at: .zero))
    try e.step(0)
}
