/// Tree operations (ch.1): the sublayers array is drawn in order, so the last
/// sublayer is on top; zPosition reorders drawing only (not hit testing).
extension Layer {
    /// The deepest a layer tree may nest (the root is level 1). Drawing, hit
    /// testing, layout and freeing recurse once per level, so a deeper tree
    /// could overflow the stack and take the host down; no real scene nests
    /// this deep.
    public static let maximumTreeDepth = 1024

    private func checkAdoptable(_ layer: Layer) throws {
        guard !isPresentation, !layer.isPresentation else {
            throw CalunaError(.treeError, "addSublayer: presentation layers are read-only copies; use modelLayer")
        }
        guard layer.engine === engine else {
            throw CalunaError(.treeError, "addSublayer: the layer belongs to another engine")
        }
        guard !layer.isAncestor(of: self) else {
            throw CalunaError(.treeError, "addSublayer: a layer cannot become a sublayer of itself or of its own descendant")
        }
        if let e = engine, layer === e.root {
            throw CalunaError(.treeError, "addSublayer: the engine's root layer cannot become a sublayer")
        }
        guard layer.maskOwner == nil else {
            throw CalunaError(.treeError, "addSublayer: the layer is another layer's mask; set that layer's mask to nil first")
        }
        try checkDepth(adding: layer)
    }

    /// Refuses to adopt `child` if the tree would nest deeper than
    /// `maximumTreeDepth`. Iterative, and stops as soon as the limit is passed.
    func checkDepth(adding child: Layer) throws {
        var depth = 1
        var l = self
        while let s = l.hostLayer, depth < Layer.maximumTreeDepth {
            depth += 1
            l = s
        }
        let allowed = Layer.maximumTreeDepth - depth   // levels the child's subtree may use
        var stack: [(Layer, Int)] = [(child, 1)]
        while let (layer, level) = stack.popLast() {
            if level > allowed {
                throw CalunaError(.treeError,
                                  "the layer tree would be more than \(Layer.maximumTreeDepth) levels deep (the limit that keeps drawing and freeing it within the stack)")
            }
            for sub in layer.sublayers where sub !== self { stack.append((sub, level + 1)) }
            if let m = layer.maskLayer, m !== self { stack.append((m, level + 1)) }
        }
    }

    /// Appends `layer` (removing it from its old superlayer first).
    public func addSublayer(_ layer: Layer) throws {
        try insertSublayer(layer, at: sublayers.count + (layer.superlayer === self ? -1 : 0))
    }

    /// Inserts at `index` (0…count, counted after removal from its old place).
    public func insertSublayer(_ layer: Layer, at index: Int) throws {
        try insertSublayer(layer, at: index, wasShown: layer.isShown)
    }

    /// `wasShown`: whether the layer was in the tree before the operation
    /// began (a caller that already detached it knows).
    private func insertSublayer(_ layer: Layer, at index: Int, wasShown: Bool) throws {
        try checkAdoptable(layer)
        let count = sublayers.count - (layer.superlayer === self ? 1 : 0)
        guard index >= 0, index <= count else {
            throw CalunaError(.invalidArgument, "insertSublayer: index \(index) is out of range 0…\(count)")
        }
        layer.detach(ordering: false, into: self)
        sublayers.insert(layer, at: index)
        layer.superlayer = self
        layer.hostChanged()
        didMutateSublayers()
        if layer.needsLayout || layer.descendantNeedsLayout { layer.propagateNeedsLayoutUp() }
        engine?.adoptAnimations(in: layer)
        layer.orderChanged(wasShown: wasShown)
        try engine?.takeActionError()
    }

    public func insertSublayer(_ layer: Layer, below sibling: Layer?) throws {
        try insertSublayer(layer, relativeTo: sibling, offset: 0)
    }

    public func insertSublayer(_ layer: Layer, above sibling: Layer?) throws {
        try insertSublayer(layer, relativeTo: sibling, offset: 1)
    }

    /// A nil sibling means the front (above) or the back (below), as in CA.
    private func insertSublayer(_ layer: Layer, relativeTo sibling: Layer?, offset: Int) throws {
        guard let sibling else {
            try insertSublayer(layer, at: offset == 1 ? sublayers.count - (layer.superlayer === self ? 1 : 0) : 0)
            return
        }
        guard sibling.superlayer === self else {
            throw CalunaError(.treeError, "insertSublayer: the sibling is not a sublayer of this layer")
        }
        if sibling === layer { return }
        try checkAdoptable(layer)
        let wasShown = layer.isShown
        layer.detach(ordering: false, into: self)
        guard let i = sublayers.firstIndex(where: { $0 === sibling }) else {
            layer.orderChanged(wasShown: wasShown)
            throw CalunaError(.treeError, "insertSublayer: the sibling is not a sublayer of this layer")
        }
        try insertSublayer(layer, at: i + offset, wasShown: wasShown)
    }

    /// Replaces `old` (a sublayer) by `new`, at the same index.
    public func replaceSublayer(_ old: Layer, with new: Layer) throws {
        guard old.superlayer === self, let i = sublayers.firstIndex(where: { $0 === old }) else {
            throw CalunaError(.treeError, "replaceSublayer: the layer to replace is not a sublayer of this layer")
        }
        if old === new { return }
        try checkAdoptable(new)
        // Removing `new` from before index i shifts the slot left by one.
        let newIndex = new.superlayer === self ? sublayers.firstIndex { $0 === new } : nil
        let slot = (newIndex ?? Int.max) < i ? i - 1 : i
        let newWasShown = new.isShown
        old.detach(ordering: true, into: self)
        new.detach(ordering: false, into: self)
        try insertSublayer(new, at: slot, wasShown: newWasShown)
    }

    /// Sets the whole sublayers array (CALayer's `sublayers` setter).
    public func setSublayers(_ layers: [Layer]) throws {
        try checkModel("sublayers")
        var seen = Set<ObjectIdentifier>(minimumCapacity: layers.count)
        for l in layers {
            try checkAdoptable(l)
            guard seen.insert(ObjectIdentifier(l)).inserted else {
                throw CalunaError(.treeError, "sublayers: the same layer appears twice")
            }
        }
        let wasShown = layers.map { $0.isShown }
        let removed = sublayers.filter { !seen.contains(ObjectIdentifier($0)) }
        let removedShown = removed.map { $0.isShown }
        for l in sublayers {
            l.superlayer = nil
            l.hostChanged()
        }
        sublayers = []
        for l in layers {
            l.detach(ordering: false)
            sublayers.append(l)
            l.superlayer = self
            l.hostChanged()
            if l.needsLayout || l.descendantNeedsLayout { l.propagateNeedsLayoutUp() }
            engine?.adoptAnimations(in: l)
        }
        didMutateSublayers()
        for (l, was) in zip(removed, removedShown) { l.orderChanged(wasShown: was) }
        for (l, was) in zip(layers, wasShown) { l.orderChanged(wasShown: was) }
        try engine?.takeActionError()
    }

    public func removeFromSuperlayer() { detach(ordering: true) }

    /// The layer got another host (or none): it and every layer below may
    /// have joined or left the tree, so their evaluation-plan entries, which
    /// assume their hosts, are planned again (EvaluationPlan). Nothing to
    /// do while the engine animates no layer.
    func hostChanged() {
        guard let engine, !engine.animatedLayers.isEmpty else { return }
        var stack = [self]
        while let l = stack.popLast() {
            l.animationsVersion &+= 1
            stack.append(contentsOf: l.sublayers)
            if let m = l.maskLayer { stack.append(m) }
        }
    }

    /// Takes the layer out of its superlayer; `ordering` sends onOrderOut
    /// when it leaves the engine's tree (a move within the tree sends none).
    /// A layer about to go back `into` the same superlayer sends that
    /// superlayer one "sublayers" event, not two.
    /// A layer removed from the engine's tree loses its animations and its
    /// sublayers' (told finished: false): a transition added to it goes with
    /// it (spec R-A4, R-X5). A move within the tree keeps them.
    private func detach(ordering: Bool, into newParent: Layer? = nil) {
        guard let s = superlayer, !isPresentation else { return }
        let wasShown = ordering && isShown
        let leavesTree = ordering && engine?.isInTree(self) == true
        s.sublayers.removeAll { $0 === self }
        superlayer = nil
        hostChanged()
        s.didMutateSublayers(sendingEvent: s !== newParent)
        if leavesTree { removeAnimationsInSubtree() }
        if wasShown { orderChanged(wasShown: true) }
    }

    /// Iterative (a tree at the depth limit must fit a small host stack).
    private func removeAnimationsInSubtree() {
        var pending = [self]
        while let l = pending.popLast() {
            l.removeAllAnimations()
            pending.append(contentsOf: l.sublayers)
            if let m = l.maskLayer { pending.append(m) }
        }
    }

    /// Any change of the sublayers array marks the layer for layout (so a
    /// layoutSublayers callback sees every added or removed sublayer) and
    /// runs the "sublayers" action of a committed layer.
    func didMutateSublayers(sendingEvent: Bool = true) {
        drawingOrderCache = nil
        sublayersNeedCommit = true
        markNeedsCommit()
        setNeedsLayout()
        if sendingEvent, presentationLayer != nil { sendEvent(ActionKey.sublayers) }
    }

    /// In the engine's tree and not hidden (onOrderIn / onOrderOut care).
    var isShown: Bool { !hidden && engine?.isInTree(self) == true }

    /// Sends onOrderIn or onOrderOut when the layer entered or left the tree.
    func orderChanged(wasShown: Bool) {
        let shown = isShown
        if shown != wasShown { sendEvent(shown ? ActionKey.orderIn : ActionKey.orderOut) }
    }
    /// A sublayer's zPosition moved: the drawing order is sorted again, and
    /// damage tracking walks every sublayer (their order changed).
    func sublayerOrderChanged() {
        drawingOrderCache = nil
        renderChanged()
    }

    /// Sublayers stably sorted by zPosition (ascending): the drawing order.
    public var sublayersInDrawingOrder: [Layer] {
        if let c = drawingOrderCache { return c }
        let sorted: [Layer]
        if sublayers.contains(where: { $0.zPosition != 0 }) {
            sorted = sublayers.enumerated().sorted {
                $0.element.zPosition != $1.element.zPosition ? $0.element.zPosition < $1.element.zPosition
                                                              : $0.offset < $1.offset
            }.map(\.element)
        } else {
            sorted = sublayers
        }
        // Not kept from inside a render's band: bands only read the tree.
        if !RenderBand.isBand { drawingOrderCache = sorted }
        return sorted
    }
}
