import Testing
@testable import Caluna

// CATransaction (spec ch07-09 §1.1, R-T1…R-T7, §5 items 9 and 17; listing
// L7.3; derived scenes D1–D3): the stack and its settings, the implicit
// transaction, deferred commits and completion blocks.

@Suite struct TransactionTests {
    typealias T = TransactionStack

    /// Four committed 10×10 layers at x = 5, one per row, for D1.
    private func fourLayers() throws -> (Engine, [Layer]) {
        let e = try Engine(size: Size(300, 300))
        let layers = try (0..<4).map { i in
            try addLayer(e, to: e.root, frame: Rect(0, Double(i) * 20, 10, 10), name: ["A", "B", "C", "D"][i])
        }
        try e.flush()
        return (e, layers)
    }

    // MARK: settings

    @Test func defaults() throws {
        let t = try Engine().transaction
        #expect(t.depth == 0)
        #expect(t.animationDuration == 0.25)
        #expect(t.value(forKey: T.animationDurationKey) as? Double == 0.25)
        #expect(t.disableActions == false)
        #expect(t.value(forKey: T.disableActionsKey) as? Bool == false)
        #expect(t.animationTimingFunction == nil)
        #expect(t.value(forKey: T.animationTimingFunctionKey) == nil)
        #expect(t.completionBlock == nil)
        #expect(t.value(forKey: T.completionBlockKey) == nil)
        #expect(t.value(forKey: "someKey") == nil)
        #expect([T.animationDurationKey, T.disableActionsKey, T.animationTimingFunctionKey, T.completionBlockKey]
            == ["animationDuration", "disableActions", "animationTimingFunction", "completionBlock"])
        // Reading creates nothing: still no transaction open.
        #expect(t.depth == 0)
    }

    @Test func nestedTransactionsInheritOverrideAndRestoreEveryKey() throws {
        let t = try Engine().transaction
        let outerBlock = CompletionBlock(payload: "outer") {}
        let innerBlock = CompletionBlock(payload: "inner") {}
        func expectSettings(_ duration: Double, _ disabled: Bool, _ timing: TimingFunction?, _ block: CompletionBlock?,
                            _ custom: String?, _ where_: String) {
            #expect(t.animationDuration == duration, "\(where_)")
            #expect(t.value(forKey: T.animationDurationKey) as? Double == duration, "\(where_)")
            #expect(t.disableActions == disabled, "\(where_)")
            #expect(t.value(forKey: T.disableActionsKey) as? Bool == disabled, "\(where_)")
            #expect(t.animationTimingFunction == timing, "\(where_)")
            #expect(t.value(forKey: T.animationTimingFunctionKey) as? TimingFunction == timing, "\(where_)")
            #expect(t.completionBlock === block, "\(where_)")
            #expect(t.value(forKey: T.completionBlockKey) as? CompletionBlock === block, "\(where_)")
            #expect(t.value(forKey: "custom") as? String == custom, "\(where_)")
        }

        try t.begin()
        t.animationDuration = 2
        t.disableActions = true
        t.animationTimingFunction = .linear
        t.completionBlock = outerBlock
        try t.setValue("outer", forKey: "custom")
        expectSettings(2, true, .linear, outerBlock, "outer", "outer")

        try t.begin()
        #expect(t.depth == 2)
        expectSettings(2, true, .linear, outerBlock, "outer", "inner inherits")
        try t.setValue(0.5, forKey: T.animationDurationKey)
        try t.setValue(false, forKey: T.disableActionsKey)
        try t.setValue(TimingFunction.easeIn, forKey: T.animationTimingFunctionKey)
        try t.setValue(innerBlock, forKey: T.completionBlockKey)
        try t.setValue("inner", forKey: "custom")
        expectSettings(0.5, false, .easeIn, innerBlock, "inner", "inner overrides")
        #expect(t.completionBlock?.payload as? String == "inner")

        // nil removes the innermost value of a key: the outer one shows again.
        try t.setValue(nil, forKey: "custom")
        try t.setValue(nil, forKey: T.animationTimingFunctionKey)
        #expect(t.value(forKey: "custom") as? String == "outer")
        #expect(t.animationTimingFunction == .linear)

        try t.commit()
        expectSettings(2, true, .linear, outerBlock, "outer", "outer restored")
        try t.commit()
        expectSettings(0.25, false, nil, nil, nil, "defaults restored")
        #expect(t.depth == 0)
    }

    @Test func d1InnerTransactionsInheritOrOverrideTheDurationAndAllBeginAtTheOuterCommit() throws {
        let (e, layers) = try fourLayers()
        let (a, b, c, d) = (layers[0], layers[1], layers[2], layers[3])
        let t = e.transaction
        try t.begin()
        t.animationDuration = 2
        a.position.x = 105
        try inTransaction(e) { b.position.x = 105 }
        try inTransaction(e, duration: 0.5) { c.position.x = 105 }
        d.position.x = 105
        #expect(layers.map { $0.animation(forKey: "position")?.timing.duration } == [2, 2, 0.5, 2])

        // The clock moves while the outer transaction is open: nothing is
        // committed, nothing starts.
        try e.advance(to: 1)
        #expect(layers.allSatisfy { near(pres($0, "position.x"), 5, valueTolerance) })
        try t.commit()
        #expect(t.depth == 0)
        try e.step(0)
        for l in layers {
            let anim = try #require(l.animation(forKey: "position"))
            #expect(near(anim.timing.beginTime, 1, timeTolerance), "\(l.name ?? "")")
            #expect(near(pres(l, "position.x"), 5, valueTolerance), "\(l.name ?? "")")
        }

        try e.advance(to: 1.25)
        #expect(near(pres(c, "position.x"), 5 + 100 * defaultAtHalf, valueTolerance))
        let slow = TimingFunction.default.evaluate(0.125)
        for l in [a, b, d] { #expect(near(pres(l, "position.x"), 5 + 100 * slow, valueTolerance), "\(l.name ?? "")") }

        try e.advance(to: 2)
        #expect(near(pres(c, "position.x"), 105, valueTolerance) && c.animationKeys.isEmpty)
        for l in [a, b, d] { #expect(near(pres(l, "position.x"), 5 + 100 * defaultAtHalf, valueTolerance), "\(l.name ?? "")") }

        try e.advance(to: 3)
        #expect(layers.allSatisfy { near(pres($0, "position.x"), 105, valueTolerance) && $0.animationKeys.isEmpty })
    }

    @Test func d1DisableActionsIsInheritedUnlessTheInnerTransactionTurnsItBackOn() throws {
        let (e, layers) = try fourLayers()
        let (a, b, c, d) = (layers[0], layers[1], layers[2], layers[3])
        try inTransaction(e, disableActions: true) {
            a.position.x = 105
            try inTransaction(e) { b.position.x = 105 }
            try inTransaction(e, disableActions: false) { c.position.x = 105 }
            d.position.x = 105
        }
        #expect(layers.map(\.animationKeys) == [[], [], ["position"], []])
        try e.step(0)
        #expect([a, b, d].allSatisfy { near(pres($0, "position.x"), 105, valueTolerance) })
        #expect(near(pres(c, "position.x"), 5, valueTolerance))
        #expect(layers.allSatisfy { $0.position.x == 105 }, "the model changes at once either way")
    }

    @Test func d2CommitWithoutBeginThrowsAndChangesNothing() throws {
        let s = try Scene(modelX: 0)
        let t = s.e.transaction
        #expect(errorCode { try t.commit() } == .invalidArgument)
        #expect(t.depth == 0)

        // The implicit transaction is not an explicit one to commit.
        t.animationDuration = 1
        #expect(errorCode { try t.commit() } == .invalidArgument)
        #expect(t.depth == 0 && t.animationDuration == 1)
        try t.begin()
        try t.commit()
        #expect(errorCode { try t.commit() } == .invalidArgument)
        #expect(t.depth == 0 && t.animationDuration == 1)

        s.l.position.x = 100
        #expect(s.l.animation(forKey: "position")?.timing.duration == 1)
        try s.e.step(0.5)
        #expect(near(s.x(), 100 * defaultAtHalf, valueTolerance))
    }

    @Test func setValueChecksTheTypesOfTheFourKeys() throws {
        let t = try Engine().transaction
        let badDurations: [Any?] = [-1.0, -0.001, Double.nan, Double.infinity, -Double.infinity, "1", true]
        for v in badDurations {
            #expect(errorCode { try t.setValue(v, forKey: T.animationDurationKey) } == .invalidArgument, "\(String(describing: v))")
        }
        #expect(t.animationDuration == 0.25 && t.depth == 0)
        try t.setValue(0.0, forKey: T.animationDurationKey)
        #expect(t.animationDuration == 0)
        try t.setValue(1.5, forKey: T.animationDurationKey)
        #expect(t.animationDuration == 1.5)

        let badFlags: [Any?] = [1.0, "true", TimingFunction.linear]
        for v in badFlags {
            #expect(errorCode { try t.setValue(v, forKey: T.disableActionsKey) } == .typeMismatch, "\(String(describing: v))")
        }
        #expect(t.disableActions == false)
        try t.setValue(true, forKey: T.disableActionsKey)
        #expect(t.disableActions == true)
        // nil removes the innermost value: the outer one (here the default) shows again.
        try t.setValue(nil, forKey: T.disableActionsKey)
        try t.setValue(nil, forKey: T.animationDurationKey)
        #expect(t.disableActions == false && t.animationDuration == 0.25)
        try t.setValue(true, forKey: T.disableActionsKey)

        let badTimings: [Any?] = ["linear", 0.5, true]
        for v in badTimings {
            #expect(errorCode { try t.setValue(v, forKey: T.animationTimingFunctionKey) } == .typeMismatch, "\(String(describing: v))")
        }
        #expect(t.animationTimingFunction == nil)
        try t.setValue(TimingFunction.easeOut, forKey: T.animationTimingFunctionKey)
        #expect(t.animationTimingFunction == .easeOut)

        let closure: () -> Void = {}
        let badBlocks: [Any?] = [closure, "done", 1.0]
        for v in badBlocks {
            #expect(errorCode { try t.setValue(v, forKey: T.completionBlockKey) } == .typeMismatch, "\(String(describing: v))")
        }
        #expect(t.completionBlock == nil)
        let block = CompletionBlock {}
        try t.setValue(block, forKey: T.completionBlockKey)
        #expect(t.completionBlock === block)
        try t.setValue(nil, forKey: T.completionBlockKey)
        #expect(t.completionBlock == nil)

        // Other keys hold anything.
        try t.setValue(42.0, forKey: "answer")
        try t.setValue("text", forKey: "note")
        #expect(t.value(forKey: "answer") as? Double == 42 && t.value(forKey: "note") as? String == "text")
    }

    @Test func depthCountsExplicitTransactionsAndUnwindCommitsThem() throws {
        let e = try Engine()
        let t = e.transaction
        t.animationDuration = 1   // the implicit transaction does not count
        #expect(t.depth == 0)
        for (i, duration) in [2.0, 3, 4].enumerated() {
            try t.begin()
            t.animationDuration = duration
            #expect(t.depth == i + 1)
        }
        #expect(t.animationDuration == 4)
        t.unwind(to: 1)
        #expect(t.depth == 1 && t.animationDuration == 2)
        t.unwind(to: 5)
        #expect(t.depth == 1 && t.animationDuration == 2)
        t.unwind(to: -3)
        #expect(t.depth == 0 && t.animationDuration == 1, "the implicit transaction stays until the engine commits")
        #expect(errorCode { try t.commit() } == .invalidArgument)
        try e.flush()
        #expect(t.animationDuration == 0.25)
    }

    @Test func unwindSealsTheCompletionBlocksOfTheTransactionsItCommits() throws {
        let s = try Scene()
        try s.e.transaction.begin()
        s.e.transaction.completionBlock = logging("outer", s.log, s.e)
        try s.e.transaction.begin()
        s.e.transaction.completionBlock = logging("inner", s.log, s.e)
        s.e.transaction.unwind(to: 0)
        #expect(s.log.events.isEmpty)
        try s.e.step(0)
        #expect(s.log.names == ["inner", "outer"] && s.log.timesMatch([0, 0]))
    }

    @Test func beginRefusesRunawayNesting() throws {
        let t = try Engine().transaction
        for _ in 0..<T.maximumDepth { try t.begin() }
        #expect(t.depth == T.maximumDepth)
        #expect(errorCode { try t.begin() } == .invalidArgument)
        #expect(t.depth == T.maximumDepth)
        t.unwind(to: 0)
        #expect(t.depth == 0)
    }

    // MARK: the implicit transaction and deferred commits

    @Test func theImplicitTransactionEndsAtTheEnginesCommit() throws {
        let s = try Scene(modelX: 0)
        let t = s.e.transaction
        t.animationDuration = 2
        t.animationTimingFunction = .linear
        s.l.position.x = 100
        s.l.opacity = 0.5
        #expect(s.l.animation(forKey: "position")?.timing.duration == 2)
        #expect(s.l.animation(forKey: "opacity")?.timing.duration == 2)
        #expect(s.l.animation(forKey: "opacity")?.timingFunction == .linear)

        // An open explicit transaction defers the implicit one's commit too.
        try t.begin()
        try s.e.flush()
        try t.commit()
        #expect(t.animationDuration == 2)

        try s.e.flush()
        #expect(t.animationDuration == 0.25 && t.animationTimingFunction == nil && t.depth == 0)
        s.l.bounds = Rect(0, 0, 20, 20)
        let bounds = try #require(s.l.animation(forKey: "bounds"))
        #expect(bounds.timing.duration == 0.25 && bounds.timingFunction == .default)
        #expect(s.l.animation(forKey: "position")?.timing.duration == 2, "animations already added keep theirs")
        try s.e.step(1)
        #expect(near(s.x(), 50, valueTolerance))
    }

    @Test func anOpenTransactionDefersTheCommit() throws {
        let s = try Scene(modelX: 0)
        try s.e.transaction.begin()
        s.e.transaction.disableActions = true
        s.l.position.x = 100
        #expect(s.l.position.x == 100, "the model changes at once")
        try s.e.flush()
        #expect(s.x() == 0)
        try s.e.step(0.5)
        #expect(s.x() == 0)
        try s.e.transaction.commit()
        #expect(s.x() == 0, "committed to the screen by the engine's next commit")
        try s.e.flush()
        #expect(s.x() == 100)
        #expect(s.l.animationKeys.isEmpty)
    }

    @Test func anOpenTransactionKeepsNewAnimationsFromStarting() throws {
        let s = try Scene(modelX: 0)
        try s.e.transaction.begin()
        s.e.transaction.animationTimingFunction = .linear
        s.e.transaction.animationDuration = 1
        s.l.position.x = 100
        try s.e.step(0.5)
        #expect(s.x() == 0)
        try s.e.transaction.commit()
        try s.e.step(0.5)
        #expect(near(s.l.animation(forKey: "position")?.timing.beginTime ?? .nan, 0.5, timeTolerance))
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.step(0.5)
        #expect(near(s.x(), 100, valueTolerance) && s.l.animationKeys.isEmpty)
    }

    // MARK: completion blocks

    @Test func d3ABlockWithoutAnimationsRunsAtTheNextStepWithoutTimePassing() throws {
        let s = try Scene(modelX: 0)
        try inTransaction(s.e, disableActions: true, completion: logging("done", s.log, s.e)) {
            s.l.position.x = 100
        }
        #expect(s.log.events.isEmpty, "not run inside commit")
        try s.e.flush()
        #expect(s.log.events.isEmpty, "flush delivers nothing")
        try s.e.step(0)
        #expect(s.log.names == ["done"] && s.log.timesMatch([0]))
        try s.e.step(1)
        try s.e.step(0)
        #expect(s.log.names == ["done"], "exactly once")
    }

    @Test func aBlockSetOutsideBeginWaitsForTheImplicitTransaction() throws {
        let s = try Scene(modelX: 0)
        s.e.transaction.completionBlock = logging("done", s.log, s.e)
        s.l.position.x = 100
        try s.e.advance(to: 0.2)
        #expect(s.log.events.isEmpty)
        try s.e.advance(to: 1)
        #expect(s.log.names == ["done"] && s.log.timesMatch([0.25]))
    }

    /// Listing 7.3: a 1 s colour change whose completion block rotates the
    /// layer by 90° (CGAffineTransformRotate(affineTransform, π/2)).
    private final class L73 {
        let c: ColorScene
        let log = EventLog()
        /// The "transform" animation the block's change attached.
        var spin: Animation? = nil

        init() throws {
            c = try ColorScene()
            let layer = c.layer
            try inTransaction(c.e, duration: 1, completion: logging("done", log, c.e) { [unowned self] in
                layer.affineTransform = AffineTransform.rotation(.pi / 2).concatenating(layer.affineTransform)
                self.spin = layer.animation(forKey: "transform")
            }) {
                layer.backgroundColor = red
            }
        }

        /// After the block ran: its rotation animation lasts 0.25 s from t = 1.
        func expectBlockRanOnceAtOne() {
            #expect(log.names == ["done"] && log.timesMatch([1]))
            #expect(spin?.timing.duration == 0.25, "the block's change belongs to the default transaction")
            #expect(near(spin?.timing.beginTime ?? .nan, 1, timeTolerance))
            #expect((spin as? BasicAnimation)?.keyPath == "transform")
            #expect(near(c.layer.transform, Transform3D(AffineTransform.rotation(.pi / 2)), derivedTolerance))
        }
    }

    @Test func l73BlockRunsWhenTheColourChangeEndsSteppingByATenth() throws {
        let s = try L73()
        for _ in 1...9 {
            try s.c.e.step(0.1)
            #expect(s.log.events.isEmpty, "t = \(s.c.e.mediaTime)")
        }
        try s.c.e.advance(to: 0.999)
        #expect(s.log.events.isEmpty)
        #expect(s.c.showsMix(TimingFunction.default.evaluate(0.999)))
        try s.c.e.advance(to: 1)
        s.expectBlockRanOnceAtOne()
        #expect(s.c.showsMix(1) && s.c.layer.animation(forKey: "backgroundColor") == nil)
        #expect(near(pres(s.c.layer, "transform.rotation.z"), 0, valueTolerance))

        try s.c.e.advance(to: 1.125)
        #expect(near(.pi / 2 * defaultAtHalf, 1.260412, 1e-6))
        #expect(near(pres(s.c.layer, "transform.rotation.z"), .pi / 2 * defaultAtHalf, valueTolerance))
        try s.c.e.advance(to: 1.25)
        #expect(near(pres(s.c.layer, "transform.rotation.z"), .pi / 2, valueTolerance))
        #expect(s.c.layer.animationKeys.isEmpty)
        try s.c.e.step(1)
        #expect(s.log.names == ["done"])
    }

    @Test func l73BlockRunsAtExactlyOneSecondInOneBigStep() throws {
        let s = try L73()
        try s.c.e.advance(to: 2)
        s.expectBlockRanOnceAtOne()
        #expect(s.c.showsMix(1))
        #expect(near(pres(s.c.layer, "transform.rotation.z"), .pi / 2, valueTolerance))
        #expect(s.c.layer.animationKeys.isEmpty)
    }

    /// D3: actions with their own durations (1 s and 3 s) in one transaction.
    private func twoActionsScene() throws -> Scene {
        let s = try Scene(modelX: 0)
        s.l.actions = ["position": .animation(basic(duration: 1)), "opacity": .animation(basic(duration: 3))]
        try inTransaction(s.e, completion: logging("done", s.log, s.e)) {
            s.l.position.x = 100
            s.l.opacity = 0
        }
        #expect(s.l.animation(forKey: "position")?.timing.duration == 1)
        #expect(s.l.animation(forKey: "opacity")?.timing.duration == 3)
        return s
    }

    @Test func d3BlockWaitsForTheLastOfTwoAnimations() throws {
        let s = try twoActionsScene()
        for t in [0.5, 1, 1.5, 2.5, 2.999] {
            try s.e.advance(to: t)
            #expect(s.log.events.isEmpty, "t = \(t)")
        }
        #expect(s.l.animationKeys == ["opacity"])
        try s.e.advance(to: 3)
        #expect(s.log.names == ["done"] && s.log.timesMatch([3]))
        try s.e.advance(to: 5)
        #expect(s.log.names == ["done"])
    }

    @Test func d3BlockRunsAtTheLastEndEvenInOneBigStep() throws {
        let s = try twoActionsScene()
        try s.e.advance(to: 10)
        #expect(s.log.names == ["done"] && s.log.timesMatch([3]))
        #expect(s.l.animationKeys.isEmpty)
    }

    @Test func aRemovedAnimationCountsAsFinished() throws {
        let s = try Scene(modelX: 0)
        try inTransaction(s.e, duration: 1, completion: logging("done", s.log, s.e)) { s.l.position.x = 100 }
        try s.e.advance(to: 0.5)
        #expect(s.log.events.isEmpty)
        s.l.removeAnimation(forKey: "position")
        #expect(s.log.events.isEmpty)
        try s.e.step(0)
        #expect(s.log.names == ["done"] && s.log.timesMatch([0.5]))
        #expect(near(s.x(), 100, valueTolerance))
    }

    @Test func replacingTheBlockSealsTheFirstWhichWaitsOnlyForWhatWasAlreadyAdded() throws {
        let s = try Scene(modelX: 0)
        let t = s.e.transaction
        let second = logging("second", s.log, s.e)
        try t.begin()
        t.completionBlock = logging("first", s.log, s.e)
        t.animationDuration = 1
        s.l.position.x = 100
        t.completionBlock = second
        #expect(t.completionBlock === second)
        t.animationDuration = 2
        s.l.opacity = 0
        try t.commit()
        try s.e.advance(to: 5)
        #expect(s.log.names == ["first", "second"] && s.log.timesMatch([1, 2]))
    }

    @Test func aBlockReplacedBeforeAnyAnimationRunsAtTheNextStep() throws {
        let s = try Scene(modelX: 0)
        let t = s.e.transaction
        try t.begin()
        t.completionBlock = logging("first", s.log, s.e)
        t.completionBlock = logging("second", s.log, s.e)
        t.animationDuration = 1
        s.l.position.x = 100
        try t.commit()
        try s.e.step(0)
        #expect(s.log.names == ["first"] && s.log.timesMatch([0]))
        try s.e.advance(to: 3)
        #expect(s.log.names == ["first", "second"] && s.log.timesMatch([0, 1]))
    }

    @Test func blocksRunAfterTheDelegatesAtTheSameInstantInCommitOrder() throws {
        let s = try Scene(modelX: 0)
        // The outer block is set first but committed last.
        try inTransaction(s.e, completion: logging("outer", s.log, s.e)) {
            try inTransaction(s.e, completion: logging("inner", s.log, s.e)) {
                try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("a")), forKey: "a")
            }
            try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("b")), forKey: "b")
        }
        // Then two transactions one after the other, ending at the same time.
        try inTransaction(s.e, completion: logging("third", s.log, s.e)) {
            try s.l.addAnimation(moveX(duration: 1, delegate: s.spy("c")), forKey: "c")
        }
        try inTransaction(s.e, completion: logging("fourth", s.log, s.e)) {
            try s.l.addAnimation(moveX(duration: 1), forKey: "d")
        }
        try s.e.advance(to: 3)
        let atOne = s.log.events.filter { !$0.what.hasSuffix("start") }
        #expect(atOne.map(\.what) == ["a stop true", "b stop true", "c stop true", "inner", "outer", "third", "fourth"])
        #expect(atOne.allSatisfy { abs($0.time - 1) <= timeTolerance })
    }

    @Test func aBlockThatThrowsIsReportedByTheStepAndRunsOnce() throws {
        let s = try Scene(modelX: 0)
        try inTransaction(s.e, disableActions: true, completion: logging("done", s.log, s.e) { throw Boom(id: 3) }) {
            s.l.position.x = 100
        }
        #expect(throws: Boom(id: 3)) { try s.e.step(0) }
        try s.e.step(0)
        #expect(s.log.names == ["done"])
    }
}
