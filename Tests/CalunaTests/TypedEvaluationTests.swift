import Testing
@testable import Caluna
import Glibc

/// The evaluation fast paths against the plain path, bit for bit: typed
/// basic animations (TypedBasic) against the Value arithmetic, and resetting
/// only the animated properties (Layer.resetPresentation) against copying
/// the whole committed state. Two engines get the same seeded scene —
/// animations of every kind on whole properties and components, from/to/by
/// combinations, additive, cumulative, repeating, springs, keyframes,
/// rotation modes, removals and model changes between frames — and one of
/// them runs every animation through the plain path; every presentation
/// state must be equal after every frame.
@Suite struct TypedEvaluationTests {
    struct Scene {
        let engine: Engine
        let layers: [Layer]
    }

    static func scene() throws -> Scene {
        let engine = try Engine(size: Size(400, 300))
        var layers: [Layer] = []
        for i in 0..<24 {
            let l = engine.makeLayer()
            l.bounds = Rect(0, 0, 20 + Double(i), 10)
            l.position = Point(Double(i * 15), 40)
            try engine.root.addSublayer(l)
            layers.append(l)
        }
        try engine.step(0)
        return Scene(engine: engine, layers: layers)
    }

    /// A random animation (same `rng` state → same animation).
    static func animation(_ rng: inout SeededRandom) -> Animation {
        let numbers = [0.0, 0.25, 1, -3, 40, 1e3]
        func number() -> Double { numbers[rng.below(numbers.count)] }
        func value(_ key: String) -> Value? {
            if rng.below(4) == 0 { return nil }
            switch key {
            case "opacity", "position.x", "cornerRadius": return .number(number())
            case "position", "anchorPoint": return .point(Point(number(), number()))
            case "bounds": return .rect(Rect(number(), number(), abs(number()), rng.below(5) == 0 ? -1 : abs(number())))
            case "backgroundColor": return .color(Color(red: number() / 1e3, green: 0.5, blue: 1))
            default: return .transform(Transform3D.rotation(number() / 100, 0, 0, 1))
            }
        }
        let keys = ["opacity", "position", "anchorPoint", "bounds", "position.x", "cornerRadius", "backgroundColor", "transform"]
        let key = keys[rng.below(keys.count)]
        let a: PropertyAnimation
        switch rng.below(6) {
        case 0:
            let k = KeyframeAnimation()
            k.keyPath = key
            k.values = [value(key), value(key), value(key)].compactMap { $0 }
            if k.values!.count < 2 {
                var path = Path()
                path.move(to: Point(0, 0))
                path.line(to: Point(50, 20))
                (k.values, k.path, k.keyPath) = (nil, path, "position")
            }
            if rng.below(3) == 0, k.path != nil { k.rotationMode = .auto }
            a = k
        case 1:
            let s = SpringAnimation()
            s.keyPath = key
            s.fromValue = value(key)
            s.toValue = value(key)
            a = s
        default:
            let b = BasicAnimation()
            b.keyPath = key
            b.fromValue = value(key)
            b.toValue = value(key)
            b.byValue = value(key)
            a = b
        }
        a.additive = rng.below(3) == 0
        a.cumulative = rng.below(3) == 0
        a.timing.duration = [0.1, 0.25, 0.5, 1][rng.below(4)]
        a.timing.repeatCount = [0, 1, 2.5, .infinity][rng.below(4)]
        a.timing.autoreverses = rng.below(2) == 0
        a.timing.fillMode = [.removed, .forwards, .both][rng.below(3)]
        a.removedOnCompletion = rng.below(2) == 0
        a.timingFunction = [nil, .easeIn, .easeInEaseOut, .default][rng.below(4)]
        return a
    }

    /// Runs `frames` seeded frames on both scenes; `plain` takes the plain paths.
    static func run(seed: UInt64, frames: Int) throws -> (Scene, Scene, Int) {
        let fast = try scene(), plain = try scene()
        plain.engine.evaluationPlanEnabled = false
        var rngs = (SeededRandom(seed: seed), SeededRandom(seed: seed))
        var compared = 0
        for frame in 0..<frames {
            for (s, isPlain) in [(fast, false), (plain, true)] {
                var rng = isPlain ? rngs.1 : rngs.0
                for _ in 0..<rng.below(4) {
                    let l = s.layers[rng.below(s.layers.count)]
                    switch rng.below(10) {
                    case 0: l.removeAllAnimations()
                    case 1: l.position = Point(Double(rng.below(300)), Double(rng.below(200)))
                    case 2: l.opacity = Double(rng.below(10)) / 10
                    case 3: l.timing.speed = [1, 0.5, 2][rng.below(3)]
                    case 4:
                        // Two animations with one timing (their progress is shared).
                        let a = animation(&rng)
                        let b = animation(&rng)
                        b.timing = a.timing
                        b.timingFunction = a.timingFunction
                        _ = try? l.addAnimation(a, forKey: "pair-a")
                        _ = try? l.addAnimation(b, forKey: "pair-b")
                    case 5:
                        // Layers move between hosts, leave the tree and come back.
                        let other = s.layers[rng.below(s.layers.count)]
                        if other !== l, !l.isAncestor(of: other) { try? other.addSublayer(l) }
                        else if rng.below(2) == 0 { l.removeFromSuperlayer() }
                        else { try? s.engine.root.addSublayer(l) }
                    case 6:
                        // The sublayers setter drops some, a mask leaves or joins.
                        let other = s.layers[rng.below(s.layers.count)]
                        if rng.below(2) == 0 {
                            try? other.setSublayers(other.sublayers.filter { _ in rng.below(2) == 0 })
                        } else if other.mask != nil {
                            try? other.setMask(nil)
                        } else if other !== l {
                            l.removeFromSuperlayer()
                            try? other.setMask(l)
                        }
                    default:
                        let a = animation(&rng)
                        _ = try? l.addAnimation(a, forKey: rng.below(3) == 0 ? nil : "k\(rng.below(3))")
                    }
                }
                if isPlain { rngs.1 = rng } else { rngs.0 = rng }
                if isPlain {
                    for l in s.layers {
                        l.presentationNeedsState = true
                        for a in l.attachedAnimations.map(\.animation) { (a as? BasicAnimation)?.typedSlot = nil }
                    }
                }
                try s.engine.step(1.0 / 60 * Double(1 + frame % 3))
            }
            for (a, b) in zip(fast.layers, plain.layers) {
                guard let pa = a.presentationLayer, let pb = b.presentationLayer else { continue }
                #expect(pa.state == pb.state, "seed \(seed) frame \(frame): \(pa.state.position) \(pa.state.opacity) / \(pb.state.position) \(pb.state.opacity)")
                if pa.state != pb.state { return (fast, plain, compared) }
                compared += 1
            }
        }
        return (fast, plain, compared)
    }

    @Test func fastEvaluationMatchesThePlainPath() throws {
        let seeds = Int(getenv("CALUNA_EVALUATION_SEEDS").map { String(cString: $0) } ?? "") ?? 30
        var typed = 0, planned = 0, plainPlanned = 0
        for seed in 1...UInt64(seeds) {
            let (fast, plain, compared) = try TypedEvaluationTests.run(seed: seed, frames: 90)
            #expect(compared > 1000, "seed \(seed): \(compared) states compared")
            typed += fast.layers.flatMap(\.attachedAnimations).filter { ($0.animation as? BasicAnimation)?.typedPlan != nil }.count
            planned += fast.engine.plannedEvaluations
            plainPlanned += plain.engine.plannedEvaluations
        }
        #expect(typed > 10, "the typed path was taken \(typed) times")
        #expect(planned > 20 * seeds, "the evaluation plan's loop evaluated \(planned) layers")
        #expect(plainPlanned == 0)
    }

    /// N implicit animations in one frame, each reading its layer's
    /// presentation (as an action does): each layer is evaluated a bounded
    /// number of times, not once per later set (O(N), not O(N²)), and each
    /// animation starts from the value shown.
    @Test func implicitSetsInOneFrameEvaluateEachLayerOnce() throws {
        let e = try Engine(size: Size(400, 300))
        var layers: [Layer] = []
        for i in 0..<300 {
            let l = e.makeLayer()
            l.frame = Rect(Double(i % 30) * 10, Double(i / 30) * 10, 8, 8)
            try e.root.addSublayer(l)
            layers.append(l)
        }
        try e.step(0)
        let before = e.layerEvaluations
        for l in layers {
            l.opacity = 0.5
            #expect(l.presentation()?.opacity == 1, "the fade starts from what is shown")
        }
        #expect(e.layerEvaluations - before <= 2 * layers.count, "\(e.layerEvaluations - before) evaluations for \(layers.count) sets")
        try e.step(0.125)
        for l in layers {
            guard let p = l.presentation() else { continue }
            #expect(p.opacity > 0.5 && p.opacity < 1, "mid-fade: \(p.opacity)")
        }
    }

    /// Resolved key paths are shared per engine up to the documented bound
    /// (docs/limits.md); past it they are still resolved, not kept.
    @Test func resolvedKeyPathsAreSharedUpToTheBound() throws {
        let e = try Engine(size: Size(100, 100))
        var resolved = 0
        for kind in LayerKind.allCases {
            let l = e.makeLayer(kind: kind)
            let components = ["", ".x", ".y", ".width", ".height", ".origin.x", ".size.width", ".rotation.z", ".scale"]
            for p in LayerProperties.all where p.animatable {
                for c in components {
                    guard let a = try? ResolvedKeyPath.resolve(p.key + c, for: l) else { continue }
                    resolved += 1
                    let full = e.resolvedKeyPaths.count == Engine.maximumResolvedKeyPaths
                    #expect(full || a === (try? ResolvedKeyPath.resolve(p.key + c, for: l)))
                }
            }
        }
        #expect(resolved > Engine.maximumResolvedKeyPaths, "\(resolved) key paths resolved")
        #expect(e.resolvedKeyPaths.count == Engine.maximumResolvedKeyPaths)
    }

    /// A layer whose animation is replaced in every frame is planned again
    /// each time; the tracks left behind stay within the documented bound.
    @Test func replanningKeepsThePlanBounded() throws {
        let e = try Engine(size: Size(100, 100))
        let still = e.makeLayer(), busy = e.makeLayer()
        try e.root.addSublayer(still)
        try e.root.addSublayer(busy)
        for (l, key) in [(still, "position"), (busy, "opacity")] {
            let a = BasicAnimation()
            a.keyPath = key
            a.toValue = key == "opacity" ? .number(0) : .point(Point(10, 10))
            a.timing.duration = 1
            a.timing.repeatCount = .infinity
            try l.addAnimation(a, forKey: key)
        }
        try e.step(0)
        var most = 0
        for frame in 1...3000 {
            let a = BasicAnimation()
            a.keyPath = "opacity"
            a.toValue = .number(Double(frame % 10) / 10)
            a.timing.duration = 1
            a.timing.repeatCount = .infinity
            try busy.addAnimation(a, forKey: "opacity")
            try e.step(1.0 / 60)
            most = max(most, e.evaluationPlan.tracks.count)
        }
        #expect(most <= 1024 + 8, "\(most) tracks held")
        #expect(e.plannedEvaluations > 3000, "the still layer stays on the plan: \(e.plannedEvaluations)")
    }

    /// Changes in a frame — a layer joining and leaving a container, one
    /// layer's animation replaced — plan only what changed: every other
    /// animated layer stays on the plan's loop.
    @Test func changesKeepTheOtherLayersOnThePlan() throws {
        let e = try Engine(size: Size(100, 100))
        var layers: [Layer] = []
        for i in 0..<500 {
            let l = e.makeLayer()
            try e.root.addSublayer(l)
            for (key, to) in [("position", Value.point(Point(Double(i), 5))), ("opacity", Value.number(0.2))] {
                let a = BasicAnimation()
                a.keyPath = key
                a.toValue = to
                a.timing.duration = 1 + Double(i % 7) / 10
                a.timing.repeatCount = .infinity
                a.timing.autoreverses = true
                try l.addAnimation(a, forKey: key)
            }
            layers.append(l)
        }
        let box = e.makeLayer()
        try e.root.addSublayer(box)
        try e.step(0)
        try e.step(1.0 / 60)
        var spare: Layer? = nil
        for frame in 0..<50 {
            spare?.removeFromSuperlayer()
            let s = e.makeLayer()
            try box.addSublayer(s)
            spare = s
            let a = BasicAnimation()
            a.keyPath = "opacity"
            a.toValue = .number(0.5)
            a.timing.duration = 1
            try layers[frame].addAnimation(a, forKey: "opacity")
            let (before, evaluations) = (e.plannedEvaluations, e.layerEvaluations)
            try e.step(1.0 / 60)
            #expect(e.plannedEvaluations - before >= layers.count - 3, "frame \(frame): \(e.plannedEvaluations - before) of \(layers.count) on the plan")
            #expect(e.layerEvaluations - evaluations <= layers.count + 3, "frame \(frame): \(e.layerEvaluations - evaluations) evaluations")
        }
    }

    /// Past `EvaluationPlan.fetchAheadBeyond` layers the loop fetches ahead:
    /// the same states as the plain path, with layers leaving the plan,
    /// joining it and moving between frames.
    @Test func fetchingAheadMatchesThePlainPath() throws {
        let n = EvaluationPlan.fetchAheadBeyond + 200
        func scene(planned: Bool) throws -> (Engine, [Layer]) {
            let e = try Engine(size: Size(100, 100))
            e.evaluationPlanEnabled = planned
            var layers: [Layer] = []
            layers.reserveCapacity(n)
            for i in 0..<n {
                let l = e.makeLayer()
                try e.root.addSublayer(l)
                for (key, to) in [("position", Value.point(Point(Double(i % 97), 5))), ("opacity", Value.number(0.2))] {
                    let a = BasicAnimation()
                    a.keyPath = key
                    a.toValue = to
                    a.timing.duration = 1 + Double(i % 7) / 10
                    a.timing.repeatCount = .infinity
                    a.timing.autoreverses = i % 2 == 0
                    a.timingFunction = i % 3 == 0 ? .easeInEaseOut : nil
                    try l.addAnimation(a, forKey: key)
                }
                layers.append(l)
            }
            try e.step(0)
            return (e, layers)
        }
        let (fast, fastLayers) = try scene(planned: true)
        let (plain, plainLayers) = try scene(planned: false)
        for frame in 0..<4 {
            for (e, layers) in [(fast, fastLayers), (plain, plainLayers)] {
                // Some layers leave the plan's loop, some join it, one moves.
                layers[frame * 101].removeAllAnimations()
                let a = BasicAnimation()
                a.keyPath = "opacity"
                a.toValue = .number(0.5)
                try layers[n - 1 - frame * 7].addAnimation(a, forKey: "opacity")
                try layers[frame + 1].addSublayer(layers[n / 2 + frame])
                try e.step(1.0 / 60)
            }
            var differing = 0
            for (a, b) in zip(fastLayers, plainLayers) where a.presentationLayer?.state != b.presentationLayer?.state { differing += 1 }
            #expect(differing == 0, "frame \(frame): \(differing) of \(n) presentation states differ")
        }
        #expect(fast.plannedEvaluations > 3 * n, "\(fast.plannedEvaluations) planned evaluations")
        #expect(plain.plannedEvaluations == 0)
    }
}
