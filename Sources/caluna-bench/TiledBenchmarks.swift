import Caluna
import CCairo
import Glibc

/// Issue #9's tiled row: listing 6.12's use — a 4096×4096 picture (64-point
/// cells, a disc in each) panned 32 points per frame in a 512×512 view. The
/// CATiledLayer draws a tile only when it comes into view and composites the
/// cached ones; the immediate-mode peer (raw cairo) draws every visible cell
/// each frame. The remark reports the tiles drawn per frame.
final class TiledPan: CairoPeerBenchmark {
    static let name = "tiled-pan"
    static let peer = "cairo"
    static let side = 512.0, picture = 4096.0, cell = 64.0
    let engine: Engine
    let tiled: Layer
    var calunaFrames = 0, peerFrames = 0
    var tiles = 0
    var detail: String { "4096x4096 in 512x512, 32 pt/frame" }

    static func colour(_ i: Int, _ j: Int) -> Color {
        Color(red: Double(i * 37 % 256) / 255, green: Double(j * 53 % 256) / 255, blue: Double((i + j) * 29 % 256) / 255)
    }

    /// The pan for frame `n`: the picture's x at the view's left edge.
    static func offset(_ n: Int) -> Double { Double(n * 32 % Int(picture - side)) }

    required init() throws {
        engine = try Engine.singleThreaded(size: Size(TiledPan.side, TiledPan.side), scale: 1)
        tiled = engine.makeLayer(kind: .tiledLayer)
        try tiled.setValue(.number(0), forKeyPath: "fadeDuration")
        tiled.anchorPoint = .zero
        tiled.bounds = Rect(0, 0, TiledPan.picture, TiledPan.picture)
        tiled.drawHandler = { _, ctx in
            let clip = ctx.initialClip, c = TiledPan.cell
            for j in Int(clip.minY / c)..<Int((clip.maxY / c).rounded(.up)) {
                for i in Int(clip.minX / c)..<Int((clip.maxX / c).rounded(.up)) {
                    try ctx.setFillColor(TiledPan.colour(i, j))
                    try ctx.fillRect(Rect(Double(i) * c, Double(j) * c, c, c))
                    try ctx.setFillColor(.white)
                    try ctx.fillEllipse(in: Rect(Double(i) * c + 8, Double(j) * c + 8, c - 16, c - 16))
                }
            }
        }
        try engine.root.addSublayer(tiled)
    }

    func runCaluna() throws {
        calunaFrames += 1
        engine.withoutActions { tiled.position = Point(-TiledPan.offset(calunaFrames), 0) }
        _ = try engine.render()
        tiles += engine.stats.tilesDrawn
    }

    func runPeer() throws {
        peerFrames += 1
        cairo_surface_destroy(try peerRender())
    }

    /// Raw cairo: every cell meeting the view, each frame.
    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(TiledPan.side, TiledPan.side)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let x0 = TiledPan.offset(peerFrames), c = TiledPan.cell
        cairo_translate(cr, -x0, 0)
        for j in 0..<Int(TiledPan.side / c) {
            for i in Int(x0 / c)..<Int(((x0 + TiledPan.side) / c).rounded(.up)) {
                let k = TiledPan.colour(i, j)
                cairo_set_source_rgb(cr, k.red, k.green, k.blue)
                cairo_rectangle(cr, Double(i) * c, Double(j) * c, c, c)
                cairo_fill(cr)
                cairo_set_source_rgb(cr, 1, 1, 1)
                cairo_save(cr)
                cairo_translate(cr, Double(i) * c + c / 2, Double(j) * c + c / 2)
                cairo_arc(cr, 0, 0, c / 2 - 8, 0, 2 * Double.pi)
                cairo_restore(cr)
                cairo_fill(cr)
            }
        }
        return surface
    }

    var tolerance: Int { 2 }

    func check() throws -> String {
        // Both at frame 0's pan; the frame counters stay as they are.
        let saved = peerFrames
        peerFrames = 0
        defer { peerFrames = saved }
        engine.withoutActions { tiled.position = .zero }
        let mine = RGBA(try engine.render())
        let surface = try peerRender()
        defer { cairo_surface_destroy(surface) }
        return try comparePictures(caluna: mine, peer: RGBA(cairoSurface: surface), peerName: Self.peer, tolerance: 2)
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "tiles/frame " + fixed(Double(tiles) / Double(max(calunaFrames, 1)), 2)
    }
}
