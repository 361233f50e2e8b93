import CCairo

/// Display (ch.2 "custom drawing", ch.13 dirty rectangles): a layer draws
/// only when asked — display(), or setNeedsDisplay followed by a display pass
/// (each commit). Drawing goes to a backing store of bounds × contentsScale
/// pixels (rounded up, D26) that becomes `contents`; a dirty rectangle
/// redraws only its pixels and keeps the rest.
extension Layer {
    public var needsDisplay: Bool { displayDirty != nil }

    /// Marks the whole layer for the next display pass.
    public func setNeedsDisplay() { markNeedsDisplay(Layer.wholeLayer) }

    /// Marks part of the layer (points, in its bounds space) for redrawing.
    public func setNeedsDisplay(in rect: Rect) {
        guard !rect.isEmpty else { return }
        markNeedsDisplay(rect.standardized)
    }

    /// A dirty rect that means "everything" (bounds may change before the pass).
    static let wholeLayer = Rect(-Double.infinity, -Double.infinity, Double.infinity, Double.infinity)

    private func markNeedsDisplay(_ r: Rect) {
        guard !isPresentation else { return }
        if let d = displayDirty {
            displayDirty = d == Layer.wholeLayer || r == Layer.wholeLayer ? Layer.wholeLayer : d.union(r)
        } else {
            displayDirty = r
            engine?.layersNeedingDisplay.append(WeakLayer(self))
        }
    }

    /// Draws now if marked.
    public func displayIfNeeded() throws {
        guard let dirty = displayDirty else { return }
        try display(dirty: dirty == Layer.wholeLayer ? nil : dirty)
    }

    /// CALayer.display: redraws the whole content now. The delegate's
    /// displayLayer wins; otherwise the draw callback (the layer's
    /// `drawHandler`, else the delegate's drawLayer) fills a new backing store.
    /// With neither, contents is cleared (D24).
    public func display() throws { try display(dirty: nil) }

    /// The size in pixels a backing store for the current bounds has.
    public var backingStorePixelSize: (width: Int, height: Int)? {
        let w = (bounds.width * contentsScale).rounded(.up), h = (bounds.height * contentsScale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(Image.maximumSide), h <= Double(Image.maximumSide) else {
            return nil
        }
        return (Int(w), Int(h))
    }

    private func display(dirty: Rect?) throws {
        try withEngineMemory { try draw(dirty: dirty) }
    }

    private func draw(dirty: Rect?) throws {
        try checkModel("display")
        guard !isDisplaying else {
            throw CalunaError.invalid("display: the layer is already displaying (a draw callback cannot display its own layer)")
        }
        isDisplaying = true
        defer { isDisplaying = false }
        displayDirty = nil
        if displayAtRenderTime(dirty: dirty) { return }
        if let d = delegate, try d.display(self) {
            engine?.pendingStats.drawCallbacks += 1
            return
        }
        guard try drawHandler != nil || delegate?.drawsContent(of: self) == true else {
            contents = nil
            return
        }
        guard let (w, h) = backingStorePixelSize else {
            if bounds.width * contentsScale < 1 || bounds.height * contentsScale < 1 { contents = nil; return }
            throw CalunaError.invalid("display: a backing store of \(fmt(bounds.width * contentsScale))×\(fmt(bounds.height * contentsScale)) pixels is too large (at most \(Image.maximumSide) per side)")
        }
        let scale = contentsScale, b = bounds
        // Redraw in place only what is dirty, when the store is still ours and fits.
        var reuse: Image? = nil
        if dirty != nil, let old = contents, old === ownBackingStore, old.width == w, old.height == h { reuse = old }
        let store = try reuse ?? Image(width: w, height: h)
        store.isBackingStore = true
        // The pixels to redraw, aligned outwards to whole pixels.
        var px = (x0: 0, y0: 0, x1: w, y1: h)
        if reuse != nil, let d = dirty {
            let fx0 = ((d.minX - b.minX) * scale).rounded(.down), fy0 = ((d.minY - b.minY) * scale).rounded(.down)
            let fx1 = ((d.maxX - b.minX) * scale).rounded(.up), fy1 = ((d.maxY - b.minY) * scale).rounded(.up)
            px = (Int(min(max(fx0, 0), Double(w))), Int(min(max(fy0, 0), Double(h))),
                  Int(min(max(fx1, 0), Double(w))), Int(min(max(fy1, 0), Double(h))))
        }
        guard px.x1 > px.x0, px.y1 > px.y0 else { return }
        prepare(store, px, opaque: isOpaque, fresh: reuse == nil)
        let clip = Rect(b.minX + Double(px.x0) / scale, b.minY + Double(px.y0) / scale,
                        Double(px.x1 - px.x0) / scale, Double(px.y1 - px.y0) / scale)
        let ctx = DrawingContext(image: store, scale: scale, origin: b.origin, clip: clip)
        engine?.pendingStats.drawCallbacks += 1
        engine?.pendingStats.dirtyPixels += (px.x1 - px.x0) * (px.y1 - px.y0)
        var failure: Error? = nil
        do {
            try delegate?.willDraw(self)
            if let h = drawHandler { try h(self, ctx) } else { try delegate?.draw(self, in: ctx) }
        } catch { failure = error }
        ctx.invalidate()
        cairo_surface_mark_dirty(store.surface)
        if reuse != nil {
            store.version += 1
            store.mipmapChain = nil
            markNeedsCommit()
        } else {
            ownBackingStore = store
            contents = store
        }
        if let failure { throw failure }
    }

    /// Clears the pixels about to be redrawn: transparent, or black when opaque.
    private func prepare(_ store: Image, _ px: (x0: Int, y0: Int, x1: Int, y1: Int), opaque: Bool, fresh: Bool) {
        guard opaque || !fresh else { return }
        let cr = cairo_create(store.surface)
        cairo_rectangle(cr, Double(px.x0), Double(px.y0), Double(px.x1 - px.x0), Double(px.y1 - px.y0))
        if opaque { cairo_set_source_rgb(cr, 0, 0, 0) } else { cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR) }
        cairo_fill(cr)
        cairo_destroy(cr)
    }
}

extension Engine {
    /// Draws every marked layer in the tree (layers outside it wait).
    func displayPass() throws {
        guard !layersNeedingDisplay.isEmpty else { return }
        var errors = FirstError()
        for _ in 0..<4 where !layersNeedingDisplay.isEmpty {
            let marked = layersNeedingDisplay
            layersNeedingDisplay = []
            var waiting: [WeakLayer] = []
            for w in marked {
                guard let l = w.layer, l.needsDisplay else { continue }
                guard isInTree(l) else { waiting.append(w); continue }
                errors.run { try l.displayIfNeeded() }
            }
            layersNeedingDisplay += waiting
            if layersNeedingDisplay.count == waiting.count { break }
        }
        try errors.rethrow()
    }
}
