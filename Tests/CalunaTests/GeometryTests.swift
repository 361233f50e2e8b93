import Foundation
import Testing
@testable import Caluna

// Value types (spec §1.1, §0 coordinate model, DESIGN §4 "Coordinates" and "3D").

/// [x y z 1] · M (row-vector convention), returning (x', y', z', w').
private func apply(_ m: Transform3D, _ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double, Double) {
    (x * m.m11 + y * m.m21 + z * m.m31 + m.m41,
     x * m.m12 + y * m.m22 + z * m.m32 + m.m42,
     x * m.m13 + y * m.m23 + z * m.m33 + m.m43,
     x * m.m14 + y * m.m24 + z * m.m34 + m.m44)
}

private func near3(_ v: (Double, Double, Double, Double), _ x: Double, _ y: Double, _ z: Double,
                   _ tol: Double = storedTolerance) -> Bool {
    near(v.0 / v.3, x, tol) && near(v.1 / v.3, y, tol) && near(v.2 / v.3, z, tol)
}

// MARK: Point, Size, Rect

@Test func rectContainsIsHalfOpen() {
    let r = Rect(0, 0, 10, 10)
    #expect(r.contains(Point(0, 0)))
    #expect(r.contains(Point(9.999, 9.999)))
    #expect(!r.contains(Point(10, 5)))
    #expect(!r.contains(Point(5, 10)))
    #expect(!r.contains(Point(-0.001, 5)))
    #expect(!Rect(5, 5, 0, 10).contains(Point(5, 6)), "an empty rect contains nothing")
}

@Test func rectWithNegativeSizeStandardizes() {
    let r = Rect(10, 10, -5, -4)
    #expect(r.standardized == Rect(5, 6, 5, 4))
    #expect(r.minX == 5 && r.maxX == 10 && r.minY == 6 && r.maxY == 10)
    #expect(r.width == 5 && r.height == 4)
    #expect(r.contains(Point(5, 6)))
    #expect(!r.contains(Point(10, 10)))
    #expect(r.midX == 7.5 && r.midY == 8)
}

@Test func rectBoundingAndIntersects() {
    #expect(Rect.bounding([Point(3, 4), Point(-1, 2), Point(5, -6)]) == Rect(-1, -6, 6, 10))
    #expect(Rect.bounding([]) == .zero)
    #expect(Rect(0, 0, 10, 10).intersects(Rect(5, 5, 10, 10)))
    #expect(!Rect(0, 0, 10, 10).intersects(Rect(10, 0, 5, 5)), "touching edges do not intersect")
    #expect(Rect(0, 0, 2, 3).corners == [Point(0, 0), Point(2, 0), Point(2, 3), Point(0, 3)])
}

@Test func pointArithmetic() {
    #expect(Point(1, 2) + Point(3, 5) == Point(4, 7))
    #expect(Point(1, 2) - Point(3, 5) == Point(-2, -3))
    #expect(!Point(.nan, 0).isFinite && !Size(0, .infinity).isFinite && Rect(1, 2, 3, 4).isFinite)
}

// MARK: AffineTransform

@Test func affineRotationIsClockwiseOnAYDownScreen() {
    let r = AffineTransform.rotation(.pi / 2)
    #expect(near(r.apply(Point(1, 0)), Point(0, 1)), "+x turns to +y (down): clockwise on screen")
    #expect(near(r.apply(Point(0, 1)), Point(-1, 0)))
    #expect(near(r, AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)))
}

@Test func affineConcatAppliesReceiverFirst() {
    let t = AffineTransform.translation(10, 0), s = AffineTransform.scale(2, 2)
    #expect(t.concatenating(s).apply(Point(1, 1)) == Point(22, 2), "translate, then scale")
    #expect(s.concatenating(t).apply(Point(1, 1)) == Point(12, 2), "scale, then translate")
}

@Test func affineInverse() throws {
    let t = AffineTransform.rotation(0.7).concatenating(.scale(2, 3)).concatenating(.translation(5, -4))
    let inv = try #require(t.inverted())
    #expect(near(inv.apply(t.apply(Point(3, -8))), Point(3, -8), 1e-12))
    #expect(near(t.concatenating(inv), .identity, 1e-12))
    #expect(AffineTransform.scale(0, 1).inverted() == nil)
    #expect(AffineTransform.identity.isIdentity && !t.isIdentity)
}

// MARK: Transform3D

@Test func translationSitsInTheFourthRow() {
    let t = Transform3D.translation(1, 2, 3)
    #expect(t.m41 == 1 && t.m42 == 2 && t.m43 == 3)
    #expect(t.m14 == 0 && t.m24 == 0 && t.m34 == 0 && t.m44 == 1)
    #expect(near3(apply(t, 10, 20, 30), 11, 22, 33))
    #expect(Transform3D(elements: t.elements) == t)
    #expect(Transform3D(elements: [1, 2]) == nil)
}

@Test func concatAppliesReceiverFirst() {
    let a = Transform3D.translation(10, 0, 0), b = Transform3D.scale(2, 2, 2)
    #expect(near3(apply(a.concatenating(b), 1, 0, 0), 22, 0, 0))
    #expect(near3(apply(b.concatenating(a), 1, 0, 0), 12, 0, 0))
}

@Test func builderMethodsApplyTheirOperationFirst() {
    let t = Transform3D.scale(2, 2, 2)
    #expect(t.translated(5, 0, 0) == Transform3D.translation(5, 0, 0).concatenating(t))
    #expect(near3(apply(t.translated(5, 0, 0), 0, 0, 0), 10, 0, 0), "translate by 5 then scale by 2")
    #expect(near3(apply(Transform3D.translation(5, 0, 0).scaled(3, 1, 1), 1, 0, 0), 8, 0, 0))
    let r = Transform3D.translation(5, 0, 0).rotated(.pi / 2, 0, 0, 1)
    #expect(near3(apply(r, 1, 0, 0), 5, 1, 0), "rotate (1,0) to (0,1), then translate")
}

@Test func rotationAboutZEqualsTheAffineRotation() {
    for angle in [0.6, -1.3, Double.pi / 2, 3.0] {
        let r3 = Transform3D.rotation(angle, 0, 0, 1)
        #expect(near(r3.affine, .rotation(angle)))
        #expect(near(Transform3D(AffineTransform.rotation(angle)), r3))
        #expect(r3.isAffine)
    }
    #expect(Transform3D.rotation(1, 0, 0, 0) == .identity, "a zero axis gives the identity")
}

@Test func rotationAboutArbitraryAxes() {
    // About +x by 90°: y → z.  About +y by 90°: x → −z (right-handed).
    #expect(near3(apply(.rotation(.pi / 2, 1, 0, 0), 0, 1, 0), 0, 0, 1, 1e-12))
    #expect(near3(apply(.rotation(.pi / 2, 0, 1, 0), 1, 0, 0), 0, 0, -1, 1e-12))
    // About (1,1,1) by 120°: the axes cycle x → y → z → x.
    let cyc = Transform3D.rotation(2 * .pi / 3, 1, 1, 1)
    #expect(near3(apply(cyc, 1, 0, 0), 0, 1, 0, 1e-12))
    #expect(near3(apply(cyc, 0, 0, 1), 1, 0, 0, 1e-12))
    // About (1,2,2)/3 by 60° (axis not normalised on input), by hand with Rodrigues:
    // v' = v·c + (k×v)·s + k(k·v)(1−c) for v = (1,0,0): (1/2 + 1/18, √3/3 + 1/9, −√3/3 + 1/9).
    let r = Transform3D.rotation(.pi / 3, 1, 2, 2)
    let s3 = 3.0.squareRoot() / 3
    #expect(near3(apply(r, 1, 0, 0), 0.5 + 1.0 / 18, s3 + 1.0 / 9, -s3 + 1.0 / 9, 1e-12))
}

@Test func inverseTimesOriginalIsIdentity() throws {
    var t = Transform3D.rotation(0.3, 1, 2, 3).translated(4, 5, 6).scaled(2, 3, 4)
    t.m34 = -1.0 / 500
    let inv = try #require(t.inverted())
    #expect(near(inv.concatenating(t), .identity, 1e-12))
    #expect(near(t.concatenating(inv), .identity, 1e-12))
}

@Test func singularMatrixHasNoInverse() {
    #expect(Transform3D.scale(0, 1, 1).inverted() == nil)
    #expect(Transform3D.scale(1, 1, 0).inverted() == nil)
    #expect(Transform3D.identity.inverted() == .identity)
}

@Test func isAffine() {
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 500
    #expect(Transform3D.identity.isAffine)
    #expect(Transform3D.translation(1, 2, 0).isAffine)
    #expect(Transform3D.scale(2, 3, 1).isAffine)
    #expect(!Transform3D.translation(0, 0, 1).isAffine)
    #expect(!Transform3D.scale(1, 1, 2).isAffine)
    #expect(!Transform3D.rotation(0.5, 1, 0, 0).isAffine)
    #expect(!perspective.isAffine)
}

// MARK: PlaneProjection

@Test func planeProjectionApply() {
    #expect(Transform3D.translation(5, 6, 7).planeProjection.apply(Point(1, 2)) == Point(6, 8))
    #expect(PlaneProjection.identity.apply(Point(3, 4)) == Point(3, 4))
    #expect(PlaneProjection.identity.affine == .identity)
}

@Test func planeProjectionPerspectiveDividesByW() {
    let p = PlaneProjection(m11: 1, m12: 0, m14: 0.01, m21: 0, m22: 1, m24: 0, m41: 0, m42: 0, m44: 1)
    #expect(near(p.apply(Point(100, 50)), Point(50, 25)), "w = 1 + 100·0.01 = 2")
    #expect(p.apply(Point(-100, 0)) == nil, "w = 0 maps to infinity")
    #expect(p.apply(Point(-200, 0)) == nil, "w < 0 is behind the viewer")
    #expect(p.affine == nil)
    // A y-rotation under m34 perspective leaves a w term in the plane map.
    var t = Transform3D.identity
    t.m34 = -1.0 / 500
    #expect(t.rotated(.pi / 4, 0, 1, 0).planeProjection.affine == nil)
}

@Test func planeProjectionInverse() throws {
    let p = PlaneProjection(m11: 2, m12: 0.5, m14: 0.001, m21: -0.3, m22: 1.5, m24: 0.002, m41: 10, m42: -4, m44: 1)
    let inv = try #require(p.inverted())
    for q in [Point(0, 0), Point(30, -20), Point(100, 80)] {
        let there = try #require(p.apply(q))
        #expect(near(inv.apply(there), q, 1e-9))
    }
    let singular = PlaneProjection(m11: 1, m12: 2, m14: 0, m21: 2, m22: 4, m24: 0, m41: 0, m42: 0, m44: 1)
    #expect(singular.inverted() == nil)
}

// MARK: Color

@Test func colorParsesHexForms() {
    #expect(Color(parsing: "#f80") == Color(r8: 255, g8: 136, b8: 0))
    #expect(Color(parsing: "#f808") == Color(r8: 255, g8: 136, b8: 0, a8: 136))
    #expect(Color(parsing: "#dc143c") == Color(r8: 220, g8: 20, b8: 60))
    #expect(Color(parsing: "#DC143C80") == Color(r8: 220, g8: 20, b8: 60, a8: 128))
}

@Test func colorParsesCSSNames() {
    #expect(Color(parsing: "crimson") == Color(r8: 220, g8: 20, b8: 60))
    #expect(Color(parsing: "Crimson") == Color(r8: 220, g8: 20, b8: 60))
    #expect(Color(parsing: "lightgray") == Color(r8: 211, g8: 211, b8: 211), "CSS, not UIKit's 170")
    #expect(Color(parsing: "blue") == Color(r8: 0, g8: 0, b8: 255))
    #expect(Color(parsing: "transparent") == .clear)
    #expect(Color(parsing: "clear") == .clear)
}

@Test func colorRejectsBadStrings() {
    for s in ["", "#", "#12", "#12345", "#1234567", "#123456789", "#ggg", "#12g", "notacolor",
              "rgb(1,2,3)", "# fff", "#-12"] {
        #expect(Color(parsing: s) == nil, "\(s)")
    }
}

@Test func colorHexRoundTrip() throws {
    for s in ["#000000ff", "#dc143c80", "#0a0b0cff", "#ffffff00", "#7f8081fe"] {
        let c = try #require(Color(parsing: s))
        #expect(c.hex == s)
        #expect(Color(parsing: c.hex) == c)
    }
    #expect(Color(red: 2, green: -1, blue: 0.5, alpha: 1).hex == "#ff0080ff", "hex is clamped and rounded")
}

// MARK: Value component key paths

@Test func valueComponents() {
    #expect(Value.point(Point(1, 2)).component(path("x")) == .number(1))
    #expect(Value.point(Point(1, 2)).component(path("y")) == .number(2))
    #expect(Value.size(Size(3, 4)).component(path("width")) == .number(3))
    #expect(Value.size(Size(3, 4)).component(path("height")) == .number(4))
    let r = Value.rect(Rect(1, 2, 3, 4))
    #expect(r.component(path("origin.x")) == .number(1))
    #expect(r.component(path("origin")) == .point(Point(1, 2)))
    #expect(r.component(path("size.height")) == .number(4))
    #expect(r.component([]) == r)
    #expect(Value.componentKind(of: .rect, path("size.width")) == .number)
    #expect(Value.componentKind(of: .rect, path("origin")) == .point)
}

@Test func valueSettingComponent() {
    let r = Value.rect(Rect(1, 2, 3, 4))
    #expect(r.settingComponent(path("origin.x"), to: .number(9)) == .rect(Rect(9, 2, 3, 4)))
    #expect(r.settingComponent(path("size.height"), to: .number(7)) == .rect(Rect(1, 2, 3, 7)))
    #expect(r.settingComponent(path("size"), to: .size(Size(5, 6))) == .rect(Rect(1, 2, 5, 6)))
    #expect(Value.point(Point(1, 2)).settingComponent(path("y"), to: .number(-3)) == .point(Point(1, -3)))
    #expect(Value.size(Size(1, 2)).settingComponent(path("width"), to: .number(8)) == .size(Size(8, 2)))
}

@Test func invalidComponentsGiveNil() {
    let r = Value.rect(Rect(1, 2, 3, 4))
    #expect(Value.point(Point(1, 2)).component(path("z")) == nil)
    #expect(Value.point(Point(1, 2)).component(path("x.y")) == nil)
    #expect(r.component(path("width")) == nil)
    #expect(r.component(path("origin.z")) == nil)
    #expect(Value.number(1).component(path("x")) == nil)
    #expect(Value.componentKind(of: .point, path("width")) == nil)
    #expect(Value.componentKind(of: .number, path("x")) == nil)
    #expect(Value.point(Point(1, 2)).settingComponent(path("x"), to: .string("1")) == nil)
    #expect(r.settingComponent(path("origin"), to: .number(1)) == nil)
    #expect(r.settingComponent(path("size.depth"), to: .number(1)) == nil)
    #expect(Value.number(1).settingComponent([], to: .bool(true)) == nil, "a whole value must keep its kind")
}
