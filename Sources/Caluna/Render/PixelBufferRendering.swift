extension Compositor {
    /// A pixel buffer layer's frame, drawn as its contents (gravity,
    /// contentsRect, filters; the compositor's clip, mask and transform
    /// around it). The frame callback runs first when a new frame is due.
    mutating func drawPixelBuffer(_ layer: Layer, alpha: Double) throws {
        // The store is made on first use (kept on the model layer).
        if RenderBand.isBand, !(layer.modelLayer.kindCache is PixelBufferStore) { try RenderBand.requireCallingThread() }
        try layer.updateFrame(stats: &stats)
        guard let frame = layer.pixelBufferStore.frame else { return }
        try drawContents(frame, of: layer, alpha: alpha)
    }
}

extension Layer {
    /// The buffer size a frame callback draws: pixelWidth × pixelHeight, or
    /// bounds × contentsScale (rounded up); nil when that is empty.
    var pixelBufferSize: (width: Int, height: Int)? {
        let st = state.specialised.value.pixelBuffer
        let w = st.pixelWidth > 0 ? st.pixelWidth : (bounds.width * contentsScale).rounded(.up)
        let h = st.pixelHeight > 0 ? st.pixelHeight : (bounds.height * contentsScale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1 else { return nil }
        guard w <= Double(Image.maximumSide), h <= Double(Image.maximumSide) else { return (Int.max, Int.max) }
        return (Int(w), Int(h))
    }

    /// Runs the frame callback (the host's, else the delegate's) when a frame
    /// is due: always without retained backing, otherwise when there is none
    /// yet, after setNeedsDisplay, or when the buffer size changed.
    func updateFrame(stats: inout FrameStats) throws {
        let model = modelLayer, store = pixelBufferStore
        let delegate = model.delegate as? PixelBufferLayerDelegate
        guard store.frameHandler != nil || delegate != nil, let (w, h) = pixelBufferSize else { return }
        let retained = state.specialised.value.pixelBuffer.retainedBacking
        let sizeChanged = store.frame.map { $0.width != w || $0.height != h } ?? true
        guard !retained || store.needsFrame || sizeChanged else { return }
        let render = engine?.renderSerial ?? 0
        guard render == 0 || store.askedInRender != render else { return }
        try RenderBand.requireCallingThread()
        store.askedInRender = render
        try Image.checkSize(w, h, "PixelBufferLayer")
        let buffer = try PixelBuffer(width: w, height: h)
        defer { buffer.invalidate() }
        // The layer's own time: speed 0 pauses a frame source, timeOffset seeks (CAMediaTiming).
        let time = model.localTime(atMediaTime: engine?.mediaTime ?? 0)
        var drew = true, returned: Image? = nil
        try model.runRenderTimeCallback {
            if let handler = store.frameHandler {
                try handler(model, buffer, time)
            } else if let delegate {
                (drew, returned) = try delegate.drawFrame(of: model, into: buffer, time: time)
            }
        }
        guard drew else { return }
        let shown = returned ?? buffer.image
        stats.drawCallbacks += 1
        store.framesDrawn += 1
        store.frame = shown
        store.needsFrame = false
    }
}
