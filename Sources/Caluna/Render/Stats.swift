/// What the last frame cost (chapters 12–15 measure these). Counters cover
/// the work since the previous frame's stats were taken — the display pass
/// of the steps since, and the last render; gauges describe the tree now.
public struct FrameStats: Sendable, Equatable {
    // render
    public var layersVisited = 0
    public var layersDrawn = 0
    public var offscreenPasses = 0
    /// Pixels of every offscreen buffer the render allocated.
    public var offscreenPixels = 0
    public var rasterCacheHits = 0
    public var rasterCacheMisses = 0
    // display
    public var drawCallbacks = 0
    /// Backing-store pixels redrawn (a dirty rect counts only its own pixels).
    public var dirtyPixels = 0
    public var imagesDecoded = 0
    // specialised layers (chapter 6)
    /// Text layers laid out again (a move or fade reuses the layout).
    public var textLayouts = 0
    /// Tiles a tiled layer drew (each through one draw callback).
    public var tilesDrawn = 0
    /// Emitter particles drawn by the last render.
    public var particlesDrawn = 0
    // retained frames (RenderTarget; a render into a new bitmap is a full redraw)
    /// Pixels the render wrote: the damage (the whole frame after a full redraw).
    public var damagedPixels = 0
    /// Rectangles of that damage (1 for a full redraw, 0 when nothing changed).
    public var damageRects = 0
    /// 1 when the render redrew the whole frame.
    public var fullRedraws = 0
    /// Shadows whose blurred mask came from the effect cache / were blurred.
    public var effectCacheHits = 0
    public var effectCacheMisses = 0
    /// Threads the last render drew on (1 without workers, 0 when it drew nothing).
    public var renderThreads = 0
    /// Bands the last render was cut into (one per thread that drew).
    public var bandsDrawn = 0
    // physics
    public var physicsSteps = 0
    /// Time spent in physics steps (wall clock; for budgets, never for tests).
    public var physicsStepMicroseconds = 0
    // gauges (bytes; each image counted once however many layers share it)
    public var rasterCacheBytes = 0
    public var backingStoreBytes = 0
    public var imageBytes = 0

    public init() {}

    mutating func noteDamage(_ rects: [PixelRect], full: Bool) {
        damageRects = rects.count
        damagedPixels = rects.reduce(0) { $0 + $1.area }
        fullRedraws = full ? 1 : 0
    }

    /// Name → value, in a stable order (for Lua, C and `caluna run --stats`).
    public var fields: [(String, Int)] {
        [("layersVisited", layersVisited), ("layersDrawn", layersDrawn), ("offscreenPasses", offscreenPasses),
         ("offscreenPixels", offscreenPixels), ("rasterCacheHits", rasterCacheHits),
         ("rasterCacheMisses", rasterCacheMisses), ("drawCallbacks", drawCallbacks), ("dirtyPixels", dirtyPixels),
         ("imagesDecoded", imagesDecoded), ("rasterCacheBytes", rasterCacheBytes),
         ("backingStoreBytes", backingStoreBytes), ("imageBytes", imageBytes),
         ("physicsSteps", physicsSteps), ("physicsStepMicroseconds", physicsStepMicroseconds),
         // New fields go last: caluna_stats (C) follows this order.
         ("textLayouts", textLayouts), ("tilesDrawn", tilesDrawn), ("particlesDrawn", particlesDrawn),
         ("damagedPixels", damagedPixels), ("damageRects", damageRects), ("fullRedraws", fullRedraws),
         ("effectCacheHits", effectCacheHits), ("effectCacheMisses", effectCacheMisses),
         ("renderThreads", renderThreads), ("bandsDrawn", bandsDrawn)]
    }
}

extension Engine {
    /// The image memory the model tree holds now: backing stores and images
    /// (by identity, so a shared image counts once) and raster caches.
    func measureMemory(into s: inout FrameStats) {
        var seen = Set<ObjectIdentifier>()
        var stores = 0, images = 0, caches = 0
        var stack: [Layer] = [root]
        while let l = stack.popLast() {
            if let img = l.contents, seen.insert(ObjectIdentifier(img)).inserted {
                if img.isBackingStore { stores += img.byteCount } else { images += img.byteCount }
            }
            if let c = l.presentationLayer?.rasterCache { caches += c.image.byteCount }
            stack.append(contentsOf: l.sublayers)
            if let m = l.maskLayer { stack.append(m) }
        }
        s.backingStoreBytes = stores
        s.imageBytes = images
        s.rasterCacheBytes = caches
    }

    /// Counts an image decoded on this engine's behalf (Lua and C loaders).
    public func noteImageDecoded() { pendingStats.imagesDecoded += 1 }
}
