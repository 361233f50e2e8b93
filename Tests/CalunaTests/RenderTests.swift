import Testing
@testable import Caluna

// Rendering (spec §1.11, §2 listings, F16, F40, F44, F45, §1.10; DESIGN §4
// "Pixels": premultiplied ARGB32, host formats, determinism).

@Test func listing11Pixels() throws {
    let s = try Listing11()
    let image = try s.engine.render()
    #expect(image.width == 300 && image.height == 300)
    let expected: [(Int, Int, RGBA)] = [
        (20, 20, .lightGray), (75, 75, .white), (150, 150, .blue), (103, 103, .blue),
        (97, 97, .white), (197, 197, .blue), (203, 203, .white), (260, 260, .lightGray),
    ]
    for (x, y, c) in expected {
        #expect(px(image, x, y).matches(c), "(\(x), \(y)) is \(px(image, x, y)), expected \(c)")
    }
}

@Test func childrenMoveWithTheirParentOnScreen() throws {
    // F42: move L by (+30, +20); B's pixels follow.
    let s = try Listing11()
    s.L.position = s.L.position + Point(30, 20)
    let image = try s.engine.render()
    #expect(px(image, 103 + 30, 103 + 20).matches(.blue))
    #expect(px(image, 197 + 30, 197 + 20).matches(.blue))
    #expect(px(image, 97 + 30, 97 + 20).matches(.white))
    #expect(px(image, 110, 110).matches(.white), "B left (100…200, 100…200)")
}

@Test func scale2DoublesThePixels() throws {
    // F16
    let e = try Engine(size: Size(100, 100), scale: 2)
    e.root.backgroundColor = uiWhite
    try addLayer(e, to: e.root, frame: Rect(10, 0, 1, 100), color: uiRed)
    let image = try e.render()
    #expect(image.width == 200 && image.height == 200)
    #expect(px(image, 20, 50).matches(.red) && px(image, 21, 50).matches(.red))
    #expect(px(image, 19, 50).matches(.white) && px(image, 22, 50).matches(.white))
}

@Test func originIsTopLeft() throws {
    // F44
    let e = try Engine(size: Size(20, 20))
    e.root.backgroundColor = uiWhite
    try addLayer(e, to: e.root, frame: Rect(0, 0, 10, 10), color: uiRed)
    let image = try e.render()
    for y in 0..<10 { #expect(px(image, 5, y).matches(.red, tol: 0), "row \(y)") }
    #expect(px(image, 5, 10).matches(.white, tol: 0))
    #expect(px(image, 9, 0).matches(.red, tol: 0) && px(image, 10, 0).matches(.white, tol: 0))
}

@Test func anchorZeroDrawsDownRightOfPosition() throws {
    // F40
    let e = try Engine(size: Size(300, 300))
    e.root.backgroundColor = uiWhite
    let l = e.makeLayer()
    l.bounds = Rect(0, 0, 100, 100)
    l.position = Point(100, 100)
    l.anchorPoint = Point(0, 0)
    l.backgroundColor = uiRed
    try e.root.addSublayer(l)
    let image = try e.render()
    #expect(px(image, 150, 150).matches(.red))
    #expect(px(image, 60, 60).matches(.white))
    #expect(px(image, 195, 195).matches(.red))
}

/// Listing 3.3: container 200×200 white; green (20,20,100,100) then red (80,80,100,100).
private func listing33() throws -> (Engine, green: Layer, red: Layer) {
    let e = try Engine(size: Size(200, 200))
    let container = try addLayer(e, to: e.root, frame: Rect(0, 0, 200, 200), color: uiWhite)
    let green = try addLayer(e, to: container, frame: Rect(20, 20, 100, 100), color: uiGreen, name: "green")
    let red = try addLayer(e, to: container, frame: Rect(80, 80, 100, 100), color: uiRed, name: "red")
    return (e, green, red)
}

@Test func listing33ZPositionBringsGreenToTheFront() throws {
    let (e, green, _) = try listing33()
    var image = try e.render()
    #expect(px(image, 100, 100).matches(.red), "F48: later sibling on top")
    // Changes after the first commit would animate (implicit actions): jump.
    e.transaction.disableActions = true
    green.zPosition = 1
    image = try e.render()
    #expect(px(image, 100, 100).matches(.green))
    #expect(px(image, 50, 50).matches(.green))
    #expect(px(image, 150, 150).matches(.red))
    e.withoutActions { green.zPosition = 0.0001 }
    image = try e.render()
    #expect(px(image, 100, 100).matches(.green), "F50")
}

@Test func listing33NegativeZSendsRedBack() throws {
    let (e, _, red) = try listing33()
    red.zPosition = -1
    let image = try e.render()
    #expect(px(image, 100, 100).matches(.green))
    #expect(px(image, 150, 150).matches(.red))
}

@Test func geometryFlippedPixels() throws {
    // F45
    let e = try Engine(size: Size(300, 300))
    e.root.backgroundColor = uiWhite
    let p = try addLayer(e, to: e.root, frame: Rect(0, 0, 200, 200))
    p.geometryFlipped = true
    let c = try addLayer(e, to: p, frame: Rect(0, 0, 50, 50), color: uiRed)
    try addLayer(e, to: c, frame: Rect(0, 0, 10, 10), color: uiGreen)
    var image = try e.render()
    #expect(px(image, 25, 175).matches(.red))
    #expect(!px(image, 25, 25).matches(.red))
    #expect(px(image, 5, 195).matches(.green))
    c.geometryFlipped = true
    image = try e.render()
    #expect(px(image, 5, 155).matches(.green))
    #expect(px(image, 5, 195).matches(.red))
}

// MARK: opacity (spec §1.10, D4)

/// White root; a black 80×80 parent at `opacity` 0.5 holding an opaque black
/// 40×40 child at parent-local (20,20). Returns (overlap, parent-only) pixels.
private func groupOpacityScene(allowsGroupOpacity: Bool) throws -> (RGBA, RGBA) {
    let e = try Engine(size: Size(100, 100))
    e.root.backgroundColor = uiWhite
    let parent = try addLayer(e, to: e.root, frame: Rect(10, 10, 80, 80), color: uiBlack)
    parent.opacity = 0.5
    parent.allowsGroupOpacity = allowsGroupOpacity
    try addLayer(e, to: parent, frame: Rect(20, 20, 40, 40), color: uiBlack)
    let image = try e.render()
    return (px(image, 50, 50), px(image, 15, 15))
}

@Test func groupOpacityBlendsTheSubtreeOnce() throws {
    // The single-layer reference: one black layer at 50% over white.
    let ref = try Engine(size: Size(100, 100))
    ref.root.backgroundColor = uiWhite
    try addLayer(ref, to: ref.root, frame: Rect(10, 10, 80, 80), color: uiBlack).opacity = 0.5
    let single = px(try ref.render(), 50, 50)
    #expect(single.matches(RGBA(128, 128, 128), tol: 1))

    let (overlap, parentOnly) = try groupOpacityScene(allowsGroupOpacity: true)
    #expect(overlap.matches(single, tol: 1), "group opacity: the overlap is one 50% blend")
    #expect(parentOnly.matches(single, tol: 1))
}

@Test func withoutGroupOpacityTheOverlapShowsThe75PercentArtifact() throws {
    let (overlap, parentOnly) = try groupOpacityScene(allowsGroupOpacity: false)
    // 50% child + 25% parent + 25% white background: 255 · 0.25 ≈ 64.
    #expect(overlap.matches(RGBA(64, 64, 64), tol: 2))
    #expect(parentOnly.matches(RGBA(128, 128, 128), tol: 1))
}

@Test func hiddenAndTransparentLayersDoNotDraw() throws {
    let s = try Listing11()
    s.B.hidden = true
    var image = try s.engine.render()
    #expect(px(image, 150, 150).matches(.white))
    // Changes after the first commit would animate (implicit actions): jump.
    s.engine.withoutActions {
        s.B.hidden = false
        s.L.hidden = true
    }
    image = try s.engine.render()
    #expect(px(image, 150, 150).matches(.lightGray), "hiding L hides B too")
    #expect(px(image, 75, 75).matches(.lightGray))
    s.engine.withoutActions {
        s.L.hidden = false
        s.L.opacity = 0
    }
    image = try s.engine.render()
    #expect(px(image, 150, 150).matches(.lightGray))
}

@Test func masksToBoundsClipsSublayers() throws {
    let e = try Engine(size: Size(300, 300))
    e.root.backgroundColor = uiLightGray
    let parent = try addLayer(e, to: e.root, frame: Rect(50, 50, 100, 100), color: uiWhite)
    try addLayer(e, to: parent, frame: Rect(50, 50, 100, 100), color: uiRed)
    var image = try e.render()
    #expect(px(image, 175, 175).matches(.red), "F13: no clipping by default")
    e.withoutActions { parent.masksToBounds = true }
    image = try e.render()
    #expect(px(image, 175, 175).matches(.lightGray))
    #expect(px(image, 125, 125).matches(.red))
    #expect(px(image, 75, 75).matches(.white))
}

// MARK: bytes

private func busyScene() throws -> Engine {
    let e = try Engine(size: Size(120, 90), scale: 1.5)
    e.root.backgroundColor = Color(r8: 12, g8: 34, b8: 56)
    let a = try addLayer(e, to: e.root, frame: Rect(10, 10, 60, 40), color: Color(r8: 200, g8: 100, b8: 50, a8: 180))
    a.affineTransform = .rotation(.pi / 7)
    a.opacity = 0.7
    let b = try addLayer(e, to: a, frame: Rect(20, 5, 50, 50), color: uiGreen)
    b.affineTransform = AffineTransform.scale(0.8, 1.3).concatenating(.rotation(-0.4))
    try addLayer(e, to: e.root, frame: Rect(60.3, 40.7, 33.3, 21.9), color: uiBlue).zPosition = -1
    return e
}

@Test func renderingIsDeterministic() throws {
    let e = try busyScene()
    let first = bytes(of: try e.render())
    let second = bytes(of: try e.render())
    #expect(first == second)
    #expect(bytes(of: try busyScene().render()) == first, "a rebuilt scene gives the same bytes")
    #expect(first.contains { $0 != first[0] }, "the picture is not blank")
}

/// A 4×2 transparent output whose left 2×2 pixels are red at 50% alpha.
private func halfRedImage() throws -> Image {
    let e = try Engine(size: Size(4, 2))
    try addLayer(e, to: e.root, frame: Rect(0, 0, 2, 2), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    return try e.render()
}

@Test func pixelFormatsOfAHalfTransparentRed() throws {
    let image = try halfRedImage()
    let stride = image.width * 4 + 8   // padded rows
    func copy(_ f: PixelFormat) -> [UInt8] {
        var buf = [UInt8](repeating: 0xEE, count: stride * image.height)
        buf.withUnsafeMutableBytes { image.copy(into: $0.baseAddress!, stride: stride, format: f) }
        for row in 0..<image.height {
            #expect(buf[(row * stride + image.width * 4)..<((row + 1) * stride)].allSatisfy { $0 == 0xEE },
                    "\(f): row padding untouched")
        }
        #expect(Array(buf[(stride + 12)..<(stride + 16)]) == [0, 0, 0, 0], "\(f): uncovered pixel is clear")
        return Array(buf[0..<4])
    }
    let straight = try #require(image.pixel(x: 0, y: 0))
    let a = straight.a
    #expect(a == 127 || a == 128)
    #expect(straight.r == 255 && straight.g == 0 && straight.b == 0)
    #expect(copy(.rgba8Premultiplied) == [a, 0, 0, a])
    #expect(copy(.bgra8Premultiplied) == [0, 0, a, a])
    #expect(copy(.rgba8Straight) == [255, 0, 0, a])
    #expect(copy(.bgra8Straight) == [0, 0, 255, a])
}

