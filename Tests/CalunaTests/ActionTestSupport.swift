import Testing
@testable import Caluna

// Helpers for the transaction and action tests (spec ch07-09 §1.1–1.4,
// listings L7.1–L7.6, derived scenes D1–D5, D18–D21).

/// The default curve (implicit animations) at half and a quarter of the way:
/// the spec's 0.802403 and 0.408511.
let defaultAtHalf = TimingFunction.default.evaluate(0.5)
let defaultAtQuarter = TimingFunction.default.evaluate(0.25)

/// Listing 7.1's scene: a 300×300 white root and a blue 100×100 layer at
/// frame (50, 50, 100, 100), committed at t = 0.
struct ColorScene {
    let e: Engine
    let layer: Layer

    init() throws {
        e = try Engine(size: Size(300, 300))
        e.root.backgroundColor = uiWhite
        layer = try addLayer(e, to: e.root, frame: Rect(50, 50, 100, 100), color: blue, name: "colorLayer")
        try e.flush()
    }

    /// The colour on screen now.
    var shown: Color? { layer.presentation()?.backgroundColor }

    /// True when the colour on screen is blue + f·(red − blue).
    func showsMix(_ f: Double) -> Bool { near(shown, f, 0, 1 - f) }
}

/// `begin`, the given settings, `body`, `commit` (CATransaction's idiom).
func inTransaction(_ e: Engine, duration: Double? = nil, timing: TimingFunction? = nil, disableActions: Bool? = nil,
                   completion: CompletionBlock? = nil, _ body: () throws -> Void) throws {
    let t = e.transaction
    try t.begin()
    if let duration { t.animationDuration = duration }
    if let timing { t.animationTimingFunction = timing }
    if let disableActions { t.disableActions = disableActions }
    if let completion { t.completionBlock = completion }
    try body()
    try t.commit()
}

/// A completion block that logs `name` with the engine's clock, then runs `then`.
func logging(_ name: String, _ log: EventLog, _ e: Engine, then: (() throws -> Void)? = nil) -> CompletionBlock {
    CompletionBlock { [weak e] in
        log.events.append(Event(what: name, time: e?.mediaTime ?? .nan))
        try then?()
    }
}

/// A basic animation of `keyPath` (nil: the action's key) lasting `duration`
/// (0: the transaction's), linear unless a timing function is given.
func basic(_ keyPath: String? = nil, from: Value? = nil, to: Value? = nil, duration: Double,
           timing: TimingFunction? = nil, delegate: AnimationDelegate? = nil) -> BasicAnimation {
    let a = BasicAnimation()
    a.keyPath = keyPath
    a.fromValue = from
    a.toValue = to
    a.timing.duration = duration
    a.timingFunction = timing
    a.delegate = delegate
    return a
}

/// The animation a lookup answer carries (nil for no action or a custom one).
func animation(in action: LayerAction?) -> Animation? {
    if case .animation(let a)? = action { return a }
    return nil
}

/// A layer delegate that records every key it is asked about and gives the
/// same answer to each.
final class ActionDelegate: LayerDelegate {
    var answer: LayerAction?
    private(set) var keys: [String] = []
    init(answer: LayerAction? = nil) { self.answer = answer }

    func action(for layer: Layer, forKey key: String) throws -> LayerAction? {
        keys.append(key)
        return answer
    }
}

/// A custom action (CAAction) that records its runs, then runs `body`.
final class RecordingAction: CustomAction {
    struct Run {
        let key: String
        let layer: Layer
        let arguments: [String: Value]?
    }
    private(set) var runs: [Run] = []
    var body: ((String, Layer) throws -> Void)?
    init(_ body: ((String, Layer) throws -> Void)? = nil) { self.body = body }

    var keys: [String] { runs.map(\.key) }

    func run(forKey event: String, layer: Layer, arguments: [String: Value]?) throws {
        runs.append(Run(key: event, layer: layer, arguments: arguments))
        try body?(event, layer)
    }
}
