import CCairo

// Text in a DrawingContext through pango (UIKit's NSString drawing, which
// draw callbacks use on iOS). Sizes are absolute: 1 font unit = 1 point
// whatever fontconfig's DPI, and the fill colour and alpha paint the glyphs.

extension DrawingContext {
    /// Longer strings are refused (UTF-8 bytes): layout cost grows with length.
    public static let maximumTextBytes = 1 << 16
    /// Font sizes above this (points) are refused: glyph bitmaps grow with the square.
    public static let maximumFontSize = 1000.0

    /// Generic family names fontconfig always resolves.
    private static let genericFamilies: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji",
    ]

    /// Sets the font: `name` is a family ("DejaVu Sans", "monospace") or a pango
    /// description whose family and style are used ("DejaVu Serif Bold Italic");
    /// `size` in points (> 0) replaces any size in `name`. A family that is not
    /// installed is an error rather than a silent fallback. Default "DejaVu Sans" 12.
    public func setFont(name: String, size: Double) throws {
        _ = try live("CGContext.setFont")
        let api = "CGContext.setFont"
        let size = try finite(api, "size", size)
        guard size > 0, size <= DrawingContext.maximumFontSize else {
            throw CalunaError.invalid("\(api): size must be in (0, \(fmt(DrawingContext.maximumFontSize))] points (got \(size))")
        }
        guard !name.isEmpty, name.utf8.count <= 256, !name.utf8.contains(0) else {
            throw CalunaError.invalid("\(api): name must be a font family of 1…256 bytes without NUL")
        }
        guard let desc = pango_font_description_from_string(name) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not parse \"\(name)\"")
        }
        defer { pango_font_description_free(desc) }
        guard let fam = pango_font_description_get_family(desc).map({ String(cString: $0) }), !fam.isEmpty else {
            throw CalunaError.invalid("\(api): \"\(name)\" names no font family")
        }
        let installed = DrawingContext.installedFamilies()
        let wanted = fam.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
        guard wanted.contains(where: { installed.contains($0) || DrawingContext.genericFamilies.contains($0) }) else {
            throw CalunaError.invalid("\(api): font family \"\(fam)\" is not installed")
        }
        state.fontName = name
        state.fontSize = size
    }

    /// Lower-cased family names fontconfig knows (through pango's font map).
    private static func installedFamilies() -> Set<String> {
        guard let map = pango_cairo_font_map_get_default() else { return [] }
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>? = nil
        var n: Int32 = 0
        pango_font_map_list_families(map, &families, &n)
        guard let families else { return [] }
        defer { g_free(families) }
        var out = Set<String>()
        for i in 0..<Int(max(n, 0)) {
            if let f = families[i], let s = pango_font_family_get_name(f) { out.insert(String(cString: s).lowercased()) }
        }
        return out
    }

    /// Checks text for pango: bounded, and no NUL (pango would warn on stderr).
    private func checkedText(_ api: String, _ s: String) throws -> [UInt8] {
        let bytes = Array(s.utf8)
        guard bytes.count <= DrawingContext.maximumTextBytes else {
            throw CalunaError.invalid("\(api): text longer than \(DrawingContext.maximumTextBytes) bytes")
        }
        guard !bytes.contains(0) else { throw CalunaError.invalid("\(api): text contains a NUL character") }
        return bytes
    }

    /// A pango layout of `text` in the current font, wrapped at `width` points
    /// if given; freed after `body`.
    private func withLayout<T>(_ cr: OpaquePointer, _ api: String, _ text: [UInt8], width: Double?,
                               alignment: PangoAlignment = PANGO_ALIGN_LEFT, justify: Bool = false,
                               _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let layout = pango_cairo_create_layout(cr) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not make a layout")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        guard let desc = pango_font_description_from_string(state.fontName) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not parse the font")
        }
        pango_font_description_set_absolute_size(desc, state.fontSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        text.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(buf.count)) }
        }
        if let width {
            // Pango widths are Int32 in 1/1024 point; wider than that never wraps anyway.
            let units = min(width * Double(PANGO_SCALE), Double(Int32.max))
            pango_layout_set_width(layout, Int32(units))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_alignment(layout, alignment)
        pango_layout_set_justify(layout, justify ? 1 : 0)
        return try body(layout)
    }

    private func optionalWidth(_ api: String, _ width: Double?) throws -> Double? {
        guard let width else { return nil }
        let w = try coordinate(api, "width", width)
        guard w >= 0 else { throw CalunaError.invalid("\(api): width must be ≥ 0 (got \(w))") }
        return w
    }

    /// NSString sizeWithAttributes / boundingRectWithSize: the logical size of
    /// the text in points (line height included), wrapped at `width` if given.
    public func textSize(_ s: String, width: Double? = nil) throws -> Size {
        let cr = try live("CGContext.textSize")
        let api = "CGContext.textSize"
        let text = try checkedText(api, s), w = try optionalWidth(api, width)
        return try withLayout(cr, api, text, width: w) { layout in
            var pw: Int32 = 0, ph: Int32 = 0
            pango_layout_get_size(layout, &pw, &ph)
            return Size(Double(pw) / Double(PANGO_SCALE), Double(ph) / Double(PANGO_SCALE))
        }
    }

    /// NSString drawAtPoint: one unwrapped layout (newlines break lines) whose
    /// logical rectangle's top-left corner is `p` — the first line's top, not
    /// its baseline. Fill colour and alpha; the current path is kept.
    public func showText(_ s: String, at p: Point) throws {
        let cr = try live("CGContext.showText")
        let api = "CGContext.showText"
        let text = try checkedText(api, s), p = try checked(api, "point", p)
        try withLayout(cr, api, text, width: nil) { layout in
            preservingPath(cr) {
                setSource(cr, state.fillColor)
                cairo_move_to(cr, p.x, p.y)
                pango_cairo_show_layout(cr, layout)
            }
        }
        try checkStatus(cr, api)
    }

    /// NSString drawInRect:withAttributes: word-wrapped at the rect's width
    /// (a word wider than the rect breaks between characters), top-aligned,
    /// clipped to the rect. `alignment`: "left", "center", "right" or "justified".
    public func drawText(_ s: String, in rect: Rect, alignment: String = "left") throws {
        let cr = try live("CGContext.drawText")
        let api = "CGContext.drawText"
        let text = try checkedText(api, s), r = try checked(api, "rect", rect).standardized
        let align: PangoAlignment, justify: Bool
        switch alignment {
        case "left": (align, justify) = (PANGO_ALIGN_LEFT, false)
        case "center": (align, justify) = (PANGO_ALIGN_CENTER, false)
        case "right": (align, justify) = (PANGO_ALIGN_RIGHT, false)
        case "justified": (align, justify) = (PANGO_ALIGN_LEFT, true)
        default:
            throw CalunaError.invalid("\(api): alignment must be \"left\", \"center\", \"right\" or \"justified\" (got \"\(alignment)\")")
        }
        guard r.width > 0, r.height > 0 else { return }
        try withLayout(cr, api, text, width: r.width, alignment: align, justify: justify) { layout in
            preservingPath(cr) {
                cairo_save(cr)
                cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
                cairo_clip(cr)
                setSource(cr, state.fillColor)
                cairo_move_to(cr, r.origin.x, r.origin.y)
                pango_cairo_show_layout(cr, layout)
                cairo_restore(cr)
            }
        }
        try checkStatus(cr, api)
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
