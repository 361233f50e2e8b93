import Glibc

/// Every benchmark, in the order they run. Add a row here.
let allBenchmarks: [Benchmark.Type] = [
    SolidLayers.self,
    AnimatedLayers.self, AnimatedLayers100k.self, AnimatedLayers100kTwoTimings.self, AnimatedLayers100kChurn.self,
    LayerMemory.self,
    LuaPropertySet.self, LuaPropertyGet.self, LuaPropertyPoint.self, LuaPropertyImplicit.self,
    CProperty.self, LuaHeldLayers.self,
    LuaRenderMemory.self,
    RoundedClips.self,
    ShadowPaths.self,
    RasterCacheFrames.self,
    ShadowBlur.self, ShadowBlurWide.self,
    PhysicsBoxes.self,
    PhysicsBoxesSwift.self,
    PhysicsBoxesBound.self,
    PhysicsCrates.self,
    PerspectiveGrid.self,
    PerspectiveCards.self, PerspectiveScaling.self,
    ShapeStroke.self, ShapeTrimmed.self,
    GradientLayers.self, ReplicatorRing.self,
    TiledPan.self,
    TextFrames.self, TextMove.self,
    EmitterParticles.self,
    CopyOut.self,
    DamageMove.self,
    ShadowCards.self,
    ParallelFrame.self,
]

let usage = """
    usage: caluna-bench [--iterations N] [--warmup N] [--list] [NAME...]
      Runs each benchmark beside its peer in this process, interleaved, and
      prints the median time per run (per step for physics rows) of each and
      their ratio (caluna / peer).
      NAME selects benchmarks whose name contains it (default: all).
      --iterations N   timed runs of each side (default 50)
      --warmup N       untimed runs of each side first (default 5)
      --list           print the benchmark names and exit
    """

func fail(_ message: String, code: Int32) -> Never {
    fflush(stdout)
    fputs("caluna-bench: \(message)\n", stderr)
    exit(code)
}

var iterations = 50, warmup = 5, filters: [String] = []
var args = CommandLine.arguments.dropFirst()
func count(_ option: String) -> Int {
    guard let v = args.popFirst(), let n = Int(v), n >= 0 else { fail("\(option) needs a whole number\n\(usage)", code: 2) }
    return n
}
while let a = args.popFirst() {
    switch a {
    case "--iterations", "-n": iterations = max(1, count(a))
    case "--warmup": warmup = count(a)
    case "--list": for b in allBenchmarks { print(b.name) }; exit(0)
    case "--help", "-h": print(usage); exit(0)
    default:
        if a.hasPrefix("-") { fail("unknown option \(a)\n\(usage)", code: 2) }
        filters.append(a)
    }
}

let selected = allBenchmarks.filter { b in filters.isEmpty || filters.contains { b.name.contains($0) } }
if selected.isEmpty { fail("no benchmark matches \(filters.joined(separator: " ")) (try --list)", code: 2) }

/// `v` with exactly `digits` decimals (no Foundation).
func fixed(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return "\(v)" }
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let n = Int((abs(v) * p).rounded()), ip = Int(p)
    var frac = String(n % ip)
    while frac.count < digits { frac = "0" + frac }
    return (v < 0 ? "-" : "") + String(n / ip) + (digits > 0 ? "." + frac : "")
}

/// Seconds as milliseconds, or microseconds below 0.1 ms.
func duration(_ s: Double) -> String { s < 1e-4 ? fixed(s * 1e6, 3) + " us" : fixed(s * 1e3, 3) + " ms" }

func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }

print("caluna-bench: \(iterations) iterations (median), \(warmup) warm-up, caluna and peer interleaved")
var failed = 0
var timings: [String: Timing] = [:]
let nameWidth = max(14, (selected.map { $0.name.count }.max() ?? 0) + 2)
for type in selected {
    do {
        let b = try type.init()
        let before = try b.check()
        let run = try measure(b, iterations: iterations, warmup: warmup)
        let units = Double(b.unitsPerRun)
        let t = Timing(caluna: run.caluna / units, peer: run.peer / units)
        _ = try b.check()   // the timed runs left both sides with the same result
        timings[type.name] = t
        var remark = ""
        if let r = b.remark(t, earlier: timings) { remark = "; " + r }
        print(pad(type.name, nameWidth) + pad(b.detail, 22)
              + "   caluna " + duration(t.caluna)
              + "   " + type.peer + " " + duration(t.peer)
              + "   ratio " + fixed(t.caluna / t.peer, 2)
              + "   (" + before + remark + ")")
    } catch {
        fflush(stdout)
        fputs("caluna-bench: \(type.name): FAILED: \(error)\n", stderr)
        failed += 1
    }
}
if failed > 0 { fail("\(failed) benchmark(s) failed", code: 1) }
