import Caluna
import Glibc

/// A rendered 1920×1080 frame copied into a host's packed RGBA buffer, once
/// premultiplied and once straight (two conversions per run), against memcpy
/// of the same bytes twice. The frame mixes what hosts see: clear areas
/// (no root background), opaque layers, and translucent ones (one in three),
/// so every path of the conversion is timed.
final class CopyOut: Benchmark {
    static let name = "copy-out"
    static let peer = "memcpy"
    static let width = 1920, height = 1080

    let frame: Image
    var rgba: [UInt8]
    var scratch: [UInt8]
    var detail: String { "1080p RGBA prem+straight" }
    var unitsPerRun: Int { 2 }

    init() throws {
        let engine = try Engine.singleThreaded(size: Size(Double(CopyOut.width), Double(CopyOut.height)), scale: 1)
        var rng = LCG(seed: 0xC0_9700)
        for i in 0..<400 {
            let l = engine.makeLayer()
            l.frame = Rect(Double(rng.below(CopyOut.width)) - 60, Double(rng.below(CopyOut.height)) - 60, 160, 120)
            l.backgroundColor = Color(r8: rng.below(256), g8: rng.below(256), b8: rng.below(256),
                                      a8: i % 3 == 2 ? 40 + rng.below(200) : 255)
            try engine.root.addSublayer(l)
        }
        frame = try engine.render()
        rgba = [UInt8](repeating: 0, count: CopyOut.width * CopyOut.height * 4)
        scratch = rgba
        // The frame's own bytes, as a host holding a BGRA premultiplied frame has them.
        scratch.withUnsafeMutableBytes { frame.copy(into: $0.baseAddress!, stride: CopyOut.width * 4, format: .bgra8Premultiplied) }
    }

    func runCaluna() throws {
        rgba.withUnsafeMutableBytes { frame.copy(into: $0.baseAddress!, stride: CopyOut.width * 4, format: .rgba8Premultiplied) }
        rgba.withUnsafeMutableBytes { frame.copy(into: $0.baseAddress!, stride: CopyOut.width * 4, format: .rgba8Straight) }
    }

    func runPeer() throws {
        for _ in 0..<2 {
            rgba.withUnsafeMutableBytes { d in scratch.withUnsafeBytes { s in _ = memcpy(d.baseAddress!, s.baseAddress!, s.count) } }
        }
    }

    /// Straight RGBA equals the per-pixel reference everywhere.
    func check() throws -> String {
        try runCaluna()
        var opaque = 0, clear = 0
        for y in 0..<CopyOut.height {
            for x in 0..<CopyOut.width {
                let p = frame.pixel(x: x, y: y)!, o = (y * CopyOut.width + x) * 4
                guard rgba[o] == p.r, rgba[o + 1] == p.g, rgba[o + 2] == p.b, rgba[o + 3] == p.a else {
                    throw BenchmarkFailure("copy-out differs from the reference at (\(x), \(y))")
                }
                if p.a == 255 { opaque += 1 } else if p.a == 0 { clear += 1 }
            }
        }
        let n = Double(CopyOut.width * CopyOut.height)
        return "exact; \(Int(100 * Double(opaque) / n))% opaque, \(Int(100 * Double(clear) / n))% clear"
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        let px = Double(CopyOut.width * CopyOut.height)
        return "caluna \(fixed(px / t.caluna / 1e9, 1)) Gpx/s, memcpy \(fixed(px / t.peer / 1e9, 1)) Gpx/s"
    }
}
