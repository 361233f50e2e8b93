import Caluna
import CCairo
import Glibc

/// Issue #9's gradient row: 100 CAGradientLayers (60×60, listing 6.7's three
/// stops on the diagonal) on a 600×600 frame, against raw cairo filling the
/// same 100 rectangles with the same linear patterns.
final class GradientLayers: CairoPeerBenchmark {
    static let name = "gradient-layers"
    static let peer = "cairo"
    static let colours = [Color(red: 1, green: 0, blue: 0), Color(red: 1, green: 1, blue: 0), Color(red: 0, green: 1, blue: 0)]
    static let locations = [0.0, 0.25, 0.5]
    let engine: Engine
    var detail: String { "100 layers 600x600" }

    init() throws {
        engine = try Engine.singleThreaded(size: Size(600, 600), scale: 1)
        engine.root.backgroundColor = .black
        for i in 0..<100 {
            let g = engine.makeLayer(kind: .gradientLayer)
            try g.setValue(.rect(Rect(Double(i % 10) * 60, Double(i / 10) * 60, 60, 60)), forKeyPath: "frame")
            try g.setValue(.array(GradientLayers.colours.map(Value.color)), forKeyPath: "colors")
            try g.setValue(.array(GradientLayers.locations.map(Value.number)), forKeyPath: "locations")
            try g.setValue(.point(Point(0, 0)), forKeyPath: "startPoint")
            try g.setValue(.point(Point(1, 1)), forKeyPath: "endPoint")
            try engine.root.addSublayer(g)
        }
    }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(600, 600)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        for i in 0..<100 {
            let x = Double(i % 10) * 60, y = Double(i / 10) * 60
            let p = cairo_pattern_create_linear(x, y, x + 60, y + 60)
            for (t, c) in zip(GradientLayers.locations, GradientLayers.colours) {
                cairo_pattern_add_color_stop_rgba(p, t, c.red, c.green, c.blue, c.alpha)
            }
            cairo_pattern_add_color_stop_rgba(p, 1, 0, 1, 0, 1)
            cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD)
            cairo_set_source(cr, p)
            cairo_rectangle(cr, x, y, 60, 60)
            cairo_fill(cr)
            cairo_pattern_destroy(p)
        }
        cairo_destroy(cr)
        return surface
    }
}

/// Issue #9's replicator row: listing 6.8 (ten 100×100 squares on a circle,
/// each instance tinted) on 500×650, against raw cairo filling the ten
/// rotated squares in their tinted colours.
final class ReplicatorRing: CairoPeerBenchmark {
    static let name = "replicator-ring"
    static let peer = "cairo"
    let engine: Engine
    var detail: String { "10 instances 500x650" }

    static var step: Transform3D {
        Transform3D.translation(0, -200).concatenating(.rotation(Double.pi / 5, 0, 0, 1)).concatenating(.translation(0, 200))
    }

    init() throws {
        engine = try Engine.singleThreaded(size: Size(500, 650), scale: 1)
        engine.root.backgroundColor = .black
        let r = engine.makeLayer(kind: .replicatorLayer)
        try r.setValue(.rect(Rect(100, 0, 300, 300)), forKeyPath: "frame")
        try r.setValue(.number(10), forKeyPath: "instanceCount")
        try r.setValue(.transform(ReplicatorRing.step), forKeyPath: "instanceTransform")
        try r.setValue(.number(-0.1), forKeyPath: "instanceGreenOffset")
        try r.setValue(.number(-0.1), forKeyPath: "instanceBlueOffset")
        let square = engine.makeLayer(kind: .layer)
        try square.setValue(.rect(Rect(100, 100, 100, 100)), forKeyPath: "frame")
        square.backgroundColor = .white
        try r.addSublayer(square)
        try engine.root.addSublayer(r)
    }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(500, 650)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        for k in 0..<10 {
            // about the replicator's centre (250, 150 on the canvas): k·36° about (250, 350)
            cairo_identity_matrix(cr)
            cairo_translate(cr, 250, 350)
            cairo_rotate(cr, Double(k) * Double.pi / 5)
            cairo_translate(cr, -250, -350)
            let gb = (1 - 0.1 * Double(k)).rounded(toPlaces: 255)
            cairo_set_source_rgb(cr, 1, gb, gb)
            cairo_rectangle(cr, 200, 100, 100, 100)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        return surface
    }
}

private extension Double {
    /// Rounded to a multiple of 1/n (the 8-bit value the tint produces).
    func rounded(toPlaces n: Double) -> Double { (self * n).rounded() / n }
}
