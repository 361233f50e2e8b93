import Caluna
import CalunaBridge
import Glibc

// caluna_engine_stats (ABI 1.3): FrameStats as a versioned struct — a
// size_t struct_size the caller sets, then one int64 per field in
// FrameStats.fields order. Only the fields that fit struct_size are written,
// so a host built against an older header gets the fields it knows.

enum StatsLayout {
    /// struct_size, then the fields (8 bytes each, LP64).
    static let header = MemoryLayout<UInt>.size
    static let field = 8
    static var size: Int { header + field * FrameStats().fields.count }
}

@_cdecl("caluna_engine_stats")
public func caluna_engine_stats(_ e: OpaquePointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    // Zero what fits before anything can fail (outputs are neutral on failure).
    let size = out.map { Int(clamping: $0.loadUnaligned(as: UInt.self)) } ?? 0
    func fits(_ i: Int) -> Bool { StatsLayout.header + StatsLayout.field * (i + 1) <= size }
    if let out {
        for i in 0..<FrameStats().fields.count where fits(i) {
            out.storeBytes(of: Int64(0), toByteOffset: StatsLayout.header + StatsLayout.field * i, as: Int64.self)
        }
    }
    return withEngine(e, "caluna_engine_stats") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        guard size >= StatsLayout.header else {
            throw CalunaError(.invalidArgument,
                "out->struct_size is \(size): set it to sizeof(caluna_stats) (\(StatsLayout.size) bytes in this version)")
        }
        for (i, (_, v)) in ce.engine.stats.fields.enumerated() where fits(i) {
            out.storeBytes(of: Int64(v), toByteOffset: StatsLayout.header + StatsLayout.field * i, as: Int64.self)
        }
    }
}
