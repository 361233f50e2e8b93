import CCairo
import Glibc

/// A render on several threads. The region to redraw is cut into bands
/// (strips of rows or of columns); each band is drawn by one thread exactly
/// as a partial redraw draws its region (RenderTarget.swift: subtrees that
/// miss the band are skipped, the rest drawn whole, only the band's pixels
/// kept), so every band's pixels are those of a serial render. A band that
/// writes nothing outside its region (`spill`) draws straight into the
/// frame, the others into bitmaps of their own that they copy in. Cuts
/// are placed where few layers straddle them and the work is even (a layer
/// across a cut is drawn by both bands, unless the later one sees only its
/// shadow).
///
/// Bands only read the tree and its caches; what would run a callback or
/// fill a cache (RenderBand.requireCallingThread) sends the band back to the
/// calling thread, which draws it again after the others, alone — so
/// callbacks never run on a worker, and never while workers draw.
struct RenderBands {
    /// Threads to use (1: the calling thread alone).
    var threads: Int
    /// The engine's pool (nil: one thread).
    var workers: RenderWorkers?
    /// The ledger bitmaps of a band are charged to.
    var memory: MemoryLedger?
    /// A region smaller than this (pixels) is drawn by one thread.
    var minimumPixels = RenderBands.minimumParallelPixels

    /// A region smaller than this (pixels) is drawn by one thread.
    static let minimumParallelPixels = 32 * 1024
    /// The bands' bitmaps (one frame each) take at most this many bytes;
    /// fewer bands are used for larger frames.
    static let scratchBudget = 256 << 20

    static let serial = RenderBands(threads: 1, workers: nil, memory: nil)

    /// How many threads (and bands) draw a region of `pixels` on a `width` × `height` frame.
    func threadCount(pixels: Int, width: Int, height: Int) -> Int {
        guard threads > 1, let workers, pixels >= minimumPixels else { return 1 }
        // A band on a worker must have no more stack than the calling thread
        // has left, or a tree too deep for a serial render could draw.
        guard NativeStack.remaining >= RenderWorkers.stackSize else { return 1 }
        let frameBytes = max(Image.chargedBytes(width, height), 1)
        return max(1, min(threads, workers.count + 1, RenderBands.scratchBudget / frameBytes, height))
    }
}

extension RenderBands {
    /// What a band costs to draw: the pixels of each subtree drawn in it.
    /// A band past `content` that meets `rect` sees only a shadow, which it
    /// paints from the effect cache (Compositor.drawShadowFromCache) at
    /// about an eighth of the cost.
    struct Item {
        var rect: PixelRect, content: PixelRect? = nil, cost: Int
    }

    /// Bands are rows (cuts across y) or columns (cuts across x).
    enum Axis {
        case rows, columns
        func range(_ r: PixelRect) -> (Int, Int) { self == .rows ? (r.y, r.maxY) : (r.x, r.maxX) }
        func length(_ r: PixelRect) -> Int { self == .rows ? r.width : r.height }
    }

    /// Up to `limit` items: the subtrees the compositor culls one by one
    /// (the sublayers of flat layers, down the tree), each with its pixels;
    /// what is never culled spans the canvas.
    static func items(_ tracker: DamageTracker, canvas: PixelRect, region: [PixelRect], limit: Int = 4096) -> [Item] {
        guard let root = tracker.rootRecord else { return [] }
        var out: [Item] = []
        var stack = [root]
        func add(_ r: PixelRect?, content: PixelRect? = nil) {
            guard let r = r?.intersection(canvas), !r.isEmpty, region.contains(where: { $0.intersects(r) }) else { return }
            out.append(Item(rect: r, content: content, cost: r.area + 256))
        }
        while let r = stack.popLast() {
            guard r.cullable else { add(canvas); continue }
            if !r.fingerprint.isUnit, !r.children.isEmpty, out.count + stack.count + r.children.count < limit {
                // A root that only fills its background on whole pixels is
                // cut to each band (Compositor.fillBackground): the per-pixel
                // cost below counts it, and no band draws it outside its own.
                if !(r === root && r.fillsOnlyWholePixels) { add(r.extent, content: r.content) }
                stack += r.children
                if let m = r.mask { add(m.subtree) }
            } else {
                add(r.subtree, content: r.content)
            }
        }
        return out
    }

    /// Cuts lo < c1 < … < hi along `axis` giving `n` bands of the region's
    /// bounding box `box` with even work, and the cost of the dearest band.
    static func cuts(_ items: [Item], along axis: Axis, of box: PixelRect, bands n: Int) -> (cuts: [Int], worst: Int) {
        let (lo, hi) = axis.range(box), across = axis.length(box)
        let spans = items.map { (axis.range($0.rect), $0.cost) }
        // cost(c, hi): the items ending past c — by end, with suffix sums.
        let byEnd = spans.sorted { $0.0.1 < $1.0.1 }
        var after = [Int](repeating: 0, count: byEnd.count + 1)
        for k in stride(from: byEnd.count - 1, through: 0, by: -1) { after[k] = after[k + 1] + byEnd[k].1 }
        func firstIndex<T>(_ xs: [T], _ below: (T) -> Bool) -> Int {
            var (l, h) = (0, xs.count)
            while l < h { let m = (l + h) / 2; if below(xs[m]) { l = m + 1 } else { h = m } }
            return l
        }
        // What a band starting at c saves on the items whose content ends
        // before c (an earlier band draws them) and whose shadow reaches past it.
        var shadowStarts: [(Int, Int)] = [], shadowEnds: [(Int, Int)] = []
        for item in items {
            guard let content = item.content else { continue }
            let (contentEnd, end) = (axis.range(content).1, axis.range(item.rect).1)
            guard contentEnd < end else { continue }
            let saved = item.cost - item.cost / 8
            shadowStarts.append((contentEnd, saved))
            shadowEnds.append((end, saved))
        }
        shadowStarts.sort { $0.0 < $1.0 }
        shadowEnds.sort { $0.0 < $1.0 }
        var startSums = [0], endSums = [0]
        for (_, k) in shadowStarts { startSums.append(startSums.last! + k) }
        for (_, k) in shadowEnds { endSums.append(endSums.last! + k) }
        func shadowOnly(_ c: Int) -> Int {
            startSums[firstIndex(shadowStarts) { $0.0 <= c }] - endSums[firstIndex(shadowEnds) { $0.0 <= c }]
        }
        // Rows and columns cost something of their own (clearing, copying, the root's background).
        func rest(_ c: Int) -> Int { (hi - c) * across / 4 + after[firstIndex(byEnd) { $0.0.1 <= c }] - shadowOnly(c) }
        // Where cuts may go: the items' edges, where their bodies end, and an even grid.
        var sorted: [Int] = []
        sorted.reserveCapacity(3 * spans.count + 8 * n)
        for ((p, q), _) in spans { sorted += [p, q] }
        for (c, _) in shadowStarts { sorted.append(c) }
        let steps = 8 * n
        for k in 1..<steps { sorted.append(lo + (hi - lo) * k / steps) }
        sorted = sorted.filter { $0 > lo && $0 < hi }
        sorted.sort()
        var out = [lo], worst = 0
        for b in 1..<n {
            let a = out.last!
            // cost(a, c): the items ending past a and starting before c — by start, with prefix sums.
            let byStart = spans.filter { $0.0.1 > a }.map { ($0.0.0, $0.1) }.sorted { $0.0 < $1.0 }
            var before = [0]
            for (_, k) in byStart { before.append(before.last! + k) }
            let saved = a == lo ? 0 : shadowOnly(a)
            func here(_ c: Int) -> Int { (c - a) * across / 4 + before[firstIndex(byStart) { $0.0 < c }] - saved }
            var best: (Int, Int, Int)? = nil
            for c in sorted where c > a && hi - c >= n - b {
                let h = here(c)
                let w = max(h, rest(c) / (n - b))
                if best == nil || w < best!.1 { best = (c, w, h) }
            }
            guard let (c, _, h) = best else { break }
            worst = max(worst, h)
            out.append(c)
        }
        worst = max(worst, rest(out.last!))
        out.append(hi)
        return (out, worst)
    }

    /// `region` (disjoint rectangles) cut into bands; empty bands dropped.
    static func split(_ region: [PixelRect], cuts: [Int], along axis: Axis) -> [[PixelRect]] {
        var bands: [[PixelRect]] = []
        for k in 0..<(cuts.count - 1) {
            let a = cuts[k], b = cuts[k + 1]
            let band = region.compactMap { r -> PixelRect? in
                switch axis {
                case .rows:
                    let top = max(r.y, a), bottom = min(r.maxY, b)
                    return top < bottom ? PixelRect(x: r.x, y: top, width: r.width, height: bottom - top) : nil
                case .columns:
                    let left = max(r.x, a), right = min(r.maxX, b)
                    return left < right ? PixelRect(x: left, y: r.y, width: right - left, height: r.height) : nil
                }
            }
            if !band.isEmpty { bands.append(band) }
        }
        return bands
    }

    /// The region in `n` bands of rows or of columns, whichever leaves the
    /// dearest band cheaper (a grid of cards is often cut between two columns
    /// more cleanly than between two rows).
    static func bands(_ region: [PixelRect], items: [Item], count n: Int) -> (bands: [[PixelRect]], axis: Axis) {
        guard let box = region.dropFirst().reduce(region.first, { $0?.union($1) }) else { return ([], .rows) }
        let rows = cuts(items, along: .rows, of: box, bands: n)
        let columns = box.width >= n ? cuts(items, along: .columns, of: box, bands: n) : nil
        if let columns, columns.worst < rows.worst { return (split(region, cuts: columns.cuts, along: .columns), .columns) }
        return (split(region, cuts: rows.cuts, along: .rows), .rows)
    }

    /// Where band `k` can write outside its own region, within the other
    /// bands' (merged into a few rectangles, which may cover more); nil when
    /// that is over half their pixels, or unknown. The walk is the
    /// compositor's culling: a subtree that reaches the band is drawn, its own
    /// body whole, a layer past `limit` whole. A layer casting a shadow (with
    /// no masksToBounds clip on the way) has the shadow cut to the band, and
    /// draws its content within `content` — or not at all, when an earlier
    /// band draws it and it misses this one (Compositor.seesOnlyShadow). A
    /// group (opacity, mask) is composited over everything the clip lets
    /// through, reading and writing back pixels it leaves unchanged, and a
    /// unit may hold one: where the band draws one, nothing is known.
    static func spill(_ tracker: DamageTracker, bands: [[PixelRect]], of k: Int, limit: Int = 4096) -> [PixelRect]? {
        guard let root = tracker.rootRecord else { return [] }
        let band = bands[k], earlier = Array(bands[..<k].joined())
        let others = bands.indices.filter { $0 != k }.flatMap { bands[$0] }
        var out: [PixelRect] = []
        func add(_ e: PixelRect?) {
            guard let e else { return }
            for r in others {
                let piece = r.intersection(e)
                if !piece.isEmpty { out.append(piece) }
            }
        }
        // Records with whether a masksToBounds clip is set above them.
        var stack = [(root, false)], visited = 0
        while let (r, clippedAbove) = stack.popLast() {
            if r.cullable {
                guard let e = r.subtree, band.contains(where: { $0.intersects(e) }) else { continue }
            }
            visited += 1
            guard r.cullable, !r.fingerprint.isUnit, !r.fingerprint.grouped, r.mask == nil, let layer = r.layer else { return nil }
            let clipped = clippedAbove || layer.masksToBounds
            let contentShadow = layer.castsShadow && layer.shadowPath == nil
            if contentShadow && layer.visualExtent() == nil { return nil }
            // What the layer draws itself, outside its sublayers' records.
            var body = r.extent
            if layer.castsShadow && !clipped {
                let quiet = r.subtree.map { s in earlier.contains { $0.intersects(s) } } ?? false
                if quiet && !band.contains(where: { b in r.content.map(b.intersects) ?? false }) { continue }
                body = contentShadow ? r.content : r.own
            } else if contentShadow {
                body = r.subtree
            }
            if r === root && r.fillsOnlyWholePixels { body = nil }
            add(body)
            if !contentShadow {
                guard visited + stack.count < limit else { add(r.subtree); continue }
                stack += r.children.map { ($0, clipped) }
            }
        }
        let merged = RenderTarget.merge(out)
        let area = merged.reduce(0) { $0 + $1.area }, othersArea = others.reduce(0) { $0 + $1.area }
        return area * 2 <= othersArea ? RenderTarget.disjoint(merged) : nil
    }

    /// The bands that draw straight into the frame (the others into bitmaps
    /// of their own, copied in): those that write nothing outside their
    /// region, and the last one when it writes only where no such band
    /// draws (its `spill` is copied after it is done).
    static func direct(_ bands: [[PixelRect]], spills: [[PixelRect]?]) -> [Bool] {
        var direct = spills.map { $0?.isEmpty == true }
        if let last = spills.last, let s = last, !s.isEmpty,
           !bands.indices.contains(where: { direct[$0] && bands[$0].contains { b in s.contains(where: b.intersects) } }) {
            direct[bands.count - 1] = true
        }
        return direct
    }
}

extension RenderTarget {
    /// Draws `region` of the tree into `image` (only the region's pixels are
    /// exact), in bands on `bands.threads` threads.
    func drawRegion(_ root: Layer, into image: Image, region: [PixelRect], scale: Double, effects: EffectCache?,
                    bands settings: RenderBands, stats: inout FrameStats) throws {
        bandsSentBack = 0
        bandsDrawnIntoFrame = 0
        stats.renderThreads = 1
        stats.bandsDrawn = 1
        func serial() throws { try draw(root, into: image, region: region, scale: scale, effects: effects, stats: &stats) }
        let n = settings.threadCount(pixels: region.reduce(0) { $0 + $1.area }, width: image.width, height: image.height)
        guard n > 1, let workers = settings.workers else { return try serial() }
        let plan = self.plan(region, count: n, width: image.width, height: image.height)
        let bands = plan.bands
        // Bands that write nothing outside their region draw straight into
        // `image` (so may the last, copied around); the others into bitmaps
        // of their own, whose pixels they copy in — at once, but for those a
        // band drawing into `image` may write too (`copyLate`), copied once every
        // band is done.
        let slots = plan.direct.reduce(into: [Int]()) { $0.append(($0.last ?? -1) + ($1 ? 0 : 1)) }
        let bitmaps = plan.direct.filter { !$0 }.count
        guard bands.count > 1, (try? bandImages.prepare(count: bitmaps, width: image.width, height: image.height)) != nil
        else { return try serial() }
        let images = Array(bandImages.images.prefix(bitmaps))
        // Each band drawing into `image` has a cairo surface of its own on its pixels.
        let views = plan.direct.map { $0 ? image.view() : nil }
        guard !zip(plan.direct, views).contains(where: { $0 && $1 == nil }) else { return try serial() }
        bandsDrawnIntoFrame = bands.count - bitmaps
        let target = image.rawPixels()
        defer { image.markDirty() }
        let incoming = stats
        /// Band `i` with its counters (the first band carries the display work's in).
        func drawBand(_ i: Int) throws -> FrameStats {
            var s = i == 0 ? incoming : FrameStats()
            let into = views[i] ?? images[slots[i]]
            try draw(root, into: into, region: bands[i], earlier: plan.earlier[i], scale: scale, effects: effects, stats: &s)
            if !plan.direct[i] { RenderTarget.copy(plan.copyNow[i], from: images[slots[i]].rawPixels(), to: target) }
            return s
        }

        let cancel = RenderBand.Cancel()
        let states = bands.map { _ in RenderBand.State() }
        var results = [FrameStats?](repeating: nil, count: bands.count)
        results.withUnsafeMutableBufferPointer { out in
            let out = out
            let stopped = { () -> CalunaError? in cancel.isSet ? CalunaError(.limitReached, "render: stopped") : nil }
            // The calling thread, which starts at once, draws the last band
            // (which sees most shadows alone), the workers the others.
            let run = { (job: Int) in
                let i = (job + bands.count - 1) % bands.count
                // The calling thread keeps its own check; workers stop when it fires.
                out[i] = try? MemoryLedger.withCurrent(settings.memory) {
                    try RenderBand.run(states[i]) { try job == 0 ? drawBand(i) : Interruption.with(stopped) { try drawBand(i) } }
                }
            }
            if let ledger = settings.memory {
                ledger.withFrozenExternal { workers.run(bands.count, poll: poll(cancel), run) }
            } else {
                workers.run(bands.count, poll: poll(cancel), run)
            }
        }
        // Bands sent back (or stopped, or failed) are drawn again here, alone:
        // callbacks run and caches fill as in a serial render, and a real
        // error is thrown as a serial render throws it.
        var total = FrameStats()
        for i in bands.indices {
            var s: FrameStats
            if let done = results[i], !states[i].needsCallingThread {
                s = done
            } else {
                bandsSentBack += 1
                s = try drawBand(i)
            }
            i == 0 ? (total = s) : total.absorb(s)
        }
        // Every band has written all it will: the pixels a band drawing into
        // `image` may have written over go back.
        for i in bands.indices where !plan.direct[i] && !plan.copyLate[i].isEmpty {
            RenderTarget.copy(plan.copyLate[i], from: images[slots[i]].rawPixels(), to: target)
        }
        stats = total
        stats.renderThreads = bands.count
        stats.bandsDrawn = bands.count
    }

    /// The region in `n` bands, with which draw straight into the frame:
    /// the last render's plan when the damage records have not changed
    /// since (a full redraw of a still frame).
    private func plan(_ region: [PixelRect], count n: Int, width: Int, height: Int) -> BandPlan {
        if let p = lastPlan, p.version == tracker.version, p.count == n, p.region == region { return p }
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        let (bands, axis) = RenderBands.bands(region, items: RenderBands.items(tracker, canvas: canvas, region: region), count: n)
        let spills = bands.indices.map { RenderBands.spill(tracker, bands: bands, of: $0) }
        let direct = RenderBands.direct(bands, spills: spills)
        let late = bands.indices.filter { direct[$0] }.flatMap { spills[$0] ?? [] }
        // A band in a bitmap copies its pixels outside `late` at once, those inside once all are done.
        let copyNow = bands.map { band in band.flatMap { r in late.reduce([r]) { pieces, l in pieces.flatMap { $0.subtracting(l) } } } }
        let copyLate = bands.map { band in band.flatMap { r in late.map { $0.intersection(r) }.filter { !$0.isEmpty } } }
        let p = BandPlan(version: tracker.version, count: n, region: region, bands: bands, axis: axis, direct: direct,
                         earlier: bands.indices.map { Array(bands[..<$0].joined()) }, copyNow: copyNow, copyLate: copyLate)
        lastPlan = p
        return p
    }

    /// While waiting for the workers: the calling thread's interruption
    /// check, which stops every band when it fires.
    private func poll(_ cancel: RenderBand.Cancel) -> () -> Void {
        { if (try? Interruption.check()) == nil { cancel.set() } }
    }
}

/// How the last render cut its region, as of a version of the damage records.
struct BandPlan {
    let version: UInt64, count: Int, region: [PixelRect], bands: [[PixelRect]], axis: RenderBands.Axis
    /// Which bands draw straight into the frame.
    let direct: [Bool]
    /// Each band's earlier bands' regions (which count what they draw first).
    let earlier: [[PixelRect]]
    /// What a band drawn into a bitmap copies into the frame at once, and
    /// once every band is done (where a band in the frame may write too).
    let copyNow: [[PixelRect]], copyLate: [[PixelRect]]
}

/// The bitmaps bands draw into, kept between renders of one size.
final class BandImages {
    private(set) var images: [Image] = []

    func prepare(count: Int, width: Int, height: Int) throws {
        if images.first.map({ $0.width != width || $0.height != height }) ?? false { images = [] }
        while images.count < count {
            let image = try Image(width: width, height: height)
            image.endClearShortcut()
            images.append(image)
        }
    }

}

extension Engine {
    /// The most threads an engine renders on.
    public static let maximumRenderThreads = 64

    /// The number of cores (at least 1, at most `maximumRenderThreads`).
    public static var defaultRenderThreads: Int {
        min(max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1), Engine.maximumRenderThreads)
    }

    /// Sets `renderThreads`: 1 … `Engine.maximumRenderThreads`, or 0 for the
    /// default (the number of cores). Anything else is refused.
    public func setRenderThreads(_ n: Int) throws {
        guard n >= 0, n <= Engine.maximumRenderThreads else {
            throw CalunaError.invalid("threads must be 0 (one per core) to \(Engine.maximumRenderThreads), got \(n)")
        }
        let threads = n == 0 ? Engine.defaultRenderThreads : n
        guard threads != renderThreads else { return }
        renderThreads = threads
        renderWorkers = nil
    }

    /// How this engine's renders use threads now.
    var renderBands: RenderBands {
        guard renderThreads > 1 else { return .serial }
        if renderWorkers?.count != renderThreads - 1 { renderWorkers = RenderWorkers(count: renderThreads - 1) }
        return RenderBands(threads: renderThreads, workers: renderWorkers, memory: memory,
                           minimumPixels: renderBandMinimumPixels)
    }
}
