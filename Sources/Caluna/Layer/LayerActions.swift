/// CAAction: what a layer runs when one of its properties changes or an
/// event happens to it. Animations are actions too (`LayerAction.animation`).
public protocol CustomAction: AnyObject {
    /// runActionForKey:object:arguments: — `event` is the property name or
    /// event key ("onOrderIn", …); `arguments` is nil for every event caluna
    /// sends (as in Core Animation).
    func run(forKey event: String, layer: Layer, arguments: [String: Value]?) throws
}

/// An entry of an actions dictionary or a lookup answer.
public enum LayerAction {
    /// NSNull (Lua `false` or `ca.null`): stop the search, no action.
    case null
    /// Run by adding a copy to the layer (key: the event, or "transition").
    case animation(Animation)
    case custom(CustomAction)
}

/// CALayer's style dictionary, as far as actions go: `actions` is searched
/// after the layer's own actions, then the nested `style`, and so on.
public final class LayerStyle {
    public var actions: [String: LayerAction]?
    public var style: LayerStyle?
    public init(actions: [String: LayerAction]? = nil, style: LayerStyle? = nil) {
        self.actions = actions
        self.style = style
    }

    /// Deeper nesting is refused (and would only ever be a cycle).
    public static let maximumNesting = 32
}

/// Event keys that are not layer properties (kCAOnOrderIn, kCAOnOrderOut,
/// kCATransition) and the property-like keys with actions but no table entry.
public enum ActionKey {
    public static let orderIn = "onOrderIn"
    public static let orderOut = "onOrderOut"
    public static let sublayers = "sublayers"
    public static let contents = "contents"
    /// The key a Transition action is added under.
    public static let transition = "transition"
}

extension Layer {
    /// actionForKey: delegate `action(for:forKey:)` → `actions[key]` →
    /// `style.actions[key]` (nested styles in turn) → the default action.
    /// nil continues the search; `.null` stops it; the answer is never
    /// `.null` (no action is nil), as in Core Animation.
    public func action(forKey key: String) throws -> LayerAction? { try resolveAction(forKey: key).action }

    /// `action(forKey:)`, and whether the answer is a default action made
    /// for this call (no one else holds its animation).
    /// `property`: the property `key` names, when the caller has it.
    func resolveAction(forKey key: String, property: LayerProperty? = nil) throws -> (action: LayerAction?, made: Bool) {
        let found = try lookUpAction(forKey: key)
        if let found { return (found, false) }
        if let property { return (Layer.defaultAction(for: property, transaction: engine?.transaction), true) }
        return (Layer.defaultAction(forKey: key, transaction: engine?.transaction, kind: kind), true)
    }

    /// The delegate's, the actions dictionary's, the style's or the
    /// override's answer; .some(nil) when one of them says "no action".
    private func lookUpAction(forKey key: String) throws -> LayerAction?? {
        func answer(_ a: LayerAction?) -> LayerAction?? {
            guard let a else { return nil }
            if case .null = a { return .some(nil) }
            return .some(a)
        }
        if let d = delegate, let a = answer(try d.action(for: self, forKey: key)) { return a }
        if let a = answer(actions?[key]) { return a }
        var s = style
        var level = 0
        while let cur = s, level < LayerStyle.maximumNesting {
            if let a = answer(cur.actions?[key]) { return a }
            s = cur.style
            level += 1
        }
        if let override = defaultActionOverride { return .some(answer(try override(self, key)) ?? nil) }
        return nil
    }

    /// +defaultActionForKey: a basic animation for every animatable property
    /// (duration and timing function from the transaction, else 0.25 s on the
    /// default curve) and a fade transition for `contents`; nil otherwise.
    /// `kind` nil: the default of whichever kind has the property.
    public static func defaultAction(forKey key: String, transaction: TransactionStack?,
                                     kind: LayerKind? = .layer) -> LayerAction? {
        guard let p = try? LayerProperties.resolve(key, kind: kind) else { return nil }
        return defaultAction(for: p, transaction: transaction)
    }

    /// The default action of property `p` (see above).
    static func defaultAction(for p: LayerProperty, transaction: TransactionStack?) -> LayerAction? {
        if p.key == ActionKey.contents {
            let t = Transition()
            t.timing.duration = transaction?.animationDuration ?? MediaTiming.defaultDuration
            return .animation(t)
        }
        guard p.animatable, p.animatesImplicitly else { return nil }
        let a = BasicAnimation()
        a.keyPath = p.key
        a.timing.duration = transaction?.animationDuration ?? MediaTiming.defaultDuration
        a.timingFunction = transaction?.animationTimingFunction ?? .default
        return .animation(a)
    }

    /// A property of the table changed: its action runs (CALayer's setters
    /// do this). Layers never committed get none (scene set-up must not
    /// animate), nor changes made with actions disabled.
    func changed(_ key: String) {
        markNeedsCommit()
        guard presentationLayer != nil, let engine, engine.actionsEnabled,
              let p = LayerProperties.named(key, kind: kind), p.animatable else { return }
        engine.runAction(forKey: key, on: self, property: p)
    }

    /// An event that is not a property change (onOrderIn, sublayers, …).
    func sendEvent(_ key: String) {
        guard let engine, engine.actionsEnabled else { return }
        engine.runAction(forKey: key, on: self)
    }
}

extension Engine {
    /// Actions may change properties (and so run actions); deeper than this
    /// is a loop.
    static let maximumActionNesting = 16

    /// Looks the action for `key` up and runs it. Errors (from a delegate, a
    /// custom action, a bad animation) are kept and reported by the call
    /// that made the change, or else by the next step.
    /// `property`: the layer property `key` names, when the caller has it
    /// (each lookup by name was a tenth of an implicit animation).
    func runAction(forKey key: String, on layer: Layer, property: LayerProperty? = nil) {
        // Not FirstError.run: an action's own changes re-enter here, and an
        // inout access to the collector must not overlap itself.
        do {
            guard actionNesting < Engine.maximumActionNesting else {
                throw CalunaError.invalid("actions nested more than \(Engine.maximumActionNesting) deep while running the action for '\(key)' (does an action change the property it animates?)")
            }
            actionNesting += 1
            defer { actionNesting -= 1 }
            let (action, made) = try layer.resolveAction(forKey: key, property: property)
            switch action {
            case nil, .null?: return
            case .custom(let c)?: try c.run(forKey: key, layer: layer, arguments: nil)
            case .animation(let a)?: try run(made ? a : a.copy(), forKey: key, on: layer, property: property)
            }
        } catch {
            if actionError == nil { actionError = error }
        }
    }

    /// Runs an animation action (`a` is the action's own copy): it is added
    /// under the event key (a transition under "transition"); a property
    /// animation without a key path gets the property's; a basic animation
    /// without a fromValue starts from what is on screen now.
    private func run(_ a: Animation, forKey key: String, on layer: Layer, property: LayerProperty?) throws {
        if let p = a as? PropertyAnimation, p.keyPath == nil,
           property != nil || LayerProperties.named(key, kind: layer.kind) != nil { p.keyPath = key }
        if let b = a as? BasicAnimation, b.fromValue == nil, b.valueFunction == nil, let keyPath = b.keyPath,
           let shown = layer.presentation() {
            let v = try property.flatMap { $0.key == keyPath ? $0.get(shown) : nil } ?? shown.value(forKeyPath: keyPath)
            if v != .null { b.fromValue = v }
        }
        try layer.attach(a, forKey: a is Transition ? ActionKey.transition : key)
    }

    /// The first error an action raised since the last call, thrown once.
    public func takeActionError() throws {
        guard let e = actionError else { return }
        actionError = nil
        throw e
    }
}
