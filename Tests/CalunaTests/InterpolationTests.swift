import Foundation
import Testing
@testable import Caluna

// Value interpolation and arithmetic (spec ch07-09 §1.8 from/to/by, §1.9 value
// types; DESIGN §2 "interpolation lives in Interpolation").

private typealias I = Interpolation

private func rz(_ a: Double) -> Transform3D { .rotation(a, 0, 0, 1) }

private func number(_ v: Value) -> Double? { if case .number(let n) = v { return n }; return nil }
private func transform(_ v: Value) -> Transform3D? { if case .transform(let t) = v { return t }; return nil }
private func color(_ v: Value) -> Color? { if case .color(let c) = v { return c }; return nil }

private func near(_ a: Color?, _ r: Double, _ g: Double, _ b: Double, _ al: Double) -> Bool {
    guard let a else { return false }
    return near(a.red, r) && near(a.green, g) && near(a.blue, b) && near(a.alpha, al)
}

private func near(_ a: Value, _ b: Value, _ tol: Double = storedTolerance) -> Bool {
    if case .transform(let s) = a, case .transform(let t) = b { return near(s, t, tol) }
    if case .array(let x) = a, case .array(let y) = b {
        return x.count == y.count && zip(x, y).allSatisfy { near($0, $1, tol) }
    }
    guard a.kind == b.kind, let x = I.components(a), let y = I.components(b) else { return a == b }
    return zip(x, y).allSatisfy { near($0, $1, tol) }
}


@Suite struct InterpolationTests {
    // MARK: interpolate

    @Test func numbersInterpolateAndExtrapolate() throws {
        #expect(try number(I.interpolate(.number(0), .number(10), 0.25)) == 2.5)
        #expect(try number(I.interpolate(.number(0), .number(10), 1.5)) == 15)
        #expect(try number(I.interpolate(.number(0), .number(10), -0.5)) == -5)
        #expect(try number(I.interpolate(.number(4), .number(4), 0.7)) == 4)
    }

    @Test func geometryInterpolatesPerComponent() throws {
        #expect(try I.interpolate(.point(Point(0, 10)), .point(Point(10, 30)), 0.5) == .point(Point(5, 20)))
        #expect(try I.interpolate(.size(Size(2, 4)), .size(Size(4, 0)), 0.25) == .size(Size(2.5, 3)))
        #expect(try I.interpolate(.rect(Rect(0, 0, 10, 10)), .rect(Rect(10, 20, 30, 40)), 0.5)
                == .rect(Rect(5, 10, 20, 25)))
        #expect(try I.interpolate(.point(Point(0, 0)), .point(Point(10, 0)), 1.2) == .point(Point(12, 0)))
    }

    @Test func coloursInterpolatePerStraightComponentAndClamp() throws {
        #expect(near(color(try I.interpolate(.color(blue), .color(red), 0.5)), 0.5, 0, 0.5, 1))
        #expect(near(color(try I.interpolate(.color(blue), .color(red), 1.5)), 1, 0, 0, 1), "clamped to 0…1")
        #expect(near(color(try I.interpolate(.null, .color(red), 0.5)), 1, 0, 0, 0.5), "nil is a clear red")
        #expect(near(color(try I.interpolate(.color(red), .null, 0.25)), 1, 0, 0, 0.75))
    }

    @Test func discreteKindsSwitchAtTheMiddle() throws {
        #expect(try I.interpolate(.bool(false), .bool(true), 0.49) == .bool(false))
        #expect(try I.interpolate(.bool(false), .bool(true), 0.5) == .bool(true))
        #expect(try I.interpolate(.string("a"), .string("b"), 0.49) == .string("a"))
        #expect(try I.interpolate(.string("a"), .string("b"), 0.5) == .string("b"))
        #expect(try I.interpolate(.null, .number(3), 0.49) == .null, "nil against a non-colour is discrete")
        #expect(try I.interpolate(.null, .number(3), 0.5) == .number(3))
    }

    @Test func mismatchedKindsThrow() {
        #expect(errorCode { try I.interpolate(.number(1), .point(Point(1, 1)), 0.5) } == .typeMismatch)
        #expect(errorCode { try I.interpolate(.transform(.identity), .color(red), 0.5) } == .typeMismatch)
        #expect(errorCode { try I.interpolate(.array([.number(1)]), .array([.string("x")]), 0.5) } == .typeMismatch)
    }

    @Test func transformsInterpolateByDecomposition() throws {
        let mid = try #require(transform(try I.interpolate(.transform(.identity), .transform(rz(.pi)), 0.5)))
        #expect(near(mid.m11, 0) && near(abs(mid.m12), 1), "a quarter turn, not a collapsed layer")
        let full = try #require(transform(try I.interpolate(.transform(.identity), .transform(rz(2 * .pi)), 0.5)))
        #expect(near(full, .identity), "Rz(2π) is the identity: nothing moves")
        let moved = try I.interpolate(.transform(.translation(0, 0)), .transform(.translation(10, 20, 30)), 0.5)
        #expect(near(moved, .transform(.translation(5, 10, 15))))
        // A singular end falls back to element-wise interpolation.
        let shrink = try I.interpolate(.transform(.identity), .transform(.scale(0, 0, 1)), 0.5)
        #expect(near(shrink, .transform(.scale(0.5, 0.5, 1))))
    }

    @Test func pathsInterpolatePointwiseWhenTheyMatch() throws {
        let a = Path([.move(Point(0, 0)), .line(Point(10, 0)), .cubic(Point(0, 0), Point(2, 2), Point(4, 4)), .close])
        let b = Path([.move(Point(10, 10)), .line(Point(20, 10)),
                      .cubic(Point(2, 2), Point(4, 4), Point(8, 8)), .close])
        let mid = Path([.move(Point(5, 5)), .line(Point(15, 5)), .cubic(Point(1, 1), Point(3, 3), Point(6, 6)), .close])
        #expect(try I.interpolate(.path(a), .path(b), 0.5) == .path(mid))
        var c = Path(); c.addRect(Rect(0, 0, 5, 5))
        #expect(try I.interpolate(.path(a), .path(c), 0.49) == .path(a), "different structure: discrete")
        #expect(try I.interpolate(.path(a), .path(c), 0.5) == .path(c))
    }

    @Test func arraysInterpolateElementWise() throws {
        let r = try I.interpolate(.array([.number(0), .color(blue)]), .array([.number(1), .color(red)]), 0.5)
        #expect(near(r, .array([.number(0.5), .color(Color(red: 0.5, green: 0, blue: 0.5))])))
        #expect(try I.interpolate(.array([.number(0)]), .array([.number(1), .number(2)]), 0.5)
                == .array([.number(1), .number(2)]), "different lengths: discrete")
    }

    // MARK: add, subtract, multiply

    @Test func addAndSubtractAreInverses() throws {
        let pairs: [(Value, Value)] = [
            (.number(3), .number(-1.25)),
            (.point(Point(1, 2)), .point(Point(-3, 5))),
            (.size(Size(10, 20)), .size(Size(1, -2))),
            (.rect(Rect(1, 2, 3, 4)), .rect(Rect(-1, 1, 2, -1))),
            (.color(Color(red: 0.5, green: 0.6, blue: 0.4, alpha: 0.5)),
             .color(Color(red: 0.2, green: 0.1, blue: 0.3, alpha: 0.25))),
            (.transform(rz(0.4).concatenating(.translation(5, 6, 7))),
             .transform(Transform3D.scale(2, 3).concatenating(rz(-1)))),
            (.array([.number(1), .point(Point(1, 1))]), .array([.number(2), .point(Point(3, 4))])),
        ]
        for (a, b) in pairs {
            #expect(near(try I.add(I.subtract(a, b), b), a, 1e-9), "add(subtract(a, b), b) == a for \(a.kind)")
            #expect(near(try I.subtract(I.add(a, b), b), a, 1e-9), "subtract(add(a, b), b) == a for \(a.kind)")
        }
        #expect(try I.add(.number(2), .number(3)) == .number(5))
        #expect(try I.add(.point(Point(1, 2)), .point(Point(3, 4))) == .point(Point(4, 6)))
        #expect(near(color(try I.add(.color(red), .color(blue))), 1, 0, 1, 1), "clamped")
    }

    @Test func transformAdditionAppliesTheDeltaAfterTheModel() throws {
        let model = rz(.pi / 2), delta = Transform3D.translation(10, 0, 0)
        let sum = try #require(transform(try I.add(.transform(model), .transform(delta))))
        #expect(sum == model.concatenating(delta))
        #expect(near(sum.m41, 10) && near(sum.m42, 0), "translated in the parent's space, not along the rotated x")
        #expect(errorCode { try I.subtract(.transform(.identity), .transform(.scale(0, 1))) } == .invalidArgument)
    }

    @Test func nonAddableKindsThrow() {
        #expect(errorCode { try I.add(.bool(true), .bool(false)) } == .notSupported)
        #expect(errorCode { try I.add(.string("a"), .string("b")) } == .notSupported)
        #expect(errorCode { try I.subtract(.path(Path()), .path(Path())) } == .notSupported)
        #expect(errorCode { try I.add(.number(1), .size(Size(1, 1))) } == .typeMismatch)
        #expect(errorCode { try I.multiply(.bool(true), 2) } == .notSupported)
    }

    @Test func multiplyScalesByTheCycleCount() throws {
        #expect(try I.multiply(.number(1.5), 4) == .number(6))
        #expect(try I.multiply(.point(Point(1, -2)), 3) == .point(Point(3, -6)))
        #expect(near(try I.multiply(.transform(.translation(1, 2, 0)), 3), .transform(.translation(3, 6, 0))))
        #expect(near(try I.multiply(.transform(rz(0.5)), 3), .transform(rz(1.5))))
        #expect(near(try I.multiply(.transform(rz(0.5)), -2), .transform(rz(-1))))
        #expect(try I.multiply(.transform(rz(0.5)), 0) == .transform(.identity))
        #expect(near(try I.multiply(.transform(rz(1)), 0.5), .transform(rz(0.5))), "fractional: decomposition")
        #expect(near(try I.multiply(.transform(.translation(4, 0, 0)), 0.25), .transform(.translation(1, 0, 0))))
        #expect(errorCode { try I.multiply(.number(1), .nan) } == .invalidArgument)
    }

    // MARK: distance and components

    @Test func distancesAreEuclidean() throws {
        #expect(try I.distance(.point(Point(0, 0)), .point(Point(3, 4))) == 5)
        #expect(try I.distance(.number(-2), .number(5)) == 7)
        #expect(try I.distance(.rect(Rect(0, 0, 1, 1)), .rect(Rect(1, 1, 2, 2))) == 2)
        #expect(near(try I.distance(.transform(.identity), .transform(.translation(3, 4, 0))), 5))
        #expect(near(try I.distance(.transform(.identity), .transform(rz(0.5))), 0.5), "the rotation angle")
        #expect(near(try I.distance(.transform(rz(3)), .transform(rz(-3))), 2 * .pi - 6), "the shorter way round")
        #expect(errorCode { try I.distance(.number(1), .point(Point(0, 0))) } == .typeMismatch)
        #expect(errorCode { try I.distance(.bool(true), .bool(false)) } == .notSupported)
    }

    @Test func componentsRoundTrip() {
        let values: [Value] = [.number(2), .point(Point(1, 2)), .size(Size(3, 4)), .rect(Rect(1, 2, 3, 4)),
                               .color(Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))]
        for v in values {
            let c = I.components(v)
            #expect(c != nil)
            #expect(c.flatMap { I.value(components: $0, like: v) } == v)
        }
        #expect(I.components(.string("x")) == nil && I.components(.transform(.identity)) == nil)
        #expect(I.value(components: [1, 2, 3], like: .point(.zero)) == nil)
        #expect(I.value(components: [1.5, -1, 0.5, 2], like: .color(.black))
                == .color(Color(red: 1, green: 0, blue: 0.5, alpha: 1)), "clamped")
    }
}
