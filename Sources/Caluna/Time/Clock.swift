#if canImport(Glibc)
import Glibc
#endif

/// The engine's virtual media clock. Time is an integer count of ticks, so
/// stepping never drifts; it starts at 0 and only the host moves it forward.
///
/// A tick is a flick (1/705,600,000 s): every common frame rate (24, 25, 30,
/// 48, 50, 60, 90, 100, 120, 144 … fps) is a whole number of ticks per frame.
public struct Clock: Sendable {
    public static let ticksPerSecond: Int64 = 705_600_000
    /// The furthest the clock may go: about 31.7 years of media time.
    public static let maximumSeconds = 1.0e9

    public private(set) var ticks: Int64 = 0
    public init() {}

    /// Media time in seconds (CACurrentMediaTime).
    public var seconds: Double { Double(ticks) / Double(Clock.ticksPerSecond) }

    /// Seconds → ticks, rounded to the nearest tick; refuses NaN, ∞, negative
    /// and absurd values.
    public static func ticks(for seconds: Double, what: String) throws -> Int64 {
        guard seconds.isFinite else { throw CalunaError.invalid("\(what): time must be finite (got \(seconds))") }
        guard seconds >= 0 else { throw CalunaError.invalid("\(what): time must not be negative (got \(seconds))") }
        guard seconds <= maximumSeconds else {
            throw CalunaError.invalid("\(what): \(seconds) s is beyond the clock's range of \(fmt(maximumSeconds)) s")
        }
        return Int64((seconds * Double(ticksPerSecond)).rounded())
    }

    /// Moves forward by `dt` seconds.
    public mutating func step(_ dt: Double) throws {
        let d = try Clock.ticks(for: dt, what: "step")
        let (sum, overflow) = ticks.addingReportingOverflow(d)
        guard !overflow, Double(sum) <= Clock.maximumSeconds * Double(Clock.ticksPerSecond) else {
            throw CalunaError.invalid("step: the clock would pass its range of \(fmt(Clock.maximumSeconds)) s")
        }
        ticks = sum
    }

    /// Moves to the absolute time `t` seconds; time never goes backwards.
    public mutating func advance(to t: Double) throws {
        let target = try Clock.ticks(for: t, what: "advance")
        guard target >= ticks else {
            throw CalunaError.invalid("advance: time cannot go backwards (now \(seconds) s, asked \(t) s)")
        }
        ticks = target
    }

    /// Sets the tick count directly (the frame loop stops at event times).
    mutating func move(toTick t: Int64) { ticks = max(ticks, t) }

    public static func seconds(ticks: Int64) -> Double { Double(ticks) / Double(ticksPerSecond) }
}

/// The wall clock's monotonic reading in seconds, for measuring cost (stats,
/// the CLI's progress, benchmarks) — never for media time.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
