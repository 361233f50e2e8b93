import Caluna
import CCairo

/// Listing 15.3's 3D grid: 10×10×10 layers of 100×100 points, 150 apart, at
/// zPosition −150·z, grey 1 − z/10, in a 1024×768 layer whose
/// sublayerTransform has m34 = −1/500 (one vanishing point at its centre).
/// Every layer is parallel to the screen, so each lands as a scaled
/// rectangle. The peer is plain cairo filling the same projected rectangles
/// back to front.
final class PerspectiveGrid: CairoPeerBenchmark {
    static let name = "perspective-grid"
    static let peer = "cairo"
    static let width = 1024.0, height = 768.0, side = 10, size = 100.0, spacing = 150.0, distance = 500.0

    let engine: Engine
    var detail: String { "1000 layers m34 1024x768" }

    init() throws {
        engine = try PerspectiveGrid.scene(m34: -1 / PerspectiveGrid.distance)
    }

    /// The grid (`nx`×`ny`×10 layers of `size`, `spacing` apart; listing
    /// 15.3's by default) in a container whose sublayerTransform has `m34`.
    static func scene(m34: Double, nx: Int = side, ny: Int = side, size: Double = size, spacing: Double = spacing,
                      configure: (Layer) -> Void = { _ in }) throws -> Engine {
        let e = try Engine.singleThreaded(size: Size(width, height), scale: 1)
        e.root.backgroundColor = .black
        let container = e.makeLayer()
        container.frame = Rect(0, 0, width, height)
        var p = Transform3D.identity
        p.m34 = m34
        container.sublayerTransform = p
        try e.root.addSublayer(container)
        for z in (0..<side).reversed() {
            for y in 0..<ny {
                for x in 0..<nx {
                    let l = e.makeLayer()
                    l.frame = Rect(0, 0, size, size)
                    l.position = Point(Double(x) * spacing, Double(y) * spacing)
                    l.zPosition = -Double(z) * PerspectiveGrid.spacing
                    let grey = 1 - Double(z) / 10
                    l.backgroundColor = Color(red: grey, green: grey, blue: grey, alpha: 1)
                    configure(l)
                    try container.addSublayer(l)
                }
            }
        }
        return e
    }

    /// Plain cairo: the perspective divide by hand (w = 1 + 150·z/500 about
    /// the container's centre), one rectangle per layer, far to near.
    func peerRender() throws -> OpaquePointer {
        let g = PerspectiveGrid.self
        let surface = try cairoSurface(g.width, g.height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        let cx = g.width / 2, cy = g.height / 2
        for z in (0..<g.side).reversed() {
            let w = 1 + Double(z) * g.spacing / g.distance, grey = 1 - Double(z) / 10
            cairo_set_source_rgb(cr, grey, grey, grey)
            for y in 0..<g.side {
                for x in 0..<g.side {
                    let px = (Double(x) * g.spacing - g.size / 2 - cx) / w + cx
                    let py = (Double(y) * g.spacing - g.size / 2 - cy) / w + cy
                    cairo_rectangle(cr, px, py, g.size / w, g.size / w)
                    cairo_fill(cr)
                }
            }
        }
        cairo_destroy(cr)
        return surface
    }
}

/// The same grid with every layer turned 30° about y and given a small
/// sublayer, so each layer is a true homography drawn offscreen and warped
/// by pixman. The peer is caluna itself drawing the same layers with m34 = 0:
/// the rotations then only squash the layers, which cairo composites
/// affinely. The ratio is the price of perspective compositing.
final class PerspectiveCards: Benchmark {
    static let name = "perspective-cards"
    static let peer = "affine"
    let perspective: Engine, affine: Engine
    var detail: String { "1000 tilted m34 vs m34=0" }

    init() throws {
        func card(_ l: Layer) {
            l.transform = Transform3D.rotation(.pi / 6, 0, 1, 0)
            let mark = Layer(engine: l.engine)
            mark.frame = Rect(10, 10, 30, 30)
            mark.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)
            try? l.addSublayer(mark)
        }
        perspective = try PerspectiveGrid.scene(m34: -1 / PerspectiveGrid.distance, configure: card)
        affine = try PerspectiveGrid.scene(m34: 0, configure: card)
    }

    func runCaluna() throws { _ = try perspective.render() }
    func runPeer() throws { _ = try affine.render() }

    func check() throws -> String {
        _ = try perspective.render()
        let p = perspective.stats
        _ = try affine.render()
        let a = affine.stats
        // Every card on screen took the offscreen path under perspective, none without.
        guard p.offscreenPasses > 100, a.offscreenPasses == 0 else {
            throw BenchmarkFailure("expected offscreen passes only under perspective (\(p.offscreenPasses) vs \(a.offscreenPasses))")
        }
        return "\(p.offscreenPasses) warped layers"
    }
}
