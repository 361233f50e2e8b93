import Foundation
import Testing
@testable import Caluna

// The animation engine driven through Engine.step/advance (DESIGN §3, §4
// "Time"; spec ch07-09 §1.15–1.18, derived scenes D7–D17, listings L8.5,
// L8.9, L8.10, L8.15, L9.1–L9.4; spec ch10-15 listing 10.6). Values are exact
// to 1e-6, the book's 3-decimal tables to 1e-3.

private let valueTolerance = 1e-6
private let bookTolerance = 1e-3
private let timeTolerance = 1e-9

// MARK: helpers

/// One delegate callback: who, what, and the engine's clock inside it.
private struct Event: Equatable, CustomStringConvertible {
    let what: String
    let time: Double
    var description: String { "\(what)@\(time)" }
}

private final class EventLog {
    var events: [Event] = []
    var names: [String] { events.map(\.what) }
    var times: [Double] { events.map(\.time) }
    func timesMatch(_ expected: [Double]) -> Bool {
        times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) <= timeTolerance }
    }
}

/// Records didStart/didStop with the engine's media time; optional hooks run after.
private final class Spy: AnimationDelegate {
    let name: String
    let log: EventLog
    weak var engine: Engine?
    var onStart: ((Animation) throws -> Void)? = nil
    var onStop: ((Animation, Bool) throws -> Void)? = nil
    /// Every animation object the delegate was handed.
    var seen: [Animation] = []

    init(_ name: String, _ log: EventLog, _ engine: Engine) {
        self.name = name
        self.log = log
        self.engine = engine
    }

    func animationDidStart(_ animation: Animation) throws {
        seen.append(animation)
        log.events.append(Event(what: "\(name) start", time: engine?.mediaTime ?? .nan))
        try onStart?(animation)
    }

    func animationDidStop(_ animation: Animation, finished: Bool) throws {
        seen.append(animation)
        log.events.append(Event(what: "\(name) stop \(finished)", time: engine?.mediaTime ?? .nan))
        try onStop?(animation, finished)
    }
}

private struct Boom: Error, Equatable { let id: Int }

/// A 300×300 engine with one 10×10 layer at model position (modelX, 50),
/// committed at t = 0.
private struct Scene {
    let e: Engine
    let l: Layer
    let log = EventLog()

    init(modelX: Double = 200) throws {
        e = try Engine(size: Size(300, 300))
        l = e.makeLayer()
        l.name = "L"
        l.bounds = Rect(0, 0, 10, 10)
        l.position = Point(modelX, 50)
        try e.root.addSublayer(l)
        try e.step(0)
    }

    func spy(_ name: String) -> Spy { Spy(name, log, e) }

    /// The presentation x of `layer` (default: the scene's layer).
    func x(_ layer: Layer? = nil) -> Double { (layer ?? l).presentation()?.position.x ?? .nan }
}

private func moveX(from: Double? = 0, to: Double? = 100, by: Double? = nil, duration: Double = 1,
                   begin: Double = 0, fill: MediaTiming.FillMode = .removed, removedOnCompletion: Bool = true,
                   repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                   delegate: AnimationDelegate? = nil) -> BasicAnimation {
    let a = BasicAnimation()
    a.keyPath = "position.x"
    a.fromValue = from.map { .number($0) }
    a.toValue = to.map { .number($0) }
    a.byValue = by.map { .number($0) }
    a.timing.duration = duration
    a.timing.beginTime = begin
    a.timing.fillMode = fill
    a.timing.repeatCount = repeatCount
    a.timing.repeatDuration = repeatDuration
    a.timing.autoreverses = autoreverses
    a.removedOnCompletion = removedOnCompletion
    a.delegate = delegate
    return a
}

/// The book's `transform.rotation` byValue 2π spin (L8.9, L8.15, L9.1).
private func spin(duration: Double = 2, repeatCount: Double = 0, delegate: AnimationDelegate? = nil) -> BasicAnimation {
    let a = BasicAnimation()
    a.keyPath = "transform.rotation"
    a.byValue = .number(2 * Double.pi)
    a.timing.duration = duration
    a.timing.repeatCount = repeatCount
    a.delegate = delegate
    return a
}

private func number(_ v: Value?) -> Double {
    if case .number(let n)? = v { return n }
    return .nan
}

/// The presentation value of a numeric key path ("transform.rotation.z").
private func pres(_ l: Layer, _ keyPath: String) -> Double {
    number(try? l.presentation()?.value(forKeyPath: keyPath))
}

/// Angles equal modulo 2π.
private func sameAngle(_ a: Double, _ b: Double, _ tol: Double = valueTolerance) -> Bool {
    abs(remainder(a - b, 2 * Double.pi)) <= tol
}

private func near(_ c: Color?, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1, _ tol: Double = valueTolerance) -> Bool {
    guard let c else { return false }
    return near(c.red, r, tol) && near(c.green, g, tol) && near(c.blue, b, tol) && near(c.alpha, a, tol)
}

private let blue = Color(red: 0, green: 0, blue: 1)
private let red = Color(red: 1, green: 0, blue: 0)
private let green = Color(red: 0, green: 1, blue: 0)

/// The book's path (Listings 8.6/8.7/8.10/9.3): M(0,150) C(75,0)(225,300)(300,150).
private let bookPath = Path([.move(Point(0, 150)), .cubic(Point(75, 0), Point(225, 300), Point(300, 150))])

private func bezier(_ t: Double) -> Point {
    let u = 1 - t
    let x = 3 * u * u * t * 75 + 3 * u * t * t * 225 + t * t * t * 300
    let y = u * u * u * 150 + 3 * u * t * t * 300 + t * t * t * 150
    return Point(x, y)
}

/// A layout delegate running `body` in layoutSublayers.
private final class LayoutHook: LayerDelegate {
    let body: () throws -> Void
    init(_ body: @escaping () throws -> Void) { self.body = body }
    func layoutSublayers(of layer: Layer) throws { try body() }
}

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

    // MARK: L8.15 start/stop a keyed rotation

    @Test func l815aRunsToTheEnd() throws {
        let s = try Scene()
        try s.l.addAnimation(spin(delegate: s.spy("r")), forKey: "rotateAnimation")
        try s.e.advance(to: 0.5)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi / 2))
        try s.e.advance(to: 1.5)
        #expect(sameAngle(pres(s.l, "transform.rotation"), -Double.pi / 2))
        try s.e.advance(to: 5)
        #expect(s.log.names == ["r start", "r stop true"])
        #expect(s.log.timesMatch([0, 2]), "\(s.log.events)")
        #expect(near(s.l.presentation()?.transform ?? .identity, .identity, valueTolerance) && s.l.transform == .identity)
    }

    @Test func l815bStopSnapsAtOnceAndReportsAtTheNextStep() throws {
        let s = try Scene()
        try s.l.addAnimation(spin(delegate: s.spy("r")), forKey: "rotateAnimation")
        try s.e.advance(to: 1)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi))
        s.l.removeAnimation(forKey: "rotateAnimation")
        #expect(s.l.animation(forKey: "rotateAnimation") == nil)
        #expect(near(s.l.presentation()?.transform ?? Transform3D.scale(9, 9), .identity, valueTolerance),
                "the presentation snaps to the model at once")
        #expect(s.log.names == ["r start"], "didStop waits for the next step")
        try s.e.step(0)
        #expect(s.log.names == ["r start", "r stop false"])
        #expect(s.log.timesMatch([0, 1]))
        try s.e.advance(to: 5)
        #expect(s.log.names == ["r start", "r stop false"], "no later didStop")
    }

    /// L8.15 C: start again at t=1 under the same key. `peek` reads the
    /// presentation between the re-add and the next step (which must not matter).
    private func l815c(peek: Bool) throws {
        let s = try Scene()
        try s.l.addAnimation(spin(delegate: s.spy("old")), forKey: "rotateAnimation")
        try s.e.advance(to: 1)
        try s.l.addAnimation(spin(delegate: s.spy("new")), forKey: "rotateAnimation")
        #expect(s.l.animationKeys == ["rotateAnimation"])
        if peek { _ = s.l.presentation() }
        try s.e.step(0)
        #expect(s.log.names == ["old start", "new start", "old stop false"], "\(s.log.events)")
        #expect(s.log.timesMatch([0, 1, 1]))
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi), "peek \(peek): no jump at t=1: \(pres(s.l, "transform.rotation.z"))")
        try s.e.advance(to: 1.5)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), -Double.pi / 2), "peek \(peek): from π: \(pres(s.l, "transform.rotation.z"))")
        try s.e.advance(to: 2)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), 0), "peek \(peek): \(pres(s.l, "transform.rotation.z"))")
        try s.e.advance(to: 5)
        #expect(s.log.names == ["old start", "new start", "old stop false", "new stop true"])
        #expect(s.log.timesMatch([0, 1, 1, 3]), "\(s.log.events)")
    }

    @Test func l815cRestartUnderTheSameKey() throws { try l815c(peek: false) }

    /// Was a bug: presentation() between the re-add and the next step
    /// re-evaluated without the old animation and without stamping the new
    /// one, so the new one captured the model value (0) instead of π.
    @Test func l815cRestartDoesNotDependOnReadingThePresentation() throws { try l815c(peek: true) }

    // MARK: L8.9 transform.rotation byValue 2π

    @Test func l89FullTurnInOneAnimation() throws {
        let s = try Scene()
        try s.l.addAnimation(spin(), forKey: nil)
        let expected: [(Double, Double)] = [(0.5, Double.pi / 2), (1, Double.pi), (1.5, -Double.pi / 2)]
        for (t, angle) in expected {
            try s.e.advance(to: t)
            #expect(sameAngle(pres(s.l, "transform.rotation.z"), angle), "t=\(t)")
            #expect(s.l.transform == .identity, "the model stays identity")
        }
        try s.e.advance(to: 2)
        #expect(near(s.l.presentation()?.transform ?? .scale(2, 2), .identity, valueTolerance))
        #expect(s.l.animations.isEmpty)
    }

    // MARK: L9.1 duration × repeatCount

    @Test func l91TwoTimesThreeAndAHalfIsSevenSeconds() throws {
        let s = try Scene()
        try s.l.addAnimation(spin(duration: 2, repeatCount: 3.5, delegate: s.spy("r")), forKey: "r")
        try s.e.advance(to: 5)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi), "\(pres(s.l, "transform.rotation.z"))")
        try s.e.advance(to: 6.5)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi / 2))
        try s.e.advance(to: 6.999)
        #expect(s.log.names == ["r start"])
        try s.e.advance(to: 7)
        #expect(s.log.names == ["r start", "r stop true"])
        #expect(s.log.timesMatch([0, 7]))
        #expect(near(s.l.presentation()?.transform ?? .scale(2, 2), .identity, valueTolerance))
    }

    @Test func l91DidStopAtSevenInOneJump() throws {
        let s = try Scene()
        try s.l.addAnimation(spin(duration: 2, repeatCount: 3.5, delegate: s.spy("r")), forKey: "r")
        try s.e.advance(to: 10)
        #expect(s.log.names == ["r start", "r stop true"])
        #expect(s.log.events.last?.time == 7, "exactly 7: \(s.log.events)")
    }

    @Test func l91DefaultsAndFractions() throws {
        // (duration, repeatCount) → total
        for (d, n, total) in [(0.0, 0.0, 0.25), (1, 0.5, 0.5), (2, 3.5, 7)] {
            let s = try Scene()
            try s.l.addAnimation(spin(duration: d, repeatCount: n, delegate: s.spy("r")), forKey: "r")
            try s.e.advance(to: 20)
            #expect(s.log.timesMatch([0, total]), "(\(d), \(n)): \(s.log.events)")
        }
    }

    @Test func l91ForwardFillKeepsTheHalfTurn() throws {
        let s = try Scene()
        let a = spin(duration: 2, repeatCount: 3.5)
        a.timing.fillMode = .forwards
        a.removedOnCompletion = false
        try s.l.addAnimation(a, forKey: "r")
        try s.e.advance(to: 8)
        #expect(sameAngle(pres(s.l, "transform.rotation.z"), Double.pi), "\(pres(s.l, "transform.rotation.z"))")
    }

    // MARK: L9.2 swinging door (autoreverse forever)

    @Test func l92SwingingDoor() throws {
        let s = try Scene()
        let a = BasicAnimation()
        a.keyPath = "transform.rotation.y"
        a.toValue = .number(-Double.pi / 2)
        a.timing.duration = 2
        a.timing.repeatDuration = .infinity
        a.timing.autoreverses = true
        a.delegate = s.spy("door")
        try s.l.addAnimation(a, forKey: "door")
        let expected: [(Double, Double)] = [(1, -Double.pi / 4), (2, -Double.pi / 2), (3, -Double.pi / 4), (4, 0),
                                            (5, -Double.pi / 4), (1001, -Double.pi / 4)]
        for (t, v) in expected {
            try s.e.advance(to: t)
            #expect(near(pres(s.l, "transform.rotation.y"), v, valueTolerance), "t=\(t): \(pres(s.l, "transform.rotation.y"))")
        }
        #expect(s.log.names == ["door start"], "never stops")
        #expect(s.l.animation(forKey: "door") != nil)
    }

    // MARK: L9.3 speed and timeOffset on a path keyframe

    private func slide(speed: Double, offset: Double) -> KeyframeAnimation {
        let k = KeyframeAnimation()
        k.keyPath = "position"
        k.path = bookPath
        k.timing.duration = 1
        k.timing.speed = speed
        k.timing.timeOffset = offset
        k.removedOnCompletion = false
        return k
    }

    @Test func l93SpeedAndOffset() throws {
        // (speed, offset) → [(t, expected position or nil for the model)]
        let rows: [(Double, Double, [(Double, Point?)])] = [
            (1, 0, [(0.5, Point(150, 150)), (1, nil)]),
            (1, 0.5, [(0, Point(150, 150)), (0.25, bezier(0.75)), (0.5, Point(0, 150)), (0.75, bezier(0.25)), (1, nil)]),
            (2, 0, [(0.25, Point(150, 150)), (0.5, nil)]),
            (2, 0.5, [(0, Point(150, 150)), (0.125, bezier(0.75)), (0.25, Point(0, 150)), (0.5, nil)]),
        ]
        for (speed, offset, samples) in rows {
            let s = try Scene(modelX: 20)
            try s.l.addAnimation(slide(speed: speed, offset: offset), forKey: "slide")
            try s.e.step(0)
            for (t, p) in samples {
                try s.e.advance(to: t)
                let got = s.l.presentation()?.position
                #expect(near(got, p ?? Point(20, 50), valueTolerance), "speed \(speed) offset \(offset) t=\(t): \(String(describing: got))")
            }
            #expect(s.l.animation(forKey: "slide") != nil, "removedOnCompletion NO")
        }
    }

    // MARK: L9.4 scrubbing a paused door

    private func door(_ s: Scene, delegate: AnimationDelegate? = nil) throws {
        s.l.timing.speed = 0
        let a = BasicAnimation()
        a.keyPath = "transform.rotation.y"
        a.toValue = .number(-Double.pi / 2)
        a.timing.duration = 1
        a.delegate = delegate
        try s.l.addAnimation(a, forKey: "door")
    }

    @Test func l94PausedDoorStaysShut() throws {
        let s = try Scene()
        try door(s)
        for t in [0.0, 0.5, 3, 100] {
            try s.e.advance(to: t)
            #expect(near(pres(s.l, "transform.rotation.y"), 0, valueTolerance), "t=\(t)")
        }
        #expect(s.l.animation(forKey: "door") != nil, "attached forever")
    }

    @Test func l94ScrubbingWithTimeOffset() throws {
        let s = try Scene()
        try door(s, delegate: s.spy("door"))
        try s.e.step(0)
        let rows: [(Double, Double)] = [(0.5, -Double.pi / 4), (0.25, -Double.pi / 8), (0.999, -1.569225), (0, 0)]
        for (offset, v) in rows {
            s.l.timing.timeOffset = offset
            try s.e.step(1.0 / 60)
            #expect(near(pres(s.l, "transform.rotation.y"), v, offset == 0.999 ? bookTolerance : valueTolerance),
                    "timeOffset \(offset): \(pres(s.l, "transform.rotation.y"))")
        }
        // Pan dx = −100 from 0: timeOffset = clamp(0 − (−100)/200, 0, 0.999) = 0.5.
        s.l.timing.timeOffset = min(0.999, max(0, s.l.timing.timeOffset - (-100.0) / 200))
        try s.e.step(1.0 / 60)
        #expect(near(pres(s.l, "transform.rotation.y"), -Double.pi / 4, valueTolerance))
        #expect(s.log.names == ["door start"])
        // 1.0 completes the animation: didStop(true), removed, model shows.
        s.l.timing.timeOffset = 1
        try s.e.step(1.0 / 60)
        #expect(s.log.names == ["door start", "door stop true"])
        #expect(s.l.animation(forKey: "door") == nil)
        #expect(near(pres(s.l, "transform.rotation.y"), 0, valueTolerance))
    }

    // MARK: L10.6 bouncing ball

    @Test func l106BouncingKeyframes() throws {
        let s = try Scene()
        s.l.position = Point(150, 268)
        try s.e.step(0)
        let k = KeyframeAnimation()
        k.keyPath = "position"
        k.timing.duration = 1
        k.values = [32, 268, 140, 268, 220, 268, 250, 268].map { .point(Point(150, $0)) }
        k.keyTimes = [0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1]
        k.timingFunctions = [.easeIn, .easeOut, .easeIn, .easeOut, .easeIn, .easeOut, .easeIn]
        try s.l.addAnimation(k, forKey: "bounce")
        let table: [(Double, Double)] = [
            (0, 32), (0.1, 68.855), (0.15, 106.424), (0.2, 152.750), (0.3, 268), (0.4, 180.366), (0.5, 140),
            (0.6, 180.366), (0.7, 268), (0.75, 235.137), (0.8, 220), (0.85, 235.137), (0.9, 268), (0.925, 255.676),
            (0.95, 250), (0.975, 255.676), (1.0, 268), (1.5, 268),
        ]
        for (t, y) in table {
            try s.e.advance(to: t)
            let p = s.l.presentation()?.position
            #expect(near(p?.y ?? .nan, y, bookTolerance), "t=\(t): \(String(describing: p))")
            #expect(near(p?.x ?? .nan, 150, valueTolerance), "t=\(t)")
        }
        #expect(s.l.animations.isEmpty)
    }

    // MARK: L8.5 keyframe colours

    @Test func l85KeyframeColours() throws {
        let s = try Scene()
        s.l.backgroundColor = blue
        try s.e.step(0)
        let k = KeyframeAnimation()
        k.keyPath = "backgroundColor"
        k.timing.duration = 2
        k.values = [.color(blue), .color(red), .color(green), .color(blue)]
        try s.l.addAnimation(k, forKey: nil)
        let rows: [(Double, (Double, Double, Double))] = [
            (0, (0, 0, 1)), (1.0 / 3, (0.5, 0, 0.5)), (2.0 / 3, (1, 0, 0)), (1, (0.5, 0.5, 0)), (4.0 / 3, (0, 1, 0)),
            (5.0 / 3, (0, 0.5, 0.5)), (2, (0, 0, 1)),
        ]
        for (t, c) in rows {
            try s.e.advance(to: t)
            let got = s.l.presentation()?.backgroundColor
            #expect(near(got, c.0, c.1, c.2), "t=\(t): \(String(describing: got))")
        }
        #expect(s.l.animations.isEmpty, "removed at t=2")
    }

    @Test func l85KeyframesJumpAtTheStartAndSnapBack() throws {
        let s = try Scene()
        s.l.backgroundColor = blue
        try s.e.step(0)
        let k = KeyframeAnimation()
        k.keyPath = "backgroundColor"
        k.timing.duration = 2
        k.values = [.color(red), .color(green)]
        try s.l.addAnimation(k, forKey: nil)
        try s.e.step(0)
        #expect(near(s.l.presentation()?.backgroundColor, 1, 0, 0), "the first keyframe, not the current value")
        try s.e.advance(to: 2)
        #expect(near(s.l.presentation()?.backgroundColor, 0, 0, 1), "snaps back to the model")
    }

    // MARK: L8.10 group: path keyframe + colour

    private func l810Group(childDuration: Double = 0) -> AnimationGroup {
        let k = KeyframeAnimation()
        k.keyPath = "position"
        k.path = bookPath
        k.rotationMode = .auto
        k.timing.duration = childDuration
        let c = BasicAnimation()
        c.keyPath = "backgroundColor"
        c.toValue = .color(red)
        let g = AnimationGroup()
        g.animations = [k, c]
        g.timing.duration = 4
        return g
    }

    @Test func l810GroupMovesAndRecolours() throws {
        let s = try Scene()
        s.l.bounds = Rect(0, 0, 64, 64)
        s.l.position = Point(0, 150)
        s.l.backgroundColor = green
        try s.e.step(0)
        try s.l.addAnimation(l810Group(), forKey: "g")
        try s.e.advance(to: 2)
        #expect(near(s.l.presentation()?.position, Point(150, 150), valueTolerance))
        #expect(near(s.l.presentation()?.backgroundColor, 0.5, 0.5, 0))
        #expect(near(pres(s.l, "transform.rotation.z"), 0.588003, bookTolerance), "\(pres(s.l, "transform.rotation.z"))")
        try s.e.advance(to: 4)
        #expect(near(s.l.presentation()?.position, Point(0, 150), valueTolerance))
        #expect(near(s.l.presentation()?.backgroundColor, 0, 1, 0))
        #expect(near(pres(s.l, "transform.rotation.z"), 0, valueTolerance))
        #expect(s.l.animationKeys.isEmpty)
    }

    @Test func l810StartTangent() throws {
        let s = try Scene()
        s.l.position = Point(0, 150)
        try s.e.step(0)
        try s.l.addAnimation(l810Group(), forKey: "g")
        try s.e.step(0)
        #expect(near(s.l.presentation()?.position, Point(0, 150), valueTolerance))
        #expect(near(pres(s.l, "transform.rotation.z"), -1.107149, bookTolerance))
    }

    @Test func l810GroupClipsALongerChild() throws {
        let s = try Scene()
        s.l.position = Point(0, 150)
        try s.e.step(0)
        try s.l.addAnimation(l810Group(childDuration: 10), forKey: "g")
        try s.e.advance(to: 2)
        #expect(near(s.l.presentation()?.position, bezier(0.2), valueTolerance), "\(String(describing: s.l.presentation()?.position))")
        #expect(near(bezier(0.2), Point(52.8, 106.8), valueTolerance))
        try s.e.advance(to: 4)
        #expect(near(s.l.presentation()?.position, Point(0, 150), valueTolerance))
    }

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
        attached.timing.duration = 10  // no effect: the duration was resolved when attached
        withKnownIssue("GAP: Swift code can mutate the attached copy (values, speed, delegate …) and the running animation changes") {
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
