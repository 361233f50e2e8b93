import Foundation
import Testing
@testable import Caluna

// Penner easing (spec ch10 §1.1.7) and the CASpringAnimation curve.

// MARK: Easing

@Test func easingQuadraticInOutMatchesTheBook() {
    #expect(Easing.quadraticEaseInOut(0.25) == 0.125)
    #expect(Easing.quadraticEaseInOut(0.5) == 0.5)
    #expect(Easing.quadraticEaseInOut(0.75) == 0.875)
}

@Test func easingBookBounceSamples() {
    let samples: [(Double, Double)] = [
        (0.1, 0.075625), (0.2, 0.3025), (0.3, 0.680625), (0.4, 0.892), (0.5, 0.71875),
        (0.6, 0.727), (0.7, 0.91675), (0.75, 0.958864), (0.8, 0.912244), (0.85, 0.925956),
        (0.95, 0.973),
    ]
    for (t, y) in samples {
        #expect(near(Easing.bounceEaseOut(t), y, 5e-7), "bounceEaseOut(\(t)) = \(Easing.bounceEaseOut(t))")
    }
    // The spec's f(59/60) = 0.984998 is all-float32 arithmetic (0.9849987, as the
    // book's C runs); the exact value is 10.443 − 20.178 + 10.72 = 0.985, which
    // double arithmetic reproduces. Check both: exact to 1e-12, the spec to 5e-6.
    #expect(near(Easing.bounceEaseOut(59.0 / 60), 0.985, 1e-12))
    #expect(near(Easing.bounceEaseOut(59.0 / 60), 0.984998, 5e-6))
    #expect(Easing.bounceEaseOut(0) == 0 && near(Easing.bounceEaseOut(1), 1, 1e-12))
}

@Test func easingBookBounceIsContinuousWithMinimaFromTheBook() {
    let f = Easing.bounceEaseOut
    for b in [4.0 / 11, 8.0 / 11, 0.9] {
        #expect(near(f(b), 1, 1e-12), "value at breakpoint \(b)")
        #expect(near(f(b.nextDown), 1, 1e-12) && near(f(b.nextUp), 1, 1e-12), "continuity at \(b)")
    }
    // Rebound apexes (local minima): 0.7 at 6/11, 0.91 at 179/220, 0.973 at 0.95.
    for (t, y) in [(6.0 / 11, 0.7), (179.0 / 220, 0.91), (0.95, 0.973)] {
        #expect(near(f(t), y, 1e-12), "minimum at \(t): \(f(t))")
        #expect(f(t - 1e-3) > f(t) && f(t + 1e-3) > f(t), "\(t) is a local minimum")
    }
}

@Test func easingPennerBounceDiffersFromTheBook() {
    let p = Easing.pennerBounceEaseOut
    for (t, y) in [(1.5 / 2.75, 0.75), (2.25 / 2.75, 0.9375), (2.625 / 2.75, 0.984375)] {
        #expect(near(p(t), y, 1e-12) && p(t - 1e-3) > p(t) && p(t + 1e-3) > p(t), "minimum at \(t)")
    }
    for b in [1 / 2.75, 2 / 2.75, 2.5 / 2.75] { #expect(near(p(b), 1, 1e-12), "breakpoint \(b)") }
    #expect(abs(p(6.0 / 11) - Easing.bounceEaseOut(6.0 / 11)) > 0.04, "the two bounces are different curves")
}

@Test func easingBounceInAndInOutDeriveFromOut() {
    for i in 0...100 {
        let t = Double(i) / 100
        #expect(near(Easing.bounceEaseIn(t), 1 - Easing.bounceEaseOut(1 - t), 1e-15))
        let io = t < 0.5 ? 0.5 * Easing.bounceEaseIn(2 * t) : 0.5 * Easing.bounceEaseOut(2 * t - 1) + 0.5
        #expect(Easing.bounceEaseInOut(t) == io)
    }
    #expect(near(Easing.bounceEaseInOut(0.5), 0.5, 1e-12))
}

@Test func easingEveryFunctionMapsZeroToZeroAndOneToOne() {
    // No exceptions: bounceEaseOut(1) = 1 + 1.8e-15, the largest endpoint error.
    for (name, f) in Easing.all {
        #expect(near(f(0), 0, 1e-9), "\(name)(0) = \(f(0))")
        #expect(near(f(1), 1, 1e-9), "\(name)(1) = \(f(1))")
        for i in 0...100 { #expect(f(Double(i) / 100).isFinite, "\(name)") }
    }
}

@Test func easingInOutFunctionsPassThroughTheMiddle() {
    for (name, f) in Easing.all where name.hasSuffix("InOut") {
        #expect(near(f(0.5), 0.5, 1e-12), "\(name)(0.5) = \(f(0.5))")
    }
}

@Test func easingOutIsTheMirrorOfIn() {
    // Penner's Out curves are In curves rotated by 180° about (0.5, 0.5).
    for (name, easeIn) in Easing.all where name.hasSuffix("EaseIn") {
        let base = name.dropLast("EaseIn".count)
        let easeOut = Easing.named(base + "EaseOut")!
        for i in 0...100 {
            let t = Double(i) / 100
            #expect(near(easeOut(t), 1 - easeIn(1 - t), 1e-12), "\(base) at \(t)")
        }
    }
}

@Test func easingSpotValuesFromThePublishedFormulas() {
    #expect(near(Easing.cubicEaseIn(0.5), 0.125) && near(Easing.cubicEaseOut(0.5), 0.875))
    #expect(near(Easing.quarticEaseIn(0.5), 0.0625) && near(Easing.quinticEaseIn(0.5), 0.03125))
    #expect(near(Easing.sineEaseInOut(0.25), 0.5 * (1 - 0.5.squareRoot())))
    #expect(near(Easing.circularEaseOut(0.5), 0.75.squareRoot()))
    #expect(near(Easing.exponentialEaseIn(0.5), 1.0 / 32))
    #expect(near(Easing.elasticEaseOut(0.075), 1), "first zero-crossing of the elastic wobble at s = p/4")
    // Back overshoots by about 10 % (s = 1.70158): min of t²((s+1)t − s).
    let backMin = (0...10_000).map { Easing.backEaseIn(Double($0) / 10_000) }.min()!
    #expect(near(backMin, -0.1, 1e-4))
    #expect(Easing.linear(0.3) == 0.3)
}

@Test func easingLookupByName() {
    let names = Easing.all.map(\.name)
    #expect(Set(names).count == names.count, "names are unique")
    #expect(names.count == 32 && names.first == "linear" && names.last == "pennerBounceEaseOut")
    for family in ["quadratic", "cubic", "quartic", "quintic", "sine", "circular", "exponential",
                   "elastic", "back", "bounce"] {
        for kind in ["EaseIn", "EaseOut", "EaseInOut"] { #expect(names.contains(family + kind)) }
    }
    #expect(Easing.named("bounceEaseOut")?(0.4) == Easing.bounceEaseOut(0.4))
    #expect(Easing.named("nope") == nil)
}

// MARK: SpringCurve

@Test func springDefaultsAndDerivedConstants() throws {
    let s = SpringCurve()
    let explicit = try SpringCurve(mass: 1)
    #expect(s == .standard && s == explicit, "the throwing init has the same defaults")
    #expect(s.mass == 1 && s.stiffness == 100 && s.damping == 10 && s.initialVelocity == 0)
    #expect(s.naturalFrequency == 10 && s.dampingRatio == 0.5)
    #expect(s.fraction(at: 0) == 0 && s.fraction(at: -1) == 0)
}

@Test func springUnderDampedMatchesTheClosedForm() throws {
    // Defaults: β = 5, ωd = √75; x = 1 − e^(−5t)(cos ωd t + (5/ωd) sin ωd t).
    let s = SpringCurve()
    for (t, x) in [(0.1, 0.34029984660829826), (0.2, 0.8494256348541123), (0.3, 1.1243547674084116),
                   (0.5, 1.0745905665950333), (1.0, 1.0021701167393262)] {
        #expect(near(s.fraction(at: t), x, 1e-12), "x(\(t)) = \(s.fraction(at: t))")
    }
    #expect(s.fraction(at: 0.3) > 1, "under-damped overshoots")
}

@Test func springMatchesNumericalIntegrationInEveryRegime() throws {
    // Reference: RK4 integration of m·x″ + c·x′ + k(x − 1) = 0, 200 000 steps.
    let cases: [((Double, Double, Double, Double), [Double])] = [
        ((1, 100, 20, 0), [0.264241117657, 0.959572318005, 0.999500600773]),   // critical
        ((1, 100, 50, 0), [0.151783861785, 0.631760870898, 0.870306785655]),   // over-damped
        ((2, 50, 3, 4), [0.472710686276, 1.819313790179, 0.589532287063]),     // under, with velocity
        ((1, 100, 20, 30), [1.367879441171, 1.060641522992, 1.000862598665]),  // critical, overshoots
        ((1, 100, 50, -5), [0.064133692784, 0.593332880263, 0.856772510688]),  // over, moving away
    ]
    for (p, xs) in cases {
        let s = try SpringCurve(mass: p.0, stiffness: p.1, damping: p.2, initialVelocity: p.3)
        for (t, x) in zip([0.1, 0.5, 1.0], xs) {
            #expect(near(s.fraction(at: t), x, 1e-9), "\(p) at \(t): \(s.fraction(at: t))")
        }
    }
}

@Test func springCriticalAndOverDampedDoNotOvershoot() throws {
    for c in [20.0, 20.000001, 25, 50, 500] {
        let s = try SpringCurve(damping: c)
        var last = 0.0
        for i in 1...2000 {
            let x = s.fraction(at: Double(i) / 200)
            #expect(x <= 1 && x >= last, "damping \(c) at \(Double(i) / 200): \(x)")
            last = x
        }
    }
}

@Test func springApproachesTheTargetAndSettles() throws {
    let s = SpringCurve()
    #expect(near(s.settlingDuration, 1.4103192630416055, 1e-9), "ln(√(4/3)/0.001)/5")
    for t in stride(from: s.settlingDuration, through: 10, by: 0.001) {
        #expect(abs(1 - s.fraction(at: t)) < SpringCurve.settlingTolerance)
    }
    #expect(near(s.fraction(at: 30), 1, 1e-12))
    // Critical and over-damped: the bound is conservative but close.
    for c in [20.0, 50, 200] {
        let spring = try SpringCurve(damping: c)
        let d = spring.settlingDuration
        let last = stride(from: 0.0, through: d + 5, by: 0.0005).filter {
            abs(1 - spring.fraction(at: $0)) >= SpringCurve.settlingTolerance
        }.max()!
        #expect(last <= d && d < last * 1.3 + 0.01, "damping \(c): settles at \(last), reported \(d)")
    }
    #expect(try SpringCurve(damping: 0).settlingDuration == .infinity, "undamped never settles")
    #expect(try near(SpringCurve(damping: 0).fraction(at: .pi / 10), 2, 1e-12), "undamped: 1 − cos(10t)")
}

@Test func springRejectsInvalidParameters() {
    #expect(errorCode { try SpringCurve(mass: 0) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(mass: -1) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(stiffness: 0) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(damping: -0.1) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(mass: .nan) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(stiffness: .infinity) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(initialVelocity: .nan) } == .invalidArgument)
    #expect(errorCode { try SpringCurve(damping: 0, initialVelocity: -3) } == nil)
}
