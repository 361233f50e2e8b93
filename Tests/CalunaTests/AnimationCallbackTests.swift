import Foundation
import Testing
@testable import Caluna

/// Frozen copies, delegate order, step-size independence, errors, timers, display links, re-entrancy.
extension AnimationEngineTests {
    // MARK: D7 copy on add, frozen copies

    @Test func d7ChangingTheOriginalAfterAddingHasNoEffect() throws {
        let s = try Scene()
        let a = moveX(duration: 1)
        a.tags["tag"] = "t1"
        try s.l.addAnimation(a, forKey: "x")
        a.timing.duration = 10
        a.toValue = .number(1000)
        try a.checkMutable()  // the caller's object stays editable
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 50, valueTolerance))
        let attached = try #require(s.l.animation(forKey: "x"))
        #expect(attached !== a)
        #expect(attached.timing.duration == 1)
        #expect(attached.tags["tag"] as? String == "t1", "tags travel with the copy")
        #expect(errorCode { try attached.checkMutable() } == .invalidArgument)
        let duration = try AnimationProperties.resolve("duration", for: attached)
        #expect(errorCode { try duration.set(attached, .number(5)) } == .invalidArgument)
        #expect(attached.timing.duration == 1)
        try s.e.advance(to: 1)
        #expect(s.l.animations.isEmpty)
    }

    @Test func d7DelegateGetsTheCopy() throws {
        // R-D1: the animation handed to the delegate is the layer's copy, with the tags.
        let s = try Scene()
        let spy = s.spy("a")
        let a = moveX(delegate: spy)
        a.tags["handView"] = "second"
        try s.l.addAnimation(a, forKey: "x")
        try s.e.advance(to: 2)
        #expect(spy.seen.count == 2)
        #expect(spy.seen.allSatisfy { $0 !== a && $0.tags["handView"] as? String == "second" })
        #expect(spy.seen[0] === spy.seen[1])
    }

    @Test func d7AddingUnderAnExistingKeyReplaces() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(delegate: s.spy("first")), forKey: "x")
        try s.l.addAnimation(moveX(from: 10, to: 20), forKey: "other")
        try s.e.step(0)
        try s.l.addAnimation(moveX(delegate: s.spy("second")), forKey: "x")
        #expect(s.l.animationKeys.sorted() == ["other", "x"])
        try s.e.step(0)
        #expect(s.log.names == ["first start", "second start", "first stop false"])
    }

    @Test func removedOnCompletionNoStopsOnceAndStaysAttached() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(fill: .forwards, removedOnCompletion: false, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 3)
        #expect(s.log.names == ["a start", "a stop true"] && s.log.timesMatch([0, 1]))
        #expect(s.l.animation(forKey: "x") != nil)
        s.l.removeAnimation(forKey: "x")
        try s.e.step(0.1)
        #expect(s.log.names == ["a start", "a stop true"], "an animation is stopped once")
        #expect(near(s.x(), 200, valueTolerance))
    }

    @Test func removeAllAnimationsStopsEveryOne() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(delegate: s.spy("a")), forKey: "a")
        try s.l.addAnimation(spin(delegate: s.spy("b")), forKey: "b")
        try s.l.addAnimation(moveX(delegate: s.spy("c")), forKey: nil)
        try s.e.advance(to: 0.5)
        s.l.removeAllAnimations()
        #expect(s.l.animations.isEmpty)
        try s.e.step(0)
        #expect(s.log.names == ["a start", "b start", "c start", "a stop false", "b stop false", "c stop false"])
    }


    // MARK: more timing through the engine

    @Test func animationTimingFunctionAndSpeed() throws {
        // Explicit animations are linear unless told; named curves per spec §1.19.
        for (fn, v) in [(TimingFunction?.none, 50.0), (.easeIn, 31.5357), (.easeOut, 68.4643), (.easeInEaseOut, 50),
                        (.default, 80.2403)] {
            let s = try Scene()
            let a = moveX()
            a.timingFunction = fn
            try s.l.addAnimation(a, forKey: "x")
            try s.e.advance(to: 0.5)
            #expect(near(s.x(), v, bookTolerance), "\(String(describing: fn)): \(s.x())")
        }
        // The animation's own speed and timeOffset move its events (L9.3 with a delegate).
        let s = try Scene()
        let a = moveX(delegate: s.spy("a"))
        a.timing.speed = 2
        a.timing.timeOffset = 0.5
        try s.l.addAnimation(a, forKey: "x")
        try s.e.step(0)
        #expect(near(s.x(), 50, valueTolerance), "starts at the middle")
        try s.e.advance(to: 3)
        #expect(s.log.timesMatch([0, 0.5]), "\(s.log.events)")
    }

    @Test func layerBeginTimeAndOffsetMoveEvents() throws {
        // Layer: beginTime 0.2, speed 2, timeOffset 0.5 → local = (t − 0.2)·2 + 0.5.
        let s = try Scene()
        s.l.timing.beginTime = 0.2
        s.l.timing.speed = 2
        s.l.timing.timeOffset = 0.5
        try s.l.addAnimation(moveX(delegate: s.spy("now")), forKey: "now")
        // A delay written Apple's way: beginTime = local now + 1 (local seconds).
        try s.l.addAnimation(moveX(begin: s.l.convertTime(s.e.mediaTime, from: nil) + 1, delegate: s.spy("later")),
                             forKey: "later")
        try s.e.advance(to: 5)
        // "now": stamped local 0.1, ends local 1.1 = media 0.5. "later": local 1.1 … 2.1 = media 0.5 … 1.
        #expect(s.log.names == ["now start", "later start", "now stop true", "later stop true"])
        #expect(s.log.timesMatch([0, 0.5, 0.5, 1]), "\(s.log.events)")
    }

    @Test func animationOnADetachedLayerWaitsForTheTree() throws {
        let s = try Scene()
        let d = s.e.makeLayer()
        d.position = Point(200, 0)
        try d.addAnimation(moveX(delegate: s.spy("d")), forKey: "x")
        try s.e.advance(to: 1)
        #expect(s.log.events.isEmpty)
        try s.e.root.addSublayer(d)
        try s.e.advance(to: 1.5)
        #expect(near(s.x(d), 50, valueTolerance), "stamped when it joined the tree at t=1")
        try s.e.advance(to: 3)
        #expect(s.log.timesMatch([1, 2]), "\(s.log.events)")
    }

    @Test func cumulativeAndAdditive() throws {
        let s = try Scene()
        let c = moveX(from: 0, to: 100, fill: .forwards, removedOnCompletion: false, repeatCount: 3)
        c.cumulative = true
        try s.l.addAnimation(c, forKey: "c")
        try s.e.advance(to: 2.5)
        #expect(near(s.x(), 250, valueTolerance))
        try s.e.advance(to: 4)
        #expect(near(s.x(), 300, valueTolerance), "the end of the third cycle")

        let t = try Scene()
        let a = moveX(from: 0, to: 100)
        a.additive = true
        try t.l.addAnimation(a, forKey: "a")
        try t.e.advance(to: 0.25)
        #expect(near(t.x(), 225, valueTolerance), "model 200 + 25")
    }

    @Test func delegateChangesAreCommittedAtTheEventTime() throws {
        // A model change and an animation added in didStop are committed at the
        // event time (spec §1.18 step 2), not at the end of the step.
        let s = try Scene()
        let spy = s.spy("a")
        spy.onStop = { _, _ in
            s.l.position = Point(300, 50)
            try s.l.addAnimation(moveX(from: 0, to: 10, duration: 4, delegate: s.spy("b")), forKey: "b")
        }
        try s.l.addAnimation(moveX(duration: 0.5, delegate: spy), forKey: "a")
        try s.e.advance(to: 2.5)
        #expect(near(s.x(), 5, valueTolerance), "b began at 0.5: half way at 2.5")
        #expect(s.l.animation(forKey: "b")?.timing.beginTime == 0.5)
        try s.e.advance(to: 10)
        #expect(near(s.x(), 300, valueTolerance))
        #expect(s.log.timesMatch([0, 0.5, 0.5, 4.5]), "\(s.log.events)")
    }

    // MARK: delegate order

    @Test func delegateEventsStartsBeforeStopsInTreeOrder() throws {
        let e = try Engine(size: Size(100, 100))
        let log = EventLog()
        let a = e.makeLayer(), b = e.makeLayer()
        try e.root.addSublayer(a)
        try e.root.addSublayer(b)
        try e.step(0)
        // B's animations are added first; A comes first in the tree.
        try b.addAnimation(moveX(begin: 1, delegate: Spy("B1", log, e)), forKey: "b1")   // starts at 1
        try b.addAnimation(moveX(delegate: Spy("B2", log, e)), forKey: "b2")             // 0 … 1
        try a.addAnimation(moveX(delegate: Spy("A1", log, e)), forKey: "a1")             // 0 … 1
        try a.addAnimation(moveX(begin: 1, delegate: Spy("A2", log, e)), forKey: "a2")   // starts at 1
        try e.advance(to: 3)
        #expect(log.names == ["A1 start", "B2 start",
                              "A2 start", "B1 start", "A1 stop true", "B2 stop true",
                              "A2 stop true", "B1 stop true"], "\(log.events)")
        #expect(log.timesMatch([0, 0, 1, 1, 1, 1, 2, 2]))
    }

    @Test func delegateOrderWithinALayerFollowsTheAnimations() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(delegate: s.spy("k2")), forKey: "k2")
        try s.l.addAnimation(moveX(delegate: s.spy("k1")), forKey: "k1")
        try s.e.advance(to: 2)
        #expect(s.log.names == ["k2 start", "k1 start", "k2 stop true", "k1 stop true"])
    }

    // MARK: step-size independence

    /// A scene with awkward times, a chained animation added from a delegate, a
    /// sped-up parent and a timer; returns the log and the presentation values
    /// sampled at each checkpoint.
    private func independenceRun(step: Double?) throws -> ([Event], [[Double]]) {
        let e = try Engine(size: Size(300, 300))
        let log = EventLog()
        let parent = e.makeLayer()
        parent.timing.speed = 1.7
        try e.root.addSublayer(parent)
        let a = e.makeLayer(), b = e.makeLayer()
        a.position = Point(200, 10)
        b.position = Point(200, 20)
        try e.root.addSublayer(a)
        try parent.addSublayer(b)
        try e.step(0)

        let first = Spy("first", log, e)
        first.onStop = { _, _ in
            let chained = moveX(from: 0, to: 300, duration: 1, delegate: Spy("chained", log, e))
            chained.keyPath = "position.y"
            try a.addAnimation(chained, forKey: "chained")
        }
        try a.addAnimation(moveX(duration: 0.377, begin: 0.1234, delegate: first), forKey: "first")
        try b.addAnimation(moveX(duration: 0.3, repeatCount: 2.3, autoreverses: true,
                                 delegate: Spy("b", log, e)), forKey: "b")
        let c = moveX(duration: 0.61, begin: 0.05, fill: .both, removedOnCompletion: false)
        c.timingFunction = .easeInEaseOut
        try b.addAnimation(c, forKey: "c")
        _ = try FrameTimer(engine: e, interval: 0.7, repeats: false) { _ in
            log.events.append(Event(what: "timer", time: e.mediaTime))
            let k = moveX(from: 0, to: 50, duration: 0.2, delegate: Spy("fromTimer", log, e))
            try b.addAnimation(k, forKey: "k")
        }

        var samples: [[Double]] = []
        func sample() {
            samples.append([a.presentation()?.position.x, a.presentation()?.position.y,
                            b.presentation()?.position.x].map { $0 ?? .nan })
        }
        for checkpoint in [0.7, 1.0, 1.3, 2.0] {
            if let step {
                while e.mediaTime < checkpoint - 1e-12 { try e.step(step) }
            } else {
                try e.advance(to: checkpoint)
            }
            #expect(near(e.mediaTime, checkpoint, 1e-12))
            sample()
        }
        return (log.events, samples)
    }

    @Test func resultsDoNotDependOnTheStepSize() throws {
        let (jumpLog, jump) = try independenceRun(step: nil)
        let (log60, at60) = try independenceRun(step: 1.0 / 60)
        #expect(jumpLog.map(\.what) == log60.map(\.what))
        #expect(jumpLog.count == log60.count && zip(jumpLog, log60).allSatisfy { abs($0.time - $1.time) <= timeTolerance },
                "jump \(jumpLog)\n60 Hz \(log60)")
        for (i, (p, q)) in zip(jump, at60).enumerated() {
            #expect(zip(p, q).allSatisfy { abs($0 - $1) <= 1e-9 }, "checkpoint \(i): \(p) vs \(q)")
        }
        // The chained animation starts exactly when the first one stops.
        let stop = jumpLog.first { $0.what == "first stop true" }?.time ?? .nan
        let chained = jumpLog.first { $0.what == "chained start" }?.time ?? .nan
        // (Within one tick: landing exactly on the rounded time is the separate
        // eventTimesAreRoundedToTheClockNotPastIt.)
        #expect(abs(stop - (0.1234 + 0.377)) <= 1.5 / Double(Clock.ticksPerSecond), "\(stop)")
        #expect(chained == stop)
        // The timer fires at 0.7 in both runs (it is a frame boundary of both).
        #expect(jumpLog.contains { $0.what == "timer" && near($0.time, 0.7, timeTolerance) })
    }

    @Test func eventTimesAreRoundedToTheClockNotPastIt() throws {
        // duration 0.1 × 3: the active duration 3 × 0.1 = 0.30000000000000004 is a
        // rounding error away from 0.3, a whole number of ticks.
        let s = try Scene()
        try s.l.addAnimation(moveX(duration: 0.1, repeatCount: 3, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 1)
        #expect(s.log.timesMatch([0, 0.3]), "\(s.log.events)")
        // The everyday form: a 0.1 s delay and a 0.2 s duration (0.1 + 0.2 > 0.3).
        let d = try Scene()
        try d.l.addAnimation(moveX(duration: 0.2, begin: 0.1, delegate: d.spy("a")), forKey: "x")
        try d.e.advance(to: 1)
        #expect(d.log.timesMatch([0.1, 0.3]), "\(d.log.events)")
        // The same at a 60 Hz frame boundary: the frame at 0.3 should show the end.
        let f = try Scene()
        try f.l.addAnimation(moveX(duration: 0.1, repeatCount: 3), forKey: "x")
        for _ in 0..<18 { try f.e.step(1.0 / 60) }
        #expect(f.e.mediaTime == 0.3)
        #expect(f.l.animations.isEmpty, "at t = 0.3 the animation has ended")
    }

    // MARK: errors from delegates

    @Test func delegateErrorReachesStepAfterEveryOtherEvent() throws {
        let e = try Engine(size: Size(100, 100))
        let log = EventLog()
        let a = e.makeLayer(), b = e.makeLayer()
        try e.root.addSublayer(a)
        try e.root.addSublayer(b)
        try e.step(0)
        let thrower = Spy("A", log, e)
        thrower.onStart = { _ in throw Boom(id: 1) }
        let second = Spy("B", log, e)
        second.onStop = { _, _ in throw Boom(id: 2) }
        try a.addAnimation(moveX(begin: 0.5, delegate: thrower), forKey: "a")
        try b.addAnimation(moveX(duration: 0.5, delegate: second), forKey: "b")
        try b.addAnimation(moveX(begin: 0.5, delegate: Spy("C", log, e)), forKey: "c")
        try e.step(0)
        #expect(throws: Boom(id: 1)) { try e.advance(to: 1) }
        // Everything at 0.5 was delivered; the first error wins.
        #expect(log.names == ["B start", "A start", "C start", "B stop true"], "\(log.events)")
        #expect(e.mediaTime == 1, "the step completed")
        // The engine keeps working.
        try e.advance(to: 2)
        #expect(log.names.suffix(2) == ["A stop true", "C stop true"])
        #expect(log.timesMatch([0, 0.5, 0.5, 0.5, 1.5, 1.5]), "\(log.events)")
        #expect(near(b.presentation()?.position.x ?? .nan, 0, valueTolerance))
    }


    @Test func timerErrorReachesStepAfterTheFrameIsComplete() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(begin: 0.5, delegate: s.spy("anim")), forKey: "x")
        try s.e.step(0)
        _ = try FrameTimer(engine: s.e, interval: 0.5, repeats: false) { _ in
            s.log.events.append(Event(what: "timer", time: s.e.mediaTime))
            throw Boom(id: 3)
        }
        _ = DisplayLink(engine: s.e) { l in
            s.log.events.append(Event(what: "link", time: s.e.mediaTime))
            l.invalidate()
        }
        #expect(throws: Boom(id: 3)) { try s.e.advance(to: 0.5) }
        #expect(s.log.names == ["timer", "link", "anim start"], "\(s.log.events)")
        try s.e.advance(to: 0.75)
        #expect(near(s.x(), 25, valueTolerance))
    }

    // MARK: timers

    @Test func timerCoalescesAtThirtyFramesPerSecond() throws {
        // A 1/60 s timer stepped at 30 Hz fires once per frame (NSTimer coalescing).
        let e = try Engine(size: Size(10, 10))
        var fires: [Double] = []
        let timer = try FrameTimer(engine: e, interval: 1.0 / 60, repeats: true) { _ in fires.append(e.mediaTime) }
        for _ in 0..<30 { try e.step(1.0 / 30) }
        #expect(fires.count == 30)
        #expect(fires.enumerated().allSatisfy { near($0.element, Double($0.offset + 1) / 30, timeTolerance) })
        #expect(near(timer.fireDate, 61.0 / 60, timeTolerance), "the next scheduled date after the frame")
        #expect(timer.isValid)
        timer.invalidate()
        try e.step(1.0 / 30)
        #expect(fires.count == 30)
    }

    @Test func timerAtSixtyFramesPerSecondFiresEveryFrame() throws {
        let e = try Engine(size: Size(10, 10))
        var count = 0
        _ = try FrameTimer(engine: e, interval: 1.0 / 60, repeats: true) { _ in count += 1 }
        for _ in 0..<60 { try e.step(1.0 / 60) }
        #expect(count == 60)
        try e.advance(to: 2)
        #expect(count == 61, "one jump is one frame: one fire")
    }

    @Test func oneShotTimer() throws {
        let e = try Engine(size: Size(10, 10))
        var fires: [Double] = []
        let t = try FrameTimer(engine: e, interval: 0.5, repeats: false) { _ in fires.append(e.mediaTime) }
        #expect(t.fireDate == 0.5 && !t.repeats)
        for _ in 0..<120 { try e.step(1.0 / 60) }
        #expect(fires.count == 1 && near(fires[0], 0.5, timeTolerance))
        #expect(!t.isValid)
        // Scheduled later: due `interval` after its creation time.
        var late: [Double] = []
        _ = try FrameTimer(engine: e, interval: 0.25, repeats: false) { _ in late.append(e.mediaTime) }
        try e.advance(to: 2.2)
        #expect(late.isEmpty)
        try e.advance(to: 2.3)
        #expect(late.count == 1 && near(late[0], 2.3, timeTolerance), "fires in the first frame at or after its date")
    }

    @Test func timerRefusesBadIntervals() throws {
        let e = try Engine(size: Size(10, 10))
        for bad in [-1.0, .nan, .infinity] {
            #expect(errorCode { try FrameTimer(engine: e, interval: bad, repeats: false) { _ in } } == .invalidArgument)
        }
        #expect(errorCode { try FrameTimer(engine: e, interval: 0, repeats: true) { _ in } } == .invalidArgument)
    }

    // MARK: display links

    @Test func displayLinkTimestamps() throws {
        let e = try Engine(size: Size(10, 10))
        var calls: [(Double, Double, Double, Double)] = []
        let link = DisplayLink(engine: e) { l in calls.append((l.timestamp, l.targetTimestamp, l.duration, e.mediaTime)) }
        for _ in 0..<60 { try e.step(1.0 / 60) }
        #expect(calls.count == 60)
        for (i, c) in calls.enumerated() {
            #expect(near(c.0, Double(i) / 60, timeTolerance), "timestamp \(i)")
            #expect(near(c.1, Double(i + 1) / 60, timeTolerance), "targetTimestamp \(i)")
            #expect(near(c.2, 1.0 / 60, timeTolerance), "duration \(i)")
            #expect(c.1 == c.3, "targetTimestamp is the frame being prepared (the media time)")
        }
        #expect(link.isValid)
        // An uneven host step: the period is the step's length.
        try e.step(0.1)
        #expect(calls.count == 61)
        #expect(near(calls[60].0, 1, timeTolerance) && near(calls[60].1, 1.1, timeTolerance) && near(calls[60].2, 0.1, timeTolerance))
    }

    @Test func displayLinkFrameIntervalThree() throws {
        let e = try Engine(size: Size(10, 10))
        var times: [Double] = []
        let link = DisplayLink(engine: e) { _ in times.append(e.mediaTime) }
        link.frameInterval = 3
        for _ in 0..<60 { try e.step(1.0 / 60) }
        #expect(times.count == 20)
        #expect(times.enumerated().allSatisfy { near($0.element, Double(3 * ($0.offset + 1)) / 60, timeTolerance) })
        // As CADisplayLink: timestamp is the previous frame, duration the frame
        // period (not multiplied by frameInterval).
        #expect(near(link.timestamp, 59.0 / 60, timeTolerance) && near(link.targetTimestamp, 1, timeTolerance))
        #expect(near(link.duration, 1.0 / 60, timeTolerance))
        link.frameInterval = 0
        #expect(link.frameInterval == 1, "clamped to at least 1")
    }

    @Test func displayLinkPreferredFramesPerSecond() throws {
        let e = try Engine(size: Size(10, 10))
        var count = 0
        let link = DisplayLink(engine: e) { _ in count += 1 }
        link.preferredFramesPerSecond = 20
        for _ in 0..<60 { try e.step(1.0 / 60) }
        #expect(count == 20)
        // 30 fps asked of a 60 Hz host: every other frame.
        count = 0
        link.preferredFramesPerSecond = 30
        for _ in 0..<60 { try e.step(1.0 / 60) }
        #expect(count == 30)
        link.preferredFramesPerSecond = -5
        #expect(link.preferredFramesPerSecond == 0)
    }

    @Test func displayLinkPauseAndInvalidate() throws {
        let e = try Engine(size: Size(10, 10))
        var count = 0
        let link = DisplayLink(engine: e) { _ in count += 1 }
        for _ in 0..<10 { try e.step(1.0 / 60) }
        #expect(count == 10)
        link.isPaused = true
        for _ in 0..<10 { try e.step(1.0 / 60) }
        #expect(count == 10, "paused")
        link.isPaused = false
        try e.step(1.0 / 60)
        #expect(count == 11)
        link.invalidate()
        #expect(!link.isValid)
        for _ in 0..<10 { try e.step(1.0 / 60) }
        #expect(count == 11, "invalidated")
        link.isPaused = false
        try e.step(1.0 / 60)
        #expect(count == 11, "an invalidated link never fires again")
    }

    @Test func displayLinkInvalidatedFromItsOwnCallback() throws {
        let e = try Engine(size: Size(10, 10))
        var count = 0
        _ = DisplayLink(engine: e) { l in
            count += 1
            if count == 3 { l.invalidate() }
        }
        for _ in 0..<10 { try e.step(1.0 / 60) }
        #expect(count == 3)
    }

    @Test func timersAndLinksFireInCreationOrderBeforeAnimationEvents() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(begin: 0.5, delegate: s.spy("anim")), forKey: "x")
        try s.e.step(0)
        _ = try FrameTimer(engine: s.e, interval: 0.5, repeats: false) { _ in
            s.log.events.append(Event(what: "timer", time: s.e.mediaTime))
        }
        _ = DisplayLink(engine: s.e) { _ in s.log.events.append(Event(what: "link", time: s.e.mediaTime)) }
        for _ in 0..<30 { try s.e.step(1.0 / 60) }
        let at05 = s.log.events.filter { abs($0.time - 0.5) <= timeTolerance }.map(\.what)
        #expect(at05 == ["timer", "link", "anim start"], "\(at05)")
    }

    // MARK: re-entrancy

    @Test func stepFromALayoutCallbackIsRefused() throws {
        let s = try Scene()
        var codes: [CalunaError.Code?] = []
        let hook = LayoutHook { codes.append(errorCode { try s.e.step(0.5) }) }
        s.l.delegate = hook
        // Layout run by a step: refused.
        s.l.setNeedsLayout()
        try s.e.step(0.1)
        #expect(codes == [.invalidArgument])
        #expect(near(s.e.mediaTime, 0.1, timeTolerance))
        // Layout run by render() (and flush()) before it draws.
        s.l.setNeedsLayout()
        _ = try s.e.render()
        #expect(codes.last == .invalidArgument)
        #expect(near(s.e.mediaTime, 0.1, timeTolerance), "render must not move the clock: \(s.e.mediaTime)")
        #expect(codes.count == 2)
    }

    @Test func addAnimationRefusesBadAnimationsAndKeepsTheOldOne() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(delegate: s.spy("good")), forKey: "x")
        let frame = BasicAnimation()
        frame.keyPath = "frame"
        frame.toValue = .rect(Rect(0, 0, 1, 1))
        #expect(errorCode { try s.l.addAnimation(frame, forKey: "x") } == .invalidArgument)
        let wrong = BasicAnimation()
        wrong.keyPath = "position.x"
        wrong.toValue = .color(red)
        #expect(errorCode { try s.l.addAnimation(wrong, forKey: "x") } == .typeMismatch)
        let none = BasicAnimation()
        #expect(errorCode { try s.l.addAnimation(none, forKey: "x") } == .invalidArgument)
        #expect(errorCode { try s.l.addAnimation(KeyframeAnimation(), forKey: "x") } != nil)
        #expect(s.l.animationKeys == ["x"])
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 50, valueTolerance), "the refused additions left the running one alone")
        let p = try #require(s.l.presentation())
        #expect(errorCode { try p.addAnimation(moveX(), forKey: "y") } == .invalidArgument, "presentation layers are read-only")
        try s.e.advance(to: 2)
        #expect(s.log.names == ["good start", "good stop true"])
    }

    @Test func attachedCopyIsFrozenForSwiftCallersToo() throws {
        // D7 / book l.1715–1723: an attached animation cannot be changed. The
        // property table (Lua, C) checks isFrozen; Swift's stored properties do not.
        let s = try Scene()
        try s.l.addAnimation(moveX(duration: 1), forKey: "x")
        try s.e.step(0)
        let attached = try #require(s.l.animation(forKey: "x") as? BasicAnimation)
        withKnownIssue("GAP: Swift code can mutate the attached copy (values, duration, speed, delegate …) and the running animation changes") {
            attached.timing.duration = 10
            attached.toValue = .number(1000)
            attached.timing.speed = 2
            try s.e.advance(to: 0.25)
            #expect(near(s.x(), 25, valueTolerance), "\(s.x())")
        }
        // Giving the attached copy a delegate bypasses the engine's delegate count,
        // so its events are not visited at their exact times.
        let t = try Scene()
        try t.l.addAnimation(moveX(duration: 0.25), forKey: "x")
        try t.e.step(0)
        t.l.animation(forKey: "x")?.delegate = t.spy("late")
        try t.e.advance(to: 1)
        withKnownIssue("GAP: a delegate set on the attached copy is not counted; didStop arrives at the end of the step") {
            #expect(t.log.events.last.map { near($0.time, 0.25, timeTolerance) } == true, "\(t.log.events)")
        }
    }


    @Test func stepAndRenderFromACallbackAreRefused() throws {
        let s = try Scene()
        var codes: [(String, CalunaError.Code?)] = []
        let spy = s.spy("a")
        spy.onStart = { _ in
            codes.append(("step in didStart", errorCode { try s.e.step(0.1) }))
            codes.append(("advance in didStart", errorCode { try s.e.advance(to: 5) }))
            codes.append(("render in didStart", errorCode { try s.e.render() }))
        }
        try s.l.addAnimation(moveX(delegate: spy), forKey: "x")
        _ = try FrameTimer(engine: s.e, interval: 0.1, repeats: false) { _ in
            codes.append(("step in timer", errorCode { try s.e.step(0.1) }))
            codes.append(("render in timer", errorCode { try s.e.render() }))
        }
        _ = DisplayLink(engine: s.e) { l in
            codes.append(("advance in link", errorCode { try s.e.advance(to: 9) }))
            l.invalidate()
        }
        try s.e.advance(to: 0.2)
        #expect(codes.count == 6)
        for (k, v) in codes { #expect(v == .invalidArgument, "\(k)") }
        #expect(near(s.e.mediaTime, 0.2, timeTolerance), "nothing moved the clock from inside")
        // Outside callbacks everything works again.
        try s.e.step(0.1)
        _ = try s.e.render()
    }
}
