import Caluna
import CCairo
import Glibc

/// Issue #21's `damage-move`: 1920×1080, 500 static layers and one 20×20
/// layer moving each frame, rendered into a RenderTarget (only the damage is
/// redrawn). The peer is hand-written cairo keeping its own frame and
/// redrawing just the old and new boxes (background, the static rectangles
/// there, the mover). The remark compares the incremental frame with a full
/// redraw and with a frame where nothing changed.
final class DamageMove: Benchmark {
    static let name = "damage-move"
    static let peer = "cairo"
    static let width = 1920, height = 1080, count = 500

    let engine: Engine
    let mover: Layer
    let target = RenderTarget()
    let statics: [(rect: Rect, color: Color)]
    let background = Color(r8: 240, g8: 240, b8: 240)
    let peerSurface: OpaquePointer
    var step = 0, peerStep = 0
    var detail: String { "500 layers, one moving" }

    init() throws {
        var rng = LCG(seed: 0xDA_3A6E)
        var s: [(rect: Rect, color: Color)] = []
        for i in 0..<DamageMove.count {
            let r = Rect(Double(rng.below(DamageMove.width - 60)), Double(rng.below(DamageMove.height - 60)),
                         Double(20 + rng.below(100)), Double(20 + rng.below(100)))
            s.append((r, Color(r8: rng.below(256), g8: rng.below(256), b8: rng.below(256), a8: i % 4 == 3 ? 160 : 255)))
        }
        statics = s
        engine = try Engine.singleThreaded(size: Size(Double(DamageMove.width), Double(DamageMove.height)), scale: 1)
        engine.root.backgroundColor = background
        for (r, c) in statics {
            let l = engine.makeLayer()
            l.frame = r
            l.backgroundColor = c
            try engine.root.addSublayer(l)
        }
        mover = engine.makeLayer()
        mover.frame = DamageMove.moverRect(0)
        mover.backgroundColor = Color(r8: 200, g8: 30, b8: 30)
        try engine.root.addSublayer(mover)
        try engine.render(into: target)
        peerSurface = try cairoSurface(Double(DamageMove.width), Double(DamageMove.height))
        peerDraw([PixelRect(x: 0, y: 0, width: DamageMove.width, height: DamageMove.height)], moverAt: 0)
    }

    deinit { cairo_surface_destroy(peerSurface) }

    /// Where the mover is at frame `k`: whole pixels, 7 to the right each frame.
    static func moverRect(_ k: Int) -> Rect {
        Rect(Double(100 + (k * 7) % 1700), Double(500 + (k * 3) % 400), 20, 20)
    }

    func runCaluna() throws {
        step += 1
        engine.withoutActions { mover.position = Point(DamageMove.moverRect(step).midX, DamageMove.moverRect(step).midY) }
        try engine.render(into: target)
    }

    /// Redraws `rects` of the peer's frame: background, the static
    /// rectangles, the mover at frame `k`.
    func peerDraw(_ rects: [PixelRect], moverAt k: Int) {
        let cr = cairo_create(peerSurface)!
        for r in rects { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
        cairo_clip(cr)
        cairo_set_source_rgba(cr, background.red, background.green, background.blue, 1)
        cairo_paint(cr)
        var clip = Rect.zero
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        clip = Rect(x0, y0, x1 - x0, y1 - y0)
        for (r, c) in statics where r.intersects(clip) {
            cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            cairo_fill(cr)
        }
        let m = DamageMove.moverRect(k)
        cairo_rectangle(cr, m.minX, m.minY, m.width, m.height)
        cairo_set_source_rgba(cr, 200.0 / 255, 30.0 / 255, 30.0 / 255, 1)
        cairo_fill(cr)
        cairo_destroy(cr)
    }

    func runPeer() throws {
        let old = DamageMove.moverRect(peerStep)
        peerStep += 1
        let new = DamageMove.moverRect(peerStep)
        peerDraw([old, new].map { PixelRect(x: Int($0.minX), y: Int($0.minY), width: 20, height: 20) }, moverAt: peerStep)
    }

    /// Both frames show the same picture, and the retained one is byte for
    /// byte a full redraw.
    func check() throws -> String {
        while peerStep < step { try runPeer() }
        while step < peerStep { try runCaluna() }
        let full = try engine.render()
        let mine = RGBA(target.frame!)
        guard mine.bytes == RGBA(full).bytes else { throw BenchmarkFailure("the retained frame differs from a full redraw") }
        return try comparePictures(caluna: mine, peer: RGBA(cairoSurface: peerSurface), peerName: "cairo", tolerance: 0)
    }

    /// A full redraw and an unchanged frame, timed here (median of 21).
    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        func time(_ body: () throws -> Void) -> Double {
            var xs: [Double] = []
            for _ in 0..<21 {
                let t0 = monotonicSeconds()
                try? body()
                xs.append(monotonicSeconds() - t0)
            }
            return median(xs)
        }
        let full = time { _ = try engine.render(into: target, full: true) }
        let still = time { _ = try engine.render(into: target) }
        return "full frame \(fixed(full * 1e3, 3)) ms: incremental \(fixed(100 * t.caluna / full, 2))%, unchanged \(fixed(100 * still / full, 2))% (\(fixed(still * 1e3, 4)) ms)"
    }
}
