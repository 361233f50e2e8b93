import Caluna
import CCairo
import Glibc

/// Issue #9's shape row: a CAShapeLayer stroking a 2,000-segment zig-zag
/// spiral with round joins, the whole frame re-rendered each run, against
/// raw cairo stroking the same path into a surface of the same size.
final class ShapeStroke: CairoPeerBenchmark {
    static let name = "shape-stroke"
    static let peer = "cairo"
    static let width = 800.0, height = 800.0, segments = 2000, lineWidth = 3.0
    let engine: Engine
    let path: Path
    var detail: String { "\(ShapeStroke.segments) segments 800x800" }

    /// A spiral of line segments that alternate in and out (every join is a
    /// sharp turn, so joins dominate as in a plotted signal).
    static func makePath() -> Path {
        var p = Path()
        let cx = width / 2, cy = height / 2
        for i in 0...segments {
            let a = Double(i) * 0.05, r = 20 + Double(i) * 0.18 + (i % 2 == 0 ? 0 : 6)
            let q = Point(cx + r * cos(a), cy + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.line(to: q) }
        }
        return p
    }

    init() throws {
        engine = try Engine(size: Size(ShapeStroke.width, ShapeStroke.height), scale: 1)
        engine.root.backgroundColor = .white
        path = ShapeStroke.makePath()
        let shape = engine.makeLayer(kind: .shapeLayer)
        try shape.setValue(.path(path), forKeyPath: "path")
        try shape.setValue(.null, forKeyPath: "fillColor")
        try shape.setValue(.color(Color(red: 0.8, green: 0.1, blue: 0.1)), forKeyPath: "strokeColor")
        try shape.setValue(.number(ShapeStroke.lineWidth), forKeyPath: "lineWidth")
        try shape.setValue(.string("round"), forKeyPath: "lineJoin")
        try engine.root.addSublayer(shape)
    }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(ShapeStroke.width, ShapeStroke.height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        for e in path.elements {
            switch e {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            default: break
            }
        }
        cairo_set_line_width(cr, ShapeStroke.lineWidth)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_source_rgb(cr, 0.8, 0.1, 0.1)
        cairo_stroke(cr)
        cairo_destroy(cr)
        return surface
    }
}
