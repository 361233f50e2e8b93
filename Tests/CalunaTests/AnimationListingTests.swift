import Foundation
import Testing
@testable import Caluna

/// The book's listings 8.x–10.x through the engine.
extension AnimationEngineTests {
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
        s.e.withoutActions {
            s.l.bounds = Rect(0, 0, 64, 64)
            s.l.position = Point(0, 150)
            s.l.backgroundColor = green
        }
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
}
