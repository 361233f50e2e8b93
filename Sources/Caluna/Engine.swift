import CCairo
import CChipmunk

/// One scene: a root layer sized to the output, a render scale, and a virtual
/// clock that only the host advances. One engine is used by one thread at a
/// time; separate engines may run on separate threads.
public final class Engine: Linked {
    public private(set) var root: Layer! = nil
    public private(set) var size: Size
    /// Pixels per point (a screen scale).
    public private(set) var scale: Double
    public private(set) var clock = Clock()
    /// The last render's counters (with the display work before it).
    var lastFrameStats = FrameStats()
    /// Display work since the last render.
    var pendingStats = FrameStats()
    /// The target the last `render(into:)` drew (its damage records are on the layers).
    weak var lastRenderTarget: RenderTarget? = nil
    /// The engine's own retained frame: Lua's `ca.render()` and `caluna run`
    /// draw into it, so a frame redraws only what changed since the last.
    public let frameTarget = RenderTarget()
    /// Blurred shadow masks kept between renders (EffectCache.swift).
    public let effectCache = EffectCache()
    /// Threads a render draws on (RenderBands.swift), 1 …
    /// `maximumRenderThreads`; by default the number of cores. 1: the
    /// calling thread alone. Set with `setRenderThreads`.
    public internal(set) var renderThreads = Engine.defaultRenderThreads
    /// The workers of `renderThreads` (made by the first render that uses them).
    var renderWorkers: RenderWorkers? = nil
    /// A region smaller than this (pixels) is drawn by one thread (tests lower it).
    var renderBandMinimumPixels = RenderBands.minimumParallelPixels
    /// Counts renders (from 1): what happens once per render is keyed by it.
    var renderSerial: UInt64 = 0
    /// Layers marked by setNeedsDisplay, drawn by the next display pass.
    var layersNeedingDisplay: [WeakLayer] = []

    // Frame-loop state (FrameLoop.swift): what the next commit must look at.
    /// Model layers changed since the last commit (weak: a change does not
    /// keep a layer the host has let go of alive).
    var layersNeedingCommit: [WeakLayer] = []
    /// Bumped whenever a model layer of this engine gains or loses a
    /// sublayer or a mask: bindings that track which layers are in the tree
    /// (the Lua pins) look again only when it moved.
    public internal(set) var treeVersion: UInt64 = 0
    // (The animation bookkeeping below is not checked for exclusivity at run
    // time: it is read and written in place by code that calls nothing while
    // it holds it, and each implicit animation touches it several times.)
    /// Layers with attached animations (and ones that just lost them), in the
    /// order they first got one.
    @exclusivity(unchecked) var animatedLayers: [Layer] = []
    @exclusivity(unchecked) var animatedLayerIDs: Set<ObjectIdentifier> = []
    /// The animated layers flattened for the common case (EvaluationPlan);
    /// off with CALUNA_NO_FAST_PATHS.
    var evaluationPlan = EvaluationPlan(fast: LayerProperty.fastPathsEnabled)
    /// Off: every layer takes the general path (the tests' plain engine).
    var evaluationPlanEnabled: Bool {
        get { evaluationPlan.isFast }
        set { evaluationPlan = EvaluationPlan(fast: newValue) }
    }
    /// Attached animations someone observes — a delegate or a transaction
    /// completion block (none: no event times to visit).
    @exclusivity(unchecked) var observedAnimations = 0
    /// Layers that got animations not yet stamped by a commit.
    @exclusivity(unchecked) var layersWithNewAnimations: [Layer] = []
    /// The clock reading the presentation tree was last evaluated at.
    var lastEvaluatedTick: Int64? = nil
    /// Animation starts and stops waiting to be delivered.
    var queuedEvents: [AnimationEvent] = []
    /// Animations were added or removed since the presentation was evaluated.
    @exclusivity(unchecked) var presentationStale = false
    /// The layers whose animations were added or removed since the
    /// presentation was evaluated (each once): at an unchanged time only
    /// they need evaluating again (FrameLoop.updatePresentationIfNeeded).
    @exclusivity(unchecked) var layersWithChangedAnimations: [Layer] = []
    @exclusivity(unchecked) var changedAnimationIDs: Set<ObjectIdentifier> = []
    /// Counts evaluations of one animated layer (tests check the work done).
    @exclusivity(unchecked) var layerEvaluations = 0
    /// Of those, the ones the evaluation plan's loop did.
    @exclusivity(unchecked) var plannedEvaluations = 0
    /// Timers and display links, in the order they were created.
    var frameCallbacks: [FrameCallback] = []
    var nextCallbackSequence = 0
    /// Physics worlds stepped by the clock, in the order they were made.
    var physicsWorlds: [PhysicsWorld] = []
    /// True while the engine runs a frame (callbacks may not step or render).
    var runningFrame = false
    /// Queued input, handlers on the engine, pointers being tracked (Events/).
    public let input = InputState()

    /// CATransaction's stack (Transaction.swift).
    public let transaction = TransactionStack()
    /// Errors actions raised, for the call that made the change (LayerActions).
    var actionError: Error? = nil
    @exclusivity(unchecked) var actionNesting = 0
    /// Resolved key paths shared by the animations attached in this engine
    /// (ResolvedKeyPath.resolve): at most `maximumResolvedKeyPaths`.
    var resolvedKeyPaths: [ResolvedKeyPath.CacheKey: ResolvedKeyPath] = [:]
    static let maximumResolvedKeyPaths = 256
    /// Engine work that must not animate (resizing the output) turns actions off.
    private var actionsSuppressed = 0
    var actionsEnabled: Bool { actionsSuppressed == 0 && !transaction.disableActions }

    /// Runs `body` with actions off (no implicit animations), without
    /// touching the transaction stack.
    public func withoutActions<T>(_ body: () throws -> T) rethrows -> T {
        actionsSuppressed += 1
        defer { actionsSuppressed -= 1 }
        return try body()
    }

    public static let defaultSize = Size(320, 480)

    /// What refers to the engine without keeping it alive (Link.swift).
    public var link: Link<Engine> { linkStorage.unsafelyUnwrapped }
    private var linkStorage: Link<Engine>? = nil

    deinit { linkStorage?.clear() }

    /// What this engine makes on a script's behalf (bitmaps, layers,
    /// animations, paths, text layouts, physics objects), against one cap
    /// (MemoryLedger.swift). Unlimited unless its `limit` is set.
    public let memory: MemoryLedger

    /// `memory`: the ledger to charge (a Session passes the same one to each
    /// engine it makes); by default a fresh one without a limit.
    public init(size: Size = Engine.defaultSize, scale: Double = 1, memory: MemoryLedger = MemoryLedger()) throws {
        try Engine.checkOutput(size: size, scale: scale)
        self.size = size
        self.scale = scale
        self.memory = memory
        linkStorage = Link(self)
        // The root is charged without refusal: a session's reset must work
        // while the old engine's memory is still counted.
        let r = Layer(engine: self)
        r.name = "root"
        r.frame = Rect(origin: .zero, size: size)
        root = r
    }

    /// Output size in pixels: points × scale, rounded up.
    public var pixelSize: (width: Int, height: Int) {
        (Int((size.width * scale).rounded(.up)), Int((size.height * scale).rounded(.up)))
    }

    static func checkOutput(size: Size, scale: Double) throws {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
            throw CalunaError.invalid("size must be positive and finite (got \(size))")
        }
        guard scale.isFinite, scale > 0, scale <= 16 else {
            throw CalunaError.invalid("scale must be in (0, 16] (got \(scale))")
        }
        let w = size.width * scale, h = size.height * scale
        guard w <= Double(Image.maximumSide), h <= Double(Image.maximumSide) else {
            throw CalunaError.invalid("output of \(fmt(w))×\(fmt(h)) pixels is too large (at most \(Image.maximumSide) per side)")
        }
        try Image.checkSize(Int(w.rounded(.up)), Int(h.rounded(.up)), "output")
    }

    /// Resizes the output; the root layer's frame follows.
    public func setup(size: Size? = nil, scale: Double? = nil) throws {
        let s = size ?? self.size, k = scale ?? self.scale
        try Engine.checkOutput(size: s, scale: k)
        self.size = s
        self.scale = k
        withoutActions { root.frame = Rect(origin: .zero, size: s) }
    }

    /// A new layer of this engine, charged to `memory` without refusal
    /// (trusted callers); scripts' layers come from `createLayer`.
    public func makeLayer(kind: LayerKind = .layer) -> Layer { Layer(engine: self, kind: kind) }

    /// A new layer of this engine, refused with `.outOfMemory` when its
    /// `Layer.estimatedBytes` would pass the memory limit.
    public func createLayer(kind: LayerKind = .layer) throws -> Layer {
        try memory.check(Layer.estimatedBytes, "\(kind.className)")
        return Layer(engine: self, kind: kind)
    }

    /// CACurrentMediaTime: seconds since the engine started, virtual.
    public var mediaTime: Double { clock.seconds }

    /// Advances by `dt` seconds and runs the frame's work (DESIGN §3).
    public func step(_ dt: Double) throws {
        try checkNotInFrame("step")
        try checkPhysicsUnlocked("step")
        var c = clock
        try c.step(dt)
        try memory.withCurrent { try runFrame(to: c.ticks) }
    }

    /// Advances to absolute time `t` (never backwards) and runs the frame.
    public func advance(to t: Double) throws {
        try checkNotInFrame("advance")
        try checkPhysicsUnlocked("advance")
        var c = clock
        try c.advance(to: t)
        try memory.withCurrent { try runFrame(to: c.ticks) }
    }

    func moveClock(toTick t: Int64) { clock.move(toTick: t) }

    /// Lays out what is marked, commits, then draws the presentation tree
    /// into a new bitmap of `pixelSize`: always a full redraw (`render(into:)`
    /// redraws only the damage). Areas no layer covers are transparent.
    public func render() throws -> Image {
        try checkNotInFrame("render")
        // On several threads, bands need the damage records of a target: the
        // engine's own, redrawn in full, its frame given away.
        let (w, h) = pixelSize
        if renderBands.threadCount(pixels: w * h, width: w, height: h) > 1 {
            try render(into: frameTarget, full: true)
            if let frame = frameTarget.takeFrame() { return frame }
        }
        return try memory.withCurrent { try renderFrame(effects: effectCache) }
    }

    /// `render()` blurring every shadow afresh: the plain path the effect
    /// cache is tested against.
    public func renderWithoutEffectCache() throws -> Image {
        try checkNotInFrame("render")
        return try memory.withCurrent { try renderFrame(effects: nil) }
    }

    private func renderFrame(effects: EffectCache?) throws -> Image {
        try flush()
        renderSerial &+= 1
        let (w, h) = pixelSize
        let target = try Image(width: w, height: h, memory: memory)
        var stats = pendingStats
        pendingStats = FrameStats()
        defer { lastFrameStats = stats }
        effects?.beginRender()
        try Compositor.drawTree(root.ensurePresentation(), on: target, scale: scale, effects: effects, stats: &stats)
        (stats.renderThreads, stats.bandsDrawn) = (1, 1)
        stats.noteDamage([PixelRect(x: 0, y: 0, width: w, height: h)], full: true)
        return target
    }

    /// The last frame's counters (render and the display work before it) and
    /// the memory the tree holds now.
    public var stats: FrameStats {
        var s = lastFrameStats
        measureMemory(into: &s)
        return s
    }

    /// Versions of the libraries doing the work, for `--version` and bug reports.
    public static var libraryVersions: [(String, String)] {
        [("cairo", String(cString: cairo_version_string())),
         ("pango", String(cString: pango_version_string())),
         ("chipmunk", String(cString: cpVersionString))]
    }
}

/// A reference to a layer that does not keep it alive, for the engine's work queues.
struct WeakLayer {
    @WeakLink var layer: Layer?
    init(_ layer: Layer) { self.layer = layer }
}
