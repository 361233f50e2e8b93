import Caluna
import CCairo
import Glibc

/// Issue #9's shape row: a CAShapeLayer stroking a 2,000-segment zig-zag
/// spiral with round joins, the whole frame re-rendered each run, against
/// raw cairo stroking the same path into a surface of the same size.
class ShapeStroke: CairoPeerBenchmark {
    class var name: String { "shape-stroke" }
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

    /// Only the first `strokeEnd` of the path by arc length (the `shape-trim` row).
    var strokeEnd: Double { 1 }

    required init() throws {
        engine = try Engine.singleThreaded(size: Size(ShapeStroke.width, ShapeStroke.height), scale: 1)
        engine.root.backgroundColor = .white
        path = ShapeStroke.makePath()
        let shape = engine.makeLayer(kind: .shapeLayer)
        try shape.setValue(.path(path), forKeyPath: "path")
        try shape.setValue(.null, forKeyPath: "fillColor")
        try shape.setValue(.color(Color(red: 0.8, green: 0.1, blue: 0.1)), forKeyPath: "strokeColor")
        try shape.setValue(.number(ShapeStroke.lineWidth), forKeyPath: "lineWidth")
        try shape.setValue(.string("round"), forKeyPath: "lineJoin")
        try shape.setValue(.number(strokeEnd), forKeyPath: "strokeEnd")
        try engine.root.addSublayer(shape)
    }

    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(ShapeStroke.width, ShapeStroke.height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        // The peer trims by hand: lines up to strokeEnd of the total length.
        var points: [Point] = []
        for case .move(let p) in path.elements { points.append(p) }
        for case .line(let p) in path.elements { points.append(p) }
        var total = 0.0
        for i in 1..<points.count { total += points[i - 1].distance(to: points[i]) }
        var left = total * strokeEnd
        cairo_move_to(cr, points[0].x, points[0].y)
        for i in 1..<points.count where left > 0 {
            let a = points[i - 1], b = points[i], d = a.distance(to: b)
            let f = min(1, left / d)
            cairo_line_to(cr, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
            left -= d
        }
        cairo_set_line_width(cr, ShapeStroke.lineWidth)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_source_rgb(cr, 0.8, 0.1, 0.1)
        cairo_stroke(cr)
        cairo_destroy(cr)
        return surface
    }
}

/// The same stroke with strokeEnd 0.5: caluna trims by arc length every frame
/// (the measured path is cached on the layer); the peer trims its lines by
/// hand every frame, the least such a trim can cost.
final class ShapeTrimmed: ShapeStroke {
    override class var name: String { "shape-trim" }
    override var detail: String { "\(ShapeStroke.segments) segs strokeEnd .5" }
    override var strokeEnd: Double { 0.5 }
}
