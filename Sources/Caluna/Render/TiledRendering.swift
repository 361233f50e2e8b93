import CCairo
import Glibc

/// The tiles a tiled layer has drawn, kept on its **model** layer (the one
/// setNeedsDisplay marks and the draw callbacks receive), so an invalidation
/// reaches them however many presentation copies the renders used.
final class TileCache {
    struct Key: Hashable { let level: Int, column: Int, row: Int }
    final class Tile {
        let image: Image
        /// The tile's part of the bounds, in layer points, and the whole tile.
        let rect: Rect, full: Rect
        let scale: Double
        /// The engine time the tile was drawn (its fade starts there).
        let drawnAt: Double
        var lastUsed: Int
        init(image: Image, rect: Rect, full: Rect, scale: Double, drawnAt: Double, lastUsed: Int) {
            self.image = image; self.rect = rect; self.full = full; self.scale = scale; self.drawnAt = drawnAt
            self.lastUsed = lastUsed
        }
    }
    /// What the tiles were cut for: a change drops them all.
    struct Geometry: Equatable { let tileSize: Size, contentsScale: Double }

    var tiles: [Key: Tile] = [:]
    var geometry: Geometry? = nil
    /// The bounds the tiles were clipped to (a layer scrolling its own bounds keeps the tiles
    /// that stay whole or stay cut the same way).
    var bounds: Rect? = nil
    var bytes = 0
    var use = 0

    /// Tiles beyond this many bytes that the current render did not use are dropped.
    static let budget = 64 << 20

    func invalidate(_ dirty: Rect?) {
        guard let dirty else { return removeAll() }
        for (k, t) in tiles where t.rect.intersects(dirty) { remove(k) }
    }

    func removeAll() { tiles = [:]; bytes = 0 }

    func update(bounds b: Rect) {
        guard bounds != b else { return }
        bounds = b
        for (k, t) in tiles where t.full.intersection(b) != t.rect { remove(k) }
    }

    func remove(_ k: Key) {
        if let t = tiles.removeValue(forKey: k) { bytes -= t.image.byteCount }
    }

    func insert(_ t: Tile, at k: Key) {
        remove(k)
        tiles[k] = t
        bytes += t.image.byteCount
    }

    /// Drops the least recently used tiles the current render does not show.
    func trim() {
        guard bytes > TileCache.budget else { return }
        for (k, t) in tiles.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where t.lastUsed < use {
            remove(k)
            if bytes <= TileCache.budget { return }
        }
    }
}

extension Compositor {
    /// One render of a tiled layer draws more tiles than this only by mistake
    /// (a tiny tileSize on a huge area): it is refused rather than hang.
    static let maximumTilesPerRender = 16384

    /// CATiledLayer: the tiles meeting the visible part of the bounds (the
    /// bounding box of the current clip in layer space) at the level the
    /// render's scale asks for, each drawn once through the layer's draw path
    /// and cached; a new tile fades in over fadeDuration on the engine clock.
    mutating func drawTiles(_ layer: Layer, alpha: Double) throws {
        let model = layer.modelLayer
        let st = layer.state.specialised.value.tiled
        let b = layer.bounds.standardized, cs = layer.contentsScale
        guard alpha > 0, !b.isEmpty, cs > 0 else { return }
        // Tiles are drawn by callbacks and kept on the layer.
        try RenderBand.requireCallingThread()
        guard try model.drawHandler != nil || model.delegate?.drawsContent(of: model) == true else { return }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let pixelsPerPoint = AffineTransform(cairo: m).linearScale
        guard pixelsPerPoint > 0, pixelsPerPoint.isFinite else { return }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let visible = Rect(x0, y0, x1 - x0, y1 - y0).intersection(b)
        guard !visible.isEmpty, visible.width > 0, visible.height > 0 else { return }

        let level = st.level(pixelsPerPoint: pixelsPerPoint, contentsScale: cs)
        let scale = cs * pow(2, Double(level))
        let tw = st.tileSize.width / scale, th = st.tileSize.height / scale
        // Tiles are cut from the layer's origin, so clip.x / tileWidth is the
        // column (the book's index formula).
        let c0 = (visible.minX / tw).rounded(.down), c1 = (visible.maxX / tw).rounded(.up)
        let r0 = (visible.minY / th).rounded(.down), r1 = (visible.maxY / th).rounded(.up)
        guard (c1 - c0) * (r1 - r0) <= Double(Compositor.maximumTilesPerRender) else {
            throw CalunaError.invalid("TiledLayer: one render would draw \(fmt((c1 - c0) * (r1 - r0))) tiles (at most \(Compositor.maximumTilesPerRender)); use a larger tileSize or more levelsOfDetail")
        }

        let cache = model.kindCache as? TileCache ?? TileCache()
        model.kindCache = cache
        let geometry = TileCache.Geometry(tileSize: st.tileSize, contentsScale: cs)
        if cache.geometry != geometry { cache.removeAll(); cache.geometry = geometry }
        cache.update(bounds: b)
        cache.use += 1
        let now = layer.engine?.mediaTime ?? 0

        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Clip to the bounds with antialiasing, then paint tiles without it:
        // neighbours meet on the same pixel edge (no seams).
        cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
        cairo_clip(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        for row in Int(r0)..<Int(r1) {
            for column in Int(c0)..<Int(c1) {
                let key = TileCache.Key(level: level, column: column, row: row)
                let tile: TileCache.Tile
                if let t = cache.tiles[key] {
                    tile = t
                } else {
                    let full = Rect(Double(column) * tw, Double(row) * th, tw, th), rect = full.intersection(b)
                    guard !rect.isEmpty, rect.width > 0, rect.height > 0 else { continue }
                    tile = try drawTile(model, rect: rect, full: full, scale: scale, now: now, use: cache.use)
                    cache.insert(tile, at: key)
                }
                tile.lastUsed = cache.use
                var a = alpha
                if st.fadeDuration > 0 { a *= min(max((now - tile.drawnAt) / st.fadeDuration, 0), 1) }
                guard a > 0 else { continue }
                let dest = Rect(tile.rect.minX, tile.rect.minY, Double(tile.image.width) / tile.scale,
                                Double(tile.image.height) / tile.scale)
                paint(tile.image, scale: 1, source: Rect(0, 0, Double(tile.image.width), Double(tile.image.height)),
                      dest: dest, filter: CAIRO_FILTER_BILINEAR, alpha: a)
            }
        }
        stats.layersDrawn += 1
        cache.trim()
    }

    /// One tile: a bitmap of the rect at `scale`, drawn by the model layer's
    /// draw callback (or delegate) with a context clipped to the tile.
    private mutating func drawTile(_ model: Layer, rect: Rect, full: Rect, scale: Double, now: Double,
                                   use: Int) throws -> TileCache.Tile {
        let w = Int((rect.width * scale - 1e-9).rounded(.up)), h = Int((rect.height * scale - 1e-9).rounded(.up))
        let image = try Image(width: max(w, 1), height: max(h, 1))
        image.isBackingStore = true
        let ctx = DrawingContext(image: image, scale: scale, origin: rect.origin, clip: rect)
        stats.tilesDrawn += 1
        stats.drawCallbacks += 1
        try model.runRenderTimeCallback {
            if let handler = model.drawHandler { try handler(model, ctx) } else { try model.delegate?.draw(model, in: ctx) }
        }
        ctx.invalidate()
        cairo_surface_mark_dirty(image.surface)
        return TileCache.Tile(image: image, rect: rect, full: full, scale: scale, drawnAt: now, lastUsed: use)
    }
}

extension Layer {
    /// Runs a script's or host's callback during a render (tiles, pixel
    /// buffer frames): stepping or rendering the engine from inside it is an
    /// error, as from any frame callback.
    func runRenderTimeCallback(_ body: () throws -> Void) throws {
        guard let engine else { return try body() }
        let was = engine.runningFrame
        engine.runningFrame = true
        defer { engine.runningFrame = was }
        try body()
    }
}
