import Foundation
import Testing
@testable import Caluna

/// Derived rules D8–D17 through the engine (spec ch.7–9 §2).
@Suite struct AnimationEngineTests {
    // MARK: D8 fill modes

    @Test func d8FillModeMatrix() throws {
        // position.x 0→100, model 200, beginTime 1 (added at t=0), duration 1, removedOnCompletion NO.
        let rows: [(MediaTiming.FillMode, [Double])] = [
            (.removed, [200, 50, 200]), (.backwards, [0, 50, 200]), (.forwards, [200, 50, 100]), (.both, [0, 50, 100]),
        ]
        for (fill, values) in rows {
            let s = try Scene()
            try s.l.addAnimation(moveX(begin: 1, fill: fill, removedOnCompletion: false), forKey: "x")
            for (t, v) in zip([0.5, 1.5, 2.5], values) {
                try s.e.advance(to: t)
                #expect(near(s.x(), v, valueTolerance), "\(fill) at t=\(t): \(s.x())")
            }
            #expect(s.l.animation(forKey: "x") != nil, "\(fill): still attached")
            #expect(s.l.position.x == 200, "\(fill): the model never changes")
        }
    }

    @Test func d8RemovedOnCompletionBeatsForwardFill() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(begin: 1, fill: .forwards, removedOnCompletion: true), forKey: "x")
        try s.e.advance(to: 1.5)
        #expect(near(s.x(), 50, valueTolerance))
        #expect(s.l.animation(forKey: "x") != nil)
        try s.e.advance(to: 2.5)
        #expect(near(s.x(), 200, valueTolerance), "removed at the end: the model shows")
        #expect(s.l.animation(forKey: "x") == nil)
        #expect(s.l.animationKeys.isEmpty)
    }

    @Test func d8FillInOneJump() throws {
        // The same end states without intermediate frames.
        for (fill, v) in [(MediaTiming.FillMode.forwards, 100.0), (.removed, 200), (.both, 100)] {
            let s = try Scene()
            try s.l.addAnimation(moveX(begin: 1, fill: fill, removedOnCompletion: false), forKey: "x")
            try s.e.advance(to: 2.5)
            #expect(near(s.x(), v, valueTolerance), "\(fill)")
        }
    }

    // MARK: D9 didStart after a delay

    @Test func d9DidStartAtTheBeginTimeNotAtTheAdd() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(begin: 1, delegate: s.spy("a")), forKey: "x")
        try s.e.step(0)
        try s.e.advance(to: 0.5)
        #expect(s.log.events.isEmpty, "nothing before the begin time: \(s.log.events)")
        try s.e.advance(to: 1.5)
        #expect(s.log.names == ["a start"])
        #expect(s.log.timesMatch([1]), "\(s.log.events)")
        try s.e.advance(to: 3)
        #expect(s.log.names == ["a start", "a stop true"])
        #expect(s.log.timesMatch([1, 2]), "\(s.log.events)")
    }

    @Test func d9EventTimesAreExactInOneBigStep() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(begin: 1, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 10)
        #expect(s.log.names == ["a start", "a stop true"])
        #expect(s.log.timesMatch([1, 2]), "\(s.log.events)")
        #expect(s.e.mediaTime == 10)
    }

    @Test func animationAddedAtTimeZeroStartsAtTheFirstStep() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(delegate: s.spy("a")), forKey: "x")
        try s.e.step(0)
        #expect(s.log.names == ["a start"] && s.log.timesMatch([0]))
        #expect(s.l.animation(forKey: "x")?.timing.beginTime == 0)
    }

    @Test func beginTimeIsStampedWithTheCommitTime() throws {
        // DESIGN §3 step 0: an animation added at 2 and committed by the next step
        // is stamped 2 even if that step goes to 2.5.
        let s = try Scene()
        try s.e.advance(to: 2)
        try s.l.addAnimation(moveX(delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 2.5)
        #expect(near(s.l.animation(forKey: "x")?.timing.beginTime ?? .nan, 2, timeTolerance))
        #expect(near(s.x(), 50, valueTolerance))
        #expect(s.log.timesMatch([2]))
        try s.e.advance(to: 4)
        #expect(s.log.timesMatch([2, 3]), "\(s.log.events)")
    }

    // MARK: D10 hierarchical speed

    @Test func d10SpeedsMultiplyThroughTheTree() throws {
        let e = try Engine(size: Size(300, 300))
        let log = EventLog()
        let p = e.makeLayer(), l = e.makeLayer()
        p.timing.speed = 2
        l.timing.speed = 2
        try e.root.addSublayer(p)
        try p.addSublayer(l)
        try e.step(0)
        try l.addAnimation(moveX(duration: 4, delegate: Spy("child", log, e)), forKey: "x")
        try p.addAnimation(moveX(duration: 4, delegate: Spy("parent", log, e)), forKey: "x")
        try e.advance(to: 0.5)
        #expect(near(l.presentation()?.position.x ?? .nan, 50, valueTolerance), "4× speed: half way at 0.5 s")
        #expect(near(p.presentation()?.position.x ?? .nan, 25, valueTolerance), "the child's speed does not touch the parent")
        try e.advance(to: 5)
        #expect(log.names == ["parent start", "child start", "child stop true", "parent stop true"])
        #expect(log.timesMatch([0, 0, 1, 2]), "\(log.events)")
    }

    @Test func d10RootSpeedHundred() throws {
        let s = try Scene()
        s.e.root.timing.speed = 100
        try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 0.005)
        #expect(near(s.x(), 50, valueTolerance), "\(s.x())")
        try s.e.advance(to: 1)
        #expect(s.log.names == ["a start", "a stop true"])
        #expect(s.log.timesMatch([0, 0.01]), "\(s.log.events)")
    }

    @Test func negativeLayerSpeedRewinds() throws {
        // Book l.1729–1734: a negative layer speed rewinds.
        let s = try Scene()
        try s.l.addAnimation(moveX(duration: 2, removedOnCompletion: false), forKey: "x")
        try s.e.advance(to: 1.5)
        #expect(near(s.x(), 75, valueTolerance))
        let now = s.l.convertTime(s.e.mediaTime, from: nil)
        s.l.timing.speed = -1
        s.l.timing.beginTime = s.e.mediaTime
        s.l.timing.timeOffset = now
        try s.e.advance(to: 2)
        #expect(near(s.x(), 50, valueTolerance), "\(s.x())")
    }

    // MARK: D11 convertTime

    @Test func d11ConvertTime() throws {
        let e = try Engine(size: Size(100, 100))
        let a = e.makeLayer(), b = e.makeLayer()
        a.timing.beginTime = 1
        a.timing.speed = 2
        a.timing.timeOffset = 3
        b.timing.speed = 0.5
        try e.root.addSublayer(a)
        try a.addSublayer(b)
        #expect(near(a.convertTime(5, from: nil), 11))
        #expect(near(a.convertTime(11, to: nil), 5))
        #expect(near(b.convertTime(5, from: nil), 5.5))
        #expect(near(a.convertTime(5.5, from: b), 11))
        #expect(near(b.convertTime(11, from: a), 5.5))
        #expect(near(a.convertTime(11, to: b), 5.5))
        #expect(near(b.convertTime(5.5, to: a), 11))
        #expect(near(e.root.convertTime(7, from: nil), 7), "the root has default timing")
        #expect(near(a.localTime(atMediaTime: 5), 11) && near(a.mediaTime(fromLocal: 11), 5))
        // Root timing takes part too.
        e.root.timing.speed = 10
        #expect(near(a.convertTime(1, from: nil), (10 - 1) * 2 + 3))
        // A paused layer maps back to its beginTime (documented, spec §5-16).
        let paused = e.makeLayer()
        e.root.timing.speed = 1
        paused.timing.speed = 0
        paused.timing.beginTime = 4
        paused.timing.timeOffset = 0.5
        try e.root.addSublayer(paused)
        #expect(paused.convertTime(123, from: nil) == 0.5)
        #expect(paused.convertTime(0.5, to: nil) == 4)
    }

    // MARK: D12 pause and resume (QA1673)

    @Test func d12PauseAndResume() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(duration: 2, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 1)
        #expect(near(s.x(), 50, valueTolerance))
        // pause
        let pausedTime = s.l.convertTime(s.e.mediaTime, from: nil)
        s.l.timing.speed = 0
        s.l.timing.timeOffset = pausedTime
        try s.e.advance(to: 2)
        #expect(near(s.x(), 50, valueTolerance), "paused")
        try s.e.advance(to: 3)
        #expect(near(s.x(), 50, valueTolerance), "still paused")
        // resume
        let p = s.l.timing.timeOffset
        s.l.timing.speed = 1
        s.l.timing.timeOffset = 0
        s.l.timing.beginTime = 0
        s.l.timing.beginTime = s.l.convertTime(s.e.mediaTime, from: nil) - p
        try s.e.advance(to: 3.5)
        #expect(near(s.x(), 75, valueTolerance), "\(s.x())")
        try s.e.advance(to: 10)
        #expect(s.log.names == ["a start", "a stop true"])
        #expect(s.log.timesMatch([0, 4]), "\(s.log.events)")
        #expect(near(s.x(), 200, valueTolerance))
    }

    @Test func d12SpeedZeroWithoutTimeOffsetJumpsToLocalZero() throws {
        let s = try Scene()
        let late = s.e.makeLayer()
        late.position = Point(200, 100)
        try s.e.root.addSublayer(late)
        try s.l.addAnimation(moveX(duration: 2), forKey: "x")
        try s.e.advance(to: 1)
        try late.addAnimation(moveX(duration: 2), forKey: "x")
        try s.e.step(0)  // committed at t=1: beginTime 1
        #expect(near(s.x(late), 0, valueTolerance))
        s.l.timing.speed = 0
        late.timing.speed = 0
        try s.e.advance(to: 1.5)
        #expect(near(s.x(), 0, valueTolerance), "local time 0: the first frame")
        #expect(near(s.x(late), 200, valueTolerance), "local time 0 is before its beginTime 1: the model shows")
    }

    // MARK: D13, D14 autoreverse, fractions, repeatDuration (end values through the engine)

    @Test func d13AutoreverseAndFractionalFill() throws {
        // (autoreverses, repeatCount, end time, end value)
        let rows: [(Bool, Double, Double, Double)] = [(true, 1, 2, 0), (true, 1.5, 3, 100), (false, 2.5, 2.5, 50)]
        for (rev, count, end, value) in rows {
            let s = try Scene()
            try s.l.addAnimation(moveX(fill: .forwards, removedOnCompletion: false, repeatCount: count,
                                       autoreverses: rev, delegate: s.spy("a")), forKey: "x")
            try s.e.advance(to: end + 1)
            #expect(near(s.x(), value, valueTolerance), "autoreverses \(rev) × \(count): \(s.x())")
            #expect(s.log.names == ["a start", "a stop true"])
            #expect(s.log.timesMatch([0, end]), "autoreverses \(rev) × \(count): \(s.log.events)")
        }
        // Mid-flight values of the autoreversing one.
        let s = try Scene()
        try s.l.addAnimation(moveX(repeatCount: 1, autoreverses: true), forKey: "x")
        try s.e.advance(to: 0.25)
        #expect(near(s.x(), 25, valueTolerance))
        try s.e.advance(to: 1.25)
        #expect(near(s.x(), 75, valueTolerance), "coming back")
        try s.e.advance(to: 2)
        #expect(near(s.x(), 200, valueTolerance), "fill removed: model")
    }

    @Test func d14RepeatDuration() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(fill: .forwards, removedOnCompletion: false, repeatDuration: 2.5,
                                   delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 1.25)
        #expect(near(s.x(), 25, valueTolerance))
        try s.e.advance(to: 5)
        #expect(near(s.x(), 50, valueTolerance), "stopped mid-cycle")
        #expect(s.log.timesMatch([0, 2.5]), "\(s.log.events)")

        let r = try Scene()
        try r.l.addAnimation(moveX(fill: .forwards, removedOnCompletion: false, repeatDuration: 2.5, autoreverses: true,
                                   delegate: r.spy("a")), forKey: "x")
        try r.e.advance(to: 1.5)
        #expect(near(r.x(), 50, valueTolerance), "falling")
        try r.e.advance(to: 2.25)
        #expect(near(r.x(), 25, valueTolerance), "rising again")
        try r.e.advance(to: 4)
        #expect(near(r.x(), 50, valueTolerance))
        #expect(r.log.timesMatch([0, 2.5]), "\(r.log.events)")
    }

    // MARK: D15 group time

    private func d15Group(speed: Double, delegate: AnimationDelegate? = nil) -> AnimationGroup {
        let g = AnimationGroup()
        g.timing.duration = 3
        g.timing.speed = speed
        g.animations = [moveX(duration: 1, begin: 1)]
        g.delegate = delegate
        return g
    }

    @Test func d15GroupChildrenLiveInGroupTime() throws {
        let s = try Scene()
        try s.l.addAnimation(d15Group(speed: 1, delegate: s.spy("g")), forKey: "g")
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 200, valueTolerance), "child not begun: model")
        try s.e.advance(to: 1.5)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 2.5)
        #expect(near(s.x(), 200, valueTolerance), "child over, group still running: model")
        try s.e.advance(to: 4)
        #expect(s.log.timesMatch([0, 3]), "\(s.log.events)")
        #expect(s.l.animationKeys.isEmpty)
    }

    @Test func d15GroupSpeedScalesItsChildren() throws {
        let s = try Scene()
        try s.l.addAnimation(d15Group(speed: 2, delegate: s.spy("g")), forKey: "g")
        try s.e.advance(to: 0.25)
        #expect(near(s.x(), 200, valueTolerance))
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 0, valueTolerance), "child begins at 0.5 of parent time")
        try s.e.advance(to: 0.75)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 1.25)
        #expect(near(s.x(), 200, valueTolerance), "child ended at 1.0")
        try s.e.advance(to: 2)
        #expect(s.log.timesMatch([0, 1.5]), "\(s.log.events)")
    }

    @Test func groupChildrenDelegatesAndRemovalAreIgnored() throws {
        // Apple: in a group only the group's delegate and removedOnCompletion count.
        let s = try Scene()
        let g = AnimationGroup()
        g.timing.duration = 1
        g.timing.fillMode = .forwards
        g.removedOnCompletion = false
        g.animations = [moveX(duration: 1, fill: .forwards, removedOnCompletion: true, delegate: s.spy("child"))]
        try s.l.addAnimation(g, forKey: "g")
        try s.e.advance(to: 2)
        #expect(s.log.events.isEmpty, "\(s.log.events)")
        #expect(near(s.x(), 100, valueTolerance), "the child keeps its last frame while the group fills")
        #expect(s.l.animation(forKey: "g") != nil)
    }

    // MARK: D16 keyTimes

    @Test func d16KeyTimes() throws {
        let s = try Scene()
        let k = KeyframeAnimation()
        k.keyPath = "position.x"
        k.values = [.number(0), .number(100), .number(0)]
        k.keyTimes = [0, 0.25, 1]
        k.timing.duration = 4
        try s.l.addAnimation(k, forKey: "k")
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 1)
        #expect(near(s.x(), 100, valueTolerance))
        try s.e.advance(to: 2.5)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 4)
        #expect(near(s.x(), 200, valueTolerance))
    }

    // MARK: D17 layer removed mid-flight

    @Test func d17LayerRemovedMidFlight() throws {
        let s = try Scene()
        try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 0.5)
        s.l.removeFromSuperlayer()
        try s.e.step(0.1)
        #expect(s.log.names == ["a start", "a stop false"])
        #expect(s.log.timesMatch([0, 0.5]), "delivered by the next step, at the removal commit: \(s.log.events)")
        #expect(s.l.animationKeys.isEmpty)
        try s.e.root.addSublayer(s.l)
        try s.e.step(0.1)
        #expect(near(s.x(), 200, valueTolerance), "re-added: the model value, no animation")
        try s.e.advance(to: 3)
        #expect(s.log.names == ["a start", "a stop false"], "no second stop")
    }

    @Test func d17AncestorRemovedMidFlight() throws {
        let s = try Scene()
        let parent = s.e.makeLayer()
        try s.e.root.addSublayer(parent)
        try parent.addSublayer(s.l)
        try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("a")), forKey: "x")
        try s.e.advance(to: 0.5)
        parent.removeFromSuperlayer()
        try s.e.advance(to: 2)
        #expect(s.log.names == ["a start", "a stop false"])
        #expect(s.log.timesMatch([0, 0.5]), "\(s.log.events)")
    }

    /// Core Animation's presentation shows committed animations only: an
    /// animation added (or one replacing another under its key) shows from
    /// the commit that stamps it — reading the presentation before does not
    /// start it — and N implicit sets in one frame evaluate nothing before
    /// that commit.
    @Test func animationsShowFromTheCommitThatStampsThem() throws {
        let e = try Engine(size: Size(100, 100))
        let l = e.makeLayer()
        l.position = Point(10, 10)
        try e.root.addSublayer(l)
        try e.step(0)
        func move(from x: Double) -> BasicAnimation {
            let a = BasicAnimation()
            a.keyPath = "position"
            a.fromValue = .point(Point(x, 0))
            a.toValue = .point(Point(x + 100, 0))
            a.timing.duration = 1
            return a
        }
        try l.addAnimation(move(from: 100), forKey: "move")
        #expect(l.presentation()?.position == Point(10, 10), "not committed yet")
        try e.step(0)
        #expect(l.presentation()?.position == Point(100, 0))
        try e.step(0.5)
        // The replacement waits for the commit; the replaced one keeps showing.
        try l.addAnimation(move(from: 300), forKey: "move")
        #expect(l.presentation()?.position == Point(150, 0))
        #expect(l.animationKeys == ["move"])
        try e.step(0)
        #expect(l.presentation()?.position == Point(300, 0))
        #expect(l.animations.count == 1, "the replaced animation left at the commit")

        // Implicit sets: each reads the value shown; nothing is evaluated
        // until the step commits them, and the last one runs from there.
        try e.step(2)
        let shown = try #require(l.presentation()?.opacity)
        let before = e.layerEvaluations
        for i in 1...50 { l.opacity = Double(i) / 100 }
        #expect(e.layerEvaluations == before, "\(e.layerEvaluations - before) evaluations before the commit")
        #expect(l.presentation()?.opacity == shown)
        let a = try #require(l.animation(forKey: "opacity") as? BasicAnimation)
        #expect(a.fromValue == .number(shown) && a.toValue == nil)
        try e.step(0)
        #expect(l.presentation()?.opacity == shown)
        try e.step(10)
        #expect(l.presentation()?.opacity == 0.5)
    }
}
