/// CAMediaTiming: the timing properties shared by layers and animations, and
/// Apple's two-stage mapping from parent time to local time (CAMediaTiming.h):
/// active local time `t = (tp − beginTime) × speed + timeOffset`, then
/// repeats, autoreverse and fill.
public struct MediaTiming: Equatable, Sendable {
    public enum FillMode: String, CaseIterable, Sendable {
        case removed, forwards, backwards, both
        var fillsBackwards: Bool { self == .backwards || self == .both }
        var fillsForwards: Bool { self == .forwards || self == .both }
    }

    public var beginTime = 0.0
    /// One iteration, in local seconds; 0 means "the default" (0.25 s, or the
    /// transaction's duration, or the enclosing group's).
    public var duration = 0.0
    public var speed = 1.0
    public var timeOffset = 0.0
    /// Fractional counts allowed; `.infinity` repeats forever; 0 means once.
    public var repeatCount = 0.0
    /// Repeats for a time instead of a count; when both are set it wins.
    public var repeatDuration = 0.0
    public var autoreverses = false
    public var fillMode = FillMode.removed

    public init() {}

    /// Equal to the bit (unlike `==`, tells 0 from -0): two animations with
    /// identical timings give identical samples at any time.
    func isIdentical(to o: MediaTiming) -> Bool {
        func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }
        return same(beginTime, o.beginTime) && same(duration, o.duration) && same(speed, o.speed)
            && same(timeOffset, o.timeOffset) && same(repeatCount, o.repeatCount)
            && same(repeatDuration, o.repeatDuration) && autoreverses == o.autoreverses && fillMode == o.fillMode
    }

    /// Relative slack for the begin and end comparisons (well under a clock
    /// tick of 1.4 ns for any animation shorter than a second).
    public static let boundaryTolerance = 5e-10

    /// The default duration of an animation whose duration is 0.
    public static let defaultDuration = 0.25

    /// Local and parent times are clamped to ±maximumTime seconds: speeds
    /// are any finite number (as Apple's), and a chain of huge (or tiny)
    /// speeds would otherwise reach ±∞ and NaN in localTime, convertTime and
    /// drawFrame. 1e15 s is far past any clock (which ends at 1e9 s).
    public static let maximumTime = 1e15

    @inline(__always)
    static func clamped(_ t: Double) -> Double { t.isNaN ? 0 : min(max(t, -maximumTime), maximumTime) }

    /// Refuses a time given to convertTime that is not finite or beyond
    /// ±maximumTime (it could only come back clamped).
    public static func checkTime(_ t: Double, _ what: String) throws {
        guard t.isFinite, abs(t) <= maximumTime else {
            throw CalunaError.invalid("\(what) must be a time within ±1e15 s (got \(t))")
        }
    }

    /// Parent time → active local time. Layers use only this stage: they are
    /// unbounded in time, so their duration, repeats and fill have no effect.
    @inline(__always)
    public func localTime(fromParent tp: Double) -> Double { MediaTiming.clamped((tp - beginTime) * speed + timeOffset) }

    /// Active local time → parent time. A paused object (speed 0) maps every
    /// parent time to one local time; its inverse is taken to be `beginTime`.
    @inline(__always)
    public func parentTime(fromLocal t: Double) -> Double {
        speed == 0 ? beginTime : MediaTiming.clamped((t - timeOffset) / speed + beginTime)
    }

    /// The timing keys that take infinity (repeat forever).
    public static func allowsInfinity(_ key: String) -> Bool { key == "repeatCount" || key == "repeatDuration" }

    /// Validates values coming from scripts and hosts.
    public static func check(_ key: String, _ v: Double) throws {
        switch key {
        case "repeatCount", "repeatDuration", "duration":
            guard !v.isNaN, v >= 0 else {
                throw CalunaError.invalid("\(key) must be zero or positive (got \(v))")
            }
            if key == "duration", !v.isFinite { throw CalunaError.invalid("duration must be finite (got \(v))") }
        default:
            guard v.isFinite else { throw CalunaError.invalid("\(key) must be finite (got \(v))") }
        }
    }
}

/// Where an animation is on its own timeline at one parent time.
public struct TimingSample: Equatable, Sendable {
    public enum Phase: Sendable { case before, active, after }
    public var phase: Phase
    /// False when the animation shows nothing (outside its active period
    /// without fill): the layer shows the underlying value.
    public var contributes: Bool
    /// Seconds into the current iteration, in [0, duration] (already mirrored
    /// on an autoreversing backward half).
    public var iterationTime: Double
    /// Completed iterations (for cumulative animations).
    public var iteration: Double
}

extension MediaTiming {
    /// The active duration in local units for a resolved iteration length `d`.
    public func activeDuration(iteration d: Double) -> Double {
        let cycle = autoreverses ? 2 * d : d
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * cycle }
        return cycle
    }

    /// Samples an animation with resolved duration `d` at parent time `tp`.
    /// `endInclusive` keeps an animation active at exactly its end; groups
    /// use it for children while the group itself fills forwards, so a child
    /// that ends with the group holds its last frame.
    public func sample(parentTime tp: Double, duration d: Double, endInclusive: Bool = false) -> TimingSample {
        let active = activeDuration(iteration: d)
        var elapsed = MediaTiming.clamped((tp - beginTime) * speed)
        // Times are clock ticks turned into doubles and ends are sums such as
        // 0.1 + 0.2: within a hair of a boundary counts as on it, so an
        // animation ends at the tick nearest its end, not one tick later.
        let hair = MediaTiming.boundaryTolerance * max(1, abs(active).isFinite ? abs(active) : 1)
        if abs(elapsed) <= hair { elapsed = 0 }
        if abs(elapsed - active) <= hair { elapsed = active }
        var phase = TimingSample.Phase.active
        if elapsed < 0 {
            phase = .before
            guard fillMode.fillsBackwards else { return TimingSample(phase: .before, contributes: false, iterationTime: 0, iteration: 0) }
            elapsed = 0
        } else if elapsed > active || (elapsed == active && !endInclusive) {
            phase = .after
            guard fillMode.fillsForwards else {
                return TimingSample(phase: .after, contributes: false, iterationTime: d, iteration: 0)
            }
            elapsed = active
        }
        // The offset moves the start point inside the timeline and wraps
        // (the animation still plays its full active duration).
        let t = elapsed + timeOffset
        let cycle = autoreverses ? 2 * d : d
        guard cycle > 0, t.isFinite else {
            return TimingSample(phase: phase, contributes: true, iterationTime: d, iteration: 0)
        }
        var iteration = (t / cycle).rounded(.down)
        var u = t - iteration * cycle
        // At the very end of an iteration show its last frame, not the next
        // iteration's first.
        if (phase == .after || (endInclusive && elapsed == active)) && t > 0 && u == 0 {
            u = cycle
            iteration -= 1
        }
        if autoreverses && u > d { u = 2 * d - u }
        return TimingSample(phase: phase, contributes: true, iterationTime: min(max(u, 0), d), iteration: iteration)
    }
}
