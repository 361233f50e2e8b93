import Caluna

/// 10,000 layers (100,000 in `animated-layers-100k`), each with a running position and opacity animation
/// (repeating forever, autoreversing, easeInEaseOut, staggered durations),
/// stepped one 60 Hz frame per run — commit, timing, evaluation of the
/// presentation tree, no drawing. The peer is the floor: a plain Swift loop
/// evaluating the same curves (same timing function, same autoreverse
/// arithmetic) into arrays.
class AnimatedLayers: Benchmark {
    class var name: String { "animated-layers" }
    static let peer = "swift-loop"
    class var count: Int { 10_000 }
    /// The opacity animation's duration over the position animation's (1:
    /// one timing, so the engine solves the curve once for both).
    class var opacityDurationScale: Double { 1 }

    struct Track { var from: Point; var to: Point; var duration: Double }
    let tracks: [Track]
    let engine: Engine
    let layers: [Layer]
    var peerTime = 0.0
    var positions: [Point]
    var opacities: [Double]
    let curve = TimingFunction.easeInEaseOut
    var detail: String { "\(Self.count) layers x 2 anims\(Self.opacityDurationScale == 1 ? "" : ", 2 timings")" }

    required init() throws {
        var rng = LCG(seed: 0xA11A)
        var t: [Track] = []
        for _ in 0..<Self.count {
            t.append(Track(from: Point(Double(rng.below(1280)), Double(rng.below(720))),
                           to: Point(Double(rng.below(1280)), Double(rng.below(720))),
                           duration: 0.5 + Double(rng.below(150)) / 100))
        }
        tracks = t
        positions = Array(repeating: .zero, count: t.count)
        opacities = Array(repeating: 0, count: t.count)
        engine = try Engine.singleThreaded(size: Size(1280, 720), scale: 1)
        var ls: [Layer] = []
        for tr in t {
            let l = engine.makeLayer()
            l.bounds = Rect(0, 0, 8, 8)
            l.position = tr.from
            try engine.root.addSublayer(l)
            for (key, from, to, scale) in [("position", Value.point(tr.from), Value.point(tr.to), 1.0),
                                           ("opacity", Value.number(1), Value.number(0.2), Self.opacityDurationScale)] {
                let a = BasicAnimation()
                a.keyPath = key
                a.fromValue = from
                a.toValue = to
                a.timing.duration = tr.duration * scale
                a.timing.repeatCount = .infinity
                a.timing.autoreverses = true
                a.timingFunction = .easeInEaseOut
                try l.addAnimation(a, forKey: key)
            }
            ls.append(l)
        }
        layers = ls
        try engine.step(0)
    }

    func runCaluna() throws { try engine.step(1.0 / 60) }

    func runPeer() throws {
        peerTime += 1.0 / 60
        evaluatePeer(at: peerTime)
    }

    /// What a hand-written animation loop does: per layer, the autoreversed
    /// iteration fraction, eased, then linear interpolation (one curve
    /// evaluation when both animations share a duration).
    func evaluatePeer(at time: Double) {
        let scale = Self.opacityDurationScale
        func eased(_ duration: Double) -> Double {
            let cycle = 2 * duration
            var u = time.truncatingRemainder(dividingBy: cycle)
            if u > duration { u = cycle - u }
            return curve.evaluate(u / duration)
        }
        for i in tracks.indices {
            let tr = tracks[i]
            let f = eased(tr.duration)
            positions[i] = Point(tr.from.x + (tr.to.x - tr.from.x) * f, tr.from.y + (tr.to.y - tr.from.y) * f)
            let g = scale == 1 ? f : eased(tr.duration * scale)
            opacities[i] = 1 + (0.2 - 1) * g
        }
    }

    func check() throws -> String {
        evaluatePeer(at: engine.mediaTime)
        var worst = 0.0
        for (i, l) in layers.enumerated() {
            guard let p = l.presentation() else { throw BenchmarkFailure("layer \(i) has no presentation") }
            worst = max(worst, abs(p.position.x - positions[i].x), abs(p.position.y - positions[i].y),
                        abs(p.opacity - opacities[i]))
        }
        guard worst < 1e-6 else { throw BenchmarkFailure("presentation differs from the loop by \(worst)") }
        return "values agree within \(worst < 1e-12 ? "1e-12" : "1e-6")"
    }
}

/// The same at 100,000 layers (the issue's target: <= 10 ms a step).
class AnimatedLayers100k: AnimatedLayers {
    override class var name: String { "animated-layers-100k" }
    override class var count: Int { 100_000 }
}

/// 100,000 layers whose two animations have different durations: each
/// animation's curve is solved (the peer solves both too).
final class AnimatedLayers100kTwoTimings: AnimatedLayers100k {
    override class var name: String { "animated-layers-100k-two-timings" }
    override class var opacityDurationScale: Double { 0.75 }
}

/// animated-layers-100k with changes in every frame, as a live scene has:
/// a layer joins a small container and the previous one leaves, and one
/// animated layer's opacity animation is replaced by an equal one. The
/// evaluation plan follows each change (a few entries planned again), so a
/// frame costs about what a still frame costs. (The container keeps the
/// tree change small: committing a change to a layer's sublayers costs
/// O(its sublayers), and the root holds all 100,000.)
final class AnimatedLayers100kChurn: AnimatedLayers100k {
    override class var name: String { "animated-layers-100k-churn" }
    override var detail: String { "\(Self.count) layers x 2 anims, 3 changes a frame" }
    var container: Layer? = nil
    var spare: Layer? = nil
    var next = 0

    override func runCaluna() throws {
        let box: Layer
        if let c = container { box = c } else {
            box = engine.makeLayer()
            try engine.root.addSublayer(box)
            container = box
        }
        spare?.removeFromSuperlayer()
        let s = engine.makeLayer()
        try box.addSublayer(s)
        spare = s
        let i = next % layers.count
        next += 1
        let a = BasicAnimation()
        a.keyPath = "opacity"
        a.fromValue = .number(1)
        a.toValue = .number(0.2)
        a.timing.duration = tracks[i].duration
        a.timing.repeatCount = .infinity
        a.timing.autoreverses = true
        // Not 0 (which means "now"): the replacement runs in step with the
        // animation it replaces, so the check against the loop still holds.
        a.timing.beginTime = 1e-12
        a.timingFunction = .easeInEaseOut
        try layers[i].addAnimation(a, forKey: "opacity")
        try super.runCaluna()
    }
}
