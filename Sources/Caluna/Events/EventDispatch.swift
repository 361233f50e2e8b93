/// A function that handles one kind of event, on a layer or on the engine.
/// It returns true when it consumed the event: no later handler sees it.
public final class EventHandler {
    /// The event name it handles ("pointerdown", "tap", a custom name …).
    public let name: String
    @WeakLink public private(set) var layer: Layer?
    public private(set) var isValid = true
    /// Free for the binding that made it (the Lua binding keeps the slot of
    /// the handler's function here).
    public var tag: Int64 = 0
    let body: (InputEvent) throws -> Bool
    /// Its share of the current engine's memory (counted, not refused).
    let memoryCharge = MemoryCharge(forcing: MemoryLedger.current, 512)

    init(name: String, layer: Layer?, body: @escaping (InputEvent) throws -> Bool) {
        self.name = name
        self.layer = layer
        self.body = body
    }

    /// Stops it for good (removeEventHandler calls this).
    public func invalidate() { isValid = false }
}

extension Engine {
    /// Adds a handler on the engine: it sees events of `name` after the
    /// handlers of the layers they bubble through (and every event that does
    /// not concern a layer: keys, tilt, resize, custom events).
    @discardableResult
    public func addEventHandler(_ name: String, _ body: @escaping (InputEvent) throws -> Bool) throws -> EventHandler {
        try Engine.checkHandlerName(name, onLayer: false)
        let h = EventHandler(name: name, layer: nil, body: body)
        input.handlers.append(h)
        return h
    }

    /// Adds a handler on a model layer: pointer events and the gestures tap
    /// and pan reach it when it or a sublayer is hit.
    @discardableResult
    public func addEventHandler(_ name: String, on layer: Layer, _ body: @escaping (InputEvent) throws -> Bool) throws -> EventHandler {
        try Engine.checkHandlerName(name, onLayer: true)
        guard !layer.isPresentation else {
            throw CalunaError.invalid("handlers go on model layers; this is a presentation layer (use its modelLayer)")
        }
        guard layer.engine === self else { throw CalunaError(.treeError, "the layer belongs to another engine") }
        let h = EventHandler(name: name, layer: layer, body: body)
        layer.eventHandlers.append(h)
        return h
    }

    /// Removes a handler (from its layer or the engine); removing one twice
    /// is harmless.
    public func removeEventHandler(_ h: EventHandler) {
        h.invalidate()
        if let l = h.layer { l.eventHandlers.removeAll { $0 === h } }
        input.handlers.removeAll { $0 === h }
    }

    /// Removes the handlers of `name` (all names when nil) from a layer.
    @discardableResult
    public func removeEventHandlers(_ name: String?, on layer: Layer) -> [EventHandler] {
        let removed = layer.eventHandlers.filter { name == nil || $0.name == name }
        for h in removed { h.invalidate() }
        layer.eventHandlers.removeAll { !$0.isValid }
        return removed
    }

    /// Refuses a name no layer handler could receive.
    public static func checkLayerHandlerName(_ name: String) throws { try checkHandlerName(name, onLayer: true) }

    static func checkHandlerName(_ name: String, onLayer: Bool) throws {
        if onLayer {
            guard let k = InputEvent.Kind(rawValue: name), k.reachesLayers else {
                let names = InputEvent.Kind.allCases.filter(\.reachesLayers).map(\.rawValue).joined(separator: ", ")
                throw CalunaError(.unknownKey, "a layer handles \(names); '\(name)' never reaches a layer (put it on the engine)")
            }
            return
        }
        guard !name.isEmpty, name.utf8.count <= 128 else { throw CalunaError.invalid("an event name is 1–128 bytes") }
        if name == InputEvent.Kind.custom.rawValue {
            throw CalunaError.invalid("handle a custom event by its own name, not 'custom'")
        }
        // A built-in name in the wrong case is a typo, not a custom event.
        if !InputEvent.builtInNames.contains(name), let k = InputEvent.builtInNames.first(where: { $0 == name.lowercased() }) {
            throw CalunaError(.unknownKey, "no event '\(name)': did you mean '\(k)'? (event names are lower case)")
        }
    }

    /// The model layer under `p` (root coordinates) in the tree hit testing
    /// uses, or nil.
    public func hitLayer(at p: Point) -> Layer? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        if input.hitTestsPresentation {
            updatePresentationIfNeeded()
            return (root.presentationLayer ?? root).hitTest(p)?.modelLayer
        }
        return root.hitTest(p)
    }

    /// `p` (output coordinates: the root's superlayer space, as for hitTest) in `layer`'s own space, in the tree hit testing
    /// uses (so a point that hit a moving layer lands inside it).
    public func location(_ p: Point, in layer: Layer) throws -> Point {
        let l = input.hitTestsPresentation ? (layer.modelLayer.presentation() ?? layer) : layer.modelLayer
        return try l.convert(p, from: nil)
    }

    /// Handles one event: the engine's own work (resize, pointer capture,
    /// gestures), then its handlers.
    func deliver(_ e: InputEvent, _ errors: inout FirstError) {
        switch e.kind {
        case .resize:
            errors.run { try setup(size: e.size, scale: e.scale) }
            dispatch(e, from: nil, &errors)
        case .pointerDown, .pointerMove, .pointerUp, .pointerCancel:
            deliverPointer(e, &errors)
        default:
            dispatch(e, from: nil, &errors)
        }
    }

    /// Calls the handlers for `e`: those of `target` and its superlayers
    /// (bubbling), then the engine's, until one returns true.
    func dispatch(_ event: InputEvent, from target: Layer?, _ errors: inout FirstError) {
        var e = event
        e.target = target
        // One level's handlers of this event, as they are when it is reached
        // (handlers added meanwhile wait; removed ones are skipped); true
        // when one of them consumed it.
        var droppedFrom: [ObjectIdentifier: Layer] = [:], droppedFromEngine = false
        func consumed(by handlers: [EventHandler], at layer: Layer?) -> Bool {
            e.currentTarget = layer
            for h in handlers where h.name == e.name {
                guard h.isValid else { continue }
                var done = false
                errors.run {
                    do { done = try h.body(e) } catch let stop as CalunaError where stop.code == .limitReached {
                        // A script stopped by its limits is never entered again: its
                        // handler would fail for every later event (events × handlers).
                        h.invalidate()
                        if let layer { droppedFrom[ObjectIdentifier(layer)] = layer } else { droppedFromEngine = true }
                        throw stop
                    }
                }
                if done { return true }
            }
            return false
        }
        defer {
            // Once per level that lost handlers, not once per handler.
            for l in droppedFrom.values { l.eventHandlers.removeAll { !$0.isValid } }
            if droppedFromEngine { input.handlers.removeAll { !$0.isValid } }
        }
        var layer = target
        while let l = layer {
            if consumed(by: l.eventHandlers, at: l) { return }
            layer = l.superlayer
        }
        _ = consumed(by: input.handlers, at: nil)
    }
}
