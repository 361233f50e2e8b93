import CCairo
import Glibc

/// A retained frame: each render into it redraws only the pixels that can
/// differ from the last one (Damage.swift) and reports them, and the bytes
/// are always those of a full redraw (`Engine.render()`).
///
/// The first render, a change of the engine's size or scale, `invalidate()`
/// and `full: true` redraw the whole frame; so does a change where only that
/// is exact (a layer placed by a perspective homography, an emitter without
/// bounds) or cheaper (damage over half the frame).
public final class RenderTarget {
    /// The frame as of the last render (nil before the first). It changes in
    /// place at the next render: copy it to keep it.
    public private(set) var frame: Image? = nil
    /// The pixels the last render wrote (the whole frame after a full redraw,
    /// none when nothing changed).
    public private(set) var damage: [PixelRect] = []
    /// Whether the last render redrew the whole frame.
    public private(set) var lastWasFull = false
    let tracker = DamageTracker()
    /// Where partial redraws are drawn (whole layers, unclipped); only the
    /// damage is copied to `frame`. Kept between renders of one size.
    private var scratch: Image? = nil
    /// Where bands are drawn (RenderBands.swift).
    let bandImages = BandImages()
    /// Bands of the last render drawn again on the calling thread.
    var bandsSentBack = 0
    /// How the last render's bands were cut.
    var bandAxis: RenderBands.Axis { lastPlan?.axis ?? .rows }
    /// The last render's cuts (RenderBands.swift), reused while the damage records stay the same.
    var lastPlan: BandPlan? = nil
    /// Bands of the last render that drew straight into the frame.
    var bandsDrawnIntoFrame = 0
    private var scale = 0.0

    public init() {}

    /// The next render redraws everything.
    public func invalidate() {
        frame = nil
        tracker.reset()
    }

    /// The last frame, given away: the next render redraws everything.
    func takeFrame() -> Image? {
        defer { invalidate() }
        return frame
    }

    /// More damage rectangles than this are merged into their bounding box.
    static let maximumDamageRects = 16

    /// Renders `root` (a presentation tree) at `scale` into `width` × `height`
    /// pixels; returns the damage.
    func render(root: Layer, width: Int, height: Int, scale: Double, ticks: Int64, full: Bool,
                effects: EffectCache?, bands: RenderBands = .serial, stats: inout FrameStats) throws -> [PixelRect] {
        effects?.beginRender()
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        let ctm = AffineTransform.scale(scale, scale)
        let sameCanvas = frame?.width == width && frame?.height == height && self.scale == scale
        // A full redraw keeps the records: the update brings them up to date.
        if !sameCanvas { tracker.reset() }
        let reuse = !full && sameCanvas
        tracker.update(root: root, canvas: ctm, pixels: canvas, ticks: ticks)
        self.scale = scale
        guard reuse, let frame, !tracker.needsFullRedraw else { return try redrawAll(root, canvas, scale, effects, bands, &stats) }
        let damaged = RenderTarget.merge(tracker.damage.map { $0.intersection(canvas) }.filter { !$0.isEmpty })
        lastWasFull = false
        damage = damaged
        guard !damaged.isEmpty else { return [] }
        guard damaged.reduce(0, { $0 + $1.area }) * 2 <= canvas.area else {
            return try redrawAll(root, canvas, scale, effects, bands, &stats)
        }
        if scratch?.width != width || scratch?.height != height {
            scratch = try Image(width: width, height: height)
            scratch!.endClearShortcut()
        }
        let region = RenderTarget.disjoint(damaged)
        try drawRegion(root, into: scratch!, region: region, scale: scale, effects: effects, bands: bands, stats: &stats)
        RenderTarget.copy(region, from: scratch!, to: frame)
        return damaged
    }

    private func redrawAll(_ root: Layer, _ canvas: PixelRect, _ scale: Double, _ effects: EffectCache?,
                           _ bands: RenderBands, _ stats: inout FrameStats) throws -> [PixelRect] {
        // The last frame's bitmap is drawn over (no new pages to fault in).
        let old = frame.flatMap { $0.width == canvas.width && $0.height == canvas.height ? $0 : nil }
        let image = try old ?? Image(width: canvas.width, height: canvas.height)
        if bands.threadCount(pixels: canvas.area, width: canvas.width, height: canvas.height) > 1 {
            // The bands write every pixel.
            try drawRegion(root, into: image, region: [canvas], scale: scale, effects: effects, bands: bands, stats: &stats)
        } else {
            if old != nil { image.clearPixels() }
            try Compositor.drawTree(root, on: image, scale: scale, effects: effects, records: tracker, stats: &stats)
            (stats.renderThreads, stats.bandsDrawn) = (1, 1)
        }
        frame = image
        lastWasFull = true
        damage = [canvas]
        return damage
    }

    /// Clears `region` (disjoint rectangles) of `image` and draws every
    /// subtree that reaches it (Compositor.PartialRedraw): only the region's
    /// pixels are exact.
    func draw(_ root: Layer, into image: Image, region: [PixelRect], earlier: [PixelRect] = [], scale: Double,
              effects: EffectCache?, stats: inout FrameStats) throws {
        image.clearPixels(region)
        let cr = cairo_create(image.surface)!
        cairo_scale(cr, scale, scale)
        var compositor = Compositor(cairo: cr)
        defer { compositor.finish() }
        compositor.partial = Compositor.PartialRedraw(tracker: tracker, region: region, earlier: earlier)
        compositor.effects = effects
        compositor.records = tracker
        compositor.stats = stats
        defer { stats = compositor.stats }
        try compositor.draw(root, parentSpace: nil, inheritedOpacity: 1)
        cairo_surface_flush(image.surface)
    }

    /// The same pixels as disjoint rectangles (a box filled piece by piece
    /// must not cover a pixel twice).
    static func disjoint(_ rects: [PixelRect]) -> [PixelRect] {
        var out: [PixelRect] = []
        for r in rects {
            var pieces = [r]
            for k in out { pieces = pieces.flatMap { $0.subtracting(k) } }
            out += pieces
        }
        return out
    }

    /// Overlapping or touching rectangles joined into their bounding box
    /// when that adds little; at most `maximumDamageRects`.
    static func merge(_ rects: [PixelRect]) -> [PixelRect] {
        if rects.count > 64 * maximumDamageRects { return capped(rects, to: 1) }
        var out: [PixelRect] = []
        for r in rects {
            var r = r
            // Absorb every kept rectangle that r meets, until none does.
            var i = 0
            while i < out.count {
                let u = out[i].union(r)
                if out[i].intersects(r.grown(by: 1)) && u.area <= out[i].area + r.area + min(out[i].area, r.area) {
                    r = u
                    out.remove(at: i)
                    i = 0
                } else {
                    i += 1
                }
            }
            out.append(r)
        }
        return capped(out, to: maximumDamageRects)
    }

    /// At most `n` (≥ 1) rectangles: those past the n-th are joined into it.
    public static func capped(_ rects: [PixelRect], to n: Int) -> [PixelRect] {
        guard rects.count > n else { return rects }
        return Array(rects.prefix(n - 1)) + [rects[(n - 1)...].dropFirst().reduce(rects[n - 1]) { $0.union($1) }]
    }

    /// Copies whole pixels of `rects` from one bitmap to another of the same size.
    static func copy(_ rects: [PixelRect], from source: Image, to target: Image) {
        copy(rects, from: source.rawPixels(), to: target.rawPixels())
        target.markDirty()
    }

    /// The same between raw pixels (`Image.rawPixels`): bands copy their own
    /// rows into one frame at once this way.
    static func copy(_ rects: [PixelRect], from src: (UnsafeMutableRawPointer, Int),
                     to dst: (UnsafeMutableRawPointer, Int)) {
        for r in rects {
            for y in r.y..<r.maxY {
                memcpy(dst.0 + y * dst.1 + r.x * 4, src.0 + y * src.1 + r.x * 4, r.width * 4)
            }
        }
    }
}

extension Compositor {
    /// A partial redraw into a scratch bitmap. cairo clips a polygon to a clip
    /// box geometrically, which moves the edges of shapes that cross the box
    /// (by rounding) and so changes their pixels inside it too; even a
    /// fractional box cut in two covers its edge pixels differently. So
    /// nothing is clipped: subtrees whose pixels miss the region are skipped,
    /// the rest are drawn whole, and only the region is kept. Boxes on whole
    /// pixels (the root's background) are cut to the region. Inside a
    /// shadow's content group the whole content is drawn: the blur needs it.
    struct PartialRedraw {
        let tracker: DamageTracker
        /// Disjoint device-pixel rectangles.
        let region: [PixelRect]
        /// Shadow content groups being drawn (everything is drawn inside one).
        var suspended = 0
        /// The regions of the bands before this one (RenderBands.swift).
        var earlier: [PixelRect] = []
        /// Counters are not kept: an earlier band counts what is drawn now.
        var quiet = false
        /// While quiet: the counters of subtrees inside that count here.
        var kept = FrameStats()

        /// Whether an earlier band draws `layer` too (its subtree reaches
        /// that band's region, or it is never culled); nil when unknown (no
        /// record: it goes with its parent).
        func drawnByEarlierBand(_ layer: Layer) -> Bool? {
            guard !earlier.isEmpty else { return false }
            guard let r = tracker.record(of: layer) else { return nil }
            guard r.cullable else { return true }
            guard let e = r.subtree else { return false }
            return earlier.contains { $0.intersects(e) }
        }

        func skips(_ layer: Layer) -> Bool {
            guard suspended == 0, let r = tracker.record(of: layer) else { return false }
            return !reaches(r)
        }

        /// The records of the sublayers a flat layer draws, in drawing order
        /// (nil: walk the sublayers themselves).
        func drawnSublayers(of layer: Layer) -> [DamageTracker.Record]? {
            guard suspended == 0, let r = tracker.record(of: layer), !r.fingerprint.isUnit else { return nil }
            return r.children
        }

        /// The sublayer of record `r` may draw inside the region.
        func reaches(_ r: DamageTracker.Record) -> Bool {
            guard r.cullable else { return true }
            guard let e = r.subtree else { return false }
            return region.contains { $0.intersects(e) }
        }
    }

    /// A partial redraw outside shadow content: boxes are cut to the region.
    var cutsBoxes: Bool { partial.map { $0.suspended == 0 } ?? false }

    /// Fills the device-space box `device` (identity matrix) piece by piece
    /// inside the region; the caller has set the source and antialiasing.
    func fillBoxInRegion(_ device: Rect) {
        guard let p = partial else { return }
        cairo_save(cr)
        cairo_identity_matrix(cr)
        for r in p.region {
            let piece = device.intersection(r.rect)
            guard piece.width > 0, piece.height > 0 else { continue }
            cairo_rectangle(cr, piece.minX, piece.minY, piece.width, piece.height)
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }
}

extension Engine {
    /// Lays out, commits, then redraws into `target` what changed since its
    /// last render (everything the first time, after a change of size or
    /// scale, or with `full`). Returns the pixel rectangles written; the
    /// frame is `target.frame`, byte for byte what `render()` draws.
    @discardableResult
    public func render(into target: RenderTarget, full: Bool = false) throws -> [PixelRect] {
        try checkNotInFrame("render")
        return try memory.withCurrent {
            try flush()
            // Layers keep the damage records of one target: another target's
            // renders in between leave this one's unknown.
            if lastRenderTarget !== target { target.invalidate() }
            lastRenderTarget = target
            let (w, h) = pixelSize
            renderSerial &+= 1
            var stats = pendingStats
            pendingStats = FrameStats()
            defer { lastFrameStats = stats }
            let damage: [PixelRect]
            do {
                damage = try target.render(root: root.ensurePresentation(), width: w, height: h, scale: scale,
                                           ticks: clock.ticks, full: full, effects: effectCache, bands: renderBands,
                                           stats: &stats)
            } catch {
                // A frame left half drawn cannot be the base of the next one.
                target.invalidate()
                throw error
            }
            stats.noteDamage(damage, full: target.lastWasFull)
            return damage
        }
    }

    /// Renders into the engine's own `frameTarget` (what changed since its
    /// last render; everything with `full`) and returns its frame: the same
    /// bitmap, changed in place by the next render (copy it to keep it).
    public func renderRetained(full: Bool = false) throws -> Image {
        try render(into: frameTarget, full: full)
        guard let frame = frameTarget.frame else { throw CalunaError(.invalidArgument, "render: no frame was drawn") }
        return frame
    }
}
