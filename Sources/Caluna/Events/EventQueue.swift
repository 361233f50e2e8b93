/// The engine's input state: events waiting for their time, the handlers on
/// the engine, and the pointers that are down.
public final class InputState {
    struct Queued {
        let tick: Int64
        let sequence: Int
        let event: InputEvent
        /// The waiting event's share of the current engine's memory (its payload's size).
        let memoryCharge: MemoryCharge
    }
    /// Sorted by (tick, sequence): time order, then the order they were sent.
    var queue: [Queued] = []
    var nextSequence = 0
    /// Handlers on the engine (ca.on), in the order they were added.
    var handlers: [EventHandler] = []
    /// Pointers that are down, by id (the layer they went down on, gestures).
    var pointers: [Int64: PointerTrack] = [:]
    /// Engine.hitTestsPresentation.
    var hitTestsPresentation = true

    /// At most this many events wait at once (a runaway script or host
    /// gets an error, not an unbounded queue).
    public static let maximumQueued = 100_000
    /// Instants with input a single step visits before it delivers the rest
    /// at its end (a handler that keeps sending events cannot hang a step).
    static let maximumInstantsPerStep = 10_000

    /// The number of events waiting for delivery.
    public var pendingCount: Int { queue.count }
}

extension Engine {
    /// Queues an input event for delivery by a later step, at `time` (media
    /// seconds; nil: now). An event whose time has passed is delivered at the
    /// start of the next step. Events of one time are delivered in the order
    /// they were sent.
    public func send(_ event: InputEvent, at time: Double? = nil) throws {
        let tick = try admissionTick(event, at: time)
        try checkRoom(for: 1, event.name)
        enqueue(event, at: tick)
    }

    /// The tick a valid event is queued at (`time`, or now when nil or
    /// already passed); an error for an invalid event or time.
    func admissionTick(_ event: InputEvent, at time: Double?) throws -> Int64 {
        try event.validate()
        guard let time else { return clock.ticks }
        return max(try Clock.ticks(for: time, what: "\(event.name) event"), clock.ticks)
    }

    func checkRoom(for count: Int, _ what: String) throws {
        guard input.queue.count + count <= InputState.maximumQueued else {
            throw CalunaError.invalid("\(what): \(count) more events would pass the limit of \(InputState.maximumQueued) waiting events; step the engine to deliver them")
        }
    }

    /// Queues an admitted event after those of its tick.
    func enqueue(_ event: InputEvent, at tick: Int64) {
        var e = event
        e.time = Clock.seconds(ticks: tick)
        let q = InputState.Queued(tick: tick, sequence: input.nextSequence, event: e,
                                  memoryCharge: MemoryCharge(forcing: MemoryLedger.current, 256 + e.payload.estimatedBytes))
        input.nextSequence += 1
        // Binary search for the first entry after (tick, sequence).
        var lo = 0, hi = input.queue.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if input.queue[mid].tick <= tick { lo = mid + 1 } else { hi = mid }
        }
        input.queue.insert(q, at: lo)
    }

    /// Hit-test the presentation tree (true, the default: where layers are
    /// seen) or the model tree (where they are going).
    public var hitTestsPresentation: Bool {
        get { input.hitTestsPresentation }
        set { input.hitTestsPresentation = newValue }
    }

    /// The tick of the first queued event after the current time and no
    /// later than `target`, or nil.
    func nextInputTick(upTo target: Int64) -> Int64? {
        guard let first = input.queue.first(where: { $0.tick > clock.ticks }) else { return nil }
        return first.tick <= target ? first.tick : nil
    }

    /// Delivers the events due by now that were queued before this call
    /// (events handlers send for "now" wait for the next step).
    func deliverDueInput(_ errors: inout FirstError) {
        let now = clock.ticks
        let limit = input.nextSequence
        let end = input.queue.firstIndex { $0.tick > now } ?? input.queue.count
        guard end > 0 else { return }
        let due = input.queue[..<end].filter { $0.sequence < limit }
        input.queue.replaceSubrange(..<end, with: input.queue[..<end].filter { $0.sequence >= limit })
        for q in due { deliver(q.event, &errors) }
    }
}
