import Testing
@testable import Caluna

// The replicators' per-render budget (issue #20): the layers a render's
// replicators draw are counted — nesting multiplies — before any is drawn,
// and a render past ReplicatorLayerState.maximumReplicatedLayers fails
// with invalidArgument instead of hanging.

/// `levels` replicators nested in one another, each of `count` instances
/// stepping 1 pt right, around one 1×1 red leaf; returns the outermost.
@discardableResult
func nestedReplicators(_ e: Engine, levels: Int, count: Int, leaf: (Layer) throws -> Void = { _ in }) throws -> Layer {
    let outer = e.makeLayer(kind: .replicatorLayer)
    var r = outer
    for level in 0..<levels {
        if level > 0 {
            let inner = e.makeLayer(kind: .replicatorLayer)
            try r.addSublayer(inner)
            r = inner
        }
        r.frame = Rect(0, 0, 1, 1)
        try r.setValue(.number(Double(count)), forKeyPath: "instanceCount")
        try r.setValue(.transform(.translation(1, 0)), forKeyPath: "instanceTransform")
    }
    let l = e.makeLayer()
    l.frame = Rect(0, 0, 1, 1)
    l.backgroundColor = uiRed
    try leaf(l)
    try r.addSublayer(l)
    try e.root.addSublayer(outer)
    return outer
}

@Test func replicatedLayerCountMultipliesNesting() throws {
    let e = try Engine(size: Size(32, 32))
    // 10 × (the inner replicator + 10 × (one more + 10 leaves)) = 1,110.
    let r = try nestedReplicators(e, levels: 3, count: 10)
    #expect(r.replicatedLayerCount == 1110)
    // A mask is drawn with its layer; a hidden sublayer draws nothing.
    let masked = try nestedReplicators(e, levels: 1, count: 7) { try $0.setMask(e.makeLayer()) }
    #expect(masked.replicatedLayerCount == 14)
    masked.sublayers[0].hidden = true
    #expect(masked.replicatedLayerCount == 0)
    // Three of 10,000: 10⁴ × (1 + 10⁴ × (1 + 10⁴)).
    #expect(try nestedReplicators(e, levels: 3, count: 10_000).replicatedLayerCount == 1_000_100_010_000)
    // 60 of 2: 2 + 4 + … + 2^60 = 2^61 − 2; 70 of 2 saturates instead of overflowing.
    #expect(try nestedReplicators(e, levels: 60, count: 2).replicatedLayerCount == (1 << 61) - 2)
    #expect(try nestedReplicators(e, levels: 70, count: 2).replicatedLayerCount == Int.max)
    #expect(ReplicatorLayerState.maximumReplicatedLayers == 1_000_000)
    // A chain 1000 levels deep is walked without recursion: 3 × 1000.
    let deep = try nestedReplicators(e, levels: 1, count: 3)
    var tip = deep.sublayers[0]
    for _ in 1..<1000 {
        let l = e.makeLayer()
        try tip.addSublayer(l)
        tip = l
    }
    #expect(deep.replicatedLayerCount == 3000)
}

@Test func replicatorBombsAreRefusedBeforeDrawing() throws {
    for (levels, count, n) in [(60, 2, "2305843009213693950"), (70, 2, "more than \(Int.max)"),
                                   (3, 10_000, "1000100010000"), (2, 1001, "1003002")] {
        let e = try Engine(size: Size(32, 32))
        try nestedReplicators(e, levels: levels, count: count)
        do {
            _ = try e.render()
            Issue.record("\(levels) × \(count) rendered")
        } catch let error as CalunaError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.hasPrefix("ReplicatorLayer: one render would draw \(n) replicated layers (at most 1000000 per render"),
                    "\(error.message)")
        }
        // Nothing was drawn: the root and the outer replicator were visited.
        #expect(e.stats.layersVisited == 2 && e.stats.layersDrawn == 0)
    }
}

@Test func replicatorBudgetIsPerRenderAndExact() throws {
    // The budget is what the render's replicators draw together: with
    // 1,110 left a 10 × 10 × 10 nesting draws; with 1,109 it is refused.
    let e = try Engine(size: Size(32, 32))
    try nestedReplicators(e, levels: 3, count: 10)
    let image = try e.render()
    #expect(px(image, 0, 0).matches(.red, tol: 0) && px(image, 27, 0).matches(.red, tol: 0))
    #expect(px(image, 28, 0).matches(.clear, tol: 0), "instances reach x 0 … 27 (9 + 9 + 9 steps)")
    let limit = ReplicatorLayerState.maximumReplicatedLayers
    for (spent, drawn) in [(limit - 1110, true), (limit - 1109, false)] {
        let target = try Image(width: 32, height: 32)
        var c = Compositor(target: target, scale: 1)
        defer { c.finish() }
        c.replicatedLayers = spent
        let code = errorCode { try c.draw(e.root.ensurePresentation(), parentSpace: nil, inheritedOpacity: 1) }
        #expect(code == (drawn ? nil : .invalidArgument), "\(spent) spent")
        #expect(c.replicatedLayers == (drawn ? limit : spent))
    }
}

@Test func replicatedExtentIsTakenOncePerLevel() throws {
    // 20 nested replicators of 2 (2^20 copies of the leaf): each level's
    // extent is its sublayers' extent placed per instance, so this is 40
    // placements, not a million. The leaf's shadow (3·2 + 1 pt) is included.
    let e = try Engine(size: Size(32, 32))
    let r = try nestedReplicators(e, levels: 20, count: 2) { leaf in
        leaf.shadowOpacity = 1
        leaf.shadowRadius = 2
        leaf.shadowOffset = Size(0, 0)
    }
    #expect(r.replicatedExtent == Rect(-7, -7, 35, 15))
    #expect(r.visualExtent() == Rect(-7, -7, 35, 15))
}

@Test func instanceCountStaysInRangeWhateverTheStateHolds() throws {
    var s = ReplicatorLayerState()
    for (v, n) in [(Double.infinity, 10_000), (.nan, 0), (-1, 0), (0.99, 0), (3.7, 3), (10_000.5, 10_000), (1e300, 10_000)] {
        s.instanceCount = v
        #expect(s.count == n, "instanceCount \(v)")
    }
    // The setter refuses what is out of 0 … 10,000.
    let e = try Engine(size: Size(8, 8))
    let r = e.makeLayer(kind: .replicatorLayer)
    for v in [-1, 10_001, Double.infinity, .nan, 1e300] {
        #expect(errorCode { try r.setValue(.number(v), forKeyPath: "instanceCount") } != nil, "instanceCount \(v)")
    }
    try r.setValue(.number(10_000), forKeyPath: "instanceCount")
}
