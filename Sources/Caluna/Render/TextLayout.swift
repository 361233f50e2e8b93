import CCairo

/// Text through pango, in one place for DrawingContext's NSString drawing and
/// CATextLayer: the limits, the checks on text and font names, font
/// descriptions in absolute points (1 font unit = 1 point whatever
/// fontconfig's DPI), and pango layouts with Core Animation's alignment,
/// wrapping and truncation.
enum TextLayout {
    /// Longer strings are refused (UTF-8 bytes): layout cost grows with length.
    static let maximumTextBytes = 1 << 16
    /// Font sizes above this (points) are refused: glyph bitmaps grow with the square.
    static let maximumFontSize = 1000.0

    /// Checks text for pango: bounded, and no NUL (pango would warn on stderr).
    @discardableResult
    static func checkText(_ api: String, _ s: String) throws -> [UInt8] {
        let bytes = Array(s.utf8)
        guard bytes.count <= maximumTextBytes else {
            throw CalunaError.invalid("\(api): text longer than \(maximumTextBytes) bytes (got \(bytes.count))")
        }
        guard !bytes.contains(0) else { throw CalunaError.invalid("\(api): text contains a NUL character") }
        return bytes
    }

    /// Checks a font name and returns its family list: 1…256 bytes, no NUL,
    /// a pango description that names a family ("DejaVu Sans Bold 12").
    @discardableResult
    static func checkFontName(_ api: String, _ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 256, !name.utf8.contains(0) else {
            throw CalunaError.invalid("\(api): a font name must be 1…256 bytes without NUL (got \(name.utf8.count) bytes)")
        }
        guard let desc = pango_font_description_from_string(name) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not parse \"\(name)\"")
        }
        defer { pango_font_description_free(desc) }
        guard let fam = pango_font_description_get_family(desc).map({ String(cString: $0) }), !fam.isEmpty else {
            throw CalunaError.invalid("\(api): \"\(name)\" names no font family")
        }
        return fam
    }

    /// A font description for `name` at `size` points (replacing any size
    /// in the name); the caller frees it.
    static func fontDescription(_ name: String, size: Double, _ api: String) throws -> OpaquePointer {
        guard let desc = pango_font_description_from_string(name) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not parse the font \"\(name)\"")
        }
        pango_font_description_set_absolute_size(desc, size * Double(PANGO_SCALE))
        return desc
    }

    /// The largest font size × (scale of the context)² drawn. Pango asks
    /// FreeType for about that many pixels per em, and FreeType refuses 65,536
    /// or more; cairo then keeps the failed font for the life of the process
    /// and pango warns on stderr. Half of FreeType's limit leaves room for
    /// rotations and rounding: 12-point text up to a scale of 52, 1000-point
    /// text up to 5.7.
    static let maximumScaledFontSize = 32768.0

    /// Refuses `size` points (the largest size the layout will use) on `cr`
    /// past `maximumScaledFontSize`.
    static func checkScaledSize(_ cr: OpaquePointer, _ api: String, size: Double) throws {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        // The largest singular value of the matrix's linear part.
        let sum = m.xx * m.xx + m.yx * m.yx + m.xy * m.xy + m.yy * m.yy, det = m.xx * m.yy - m.xy * m.yx
        let scale = ((sum + (max(sum * sum - 4 * det * det, 0)).squareRoot()) / 2).squareRoot()
        let scaled = size * scale * scale
        guard scaled <= maximumScaledFontSize else {
            throw CalunaError.invalid("\(api): text of \(fmt(size)) points at a scale of \(fmt(scale)) is too large to draw (font size × scale² is \(fmt(scaled)), at most \(fmt(maximumScaledFontSize)))")
        }
    }

    /// A layout on `cr` (whose matrix sets hinting) of `text` in `font` at
    /// `size`; the caller unrefs it. `largestSize`: the largest size of any
    /// run (default `size`), checked against `maximumScaledFontSize`.
    static func make(_ cr: OpaquePointer, _ api: String, text: [UInt8], font: String, size: Double,
                     largestSize: Double? = nil) throws -> OpaquePointer {
        try checkScaledSize(cr, api, size: largestSize ?? size)
        guard let layout = pango_cairo_create_layout(cr) else {
            throw CalunaError(.outOfMemory, "\(api): pango could not make a layout")
        }
        do {
            let desc = try fontDescription(font, size: size, api)
            pango_layout_set_font_description(layout, desc)
            pango_font_description_free(desc)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(layout))
            throw error
        }
        text.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(buf.count)) }
        }
        return layout
    }

    /// Pango widths and heights: Int32 in 1/1024 point (larger never binds anyway).
    static func units(_ points: Double) -> Int32 {
        Int32(min(max(points, 0) * Double(PANGO_SCALE), Double(Int32.max)).rounded(.down))
    }

    /// Word wrap at `width` points (a word wider than that breaks between characters).
    static func wrap(_ layout: OpaquePointer, width: Double) {
        pango_layout_set_width(layout, units(width))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }

    /// Core Animation's alignment modes: natural follows the text's direction
    /// (pango's auto-dir); the others are absolute; justified stretches every
    /// wrapped line but a paragraph's last.
    static func align(_ layout: OpaquePointer, _ mode: TextAlignmentMode) {
        let a: PangoAlignment
        switch mode {
        case .natural, .left, .justified: a = PANGO_ALIGN_LEFT
        case .center: a = PANGO_ALIGN_CENTER
        case .right: a = PANGO_ALIGN_RIGHT
        }
        pango_layout_set_auto_dir(layout, mode == .natural ? 1 : 0)
        pango_layout_set_alignment(layout, a)
        pango_layout_set_justify(layout, mode == .justified ? 1 : 0)
    }

    /// The logical size in points.
    static func size(_ layout: OpaquePointer) -> Size {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return Size(Double(w) / Double(PANGO_SCALE), Double(h) / Double(PANGO_SCALE))
    }

    /// True when fontconfig knows at least one font family (checked once:
    /// without any, pango draws boxes and there is nothing to substitute).
    static let fontsAvailable: Bool = {
        guard let map = pango_cairo_font_map_get_default() else { return false }
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>? = nil
        var n: Int32 = 0
        pango_font_map_list_families(map, &families, &n)
        g_free(families)
        return n > 0
    }()

    /// Lower-cased family names fontconfig knows (through pango's font map).
    static func installedFamilies() -> Set<String> {
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
}
