import Caluna
import CCairo
import Glibc

/// Issue #9's emitter row: a CAEmitterLayer in steady state with 500 live
/// particles (100/s × 5 s, 16×16 sprites tinted orange, fading, spinning),
/// the frame re-rendered each run — the particles computed from the seed and
/// drawn — against raw cairo painting the same 500 tinted sprites (their
/// positions, turns, scales and alphas taken from caluna once, the tinted
/// sprite made once: the peer does only the drawing).
final class EmitterParticles: CairoPeerBenchmark {
    static let name = "emitter-particles"
    static let peer = "cairo"
    static let width = 600.0, height = 600.0, side = 16
    let engine: Engine
    let particles: [EmitterParticle]
    let tinted: OpaquePointer
    var detail: String { "\(particles.count) particles 600x600" }
    var tolerance: Int { 1 }

    init() throws {
        engine = try Engine.singleThreaded(size: Size(EmitterParticles.width, EmitterParticles.height), scale: 1)
        engine.root.backgroundColor = .black
        let n = EmitterParticles.side
        let white = [UInt8](repeating: 255, count: n * n * 4)
        let sprite = try white.withUnsafeBytes {
            try Image(width: n, height: n, copying: $0.baseAddress!, stride: n * 4, format: .rgba8Straight)
        }
        let emitter = engine.makeLayer(kind: .emitterLayer)
        try emitter.setValue(.rect(Rect(0, 0, EmitterParticles.width, EmitterParticles.height)), forKeyPath: "frame")
        try emitter.setValue(.point(Point(300, 300)), forKeyPath: "emitterPosition")
        try emitter.setValue(.number(11), forKeyPath: "seed")
        let cell = EmitterCell()
        for (k, v) in [("birthRate", 100.0), ("lifetime", 5), ("alphaSpeed", -0.15), ("velocity", 50),
                       ("velocityRange", 30), ("emissionRange", 2 * Double.pi), ("spin", 1), ("spinRange", 2)] {
            try cell.setValue(.number(v), forKey: k)
        }
        try cell.setValue(.color(Color(red: 1, green: 0.5, blue: 0.1)), forKey: "color")
        try cell.setValue(.image(sprite), forKey: "contents")
        try emitter.setEmitterCells([cell])
        try engine.root.addSublayer(emitter)
        try engine.advance(to: 10)
        particles = try emitter.emitterParticles().particles
        guard particles.count == 500 else { throw BenchmarkFailure("expected 500 live particles, got \(particles.count)") }
        // The peer's sprite: the colour the tint gives (caluna truncates to 8 bits).
        tinted = try cairoSurface(Double(n), Double(n))
        let cr = cairo_create(tinted)
        cairo_set_source_rgb(cr, 1, 127.0 / 255, 25.0 / 255)
        cairo_paint(cr)
        cairo_destroy(cr)
    }

    deinit { cairo_surface_destroy(tinted) }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(EmitterParticles.width, EmitterParticles.height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        let h = Double(EmitterParticles.side) / 2
        for p in particles where p.color.alpha > 0 {
            cairo_identity_matrix(cr)
            cairo_translate(cr, p.position.x, p.position.y)
            cairo_rotate(cr, p.angle)
            cairo_scale(cr, p.scale, p.scale)
            cairo_set_source_surface(cr, tinted, -h, -h)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_paint_with_alpha(cr, p.color.alpha)
        }
        cairo_destroy(cr)
        return surface
    }
}
