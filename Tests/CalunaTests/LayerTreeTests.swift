import Testing
@testable import Caluna

// The layer tree (spec §1.2, §1.12, F3, F48–F50, F53): order, insertion,
// replacement, illegal operations, zPosition drawing order.

private func names(_ layers: [Layer]) -> [String] { layers.map { $0.name ?? "?" } }

/// An engine whose root holds A, B, C (in that order), each 10×10.
private struct ABC {
    let engine: Engine
    let root: Layer
    let a: Layer, b: Layer, c: Layer
    init() throws {
        engine = try Engine(size: Size(100, 100))
        root = engine.root
        a = try addLayer(engine, to: root, frame: Rect(0, 0, 10, 10), name: "A")
        b = try addLayer(engine, to: root, frame: Rect(0, 0, 10, 10), name: "B")
        c = try addLayer(engine, to: root, frame: Rect(0, 0, 10, 10), name: "C")
    }
    func make(_ name: String) -> Layer {
        let l = engine.makeLayer()
        l.name = name
        return l
    }
}

@Test func addSublayerAppends() throws {
    let t = try ABC()
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
    #expect(t.a.superlayer === t.root && t.c.superlayer === t.root)
    #expect(t.root.superlayer == nil)
    #expect(t.c.rootAncestor === t.root)
    #expect(t.root.isAncestor(of: t.b) && t.b.isAncestor(of: t.b) && !t.b.isAncestor(of: t.root))
}

@Test func insertSublayerAtIndex() throws {
    let t = try ABC()
    try t.root.insertSublayer(t.make("X"), at: 0)
    try t.root.insertSublayer(t.make("Y"), at: 2)
    try t.root.insertSublayer(t.make("Z"), at: 5)
    #expect(names(t.root.sublayers) == ["X", "A", "Y", "B", "C", "Z"])
}

@Test func insertSublayerAboveAndBelow() throws {
    let t = try ABC()
    try t.root.insertSublayer(t.make("X"), above: t.a)
    try t.root.insertSublayer(t.make("Y"), below: t.a)
    try t.root.insertSublayer(t.make("Z"), above: t.c)
    #expect(names(t.root.sublayers) == ["Y", "A", "X", "B", "C", "Z"])
    // A nil sibling means the front (above) or the back (below).
    try t.root.insertSublayer(t.make("Front"), above: nil)
    try t.root.insertSublayer(t.make("Back"), below: nil)
    #expect(names(t.root.sublayers) == ["Back", "Y", "A", "X", "B", "C", "Z", "Front"])
}

@Test func insertMovesAnExistingSibling() throws {
    let t = try ABC()
    try t.root.insertSublayer(t.c, below: t.a)
    #expect(names(t.root.sublayers) == ["C", "A", "B"])
    try t.root.insertSublayer(t.c, above: t.b)
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
    try t.root.insertSublayer(t.a, at: 2)
    #expect(names(t.root.sublayers) == ["B", "C", "A"])
    try t.root.insertSublayer(t.a, above: nil)
    #expect(names(t.root.sublayers) == ["B", "C", "A"])
    try t.root.insertSublayer(t.a, below: nil)
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
}

@Test func insertIndexOutOfRangeIsAnError() throws {
    let t = try ABC()
    let x = t.make("X")
    #expect(errorCode { try t.root.insertSublayer(x, at: 4) } == .invalidArgument)
    #expect(errorCode { try t.root.insertSublayer(x, at: -1) } == .invalidArgument)
    #expect(errorCode { try t.root.insertSublayer(t.a, at: 3) } == .invalidArgument, "A moving: 0…2 only")
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
    #expect(x.superlayer == nil)
}

@Test func insertRelativeToAForeignSiblingIsAnError() throws {
    let t = try ABC()
    let other = t.make("O")
    #expect(errorCode { try t.root.insertSublayer(t.make("X"), above: other) } == .treeError)
    #expect(errorCode { try t.a.insertSublayer(t.make("X"), below: t.b) } == .treeError)
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
}

@Test func reAddingMovesTheLayer() throws {
    let t = try ABC()
    try t.root.addSublayer(t.a)
    #expect(names(t.root.sublayers) == ["B", "C", "A"])
    try t.b.addSublayer(t.a)
    #expect(names(t.root.sublayers) == ["B", "C"])
    #expect(names(t.b.sublayers) == ["A"])
    #expect(t.a.superlayer === t.b)
}

@Test func replaceSublayer() throws {
    let t = try ABC()
    let x = t.make("X")
    try t.root.replaceSublayer(t.b, with: x)
    #expect(names(t.root.sublayers) == ["A", "X", "C"])
    #expect(t.b.superlayer == nil && x.superlayer === t.root)
    #expect(errorCode { try t.root.replaceSublayer(t.b, with: t.make("Y")) } == .treeError, "B is no longer a sublayer")
}

@Test func replaceWithAnEarlierSibling() throws {
    let t = try ABC()
    try t.root.replaceSublayer(t.c, with: t.a)
    #expect(names(t.root.sublayers) == ["B", "A"])
    #expect(t.c.superlayer == nil)
}

@Test func replaceWithALaterSiblingOrALayerFromElsewhere() throws {
    let t = try ABC()
    try t.root.replaceSublayer(t.a, with: t.c)
    #expect(names(t.root.sublayers) == ["C", "B"])
    let x = t.make("X"), y = t.make("Y")
    try x.addSublayer(y)
    try t.root.replaceSublayer(t.b, with: y)
    #expect(names(t.root.sublayers) == ["C", "Y"])
    #expect(x.sublayers.isEmpty && y.superlayer === t.root)
}

@Test func setSublayersReplacesTheArray() throws {
    let t = try ABC()
    let x = t.make("X"), holder = t.make("H")
    try holder.addSublayer(x)
    try t.root.setSublayers([t.c, x, t.a])
    #expect(names(t.root.sublayers) == ["C", "X", "A"])
    #expect(t.b.superlayer == nil)
    #expect(holder.sublayers.isEmpty && x.superlayer === t.root)
    try t.root.setSublayers([])
    #expect(t.root.sublayers.isEmpty && t.a.superlayer == nil)
}

@Test func setSublayersWithDuplicatesIsAnError() throws {
    let t = try ABC()
    let x = t.make("X")
    #expect(errorCode { try t.root.setSublayers([x, t.a, x]) } == .treeError)
    #expect(names(t.root.sublayers) == ["A", "B", "C"])
    #expect(x.superlayer == nil)
}

@Test func cyclesAreErrors() throws {
    let t = try ABC()
    let child = t.make("child"), grandchild = t.make("grandchild")
    try t.a.addSublayer(child)
    try child.addSublayer(grandchild)
    #expect(errorCode { try t.a.addSublayer(t.a) } == .treeError)
    #expect(errorCode { try grandchild.addSublayer(t.a) } == .treeError)
    #expect(errorCode { try grandchild.insertSublayer(child, at: 0) } == .treeError)
    #expect(errorCode { try grandchild.insertSublayer(t.a, above: nil) } == .treeError)
    #expect(errorCode { try child.replaceSublayer(grandchild, with: t.a) } == .treeError)
    #expect(errorCode { try grandchild.setSublayers([child]) } == .treeError)
    #expect(grandchild.sublayers.isEmpty && child.superlayer === t.a && t.a.superlayer === t.root)
    #expect(names(child.sublayers) == ["grandchild"])
}

@Test func theEngineRootCannotBeASublayer() throws {
    let t = try ABC()
    #expect(errorCode { try t.a.addSublayer(t.root) } == .treeError)
    let free = t.make("free")
    #expect(errorCode { try free.addSublayer(t.root) } == .treeError)
    #expect(errorCode { try free.setSublayers([t.root]) } == .treeError)
    #expect(t.root.superlayer == nil)
}

@Test func layersNeverCrossEngines() throws {
    let t = try ABC()
    let other = try Engine(size: Size(10, 10))
    let foreign = other.makeLayer()
    #expect(errorCode { try t.root.addSublayer(foreign) } == .treeError)
    #expect(errorCode { try other.root.addSublayer(t.a) } == .treeError)
    #expect(errorCode { try t.root.addSublayer(Layer()) } == .treeError, "an engine-less layer is foreign too")
    #expect(errorCode { try t.root.replaceSublayer(t.a, with: foreign) } == .treeError)
    #expect(names(t.root.sublayers) == ["A", "B", "C"] && foreign.superlayer == nil)
}

@Test func removeFromSuperlayer() throws {
    let t = try ABC()
    t.b.removeFromSuperlayer()
    #expect(names(t.root.sublayers) == ["A", "C"])
    #expect(t.b.superlayer == nil)
    t.b.removeFromSuperlayer()
    t.root.removeFromSuperlayer()
    #expect(names(t.root.sublayers) == ["A", "C"])
}

// MARK: zPosition (F49, F50, D17)

@Test func zPositionSortsDrawingOrderStably() throws {
    let t = try ABC()
    t.a.zPosition = 2
    t.b.zPosition = 0
    t.c.zPosition = 1
    #expect(names(t.root.sublayersInDrawingOrder) == ["B", "C", "A"], "F49: A on top")
    #expect(names(t.root.sublayers) == ["A", "B", "C"], "sublayers keep their order")
    t.a.zPosition = 0
    #expect(names(t.root.sublayersInDrawingOrder) == ["A", "B", "C"], "equal z keeps array order")
    t.a.zPosition = -1
    t.c.zPosition = -1
    #expect(names(t.root.sublayersInDrawingOrder) == ["A", "C", "B"])
}

@Test func tinyZDifferenceStillReorders() throws {
    let t = try ABC()
    t.a.zPosition = 0.0001
    #expect(names(t.root.sublayersInDrawingOrder) == ["B", "C", "A"], "F50")
}

@Test func drawingOrderFollowsTreeChanges() throws {
    let t = try ABC()
    t.a.zPosition = 1
    #expect(names(t.root.sublayersInDrawingOrder) == ["B", "C", "A"])
    let x = t.make("X")
    try t.root.addSublayer(x)
    #expect(names(t.root.sublayersInDrawingOrder) == ["B", "C", "X", "A"])
    t.c.removeFromSuperlayer()
    #expect(names(t.root.sublayersInDrawingOrder) == ["B", "X", "A"])
}

// MARK: F3

@Test func tenThousandSublayersRender() throws {
    let engine = try Engine(size: Size(100, 100))
    for i in 0..<10_000 {
        let l = engine.makeLayer()
        l.frame = Rect(Double(i % 100), Double(i / 100), 1, 1)
        l.backgroundColor = i % 2 == 0 ? uiRed : uiBlue
        try engine.root.addSublayer(l)
    }
    #expect(engine.root.sublayers.count == 10_000)
    let image = try engine.render()
    #expect(px(image, 0, 0).matches(.red))
    #expect(px(image, 1, 0).matches(.blue))
    #expect(px(image, 99, 99).matches(.blue))
}
