import CalunaStack

/// Core Animation's CALayer: a rectangle in a tree that holds content and
/// places its sublayers. Properties are declared once in `LayerProperties`
/// (key, kind, default, animatable, invalidation) and stored in `state`;
/// the accessors below forward to it and note what a change invalidates.
///
/// A model layer may own a presentation layer (`presentationLayer`): a copy
/// in a parallel tree showing the committed state with animations applied at
/// the current time. The renderer draws the presentation tree.
public final class Layer: Linked {
    /// The layer's class (CALayer or a specialised kind); fixed at creation.
    public let kind: LayerKind
    // The small fields first, packed after `kind`: scattered among the
    // references, each took 8 bytes of every layer and presentation copy.
    /// A copy in the presentation tree (set once, when it is made).
    var isPresentationCopy = false
    /// While set, changes bump the layer's own generation but are noted in
    /// its ancestors once, when `holdingChanges` ends the batch: evaluating
    /// animations changes a presentation layer several times per frame.
    @exclusivity(unchecked) private var changesHeld = false
    public internal(set) var needsLayout = false
    var descendantNeedsLayout = false
    /// The presentation must be given the whole committed state before its
    /// animations apply: the committed state or the set of animations
    /// changed. Otherwise only the animated properties are reset.
    @exclusivity(unchecked) var presentationNeedsState = true
    /// The model changed since the last commit (queued on the engine).
    @exclusivity(unchecked) var needsCommit = false
    /// The sublayers changed since the last commit.
    var sublayersNeedCommit = false
    /// Moves with every change the evaluation plan depends on: animations
    /// added, removed, stamped, started or stopped, a new host for the layer
    /// or an ancestor.
    @exclusivity(unchecked) var animationsVersion: UInt32 = 0
    /// What refers to the layer without keeping it alive (Link.swift); made
    /// with the layer (render threads read it).
    public var link: Link<Layer> { linkStorage.unsafelyUnwrapped }
    private var linkStorage: Link<Layer>? = nil
    /// The engine the layer belongs to (nil once it is freed); layers never
    /// move between engines.
    public var engine: Engine? { engineLink?.target }
    /// `engine?.takeActionError()` without counting a reference to the
    /// engine (every typed property set asks it).
    func takeEngineActionError() throws {
        guard let e = engineLink?.unretained else { return }
        try e._withUnsafeGuaranteedRef { try $0.takeActionError() }
    }
    private let engineLink: Link<Engine>?
    public internal(set) var superlayer: Layer? {
        get { superlayerLink?.target }
        set { superlayerLink = newValue?.link }
    }
    @exclusivity(unchecked) private var superlayerLink: Link<Layer>? = nil
    public internal(set) var sublayers: [Layer] = [] { didSet { treeChanged() } }
    /// The mask (LayerMask.swift) and, on a mask, the layer it masks.
    var maskLayer: Layer? = nil { didSet { treeChanged() } }
    @WeakLink public internal(set) var maskOwner: Layer? = nil

    /// (No dynamic exclusivity check on the hottest fields: every access is
    /// a plain read or write that calls nothing, so no access can overlap;
    /// the check cost 12 % of a property set.)
    public internal(set) var state: LayerState {
        // A plain getter: a `_read` coroutine here let a caller read a field
        // after the coroutine's frame was freed (ASan, debug build).
        get { stateBox.value }
        // In place (a didSet would copy the whole state on every change of one field).
        _modify {
            yield &stateBox.value
            renderChanged()
        }
        set {
            stateBox.value = newValue
            renderChanged()
        }
    }
    /// The state, shared (copy on write) with the committed state and the
    /// presentation copy while they are equal: a still layer keeps one copy,
    /// not three (memory per layer, LayerMemory bench row). New layers share
    /// the defaults until they change one.
    @exclusivity(unchecked) var stateBox = Layer.defaultState
    static let defaultState = Boxed(LayerState())

    /// Bumped by every change to what the layer draws (its state, sublayers,
    /// mask, transition frame): damage tracking compares it (Damage.swift).
    @exclusivity(unchecked) var renderGeneration: UInt64 = 0
    /// On a presentation layer: bumped when anything below it changes, so
    /// damage tracking passes over unchanged subtrees.
    var subtreeGeneration: UInt64 = 0
    /// What the last render into a RenderTarget drew of this layer (Damage.swift).
    var damageRecord: DamageTracker.Record? = nil

    /// On a presentation layer: the sublayers (and mask) that changed, or
    /// have changes below, since damage tracking last looked at this layer;
    /// each is listed once (`changeListedIn`). Strong: a weak reference would
    /// give every presentation layer a side table, which makes each retain
    /// and release of it in every render the slow kind (solid-layers: 4 %).
    /// A sublayer that left stays alive only until the list is compacted or
    /// emptied.
    var changedChildren: [Layer] = []
    /// The layer whose `changedChildren` lists this one (its address: an
    /// optional ObjectIdentifier would take 16 bytes of every layer).
    var changeListedIn: UnsafeRawPointer? = nil
    /// What `changeListedIn` holds for this layer.
    private var listIdentity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Notes a change to what the layer draws (for its ancestors too).
    @inline(__always) func renderChanged() {
        renderGeneration &+= 1
        if isPresentationCopy && !changesHeld { noteChangeInAncestors() }
    }

    /// Runs `body` (changes to this presentation layer) and notes its
    /// changes in the ancestors once.
    @inline(__always)
    func holdingChanges(_ body: () -> Void) {
        changesHeld = true
        body()
        changesHeld = false
        renderChanged()
    }

    /// Bumps each ancestor's subtreeGeneration and lists the changed child
    /// with it. The walk holds no references (every ancestor lives while its
    /// descendant is attached): a presentation layer changes several times
    /// in every frame it animates, and counting references on the way up
    /// cost a tenth of evaluating animations.
    private func noteChangeInAncestors() {
        var child = Unmanaged.passUnretained(self)
        var next = unretainedHost
        while let host = next {
            host._withUnsafeGuaranteedRef { l in
                l.subtreeGeneration &+= 1
                let id = l.listIdentity
                child._withUnsafeGuaranteedRef { c in
                    guard c.changeListedIn != id else { return }
                    c.changeListedIn = id
                    l.changedChildren.append(c)
                    // Without a target rendering, nothing empties the list: keep
                    // it to the layers still attached (amortised O(1)).
                    if l.changedChildren.count > 2 * l.sublayers.count + 64 { l.compactChangedChildren() }
                }
                next = l.unretainedHost
            }
            child = host
        }
    }

    /// `hostLayer` without a reference counted (see Link.unretained).
    var unretainedHost: Unmanaged<Layer>? { superlayerLink?.unretained ?? _maskOwner.unretained }

    private func treeChanged() {
        renderChanged()
        if !isPresentationCopy, let engine { engine.treeVersion &+= 1 }
    }

    /// Drops listed layers no longer attached here (one attached here again
    /// is listed again at its next change).
    func compactChangedChildren() {
        let me = listIdentity
        changedChildren.removeAll { c in
            guard c.hostLayer !== self else { return false }
            if c.changeListedIn == me { c.changeListedIn = nil }
            return true
        }
    }

    /// Empties `changedChildren` (damage tracking has looked).
    func clearChangedChildren() {
        guard !changedChildren.isEmpty else { return }
        for c in changedChildren where c.changeListedIn == listIdentity { c.changeListedIn = nil }
        changedChildren = []
    }

    deinit {
        linkStorage?.clear()
        // Frees a deep tree without a native stack frame per level (LayerTeardown).
        if !sublayers.isEmpty || maskLayer != nil || presentationLayer != nil || !changedChildren.isEmpty {
            LayerTeardown.release(&sublayers, &changedChildren, &maskLayer, &presentationLayer)
        }
    }

    /// Assigned by the bridge (C ABI / Lua) the first time the layer is handed
    /// out; 0 until then. The engine itself never reads it.
    public var externalID: UInt64 = 0

    /// Receives layout and action callbacks (weak, like CALayer's delegate).
    public var delegate: LayerDelegate? {
        get { extras?.delegate }
        set { if newValue != nil || extras != nil { madeExtras.delegate = newValue } }
    }

    // MARK: actions (LayerActions.swift)
    // Few layers have actions of their own: they live in `extras`.
    /// Event or property name → action; searched after the delegate.
    public var actions: [String: LayerAction]? {
        get { extras?.actions }
        set { if newValue != nil || extras != nil { madeExtras.actions = newValue } }
    }
    /// Searched after `actions`: `style.actions`, then its nested styles.
    public var style: LayerStyle? {
        get { extras?.style }
        set { if newValue != nil || extras != nil { madeExtras.style = newValue } }
    }
    /// Stands in for a subclass's +defaultActionForKey: override (scripts
    /// have no subclasses). Its nil answer means "no action".
    public var defaultActionOverride: ((Layer, String) throws -> LayerAction?)? {
        get { extras?.defaultActionOverride }
        set { if newValue != nil || extras != nil { madeExtras.defaultActionOverride = newValue } }
    }

    /// A binding's non-image `contents` value (Core Animation keeps any
    /// object and shows nothing, spec D13); cleared when contents changes.
    public var foreignContents: AnyObject? {
        get { extras?.foreignContents }
        set { if newValue != nil || extras != nil { madeExtras.foreignContents = newValue } }
    }

    // MARK: display state (LayerDisplay.swift)
    /// What setNeedsDisplay marked (points; `wholeLayer` for all); nil when clean.
    var displayDirty: Rect? {
        get { extras?.displayDirty }
        set { if newValue != nil || extras != nil { madeExtras.displayDirty = newValue } }
    }
    /// Inside this layer's display (a callback displaying it again is an error).
    var isDisplaying: Bool {
        get { extras?.isDisplaying ?? false }
        set { if newValue || extras != nil { madeExtras.isDisplaying = newValue } }
    }
    /// The store the last display made (redrawn in place while it is `contents`).
    var ownBackingStore: Image? {
        get { extras?.ownBackingStore }
        set { if newValue != nil || extras != nil { madeExtras.ownBackingStore = newValue } }
    }
    /// Draws the layer's content (what a subclass's drawInContext: does);
    /// when nil the delegate's draw is asked.
    public var drawHandler: ((Layer, DrawingContext) throws -> Void)? {
        get { extras?.drawHandler }
        set { if newValue != nil || extras != nil { madeExtras.drawHandler = newValue } }
    }

    /// State few layers use, made on first use (on the engine's thread only:
    /// render threads never make it): every layer and presentation copy is
    /// smaller without it.
    private var extras: LayerExtras? = nil
    private var madeExtras: LayerExtras {
        if let e = extras { return e }
        let e = LayerExtras()
        extras = e
        return e
    }

    // MARK: layout state
    /// Sublayers in drawing order (stable by zPosition); nil when stale.
    var drawingOrderCache: [Layer]? = nil

    // MARK: animation state
    /// Attached animations in the order they apply (see LayerAnimations).
    /// (Not checked for exclusivity at run time: closures over it only
    /// read elements, and nothing it calls reaches the list again.)
    @exclusivity(unchecked) var attachedAnimations: [AttachedAnimation] = []
    /// The presentation copy, created when the layer is first committed.
    /// (No dynamic exclusivity check: every property change reads it. Every
    /// access is a plain read, the one write — ensurePresentation's, where it
    /// was nil — frees nothing, and deinit's teardown runs when nothing else
    /// can reach the layer; so no access can overlap another.)
    @exclusivity(unchecked) public internal(set) var presentationLayer: Layer? = nil
    /// On a presentation layer: the model layer it shows.
    public internal(set) var modelLayerReference: Layer? {
        get { modelLink?.target }
        set { modelLink = newValue?.link }
    }
    @exclusivity(unchecked) private var modelLink: Link<Layer>? = nil
    /// The committed model state (a presentation layer's starting point),
    /// shared with `state` and the presentation while they are equal.
    var committedState: LayerState { committedBox.value }
    @exclusivity(unchecked) private(set) var committedBox = Layer.defaultState

    /// Commits the model state: the committed state shares its copy.
    func commitState() {
        committedBox = stateBox
        presentationNeedsState = true
    }

    /// The model state and the committed state read in place, with no copy
    /// and no reference counted (the animation evaluation loop, on the
    /// engine's thread); the pointer is valid inside `body` only.
    @inline(__always)
    func withState<R>(_ body: (UnsafePointer<LayerState>) -> R) -> R { stateBox.withValueInPlace(body) }
    @inline(__always)
    func withCommittedState<R>(_ body: (UnsafePointer<LayerState>) -> R) -> R { committedBox.withValueInPlace(body) }
    /// The fields boxed in LayerState.rare read in place by a reader on any
    /// thread (render threads read layers at once): `withState` borrows
    /// through a modifying access, and two of those at once are a race to
    /// ThreadSanitizer. Stored properties only: through LayerState's
    /// computed accessors the compiler copied the whole state per read.
    @inline(__always)
    func readRareState<R>(_ body: (UnsafePointer<LayerRareState>) -> R) -> R {
        stateBox.withValue { $0.pointee.rare.withValue(body) }
    }

    /// Brings the whole state in (at most three cache lines: those of its
    /// first byte, its last byte and the one 64 bytes in): the evaluation
    /// loop asks a few layers ahead, for the model's boxes and the
    /// presentation's geometry and opacity (at many layers, waiting for
    /// memory was most of a frame).
    @inline(__always)
    func prefetchState() {
        withState { s in
            let p = UnsafeRawPointer(s)
            calu_prefetch(p)
            calu_prefetch(p + 64)
            calu_prefetch(p + MemoryLayout<LayerState>.size - 1)
        }
    }

    /// The model's timing differs from the committed one (its sublayers'
    /// time moves at the next commit).
    var timingChangedSinceCommit: Bool { withState(LayerState.timing) != withCommittedState(LayerState.timing) }

    /// Shows `model`'s committed state on this presentation layer, sharing its copy.
    func showCommittedState(of model: Layer) { showState(model.committedBox) }
    /// On a presentation layer: the shouldRasterize bitmap (RasterCache.swift).
    var rasterCache: RasterCache? = nil
    /// A specialised kind's render-time state, owned by its Render/ file
    /// (a text layout, drawn tiles, a pixel buffer); kept on the layer the
    /// compositor draws, so a move reuses it.
    var kindCache: AnyObject? = nil
    /// On a presentation layer: the transition shown now (Transition.swift).
    var transitionFrame: TransitionFrame? {
        get { extras?.transitionFrame }
        set {
            if newValue != nil || extras != nil { madeExtras.transitionFrame = newValue }
            renderChanged()
        }
    }
    /// Input handlers on this (model) layer, in the order they were added
    /// (EventDispatch.swift).
    var eventHandlers: [EventHandler] {
        get { extras?.eventHandlers ?? [] }
        set { if !newValue.isEmpty || extras != nil { madeExtras.eventHandlers = newValue } }
    }

    /// What the layer costs its engine's memory ledger while it lives.
    let memoryCharge: HeldCharge

    /// A layer of `engine` (charged `estimatedBytes` to its ledger without
    /// refusal: `Engine.createLayer` checks the limit first), or of none.
    public convenience init(engine: Engine?, kind: LayerKind = .layer) {
        self.init(engine: engine, kind: kind, charged: true)
    }

    /// `charged: false` for copies whose cost the model layer's estimate
    /// covers (presentation copies) or that live only during one render.
    init(engine: Engine?, kind: LayerKind, charged: Bool) {
        engineLink = engine?.link
        self.kind = kind
        memoryCharge = charged && engine != nil ? HeldCharge(forcing: engine?.memory, Layer.estimatedBytes) : HeldCharge()
        linkStorage = Link(self)
    }

    /// Runs `body` with the engine's ledger current (MemoryLedger.swift), so
    /// what it makes for this layer is charged; without an engine, as is.
    func withEngineMemory<R>(_ body: () throws -> R) rethrows -> R {
        guard let engine else { return try body() }
        return try engine.memory.withCurrent(body)
    }

    /// The bytes a layer is charged: the model layer, its committed state
    /// and its presentation copy (each a `LayerState` and bookkeeping).
    public static let estimatedBytes = 4 * MemoryLayout<LayerState>.stride + 2048

    /// A layer outside any engine: only for reading defaults and for tests.
    public convenience init() { self.init(engine: nil) }

    /// True for the read-only copies `presentationLayer` returns.
    public var isPresentation: Bool { modelLink?.unretained != nil }

    /// On a presentation layer, the model layer; otherwise the layer itself.
    public var modelLayer: Layer { modelLayerReference ?? self }

    // MARK: forwarding accessors (one line each; the state struct holds the
    // defaults; `changed` marks the commit and runs the property's action)
    public var bounds: Rect { get { state.bounds } set { let oldValue = state.bounds; state.bounds = newValue; if state.bounds != oldValue { boundsChanged() }; changed("bounds") } }
    public var position: Point { get { state.position } set { state.position = newValue; changed("position") } }
    public var anchorPoint: Point { get { state.anchorPoint } set { state.anchorPoint = newValue; changed("anchorPoint") } }
    public var anchorPointZ: Double { get { readRareState { $0.pointee.anchorPointZ } } set { state.anchorPointZ = newValue; changed("anchorPointZ") } }
    public var zPosition: Double { get { state.zPosition } set { let oldValue = zPosition; state.zPosition = newValue; if zPosition != oldValue { superlayer?.sublayerOrderChanged() }; changed("zPosition") } }
    public var transform: Transform3D { get { readRareState { $0.pointee.transform } } set { state.transform = newValue; changed("transform") } }
    public var sublayerTransform: Transform3D { get { readRareState { $0.pointee.sublayerTransform } } set { state.sublayerTransform = newValue; changed("sublayerTransform") } }
    public var doubleSided: Bool { get { state.doubleSided } set { state.doubleSided = newValue; changed("doubleSided") } }
    public var geometryFlipped: Bool { get { state.geometryFlipped } set { state.geometryFlipped = newValue; changed("geometryFlipped") } }
    public var hidden: Bool { get { state.hidden } set { let oldValue = state.hidden; state.hidden = newValue; changed("hidden"); if oldValue != newValue { visibilityChanged() } } }
    public var opacity: Double { get { state.opacity } set { state.opacity = newValue; changed("opacity") } }
    public var backgroundColor: Color? { get { state.backgroundColor } set { state.backgroundColor = newValue; changed("backgroundColor") } }
    public var masksToBounds: Bool { get { state.masksToBounds } set { state.masksToBounds = newValue; changed("masksToBounds") } }
    public var allowsGroupOpacity: Bool { get { state.allowsGroupOpacity } set { state.allowsGroupOpacity = newValue; changed("allowsGroupOpacity") } }
    public var allowsEdgeAntialiasing: Bool { get { state.allowsEdgeAntialiasing } set { state.allowsEdgeAntialiasing = newValue; changed("allowsEdgeAntialiasing") } }
    public var name: String? { get { readRareState { $0.pointee.name } } set { state.name = newValue; changed("name") } }
    public var timing: MediaTiming { get { readRareState { $0.pointee.timing } } set { state.timing = newValue; markNeedsCommit() } }
    public var contents: Image? { get { state.appearance.value.contents } set { state.appearance.value.contents = newValue; foreignContents = nil; changed("contents") } }
    public var contentsGravity: ContentsGravity { get { state.appearance.value.contentsGravity } set { state.appearance.value.contentsGravity = newValue; changed("contentsGravity") } }
    public var contentsScale: Double { get { state.appearance.value.contentsScale } set { state.appearance.value.contentsScale = newValue; changed("contentsScale") } }
    public var contentsRect: Rect { get { state.appearance.value.contentsRect } set { state.appearance.value.contentsRect = newValue; changed("contentsRect") } }
    public var contentsCenter: Rect { get { state.appearance.value.contentsCenter } set { state.appearance.value.contentsCenter = newValue; changed("contentsCenter") } }
    public var minificationFilter: ContentsFilter { get { state.appearance.value.minificationFilter } set { state.appearance.value.minificationFilter = newValue; changed("minificationFilter") } }
    public var magnificationFilter: ContentsFilter { get { state.appearance.value.magnificationFilter } set { state.appearance.value.magnificationFilter = newValue; changed("magnificationFilter") } }
    public var minificationFilterBias: Double { get { state.appearance.value.minificationFilterBias } set { state.appearance.value.minificationFilterBias = newValue; changed("minificationFilterBias") } }
    public var isOpaque: Bool { get { state.appearance.value.isOpaque } set { state.appearance.value.isOpaque = newValue; changed("opaque") } }
    public var needsDisplayOnBoundsChange: Bool { get { state.appearance.value.needsDisplayOnBoundsChange } set { state.appearance.value.needsDisplayOnBoundsChange = newValue; changed("needsDisplayOnBoundsChange") } }
    public var drawsAsynchronously: Bool { get { state.appearance.value.drawsAsynchronously } set { state.appearance.value.drawsAsynchronously = newValue; changed("drawsAsynchronously") } }
    public var cornerRadius: Double { get { state.appearance.value.cornerRadius } set { state.appearance.value.cornerRadius = newValue; changed("cornerRadius") } }
    public var maskedCorners: CornerMask { get { state.appearance.value.maskedCorners } set { state.appearance.value.maskedCorners = newValue; changed("maskedCorners") } }
    public var borderWidth: Double { get { state.appearance.value.borderWidth } set { state.appearance.value.borderWidth = newValue; changed("borderWidth") } }
    public var borderColor: Color? { get { state.appearance.value.borderColor } set { state.appearance.value.borderColor = newValue; changed("borderColor") } }
    public var shadowColor: Color? { get { state.appearance.value.shadowColor } set { state.appearance.value.shadowColor = newValue; changed("shadowColor") } }
    public var shadowOpacity: Double { get { state.appearance.value.shadowOpacity } set { state.appearance.value.shadowOpacity = newValue; changed("shadowOpacity") } }
    public var shadowOffset: Size { get { state.appearance.value.shadowOffset } set { state.appearance.value.shadowOffset = newValue; changed("shadowOffset") } }
    public var shadowRadius: Double { get { state.appearance.value.shadowRadius } set { state.appearance.value.shadowRadius = newValue; changed("shadowRadius") } }
    public var shadowPath: Path? { get { state.appearance.value.shadowPath } set { state.appearance.value.shadowPath = newValue; changed("shadowPath") } }
    public var shouldRasterize: Bool { get { state.appearance.value.shouldRasterize } set { state.appearance.value.shouldRasterize = newValue; changed("shouldRasterize") } }
    public var rasterizationScale: Double { get { state.appearance.value.rasterizationScale } set { state.appearance.value.rasterizationScale = newValue; changed("rasterizationScale") } }

    private func boundsChanged() {
        guard !isPresentation else { return }
        setNeedsLayout()
        if needsDisplayOnBoundsChange { setNeedsDisplay() }
    }

    /// Un-hiding a layer in the engine's tree orders it in; hiding orders it out.
    private func visibilityChanged() {
        guard !isPresentation, let engine, engine.isInTree(self) else { return }
        sendEvent(hidden ? ActionKey.orderOut : ActionKey.orderIn)
    }

    func markNeedsCommit() {
        guard !needsCommit, !isPresentation else { return }
        needsCommit = true
        engine?.layersNeedingCommit.append(WeakLayer(self))
    }

    /// The layer's root ancestor (itself when it has no superlayer); a mask's
    /// is its owner's.
    public var rootAncestor: Layer {
        // Unretained on the way up (every ancestor lives while this layer
        // is attached): the frame loop asks this of every animated layer.
        unowned(unsafe) var l = self
        while let s = l.hostLayer { l = s }
        return l
    }

    /// True when `self` is `other` or one of its ancestors.
    public func isAncestor(of other: Layer) -> Bool {
        var l: Layer? = other
        while let cur = l {
            if cur === self { return true }
            l = cur.hostLayer
        }
        return false
    }
}

/// The class of a layer: Core Animation's CALayer subclasses caluna draws.
public enum LayerKind: String, Sendable, CaseIterable {
    /// CALayer.
    case layer = "CALayer"
    /// CATransformLayer: draws only its sublayers, in its superlayer's 3D
    /// space (it does not flatten them), with its opacity applied to each.
    case transformLayer = "CATransformLayer"
    // The specialised layers of chapter 6 (one file each in Layer/ and Render/).
    case shapeLayer = "CAShapeLayer"
    case textLayer = "CATextLayer"
    case gradientLayer = "CAGradientLayer"
    case replicatorLayer = "CAReplicatorLayer"
    case scrollLayer = "CAScrollLayer"
    case tiledLayer = "CATiledLayer"
    case emitterLayer = "CAEmitterLayer"
    /// caluna's portable CAEAGLLayer / AVPlayerLayer: the host or a script
    /// supplies its pixels (PixelBufferLayer.swift).
    case pixelBufferLayer = "PixelBufferLayer"

    /// The Core Animation class name ("CALayer", "CATransformLayer").
    public var className: String { rawValue }

    /// True for kinds whose sublayers share the superlayer's 3D space.
    public var preservesDepth: Bool { self == .transformLayer }
}

/// The optional callbacks a layer's owner can answer (CALayerDelegate).
public protocol LayerDelegate: AnyObject {
    /// layoutSublayersOfLayer: — called during a layout pass when the layer
    /// needs layout. Errors propagate to the step or render that ran the pass.
    func layoutSublayers(of layer: Layer) throws
    /// actionForLayer:forKey: — nil continues the search, `.null` stops it.
    func action(for layer: Layer, forKey key: String) throws -> LayerAction?
    /// displayLayer: — true when the delegate displayed the layer itself (it
    /// set contents); false when it does not implement it.
    func display(_ layer: Layer) throws -> Bool
    /// True when the delegate implements drawLayer:inContext:.
    func drawsContent(of layer: Layer) throws -> Bool
    /// drawLayer:inContext: — draws into the layer's backing store.
    func draw(_ layer: Layer, in ctx: DrawingContext) throws
    /// layerWillDraw: — before drawLayer:inContext: (not when displayLayer: exists).
    func willDraw(_ layer: Layer) throws
}

extension LayerDelegate {
    public func layoutSublayers(of layer: Layer) throws {}
    public func action(for layer: Layer, forKey key: String) throws -> LayerAction? { nil }
    public func display(_ layer: Layer) throws -> Bool { false }
    public func drawsContent(of layer: Layer) throws -> Bool { false }
    public func draw(_ layer: Layer, in ctx: DrawingContext) throws {}
    public func willDraw(_ layer: Layer) throws {}
}
