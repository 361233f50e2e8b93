import CCairo

// Text in a DrawingContext through pango (UIKit's NSString drawing, which
// draw callbacks use on iOS). Sizes are absolute: 1 font unit = 1 point
// whatever fontconfig's DPI, and the fill colour and alpha paint the glyphs.

extension DrawingContext {
    /// Longer strings are refused (UTF-8 bytes): layout cost grows with length.
    public static let maximumTextBytes = TextLayout.maximumTextBytes
    /// Font sizes above this (points) are refused: glyph bitmaps grow with the square.
    public static let maximumFontSize = TextLayout.maximumFontSize

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
        let fam = try TextLayout.checkFontName(api, name)
        let installed = TextLayout.installedFamilies()
        let wanted = fam.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
        guard wanted.contains(where: { installed.contains($0) || DrawingContext.genericFamilies.contains($0) }) else {
            throw CalunaError.invalid("\(api): font family \"\(fam)\" is not installed")
        }
        state.fontName = name
        state.fontSize = size
    }

    private func checkedText(_ api: String, _ s: String) throws -> [UInt8] { try TextLayout.checkText(api, s) }

    /// A pango layout of `text` in the current font, wrapped at `width` points
    /// if given; freed after `body`.
    private func withLayout<T>(_ cr: OpaquePointer, _ api: String, _ text: [UInt8], width: Double?,
                               alignment: TextAlignmentMode = .left,
                               _ body: (OpaquePointer) throws -> T) throws -> T {
        let layout = try TextLayout.make(cr, api, text: text, font: state.fontName, size: state.fontSize)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        if let width { TextLayout.wrap(layout, width: width) }
        TextLayout.align(layout, alignment)
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
        return try withLayout(cr, api, text, width: w) { TextLayout.size($0) }
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
        guard let align = TextAlignmentMode(rawValue: alignment), align != .natural else {
            throw CalunaError.invalid("\(api): alignment must be \"left\", \"center\", \"right\" or \"justified\" (got \"\(alignment)\")")
        }
        guard r.width > 0, r.height > 0 else { return }
        try withLayout(cr, api, text, width: r.width, alignment: align) { layout in
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
