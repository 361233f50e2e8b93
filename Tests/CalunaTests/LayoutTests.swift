import Testing
@testable import Caluna

// Layout (spec §1.6, F54, DESIGN §3 step 5): layoutSublayersOfLayer: fires on
// setNeedsLayout and on a bounds change, once per pass, in step and render.

private struct LayoutFailure: Error, Equatable { let name: String }

/// Counts layoutSublayers calls per layer; optionally throws for some layers
/// or runs an extra action (e.g. resizing a sublayer).
private final class CountingDelegate: LayerDelegate {
    var counts: [ObjectIdentifier: Int] = [:]
    var order: [String] = []
    var failing: Set<ObjectIdentifier> = []
    var action: ((Layer) -> Void)?

    func count(_ l: Layer) -> Int { counts[ObjectIdentifier(l), default: 0] }

    func layoutSublayers(of layer: Layer) throws {
        counts[ObjectIdentifier(layer), default: 0] += 1
        order.append(layer.name ?? "?")
        action?(layer)
        if failing.contains(ObjectIdentifier(layer)) { throw LayoutFailure(name: layer.name ?? "?") }
    }
}

/// An engine whose root holds `l`, laid out once so nothing is pending.
private func settledEngine(_ d: CountingDelegate) throws -> (Engine, Layer) {
    let e = try Engine(size: Size(100, 100))
    let l = try addLayer(e, to: e.root, frame: Rect(0, 0, 50, 50), name: "L")
    l.delegate = d
    try e.step(0)
    return (e, l)
}

@Test func setNeedsLayoutFiresOncePerPass() throws {
    let d = CountingDelegate()
    let (_, l) = try settledEngine(d)
    let base = d.count(l)
    l.setNeedsLayout()
    #expect(l.needsLayout)
    l.setNeedsLayout()
    l.setNeedsLayout()
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 1)
    #expect(!l.needsLayout)
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 1, "nothing pending: no call")
}

@Test func boundsChangeFiresLayout() throws {
    let d = CountingDelegate()
    let (_, l) = try settledEngine(d)
    let base = d.count(l)
    l.bounds = Rect(0, 0, 80, 50)
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 1)
    l.bounds = Rect(0, 0, 80, 50)
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 1, "setting the same bounds is no change")
    l.frame = Rect(0, 0, 10, 10)
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 2, "a frame that changes the size changes bounds")
    try l.setValue(.number(3), forKeyPath: "bounds.origin.x")
    try l.layoutIfNeeded()
    #expect(d.count(l) == base + 3, "bounds.origin is part of bounds")
}

@Test func positionChangeDoesNotFireLayout() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let base = d.count(l)
    l.position = Point(70, 70)
    l.frame = Rect(5, 5, 50, 50)   // same size: only the position moves
    l.anchorPoint = Point(0, 0)
    l.opacity = 0.5
    l.affineTransform = .rotation(1)
    try e.step(1.0 / 60)
    #expect(d.count(l) == base)
    #expect(!l.needsLayout)
}

@Test func oneCallPerPassWhateverMarkedIt() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let base = d.count(l)
    l.setNeedsLayout()
    l.bounds = Rect(0, 0, 20, 20)
    l.bounds = Rect(0, 0, 30, 30)
    l.setNeedsLayout()
    try e.step(1.0 / 60)
    #expect(d.count(l) == base + 1)
}

@Test func engineStepRunsThePass() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let base = d.count(l)
    l.setNeedsLayout()
    #expect(d.count(l) == base, "marking does not lay out")
    try e.step(1.0 / 30)
    #expect(d.count(l) == base + 1)
    try e.advance(to: 1)
    #expect(d.count(l) == base + 1)
    l.setNeedsLayout()
    try e.advance(to: 2)
    #expect(d.count(l) == base + 2)
}

@Test func renderRunsThePass() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let base = d.count(l)
    l.setNeedsLayout()
    _ = try e.render()
    #expect(d.count(l) == base + 1)
    _ = try e.render()
    #expect(d.count(l) == base + 1)
}

@Test func layoutReachesDeepLayersOnly() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let child = try addLayer(e, to: l, frame: Rect(0, 0, 10, 10), name: "child")
    let grandchild = try addLayer(e, to: child, frame: Rect(0, 0, 5, 5), name: "grandchild")
    for x in [e.root!, child, grandchild] { x.delegate = d }
    try e.step(0)
    let before = (d.count(e.root), d.count(l), d.count(child), d.count(grandchild))
    grandchild.setNeedsLayout()
    try e.step(0)
    #expect(d.count(grandchild) == before.3 + 1)
    #expect(d.count(e.root) == before.0 && d.count(l) == before.1 && d.count(child) == before.2)
}

@Test func resizingASublayerDuringLayoutLaysItOutInTheSamePass() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let child = try addLayer(e, to: l, frame: Rect(0, 0, 10, 10), name: "child")
    child.delegate = d
    try e.step(0)
    let base = d.count(child)
    d.action = { layer in
        if layer === l { child.bounds = Rect(0, 0, l.bounds.width / 2, l.bounds.height / 2) }
    }
    l.bounds = Rect(0, 0, 60, 60)
    try e.step(0)
    #expect(child.bounds == Rect(0, 0, 30, 30))
    #expect(d.count(child) == base + 1)
    #expect(d.order.suffix(2) == ["L", "child"], "a parent lays out before its children")
}

@Test func layerMarkedBeforeInsertionIsLaidOut() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let fresh = e.makeLayer()
    fresh.delegate = d
    fresh.setNeedsLayout()
    try l.addSublayer(fresh)
    try e.step(0)
    #expect(d.count(fresh) == 1)
}

@Test
func layerMarkedBeforeSetSublayersIsLaidOut() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let fresh = e.makeLayer()
    fresh.delegate = d
    fresh.bounds = Rect(0, 0, 20, 20)   // a bounds change marks it (F54)
    #expect(fresh.needsLayout)
    try l.setSublayers([fresh])
    try e.step(0)
    #expect(d.count(fresh) == 1)
    #expect(!fresh.needsLayout)
}

@Test func throwingDelegateErrorPropagatesAndOthersStillLayOut() throws {
    let d = CountingDelegate()
    let e = try Engine(size: Size(100, 100))
    let a = try addLayer(e, to: e.root, frame: Rect(0, 0, 10, 10), name: "A")
    let b = try addLayer(e, to: e.root, frame: Rect(0, 0, 10, 10), name: "B")
    let c = try addLayer(e, to: a, frame: Rect(0, 0, 5, 5), name: "C")
    for x in [a, b, c] { x.delegate = d }
    try e.step(0)
    d.failing = [ObjectIdentifier(a)]
    let base = (d.count(a), d.count(b), d.count(c))
    a.setNeedsLayout(); b.setNeedsLayout(); c.setNeedsLayout()
    #expect(throws: LayoutFailure(name: "A")) { try e.step(1.0 / 60) }
    #expect(d.count(a) == base.0 + 1)
    #expect(d.count(b) == base.1 + 1, "a sibling of the failing layer is still laid out")
    #expect(d.count(c) == base.2 + 1, "a child of the failing layer is still laid out")
    try e.step(1.0 / 60)   // nothing pending any more: no second error
    #expect(d.count(a) == base.0 + 1)
    a.setNeedsLayout()
    #expect(throws: LayoutFailure(name: "A")) { _ = try e.render() }
}

/// caluna's rule (README): any change of a layer's sublayers array marks it
/// for layout, so its layoutSublayers sees added and removed sublayers.
@Test func changingSublayersMarksTheSuperlayerForLayout() throws {
    let d = CountingDelegate()
    let (e, l) = try settledEngine(d)
    let child = e.makeLayer()
    try l.addSublayer(child)
    #expect(l.needsLayout)
    try e.step(0)
    #expect(d.count(l) == 2)
    child.removeFromSuperlayer()
    try e.step(0)
    #expect(d.count(l) == 3)
    try e.step(0)
    #expect(d.count(l) == 3)
}
