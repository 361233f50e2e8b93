import CCairo

/// CATextLayer's drawing. Like Core Animation, the text goes into a backing
/// store of bounds × contentsScale pixels, which is then composited like
/// contents (with the layer's filters): at render scale 2 a contentsScale of 1
/// gives upscaled, softer text, a contentsScale of 2 crisp text.
///
/// The store and the pango layout stay in the layer's `kindCache`: moving,
/// fading or transforming the layer reuses both; a colour change (the
/// foregroundColor animation) redraws the store from the same layout; any
/// other text property, the bounds size or contentsScale lays it out again
/// (counted in `FrameStats.textLayouts`).
final class TextLayerCache {
    /// What the layout depends on: the text state with the plain-string
    /// colour left out, the bounds size and contentsScale.
    struct LayoutKey: Equatable {
        var text: TextLayerState
        var size: Size
        var scale: Double
    }
    let layoutKey: LayoutKey
    /// The PangoLayout, made on a context with the store's matrix.
    let layout: OpaquePointer
    /// Where the layout's origin goes in the store (points; alignment of unwrapped text).
    let origin: Point
    var store: Image
    /// The colour the store was drawn in.
    var color: Color
    /// The layout's estimated cost (the store is charged as an Image).
    let layoutCharge: MemoryCharge

    init(layoutKey: LayoutKey, layout: OpaquePointer, origin: Point, store: Image, color: Color, layoutCharge: MemoryCharge) {
        self.layoutKey = layoutKey; self.layout = layout; self.origin = origin; self.store = store; self.color = color
        self.layoutCharge = layoutCharge
    }

    /// A pango layout's estimated bytes: its lines, runs and glyphs grow
    /// with the text (about 64 bytes per byte of UTF-8), plus a fixed part.
    static func layoutBytes(utf8Count n: Int) -> Int { n * 64 + 4096 }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}

extension Compositor {
    /// Draws the layer's text store over its background and contents.
    mutating func drawText(_ layer: Layer, alpha: Double) throws {
        let text = layer.state.specialised.value.text, b = layer.bounds.standardized
        guard text.hasText, alpha > 0, b.width > 0, b.height > 0 else { return }
        guard text.attributedString != nil || (text.fontSize > 0 && text.foregroundColor.alpha > 0) else { return }
        let cache = try textCache(layer, text, b.size)
        let k = layer.contentsScale
        let source = Rect(0, 0, Double(cache.store.width), Double(cache.store.height))
        let dest = Rect(b.minX, b.minY, source.width / k, source.height / k)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Text stays upright under flipped geometry (CATextLayer honours
        // contentsAreFlipped when it draws).
        if contentsFlipped {
            cairo_translate(cr, 0, dest.minY + dest.maxY)
            cairo_scale(cr, 1, -1)
        }
        stats.layersDrawn += 1
        try drawPatch(cache.store, layer: layer, source: source, dest: dest, alpha: alpha)
    }

    /// The layer's cache, laid out or redrawn if what it depends on changed.
    private mutating func textCache(_ layer: Layer, _ text: TextLayerState, _ size: Size) throws -> TextLayerCache {
        let scale = layer.contentsScale
        // The plain string's colour is the cairo source, not part of the
        // layout; with runs, the layer's font, size and colour are ignored.
        var keyed = text, color = text.foregroundColor
        keyed.foregroundColor = .black
        if text.attributedString != nil {
            (keyed.font, keyed.fontSize, color) = (TextRun.defaultFont, TextRun.defaultFontSize, .black)
        }
        let key = TextLayerCache.LayoutKey(text: keyed, size: size, scale: scale)
        if let c = layer.kindCache as? TextLayerCache, c.layoutKey == key {
            if c.color != color {
                try RenderBand.requireCallingThread()
                c.store = try TextLayerCache.draw(c.layout, at: c.origin, size: size, scale: scale, color: color)
                c.color = color
            }
            return c
        }
        try RenderBand.requireCallingThread()
        let c = try TextLayerCache.make(key, color: color)
        stats.textLayouts += 1
        layer.kindCache = c
        return c
    }
}

extension Layer {
    /// The pixel size of the text store the last render drew for this text
    /// layer (bounds × contentsScale, rounded up); nil before one.
    public var textStorePixelSize: (width: Int, height: Int)? {
        ((presentationLayer ?? self).kindCache as? TextLayerCache).map { ($0.store.width, $0.store.height) }
    }
}

extension TextLayerCache {
    static let api = "CATextLayer"

    /// The store's pixel size for `size` points at `scale`.
    static func pixels(_ size: Size, _ scale: Double) throws -> (Int, Int) {
        let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
        guard w.isFinite, h.isFinite, w <= Double(Image.maximumSide), h <= Double(Image.maximumSide),
              w * h <= Double(Image.maximumPixels) else {
            throw CalunaError.invalid("\(api): a text backing store of \(fmt(w))×\(fmt(h)) pixels (bounds × contentsScale) is too large (at most \(Image.maximumSide) per side and \(Image.maximumPixels) pixels)")
        }
        return (max(Int(w), 1), max(Int(h), 1))
    }

    /// Lays the text out for `key` and draws it.
    static func make(_ key: LayoutKey, color: Color) throws -> TextLayerCache {
        guard TextLayout.fontsAvailable else {
            throw CalunaError(.notSupported, "\(api): fontconfig finds no font at all (install fonts-dejavu-core)")
        }
        let (w, h) = try pixels(key.size, key.scale)
        // The layout is made on a context with the store's matrix, so its
        // hinting and metrics are those of the pixels it will be drawn to.
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else {
            throw CalunaError(.outOfMemory, "\(api): cannot allocate a cairo surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, key.scale, key.scale)
        let n = try TextLayout.checkText(api, string(key.text)).count
        let charge = try MemoryCharge(MemoryLedger.current, layoutBytes(utf8Count: n), "\(api): a text layout")
        let layout = try makeLayout(cr, key.text, key.size)
        let origin = placement(layout, key.text, key.size)
        do {
            let store = try draw(layout, at: origin, size: key.size, scale: key.scale, color: color, pixels: (w, h))
            return TextLayerCache(layoutKey: key, layout: layout, origin: origin, store: store, color: color, layoutCharge: charge)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(layout))
            throw error
        }
    }

    /// The text laid out: the runs joined, or the plain string.
    static func string(_ t: TextLayerState) -> String {
        t.attributedString.map { $0.map(\.text).joined() } ?? t.plainString ?? ""
    }

    /// A PangoLayout for the text state in a box of `size` points.
    static func makeLayout(_ cr: OpaquePointer, _ t: TextLayerState, _ size: Size) throws -> OpaquePointer {
        let runs = t.attributedString
        let bytes = try TextLayout.checkText(api, string(t))
        let fontSize = runs == nil ? t.fontSize : TextRun.defaultFontSize
        let largest = runs?.reduce(fontSize) { max($0, $1.fontSize ?? fontSize) } ?? fontSize
        let layout = try TextLayout.make(cr, api, text: bytes, font: runs == nil ? t.font : TextRun.defaultFont,
                                         size: fontSize, largestSize: largest)
        // Core Text lays out independently of the pixels: unhinted advances
        // keep the line breaks the same at every contentsScale (only the
        // sharpness changes, as in the book's figures 6.2 and 6.3).
        if let ctx = pango_layout_get_context(layout), let opts = cairo_font_options_create() {
            cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
            pango_cairo_context_set_font_options(ctx, opts)
            cairo_font_options_destroy(opts)
            pango_layout_context_changed(layout)
        }
        if let runs {
            do { try applyAttributes(runs, to: layout) } catch {
                g_object_unref(UnsafeMutableRawPointer(layout))
                throw error
            }
        }
        TextLayout.align(layout, t.alignmentMode)
        let ellipsis: PangoEllipsizeMode
        switch t.truncationMode {
        case .none: ellipsis = PANGO_ELLIPSIZE_NONE
        case .start: ellipsis = PANGO_ELLIPSIZE_START
        case .middle: ellipsis = PANGO_ELLIPSIZE_MIDDLE
        case .end: ellipsis = PANGO_ELLIPSIZE_END
        }
        if t.wrapped {
            TextLayout.wrap(layout, width: size.width)
            if ellipsis != PANGO_ELLIPSIZE_NONE {
                // Apple truncates the last line that fits the height.
                pango_layout_set_ellipsize(layout, ellipsis)
                pango_layout_set_height(layout, max(TextLayout.units(size.height), 1))
            }
        } else if ellipsis != PANGO_ELLIPSIZE_NONE {
            // One line per paragraph, cut to the width.
            pango_layout_set_width(layout, TextLayout.units(size.width))
            pango_layout_set_ellipsize(layout, ellipsis)
            pango_layout_set_height(layout, -1)
        }
        return layout
    }

    /// Unwrapped, untruncated text has no pango width: its lines are aligned
    /// among themselves by pango and the block is placed in the bounds here.
    static func placement(_ layout: OpaquePointer, _ t: TextLayerState, _ size: Size) -> Point {
        guard !t.wrapped, t.truncationMode == .none else { return .zero }
        let slack = size.width - TextLayout.size(layout).width
        let f: Double
        switch t.alignmentMode {
        case .left, .justified: f = 0
        case .center: f = 0.5
        case .right: f = 1
        case .natural:
            f = pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL ? 1 : 0
        }
        return Point(slack * f, 0)
    }

    /// Draws `layout` into a new store, the glyphs without a colour of their
    /// own in `color`.
    static func draw(_ layout: OpaquePointer, at origin: Point, size: Size, scale: Double, color: Color,
                     pixels: (Int, Int)? = nil) throws -> Image {
        let (w, h) = try pixels ?? TextLayerCache.pixels(size, scale)
        let store = try Image(width: w, height: h)
        store.isBackingStore = true
        let cr = cairo_create(store.surface)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        let c = color.clamped
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        cairo_move_to(cr, origin.x, origin.y)
        pango_cairo_show_layout(cr, layout)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "\(api): cairo failed to draw the text (\(String(cString: cairo_status_to_string(cairo_status(cr)))))")
        }
        cairo_surface_flush(store.surface)
        return store
    }

    /// Each run's Core Text attributes as pango attributes over its bytes.
    static func applyAttributes(_ runs: [TextRun], to layout: OpaquePointer) throws {
        guard let list = pango_attr_list_new() else { throw CalunaError(.outOfMemory, "\(api): pango could not make attributes") }
        defer { pango_attr_list_unref(list) }
        var start: UInt32 = 0
        let black = Color.black
        for r in runs {
            let end = start + UInt32(r.text.utf8.count)
            defer { start = end }
            guard end > start else { continue }
            func add(_ a: UnsafeMutablePointer<PangoAttribute>?) {
                guard let a else { return }
                a.pointee.start_index = start
                a.pointee.end_index = end
                pango_attr_list_insert(list, a)
            }
            let desc = try TextLayout.fontDescription(r.font ?? TextRun.defaultFont, size: r.fontSize ?? TextRun.defaultFontSize, api)
            add(pango_attr_font_desc_new(desc))
            pango_font_description_free(desc)
            let c = (r.foregroundColor ?? black).clamped
            func u16(_ v: Double) -> UInt16 { UInt16((v * 65535).rounded()) }
            add(pango_attr_foreground_new(u16(c.red), u16(c.green), u16(c.blue)))
            // Pango reads an alpha of 0 as "unset"; 1/65535 is invisible too.
            add(pango_attr_foreground_alpha_new(max(u16(c.alpha), 1)))
            if r.underline { add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
            if r.strikethrough { add(pango_attr_strikethrough_new(1)) }
            if r.kern != 0 { add(pango_attr_letter_spacing_new(Int32((r.kern * Double(PANGO_SCALE)).rounded()))) }
        }
        pango_layout_set_attributes(layout, list)
    }
}
