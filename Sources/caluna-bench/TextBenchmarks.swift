import Caluna
import CCairo
import Glibc

/// Issue #9's text rows: listing 6.2's label (a 300×200 CATextLayer, DejaVu
/// Sans 15, wrapped and justified) rendered once per frame, beside raw
/// pango/cairo laying the same paragraph out and drawing it each frame.
/// text-relayout changes the string every frame (caluna lays out again);
/// text-move changes only the position (caluna reuses its cached layout and
/// store, the immediate-mode peer still lays out). Their ratio is the point:
/// moving must be far cheaper than relayout.
class TextFrames: CairoPeerBenchmark {
    class var name: String { "text-relayout" }
    static let peer = "pango"
    static let width = 320.0, height = 240.0
    static let strings = [
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius in, "
            + "facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque. Nunc elementum, "
            + "libero ut porttitor dictum, diam odio congue lacus, vel fringilla sapien diam at purus. Etiam "
            + "suscipit pretium nunc sit amet lobortis",
        "Etiam suscipit pretium nunc sit amet lobortis. Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
            + "Quisque massa arcu, eleifend vel varius in, facilisis pulvinar leo. Nunc quis nunc at mauris pharetra "
            + "condimentum ut ac neque. Nunc elementum, libero ut porttitor dictum, diam odio congue lacus, vel "
            + "fringilla sapien diam at purus",
    ]
    let engine: Engine
    let text: Layer
    /// Frames each side has drawn (both sides run equally often).
    var calunaFrames = 0, peerFrames = 0
    /// Layouts the timed caluna frames made (stats.textLayouts summed).
    var layouts = 0
    /// What changes per frame: the string (relayout) or the position (move).
    var changesString: Bool { true }
    var detail: String { "300x200 15pt justified" }

    required init() throws {
        engine = try Engine.singleThreaded(size: Size(TextFrames.width, TextFrames.height), scale: 1)
        engine.root.backgroundColor = .white
        text = engine.makeLayer(kind: .textLayer)
        text.frame = Rect(10, 20, 300, 200)
        for (k, v): (String, Value) in [("foregroundColor", .color(.black)), ("alignmentMode", .string("justified")),
                                         ("wrapped", .bool(true)), ("font", .string("DejaVu Sans")),
                                         ("fontSize", .number(15)), ("string", .string(TextFrames.strings[0]))] {
            try text.setValue(v, forKeyPath: k)
        }
        try engine.root.addSublayer(text)
    }

    /// The frame's string and origin for frame `i`.
    func state(_ i: Int) -> (String, Point) {
        changesString ? (TextFrames.strings[i % 2], Point(10, 20)) : (TextFrames.strings[0], Point(10 + Double(i % 2), 20))
    }

    func runCaluna() throws {
        calunaFrames += 1
        let (s, o) = state(calunaFrames)
        try engine.withoutActions {
            if changesString { try text.setValue(.string(s), forKeyPath: "string") } else { text.frame.origin = o }
        }
        _ = try engine.render()
        layouts += engine.stats.textLayouts
    }

    func runPeer() throws {
        peerFrames += 1
        cairo_surface_destroy(try peerRender())
    }

    /// Raw pango/cairo: white frame, the paragraph laid out at 300 pt with the
    /// same (unhinted) metrics and drawn at the layer's origin.
    func peerRender() throws -> OpaquePointer {
        let (s, o) = state(peerFrames)
        let surface = try cairoSurface(TextFrames.width, TextFrames.height)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_translate(cr, o.x, o.y)
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let opts = cairo_font_options_create()!
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pango_layout_get_context(layout), opts)
        cairo_font_options_destroy(opts)
        pango_layout_context_changed(layout)
        let desc = pango_font_description_from_string("DejaVu Sans")!
        pango_font_description_set_absolute_size(desc, 15 * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        pango_layout_set_width(layout, 300 * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_justify(layout, 1)
        pango_layout_set_text(layout, s, -1)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_move_to(cr, 0, 0)
        pango_cairo_show_layout(cr, layout)
        return surface
    }

    func check() throws -> String {
        let mine = RGBA(try engine.render())
        let surface = try peerRender()
        defer { cairo_surface_destroy(surface) }
        return try comparePictures(caluna: mine, peer: RGBA(cairoSurface: surface), peerName: Self.peer, tolerance: 2)
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "layouts/frame " + fixed(Double(layouts) / Double(max(calunaFrames, 1)), 2)
    }
}

/// The same label moved by a point each frame: no layout, one composite.
final class TextMove: TextFrames {
    override class var name: String { "text-move" }
    override var changesString: Bool { false }
    override var detail: String { "300x200 moved per frame" }

    override func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        let own = super.remark(t, earlier: earlier) ?? ""
        guard let r = earlier[TextFrames.name] else { return own }
        return own + "; move/relayout " + fixed(t.caluna / r.caluna, 2)
    }
}
