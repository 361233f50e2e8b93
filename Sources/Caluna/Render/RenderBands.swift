import CCairo
import Glibc

/// A render on several threads. The region to redraw is cut into bands
/// (strips of rows or of columns); each band is drawn by one thread exactly
/// as a partial redraw draws its region (RenderTarget.swift: subtrees that
/// miss the band are skipped, the rest drawn whole into a bitmap of the
/// frame's size, only the band's pixels kept), so every band's pixels are
/// those of a serial render, and each band copies them into the frame. Cuts
/// are placed where few layers straddle them and the work is even (a layer
/// across a cut is drawn by both bands).
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
    /// Band bitmaps (one frame each) take at most this many bytes; fewer
    /// bands are used for larger frames.
    static let scratchBudget = 256 << 20

    static let serial = RenderBands(threads: 1, workers: nil, memory: nil)

    /// How many bands a region of `pixels` on a `width` × `height` frame gets.
    func bandCount(pixels: Int, width: Int, height: Int) -> Int {
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
    struct Item {
        var rect: PixelRect, cost: Int
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
        func add(_ r: PixelRect?) {
            guard let r = r?.intersection(canvas), !r.isEmpty, region.contains(where: { $0.intersects(r) }) else { return }
            out.append(Item(rect: r, cost: r.area + 256))
        }
        while let r = stack.popLast() {
            guard r.cullable else { add(canvas); continue }
            if !r.fingerprint.isUnit, !r.children.isEmpty, out.count + stack.count + r.children.count < limit {
                add(r.extent)
                stack += r.children
                if let m = r.mask { add(m.subtree) }
            } else {
                add(r.subtree)
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
        // Rows and columns cost something of their own (clearing, copying, the root's background).
        func rest(_ c: Int) -> Int { (hi - c) * across / 4 + after[firstIndex(byEnd) { $0.0.1 <= c }] }
        var candidates = Set<Int>()
        for ((p, q), _) in spans {
            if p > lo && p < hi { candidates.insert(p) }
            if q > lo && q < hi { candidates.insert(q) }
        }
        let steps = 8 * n
        for k in 1..<steps { candidates.insert(lo + (hi - lo) * k / steps) }
        let sorted = candidates.sorted()
        var out = [lo], worst = 0
        for b in 1..<n {
            let a = out.last!
            // cost(a, c): the items ending past a and starting before c — by start, with prefix sums.
            let byStart = spans.filter { $0.0.1 > a }.map { ($0.0.0, $0.1) }.sorted { $0.0 < $1.0 }
            var before = [0]
            for (_, k) in byStart { before.append(before.last! + k) }
            func here(_ c: Int) -> Int { (c - a) * across / 4 + before[firstIndex(byStart) { $0.0 < c }] }
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
}

extension RenderTarget {
    /// Draws `region` of the tree into `image` (only the region's pixels are
    /// exact), in bands on `bands.threads` threads.
    func drawRegion(_ root: Layer, into image: Image, region: [PixelRect], scale: Double, effects: EffectCache?,
                    bands settings: RenderBands, stats: inout FrameStats) throws {
        bandsSentBack = 0
        stats.renderThreads = 1
        stats.bandsDrawn = 1
        func serial() throws { try draw(root, into: image, region: region, scale: scale, effects: effects, stats: &stats) }
        let n = settings.bandCount(pixels: region.reduce(0) { $0 + $1.area }, width: image.width, height: image.height)
        guard n > 1, let workers = settings.workers else { return try serial() }
        let canvas = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let (bands, axis) = RenderBands.bands(region, items: RenderBands.items(tracker, canvas: canvas, region: region),
                                              count: n)
        bandAxis = axis
        // Each band draws into a bitmap of its own and copies its pixels
        // into `image` (pixels no other band writes; nothing else draws on `image`).
        guard bands.count > 1, (try? bandImages.prepare(count: bands.count, width: image.width, height: image.height)) != nil
        else { return try serial() }
        let images = Array(bandImages.images.prefix(bands.count))
        let target = image.rawPixels()
        defer { image.markDirty() }
        let earlier = bands.indices.map { Array(bands[..<$0].joined()) }
        let incoming = stats
        /// Band `i` with its counters (the first band carries the display work's in).
        func drawBand(_ i: Int) throws -> FrameStats {
            var s = i == 0 ? incoming : FrameStats()
            try draw(root, into: images[i], region: bands[i], earlier: earlier[i], scale: scale, effects: effects,
                     stats: &s)
            RenderTarget.copy(bands[i], from: images[i].rawPixels(), to: target)
            return s
        }

        let cancel = RenderBand.Cancel()
        let states = bands.map { _ in RenderBand.State() }
        var results = [FrameStats?](repeating: nil, count: bands.count)
        results.withUnsafeMutableBufferPointer { out in
            let out = out
            let stopped = { () -> CalunaError? in cancel.isSet ? CalunaError(.limitReached, "render: stopped") : nil }
            let run = { (i: Int) in
                // The calling thread keeps its own check; workers stop when it fires.
                out[i] = try? MemoryLedger.withCurrent(settings.memory) {
                    try RenderBand.run(states[i]) { try i == 0 ? drawBand(i) : Interruption.with(stopped) { try drawBand(i) } }
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
        stats = total
        stats.renderThreads = bands.count
        stats.bandsDrawn = bands.count
    }

    /// While waiting for the workers: the calling thread's interruption
    /// check, which stops every band when it fires.
    private func poll(_ cancel: RenderBand.Cancel) -> () -> Void {
        { if (try? Interruption.check()) == nil { cancel.set() } }
    }
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
