import Testing
import Glibc
@testable import Caluna

// Renders on several threads (RenderBands.swift): every band gives the
// serial render's bytes and counters, and a band that sees only a
// neighbour's shadow paints it without drawing the neighbour.

/// The same seeded frames drawn on 1, 2, 3 and 7 threads (every region cut
/// into bands, however small): each frame, retained and full, is byte for
/// byte the serial one. CALUNA_BAND_SEEDS raises the count (docs/rendering.md).
@Test func bandsOnAnyThreadCountEqualTheSerialRender() throws {
    let seeds = UInt64(getenv("CALUNA_BAND_SEEDS").flatMap { Int(String(cString: $0)) } ?? 24)
    var banded = 0, sentBack = 0, columns = 0, direct = 0
    for seed in 0..<seeds {
        var scenes = try [1, 2, 3, 7].map { n -> DamageScene in
            let s = try DamageScene(seed: seed)
            try s.engine.setRenderThreads(n)
            s.engine.renderBandMinimumPixels = 0
            return s
        }
        let targets = scenes.map { _ in RenderTarget() }
        for frame in 0..<30 {
            for i in scenes.indices { try scenes[i].advance() }
            try scenes[0].engine.render(into: targets[0])
            let serial = targets[0].frame!
            #expect(scenes[0].engine.stats.bandsDrawn <= 1)
            for i in 1..<scenes.count {
                try scenes[i].engine.render(into: targets[i])
                let s = scenes[i].engine.stats
                if s.bandsDrawn > 1 { banded += 1 }
                if s.bandsDrawn > 1, targets[i].bandAxis == .columns { columns += 1 }
                if targets[i].bandsDrawnIntoFrame > 0 { direct += 1 }
                sentBack += targets[i].bandsSentBack
                guard sameBytes(targets[i].frame!, serial) else {
                    Issue.record("seed \(seed), frame \(frame), \(scenes[i].engine.renderThreads) threads: differs at \(firstDifference(targets[i].frame!, serial)); damage \(targets[i].damage); last changes: \(scenes[i].log.suffix(8).joined(separator: "; "))")
                    return
                }
            }
            if frame % 5 == 4 {
                // A full frame through the bands (Engine.render) as well.
                let full = try scenes[0].engine.renderWithoutEffectCache()
                for i in 1..<scenes.count {
                    #expect(sameBytes(try scenes[i].engine.render(), full), "seed \(seed), frame \(frame): full render")
                    #expect(scenes[i].engine.stats.bandsDrawn > 1)
                }
            }
        }
    }
    // Most frames were drawn in bands, some of them partly sent back to the calling thread.
    #expect(banded > Int(seeds) * 30, "\(banded) banded frames")
    #expect(sentBack > 0)
    // Bands of rows and of columns; bands drawn into the frame and into bitmaps of their own
    // (a unit or a group in a band, which most of these scenes have, makes it use a bitmap).
    #expect(columns > 0 && columns < banded, "\(columns) of \(banded) banded frames in columns")
    #expect(direct > 0 && direct < banded, "\(direct) of \(banded) banded frames drawn partly into the frame")
}

/// A render's bands run callbacks on the calling thread only, and a band
/// that needs one is drawn again there: tiles and pixel-buffer frames come
/// out as on one thread, and the callbacks ran on the thread that rendered.
@Test func bandCallbacksRunOnTheCallingThread() throws {
    let engine = try Engine(size: Size(200, 200))
    try engine.setRenderThreads(4)
    engine.renderBandMinimumPixels = 0
    let me = pthread_self()
    final class Seen { var threads: [pthread_t] = [] }
    let seen = Seen()
    try engine.withoutActions {
        for i in 0..<4 {
            let t = engine.makeLayer(kind: .tiledLayer)
            t.frame = Rect(10, Double(i) * 48 + 4, 180, 40)
            try t.setValue(.size(Size(32, 32)), forKeyPath: "tileSize")
            t.drawHandler = { _, ctx in
                seen.threads.append(pthread_self())
                try ctx.setFillColor(Color(red: 0.2, green: 0.4, blue: Double(i) / 4))
                try ctx.fillRect(ctx.clipBoundingBox.insetBy(1, 1))
            }
            try engine.root.addSublayer(t)
        }
    }
    let banded = try engine.render()
    #expect(engine.stats.bandsDrawn > 1)
    #expect(!seen.threads.isEmpty && seen.threads.allSatisfy { pthread_equal($0, me) != 0 })
    try engine.setRenderThreads(1)
    #expect(sameBytes(banded, try engine.render()))
}

/// Thread counts outside 0 … 64 are refused; 0 is one per core.
@Test func renderThreadsAreBounded() throws {
    let engine = try Engine(size: Size(10, 10))
    #expect(throws: CalunaError.self) { try engine.setRenderThreads(-1) }
    #expect(throws: CalunaError.self) { try engine.setRenderThreads(Engine.maximumRenderThreads + 1) }
    try engine.setRenderThreads(Engine.maximumRenderThreads)
    #expect(engine.renderThreads == Engine.maximumRenderThreads)
    try engine.setRenderThreads(0)
    #expect(engine.renderThreads == Engine.defaultRenderThreads)
}

/// An engine's worker pool (whose deinit joins its threads) goes with the
/// engine, and when the thread count changes: its threads do not keep it.
@Test func workerThreadsEndWithTheirEngine() throws {
    weak var first: RenderWorkers?
    weak var second: RenderWorkers?
    do {
        let engine = try Engine(size: Size(300, 300))
        try engine.setRenderThreads(5)
        engine.root.backgroundColor = .white
        _ = try engine.render()
        #expect(engine.stats.renderThreads == 5 && engine.stats.bandsDrawn == 5)
        first = engine.renderWorkers
        #expect(first?.count == 4)
        try engine.setRenderThreads(2)
        _ = try engine.render()
        second = engine.renderWorkers
        #expect(first == nil && second?.count == 1)
    }
    #expect(second == nil)
}

/// Counters count each layer once however the frame is cut: a grid of
/// shadowed cards with sublayers (cards across every cut) on 1, 2, 3 and 7
/// threads gives the serial render's layer, offscreen and shadow counts.
@Test func bandsCountEachLayerOnce() throws {
    var counts: [[Int]] = []
    for n in [1, 2, 3, 7] {
        let engine = try Engine(size: Size(400, 300))
        try engine.setRenderThreads(n)
        engine.renderBandMinimumPixels = 0
        engine.root.backgroundColor = .white
        for i in 0..<20 {
            let card = engine.makeLayer()
            card.frame = Rect(10 + Double(i % 5) * 78, 10 + Double(i / 5) * 72, 66, 60)
            card.backgroundColor = Color(red: 0.9, green: 0.9, blue: Double(i) / 20)
            card.cornerRadius = 8
            card.shadowOpacity = 0.4
            card.shadowRadius = 5
            let inner = engine.makeLayer()
            inner.frame = Rect(6, 6, 30, 20)
            inner.backgroundColor = .black
            try card.addSublayer(inner)
            try engine.root.addSublayer(card)
        }
        _ = try engine.render()
        _ = try engine.render()   // warm caches: nothing is sent back
        let s = engine.stats
        #expect(s.renderThreads == n && s.bandsDrawn == n)
        counts.append([s.layersVisited, s.layersDrawn, s.offscreenPasses, s.offscreenPixels, s.effectCacheHits + s.effectCacheMisses])
    }
    #expect(counts.allSatisfy { $0 == counts[0] }, "\(counts)")
}

/// Cuts go into a gap when there is one, and columns are chosen when only
/// they have a clean gap.
@Test func bandCutsFindTheGaps() {
    typealias Item = RenderBands.Item
    // Two rows of work with a gap between 100 and 120; work across the middle column.
    let rows = [Item(rect: PixelRect(x: 0, y: 0, width: 300, height: 100), cost: 30_000),
                Item(rect: PixelRect(x: 0, y: 120, width: 300, height: 100), cost: 30_000)]
    let box = PixelRect(x: 0, y: 0, width: 300, height: 220)
    let (cuts, _) = RenderBands.cuts(rows, along: .rows, of: box, bands: 2)
    #expect(cuts.count == 3 && (100...120).contains(cuts[1]), "\(cuts)")
    let (split, axis) = RenderBands.bands([box], items: rows, count: 2)
    #expect(axis == .rows && split.count == 2)
    // Two columns with a gap at 140…160, each spanning every row.
    let columns = [Item(rect: PixelRect(x: 0, y: 0, width: 140, height: 220), cost: 30_000),
                   Item(rect: PixelRect(x: 160, y: 0, width: 140, height: 220), cost: 30_000)]
    let (split2, axis2) = RenderBands.bands([box], items: columns, count: 2)
    #expect(axis2 == .columns && split2.count == 2)
    #expect(split2.first?.first.map { (140...160).contains($0.maxX) } == true, "\(split2)")
    // The bands cover the region exactly once.
    #expect(split2.joined().reduce(0) { $0 + $1.area } == box.area)
}

/// A slide in progress across a band cut: its snapshots are drawn whole in
/// every band (a box or shadow cut to the band would slide in cut).
@Test func aSlidingTransitionAcrossBandsEqualsTheSerialRender() throws {
    var frames: [Image] = []
    for threads in [1, 2, 3] {
        let engine = try Engine(size: Size(300, 200))
        try engine.setRenderThreads(threads)
        engine.renderBandMinimumPixels = 0
        engine.root.backgroundColor = .white
        let panel = engine.makeLayer()
        try engine.withoutActions {
            panel.frame = Rect(20, 20, 260, 160)
            panel.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
            for i in 0..<4 {
                let box = engine.makeLayer()
                box.frame = Rect(10 + Double(i) * 62, 20, 50, 120)
                box.backgroundColor = Color(red: Double(i) / 4, green: 0.8, blue: 0.3)
                box.shadowOpacity = 0.6
                box.shadowRadius = 4
                try panel.addSublayer(box)
            }
            try engine.root.addSublayer(panel)
        }
        try engine.step(0)
        let t = Transition()
        t.type = .push
        t.subtype = .fromTop   // across the cuts (rows: the panel covers every column)
        t.timing.duration = 1
        _ = try panel.addAnimation(t, forKey: nil)
        panel.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.2)
        try engine.step(0.37)
        frames.append(try engine.render())
        #expect(engine.stats.renderThreads == threads && engine.stats.bandsDrawn == threads)
    }
    #expect(sameBytes(frames[1], frames[0]), "\(firstDifference(frames[1], frames[0]))")
    #expect(sameBytes(frames[2], frames[0]), "\(firstDifference(frames[2], frames[0]))")
}

/// A layer whose body ends before a cut but whose shadow reaches past it
/// costs the later band little (it paints the shadow alone), so the cut goes
/// after one body and before the next one's shadow.
@Test func bandCutsLetShadowsFallIntoLaterBands() {
    typealias Item = RenderBands.Item
    let box = PixelRect(x: 0, y: 0, width: 240, height: 100)
    // Bodies at 0…100 and 140…240; shadows 30 px wide around each.
    let items = [Item(rect: PixelRect(x: 0, y: 0, width: 130, height: 100),
                      content: PixelRect(x: 0, y: 0, width: 100, height: 100), cost: 13_000),
                 Item(rect: PixelRect(x: 110, y: 0, width: 130, height: 100),
                      content: PixelRect(x: 140, y: 0, width: 100, height: 100), cost: 13_000)]
    let (cuts, worst) = RenderBands.cuts(items, along: .columns, of: box, bands: 2)
    #expect(cuts.count == 3 && (100...110).contains(cuts[1]), "\(cuts)")
    // Without the shadows' discount the dearer band would hold one body and
    // both shadows' full cost somewhere.
    let plain = items.map { Item(rect: $0.rect, cost: $0.cost) }
    #expect(worst < RenderBands.cuts(plain, along: .columns, of: box, bands: 2).worst)
}

/// Two columns of translucent cards whose shadows cross the gutter: the cut
/// goes after the left cards' bodies, so the right band sees only their
/// shadows and paints them from the masks kept by layer — the bytes and
/// counters of one thread. A change inside a left card (which changes its
/// silhouette next to the cut) is drawn from the card again, never from the
/// stale mask.
@Test func aBandThatSeesOnlyAShadowPaintsItFromTheCache() throws {
    func gallery(threads: Int) throws -> (Engine, [Layer]) {
        let engine = try Engine(size: Size(460, 300))
        try engine.setRenderThreads(threads)
        engine.renderBandMinimumPixels = 0
        engine.root.backgroundColor = Color(red: 0.93, green: 0.94, blue: 0.96)
        var insides: [Layer] = []
        try engine.withoutActions {
            for i in 0..<6 {
                let card = engine.makeLayer()
                card.frame = Rect(12 + Double(i % 2) * 236, 12 + Double(i / 2) * 95, 196, 80)
                card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.6)
                card.cornerRadius = 9
                card.shadowOpacity = 0.5
                card.shadowRadius = 7
                card.shadowOffset = Size(0.5, 2.5)
                let inside = engine.makeLayer()
                inside.frame = Rect(130, 10, 60, 60)
                inside.backgroundColor = Color(red: Double(i) / 6, green: 0.5, blue: 0.8)
                try card.addSublayer(inside)
                try engine.root.addSublayer(card)
                insides.append(inside)
            }
        }
        return (engine, insides)
    }
    let (serial, serialInsides) = try gallery(threads: 1)
    let (banded, bandedInsides) = try gallery(threads: 2)
    let (a, b) = (RenderTarget(), RenderTarget())
    func frame(_ label: String) throws {
        try serial.render(into: a, full: true)
        try banded.render(into: b, full: true)
        #expect(banded.stats.renderThreads == 2 && banded.stats.bandsDrawn == 2 && b.bandAxis == .columns, "\(label)")
        // Neither band writes outside its region: both draw straight into the frame.
        #expect(b.bandsDrawnIntoFrame == 2, "\(label)")
        #expect(sameBytes(b.frame!, a.frame!), "\(label): \(firstDifference(b.frame!, a.frame!))")
        let (s, t) = (serial.stats, banded.stats)
        #expect([s.layersDrawn, s.offscreenPasses, s.offscreenPixels, s.effectCacheHits, s.effectCacheMisses]
                == [t.layersDrawn, t.offscreenPasses, t.offscreenPixels, t.effectCacheHits, t.effectCacheMisses], "\(label)")
    }
    // The first render may or may not find a left band's mask already noted.
    try frame("first")
    var hits = banded.effectCache.layerHits
    try frame("second")
    #expect(banded.effectCache.layerHits == hits + 3, "the three left cards' shadows")
    hits = banded.effectCache.layerHits
    for (engine, insides) in [(serial, serialInsides), (banded, bandedInsides)] {
        try engine.withoutActions { insides[2].backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.1) }
    }
    try frame("changed")
    #expect((hits + 2...hits + 3).contains(banded.effectCache.layerHits))
    hits = banded.effectCache.layerHits
    try frame("again")
    #expect(banded.effectCache.layerHits == hits + 3)
}

/// A band after another that sees only a layer's shadow takes the mask kept
/// for the layer as it is now: after a change inside the layer (its
/// silhouette changes next to the cut) the band draws the layer instead, and
/// its pixels stay those of a full render.
@Test func aShadowSeenAloneAfterAChangeIsDrawnFromTheLayer() throws {
    let engine = try Engine(size: Size(300, 120))
    try engine.setRenderThreads(1)
    engine.root.backgroundColor = .white
    let card = engine.makeLayer(), inside = engine.makeLayer()
    try engine.withoutActions {
        card.frame = Rect(10, 10, 196, 80)
        card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.6)
        card.shadowOpacity = 0.8
        card.shadowRadius = 7
        card.shadowOffset = Size(0.5, 2.5)
        inside.frame = Rect(130, 10, 60, 60)
        inside.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.8)
        try card.addSublayer(inside)
        try engine.root.addSublayer(card)
    }
    let target = RenderTarget()
    try engine.render(into: target)
    let canvas = PixelRect(x: 0, y: 0, width: 300, height: 120)
    let left = PixelRect(x: 0, y: 0, width: 212, height: 120), right = PixelRect(x: 212, y: 0, width: 88, height: 120)
    // The right part drawn as the band after the left one.
    func rightBand() throws -> Image {
        try engine.flush()
        let root = engine.root.ensurePresentation()
        target.tracker.update(root: root, canvas: .identity, pixels: canvas, ticks: engine.clock.ticks)
        let image = try Image(width: 300, height: 120)
        var stats = FrameStats()
        try target.draw(root, into: image, region: [right], earlier: [left], scale: 1, effects: engine.effectCache, stats: &stats)
        return image
    }
    func rightPartsMatch(_ a: Image, _ b: Image) -> Bool {
        (right.y..<right.maxY).allSatisfy { y in (right.x..<right.maxX).allSatisfy { a.pixel(x: $0, y: y)! == b.pixel(x: $0, y: y)! } }
    }
    let hits = engine.effectCache.layerHits
    var band = try rightBand()
    #expect(engine.effectCache.layerHits == hits + 1, "the shadow came from the mask kept for the card")
    #expect(rightPartsMatch(band, try engine.renderWithoutEffectCache()))
    try engine.withoutActions { inside.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.1) }
    band = try rightBand()
    #expect(engine.effectCache.layerHits == hits + 1, "the kept mask is not the card's any more")
    #expect(rightPartsMatch(band, try engine.renderWithoutEffectCache()))
}

/// The last band draws straight into the frame, so where it can write
/// outside its region must be known: a parent's body drawn because a
/// sublayer reaches the band is in it; a group (which writes back every
/// pixel the clip lets through) or a unit makes it unknown, and the band
/// draws into a bitmap of its own.
@Test func theLastBandsSpillFollowsWhatItDraws() throws {
    let engine = try Engine(size: Size(200, 300))
    engine.root.backgroundColor = .white
    let parent = engine.makeLayer(), child = engine.makeLayer(), other = engine.makeLayer()
    try engine.withoutActions {
        parent.frame = Rect(10, 10, 60, 60)
        parent.backgroundColor = .black
        child.frame = Rect(120, 20, 30, 30)    // at (130, 30) on the canvas
        child.backgroundColor = Color(red: 1, green: 0, blue: 0)
        try parent.addSublayer(child)
        other.frame = Rect(20, 75, 40, 20)
        other.backgroundColor = Color(red: 0, green: 0, blue: 1)
        try engine.root.addSublayer(parent)
        try engine.root.addSublayer(other)
    }
    // A card whose shadow crosses into the right band, its body not.
    let card = engine.makeLayer()
    try engine.withoutActions {
        card.frame = Rect(75, 2, 20, 6)
        card.backgroundColor = .white
        card.shadowOpacity = 0.5
        card.shadowRadius = 4
        try engine.root.addSublayer(card)
    }
    let target = RenderTarget()
    try engine.render(into: target)
    let left = [PixelRect(x: 0, y: 0, width: 100, height: 300)], right = [PixelRect(x: 100, y: 0, width: 100, height: 300)]
    var spill = try #require(RenderBands.spill(target.tracker, bands: [left, right], of: 1))
    // The parent's body (with its antialiasing margin) is drawn by the right band; `other` is not,
    // and of the card only the shadow is, cut to the band.
    #expect(spill.contains { $0.contains(PixelRect(x: 10, y: 10, width: 60, height: 60)) }, "\(spill)")
    #expect(!spill.contains { $0.intersects(PixelRect(x: 20, y: 80, width: 40, height: 15)) }, "\(spill)")
    #expect(!spill.contains { $0.intersects(PixelRect(x: 75, y: 2, width: 20, height: 6)) }, "\(spill)")
    // Under its own masksToBounds clip the card's shadow is not cut to the band: the card is drawn.
    try engine.withoutActions { card.masksToBounds = true }
    try engine.render(into: target)
    spill = try #require(RenderBands.spill(target.tracker, bands: [left, right], of: 1))
    #expect(spill.contains { $0.contains(PixelRect(x: 75, y: 2, width: 20, height: 6)) }, "\(spill)")
    try engine.withoutActions { card.removeFromSuperlayer() }
    try engine.render(into: target)
    // A faded group, a mask or a unit drawn by the band: unknown.
    for change in 0..<3 {
        let g = engine.makeLayer()
        try engine.withoutActions {
            g.frame = Rect(90, 40, 40, 40)
            g.backgroundColor = .black
            let inner = engine.makeLayer()
            inner.frame = Rect(5, 5, 10, 10)
            inner.backgroundColor = .white
            try g.addSublayer(inner)
            switch change {
            case 0: g.opacity = 0.5; g.allowsGroupOpacity = true
            case 1:
                let m = engine.makeLayer()
                m.frame = Rect(0, 0, 20, 20)
                m.backgroundColor = .black
                try g.setMask(m)
            default: g.shouldRasterize = true
            }
            try engine.root.addSublayer(g)
        }
        try engine.render(into: target)
        #expect(RenderBands.spill(target.tracker, bands: [left, right], of: 1) == nil, "change \(change)")
        try engine.withoutActions { g.removeFromSuperlayer() }
        try engine.render(into: target)
        #expect(RenderBands.spill(target.tracker, bands: [left, right], of: 1) != nil, "change \(change) removed")
    }
}
