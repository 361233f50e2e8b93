/// The engine's input state: events waiting for their time, the handlers on
/// the engine, and the pointers that are down.
public final class InputState {
    var queue = InputQueue()
    var nextSequence = 0
    /// Events sent by callbacks during the current step (Engine.send).
    var sentThisStep = 0
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
    /// At most this many events may be sent from callbacks (handlers, timers,
    /// display links, delegates) during one step: handlers that answer every
    /// event with new ones get an error instead of keeping the host busy.
    public static let maximumSentPerStep = 10_000

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
        guard runningFrame else { return }
        guard input.sentThisStep + count <= InputState.maximumSentPerStep else {
            throw CalunaError.invalid("\(what): callbacks may send at most \(InputState.maximumSentPerStep) events during one step (a handler that answers every event with more events never lets the step end)")
        }
        input.sentThisStep += count
    }

    /// Queues an admitted event after those of its tick.
    func enqueue(_ event: InputEvent, at tick: Int64) {
        var e = event
        e.time = Clock.seconds(ticks: tick)
        let q = InputQueue.Entry(tick: tick, sequence: input.nextSequence, event: e,
                                 memoryCharge: MemoryCharge(forcing: MemoryLedger.current, 256 + e.payload.estimatedBytes))
        input.nextSequence += 1
        input.queue.insert(q, now: clock.ticks)
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
        guard let t = input.queue.nextTick(notBefore: clock.ticks) else { return nil }
        return t <= target ? t : nil
    }

    /// Delivers the events due by now that were queued before this call
    /// (events handlers send for "now" wait for the next step).
    func deliverDueInput(_ errors: inout FirstError) {
        for q in input.queue.takeDue(now: clock.ticks) {
            deliver(q.event, &errors)
        }
    }
}
