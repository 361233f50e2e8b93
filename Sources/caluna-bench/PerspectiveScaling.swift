import Caluna
import CCairo

/// The book's G2: listing 15.3's grid grown to 100×100×10 = 100,000 attached
/// layers under m34 perspective (the listing's 100 pt layers, 150 pt apart:
/// most of the grid lies outside the 1024×768 view), one full render. Only
/// the layers that land in the view are drawn; the rest are transformed and
/// dropped. The peer is plain cairo filling just the
/// visible layers' projected rectangles (their culling done for free at
/// setup). At setup the same grid at 10×10×10 (1,000) and 100×10×10
/// (10,000) is rendered too: the remark gives all three frame times and the
/// R² of a line through them (G2: frame time grows linearly with layers).
final class PerspectiveScaling: Benchmark {
    static let name = "g2-grid-100k"
    static let peer = "cairo-visible"
    static let width = 1024.0, height = 768.0, size = 100.0, spacing = 150.0, zSpacing = 150.0, distance = 500.0

    let engine: Engine
    /// The visible layers' projected rectangles and greys, far to near.
    var visible: [(Rect, Double)] = []
    var scaling: [(Int, Double)] = []
    var detail: String { "100x100x10 m34 1024x768" }

    init() throws {
        for (nx, ny) in [(10, 10), (100, 10)] {
            let e = try PerspectiveScaling.scene(nx, ny, visible: nil)
            scaling.append((nx * ny * 10, try PerspectiveScaling.frameTime(e)))
        }
        var v: [(Rect, Double)] = []
        engine = try PerspectiveScaling.scene(100, 100, visible: &v)
        visible = v
        scaling.append((100_000, try PerspectiveScaling.frameTime(engine)))
    }

    /// `nx`×`ny`×10 layers (PerspectiveGrid's scene, smaller and closer);
    /// `visible` collects the projected rectangles inside the view.
    static func scene(_ nx: Int, _ ny: Int, visible: UnsafeMutablePointer<[(Rect, Double)]>?) throws -> Engine {
        let e = try PerspectiveGrid.scene(m34: -1 / distance, nx: nx, ny: ny)
        let cx = width / 2, cy = height / 2
        for z in (0..<10).reversed() {
            let w = 1 + Double(z) * zSpacing / distance, grey = 1 - Double(z) / 10
            for y in 0..<ny {
                for x in 0..<nx {
                    let r = Rect((Double(x) * spacing - size / 2 - cx) / w + cx, (Double(y) * spacing - size / 2 - cy) / w + cy,
                                 size / w, size / w)
                    if r.maxX > 0, r.maxY > 0, r.minX < width, r.minY < height { visible?.pointee.append((r, grey)) }
                }
            }
        }
        try e.step(0)
        return e
    }

    /// The median of 5 full renders, seconds.
    static func frameTime(_ e: Engine) throws -> Double {
        _ = try e.render()
        var t: [Double] = []
        for _ in 0..<5 {
            let t0 = monotonicSeconds()
            _ = try e.render()
            t.append(monotonicSeconds() - t0)
        }
        return median(t)
    }

    func runCaluna() throws { _ = try engine.render() }

    func runPeer() throws {
        let surface = try cairoSurface(PerspectiveScaling.width, PerspectiveScaling.height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        for (r, grey) in visible {
            cairo_set_source_rgb(cr, grey, grey, grey)
            cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    func check() throws -> String {
        _ = try engine.render()
        let drawn = engine.stats.layersDrawn
        // The root's background is drawn too.
        guard drawn == visible.count + 1 else {
            throw BenchmarkFailure("\(drawn) layers drawn, \(visible.count) + 1 intersect the view")
        }
        return "\(visible.count) of 100000 visible, all drawn"
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        // Least squares of time against layer count.
        let xs = scaling.map { Double($0.0) }, ys = scaling.map { $0.1 }
        let mx = xs.reduce(0, +) / 3, my = ys.reduce(0, +) / 3
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }, sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        let slope = sxy / sxx, icept = my - slope * mx
        let ssRes = zip(xs, ys).reduce(0) { $0 + pow2($1.1 - (icept + slope * $1.0)) }, ssTot = ys.reduce(0) { $0 + pow2($1 - my) }
        return scaling.map { "\($0.0): \(fixed($0.1 * 1e3, 2)) ms" }.joined(separator: ", ")
            + "; R² \(fixed(1 - ssRes / ssTot, 4)), \(fixed(slope * 1e9, 0)) ns per layer"
    }
}

private func pow2(_ x: Double) -> Double { x * x }
