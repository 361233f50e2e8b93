import Testing
import Glibc
@testable import Caluna

// Renders on several threads (RenderBands.swift): every band gives the
// serial render's bytes and counters.

/// The same seeded frames drawn on 1, 2, 3 and 7 threads (every region cut
/// into bands, however small): each frame, retained and full, is byte for
/// byte the serial one. CALUNA_BAND_SEEDS raises the count (docs/rendering.md).
@Test func bandsOnAnyThreadCountEqualTheSerialRender() throws {
    let seeds = UInt64(getenv("CALUNA_BAND_SEEDS").flatMap { Int(String(cString: $0)) } ?? 24)
    var banded = 0, sentBack = 0, columns = 0
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
    // Bands of rows and of columns.
    #expect(columns > 0 && columns < banded, "\(columns) of \(banded) banded frames in columns")
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
