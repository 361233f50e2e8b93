/// Work the engine runs once per frame on the virtual clock, before
/// animations are evaluated: timers (NSTimer) and display links
/// (CADisplayLink), fired in the order they were created.
public class FrameCallback {
    public private(set) var isValid = true
    let sequence: Int
    @WeakLink var engine: Engine?
    /// Its share of the engine's memory (counted; the next script allocation refuses past the cap).
    let memoryCharge: MemoryCharge

    init(engine: Engine) {
        self.engine = engine
        memoryCharge = MemoryCharge(forcing: engine.memory, 1024)
        sequence = engine.nextCallbackSequence
        engine.nextCallbackSequence += 1
    }

    /// Stops it for good; the engine lets go of it at the next frame.
    public func invalidate() { isValid = false }

    /// Runs the callback if it is due in the frame (start, now] (ticks).
    func fireIfDue(from start: Int64, to now: Int64) throws {}
}

/// A timer on the virtual clock. Like NSTimer it fires during a frame, at
/// most once per frame: missed fire dates are coalesced and the next fire
/// date is the first scheduled one after the frame (so a 1/60 s timer at
/// 30 frames per second fires 30 times a second, as the book complains).
public final class FrameTimer: FrameCallback {
    public let interval: Double
    public let repeats: Bool
    /// The next fire date, in media seconds.
    public var fireDate: Double { Clock.seconds(ticks: fireTick) }
    var fireTick: Int64
    let intervalTicks: Int64
    let action: (FrameTimer) throws -> Void

    /// A timer first due `interval` seconds after the engine's current time.
    public init(engine: Engine, interval: Double, repeats: Bool, action: @escaping (FrameTimer) throws -> Void) throws {
        guard interval.isFinite, interval >= 0 else {
            throw CalunaError.invalid("timer interval must be finite and not negative (got \(interval))")
        }
        let ticks = try Clock.ticks(for: interval, what: "timer interval")
        guard !repeats || ticks > 0 else { throw CalunaError.invalid("a repeating timer needs an interval above 0") }
        self.interval = interval
        self.repeats = repeats
        intervalTicks = ticks
        fireTick = engine.clock.ticks + ticks
        self.action = action
        super.init(engine: engine)
        engine.frameCallbacks.append(self)
    }

    override func fireIfDue(from start: Int64, to now: Int64) throws {
        guard isValid, now >= fireTick else { return }
        if repeats {
            let missed = (now - fireTick) / intervalTicks + 1
            fireTick += missed * intervalTicks
        } else {
            invalidate()
        }
        try action(self)
    }
}

/// CADisplayLink on the virtual clock: called once per frame the host steps
/// (or every `frameInterval`-th frame, or at most `preferredFramesPerSecond`
/// times a second). As in Core Animation, in the callback `targetTimestamp`
/// is the frame being prepared (= the engine's media time), `timestamp` the
/// previous frame (the step's start) and `duration` the frame period (the
/// step's length, not multiplied by frameInterval).
public final class DisplayLink: FrameCallback {
    public var isPaused = false
    /// 0: every frame. Otherwise the link fires when at least 1/fps seconds
    /// have passed since it last fired.
    public var preferredFramesPerSecond = 0 {
        didSet { if preferredFramesPerSecond < 0 { preferredFramesPerSecond = 0 } }
    }
    /// Fire every n-th frame (the deprecated CADisplayLink property; n ≥ 1).
    public var frameInterval = 1 { didSet { if frameInterval < 1 { frameInterval = 1 } } }
    public private(set) var timestamp: Double
    public private(set) var targetTimestamp: Double
    public private(set) var duration = 0.0
    var lastTick: Int64
    var framesSinceFire = 0
    let action: (DisplayLink) throws -> Void

    public init(engine: Engine, action: @escaping (DisplayLink) throws -> Void) {
        lastTick = engine.clock.ticks
        timestamp = engine.mediaTime
        targetTimestamp = engine.mediaTime
        self.action = action
        super.init(engine: engine)
        engine.frameCallbacks.append(self)
    }

    override func fireIfDue(from start: Int64, to now: Int64) throws {
        // step(0) commits; it is not a frame (no zero-length frame periods).
        guard isValid, !isPaused, now > start else { return }
        framesSinceFire += 1
        if preferredFramesPerSecond > 0 {
            // Tolerate 0.1% so a rate that divides the frame rate is exact.
            let elapsed = Double(now - lastTick) * Double(preferredFramesPerSecond)
            guard elapsed >= Double(Clock.ticksPerSecond) * 0.999 else { return }
        } else {
            guard framesSinceFire >= frameInterval else { return }
        }
        framesSinceFire = 0
        timestamp = Clock.seconds(ticks: start)
        targetTimestamp = Clock.seconds(ticks: now)
        duration = targetTimestamp - timestamp
        lastTick = now
        try action(self)
    }
}

extension Engine {
    /// Fires the due timers and display links for the frame that began at
    /// `start`; callbacks added during the frame wait for the next one.
    func fireFrameCallbacks(from start: Int64, _ errors: inout FirstError) {
        let now = clock.ticks
        frameCallbacks.removeAll { !$0.isValid }
        for c in frameCallbacks { errors.run { try c.fireIfDue(from: start, to: now) } }
        frameCallbacks.removeAll { !$0.isValid }
    }

    /// Invalidates every timer and display link (a scene reset).
    public func invalidateFrameCallbacks() {
        for c in frameCallbacks { c.invalidate() }
        frameCallbacks.removeAll()
    }
}
