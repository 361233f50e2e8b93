import Testing
@testable import Caluna

// Actions and implicit animations (spec ch07-09 §1.2–1.4, §5 items 3, 4, 7,
// 11; listings L7.1, L7.2, L7.6; derived scenes D4–D6, D18–D21): the lookup
// order, running what it finds, order-in/order-out/sublayers events and
// transitions as actions.

@Suite struct ActionLookupTests {
    // MARK: D4 lookup order, case by case. Each case changes the opacity of
    // a committed layer; A, B and C are told apart by their durations.

    private let A = basic(duration: 1)
    private let B = basic(duration: 2)
    private let C = basic(duration: 3)

    /// A committed layer with a recording delegate, set up by `configure`;
    /// returns what `action(forKey: "opacity")` answers and what changing
    /// the opacity attaches.
    private func lookUp(_ configure: (Layer, ActionDelegate) -> Void)
        throws -> (answer: LayerAction?, attached: Animation?, delegate: ActionDelegate) {
        let s = try Scene()
        let delegate = ActionDelegate()
        s.l.delegate = delegate
        configure(s.l, delegate)
        let answer = try s.l.action(forKey: "opacity")
        s.l.opacity = 0.5
        #expect(s.l.opacity == 0.5)
        return (answer, s.l.animation(forKey: "opacity"), delegate)
    }

    @Test func d4TheDelegatesAnimationWinsOverTheActionsDictionary() throws {
        let r = try lookUp { l, d in
            d.answer = .animation(A)
            l.actions = ["opacity": .animation(B)]
        }
        #expect(animation(in: r.answer) === A)
        #expect(r.attached !== A && r.attached?.timing.duration == 1, "a copy of A is attached")
        #expect(r.delegate.keys == ["opacity", "opacity"])
    }

    @Test func d4ADelegateAnsweringNilContinuesTheSearch() throws {
        let r = try lookUp { l, _ in l.actions = ["opacity": .animation(B)] }
        #expect(animation(in: r.answer) === B)
        #expect(r.attached?.timing.duration == 2)
        #expect(r.delegate.keys == ["opacity", "opacity"])
    }

    @Test func d4ADelegateAnsweringNullStopsTheSearch() throws {
        let r = try lookUp { l, d in
            d.answer = .null
            l.actions = ["opacity": .animation(B)]
        }
        #expect(r.answer == nil, "the answer is never .null: no action is nil")
        #expect(r.attached == nil)
    }

    @Test func d4ANullInTheActionsDictionaryStopsBeforeTheStyle() throws {
        let r = try lookUp { l, _ in
            l.actions = ["opacity": .null]
            l.style = LayerStyle(actions: ["opacity": .animation(C)])
        }
        #expect(r.answer == nil && r.attached == nil)
    }

    @Test func d4TheStylesActionsAreSearchedAfterTheLayersActions() throws {
        let r = try lookUp { l, _ in
            l.actions = ["position": .animation(A)]
            l.style = LayerStyle(actions: ["opacity": .animation(C)])
        }
        #expect(animation(in: r.answer) === C)
        #expect(r.attached?.timing.duration == 3)
    }

    @Test func d4NestedStylesAreSearchedInTurn() throws {
        let r = try lookUp { l, _ in
            l.style = LayerStyle(actions: ["position": .animation(A)],
                                 style: LayerStyle(style: LayerStyle(actions: ["opacity": .animation(C)])))
        }
        #expect(animation(in: r.answer) === C)
        #expect(r.attached?.timing.duration == 3)
    }

    @Test func d4ANullInAnOuterStopsTheSearchOfItsNestedStyles() throws {
        let r = try lookUp { l, _ in
            l.style = LayerStyle(actions: ["opacity": .null], style: LayerStyle(actions: ["opacity": .animation(C)]))
        }
        #expect(r.answer == nil && r.attached == nil)
    }

    @Test func d4WithNothingSetTheDefaultActionIsABasicAnimationOnTheDefaultCurve() throws {
        let r = try lookUp { _, _ in }
        let answer = try #require(animation(in: r.answer) as? BasicAnimation)
        #expect(answer.keyPath == "opacity" && answer.timing.duration == 0.25 && answer.timingFunction == .default)
        #expect(answer.fromValue == nil && answer.toValue == nil && answer.byValue == nil)
        let attached = try #require(r.attached as? BasicAnimation)
        #expect(attached.keyPath == "opacity" && attached.timing.duration == 0.25 && attached.timingFunction == .default)
        #expect(attached.fromValue == .number(1), "starts from what was on screen")
        #expect(attached.toValue == nil, "ends at the model value")
        #expect(r.delegate.keys == ["opacity", "opacity"])
    }

    @Test func defaultActionFollowsTheTransactionAndCoversOnlyAnimatableProperties() throws {
        let e = try Engine()
        try e.transaction.begin()
        e.transaction.animationDuration = 2
        e.transaction.animationTimingFunction = .linear
        let inside = try #require(animation(in: Layer.defaultAction(forKey: "position", transaction: e.transaction)) as? BasicAnimation)
        #expect(inside.keyPath == "position" && inside.timing.duration == 2 && inside.timingFunction == .linear)
        try e.transaction.commit()
        let outside = try #require(animation(in: Layer.defaultAction(forKey: "bounds", transaction: nil)) as? BasicAnimation)
        #expect(outside.keyPath == "bounds" && outside.timing.duration == 0.25 && outside.timingFunction == .default)
        for key in ["name", "frame", "allowsGroupOpacity", ActionKey.orderIn, ActionKey.orderOut, ActionKey.sublayers,
                    ActionKey.transition, "noSuchKey"] {
            #expect(Layer.defaultAction(forKey: key, transaction: e.transaction) == nil, "\(key)")
        }
        let fade = try #require(animation(in: Layer.defaultAction(forKey: ActionKey.contents, transaction: nil)) as? Transition)
        #expect(fade.type == .fade && fade.timing.duration == 0.25)
    }

    @Test func d4TheDefaultActionOverrideIsUsedAfterTheStyle() throws {
        var asked: [String] = []
        let r = try lookUp { l, _ in
            l.defaultActionOverride = { _, key in
                asked.append(key)
                return .animation(C)
            }
        }
        #expect(animation(in: r.answer) === C)
        #expect(r.attached?.timing.duration == 3)
        #expect(asked == ["opacity", "opacity"])

        let shadowed = try lookUp { l, _ in
            l.actions = ["opacity": .animation(A)]
            l.defaultActionOverride = { _, _ in Issue.record("not asked when the actions answer"); return nil }
        }
        #expect(animation(in: shadowed.answer) === A)
    }

    @Test func d4ADefaultActionOverrideAnsweringNilOrNullMeansNoAction() throws {
        for answer in [nil, LayerAction.null] {
            let r = try lookUp { l, _ in l.defaultActionOverride = { _, _ in answer } }
            #expect(r.answer == nil && r.attached == nil)
        }
    }

    @Test func d4WithActionsDisabledTheDelegateIsNotAsked() throws {
        let s = try Scene()
        let delegate = ActionDelegate(answer: .animation(A))
        s.l.delegate = delegate
        try inTransaction(s.e, disableActions: true) { s.l.opacity = 0.5 }
        s.e.withoutActions { s.l.position.x = 10 }
        #expect(delegate.keys.isEmpty)
        #expect(s.l.animationKeys.isEmpty)
        try s.e.flush()
        #expect(pres(s.l, "opacity") == 0.5 && pres(s.l, "position.x") == 10)
    }

    @Test func d19LayersNeverCommittedGetNoImplicitAnimations() throws {
        let e = try Engine(size: Size(300, 300))
        let l = e.makeLayer()
        let delegate = ActionDelegate()
        l.delegate = delegate
        l.frame = Rect(10, 10, 50, 50)
        l.opacity = 0.5
        l.backgroundColor = red
        #expect(l.presentation() == nil)
        try e.root.addSublayer(l)
        l.position.x = 100
        #expect(l.animations.isEmpty)
        #expect(delegate.keys.allSatisfy { LayerProperties.named($0) == nil }, "no property change was looked up: \(delegate.keys)")
        try e.flush()
        let p = try #require(l.presentation())
        #expect(p.modelLayer === l && l.modelLayer === l)
        #expect(p.opacity == 0.5 && p.position.x == 100 && p.backgroundColor == red)
        l.opacity = 0.25
        #expect(delegate.keys.last == "opacity" && l.animationKeys == ["opacity"])
    }

    // MARK: L7.1, L7.2 and D21: implicit animations' values

    @Test func defaultCurveConstants() {
        #expect(near(defaultAtHalf, 0.802403, 1e-6))
        #expect(near(defaultAtQuarter, 0.408511, 1e-6))
    }

    @Test func l71ColourChangeAnimatesForAQuarterSecondOnTheDefaultCurve() throws {
        let c = try ColorScene()
        c.layer.backgroundColor = red
        #expect(c.layer.backgroundColor == red, "the model changes at once")
        #expect(c.layer.animationKeys == ["backgroundColor"])
        let attached = try #require(c.layer.animation(forKey: "backgroundColor") as? BasicAnimation)
        #expect(attached.keyPath == "backgroundColor" && attached.timing.duration == 0.25)
        #expect(attached.timingFunction == .default)
        #expect(attached.fromValue == .color(blue))
        #expect(c.showsMix(0))

        try c.e.advance(to: 0.125)
        #expect(c.showsMix(defaultAtHalf))
        let middle = try c.e.render()
        #expect(px(middle, 100, 100).matches(RGBA(205, 0, 50), tol: 2), "\(px(middle, 100, 100))")
        try c.e.advance(to: 0.25)
        #expect(c.showsMix(1) && c.layer.animationKeys.isEmpty)
        let end = try c.e.render()
        #expect(px(end, 100, 100) == .red)
    }

    @Test func l71WithALinearTransactionTheMidpointIsHalfway() throws {
        let c = try ColorScene()
        try inTransaction(c.e, timing: .linear) { c.layer.backgroundColor = red }
        #expect(c.layer.animation(forKey: "backgroundColor")?.timingFunction == .linear)
        try c.e.advance(to: 0.125)
        #expect(near(c.shown, 0.5, 0, 0.5))
    }

    @Test func l72ATransactionOfOneSecondSlowsTheChange() throws {
        let c = try ColorScene()
        try inTransaction(c.e, duration: 1) { c.layer.backgroundColor = red }
        #expect(c.layer.animation(forKey: "backgroundColor")?.timing.duration == 1)
        try c.e.advance(to: 0.25)
        #expect(c.showsMix(defaultAtQuarter))
        try c.e.advance(to: 0.5)
        #expect(c.showsMix(defaultAtHalf))
        try c.e.advance(to: 1)
        #expect(c.showsMix(1) && c.layer.animationKeys.isEmpty)
    }

    @Test func l72WithActionsDisabledTheColourChangesAtTheCommit() throws {
        let c = try ColorScene()
        try inTransaction(c.e, duration: 1, disableActions: true) { c.layer.backgroundColor = red }
        #expect(c.layer.animationKeys.isEmpty)
        try c.e.flush()
        #expect(c.showsMix(1))
    }

    @Test(arguments: [(nil, defaultAtHalf), (TimingFunction.linear, 0.5)])
    func d21ImplicitAnimationInATwoSecondTransaction(timing: TimingFunction?, mix: Double) throws {
        let s = try Scene(modelX: 0)
        try inTransaction(s.e, duration: 2, timing: timing) { s.l.position.x = 100 }
        #expect(s.l.position.x == 100)
        try s.e.advance(to: 1)
        #expect(near(s.x(), 100 * mix, valueTolerance))
        #expect(s.l.position.x == 100)
        try s.e.advance(to: 2)
        #expect(near(s.x(), 100, valueTolerance) && s.l.animationKeys.isEmpty)
    }

    @Test func d5ChangingAnAnimatedPropertyRetargetsWithoutAJump() throws {
        let s = try Scene(modelX: 0)
        s.l.actions = ["position": .animation(basic(duration: 0, delegate: s.spy("old")))]
        try inTransaction(s.e, duration: 1, timing: .linear) { s.l.position.x = 100 }
        try s.e.advance(to: 0.5)
        #expect(near(s.x(), 50, valueTolerance))

        s.l.actions = ["position": .animation(basic(duration: 0, delegate: s.spy("new")))]
        try inTransaction(s.e, duration: 1, timing: .linear) { s.l.position.x = 200 }
        #expect(s.l.animationKeys == ["position"])
        let retarget = try #require(s.l.animation(forKey: "position") as? BasicAnimation)
        #expect(retarget.fromValue == .point(Point(50, 50)))
        try s.e.step(0)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 1)
        #expect(near(s.x(), 125, valueTolerance))
        try s.e.advance(to: 1.5)
        #expect(near(s.x(), 200, valueTolerance) && s.l.animationKeys.isEmpty)
        #expect(s.log.names == ["old start", "new start", "old stop false", "new stop true"])
        #expect(s.log.timesMatch([0, 0.5, 0.5, 1.5]))
    }

    @Test func d18SettingTheFrameAnimatesPositionAndBounds() throws {
        let s = try Scene(modelX: 0)   // frame (−5, 45, 10, 10)
        try inTransaction(s.e, duration: 1, timing: .linear) { s.l.frame = Rect(95, 45, 30, 10) }
        #expect(s.l.animationKeys.sorted() == ["bounds", "position"])
        #expect(s.l.animation(forKey: "frame") == nil)
        #expect(s.l.animations.allSatisfy { $0.timing.duration == 1 })
        try s.e.advance(to: 0.5)
        let p = try #require(s.l.presentation())
        #expect(near(p.position, Point(55, 50), valueTolerance))
        #expect(near(p.bounds, Rect(0, 0, 20, 10), valueTolerance))
        try s.e.advance(to: 1)
        #expect(near(s.l.presentation()?.frame ?? .zero, Rect(95, 45, 30, 10), valueTolerance))
    }

    @Test func d20AnExplicitAnimationOfDurationZeroTakesTheTransactionsDuration() throws {
        let s = try Scene()
        try inTransaction(s.e, duration: 2) { try s.l.addAnimation(moveX(duration: 0), forKey: "x") }
        // The copy keeps duration 0 and lasts the transaction's 2 s.
        #expect(s.l.animation(forKey: "x")?.resolvedDuration == 2)
        #expect(s.l.animation(forKey: "x")?.timingFunction == nil, "explicit animations stay linear")
        try s.e.advance(to: 1)
        #expect(near(s.x(), 50, valueTolerance))
        try s.e.advance(to: 1.999)
        #expect(s.l.animationKeys == ["x"])
        try s.e.advance(to: 2)
        #expect(near(s.x(), 200, valueTolerance) && s.l.animationKeys.isEmpty)
    }

    @Test func anAnimationActionGetsTheTransactionsTimingFunctionOnlyIfItHasNone() throws {
        let s = try Scene(modelX: 0)
        s.l.actions = ["position": .animation(basic(duration: 1)),
                       "opacity": .animation(basic(duration: 1, timing: .easeIn))]
        try inTransaction(s.e, timing: .easeOut) {
            s.l.position.x = 100
            s.l.opacity = 0
        }
        #expect(s.l.animation(forKey: "position")?.timingFunction == .easeOut)
        #expect(s.l.animation(forKey: "opacity")?.timingFunction == .easeIn)
    }

    // MARK: custom actions and errors

    @Test func aCustomActionRunsWithTheKeyTheLayerAndNoArguments() throws {
        let s = try Scene()
        let action = RecordingAction()
        s.l.actions = ["opacity": .custom(action)]
        s.l.opacity = 0.5
        #expect(action.runs.count == 1)
        let run = try #require(action.runs.first)
        #expect(run.key == "opacity" && run.layer === s.l && run.arguments == nil)
        #expect(s.l.animations.isEmpty, "a custom action adds nothing by itself")
        try s.e.flush()
        #expect(pres(s.l, "opacity") == 0.5)
    }

    @Test func anActionErrorIsThrownByTheSetterAndTheModelKeepsTheValue() throws {
        let s = try Scene()
        s.l.actions = ["opacity": .custom(RecordingAction { _, _ in throw Boom(id: 7) })]
        let opacity = try #require(LayerProperties.named("opacity"))
        #expect(throws: Boom(id: 7)) { try opacity.set(s.l, .number(0.5)) }
        #expect(s.l.opacity == 0.5)
        try s.e.step(0)
        #expect(pres(s.l, "opacity") == 0.5)

        // Through the Swift setter the next step reports it, once.
        s.l.opacity = 0.25
        #expect(throws: Boom(id: 7)) { try s.e.step(0) }
        try s.e.step(0)

        // The engine carries on.
        s.l.actions = nil
        try opacity.set(s.l, .number(1))
        #expect(s.l.animationKeys == ["opacity"])
        try s.e.advance(to: 1)
        #expect(pres(s.l, "opacity") == 1 && s.l.animationKeys.isEmpty)
    }

    @Test func anActionThatChangesItsOwnPropertyEndsInAnErrorNotAHang() throws {
        let s = try Scene()
        let action = RecordingAction { _, layer in layer.opacity = layer.opacity / 2 }
        s.l.actions = ["opacity": .custom(action)]
        let opacity = try #require(LayerProperties.named("opacity"))
        #expect(errorCode { try opacity.set(s.l, .number(0.5)) } == .invalidArgument)
        #expect(action.runs.count == Engine.maximumActionNesting)
        try s.e.step(0)
        s.l.actions = nil
        s.l.opacity = 1
        #expect(s.l.animationKeys == ["opacity"])
        try s.e.step(0)
    }

    @Test func aDelegateErrorIsThrownByTheSetter() throws {
        final class Failing: LayerDelegate {
            func action(for layer: Layer, forKey key: String) throws -> LayerAction? { throw Boom(id: 9) }
        }
        let s = try Scene()
        let delegate = Failing()
        s.l.delegate = delegate
        let position = try #require(LayerProperties.named("position"))
        #expect(throws: Boom(id: 9)) { try position.set(s.l, .point(Point(1, 2))) }
        #expect(s.l.position == Point(1, 2) && s.l.animations.isEmpty)
        try s.e.step(0)
    }

    // MARK: events: onOrderIn, onOrderOut, sublayers

    /// A committed 300×300 engine and a committed layer `n` in its root, with
    /// recording delegates on the root and `n`.
    private struct Tree {
        let e: Engine
        let n: Layer
        let rootDelegate = ActionDelegate()
        let delegate = ActionDelegate()

        init() throws {
            e = try Engine(size: Size(300, 300))
            n = try addLayer(e, to: e.root, frame: Rect(10, 10, 50, 50), color: red, name: "n")
            try e.flush()
            e.root.delegate = rootDelegate
            n.delegate = delegate
        }
    }

    @Test func onOrderInRunsWhenAFreshLayerJoinsTheCommittedTree() throws {
        let e = try Engine(size: Size(300, 300))
        try e.flush()
        let fresh = e.makeLayer()
        fresh.frame = Rect(0, 0, 20, 20)
        let fadeIn = basic("opacity", from: .number(0), to: .number(1), duration: 1, timing: .linear)
        fresh.actions = [ActionKey.orderIn: .animation(fadeIn)]
        try e.root.addSublayer(fresh)
        #expect(fresh.animationKeys == [ActionKey.orderIn])
        try e.flush()
        #expect(near(pres(fresh, "opacity"), 0, valueTolerance))
        try e.advance(to: 0.5)
        #expect(near(pres(fresh, "opacity"), 0.5, valueTolerance))
        try e.advance(to: 1)
        #expect(pres(fresh, "opacity") == 1 && fresh.animations.isEmpty)
    }

    @Test func onOrderOutRunsWhenALayerLeavesTheTree() throws {
        let t = try Tree()
        let action = RecordingAction()
        t.n.actions = [ActionKey.orderOut: .custom(action)]
        t.n.removeFromSuperlayer()
        #expect(action.keys == [ActionKey.orderOut])
        #expect(action.runs.first?.layer === t.n && action.runs.first?.arguments == nil)
        #expect(t.delegate.keys == [ActionKey.orderOut])
        #expect(t.rootDelegate.keys == [ActionKey.sublayers])
        try t.e.root.addSublayer(t.n)
        #expect(t.delegate.keys == [ActionKey.orderOut, ActionKey.orderIn])
        #expect(t.rootDelegate.keys == [ActionKey.sublayers, ActionKey.sublayers])
    }

    @Test func hidingAndShowingOrderTheLayerOutAndIn() throws {
        let t = try Tree()
        t.n.hidden = true
        #expect(t.delegate.keys == ["hidden", ActionKey.orderOut])
        t.n.hidden = true
        #expect(t.delegate.keys == ["hidden", ActionKey.orderOut, "hidden"], "no second onOrderOut")
        t.n.hidden = false
        #expect(t.delegate.keys == ["hidden", ActionKey.orderOut, "hidden", "hidden", ActionKey.orderIn])
        #expect(t.rootDelegate.keys.isEmpty)

        // Outside the tree hiding orders nothing.
        t.n.removeFromSuperlayer()
        let before = t.delegate.keys.count
        t.n.hidden = true
        t.n.hidden = false
        #expect(t.delegate.keys[before - 1] == ActionKey.orderOut)
        #expect(Array(t.delegate.keys[before...]) == ["hidden", "hidden"])
    }

    @Test func movingALayerWithinTheTreeOrdersNeitherInNorOut() throws {
        let t = try Tree()
        let other = try addLayer(t.e, to: t.e.root, frame: Rect(100, 100, 50, 50), name: "other")
        try t.e.flush()
        let otherDelegate = ActionDelegate()
        other.delegate = otherDelegate
        let rootCalls = t.rootDelegate.keys.count

        try other.addSublayer(t.n)
        try t.e.root.addSublayer(t.n)
        #expect(otherDelegate.keys == [ActionKey.sublayers, ActionKey.sublayers])
        #expect(Array(t.rootDelegate.keys[rootCalls...]) == [ActionKey.sublayers, ActionKey.sublayers])
        // Reordering within the same superlayer (the root's "sublayers"
        // events are not counted here).
        try t.e.root.insertSublayer(t.n, at: 0)
        try t.e.root.insertSublayer(t.n, above: other)
        #expect(t.delegate.keys.isEmpty)
        #expect(t.e.root.sublayers.map(\.name) == ["other", "n"])
    }

    @Test func aSublayersActionRunsOnTheParent() throws {
        let t = try Tree()
        let action = RecordingAction()
        t.e.root.actions = [ActionKey.sublayers: .custom(action)]
        let child = t.e.makeLayer()
        try t.e.root.addSublayer(child)
        child.removeFromSuperlayer()
        try t.e.root.setSublayers([t.n, child])
        #expect(action.keys == [ActionKey.sublayers, ActionKey.sublayers, ActionKey.sublayers])
        #expect(action.runs.allSatisfy { $0.layer === t.e.root })
        #expect(Layer.defaultAction(forKey: ActionKey.sublayers, transaction: nil) == nil)
        #expect(t.e.root.animations.isEmpty)
    }

    // MARK: L7.6: a transition as the backgroundColor action

    @Test(arguments: [Transition.Kind.push, .fade])
    func l76TransitionAsTheBackgroundColorAction(kind: Transition.Kind) throws {
        let c = try ColorScene()
        let transition = Transition()
        transition.type = kind
        transition.subtype = .fromLeft
        c.layer.actions = ["backgroundColor": .animation(transition)]
        c.layer.backgroundColor = red
        #expect(c.layer.backgroundColor == red)
        #expect(c.layer.animationKeys == [ActionKey.transition])
        #expect(c.layer.animation(forKey: "backgroundColor") == nil)
        #expect(c.layer.animation(forKey: ActionKey.transition)?.resolvedDuration == 0.25)

        try c.e.advance(to: 0.125)
        let image = try c.e.render()
        switch kind {
        case .push:
            // The new (red) content has come halfway in from the left.
            #expect(px(image, 70, 100).matches(.red, tol: 2), "\(px(image, 70, 100))")
            #expect(px(image, 130, 100).matches(.blue, tol: 2), "\(px(image, 130, 100))")
        default:
            for (x, y) in [(70, 100), (100, 100), (130, 100)] {
                #expect(px(image, x, y).matches(RGBA(128, 0, 128), tol: 2), "(\(x), \(y)): \(px(image, x, y))")
            }
        }
        try c.e.advance(to: 0.25)
        #expect(c.layer.animations.isEmpty)
        let end = try c.e.render()
        for (x, y) in [(55, 55), (100, 100), (145, 145)] { #expect(px(end, x, y) == .red, "(\(x), \(y))") }
        #expect(px(end, 45, 100) == .white && px(end, 155, 100) == .white)
    }

    @Test func l76WithANullActionTheColourJumps() throws {
        let c = try ColorScene()
        c.layer.actions = ["backgroundColor": .null]
        c.layer.backgroundColor = red
        #expect(c.layer.animations.isEmpty)
        let image = try c.e.render()
        #expect(px(image, 100, 100) == .red)
    }
}
