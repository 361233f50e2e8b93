import Caluna
import CCairo
import Glibc

/// One benchmark: a piece of work done by caluna and, beside it in the same
/// process run, by a peer (raw cairo, raw Chipmunk, the raw Lua C API) doing
/// the same work. `init` is the setup (not timed); the two `run` methods are
/// timed, one frame (or step) each; `check` proves both do the same work.
protocol Benchmark: AnyObject {
    /// Short, unique, used to filter from the command line ("solid-layers").
    static var name: String { get }
    /// What the peer is ("cairo").
    static var peer: String { get }
    /// What one run does ("1000 layers 1280x720").
    var detail: String { get }

    init() throws
    func runCaluna() throws
    func runPeer() throws
    /// Compares one fresh output of each side; throws when they differ beyond
    /// tolerance. The text returned is appended to the result row.
    func check() throws -> String
    /// How many units of work (steps) one run does; rows report the time
    /// per unit. Default 1.
    var unitsPerRun: Int { get }
    /// Text appended to the row once both sides are timed (per unit);
    /// `earlier` holds the timings of the rows already run, by name.
    /// Default: none.
    func remark(_ t: Timing, earlier: [String: Timing]) -> String?
}

extension Benchmark {
    var unitsPerRun: Int { 1 }
    func remark(_ t: Timing, earlier: [String: Timing]) -> String? { nil }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

struct Timing {
    var caluna: Double
    var peer: Double
}

/// Warms both sides up, then runs them alternately (caluna first on even
/// iterations, the peer first on odd ones) so drift, cache and allocator
/// state fall on both equally. Returns the median seconds per run.
func measure(_ b: Benchmark, iterations: Int, warmup: Int) throws -> Timing {
    for _ in 0..<warmup {
        try b.runCaluna()
        try b.runPeer()
    }
    var c: [Double] = [], p: [Double] = []
    c.reserveCapacity(iterations)
    p.reserveCapacity(iterations)
    for i in 0..<iterations {
        for side in (i % 2 == 0 ? [0, 1] : [1, 0]) {
            let t0 = monotonicSeconds()
            if side == 0 { try b.runCaluna() } else { try b.runPeer() }
            let dt = monotonicSeconds() - t0
            if side == 0 { c.append(dt) } else { p.append(dt) }
        }
    }
    return Timing(caluna: median(c), peer: median(p))
}

/// An 8-bit RGBA bitmap, premultiplied, rows packed (stride = width × 4).
struct RGBA {
    let width: Int
    let height: Int
    var bytes: [UInt8]

    /// Copies a cairo ARGB32 image surface (native-endian premultiplied words).
    init(cairoSurface s: OpaquePointer) {
        cairo_surface_flush(s)
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(s)!)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let w = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                let o = (y * width + x) * 4
                out[o] = UInt8((w >> 16) & 255)
                out[o + 1] = UInt8((w >> 8) & 255)
                out[o + 2] = UInt8(w & 255)
                out[o + 3] = UInt8(w >> 24)
            }
        }
        bytes = out
    }

    /// Copies a caluna Image through its public API.
    init(_ image: Image) {
        width = image.width
        height = image.height
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBytes { image.copy(into: $0.baseAddress!, stride: image.width * 4, format: .rgba8Premultiplied) }
        bytes = out
    }

    /// The largest per-channel difference, and how many bytes differ.
    func difference(_ o: RGBA) throws -> (max: Int, differing: Int) {
        guard width == o.width, height == o.height else {
            throw BenchmarkFailure("sizes differ: \(width)x\(height) against \(o.width)x\(o.height)")
        }
        var m = 0, n = 0
        for i in 0..<bytes.count where bytes[i] != o.bytes[i] {
            m = max(m, abs(Int(bytes[i]) - Int(o.bytes[i])))
            n += 1
        }
        return (m, n)
    }
}

/// Throws unless the two pictures are within `tolerance` per channel.
func comparePictures(caluna: RGBA, peer: RGBA, peerName: String, tolerance: Int = 1) throws -> String {
    let (m, n) = try caluna.difference(peer)
    guard m <= tolerance else {
        throw BenchmarkFailure("caluna and \(peerName) draw different pictures: max channel difference \(m) (tolerance \(tolerance)), \(n) bytes differ")
    }
    return "max diff \(m)"
}

/// A deterministic 64-bit LCG (Knuth's MMIX constants): same scene every run.
struct LCG {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt32 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt32(truncatingIfNeeded: state >> 32)
    }
    /// Uniform-ish in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt32(n)) }
}

/// A benchmark whose peer is a plain cairo program: caluna renders `engine`,
/// the peer draws the same picture into a fresh surface, and the check
/// compares the two within `tolerance` per channel.
protocol CairoPeerBenchmark: Benchmark {
    var engine: Engine { get }
    /// The peer's picture; the caller destroys the surface.
    func peerRender() throws -> OpaquePointer
    var tolerance: Int { get }
}

extension CairoPeerBenchmark {
    var tolerance: Int { 1 }
    func runCaluna() throws { _ = try engine.render() }
    func runPeer() throws { cairo_surface_destroy(try peerRender()) }
    func check() throws -> String {
        let mine = RGBA(try engine.render())
        let surface = try peerRender()
        defer { cairo_surface_destroy(surface) }
        return try comparePictures(caluna: mine, peer: RGBA(cairoSurface: surface), peerName: Self.peer, tolerance: tolerance)
    }
}

/// A new ARGB32 cairo surface for a peer to draw into.
func cairoSurface(_ width: Double, _ height: Double) throws -> OpaquePointer {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
          cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
        throw BenchmarkFailure("cairo: cannot create a \(Int(width))x\(Int(height)) surface")
    }
    return surface
}

extension Engine {
    /// An engine drawing on the calling thread alone: rows compare it with a
    /// single-threaded peer (`parallel-frame` measures threads).
    static func singleThreaded(size: Size, scale: Double = 1) throws -> Engine {
        let engine = try Engine(size: size, scale: scale)
        try engine.setRenderThreads(1)
        return engine
    }
}
