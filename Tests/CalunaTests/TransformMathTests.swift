import Testing
import Glibc
@testable import Caluna

// The chapter-5 matrix facts (spec book-ch05-06.md §1.2–1.4, §1.6, listings 5.1–5.3,
// F13, F16), with the numbers the spec's reference model (Appendix A) gives.

private let specTolerance = 5e-5   // the spec prints five decimals (0.70711) …
private let translationTolerance = 5e-4   // … and three for translations (86.603)
private let degrees30 = 30.0 / 180.0 * .pi

private func near(_ t: AffineTransform, _ e: [Double], _ tol: Double) -> Bool {
    zip(t.elements, e).allSatisfy { abs($0 - $1) <= tol }
}

@Test func t51AffineRotationByQuarterPi() {
    let t = AffineTransform.rotation(.pi / 4)
    #expect(near(t, [0.70711, 0.70711, -0.70711, 0.70711, 0, 0], specTolerance))
    let m = Transform3D(t)
    #expect(abs(m.m11 - 0.70711) < specTolerance && abs(m.m12 - 0.70711) < specTolerance)
    #expect(abs(m.m21 + 0.70711) < specTolerance && abs(m.m22 - 0.70711) < specTolerance)
    #expect(m.m34 == 0)
    // Clockwise on a y-down screen: +x turns toward +y.
    #expect(t.apply(Point(1, 0)).y > 0)
}

@Test func t52ScaleRotateTranslateAppliesInReverse() {
    // t = Scale(I, .5, .5); t = Rotate(t, 30°); t = Translate(t, 200, 0)  (= T·R·S)
    let t = AffineTransform.identity.scaled(0.5, 0.5).rotated(degrees30).translated(200, 0)
    #expect(near(t, [0.43301, 0.25, -0.25, 0.43301, 86.603, 50.0], translationTolerance))
    #expect(t == AffineTransform.translation(200, 0).concatenating(.rotation(degrees30)).concatenating(.scale(0.5, 0.5)))
    // The 200-pt translation was rotated and halved: it moved 100 pt diagonally (F8).
    #expect(abs((t.tx * t.tx + t.ty * t.ty).squareRoot() - 100) < 1e-9)
    // Code order translate → rotate → scale (= S·R·T) keeps the translation (F9).
    let other = AffineTransform.identity.translated(200, 0).rotated(degrees30).scaled(0.5, 0.5)
    #expect(near(other, [0.43301, 0.25, -0.25, 0.43301, 200, 0], translationTolerance))
    #expect(other != t)
    // The same through Transform3D.
    let t3 = Transform3D.identity.scaled(0.5, 0.5, 1).rotated(degrees30, 0, 0, 1).translated(200, 0, 0)
    #expect(near(t3.affine, t, 1e-12) && t3.isAffine)
}

/// Listing 5.2 "Matrix-level": Concat(T, R) maps the anchor to (173.2, 100), Concat(R, T)
/// to (200, 0). A layer's transform acts about its anchor, which is the origin of the
/// space the matrix sees (spec §1.5: T(−A)·transform·T(position)).
@Test func t52ConcatAppliesTheFirstArgumentFirst() throws {
    let T = AffineTransform.translation(200, 0), R = AffineTransform.rotation(degrees30)
    let anchor = Point(0, 0)
    let tr = T.concatenating(R).apply(anchor), rt = R.concatenating(T).apply(anchor)
    #expect(abs(tr.x - 173.2) < 0.05 && abs(tr.y - 100) < 1e-9, "Concat(T, R) maps the anchor to (173.2, 100)")
    #expect(near(rt, Point(200, 0), 1e-12), "Concat(R, T) maps it to (200, 0)")
    let T3 = Transform3D(T), R3 = Transform3D.rotation(degrees30, 0, 0, 1)
    let p = try #require(T3.concatenating(R3).project(0, 0, 0))
    #expect(abs(p.x - 173.205) < 1e-3 && abs(p.y - 100) < 1e-9)
}

@Test func builderMethodsApplyTheirOperationFirstForAffine() {
    let t = AffineTransform.scale(2, 3)
    #expect(t.translated(5, 1) == AffineTransform.translation(5, 1).concatenating(t))
    #expect(t.scaled(4, 5) == AffineTransform.scale(4, 5).concatenating(t))
    #expect(t.rotated(0.3) == AffineTransform.rotation(0.3).concatenating(t))
    #expect(t.translated(5, 1).apply(Point(0, 0)) == Point(10, 3), "translate by (5, 1), then scale by (2, 3)")
}

@Test func rotationAboutYMovesTheRightEdgeAway() {
    for angle in [Double.pi / 4, 0.3, -1.2] {
        let r = Transform3D.rotation(angle, 0, 1, 0)
        let h = r.homogeneous(80, 0, 0)
        #expect(abs(h.x - 80 * cos(angle)) < 1e-12 && h.y == 0 && abs(h.z + 80 * sin(angle)) < 1e-12 && h.w == 1)
        #expect(r.m11 == cos(angle) && r.m13 == -sin(angle) && r.m31 == sin(angle) && r.m33 == cos(angle))
    }
    // About x: m22 = c, m23 = s, m32 = −s, m33 = c.
    let x = Transform3D.rotation(0.4, 1, 0, 0)
    #expect(x.m22 == cos(0.4) && x.m23 == sin(0.4) && x.m32 == -sin(0.4) && x.m33 == cos(0.4))
    // The axis is normalised; a zero axis is the identity.
    #expect(near(Transform3D.rotation(0.7, 0, 5, 0), .rotation(0.7, 0, 1, 0), 1e-15))
    #expect(Transform3D.rotation(0.7, 0, 0, 0) == .identity)
    #expect(Transform3D.scale(2, 2, 2).rotated(0.7, 0, 0, 0) == .scale(2, 2, 2), "Rotate with a zero axis keeps t")
}

@Test func f13RotationAboutZIsTheAffineRotation() {
    for angle in [Double.pi / 4, degrees30, -2.5] {
        #expect(near(Transform3D.rotation(angle, 0, 0, 1), Transform3D(AffineTransform.rotation(angle)), 1e-15))
    }
}

@Test func f16IdentityHasNoPerspective() {
    #expect(Transform3D.identity.m34 == 0)
    #expect(Transform3D.identity.isIdentity && Transform3D.identity.isAffine)
    #expect(AffineTransform.identity.elements == [1, 0, 0, 1, 0, 0])
    var p = Transform3D.identity
    p.m34 = -1.0 / 500
    #expect(!p.isAffine && !p.isIdentity)
}

@Test func affineRoundTripsThroughTransform3D() {
    let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    let m = Transform3D(a)
    #expect(m.m11 == 1 && m.m12 == 2 && m.m21 == 3 && m.m22 == 4 && m.m41 == 5 && m.m42 == 6)
    #expect(m.m33 == 1 && m.m44 == 1 && m.m34 == 0 && m.isAffine)
    #expect(m.affine == a)
    #expect(AffineTransform(elements: a.elements) == a && AffineTransform(elements: [1]) == nil)
}

@Test func inversionRoundTripsAndRefusesSingularMatrices() throws {
    var m = Transform3D.rotation(0.6, 1, 2, 3).translated(5, -7, 2).scaled(2, 0.5, 3)
    m.m34 = -1.0 / 500
    let inv = try #require(m.inverted())
    #expect(near(m.concatenating(inv), .identity, 1e-12))
    #expect(near(inv.concatenating(m), .identity, 1e-12))
    #expect(Transform3D.scale(1, 0, 1).inverted() == nil)
    #expect(Transform3D.scale(1e-200, 1e-200, 1e-200).inverted() == nil, "an inverse that overflows is refused")
    let a = AffineTransform.rotation(0.3).translated(4, 5).scaled(2, 3)
    let ai = try #require(a.inverted())
    #expect(near(a.concatenating(ai), .identity, 1e-12))
    #expect(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted() == nil)
}

@Test func projectionDividesByWAndRefusesPointsBehindTheViewer() throws {
    var p = Transform3D.identity
    p.m34 = -1.0 / 500
    // z toward the viewer enlarges: scale d / (d − z).
    let q = try #require(p.project(10, 20, 250))
    #expect(abs(q.x - 20) < 1e-12 && abs(q.y - 40) < 1e-12 && abs(q.w - 0.5) < 1e-12)
    #expect(p.project(10, 20, 500) == nil, "z = d: w = 0")
    #expect(p.project(10, 20, 600) == nil, "z > d: behind the viewer")
    #expect(p.homogeneous(10, 20, 600).w < 0)
}

/// Spec §1.6: a 200-pt square rotated 45° about y with m34 = −1/d, at (200, 200).
@Test func perspectiveSweepNearFarEdgeRatios() throws {
    let table: [(d: Double, ratio: Double, tol: Double)] = [
        (100, 5.83, 0.005), (250, 1.79, 0.005), (500, 1.329, 0.0005), (1000, 1.152, 0.0005),
        (5000, 1.029, 0.0005), (1e6, 1.0001, 0.00005),
    ]
    var previous = Double.infinity
    for row in table {
        var t = Transform3D.identity
        t.m34 = -1 / row.d
        t = t.rotated(.pi / 4, 0, 1, 0)   // R·P: rotate first, then perspective (listing 5.5)
        let layer = Transform3D.translation(-100, -100, 0).concatenating(t).concatenating(.translation(200, 200, 0))
        func corner(_ x: Double, _ y: Double) throws -> (x: Double, y: Double) {
            let p = try #require(layer.project(x, y, 0))
            return (p.x, p.y)
        }
        let tl = try corner(0, 0), tr = try corner(200, 0), br = try corner(200, 200), bl = try corner(0, 200)
        let left = bl.y - tl.y, right = br.y - tr.y
        #expect(abs(left / right - row.ratio) <= row.tol, "d = \(row.d): ratio \(left / right)")
        #expect(left / right < previous, "the ratio falls toward 1 as d grows")
        #expect(abs(tl.x - bl.x) < 1e-9 && abs(tr.x - br.x) < 1e-9, "the near and far edges stay vertical")
        previous = left / right
        if row.d == 500 {
            #expect(abs(left - 232.94) < 0.005 && abs(right - 175.22) < 0.005)
            #expect(abs(tl.x - 117.64) < 0.005 && abs(tl.y - 83.53) < 0.005 && abs(tr.x - 261.95) < 0.005)
        }
    }
}

@Test func listing53ShearMakesAParallelogram() {
    let s = AffineTransform.shear(1, 0)
    #expect(s.elements == [1, 0, -1, 1, 0, 0])
    // About the centre of a 100-pt square: the top edge moves +x relative to the bottom by the height.
    let top = s.apply(Point(0, -50)), bottom = s.apply(Point(0, 50))
    #expect(top.x - bottom.x == 100)
    #expect(AffineTransform.shear(0.5, 2).elements == [1, 2, -0.5, 1, 0, 0])
}

@Test func applyRectIsTheBoundingBox() {
    let r = AffineTransform.rotation(.pi / 4).apply(Rect(-100, -100, 200, 200))
    let side = 200 * 2.0.squareRoot()
    #expect(near(r, Rect(-side / 2, -side / 2, side, side), 1e-9))
    #expect(AffineTransform.scale(-1, 1).apply(Rect(10, 0, 5, 5)) == Rect(-15, 0, 5, 5))
}
