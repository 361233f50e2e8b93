import BenchPeers

/// `caluna_layer_set` of a number ("opacity", a layer outside any tree) from
/// a C loop, beside a plain call into the same library from the same kind
/// of loop: what the C ABI adds to a property set.
final class CProperty: Benchmark {
    static let name = "c-property"
    static let peer = "plain-c-call"
    static let calls = 100_000
    var detail: String { "opacity set, \(CProperty.calls) calls" }
    var unitsPerRun: Int { CProperty.calls }

    init() throws {
        guard bench_c_property_setup() == 1 else { throw BenchmarkFailure("the C ABI could not make an engine and a layer") }
    }

    func runCaluna() throws {
        guard bench_c_property_set(Int32(CProperty.calls)) == 1 else { throw BenchmarkFailure("caluna_layer_set failed") }
    }

    func runPeer() throws {
        guard bench_c_property_plain(Int32(CProperty.calls)) == 1 else { throw BenchmarkFailure("the plain call loop failed") }
    }

    func check() throws -> String {
        try runCaluna()
        let v = bench_c_property_opacity()
        let want = Double((CProperty.calls - 1) & 1023) / 1024
        guard v == want else { throw BenchmarkFailure("opacity reads \(v) after the loop, not \(want)") }
        return "opacity reads back \(want)"
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "\(fixed(t.caluna * 1e9, 1)) ns a set, \(fixed(t.peer * 1e9, 1)) ns a plain call; target <= 80 ns"
    }
}
