import Testing
@testable import Caluna
import CalunaBridge
@testable import CalunaLua
import CLua

// The drawing context of layer draw callbacks (Core Graphics' CGContext over
// cairo). Pixels are read away from antialiased edges.

/// A transparent w×h-point context at `scale`, and its bitmap.
private func canvas(_ w: Int, _ h: Int, scale: Int = 1) throws -> (DrawingContext, Image) {
    let image = try Image(width: w * scale, height: h * scale)
    return (DrawingContext(image: image, scale: Double(scale)), image)
}

// `red` and `blue` (Color) come from AnimationTestSupport.swift.

@Test func fillRectAtScale1And2() throws {
    let (c1, i1) = try canvas(100, 100)
    try c1.setFillColor(red)
    try c1.fillRect(Rect(10, 20, 30, 40))
    #expect(px(i1, 10, 20).matches(.red, tol: 0) && px(i1, 39, 59).matches(.red, tol: 0))
    #expect(px(i1, 9, 30).matches(.clear, tol: 0) && px(i1, 40, 30).matches(.clear, tol: 0) && px(i1, 20, 60).matches(.clear, tol: 0))

    let (c2, i2) = try canvas(100, 100, scale: 2)
    try c2.fillRect(Rect(10, 20, 30, 40))   // default fill: black
    #expect(px(i2, 20, 40).matches(.black, tol: 0) && px(i2, 79, 119).matches(.black, tol: 0))
    #expect(px(i2, 19, 50).matches(.clear, tol: 0) && px(i2, 80, 50).matches(.clear, tol: 0))
}

@Test func strokeEllipseLikeListing25() throws {
    // Book listing 2.5: a 10-point red circle stroked on a 100×100 layer's bounds.
    let (c, img) = try canvas(100, 100)
    try c.setLineWidth(10)
    try c.setStrokeColor(red)
    try c.strokeEllipse(in: Rect(0, 0, 100, 100))
    #expect(px(img, 50, 2).matches(.red))
    #expect(px(img, 50, 8).matches(.clear, tol: 0))
    #expect(px(img, 50, 50).matches(.clear, tol: 0))
    #expect(px(img, 97, 50).matches(.red))
}

@Test func lineCapsAndJoins() throws {
    func line(cap: String) throws -> Image {
        let (c, img) = try canvas(100, 100)
        try c.setLineWidth(10)
        try c.setLineCap(cap)
        try c.move(to: Point(20, 50))
        try c.addLine(to: Point(80, 50))
        try c.strokePath()
        return img
    }
    let butt = try line(cap: "butt"), round = try line(cap: "round"), square = try line(cap: "square")
    #expect(px(butt, 50, 50).matches(.black) && px(butt, 82, 50).matches(.clear, tol: 0))
    #expect(px(round, 82, 50).matches(.black) && px(round, 84, 46).matches(.clear, tol: 0))
    #expect(px(square, 84, 46).matches(.black) && px(square, 86, 50).matches(.clear, tol: 0))

    func corner(join: String) throws -> Image {
        let (c, img) = try canvas(100, 100)
        try c.setLineWidth(20)
        try c.setLineJoin(join)
        try c.move(to: Point(20, 20)); try c.addLine(to: Point(80, 20)); try c.addLine(to: Point(80, 80))
        try c.strokePath()
        return img
    }
    // The outer corner (≈ 88, 11) is inside a miter only.
    #expect(try px(corner(join: "miter"), 88, 11).matches(.black))
    #expect(try px(corner(join: "round"), 88, 11).matches(.clear, tol: 0))
    #expect(try px(corner(join: "bevel"), 88, 11).matches(.clear, tol: 0))
}

@Test func zeroWidthStrokesAHairline() throws {
    let (c, img) = try canvas(50, 50, scale: 2)
    try c.setLineWidth(0)
    try c.move(to: Point(0, 10.25)); try c.addLine(to: Point(50, 10.25))   // device row 20
    try c.strokePath()
    #expect(px(img, 50, 20).matches(.black, tol: 0))
    #expect(px(img, 50, 19).matches(.clear, tol: 0) && px(img, 50, 21).matches(.clear, tol: 0))
}

@Test func equalLocationsMakeAHardEdge() throws {
    let (c, img) = try canvas(100, 10)
    try c.drawLinearGradient(colors: [red, red, blue, blue], locations: [0, 0.5, 0.5, 1], start: .zero, end: Point(100, 0),
                             drawsBeforeStart: false, drawsAfterEnd: false)
    #expect(px(img, 45, 5).matches(.red, tol: 0) && px(img, 55, 5).matches(.blue, tol: 0))
}

@Test func dashesAndPhase() throws {
    func dashed(phase: Double) throws -> Image {
        let (c, img) = try canvas(100, 20)
        try c.setLineWidth(4)
        try c.setLineDash(phase: phase, lengths: [10, 10])
        try c.move(to: Point(0, 10)); try c.addLine(to: Point(100, 10))
        try c.strokePath()
        return img
    }
    let a = try dashed(phase: 0), b = try dashed(phase: 10)
    #expect(px(a, 5, 10).matches(.black) && px(a, 15, 10).matches(.clear, tol: 0) && px(a, 25, 10).matches(.black))
    #expect(px(b, 5, 10).matches(.clear, tol: 0) && px(b, 15, 10).matches(.black))
    // An empty array is solid again.
    let (c, img) = try canvas(100, 20)
    try c.setLineDash(phase: 0, lengths: [10, 10])
    try c.setLineDash(phase: 0, lengths: [])
    try c.setLineWidth(4)
    try c.move(to: Point(0, 10)); try c.addLine(to: Point(100, 10)); try c.strokePath()
    #expect(px(img, 15, 10).matches(.black))
}

@Test func evenOddAndNonZeroFill() throws {
    func nested(evenOdd: Bool) throws -> Image {
        let (c, img) = try canvas(100, 100)
        try c.addRect(Rect(10, 10, 80, 80))
        try c.addRect(Rect(30, 30, 40, 40))   // same direction: winding 2 inside
        try c.fillPath(evenOdd: evenOdd)
        return img
    }
    let nz = try nested(evenOdd: false), eo = try nested(evenOdd: true)
    #expect(px(nz, 50, 50).matches(.black) && px(nz, 20, 20).matches(.black))
    #expect(px(eo, 50, 50).matches(.clear, tol: 0) && px(eo, 20, 20).matches(.black))
}

@Test func paintingConsumesThePath() throws {
    let (c, img) = try canvas(100, 100)
    try c.addRect(Rect(0, 0, 10, 10))
    try c.fillPath()
    try c.setFillColor(red)
    try c.fillPath()   // empty path: nothing
    #expect(px(img, 5, 5).matches(.black, tol: 0))
}

@Test func clipAndSaveRestore() throws {
    let (c, img) = try canvas(100, 100)
    try c.saveGState()
    try c.setFillColor(red)
    try c.setAlpha(0.5)
    try c.clip(to: Rect(0, 0, 50, 100))
    try c.fillRect(Rect(0, 0, 100, 50))
    try c.restoreGState()
    try c.fillRect(Rect(0, 50, 100, 50))   // black, opaque, unclipped again
    #expect(px(img, 25, 25).matches(RGBA(255, 0, 0, 128), tol: 2))
    #expect(px(img, 75, 25).matches(.clear, tol: 0))
    #expect(px(img, 25, 75).matches(.black, tol: 0) && px(img, 75, 75).matches(.black, tol: 0))

    // A path clip, consumed by clip().
    let (d, img2) = try canvas(100, 100)
    try d.addEllipse(in: Rect(0, 0, 100, 100))
    try d.clip()
    try d.fillPath()   // the path is gone: nothing
    try d.fillRect(Rect(0, 0, 100, 100))
    #expect(px(img2, 50, 50).matches(.black, tol: 0) && px(img2, 3, 3).matches(.clear, tol: 0))
}

@Test func transformsMoveTheDrawing() throws {
    let (c, img) = try canvas(100, 100)
    try c.translateBy(x: 50, y: 50)
    try c.rotate(by: .pi / 2)   // clockwise on screen: (x, y) → (−y, x)
    #expect(near(try c.currentTransform.apply(Point(20, 0)), Point(50, 70), derivedTolerance))
    try c.fillRect(Rect(0, 0, 20, 10))   // lands on x 40…50, y 50…70
    #expect(px(img, 45, 60).matches(.black, tol: 0))
    #expect(px(img, 55, 55).matches(.clear, tol: 0) && px(img, 45, 45).matches(.clear, tol: 0))

    let (s, img2) = try canvas(100, 100, scale: 2)
    #expect(try s.currentTransform == .identity)
    try s.scaleBy(x: 2, y: 3)
    try s.concatenate(.translation(5, 0))
    try s.fillRect(Rect(0, 0, 10, 10))   // points x 10…30, y 0…30 → pixels ×2
    #expect(px(img2, 21, 1).matches(.black, tol: 0) && px(img2, 58, 58).matches(.black, tol: 0))
    #expect(px(img2, 18, 10).matches(.clear, tol: 0) && px(img2, 62, 10).matches(.clear, tol: 0))
    #expect(near(try s.currentTransform, AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 0)))
}

@Test func linearGradientEndsMiddleAndExtension() throws {
    let (c, img) = try canvas(100, 10)
    try c.drawLinearGradient(colors: [red, blue], locations: nil, start: Point(0, 0), end: Point(100, 0),
                             drawsBeforeStart: false, drawsAfterEnd: false)
    #expect(px(img, 0, 5).matches(.red, tol: 3) && px(img, 99, 5).matches(.blue, tol: 3))
    let mid = px(img, 50, 5)   // t = 0.505
    #expect(abs(mid.r - 126) <= 2 && abs(mid.b - 129) <= 2 && mid.g == 0 && mid.a == 255, "\(mid)")

    func band(before: Bool, after: Bool) throws -> Image {
        let (c, img) = try canvas(100, 10)
        try c.drawLinearGradient(colors: [red, blue], locations: [0, 1], start: Point(25, 0), end: Point(75, 0),
                                 drawsBeforeStart: before, drawsAfterEnd: after)
        return img
    }
    let none = try band(before: false, after: false)
    #expect(px(none, 10, 5).matches(.clear, tol: 0) && px(none, 90, 5).matches(.clear, tol: 0) && px(none, 50, 5).a == 255)
    let b = try band(before: true, after: false)
    #expect(px(b, 2, 5).matches(.red, tol: 2) && px(b, 90, 5).matches(.clear, tol: 0))
    let a = try band(before: false, after: true)
    #expect(px(a, 10, 5).matches(.clear, tol: 0) && px(a, 97, 5).matches(.blue, tol: 2))
    let both = try band(before: true, after: true)
    #expect(px(both, 2, 5).matches(.red, tol: 2) && px(both, 97, 5).matches(.blue, tol: 2))
    // Stretching for one end must not band the gradient itself.
    #expect(px(b, 50, 5).matches(px(none, 50, 5), tol: 2) && px(a, 50, 5).matches(px(none, 50, 5), tol: 2))
}

@Test func radialGradientCentreAndEdge() throws {
    func disc(after: Bool) throws -> Image {
        let (c, img) = try canvas(100, 100)
        try c.drawRadialGradient(colors: [.white, .black], locations: [0, 1], startCenter: Point(50, 50), startRadius: 0,
                                 endCenter: Point(50, 50), endRadius: 40, drawsBeforeStart: false, drawsAfterEnd: after)
        return img
    }
    let plain = try disc(after: false), padded = try disc(after: true)
    #expect(px(plain, 50, 50).matches(RGBA(251, 251, 251), tol: 4))
    #expect(px(plain, 95, 95).matches(.clear, tol: 0))
    #expect(px(padded, 95, 95).matches(.black, tol: 2) && px(padded, 50, 50).matches(px(plain, 50, 50), tol: 2))
    let ring = px(plain, 70, 50)   // r ≈ 20.5 of 40: about half way
    #expect(abs(ring.r - 124) <= 3, "\(ring)")

    // One end only: inside the start circle (before) or outside the end circle (after).
    func annulus(before: Bool, after: Bool) throws -> Image {
        let (c, img) = try canvas(100, 100)
        try c.drawRadialGradient(colors: [.white, .black], locations: nil, startCenter: Point(50, 50), startRadius: 20,
                                 endCenter: Point(50, 50), endRadius: 40, drawsBeforeStart: before, drawsAfterEnd: after)
        return img
    }
    let inner = try annulus(before: true, after: false), outer = try annulus(before: false, after: true)
    #expect(px(inner, 50, 50).matches(.white, tol: 2) && px(inner, 95, 95).matches(.clear, tol: 0))
    #expect(px(outer, 50, 50).matches(.clear, tol: 0) && px(outer, 95, 95).matches(.black, tol: 2))
    #expect(px(inner, 79, 50).matches(px(outer, 79, 50), tol: 2) && px(inner, 79, 50).a == 255)
}

@Test func drawImageIsUprightAndHonoursAlpha() throws {
    let (p, pic) = try canvas(2, 2)
    try p.setFillColor(red); try p.fillRect(Rect(0, 0, 2, 1))
    try p.setFillColor(blue); try p.fillRect(Rect(0, 1, 2, 1))
    let (c, img) = try canvas(100, 100)
    try c.draw(pic, in: Rect(10, 10, 80, 80))
    #expect(px(img, 50, 12).matches(.red) && px(img, 50, 87).matches(.blue))
    #expect(px(img, 10, 10).matches(.red, tol: 0) && px(img, 9, 50).matches(.clear, tol: 0))
    try c.setAlpha(0.5)
    try c.draw(pic, in: Rect(0, 0, 100, 40))
    #expect(px(img, 50, 50).a == 255 && px(img, 95, 5).matches(RGBA(255, 0, 0, 128), tol: 2))
    #expect(errorCode { try c.draw(img, in: Rect(0, 0, 10, 10)) } == .invalidArgument)
}

@Test func alphaAndClearRect() throws {
    let (c, img) = try canvas(100, 100)
    try c.setAlpha(0.5)
    try c.fillRect(Rect(0, 0, 50, 100))
    #expect(abs(px(img, 25, 50).a - 128) <= 2)
    try c.setAlpha(1)
    try c.setFillColor(red)
    try c.fillRect(Rect(50, 0, 50, 100))
    try c.clearRect(Rect(60, 10, 20, 20))
    #expect(px(img, 70, 20).matches(.clear, tol: 0) && px(img, 90, 20).matches(.red, tol: 0))
}

/// The bounding box of pixels darker than mid grey with some alpha (nil if none).
private func inkBox(_ img: Image) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
    var box: (Int, Int, Int, Int)? = nil
    for y in 0..<img.height {
        for x in 0..<img.width where px(img, x, y).a > 128 {
            let b = box ?? (x, y, x, y)
            box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
        }
    }
    return box.map { (x0: $0.0, y0: $0.1, x1: $0.2, y1: $0.3) }
}

@Test func textDrawsInsideItsLogicalBox() throws {
    let (c, img) = try canvas(200, 60)
    try c.setFont(name: "DejaVu Sans", size: 20)
    let size = try c.textSize("Hello")
    try c.showText("Hello", at: Point(10, 10))
    let ink = try #require(inkBox(img))
    #expect(ink.x0 >= 10 && ink.y0 >= 10)
    #expect(Double(ink.x1) < 10 + size.width && Double(ink.y1) < 10 + size.height)
    #expect(ink.x1 - ink.x0 > 30 && ink.y1 - ink.y0 > 10, "\(ink)")

    try c.setFont(name: "DejaVu Sans", size: 40)
    let big = try c.textSize("Hello")
    #expect(big.width > size.width * 1.8 && big.height > size.height * 1.8)
    // Wrapping at a width adds lines (one word per line here).
    try c.setFont(name: "DejaVu Sans", size: 20)
    let wrapped = try c.textSize("Hello Hello Hello", width: size.width * 1.5)
    #expect(wrapped.height > size.height * 2.5 && wrapped.width <= size.width * 1.5, "\(wrapped) for \(size)")
    try c.setFont(name: "monospace", size: 12)   // generic families resolve
}

/// Font size × scale² is bounded (TextLayout.maximumScaledFontSize): past it FreeType
/// fails and cairo keeps the failed font for the life of the process. The context
/// stays usable and text at the bound still draws.
@Test func textPastTheScaledFontLimitIsRefusedBeforePango() throws {
    let (c, img) = try canvas(200, 200)
    try c.setFont(name: "DejaVu Sans", size: 12)
    try c.saveGState()
    try c.scaleBy(x: 80, y: 80)   // 12 × 80² = 76,800
    #expect(errorCode { try c.showText("Hi", at: .zero) } == .invalidArgument)
    #expect(errorCode { _ = try c.textSize("Hi") } == .invalidArgument)
    #expect(errorCode { try c.drawText("Hi", in: Rect(0, 0, 1, 1)) } == .invalidArgument)
    try c.restoreGState()
    try c.saveGState()
    // A rotation keeps the scale: 12 × 60² = 43,200 is refused at any angle.
    try c.rotate(by: 0.7)
    try c.scaleBy(x: 60, y: 60)
    #expect(errorCode { try c.showText("Hi", at: .zero) } == .invalidArgument)
    try c.restoreGState()
    try c.scaleBy(x: 52, y: 52)   // 12 × 52² = 32,448: drawn
    try c.showText("Hi", at: .zero)
    #expect(inkBox(img) != nil)
}

@Test func drawTextAlignsAndClips() throws {
    func drawn(_ align: String) throws -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let (c, img) = try canvas(200, 40)
        try c.drawText("Hi", in: Rect(0, 0, 200, 40), alignment: align)
        return inkBox(img)
    }
    let left = try #require(try drawn("left")), right = try #require(try drawn("right")), mid = try #require(try drawn("center"))
    #expect(left.x0 < 5 && right.x1 > 190 && abs((mid.x0 + mid.x1) / 2 - 100) <= 3)
    // Clipped to the rect: a rect shorter than a line shows only its top.
    let (c, img) = try canvas(200, 40)
    try c.setFont(name: "DejaVu Sans", size: 30)
    try c.drawText("Hg", in: Rect(0, 0, 200, 12), alignment: "left")
    let ink = try #require(inkBox(img))
    #expect(ink.y1 < 12)
}

@Test func clipBoundingBoxFollowsClipAndCTM() throws {
    let (c, _) = try canvas(100, 100, scale: 2)
    #expect(try c.clipBoundingBox == Rect(0, 0, 100, 100))
    try c.clip(to: Rect(10, 20, 30, 40))
    #expect(try c.clipBoundingBox == Rect(10, 20, 30, 40))
    try c.translateBy(x: 10, y: 10)
    #expect(near(try c.clipBoundingBox, Rect(0, 10, 30, 40)))
}

@Test func invalidInputThrowsAndTheContextStaysUsable() throws {
    let (c, img) = try canvas(50, 50)
    func linear(_ colors: [Color], _ locations: [Double]?) throws {
        try c.drawLinearGradient(colors: colors, locations: locations, start: .zero, end: Point(1, 0),
                                 drawsBeforeStart: false, drawsAfterEnd: false)
    }
    let bad: [() throws -> Void] = [
        { try c.fillRect(Rect(.nan, 0, 10, 10)) }, { try c.fillRect(Rect(0, 0, .infinity, 10)) },
        { try c.move(to: Point(2e8, 0)) }, { try c.setLineWidth(-1) }, { try c.setLineWidth(.nan) },
        { try c.setLineCap("pointy") }, { try c.setLineJoin("sharp") }, { try c.setMiterLimit(0) },
        { try c.setLineDash(phase: 0, lengths: [0, 0]) }, { try c.setLineDash(phase: 0, lengths: [1, -1]) },
        { try c.setLineDash(phase: 0, lengths: Array(repeating: 1, count: 2000)) },
        { try c.setAlpha(2) }, { try c.setFillColor(Color(red: .nan, green: 0, blue: 0)) }, { try c.restoreGState() },
        { try c.addQuadCurve(to: Point(1, 1), control: Point(2, 2)) }, { try c.addLine(to: Point(1, 1)) },
        { try c.closePath() }, { try c.addPath(Path([.line(Point(1, 1))])) },
        { try c.addArc(center: .zero, radius: -1, startAngle: 0, endAngle: 1, clockwise: true) },
        { try c.addArc(center: .zero, radius: 1, startAngle: .infinity, endAngle: 1, clockwise: true) },
        { try c.scaleBy(x: 0, y: 1) }, { try c.scaleBy(x: 1e-300, y: 1e-300) }, { try c.rotate(by: .nan) },
        { try c.concatenate(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)) }, { try c.drawPath(mode: "paint") },
        { try linear([], nil) }, { try linear([red, blue], [0]) }, { try linear([red, blue], [0, 1.5]) },
        { try c.drawRadialGradient(colors: [red], locations: nil, startCenter: .zero, startRadius: -1,
                                   endCenter: .zero, endRadius: 1, drawsBeforeStart: false, drawsAfterEnd: false) },
        { try c.setFont(name: "No Such Font Family", size: 12) }, { try c.setFont(name: "DejaVu Sans", size: 0) },
        { try c.showText("a\u{0}b", at: .zero) }, { try c.showText(String(repeating: "x", count: 70_000), at: .zero) },
        { try c.drawText("x", in: Rect(0, 0, 10, 10), alignment: "middle") }, { _ = try c.textSize("x", width: -1) },
    ]
    for (i, body) in bad.enumerated() {
        #expect(errorCode(body) == .invalidArgument, "case \(i)")
    }
    // Still drawing, with the defaults intact.
    try c.addPath(Path([.move(Point(0, 0)), .quad(Point(50, 0), Point(50, 50)), .line(Point(0, 50)), .close]))
    try c.fillPath()
    #expect(px(img, 5, 45).matches(.black, tol: 0))
    #expect(try c.currentTransform == .identity)
}

@Test func everyCallThrowsAfterInvalidate() throws {
    let (c, pic) = try canvas(10, 10)
    let other = try Image(width: 2, height: 2)
    c.invalidate()
    #expect(!c.isValid)
    let calls: [() throws -> Void] = [
        { try c.setFillColor(red) }, { try c.setStrokeColor(red) }, { try c.setLineWidth(1) },
        { try c.setLineCap("round") }, { try c.setLineJoin("round") }, { try c.setMiterLimit(4) },
        { try c.setLineDash(phase: 0, lengths: [1]) }, { try c.setAlpha(1) }, { try c.setShouldAntialias(false) },
        { try c.saveGState() }, { try c.restoreGState() }, { try c.translateBy(x: 1, y: 1) },
        { try c.scaleBy(x: 1, y: 1) }, { try c.rotate(by: 1) }, { try c.concatenate(.identity) },
        { _ = try c.currentTransform }, { _ = try c.clipBoundingBox },
        { try c.beginPath() }, { try c.move(to: .zero) }, { try c.addLine(to: .zero) },
        { try c.addCurve(to: .zero, control1: .zero, control2: .zero) }, { try c.addQuadCurve(to: .zero, control: .zero) },
        { try c.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 1, clockwise: true) },
        { try c.addRect(.zero) }, { try c.addEllipse(in: .zero) }, { try c.addRoundedRect(.zero, cornerRadius: 1) },
        { try c.addPath(Path()) }, { try c.closePath() }, { try c.fillPath() }, { try c.strokePath() },
        { try c.drawPath(mode: "fill") }, { try c.fillRect(.zero) }, { try c.strokeRect(.zero) },
        { try c.clearRect(.zero) }, { try c.fillEllipse(in: .zero) }, { try c.strokeEllipse(in: .zero) },
        { try c.clip() }, { try c.clip(to: .zero) },
        { try c.drawLinearGradient(colors: [red], locations: nil, start: .zero, end: .zero,
                                   drawsBeforeStart: true, drawsAfterEnd: true) },
        { try c.drawRadialGradient(colors: [red], locations: nil, startCenter: .zero, startRadius: 0,
                                   endCenter: .zero, endRadius: 1, drawsBeforeStart: true, drawsAfterEnd: true) },
        { try c.draw(other, in: .zero) }, { try c.setFont(name: "DejaVu Sans", size: 10) },
        { try c.showText("x", at: .zero) }, { try c.drawText("x", in: .zero, alignment: "left") },
        { _ = try c.textSize("x", width: nil) },
    ]
    for (i, call) in calls.enumerated() {
        #expect(errorCode(call) == .invalidArgument, "call \(i)")
    }
    #expect(px(pic, 5, 5).matches(.clear, tol: 0))
}

@Test func roundedRectArcAndQuadGeometry() throws {
    let (c, img) = try canvas(100, 100)
    try c.addRoundedRect(Rect(0, 0, 100, 100), cornerRadius: 500)   // clamped: a circle
    try c.fillPath()
    #expect(px(img, 50, 50).matches(.black, tol: 0) && px(img, 3, 3).matches(.clear, tol: 0) && px(img, 50, 1).a > 0)

    // Clockwise from 0 to π/2 on screen sweeps the lower right quarter.
    let (d, img2) = try canvas(100, 100)
    try d.move(to: Point(50, 50))
    try d.addArc(center: Point(50, 50), radius: 40, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    try d.closePath()
    try d.fillPath()
    #expect(px(img2, 70, 70).matches(.black, tol: 0) && px(img2, 70, 30).matches(.clear, tol: 0))
    let (e, img3) = try canvas(100, 100)
    try e.move(to: Point(50, 50))
    try e.addArc(center: Point(50, 50), radius: 40, startAngle: 0, endAngle: .pi / 2, clockwise: false)
    try e.closePath()
    try e.fillPath()
    #expect(px(img3, 70, 70).matches(.clear, tol: 0) && px(img3, 70, 30).matches(.black, tol: 0))
}

@Test func luaMethodsChainAndNameTheirErrors() throws {
    let (c, img) = try canvas(100, 100)
    let host = try LuaHost(session: try Session())
    LuaDrawingContext.push(host.L, c)
    lua_setglobal(host.L, "ctx")
    try host.runString("""
        assert(ctx.valid and ctx.contentsScale == 1)
        ctx:setFillColor("red"):fillRect{0, 0, 50, 50}:setFillColor{0, 0, 1}:fillRect{x = 50, y = 0, w = 50, h = 50}
        ctx:drawLinearGradient{ colors = {"black", "white"}, start = {0, 60}, ["end"] = {0, 80}, drawsAfterEnd = true }
        local w, h = ctx:textSize("Hi")
        assert(w > 0 and h > 0)
        local b = ctx:clipToRect{10, 20, 30, 40}:clipBoundingBox()
        assert(b.x == 10 and b.y == 20 and b.width == 30 and b.height == 40)
        local ok, e = pcall(ctx.fillRect, ctx, {0, 0, 0 / 0, 1})
        assert(not ok and e:find("DrawingContext:fillRect: ", 1, true), e)
        ok, e = pcall(function() return ctx:nope() end)
        assert(not ok and e:find("'nope'", 1, true), e)
        ok, e = pcall(ctx.drawLinearGradient, ctx, { colors = {"red"}, start = {0, 0}, ["end"] = {1, 0}, drawsAfterEnds = true })
        assert(not ok and e:find("drawsAfterEnds", 1, true), e)
        ok, e = pcall(ctx.addLineTo, ctx, 1, 2)
        assert(not ok and e:find("DrawingContext:addLineTo: no current point", 1, true), e)
        """, chunkName: "ctx")
    #expect(px(img, 25, 25).matches(.red, tol: 0) && px(img, 75, 25).matches(.blue, tol: 0))
    #expect(px(img, 50, 90).matches(.white, tol: 2) && px(img, 50, 55).matches(.clear, tol: 0))
    c.invalidate()
    #expect(throws: CalunaError.self) {
        try host.runString("ctx:fillRect{0, 0, 1, 1}", chunkName: "late")
    }
    try host.runString("assert(not ctx.valid)", chunkName: "late2")
}
