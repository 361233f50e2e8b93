import CCairo

/// shouldRasterize (ch.4, ch.15): the layer and its subtree — shadow
/// included, opacity not — drawn once into a bitmap at rasterizationScale,
/// kept while nothing in the subtree changes, and composited with the
/// layer's filters and then its opacity.
final class RasterCache {
    let image: Image
    let extent: Rect
    let scale: Double
    let fingerprint: [RasterFingerprint]
    init(image: Image, extent: Rect, scale: Double, fingerprint: [RasterFingerprint]) {
        self.image = image; self.extent = extent; self.scale = scale; self.fingerprint = fingerprint
    }
}

/// One layer of a rasterised subtree as it was drawn: a changed state, a
/// redrawn backing store, a moved sublayer or a new transition misses.
struct RasterFingerprint: Equatable {
    let layer: ObjectIdentifier
    let state: LayerState
    let contentsVersion: Int
    let children: Int
    /// The transition in progress and how far (a frame object's address
    /// can come back for the next frame's).
    let transition: ObjectIdentifier?, progress: Double?
    let flipped: Bool

    /// The subtree in drawing order, masks included (bounded depth).
    static func of(_ root: Layer, flipped: Bool) -> [RasterFingerprint] {
        var out: [RasterFingerprint] = []
        var stack: [(Layer, Bool)] = [(root, flipped)]
        while let (l, f) = stack.popLast() {
            out.append(RasterFingerprint(layer: ObjectIdentifier(l), state: l.state, contentsVersion: l.contents?.version ?? 0,
                                         children: l.sublayers.count + (l.maskLayer == nil ? 0 : 1),
                                         transition: l.transitionFrame.map { ObjectIdentifier($0.transition) },
                                         progress: l.transitionFrame?.progress, flipped: f))
            let g = l.geometryFlipped ? !f : f
            for s in l.sublayers.reversed() { stack.append((s, g)) }
            if let m = l.maskLayer { stack.append((m, g)) }
        }
        return out
    }
}

extension Image: Equatable {
    /// Images are compared by identity: the same bitmap, not equal pixels.
    public static func == (a: Image, b: Image) -> Bool { a === b }
}

extension Compositor {
    /// Draws the layer from its raster cache (making it on a miss); false when
    /// it cannot be cached (unknown extent, absurd size) and must be drawn directly.
    mutating func drawRasterized(_ layer: Layer, alpha: Double) throws -> Bool {
        guard var extent = layer.visualExtent(depth: 1) else { return false }
        if layer.masksToBounds { extent = extent.intersection(layer.bounds.standardized) }
        guard extent.width > 0, extent.height > 0 else { return true }
        let k = layer.rasterizationScale
        let w = (extent.width * k).rounded(.up), h = (extent.height * k).rounded(.up)
        guard w >= 1, h >= 1, w <= Double(Image.maximumSide), h <= Double(Image.maximumSide), w * h <= Double(Image.maximumPixels) else {
            return false
        }
        let fingerprint = RasterFingerprint.of(layer, flipped: contentsFlipped)
        let cache: RasterCache
        if let c = layer.rasterCache, c.scale == k, c.extent == extent, c.fingerprint == fingerprint {
            stats.rasterCacheHits += 1
            cache = c
        } else {
            try RenderBand.requireCallingThread()
            stats.rasterCacheMisses += 1
            let image = try Image(width: Int(w), height: Int(h))
            var sub = offscreen(image.surface)
            cairo_scale(sub.cr, k, k)
            cairo_translate(sub.cr, -extent.minX, -extent.minY)
            defer { sub.finish() }
            try sub.drawBody(layer, alpha: 1)
            absorb(sub)
            stats.offscreenPasses += 1
            stats.offscreenPixels += image.width * image.height
            cache = RasterCache(image: image, extent: extent, scale: k, fingerprint: fingerprint)
            layer.rasterCache = cache
        }
        let source = Rect(0, 0, extent.width * k, extent.height * k)
        try drawPatch(cache.image, layer: layer, source: source, dest: extent, alpha: alpha)
        return true
    }
}

extension FrameStats {
    /// Adds a nested render's counters (a raster cache drawn inside a frame).
    mutating func absorb(_ o: FrameStats) {
        layersVisited += o.layersVisited
        layersDrawn += o.layersDrawn
        offscreenPasses += o.offscreenPasses
        offscreenPixels += o.offscreenPixels
        rasterCacheHits += o.rasterCacheHits
        rasterCacheMisses += o.rasterCacheMisses
        textLayouts += o.textLayouts
        tilesDrawn += o.tilesDrawn
        particlesDrawn += o.particlesDrawn
        effectCacheHits += o.effectCacheHits
        effectCacheMisses += o.effectCacheMisses
        drawCallbacks += o.drawCallbacks
    }
}
