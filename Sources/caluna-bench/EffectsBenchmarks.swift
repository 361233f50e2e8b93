import Caluna
import CCairo
import Glibc

/// Issue #5's rows: (a) rounded, clipped layers against the same drawn by
/// hand with cairo; (b) shadows with a shadowPath against shadows taken from
/// the content; (c) a rasterised subtree, cache hit against cache miss.
enum EffectsScene {
    static let width = 1000, height = 1000, side = 100.0, radius = 16.0

    /// 100 cards on a 10×10 grid, each a white rounded layer clipping a
    /// coloured sublayer that overflows its bottom-right corner.
    static func cards(_ engine: Engine, shadow: Bool = false, shadowPath: Bool = false) throws {
        engine.root.backgroundColor = Color(r8: 230, g8: 230, b8: 230)
        for i in 0..<100 {
            let card = engine.makeLayer()
            card.frame = rect(i)
            card.backgroundColor = .white
            card.cornerRadius = radius
            if shadow {
                card.shadowOpacity = 0.5
                card.shadowOffset = Size(0, 4)
                card.shadowRadius = 6
                if shadowPath { var p = Path(); p.addRect(Rect(0, 0, side - 20, side - 20)); card.shadowPath = p }
            } else {
                card.masksToBounds = true
            }
            let inner = engine.makeLayer()
            inner.frame = Rect(40, 40, 60, 60)
            inner.backgroundColor = color(i)
            try card.addSublayer(inner)
            try engine.root.addSublayer(card)
        }
    }

    static func rect(_ i: Int) -> Rect {
        Rect(Double(i % 10) * side + 10, Double(i / 10) * side + 10, side - 20, side - 20)
    }

    static func color(_ i: Int) -> Color {
        Color(r8: (i * 37) % 256, g8: (i * 91) % 256, b8: (i * 53) % 256)
    }

    static func engine() throws -> Engine { try Engine.singleThreaded(size: Size(Double(width), Double(height)), scale: 1) }
}

/// (a) cornerRadius + masksToBounds + a sublayer, 100 times.
final class RoundedClips: CairoPeerBenchmark {
    static let name = "rounded-clips"
    static let peer = "cairo"
    let engine: Engine
    var detail: String { "100 clipped cards 1000x1000" }

    init() throws {
        engine = try EffectsScene.engine()
        try EffectsScene.cards(engine)
    }

    var tolerance: Int { 2 }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(Double(EffectsScene.width), Double(EffectsScene.height))
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 230.0 / 255, 230.0 / 255, 230.0 / 255)
        cairo_paint(cr)
        for i in 0..<100 {
            let r = EffectsScene.rect(i), k = EffectsScene.radius
            cairo_save(cr)
            cairo_new_sub_path(cr)
            cairo_arc(cr, r.maxX - k, r.minY + k, k, -Double.pi / 2, 0)
            cairo_arc(cr, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
            cairo_arc(cr, r.minX + k, r.maxY - k, k, Double.pi / 2, Double.pi)
            cairo_arc(cr, r.minX + k, r.minY + k, k, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(cr)
            cairo_clip(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            let c = EffectsScene.color(i)
            cairo_set_source_rgb(cr, c.red, c.green, c.blue)
            cairo_rectangle(cr, r.minX + 40, r.minY + 40, 60, 60)
            cairo_fill(cr)
            cairo_restore(cr)
        }
        cairo_destroy(cr)
        return surface
    }
}

/// (b) 100 shadowed cards: the shadow from a shadowPath (caluna side)
/// against the same shadow taken from the rendered content (peer side).
final class ShadowPaths: Benchmark {
    static let name = "shadow-paths"
    static let peer = "content-shadow"
    let withPath: Engine, fromContent: Engine
    var detail: String { "100 shadows 1000x1000" }

    init() throws {
        withPath = try EffectsScene.engine()
        try EffectsScene.cards(withPath, shadow: true, shadowPath: true)
        fromContent = try EffectsScene.engine()
        try EffectsScene.cards(fromContent, shadow: true)
    }

    func runCaluna() throws { _ = try withPath.render() }
    func runPeer() throws { _ = try fromContent.render() }

    /// The cards' content is not a plain rectangle (the sublayer overflows),
    /// so the pictures differ by design: only the shadow under each card's
    /// top-left quarter must agree.
    func check() throws -> String {
        let a = try withPath.render(), b = try fromContent.render()
        var worst = 0
        for i in 0..<100 {
            let r = EffectsScene.rect(i)
            let x = Int(r.minX) + 20, y = Int(r.minY) - 2
            guard let p = a.pixel(x: x, y: y), let q = b.pixel(x: x, y: y) else { continue }
            worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
        }
        guard worst <= 2 else { throw BenchmarkFailure("the two shadows differ above the cards by \(worst)") }
        return "shadow above cards max diff \(worst)"
    }
}

/// (c) A static subtree with shouldRasterize: a frame that hits the cache
/// (caluna side) against one that misses it (peer side: a change that does
/// not alter the picture — a sublayer's name — invalidates the cache).
final class RasterCacheFrames: Benchmark {
    static let name = "raster-cache"
    static let peer = "cache-miss"
    let hit: Engine, miss: Engine
    let missing: Layer
    var flip = false
    var detail: String { "100 shadowed cards, rasterised" }

    init() throws {
        hit = try EffectsScene.engine()
        miss = try EffectsScene.engine()
        var last: Layer? = nil
        for e in [hit, miss] {
            let group = e.makeLayer()
            group.frame = Rect(0, 0, Double(EffectsScene.width), Double(EffectsScene.height))
            group.shouldRasterize = true
            try EffectsScene.cards(e, shadow: true)
            for card in e.root.sublayers { try group.addSublayer(card) }
            try e.root.addSublayer(group)
            last = group.sublayers.last
        }
        missing = last!
    }

    func runCaluna() throws { _ = try hit.render() }

    func runPeer() throws {
        flip.toggle()
        missing.name = flip ? "a" : "b"
        _ = try miss.render()
    }

    func check() throws -> String {
        _ = try hit.render()
        let a = RGBA(try hit.render())
        guard hit.stats.rasterCacheHits == 1, hit.stats.rasterCacheMisses == 0 else {
            throw BenchmarkFailure("the static subtree did not hit its cache: \(hit.stats)")
        }
        try runPeer()
        guard miss.stats.rasterCacheMisses == 1 else { throw BenchmarkFailure("the changed subtree did not miss: \(miss.stats)") }
        return try comparePictures(caluna: a, peer: RGBA(try miss.render()), peerName: "cache miss", tolerance: 0)
    }
}

/// (d) Issue #20: one shadow blurred at σ = 8 and at σ = 300 (the blur's
/// cost must not grow with σ). The peer is cairo compositing the same
/// picture from the exact Gaussian shadow, computed once before timing: the
/// ratio is what the blur adds to painting, and the check is the blur's
/// distance from the exact Gaussian.
class ShadowBlur: CairoPeerBenchmark {
    class var sigma: Double { 8 }
    class var name: String { "shadow-blur-8" }
    static let peer = "cairo-exact-mask"
    static let side = 512, box = (128, 384)
    let engine: Engine
    let mask: OpaquePointer
    var detail: String { "1 shadow σ=\(Int(Self.sigma)) \(Self.side)x\(Self.side)" }
    var tolerance: Int { 2 }

    required init() throws {
        let n = Self.side, (lo, hi) = Self.box
        engine = try Engine.singleThreaded(size: Size(Double(n), Double(n)), scale: 1)
        engine.root.backgroundColor = .white
        let card = engine.makeLayer()
        card.frame = Rect(Double(lo), Double(lo), Double(hi - lo), Double(hi - lo))
        card.backgroundColor = Color(r8: 0, g8: 0, b8: 255)
        card.shadowOpacity = 1
        card.shadowOffset = Size(0, 0)
        card.shadowRadius = Self.sigma
        try engine.root.addSublayer(card)
        // The exact shadow of a pixel-aligned square is separable: g(x)·g(y),
        // g the square's indicator convolved with the normalised kernel (3σ).
        let s = Self.sigma, r = Int((3 * s).rounded(.up))
        let k = (-r...r).map { exp(-Double($0 * $0) / (2 * s * s)) }
        let total = k.reduce(0, +)
        var g = [Double](repeating: 0, count: n)
        for x in 0..<n {
            for t in max(lo, x - r)..<max(max(lo, x - r), min(hi, x + r + 1)) { g[x] += k[x - t + r] }
            g[x] /= total
        }
        mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(n), Int32(n))
        let stride = Int(cairo_image_surface_get_stride(mask)), data = cairo_image_surface_get_data(mask)!
        for y in 0..<n { for x in 0..<n { data[y * stride + x] = UInt8((255 * g[x] * g[y]).rounded()) } }
        cairo_surface_mark_dirty(mask)
    }

    deinit { cairo_surface_destroy(mask) }

    func peerRender() throws -> OpaquePointer {
        let n = Double(Self.side), (lo, hi) = Self.box
        let surface = try cairoSurface(n, n)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_mask_surface(cr, mask, 0, 0)
        cairo_set_source_rgb(cr, 0, 0, 1)
        cairo_rectangle(cr, Double(lo), Double(lo), Double(hi - lo), Double(hi - lo))
        cairo_fill(cr)
        cairo_destroy(cr)
        return surface
    }
}

final class ShadowBlurWide: ShadowBlur {
    override class var sigma: Double { 300 }
    override class var name: String { "shadow-blur-300" }
}
