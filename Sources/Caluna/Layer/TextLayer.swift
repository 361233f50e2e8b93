/// CATextLayer (chapter 6, listings 6.2–6.4): a string or an attributed
/// string laid out with pango in the layer's bounds, first line at the top.
/// The drawing and its cache are in Render/TextRendering.swift.
public struct TextLayerState: Equatable {
    /// The plain string (`string` when no attributed string is set).
    public var plainString: String? = nil
    /// The attributed string (NSAttributedString): runs laid out one after
    /// another. When set, the layer's font, fontSize and foregroundColor are
    /// ignored (Apple).
    public var attributedString: [TextRun]? = nil
    /// Font name: a family ("DejaVu Sans") or a pango description with style
    /// ("DejaVu Sans Bold Oblique"); fontconfig substitutes missing families
    /// ("Helvetica" → DejaVu Sans on Debian).
    public var font = "Helvetica"
    /// Points; animatable.
    public var fontSize = 36.0
    /// Animatable.
    public var foregroundColor = Color.white
    /// Key "wrapped" (Apple's KVC key; the getter is isWrapped).
    public var wrapped = false
    public var alignmentMode = TextAlignmentMode.natural
    public var truncationMode = TextTruncationMode.none
    /// Accepted and stored; pango positions glyphs the same either way.
    public var allowsFontSubpixelQuantization = false

    /// `string` as the property table shows it: the plain string, or the
    /// attributed string's characters. Setting it replaces either.
    public var string: String? {
        get { attributedString.map { $0.map(\.text).joined() } ?? plainString }
        set { plainString = newValue; attributedString = nil }
    }

    /// The text the layer shows, as one string, and whether anything shows.
    var hasText: Bool { !(string ?? "").isEmpty }
}

/// One run of an attributed string: its characters and the Core Text
/// attributes caluna draws. Unset attributes take Core Text's defaults
/// (Helvetica 12 pt, opaque black), never the layer's.
public struct TextRun: Equatable, Sendable {
    public var text: String
    /// kCTFontAttributeName's name (as TextLayerState.font); nil: Helvetica.
    public var font: String?
    /// kCTFontAttributeName's size, points; nil: 12.
    public var fontSize: Double?
    /// kCTForegroundColorAttributeName; nil: opaque black.
    public var foregroundColor: Color?
    /// kCTUnderlineStyleAttributeName = kCTUnderlineStyleSingle (in the run's colour).
    public var underline = false
    /// NSStrikethroughStyleAttributeName = single.
    public var strikethrough = false
    /// kCTKernAttributeName: extra space after each character, points.
    public var kern = 0.0

    public init(_ text: String, font: String? = nil, fontSize: Double? = nil, foregroundColor: Color? = nil,
                underline: Bool = false, strikethrough: Bool = false, kern: Double = 0) {
        self.text = text; self.font = font; self.fontSize = fontSize; self.foregroundColor = foregroundColor
        self.underline = underline; self.strikethrough = strikethrough; self.kern = kern
    }

    public static let defaultFont = "Helvetica"
    public static let defaultFontSize = 12.0
    /// An attributed string has at most this many runs.
    public static let maximumRuns = 4096
    /// kern beyond ± this many points is refused.
    public static let maximumKern = 1000.0
}

/// alignmentMode: kCAAlignmentNatural, Left, Right, Center, Justified.
public enum TextAlignmentMode: String, CaseIterable, Sendable, StringEnumProperty {
    case natural, left, right, center, justified
}

/// truncationMode: kCATruncationNone, Start, Middle, End.
public enum TextTruncationMode: String, CaseIterable, Sendable, StringEnumProperty {
    case none, start, middle, end
}

extension TextLayerState {
    /// Checks a plain string: at most TextLayout.maximumTextBytes bytes of
    /// UTF-8, no NUL.
    static func checkString(_ key: String, _ s: String) throws {
        try TextLayout.checkText(key, s)
    }

    static func checkFontSize(_ key: String, _ v: Double) throws {
        guard v >= 0, v <= TextLayout.maximumFontSize else {
            throw CalunaError.invalid("\(key) must be in [0, \(fmt(TextLayout.maximumFontSize))] points (got \(fmt(v)))")
        }
    }

    /// Checks runs before they are stored (Lua, C and Swift callers). Errors
    /// name a run "runs[1]" (Lua, from 1) or "runs[0]" (C, from 0).
    public static func checkRuns(_ runs: [TextRun], _ api: String = "attributedString", zeroBased: Bool = false) throws {
        guard runs.count <= TextRun.maximumRuns else {
            throw CalunaError.invalid("\(api): \(runs.count) runs is more than the \(TextRun.maximumRuns) allowed")
        }
        var bytes = 0
        for (i, r) in runs.enumerated() {
            let what = zeroBased ? "runs[\(i)]" : "\(api): runs[\(i + 1)]"
            bytes += r.text.utf8.count
            guard bytes <= TextLayout.maximumTextBytes else {
                throw CalunaError.invalid("\(api): the runs hold more than \(TextLayout.maximumTextBytes) bytes of text")
            }
            try TextLayout.checkText("\(what).text", r.text)
            if let f = r.font { try TextLayout.checkFontName("\(what).font", f) }
            if let s = r.fontSize {
                guard s.isFinite, s > 0, s <= TextLayout.maximumFontSize else {
                    throw CalunaError.invalid("\(what).fontSize must be in (0, \(fmt(TextLayout.maximumFontSize))] points (got \(s))")
                }
            }
            if let c = r.foregroundColor, !c.isFinite {
                throw CalunaError.invalid("\(what).foregroundColor must be finite (got NaN or infinity)")
            }
            guard r.kern.isFinite, abs(r.kern) <= TextRun.maximumKern else {
                throw CalunaError.invalid("\(what).kern must be within ±\(fmt(TextRun.maximumKern)) points (got \(r.kern))")
            }
        }
    }
}

extension Layer {
    /// The attributed string (nil when the layer shows a plain string or none).
    public var attributedString: [TextRun]? { state.specialised.value.text.attributedString }

    /// Sets `string` to an attributed string (nil clears it). Not animatable:
    /// like a `string` change, it runs no action.
    public func setAttributedString(_ runs: [TextRun]?, api: String = "setAttributedString", zeroBased: Bool = false) throws {
        try checkModel(api)
        guard kind == .textLayer else {
            throw CalunaError(.typeMismatch, "\(api): \(kind.className) has no attributed string (only CATextLayer)")
        }
        if let runs { try TextLayerState.checkRuns(runs, api, zeroBased: zeroBased) }
        state.specialised.value.text.plainString = nil
        state.specialised.value.text.attributedString = runs
        changed("string")
    }
}

extension LayerProperties {
    static let textLayer: [LayerProperty] = [
        .specialised("string", \.text.string, animatable: false) { s in
            if let s { try TextLayerState.checkString("string", s) }
        },
        .specialised("font", \.text.font, animatable: false) { try TextLayout.checkFontName("font", $0) },
        .specialised("fontSize", \.text.fontSize, animatable: true) { try TextLayerState.checkFontSize("fontSize", $0) },
        .specialised("foregroundColor", \.text.foregroundColor, animatable: true),
        .specialised("wrapped", \.text.wrapped, animatable: false),
        .specialisedChoice("alignmentMode", \.text.alignmentMode),
        .specialisedChoice("truncationMode", \.text.truncationMode),
        .specialised("allowsFontSubpixelQuantization", \.text.allowsFontSubpixelQuantization, animatable: false),
    ]
}
