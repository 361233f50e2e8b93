import Testing
@testable import Caluna

// True 3D (spec ch.5 §1.5–1.11): the layer → superlayer map with anchorPointZ
// and sublayerTransform, projective rendering with near-plane clipping, depth
// order, back-face culling, transform layers and hit testing through 3D.

private func perspective(_ d: Double) -> Transform3D {
    var t = Transform3D.identity
    t.m34 = -1 / d
    return t
}

private func canvas(_ w: Double, _ h: Double, _ color: Color = uiWhite) throws -> Engine {
    let e = try Engine(size: Size(w, h))
    e.withoutActions { e.root.backgroundColor = color }
    return e
}

@Test func anchorPointZIsThePivotsDepth() throws {
    // M_L = T(−anchor) · transform · T(position, zPosition): with identity
    // transform a layer whose pivot lies at z = −50 sits at z = +50.
    let l = Layer()
    l.bounds = Rect(0, 0, 100, 100)
    l.position = Point(0, 0)
    l.anchorPointZ = -50
    l.zPosition = 10
    #expect(near(l.geometryTransform, Transform3D.translation(-50, -50, 60)))
    // Rotated 90° about y, the pivot (50, 50, −50) stays at (position,
    // zPosition) and the layer's plane turns about it: its centre (z = 0,
    // 50 in front of the pivot) swings to x = +50, z = zPosition.
    l.transform = Transform3D.rotation(.pi / 2, 0, 1, 0)
    let m = l.geometryTransform
    func place(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double) {
        (x * m.m11 + y * m.m21 + z * m.m31 + m.m41, x * m.m13 + y * m.m23 + z * m.m33 + m.m43)
    }
    let pivot = place(50, 50, -50), centre = place(50, 50, 0)
    #expect(near(pivot.0, 0) && near(pivot.1, 10))
    #expect(near(centre.0, 50) && near(centre.1, 10))
}

@Test func sublayerTransformPivotsAboutTheAnchor() throws {
    let c = Layer()
    c.bounds = Rect(0, 0, 400, 200)
    c.sublayerTransform = perspective(500)
    let s = c.sublayerSpaceTransform
    // The anchor (200, 100) is the vanishing point: it maps to itself and a
    // point at depth z = −500 halfway to it.
    let p = s.planeProjection.apply(Point(200, 100))
    #expect(near(p, Point(200, 100)))
    let x0 = 0.0, z = -500.0
    let w = z * s.m34 + s.m44
    let xp = (x0 * s.m11 + z * s.m31 + s.m41) / w
    #expect(near(xp, 100))
}

@Test func listing55RendersTheProjectedQuad() throws {
    let e = try canvas(400, 400)
    let l = try addLayer(e, to: e.root, frame: Rect(100, 100, 200, 200), color: uiRed)
    l.transform = perspective(500).rotated(.pi / 4, 0, 1, 0)
    // Spec T5.5: (117.64,83.53) (261.95,112.39) (261.95,287.61) (117.64,316.47).
    let q = Rect(0, 0, 200, 200).corners.map { l.toCanvas.apply($0)! }
    let expected = [Point(117.64, 83.53), Point(261.95, 112.39), Point(261.95, 287.61), Point(117.64, 316.47)]
    for (a, b) in zip(q, expected) { #expect(near(a, b, 0.01)) }
    let img = try e.render()
    #expect(px(img, 122, 90).matches(.red))
    #expect(px(img, 258, 116).matches(.red))
    #expect(px(img, 258, 108).matches(.white))
    #expect(px(img, 122, 80).matches(.white))
}

@Test func projectedContentIsWarpedPerspectiveCorrectly() throws {
    // A layer with sublayers takes the offscreen + pixman path: its left half
    // (red) and right half (blue) keep their places under perspective, and the
    // seam follows the projected midline (x of the projected centre line).
    let e = try canvas(400, 400)
    let l = try addLayer(e, to: e.root, frame: Rect(100, 100, 200, 200))
    try addLayer(e, to: l, frame: Rect(0, 0, 100, 200), color: uiRed)
    try addLayer(e, to: l, frame: Rect(100, 0, 100, 200), color: Color(r8: 0, g8: 0, b8: 255))
    l.transform = perspective(500).rotated(.pi / 4, 0, 1, 0)
    let seam = l.toCanvas.apply(Point(100, 100))!.x
    let img = try e.render()
    #expect(px(img, Int(seam) - 4, 200).matches(.red))
    #expect(px(img, Int(seam) + 4, 200).matches(.blue))
    // Perspective-correct: the seam is not the quad's horizontal midpoint.
    #expect(abs(seam - (117.64 + 261.95) / 2) > 5)
    #expect(px(img, 122, 90).matches(.red))
    #expect(px(img, 258, 116).matches(.blue))
}

@Test func geometryBehindTheViewerIsClippedNotMirrored() throws {
    // A floor tilted so that its near part passes behind the eye (w ≤ 0).
    let e = try canvas(200, 200)
    let c = try addLayer(e, to: e.root, frame: Rect(0, 0, 200, 200))
    c.sublayerTransform = perspective(100)
    let floor = try addLayer(e, to: c, frame: Rect(50, 50, 100, 100), color: uiRed)
    floor.transform = Transform3D.rotation(.pi / 2.5, 1, 0, 0)
    floor.bounds = Rect(0, 0, 100, 1000)
    let clipped = ProjectiveClipping.project(floor.bounds.corners, through: floor.toCanvas)
    #expect(clipped.cutByNearPlane)
    let img = try e.render()
    // The upper, far part is drawn; nothing mirrored appears above the horizon.
    #expect(px(img, 100, 90).matches(.red))
    #expect(px(img, 100, 2).matches(.white))
    #expect(px(img, 2, 2).matches(.white))
}

@Test func nearPlaneClippingKeepsOnlyTheVisibleSide() {
    // w = 1 − x/100: the half x > 100 is behind the eye.
    let m = PlaneProjection(m11: 1, m12: 0, m14: -0.01, m21: 0, m22: 1, m24: 0, m41: 0, m42: 0, m44: 1)
    let r = ProjectiveClipping.project(Rect(0, 0, 200, 10).corners, through: m)
    #expect(r.cutByNearPlane)
    #expect(r.points.allSatisfy { $0.x >= 0 && $0.x.isFinite })
    let inViewport = ProjectiveClipping.project(Rect(0, 0, 200, 10).corners, through: m, within: Rect(0, 0, 500, 500))
    #expect(inViewport.points.allSatisfy { $0.x <= 500 + 1e-6 })
    #expect(ProjectiveClipping.project(Rect(150, 0, 10, 10).corners, through: m).points.isEmpty)
    #expect(ProjectiveClipping.signedArea(Rect(0, 0, 2, 3).corners) == 12)
}

/// Listing 5.9's six face transforms for a cube of half-size `r` (rotate
/// first, then translate: row-vector order).
private func cubeFaces(_ r: Double) -> [Transform3D] {
    [Transform3D.translation(0, 0, r),
     Transform3D.translation(r, 0, 0).rotated(.pi / 2, 0, 1, 0),
     Transform3D.translation(0, -r, 0).rotated(.pi / 2, 1, 0, 0),
     Transform3D.translation(0, r, 0).rotated(-.pi / 2, 1, 0, 0),
     Transform3D.translation(-r, 0, 0).rotated(-.pi / 2, 0, 1, 0),
     Transform3D.translation(0, 0, -r).rotated(.pi, 0, 1, 0)]
}

/// Listing 5.9's cube in a 400×400 container with the camera turned.
private func cube(doubleSided: Bool, camera: Bool) throws -> (Engine, Layer, [Layer]) {
    let e = try canvas(400, 400, .black)
    let c = try addLayer(e, to: e.root, frame: Rect(0, 0, 400, 400))
    var p = perspective(500)
    if camera { p = p.rotated(-.pi / 4, 1, 0, 0).rotated(-.pi / 4, 0, 1, 0) }
    c.sublayerTransform = p
    var faces: [Layer] = []
    for (i, t) in cubeFaces(100).enumerated() {
        let f = try addLayer(e, to: c, frame: Rect(100, 100, 200, 200), color: faceColors[i])
        f.transform = t
        f.doubleSided = doubleSided
        faces.append(f)
    }
    return (e, c, faces)
}

private let faceColors = [Color(r8: 255, g8: 0, b8: 0), Color(r8: 0, g8: 255, b8: 0), Color(r8: 0, g8: 0, b8: 255),
                          Color(r8: 255, g8: 255, b8: 0), Color(r8: 0, g8: 255, b8: 255), Color(r8: 255, g8: 0, b8: 255)]
private let faceRGBA = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255), RGBA(255, 255, 0), RGBA(0, 255, 255), RGBA(255, 0, 255)]

@Test(arguments: [true, false]) func cubeFacesAreDepthSortedAndCulled(doubleSided: Bool) throws {
    let (front, _, _) = try cube(doubleSided: doubleSided, camera: false)
    let a = try front.render()
    // T5.9a: face 1 covers [75, 325]²; the back face never shows through.
    #expect(px(a, 80, 80).matches(faceRGBA[0]) && px(a, 320, 320).matches(faceRGBA[0]) && px(a, 200, 200).matches(faceRGBA[0]))
    #expect(px(a, 70, 200).matches(.black) && px(a, 330, 200).matches(.black))
    let (turned, _, faces) = try cube(doubleSided: doubleSided, camera: true)
    let b = try turned.render()
    // T5.9b.
    #expect(px(b, 200, 130).matches(faceRGBA[2]))
    #expect(px(b, 128, 251).matches(faceRGBA[0]))
    #expect(px(b, 272, 251).matches(faceRGBA[1]))
    #expect(px(b, 20, 20).matches(.black) && px(b, 200, 30).matches(.black))
    for y in stride(from: 0, to: 400, by: 2) {
        for x in stride(from: 0, to: 400, by: 2) {
            let p = px(b, x, y)
            for hidden in 3..<6 where p.matches(faceRGBA[hidden], tol: 8) {
                Issue.record("back face \(hidden + 1) shows at (\(x), \(y))")
                return
            }
        }
    }
    // T5.9c: hit testing follows array order, culled faces included.
    #expect(turned.root.hitTest(Point(250, 130)) === faces[5])
    #expect(turned.root.hitTest(Point(150, 130)) === faces[4])
    #expect(turned.root.hitTest(Point(128, 251)) === faces[3])
}

@Test func transformLayerDoesNotFlattenAndIgnoresItsOwnAppearance() throws {
    // T5.8b: opposite y rotations cancel through a transform layer (width
    // 100), not through a plain layer (width 100·cos²45° = 50).
    func innerWidth(_ kind: LayerKind) throws -> Double {
        let e = try canvas(400, 400)
        let outer = e.makeLayer(kind: kind)
        e.withoutActions {
            outer.frame = Rect(100, 100, 200, 200)
            outer.transform = Transform3D.rotation(.pi / 4, 0, 1, 0)
            outer.backgroundColor = uiRed
            outer.borderWidth = 5
            outer.masksToBounds = true
        }
        try e.root.addSublayer(outer)
        let inner = try addLayer(e, to: outer, frame: Rect(50, 50, 100, 100), color: Color(r8: 0, g8: 255, b8: 0))
        inner.transform = Transform3D.rotation(-.pi / 4, 0, 1, 0)
        let img = try e.render()
        if kind == .transformLayer {
            // No background or border of its own.
            #expect(px(img, 200, 110).matches(.white))
        }
        var lo = 400, hi = -1
        for x in 0..<400 where px(img, x, 200).matches(.green) { lo = min(lo, x); hi = max(hi, x) }
        #expect(e.root.hitTest(Point(200, 200)) === inner)
        return Double(hi - lo + 1)
    }
    #expect(abs(try innerWidth(.layer) - 50) <= 1)
    #expect(abs(try innerWidth(.transformLayer) - 100) <= 1)
}

@Test func transformLayerOpacityAppliesToEachSublayer() throws {
    // Spec T6.5 extras: R below B at opacity 0.5 over white.
    func overlap(_ kind: LayerKind) throws -> RGBA {
        let e = try canvas(100, 100)
        let t = e.makeLayer(kind: kind)
        e.withoutActions { t.frame = Rect(0, 0, 100, 100); t.opacity = 0.5 }
        try e.root.addSublayer(t)
        try addLayer(e, to: t, frame: Rect(10, 10, 60, 60), color: uiRed)
        try addLayer(e, to: t, frame: Rect(30, 30, 60, 60), color: Color(r8: 0, g8: 0, b8: 255))
        return px(try e.render(), 50, 50)
    }
    #expect(try overlap(.transformLayer).matches(RGBA(128, 64, 191), tol: 2))
    #expect(try overlap(.layer).matches(RGBA(128, 128, 255), tol: 2))
}

@Test func hitTestingThroughPerspectiveMissesBehindTheEye() throws {
    let e = try canvas(400, 400)
    let l = try addLayer(e, to: e.root, frame: Rect(100, 100, 200, 200), color: uiRed)
    l.transform = perspective(500).rotated(.pi / 4, 0, 1, 0)
    #expect(e.root.hitTest(Point(122, 90)) === l)
    #expect(e.root.hitTest(Point(258, 108)) === e.root)
    // The inverse homography: the canvas point of a local point maps back to it.
    let local = try l.convert(Point(160, 40), to: e.root)
    #expect(near(try l.convert(local, from: e.root), Point(160, 40), 1e-9))
    // A layer tilted past the eye: canvas points whose preimage lies behind
    // the viewer are not hits.
    let tilted = try addLayer(e, to: e.root, frame: Rect(0, 0, 400, 400), color: uiRed)
    tilted.transform = perspective(50).rotated(.pi / 2.2, 0, 1, 0)
    let far = Point(5, 200)
    if let hit = e.root.hitTest(far), hit === tilted {
        let p = try tilted.convert(far, from: e.root)
        #expect(tilted.toCanvas.apply(p) != nil)
    }
}

@Test func hostileTransformsRenderWithoutHarm() throws {
    let e = try canvas(64, 64)
    let c = try addLayer(e, to: e.root, frame: Rect(0, 0, 64, 64))
    let l = try addLayer(e, to: c, frame: Rect(16, 16, 32, 32), color: uiRed)
    try addLayer(e, to: l, frame: Rect(0, 0, 8, 8), color: uiWhite)
    let hostile: [Transform3D] = [
        Transform3D(elements: Array(repeating: 0, count: 16))!,
        { var t = Transform3D.identity; t.m34 = 1e6; return t }(),
        { var t = Transform3D.identity; t.m34 = -1e6; return t }(),
        { var t = Transform3D.identity; t.m44 = 0; return t }(),
        { var t = Transform3D.identity; t.m14 = 1e-3; t.m24 = -1e-3; t.m44 = 1e-12; return t }(),
        Transform3D.scale(1e12, 1e-12, 1),
        perspective(1e-9).rotated(1, 1, 1, 0),
    ]
    for t in hostile {
        e.withoutActions { l.transform = t }
        _ = try e.render()
        e.withoutActions { c.sublayerTransform = t }
        _ = try e.render()
        e.withoutActions { c.sublayerTransform = .identity }
    }
    e.withoutActions { l.transform = .identity }
    #expect(px(try e.render(), 40, 40).matches(.red))
}

@Test func offCentreCubeIsOrderedByPlanesNotCentres() throws {
    // T6.5's cube 1, left of the vanishing point: its right face (2) and
    // top face (3) have centres at the same depth, yet face 2 hides face 3
    // where they overlap. Newell's plane test orders them (DepthOrder.swift).
    let e = try canvas(400, 400, .black)
    let c = try addLayer(e, to: e.root, frame: Rect(0, 0, 400, 400))
    c.sublayerTransform = perspective(500)
    let cube = e.makeLayer(kind: .transformLayer)
    e.withoutActions {
        cube.position = Point(200, 200)
        cube.transform = Transform3D.translation(-100, 0, 0)
    }
    try c.addSublayer(cube)
    for (i, t) in cubeFaces(50).enumerated() {
        let f = try addLayer(e, to: cube, frame: Rect(-50, -50, 100, 100), color: faceColors[i])
        f.transform = t
    }
    let img = try e.render()
    #expect(px(img, 90, 200).matches(faceRGBA[0]))
    #expect(px(img, 149, 200).matches(faceRGBA[1]), "the right face's sliver")
    // The top face (seen from below, its back) overlaps the sliver's top and
    // comes later in sublayer order; its centre is as deep as the sliver's.
    #expect(px(img, 146, 151).matches(faceRGBA[1]), "the sliver stays in front of the top face's back")
    #expect(px(img, 200, 200).matches(.black))
}

/// G2: the layers of a 3D context that land outside the view are dropped
/// before drawing (not drawn, not counted), and the picture is the one drawn
/// without them; a layer outside whose shadow reaches in is kept.
@Test func offscreenLayersOfA3DContextAreNotDrawn() throws {
    func scene(outside: Bool, shadowReaching: Bool) throws -> Engine {
        let e = try Engine(size: Size(200, 100))
        try e.setRenderThreads(1)
        let c = e.makeLayer()
        c.frame = Rect(0, 0, 200, 100)
        c.sublayerTransform = perspective(500)
        try e.root.addSublayer(c)
        var xs: [Double] = [20, 60, 100, 140]
        if outside { xs += [2000, 3000, -2000, 5000] }
        for x in xs {
            let l = e.makeLayer()
            l.frame = Rect(x, 40, 20, 20)
            l.zPosition = -100
            l.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
            try c.addSublayer(l)
        }
        if shadowReaching {
            let l = e.makeLayer()
            l.frame = Rect(260, 40, 20, 20)
            l.backgroundColor = .black
            l.shadowOpacity = 1
            l.shadowOffset = Size(-120, 0)
            l.shadowRadius = 0
            try c.addSublayer(l)
        }
        try e.step(0)
        return e
    }
    let all = try scene(outside: true, shadowReaching: false), onlyInside = try scene(outside: false, shadowReaching: false)
    let a = try all.render(), b = try onlyInside.render()
    #expect(all.stats.layersDrawn == 4, "the four layers in view, nothing else: \(all.stats.layersDrawn)")
    let same = bytes(of: a) == bytes(of: b)
    #expect(same, "dropping the layers out of view changes no pixel")
    let shadowed = try scene(outside: true, shadowReaching: true)
    _ = try shadowed.render()
    #expect(shadowed.stats.layersDrawn == 5, "a layer out of view whose shadow reaches in is kept")
}
