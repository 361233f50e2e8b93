import Testing
@testable import Caluna

// CAMediaTimingFunction (spec ch10 §1.1.3 and Appendix A, ch7–9 §1.19).

/// Independent reference, as Appendix A: Bernstein form, 200-step bisection of
/// x(s) = x, then y(s). Shares no code with TimingFunction's Newton solver.
private func referenceEval(_ p: (Double, Double, Double, Double), _ x: Double) -> Double {
    func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if bezier(p.0, p.2, mid) < x { lo = mid } else { hi = mid }
    }
    return bezier(p.1, p.3, (lo + hi) / 2)
}

private let clock = try! TimingFunction(1, 0, 0.75, 1)
private let namedCurves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

@Test(arguments: namedCurves + [clock, try! TimingFunction(0.5, -0.5, 0.5, 1.5)])
func timingFunctionMatchesBisectionReference(_ f: TimingFunction) {
    for i in 0...100 {
        let x = Double(i) / 100
        let got = f.evaluate(x), want = referenceEval(f.controlPoints, x)
        #expect(near(got, want, 1e-7), "\(f)(\(x)) = \(got), reference \(want)")
    }
}

@Test func timingFunctionSixDecimalOracles() {
    let cases: [(TimingFunction, Double, Double)] = [
        (.default, 0.25, 0.408511), (.default, 0.5, 0.802403), (.default, 0.75, 0.960459),
        (.easeInEaseOut, 0.25, 0.129162), (.easeInEaseOut, 0.5, 0.5), (.easeInEaseOut, 0.75, 0.870838),
        (.easeIn, 0.25, 0.093465), (.easeIn, 0.5, 0.315357), (.easeIn, 0.75, 0.621862),
        (.easeOut, 0.25, 0.378138), (.easeOut, 0.5, 0.684643), (.easeOut, 0.75, 0.906535),
        (.linear, 0.25, 0.25), (.linear, 0.5, 0.5), (.linear, 0.75, 0.75),
    ]
    for (f, x, y) in cases {
        #expect(near(f.evaluate(x), y, 5e-7), "\(f)(\(x)) = \(f.evaluate(x)), spec \(y)")
    }
}

@Test func timingFunctionNineColumnTable() {
    let rows: [(TimingFunction, [Double])] = [
        (.linear, [0.1000, 0.2000, 0.3000, 0.4000, 0.5000, 0.6000, 0.7000, 0.8000, 0.9000]),
        (.easeIn, [0.0170, 0.0623, 0.1296, 0.2149, 0.3154, 0.4291, 0.5548, 0.6916, 0.8394]),
        (.easeOut, [0.1606, 0.3084, 0.4452, 0.5709, 0.6846, 0.7851, 0.8704, 0.9377, 0.9830]),
        (.easeInEaseOut, [0.0197, 0.0817, 0.1874, 0.3319, 0.5000, 0.6681, 0.8126, 0.9183, 0.9803]),
        (.default, [0.0948, 0.2952, 0.5133, 0.6825, 0.8024, 0.8852, 0.9408, 0.9756, 0.9943]),
        (clock, [0.0036, 0.0153, 0.0372, 0.0724, 0.1258, 0.2062, 0.3321, 0.5535, 0.9063]),
    ]
    for (f, ys) in rows {
        for (i, y) in ys.enumerated() {
            let x = Double(i + 1) / 10
            #expect(near(f.evaluate(x), y, 5e-5), "\(f)(\(x)) = \(f.evaluate(x)), table \(y)")
        }
    }
}

@Test func timingFunctionEndpointsAreExactAndInputIsClamped() {
    for f in namedCurves + [clock] {
        #expect(f.evaluate(0) == 0 && f.evaluate(1) == 1, "\(f)")
        #expect(f.evaluate(-0.5) == 0 && f.evaluate(1.5) == 1 && f.evaluate(.nan) == 0, "\(f)")
        #expect(f.evaluate(-.infinity) == 0 && f.evaluate(.infinity) == 1, "\(f)")
    }
}

@Test func linearTimingFunctionIsTheIdentityExactly() throws {
    for i in 0...1000 {
        let x = Double(i) / 1000
        #expect(TimingFunction.linear.evaluate(x) == x)
    }
    #expect(TimingFunction.linear.evaluate(0.123456789) == 0.123456789)
    // Any curve with both control points on the diagonal is the identity.
    #expect(try TimingFunction(0.3, 0.3, 0.6, 0.6).evaluate(0.7) == 0.7)
}

@Test func timingFunctionSolvesForTheParameterInsteadOfUsingXAsS() {
    // Wrong shortcut: y(s) with s = x. easeIn's y(0.5) is 0.5, default's is 0.5375.
    func yAtS(_ f: TimingFunction, _ s: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * f.c1y + 3 * (1 - s) * s * s * f.c2y + s * s * s
    }
    #expect(near(yAtS(.easeIn, 0.5), 0.5) && near(yAtS(.default, 0.5), 0.5375))
    #expect(near(TimingFunction.easeIn.evaluate(0.5), 0.315357, 5e-7))
    #expect(abs(TimingFunction.easeIn.evaluate(0.5) - yAtS(.easeIn, 0.5)) > 0.1)
    #expect(abs(TimingFunction.default.evaluate(0.5) - yAtS(.default, 0.5)) > 0.1)
    // The solved parameter really satisfies x(s) = x, far below 1e-7.
    let f = TimingFunction.easeOut
    for x in [1e-9, 1e-4, 0.3, 0.999999] {
        let s = f.solver.solveParameter(x)
        let xs = 3 * (1 - s) * (1 - s) * s * f.c1x + 3 * (1 - s) * s * s * f.c2x + s * s * s
        #expect(abs(xs - x) < 1e-14, "x(s) = \(xs) for x = \(x)")
    }
}

@Test func timingFunctionsAreMonotoneForInRangeYs() {
    for f in namedCurves + [clock] {
        var last = 0.0
        for i in 0...1000 {
            let y = f.evaluate(Double(i) / 1000)
            #expect(y >= last, "\(f) decreases at \(i)")
            last = y
        }
    }
}

@Test func timingFunctionControlPointsReadBack() throws {
    #expect(try clock.controlPoint(0) == Point(0, 0))
    #expect(try clock.controlPoint(1) == Point(1, 0))
    #expect(try clock.controlPoint(2) == Point(0.75, 1))
    #expect(try clock.controlPoint(3) == Point(1, 1))
    let expected: [(TimingFunction, Point, Point)] = [
        (.linear, Point(0, 0), Point(1, 1)), (.easeIn, Point(0.42, 0), Point(1, 1)),
        (.easeOut, Point(0, 0), Point(0.58, 1)), (.easeInEaseOut, Point(0.42, 0), Point(0.58, 1)),
        (.default, Point(0.25, 0.1), Point(0.25, 1)),
    ]
    for (f, c1, c2) in expected {
        #expect(try f.controlPoint(1) == c1 && f.controlPoint(2) == c2, "\(f)")
        #expect(try f.controlPoint(0) == .zero && f.controlPoint(3) == Point(1, 1), "\(f)")
    }
    #expect(clock.controlPoints == (1, 0, 0.75, 1))
    #expect(errorCode { try clock.controlPoint(4) } == .invalidArgument)
    #expect(errorCode { try clock.controlPoint(-1) } == .invalidArgument)
}

@Test func timingFunctionNamesAndDescriptions() throws {
    for name in ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"] {
        let f = try TimingFunction.named(name)
        #expect(f.name == name && f.description == name)
    }
    #expect(try TimingFunction.named("easeOut") == .easeOut)
    #expect(TimingFunction.default.name == "default")
    #expect(clock.name == nil && clock.description == "(1, 0, 0.75, 1)")
    // Equality compares the curve, not how it was made.
    let custom = try TimingFunction(0.42, 0, 1, 1)
    #expect(custom == .easeIn && custom.hashValue == TimingFunction.easeIn.hashValue)
    #expect(custom.name == nil && custom.description == "(0.42, 0, 1, 1)")
    #expect(custom != .easeOut)
}

@Test func timingFunctionRejectsBadInput() {
    #expect(errorCode { try TimingFunction.named("easeInOut") } == .invalidArgument)
    do {
        _ = try TimingFunction.named("bogus")
        Issue.record("an unknown name must throw")
    } catch let e as CalunaError {
        #expect(e.message.contains("bogus") && e.message.contains("easeInEaseOut") && e.message.contains("default"))
    } catch { Issue.record("wrong error \(error)") }
    do {
        _ = try TimingFunction(0.5, 0, 1.5, 1)
        Issue.record("c2x = 1.5 must throw")
    } catch let e as CalunaError {
        #expect(e.code == .invalidArgument && e.message.contains("c2x") && e.message.contains("1.5"))
    } catch { Issue.record("wrong error \(error)") }
    #expect(errorCode { try TimingFunction(-0.01, 0, 1, 1) } == .invalidArgument)
    #expect(errorCode { try TimingFunction(.nan, 0, 1, 1) } == .invalidArgument)
    #expect(errorCode { try TimingFunction(0, .nan, 1, 1) } == .invalidArgument)
    #expect(errorCode { try TimingFunction(0, 0, 1, .infinity) } == .invalidArgument)
    #expect(errorCode { try TimingFunction(0, -.infinity, 1, 1) } == .invalidArgument)
    // Overshooting y values are allowed (back-style curves).
    #expect(errorCode { try TimingFunction(0.5, -0.5, 0.5, 1.5) } == nil)
}
