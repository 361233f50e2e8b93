import Testing
@testable import Caluna

// Layer geometry (spec §1.6, §1.7): frame/bounds/position/anchorPoint,
// transforms, conversion, containsPoint and hitTest. Listings 1.1, 3.1–3.5.

private let tol = derivedTolerance

@Test func listing11Properties() throws {
    let s = try Listing11()
    #expect(s.B.bounds == Rect(0, 0, 100, 100))
    #expect(s.B.position == Point(100, 100))
    #expect(s.B.anchorPoint == Point(0.5, 0.5))
    #expect(near(s.B.frame, Rect(50, 50, 100, 100), tol))
    #expect(s.L.sublayers.count == 1 && s.L.sublayers[0] === s.B)
    #expect(s.B.superlayer === s.L)
}

@Test func frameIsDerivedBothWays() {
    // F34
    let l = Layer()
    l.frame = Rect(50, 50, 100, 100)
    #expect(l.position == Point(100, 100))
    #expect(l.bounds == Rect(0, 0, 100, 100))
    l.position = Point(0, 0)
    #expect(near(l.frame, Rect(-50, -50, 100, 100), tol))
    l.bounds = Rect(0, 0, 200, 50)
    #expect(near(l.frame, Rect(-100, -25, 200, 50), tol))
    l.bounds = Rect(30, 40, 200, 50)
    #expect(near(l.frame, Rect(-100, -25, 200, 50), tol), "bounds.origin does not move the frame")
    l.frame = Rect(0, 0, 10, 10)
    #expect(l.bounds == Rect(30, 40, 10, 10), "the frame setter keeps bounds.origin")
}

@Test func frameUnderRotationIsTheBoundingBox() {
    // F35
    let l = Layer()
    l.bounds = Rect(0, 0, 100, 100)
    l.position = Point(100, 100)
    l.affineTransform = .rotation(.pi / 4)
    let half = 50 * 2.0.squareRoot()
    #expect(near(l.frame, Rect(100 - half, 100 - half, 2 * half, 2 * half), tol))
    #expect(near(l.frame, Rect(29.289321881, 29.289321881, 141.421356237, 141.421356237), tol))
    #expect(l.bounds == Rect(0, 0, 100, 100))
}

@Test func anchorPointPlacesTheLayer() {
    // F37: anchor (1,1) → the layer lies up-left of position.
    let l = Layer()
    l.bounds = Rect(0, 0, 50, 50)
    l.position = Point(100, 100)
    l.anchorPoint = Point(1, 1)
    #expect(near(l.frame, Rect(50, 50, 50, 50), tol))
}

@Test func anchorPointMayLieOutsideTheLayer() throws {
    // F38
    let l = Layer()
    l.bounds = Rect(0, 0, 100, 100)
    l.position = Point(100, 100)
    try l.setValue(.point(Point(-0.5, 1.5)), forKeyPath: "anchorPoint")
    #expect(try l.value(forKeyPath: "anchorPoint") == .point(Point(-0.5, 1.5)), "not clamped")
    #expect(near(l.frame.origin, Point(150, -50), tol))
}

@Test func changingTheAnchorKeepsPositionAndMovesFrame() {
    // F39
    let l = Layer()
    l.frame = Rect(50, 50, 100, 100)
    l.anchorPoint = Point(0, 0)
    #expect(l.position == Point(100, 100))
    #expect(near(l.frame.origin, Point(100, 100), tol))
}

// MARK: listings 3.1 / 3.2 (the clock at 3:30:45)

private struct Clock31 {
    let engine: Engine
    let hour: Layer, minute: Layer, second: Layer
    init(anchor: Point?) throws {
        let e = try Engine(size: Size(200, 200))
        e.root.backgroundColor = uiWhite
        func hand(_ w: Double, _ h: Double, _ c: Color) throws -> Layer {
            let l = e.makeLayer()
            l.bounds = Rect(0, 0, w, h)
            l.position = Point(100, 100)
            l.backgroundColor = c
            if let anchor { l.anchorPoint = anchor }
            try e.root.addSublayer(l)
            return l
        }
        engine = e
        hour = try hand(16, 60, uiBlack)
        minute = try hand(10, 80, uiBlue)
        second = try hand(4, 90, uiRed)
    }
    /// The listing's tick: angles from hour/12, minute/60, second/60.
    func set(_ h: Int, _ m: Int, _ s: Int) {
        hour.affineTransform = .rotation(Double(h) / 12 * .pi * 2)
        minute.affineTransform = .rotation(Double(m) / 60 * .pi * 2)
        second.affineTransform = .rotation(Double(s) / 60 * .pi * 2)
    }
}

@Test func listing31ClockRotatesAboutTheCentre() throws {
    let c = try Clock31(anchor: nil)
    c.set(3, 30, 45)
    #expect(near(c.hour.affineTransform, AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)))
    #expect(near(c.hour.frame, Rect(70, 92, 60, 16), tol))
    let image = try c.engine.render()
    #expect(px(image, 75, 95).matches(.black), "the hour hand sticks out on the wrong side")
    let h15 = try Clock31(anchor: nil)
    h15.set(15, 30, 45)
    #expect(near(h15.hour.affineTransform, c.hour.affineTransform))
}

@Test func listing32AnchorFixesThePivot() throws {
    let c = try Clock31(anchor: Point(0.5, 0.9))
    #expect(c.hour.position == Point(100, 100))
    #expect(near(c.hour.frame, Rect(92, 46, 16, 60), tol), "before rotation the frame moves")
    c.set(3, 30, 45)
    #expect(near(c.hour.frame, Rect(94, 92, 60, 16), tol))
    #expect(near(c.minute.frame, Rect(95, 92, 10, 80), tol))
    #expect(near(c.second.frame, Rect(19, 98, 90, 4), tol))
    let image = try c.engine.render()
    #expect(px(image, 140, 100).matches(.black))
    #expect(px(image, 75, 95).matches(.white))
    #expect(px(image, 100, 160).matches(.blue))
    #expect(px(image, 30, 100).matches(.red))
}

// MARK: listing 3.4 (conversion + containsPoint)

/// The listing's touchesBegan, with the alert turned into a return value.
private func classify(_ p: Point, _ s: Listing11) throws -> String? {
    var q = try s.L.convert(p, from: s.R)
    guard s.L.contains(q) else { return nil }
    q = try s.B.convert(q, from: s.L)
    return s.B.contains(q) ? "blue" : "white"
}

@Test func listing34Classify() throws {
    let s = try Listing11()
    #expect(near(try s.L.convert(Point(160, 160), from: s.R), Point(110, 110), tol))
    #expect(near(try s.B.convert(Point(110, 110), from: s.L), Point(60, 60), tol))
    #expect(try classify(Point(160, 160), s) == "blue")
    #expect(try classify(Point(70, 70), s) == "white")
    #expect(try classify(Point(10, 10), s) == nil)
    #expect(try classify(Point(100, 100), s) == "blue")
    #expect(try classify(Point(200, 200), s) == "white", "B-local (100,100) is outside: half-open")
}

@Test func listing34DirectConversions() throws {
    let s = try Listing11()
    #expect(near(try s.B.convert(Point(0, 0), to: s.R), Point(100, 100), tol))
    #expect(near(try s.B.convert(s.B.bounds, to: s.R), Rect(100, 100, 100, 100), tol))
    #expect(near(try s.R.convert(Point(160, 160), to: s.B), Point(60, 60), tol))
    #expect(near(try s.R.convert(Rect(100, 100, 100, 100), to: s.B), Rect(0, 0, 100, 100), tol))
}

@Test func boundsOriginShiftsSublayers() throws {
    let s = try Listing11()
    s.L.bounds.origin = Point(10, 10)
    #expect(near(try s.B.convert(Point(0, 0), to: s.R), Point(90, 90), tol))
    #expect(near(s.L.frame, Rect(50, 50, 200, 200), tol), "L itself does not move")
}

@Test func conversionUnderA90DegreeRotation() throws {
    let s = try Listing11()
    s.L.affineTransform = .rotation(.pi / 2)
    #expect(near(try s.B.convert(Point(0, 0), to: s.R), Point(200, 100), tol))
    // D25: a converted rect is the bounding box of its converted corners.
    #expect(near(try s.B.convert(Rect(0, 0, 10, 20), to: s.R), Rect(180, 100, 20, 10), tol))
}

@Test func childrenMoveWithTheirParent() throws {
    // F42
    let s = try Listing11()
    let before = try s.B.convert(Point(0, 0), to: s.R)
    s.L.position = s.L.position + Point(30, 20)
    #expect(s.B.position == Point(100, 100))
    #expect(near(try s.B.convert(Point(0, 0), to: s.R), before + Point(30, 20), tol))
}

@Test func conversionRoundTrips() throws {
    // F43, with a rotation, a scale, a bounds origin and a flip on the path.
    let s = try Listing11()
    s.L.affineTransform = AffineTransform.rotation(0.3).concatenating(.scale(1.5, 0.75))
    s.L.bounds.origin = Point(-7, 3)
    s.L.geometryFlipped = true
    s.B.anchorPoint = Point(0.2, 0.7)
    s.B.affineTransform = .rotation(-1.1)
    for p in [Point(0, 0), Point(12.5, -3), Point(99, 77)] {
        #expect(near(try s.B.convert(try s.R.convert(p, to: s.B), to: s.R), p, tol))
        #expect(near(try s.R.convert(try s.B.convert(p, from: s.R), from: s.B), p, tol))
        #expect(near(try s.B.convert(p, to: s.R), try s.R.convert(p, from: s.B), tol))
    }
    #expect(near(try s.B.convert(Point(3, 4), to: s.B), Point(3, 4), tol))
}

@Test func geometryFlippedLaysSublayersOutFromTheBottom() throws {
    // F45
    let e = try Engine(size: Size(300, 300))
    let p = try addLayer(e, to: e.root, frame: Rect(0, 0, 200, 200))
    p.geometryFlipped = true
    let c = try addLayer(e, to: p, frame: Rect(0, 0, 50, 50))
    let g = try addLayer(e, to: c, frame: Rect(0, 0, 10, 10))
    #expect(near(c.frame, Rect(0, 0, 50, 50), tol), "the frame reads as set")
    #expect(near(try c.convert(Point(0, 0), to: e.root), Point(0, 200), tol))
    #expect(near(try c.convert(c.bounds, to: e.root), Rect(0, 150, 50, 50), tol))
    #expect(near(try g.convert(Point(5, 5), to: e.root), Point(5, 195), tol))
    c.geometryFlipped = true
    #expect(near(try g.convert(Point(5, 5), to: e.root), Point(5, 155), tol), "a second flip cancels")
    #expect(near(try e.root.convert(Point(5, 155), to: g), Point(5, 5), tol))
}

@Test func containsPointIsHalfOpenInBoundsSpace() {
    // F51 / D2
    let l = Layer()
    l.frame = Rect(500, 500, 100, 100)
    l.bounds.origin = Point(10, 10)
    #expect(!l.contains(Point(5, 5)))
    #expect(l.contains(Point(10, 10)))
    #expect(l.contains(Point(109.999, 50)))
    #expect(!l.contains(Point(110, 50)))
    #expect(!l.contains(Point(50, 110)))
    #expect(!l.contains(Point(550, 550)), "the frame is not what is tested")
}

// MARK: listing 3.5 (hitTest) and 3.3

@Test func listing35HitTest() throws {
    let s = try Listing11()
    #expect(s.L.hitTest(Point(160, 160)) === s.B)
    #expect(s.L.hitTest(Point(70, 70)) === s.L)
    #expect(s.L.hitTest(Point(10, 10)) == nil)
    #expect(s.R.hitTest(Point(10, 10)) === s.R)
    #expect(s.R.hitTest(Point(160, 160)) === s.B)
    #expect(s.R.hitTest(Point(300, 10)) == nil, "half-open at the root's edge")
    s.B.hidden = true
    #expect(s.L.hitTest(Point(160, 160)) === s.L, "hidden layers are ignored")
    s.L.hidden = true
    #expect(s.R.hitTest(Point(160, 160)) === s.R)
}

@Test func hitTestFollowsTransforms() throws {
    let s = try Listing11()
    s.L.affineTransform = .rotation(.pi / 2)
    // L turns about its centre (150,150): L-local (x, y) ↦ (250 − y, 50 + x) in R,
    // so B (L-local 50…150) covers R 100…200 and R (70,70) is L-local (20,180).
    #expect(near(try s.B.convert(Point(50, 50), to: s.R), Point(150, 150), tol))
    #expect(s.R.hitTest(Point(150, 150)) === s.B)
    #expect(s.R.hitTest(Point(70, 70)) === s.L)
    #expect(s.R.hitTest(Point(230, 120)) === s.L, "L-local (70, 20): outside B")
    #expect(s.R.hitTest(Point(120, 230)) === s.L, "L-local (180, 130)")
}

@Test func hitTestIgnoresZPosition() throws {
    // Listing 3.3 / F53
    let e = try Engine(size: Size(200, 200))
    let container = try addLayer(e, to: e.root, frame: Rect(0, 0, 200, 200), color: uiWhite)
    let green = try addLayer(e, to: container, frame: Rect(20, 20, 100, 100), color: uiGreen)
    let red = try addLayer(e, to: container, frame: Rect(80, 80, 100, 100), color: uiRed)
    #expect(container.hitTest(Point(100, 100)) === red)
    green.zPosition = 1
    #expect(container.hitTest(Point(100, 100)) === red, "zPosition does not change hit order")
    #expect(container.hitTest(Point(50, 50)) === green)
}

@Test func hitTestDoesNotReachOverflowingSublayers() throws {
    // D3: a point outside the receiver's bounds returns nil even over an overflowing child.
    let e = try Engine(size: Size(300, 300))
    let parent = try addLayer(e, to: e.root, frame: Rect(0, 0, 100, 100))
    let child = try addLayer(e, to: parent, frame: Rect(50, 50, 100, 100))
    #expect(parent.hitTest(Point(120, 120)) == nil)
    #expect(parent.hitTest(Point(60, 60)) === child)
}

@Test func convertingBetweenTreesIsAnError() throws {
    let s = try Listing11()
    let other = try Listing11()
    #expect(errorCode { try s.B.convert(Point(0, 0), to: other.B) } == .treeError)
    #expect(errorCode { try s.B.convert(Point(0, 0), from: other.R) } == .treeError)
    #expect(errorCode { try s.B.convert(Rect(0, 0, 1, 1), to: other.L) } == .treeError)
    let detached = s.engine.makeLayer()
    #expect(errorCode { try s.B.convert(Point(0, 0), to: detached) } == .treeError)
}

/// Core Animation's affineTransform reads the transform when it is affine
/// and the identity when it is not (not the affine part).
@Test func affineTransformOfANonAffineTransformIsTheIdentity() throws {
    let l = Layer(engine: nil)
    let a = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 3, ty: 4)
    l.affineTransform = a
    #expect(l.affineTransform == a)
    var t = Transform3D(a)
    t.m34 = -1.0 / 500
    l.transform = t
    #expect(l.affineTransform == .identity)
    #expect(try l.value(forKeyPath: "affineTransform") == .transform(.identity))
}
