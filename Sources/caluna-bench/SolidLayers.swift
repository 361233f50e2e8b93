import Caluna
import CCairo

/// 1,000 solid 40×40 layers, all direct sublayers of a white root, at
/// 1280×720 (scale 1), against plain cairo filling the same rectangles with
/// the same colours in the same order. Positions are whole points (spread
/// from −20 so some layers are clipped at the edges); one layer in eight is
/// translucent (alpha 0.5…0.9).
final class SolidLayers: CairoPeerBenchmark {
    static let name = "solid-layers"
    static let peer = "cairo"
    static let count = 1000, width = 1280, height = 720, side = 40.0

    let scene: [(rect: Rect, color: Color)]
    let engine: Engine
    var detail: String { "\(SolidLayers.count) layers \(SolidLayers.width)x\(SolidLayers.height)" }

    init() throws {
        var rng = LCG(seed: 0xCA1_0A)
        var s: [(rect: Rect, color: Color)] = []
        for i in 0..<SolidLayers.count {
            let x = Double(rng.below(SolidLayers.width) - 20), y = Double(rng.below(SolidLayers.height) - 20)
            let r = rng.below(256), g = rng.below(256), b = rng.below(256)
            let a = i % 8 == 7 ? 128 + rng.below(103) : 255
            s.append((Rect(x, y, SolidLayers.side, SolidLayers.side), Color(r8: r, g8: g, b8: b, a8: a)))
        }
        scene = s

        engine = try Engine.singleThreaded(size: Size(Double(SolidLayers.width), Double(SolidLayers.height)), scale: 1)
        engine.root.backgroundColor = .white
        for (rect, color) in scene {
            let l = engine.makeLayer()
            l.frame = rect
            l.backgroundColor = color
            try engine.root.addSublayer(l)
        }
    }

    /// What a plain cairo program does for this scene; the caller destroys
    /// the surface.
    func peerRender() throws -> OpaquePointer {
        let surface = try cairoSurface(Double(SolidLayers.width), Double(SolidLayers.height))
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        for (rect, c) in scene {
            cairo_rectangle(cr, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        return surface
    }
}
