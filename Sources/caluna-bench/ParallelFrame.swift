import Caluna
import Glibc

/// Issue #21's `parallel-frame`: a full redraw of a 1920×1080 photo gallery
/// (40 rounded cards with shadows, each an image scaled to fill, a gradient
/// strip, a title and a shape badge) on 2 threads; the peer is the same
/// engine on 1 thread. Both redraw in full into a render target, with warm
/// caches (text layouts, blurred shadows), as a video render does at every
/// frame. The check: the two frames are the same bytes.
final class ParallelFrame: Benchmark {
    static let name = "parallel-frame"
    static let peer = "1 thread"
    static let width = 1920.0, height = 1080.0
    let threaded: Engine, serial: Engine
    let threadedTarget = RenderTarget(), serialTarget = RenderTarget()
    var detail: String { "gallery 1920x1080, 2 threads" }

    init() throws {
        var rgba = [UInt8](repeating: 255, count: 160 * 120 * 4)
        for y in 0..<120 { for x in 0..<160 {
            let i = (y * 160 + x) * 4
            (rgba[i], rgba[i + 1], rgba[i + 2]) = (UInt8(x * 255 / 160), UInt8(y * 2), UInt8((x ^ y) & 0xFF))
        } }
        let photo = try Image(width: 160, height: 120, copying: rgba, stride: 160 * 4, format: .rgba8Straight)
        threaded = try ParallelFrame.gallery(photo)
        try threaded.setRenderThreads(2)
        serial = try ParallelFrame.gallery(photo)
        try serial.setRenderThreads(1)
        try threaded.render(into: threadedTarget, full: true)
        try serial.render(into: serialTarget, full: true)
    }

    static func gallery(_ photo: Image) throws -> Engine {
        let engine = try Engine(size: Size(width, height), scale: 1)
        engine.root.backgroundColor = Color(r8: 236, g8: 238, b8: 242)
        var badge = Path()
        badge.addEllipse(in: Rect(0, 0, 28, 28))
        for i in 0..<40 {
            let card = engine.makeLayer()
            card.frame = Rect(40 + Double(i % 8) * 230, 40 + Double(i / 8) * 205, 200, 180)
            card.backgroundColor = .white
            card.cornerRadius = 12
            card.shadowOpacity = 0.3
            card.shadowRadius = 6
            card.shadowOffset = Size(0, 3)
            let picture = engine.makeLayer()
            picture.frame = Rect(8, 8, 184, 110)
            picture.contents = photo
            picture.contentsGravity = .resizeAspectFill
            picture.masksToBounds = true
            picture.cornerRadius = 6
            let strip = engine.makeLayer(kind: .gradientLayer)
            strip.frame = Rect(8, 122, 184, 6)
            try strip.setValue(.array([.color(Color(r8: 90, g8: 140, b8: 255)), .color(Color(r8: 255, g8: 120, b8: 90))]),
                               forKeyPath: "colors")
            try strip.setValue(.point(Point(0, 0.5)), forKeyPath: "startPoint")
            try strip.setValue(.point(Point(1, 0.5)), forKeyPath: "endPoint")
            let title = engine.makeLayer(kind: .textLayer)
            title.frame = Rect(10, 134, 140, 20)
            try title.setValue(.string("Photo \(i + 1) · Lisbon"), forKeyPath: "string")
            try title.setValue(.number(14), forKeyPath: "fontSize")
            try title.setValue(.color(Color(r8: 40, g8: 40, b8: 48)), forKeyPath: "foregroundColor")
            let dot = engine.makeLayer(kind: .shapeLayer)
            dot.frame = Rect(160, 140, 28, 28)
            try dot.setValue(.path(badge), forKeyPath: "path")
            try dot.setValue(.color(Color(r8: 60, g8: 180, b8: 110)), forKeyPath: "fillColor")
            try dot.setValue(.color(.white), forKeyPath: "strokeColor")
            try dot.setValue(.number(2), forKeyPath: "lineWidth")
            for l in [picture, strip, title, dot] { try card.addSublayer(l) }
            try engine.root.addSublayer(card)
        }
        return engine
    }

    func runCaluna() throws { try threaded.render(into: threadedTarget, full: true) }
    func runPeer() throws { try serial.render(into: serialTarget, full: true) }

    func check() throws -> String {
        try runCaluna()
        try runPeer()
        let (a, b) = (threaded.stats, serial.stats)
        guard (a.layersDrawn, a.offscreenPasses, a.effectCacheHits) == (b.layersDrawn, b.offscreenPasses, b.effectCacheHits) else {
            throw BenchmarkFailure("2 threads counted \(a.layersDrawn) layers, \(a.offscreenPasses) offscreen passes; 1 thread \(b.layersDrawn), \(b.offscreenPasses)")
        }
        guard threaded.stats.bandsDrawn == 2 else { throw BenchmarkFailure("2 threads drew \(threaded.stats.bandsDrawn) bands") }
        guard RGBA(threadedTarget.frame!).bytes == RGBA(serialTarget.frame!).bytes else {
            throw BenchmarkFailure("2 threads and 1 thread drew different bytes")
        }
        return "byte-identical"
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "\(fixed(t.peer / t.caluna, 2))x faster on 2 threads"
    }
}
