import Caluna
import CCairo
import Glibc

/// Issue #21's `shadow-cards`: 100 white rounded cards (80×80, radius 12)
/// with shadowRadius 8 (σ = 8 px), opacity 0.5, offset (0, 4), on a
/// 1000×1000 grey frame. caluna draws a first frame (its effect cache
/// emptied before each run); the peer is hand-written cairo with a
/// separable Gaussian blur of each card's silhouette (the 3σ kernel), the
/// same picture. The remark times a frame where one card moved by a pixel,
/// redrawn into a RenderTarget, against the first frame.
final class ShadowCards: Benchmark {
    static let name = "shadow-cards"
    static let peer = "cairo+blur"
    static let side = 1000, sigma = 8.0, cornerRadius = 12.0, opacity = 0.5, offsetY = 4.0
    let engine: Engine
    let cards: [Layer]
    let target = RenderTarget()
    let kernel: [Float]
    var moves = 0
    var detail: String { "100 cards, σ 8, 1000x1000" }

    init() throws {
        let engine = try Engine.singleThreaded(size: Size(Double(ShadowCards.side), Double(ShadowCards.side)), scale: 1)
        self.engine = engine
        engine.root.backgroundColor = Color(r8: 230, g8: 230, b8: 230)
        cards = try (0..<100).map { i in
            let card = engine.makeLayer()
            card.frame = ShadowCards.rect(i)
            card.backgroundColor = .white
            card.cornerRadius = ShadowCards.cornerRadius
            card.shadowOpacity = ShadowCards.opacity
            card.shadowRadius = ShadowCards.sigma
            card.shadowOffset = Size(0, ShadowCards.offsetY)
            try engine.root.addSublayer(card)
            return card
        }
        let m = Int((3 * ShadowCards.sigma).rounded(.up))
        let w = (-m...m).map { exp(-Double($0 * $0) / (2 * ShadowCards.sigma * ShadowCards.sigma)) }
        let sum = w.reduce(0, +)
        kernel = w.map { Float($0 / sum) }
        try engine.render(into: target)
    }

    static func rect(_ i: Int) -> Rect { Rect(Double(i % 10) * 100 + 10, Double(i / 10) * 100 + 10, 80, 80) }

    func runCaluna() throws {
        engine.effectCache.removeAll()
        _ = try engine.render()
    }

    func runPeer() throws { cairo_surface_destroy(try peerFrame()) }

    /// The rounded card path, built as caluna builds it (clockwise from the top-left).
    static func roundedRect(_ cr: OpaquePointer, _ r: Rect) {
        let k = cornerRadius
        cairo_new_sub_path(cr)
        cairo_move_to(cr, r.minX + k, r.minY)
        cairo_line_to(cr, r.maxX - k, r.minY)
        cairo_arc(cr, r.maxX - k, r.minY + k, k, -Double.pi / 2, 0)
        cairo_line_to(cr, r.maxX, r.maxY - k)
        cairo_arc(cr, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
        cairo_line_to(cr, r.minX + k, r.maxY)
        cairo_arc(cr, r.minX + k, r.maxY - k, k, Double.pi / 2, Double.pi)
        cairo_line_to(cr, r.minX, r.minY + k)
        cairo_arc(cr, r.minX + k, r.minY + k, k, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Each card: its silhouette in an A8 buffer, blurred along rows then
    /// columns, painted black at 0.5 through the result, offset; then the card.
    func peerFrame() throws -> OpaquePointer {
        let surface = try cairoSurface(Double(ShadowCards.side), Double(ShadowCards.side))
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 230.0 / 255, 230.0 / 255, 230.0 / 255)
        cairo_paint(cr)
        let m = kernel.count / 2, n = 80 + 2 * m
        let rows = UnsafeMutablePointer<Float>.allocate(capacity: n * n)
        defer { rows.deallocate() }
        kernel.withUnsafeBufferPointer { k in
            for i in 0..<100 {
                let r = ShadowCards.rect(i)
                let silhouette = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(n), Int32(n))!
                let blurred = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(n), Int32(n))!
                let sc = cairo_create(silhouette)!
                ShadowCards.roundedRect(sc, Rect(Double(m), Double(m), 80, 80))
                cairo_fill(sc)
                cairo_destroy(sc)
                cairo_surface_flush(silhouette)
                let src = cairo_image_surface_get_data(silhouette)!, dst = cairo_image_surface_get_data(blurred)!
                let ss = Int(cairo_image_surface_get_stride(silhouette)), ds = Int(cairo_image_surface_get_stride(blurred))
                // Rows (only those holding the card), then columns.
                rows.initialize(repeating: 0, count: n * n)
                for y in m..<(m + 80) {
                    for x in 0..<n {
                        var sum: Float = 0
                        for t in max(0, m - x)..<min(k.count, n + m - x) { sum += Float(src[y * ss + x + t - m]) * k[t] }
                        rows[y * n + x] = sum
                    }
                }
                for y in 0..<n {
                    for x in 0..<n {
                        var sum: Float = 0
                        for t in max(0, m - y)..<min(k.count, n + m - y) { sum += rows[(y + t - m) * n + x] * k[t] }
                        dst[y * ds + x] = UInt8(min(max(sum + 0.5, 0), 255))
                    }
                }
                cairo_surface_mark_dirty(blurred)
                cairo_set_source_rgba(cr, 0, 0, 0, ShadowCards.opacity)
                cairo_mask_surface(cr, blurred, r.minX - Double(m), r.minY - Double(m) + ShadowCards.offsetY)
                ShadowCards.roundedRect(cr, r)
                cairo_set_source_rgb(cr, 1, 1, 1)
                cairo_fill(cr)
                cairo_surface_destroy(silhouette)
                cairo_surface_destroy(blurred)
            }
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    /// The same picture; a retained frame after moves is a full redraw's.
    func check() throws -> String {
        let peer = try peerFrame()
        defer { cairo_surface_destroy(peer) }
        let home = ShadowCards.rect(44)
        engine.withoutActions { cards[44].position = Point(home.midX, home.midY) }
        moves = 0
        try runCaluna()
        let hits = engine.stats.effectCacheHits, misses = engine.stats.effectCacheMisses
        let text = try comparePictures(caluna: RGBA(try engine.render()), peer: RGBA(cairoSurface: peer),
                                       peerName: "cairo+blur", tolerance: 2)
        try moveOne()
        guard RGBA(target.frame!).bytes == RGBA(try engine.renderWithoutEffectCache()).bytes else {
            throw BenchmarkFailure("the retained frame differs from a full redraw")
        }
        return "\(text); first frame: \(misses) blur, \(hits) cached"
    }

    /// Card 44 one pixel right or back, redrawn into the retained target.
    func moveOne() throws {
        moves += 1
        let r = ShadowCards.rect(44)
        engine.withoutActions { cards[44].position = Point(r.midX + Double(moves % 2), r.midY) }
        try engine.render(into: target)
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        var xs: [Double] = []
        for _ in 0..<41 {
            let t0 = monotonicSeconds()
            try? moveOne()
            xs.append(monotonicSeconds() - t0)
        }
        let moved = median(xs)
        // Without the effect cache every shadow is blurred: the blur's own speed.
        var ys: [Double] = []
        for _ in 0..<11 {
            let t0 = monotonicSeconds()
            _ = try? engine.renderWithoutEffectCache()
            ys.append(monotonicSeconds() - t0)
        }
        let uncached = median(ys)
        return "one card moved: \(fixed(moved * 1e3, 3)) ms = \(fixed(100 * moved / t.caluna, 1))% of the first frame; "
            + "without the effect cache (100 blurs) \(fixed(uncached * 1e3, 2)) ms = \(fixed(uncached / t.peer, 2))× the peer"
    }
}
