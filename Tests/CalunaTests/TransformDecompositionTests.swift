import Foundation
import Testing
@testable import Caluna

// Transform decomposition (spec ch07-09 §1.9: decomposed interpolation, Rz(2π)
// is the identity) and the transform virtual key paths (§1.7).

private typealias D = DecomposedTransform

private func rz(_ a: Double) -> Transform3D { .rotation(a, 0, 0, 1) }
private func rx(_ a: Double) -> Transform3D { .rotation(a, 1, 0, 0) }
private func ry(_ a: Double) -> Transform3D { .rotation(a, 0, 1, 0) }
private func perspective(_ d: Double) -> Transform3D { var p = Transform3D.identity; p.m34 = -1 / d; return p }

private func near(_ a: D, _ b: D, _ tol: Double = storedTolerance) -> Bool {
    let q = a.rotation.w * b.rotation.w < 0 ? -1.0 : 1.0  // q and −q are one rotation
    let x = [a.translation.x, a.translation.y, a.translation.z, a.scale.x, a.scale.y, a.scale.z,
             a.skew.xy, a.skew.xz, a.skew.yz, a.perspective.x, a.perspective.y, a.perspective.z, a.perspective.w,
             a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w]
    let y = [b.translation.x, b.translation.y, b.translation.z, b.scale.x, b.scale.y, b.scale.z,
             b.skew.xy, b.skew.xz, b.skew.yz, b.perspective.x, b.perspective.y, b.perspective.z, b.perspective.w,
             q * b.rotation.x, q * b.rotation.y, q * b.rotation.z, q * b.rotation.w]
    return zip(x, y).allSatisfy { near($0, $1, tol) }
}

/// Reads a virtual component of a transform as a number (NaN if refused, so
/// that every comparison fails).
private func read(_ t: Transform3D, _ key: String) -> Double {
    if case .number(let n)? = Value.transform(t).component(path(key)) { return n }
    return .nan
}

private let refused = Transform3D(elements: Array(repeating: .nan, count: 16))!

/// Writes a virtual component (all-NaN if refused).
private func write(_ t: Transform3D, _ key: String, _ v: Value) -> Transform3D {
    if case .transform(let r)? = Value.transform(t).settingComponent(path(key), to: v) { return r }
    return refused
}

private func write(_ t: Transform3D, _ key: String, _ n: Double) -> Transform3D { write(t, key, .number(n)) }

@Suite struct TransformDecompositionTests {
    // MARK: decomposition

    @Test func decompositionRecomposesCompositions() throws {
        let samples: [Transform3D] = [
            .identity,
            Transform3D.scale(1.5, 0.7, 2).concatenating(rx(0.3)).concatenating(ry(-1.1)).concatenating(rz(2.5))
                .concatenating(.translation(10, -20, 5)),
            perspective(500).translated(0, 0, 100).rotated(0.8, 0, 1, 0).scaled(2, 2),
            rz(-2).concatenating(.translation(3, 4, 0)).concatenating(perspective(300)),
            Transform3D(AffineTransform(a: 1, b: 0.4, c: 0.2, d: 1, tx: 7, ty: 8)).concatenating(ry(2.9)),
            Transform3D.scale(-1, 1).concatenating(rz(0.6)).concatenating(.translation(-5, 5, 1)),
            Transform3D.scale(1e-6, 1e-6, 1e-6).concatenating(rx(3)),
        ]
        for m in samples {
            let d = try #require(D(m), "\(m) decomposes")
            #expect(near(d.transform, m, 1e-9), "recompose(decompose(m)) == m for \(m)")
            let again = try #require(D(d.transform))
            #expect(near(again, d, 1e-9), "decompose(recompose(d)) == d")
            #expect(abs(d.rotation.x * d.rotation.x + d.rotation.y * d.rotation.y + d.rotation.z * d.rotation.z
                        + d.rotation.w * d.rotation.w - 1) < 1e-12, "unit quaternion")
        }
    }

    @Test func decompositionOfRecomposedPartsRoundTrips() throws {
        var q = D.Quaternion(x: 0.1, y: -0.2, z: 0.3, w: 0.9)
        let n = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        q = D.Quaternion(x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n)
        let d = D(translation: .init(1, 2, 3), scale: .init(2, 0.5, 1.5), skew: .init(xy: 0.1, xz: -0.2, yz: 0.3),
                  perspective: .init(0.001, -0.002, 0.003, 1), rotation: q)
        let back = try #require(D(d.transform))
        #expect(near(back, d, 1e-12))
        #expect(D(.identity) == .identity)
        #expect(D.identity.transform == .identity)
    }

    @Test func perspectiveTransformsKeepTheirScaleAndTranslation() throws {
        // The Core Animation idiom: perspective, then translate (translation applied first).
        let m = perspective(500).translated(0, 0, 100)
        let d = try #require(D(m))
        #expect(near(d.scale.x, 1) && near(d.scale.y, 1) && near(d.scale.z, 1))
        #expect(near(d.translation.z, 100))
        #expect(near(d.perspective.z, -1.0 / 500) && near(d.perspective.w, 1))
    }

    @Test func singularMatricesDoNotDecompose() {
        #expect(D(.scale(0, 1, 1)) == nil)
        #expect(D(.scale(1, 1, 0)) == nil)
        var flat = Transform3D.identity; flat.m44 = 0
        #expect(D(flat) == nil, "m44 = 0")
        var dependent = Transform3D.identity; dependent.m21 = 1; dependent.m22 = 0
        #expect(D(dependent) == nil, "rows 1 and 2 equal")
        #expect(D(Transform3D.scale(.nan, 1)) == nil)
    }

    @Test func mirrorDecomposesAsANegativeScaleOfThatAxis() throws {
        let d = try #require(D(.scale(-1, 1)))
        #expect(near(d.scale.x, -1) && near(d.scale.y, 1) && near(d.scale.z, 1))
        #expect(near(d.rotation.w, 1), "a flip is not a turn")
        let e = try #require(D(.scale(1, -2)))
        #expect(near(e.scale.y, -2) && near(e.scale.x, 1) && near(e.rotation.w, 1))
    }

    // MARK: interpolation

    @Test func halfTurnInterpolatesThroughAQuarterTurn() throws {
        let mid = D.interpolate(.identity, try #require(D(rz(.pi))), 0.5).transform
        #expect(near(mid.m11, 0) && near(abs(mid.m12), 1) && near(mid.m22, 0) && near(mid.m33, 1),
                "a rotation by ±π/2, not the collapsed element-wise midpoint")
        #expect(near(mid, rz(.pi / 2)) || near(mid, rz(-.pi / 2)))
    }

    @Test func fullTurnIsTheIdentity() throws {
        let d = try #require(D(rz(2 * .pi)))
        #expect(near(d.rotation.w, 1) && near(d.rotation.z, 0), "Rz(2π) decomposes to no rotation")
        for f in [0.25, 0.5, 0.75] {
            #expect(near(D.interpolate(.identity, d, f).transform, .identity))
        }
    }

    @Test func slerpTakesTheShortestPath() throws {
        let a = try #require(D(rz(170 * .pi / 180))), b = try #require(D(rz(-170 * .pi / 180)))
        let mid = D.interpolate(a, b, 0.5)
        #expect(near(abs(mid.rotationZ), .pi), "through 180°, not 0°")
        #expect(near(mid.transform.m11, -1))
        let quarter = D.interpolate(a, b, 0.25)
        #expect(near(quarter.rotationZ, 175 * .pi / 180))
    }

    @Test func interpolationExtrapolatesOutsideTheUnitInterval() throws {
        let a = D.identity
        var b = try #require(D(rz(.pi / 2).concatenating(.translation(10, 0, 0))))
        b.scale = .init(2, 2, 1)
        let over = D.interpolate(a, b, 1.5)
        #expect(near(over.rotationZ, 3 * .pi / 4))
        #expect(near(over.translation.x, 15) && near(over.scale.x, 2.5))
        let under = D.interpolate(a, b, -0.5)
        #expect(near(under.rotationZ, -.pi / 4))
        #expect(near(under.translation.x, -5) && near(under.scale.x, 0.5))
    }

    // MARK: Euler angles

    @Test func pureRotationsReadBackTheirAngle() throws {
        for a in [0, 0.3, -0.3, 1.2, -1.2, .pi / 2, -.pi / 2, 2.0, -2.0, 3.0, -3.0, .pi] {
            #expect(near(try #require(D(rz(a))).rotationZ, a, 1e-9), "Rz(\(a))")
            #expect(near(try #require(D(rx(a))).rotationX, a, 1e-9), "Rx(\(a))")
            #expect(near(try #require(D(ry(a))).rotationY, a, 1e-9), "Ry(\(a))")
            let e = try #require(D(ry(a))).eulerAngles
            #expect(near(e.x, 0, 1e-9) && near(e.z, 0, 1e-9), "Ry(\(a)) has no x or z part")
        }
        #expect(near(try #require(D(ry(-.pi / 2))).rotationY, -.pi / 2))
    }

    @Test func eulerOrderIsXThenYThenZ() throws {
        let m = rx(0.4).concatenating(ry(-0.7)).concatenating(rz(1.1))
        let e = try #require(D(m)).eulerAngles
        #expect(near(e.x, 0.4) && near(e.y, -0.7) && near(e.z, 1.1))
        var d = try #require(D(m))
        d.setRotation(.y, to: 0.25)
        #expect(near(d.transform, rx(0.4).concatenating(ry(0.25)).concatenating(rz(1.1))))
    }

    // MARK: virtual key paths

    @Test func transformKeyPathKinds() {
        #expect(Value.componentKind(of: .transform, path("rotation")) == .number)
        #expect(Value.componentKind(of: .transform, path("rotation.y")) == .number)
        #expect(Value.componentKind(of: .transform, path("scale")) == .number)
        #expect(Value.componentKind(of: .transform, path("scale.z")) == .number)
        #expect(Value.componentKind(of: .transform, path("translation")) == .size)
        #expect(Value.componentKind(of: .transform, path("translation.x")) == .number)
        #expect(Value.componentKind(of: .transform, path("rotation.w")) == nil)
        #expect(Value.componentKind(of: .transform, path("skew")) == nil)
        #expect(Value.componentKind(of: .transform, path("scale.x.y")) == nil)
        #expect(Value.transform(.identity).component(path("m11")) == nil)
        #expect(Value.transform(.identity).settingComponent(path("translation"), to: .number(1)) == nil)
        #expect(Value.transform(.identity).settingComponent(path("rotation"), to: .size(Size(1, 1))) == nil)
    }

    @Test func writingRotationOnTheIdentityGivesThatRotation() throws {
        for a in [0.3, -0.3, .pi / 2, .pi, 3 * .pi / 2, 2 * .pi, -5.0] {
            #expect(near(write(.identity, "rotation.z", a), rz(a), 1e-12), "rotation.z = \(a)")
            #expect(near(write(.identity, "rotation", a), rz(a), 1e-12), "rotation = \(a)")
            #expect(near(write(.identity, "rotation.x", a), rx(a), 1e-12), "rotation.x = \(a)")
            #expect(near(write(.identity, "rotation.y", a), ry(a), 1e-12), "rotation.y = \(a)")
        }
        #expect(near(read(write(.identity, "rotation.z", 3 * .pi / 2), "rotation.z"), -.pi / 2))
        #expect(near(write(.identity, "rotation.z", 2 * .pi), .identity, 1e-12))
    }

    @Test func byValueStyleRotationWrites() throws {
        var t = Transform3D.identity
        var seen: [Double] = []
        for _ in 0..<3 {
            let current = read(t, "rotation.z")
            t = write(t, "rotation.z", current + .pi / 2)
            seen.append(read(t, "rotation.z"))
        }
        #expect(near(seen[0], .pi / 2))
        #expect(near(abs(seen[1]), .pi))
        #expect(near(seen[2], -.pi / 2))
        #expect(near(read(t, "rotation"), seen[2]), "rotation is rotation.z")
    }

    @Test func rotationWritesKeepTheOtherParts() throws {
        let m = Transform3D.scale(2, 3).concatenating(rz(0.3)).concatenating(.translation(10, 20, 0))
        let t = write(m, "rotation.z", 1.0)
        #expect(near(t, Transform3D.scale(2, 3).concatenating(rz(1)).concatenating(.translation(10, 20, 0))))
        let y = write(.identity, "rotation.y", 2.0)
        #expect(near(read(y, "rotation.y"), 2), "beyond π/2 reads back")
        let p = write(perspective(500).translated(0, 0, 100), "rotation.y", 0.5)
        #expect(near(p, ry(0.5).concatenating(.translation(0, 0, 100)).concatenating(perspective(500))))
    }

    @Test func scaleKeyPaths() throws {
        let m = Transform3D.scale(1, 2, 3).concatenating(rz(0.3))
        #expect(near(read(m, "scale"), 2), "the mean of the three")
        #expect(near(read(m, "scale.x"), 1) && near(read(m, "scale.z"), 3))
        let s = write(m, "scale", 2)
        #expect(near(s, Transform3D.scale(2, 2, 2).concatenating(rz(0.3))))
        let sx = write(m, "scale.x", 4)
        #expect(near(sx, Transform3D.scale(4, 2, 3).concatenating(rz(0.3))))
        #expect(near(read(sx, "rotation.z"), 0.3))
    }

    @Test func translationKeyPaths() throws {
        let m = rz(0.5).concatenating(.translation(1, 2, 3))
        #expect(Value.transform(m).component(path("translation")) == .size(Size(1, 2)))
        #expect(read(m, "translation.z") == 3)
        let t = write(m, "translation", .size(Size(5, 6)))
        #expect(t == rz(0.5).concatenating(.translation(5, 6, 3)), "written exactly")
        let z = write(m, "translation.z", -4)
        #expect(z.m43 == -4 && z.m41 == 1)
        let p = write(perspective(500), "translation.z", 100)
        #expect(near(p, perspective(500).translated(0, 0, 100)), "translation is applied before perspective")
    }

    @Test func singularTransformKeyPaths() throws {
        let m = Transform3D.scale(0, 1, 1).concatenating(.translation(4, 5, 0))
        #expect(read(m, "rotation.z") == 0 && read(m, "rotation.x") == 0)
        #expect(Value.transform(m).component(path("translation")) == .size(Size(4, 5)))
        #expect(read(m, "scale.x") == 0 && read(m, "scale.y") == 1)
        #expect(near(read(m, "scale"), 2.0 / 3))
        #expect(write(m, "scale.x", 2) == Transform3D.scale(2, 1, 1).concatenating(.translation(4, 5, 0)))
        #expect(write(m, "translation.x", 7).m41 == 7)
        // A single zero row recovers its direction from the other two.
        let turned = Transform3D.scale(0, 1, 1).concatenating(rz(0.7))
        #expect(near(write(turned, "scale.x", 1), rz(0.7)))
        // A rotation write keeps the per-axis scale.
        let flat = Transform3D.scale(0, 2, 1)
        #expect(near(write(flat, "rotation.z", .pi / 2), Transform3D.scale(0, 2, 1).concatenating(rz(.pi / 2))))
        #expect(near(write(.scale(0, 0, 0), "scale", 1), .identity))
    }
}
