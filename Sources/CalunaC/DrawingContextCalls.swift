import Caluna
import CalunaBridge
import Glibc

// caluna_context_*: the CGContext a draw callback receives, one C call per
// DrawingContext method (DrawingContext+Paint.swift, +Paths.swift). The
// engine validates every number (NaN, ∞, ±1e8 points, signs); these calls
// check pointers, counts and strings before anything is read. Gradients,
// images, text, renderInContext and snapshots are in DrawingCalls.swift.

extension CEngine {
    /// The live context an id names: only while its draw callback runs.
    func context(_ id: UInt64, _ name: String) throws -> DrawingContext {
        do {
            guard let c = try contexts.object(id) as? DrawingContext, c.isValid else {
                throw CalunaError(.staleHandle, "drawing context id \(hexID(id)) is stale (a context is valid only inside the draw callback that received it)")
            }
            return c
        } catch let e as CalunaError {
            throw CalunaError(e.code, "\(name): \(e.message)")
        }
    }
}

/// The shape of every context call: the engine, then the live context.
func withContext(_ e: OpaquePointer?, _ ctx: UInt64, _ function: String,
                 _ body: (CEngine, DrawingContext) throws -> Void) -> Int32 {
    withEngine(e, function) { ce in try body(ce, try ce.context(ctx, "ctx")) }
}

private func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double) throws -> Color {
    try finite([("r", r), ("g", g), ("b", b), ("a", a)])
    return Color(red: r, green: g, blue: b, alpha: a)
}

// MARK: graphics state

@_cdecl("caluna_context_set_fill_color")
public func caluna_context_set_fill_color(_ e: OpaquePointer?, _ ctx: UInt64, _ r: Double, _ g: Double,
                                          _ b: Double, _ a: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_fill_color") { _, c in try c.setFillColor(try color(r, g, b, a)) }
}

@_cdecl("caluna_context_set_stroke_color")
public func caluna_context_set_stroke_color(_ e: OpaquePointer?, _ ctx: UInt64, _ r: Double, _ g: Double,
                                            _ b: Double, _ a: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_stroke_color") { _, c in try c.setStrokeColor(try color(r, g, b, a)) }
}

@_cdecl("caluna_context_set_alpha")
public func caluna_context_set_alpha(_ e: OpaquePointer?, _ ctx: UInt64, _ alpha: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_alpha") { _, c in try c.setAlpha(alpha) }
}

@_cdecl("caluna_context_set_line_width")
public func caluna_context_set_line_width(_ e: OpaquePointer?, _ ctx: UInt64, _ width: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_line_width") { _, c in try c.setLineWidth(width) }
}

@_cdecl("caluna_context_set_line_cap")
public func caluna_context_set_line_cap(_ e: OpaquePointer?, _ ctx: UInt64, _ cap: UnsafePointer<CChar>?) -> Int32 {
    withContext(e, ctx, "caluna_context_set_line_cap") { _, c in try c.setLineCap(try string(cap, "cap")) }
}

@_cdecl("caluna_context_set_line_join")
public func caluna_context_set_line_join(_ e: OpaquePointer?, _ ctx: UInt64, _ join: UnsafePointer<CChar>?) -> Int32 {
    withContext(e, ctx, "caluna_context_set_line_join") { _, c in try c.setLineJoin(try string(join, "join")) }
}

@_cdecl("caluna_context_set_miter_limit")
public func caluna_context_set_miter_limit(_ e: OpaquePointer?, _ ctx: UInt64, _ limit: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_miter_limit") { _, c in try c.setMiterLimit(limit) }
}

@_cdecl("caluna_context_set_line_dash")
public func caluna_context_set_line_dash(_ e: OpaquePointer?, _ ctx: UInt64, _ phase: Double,
                                         _ lengths: UnsafePointer<Double>?, _ count: UInt) -> Int32 {
    withContext(e, ctx, "caluna_context_set_line_dash") { _, c in
        guard count <= UInt(DrawingContext.maximumDashCount) else {
            throw CalunaError(.invalidArgument, "count \(count) is out of range (0…\(DrawingContext.maximumDashCount))")
        }
        guard count == 0 || lengths != nil else { throw CalunaError(.invalidArgument, "lengths is NULL but count is \(count)") }
        let ls = lengths.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        try c.setLineDash(phase: phase, lengths: ls)
    }
}

@_cdecl("caluna_context_set_should_antialias")
public func caluna_context_set_should_antialias(_ e: OpaquePointer?, _ ctx: UInt64, _ on: Int32) -> Int32 {
    withContext(e, ctx, "caluna_context_set_should_antialias") { _, c in try c.setShouldAntialias(on != 0) }
}

@_cdecl("caluna_context_save_gstate")
public func caluna_context_save_gstate(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_save_gstate") { _, c in try c.saveGState() }
}

@_cdecl("caluna_context_restore_gstate")
public func caluna_context_restore_gstate(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_restore_gstate") { _, c in try c.restoreGState() }
}

@_cdecl("caluna_context_contents_scale")
public func caluna_context_contents_scale(_ e: OpaquePointer?, _ ctx: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withContext(e, ctx, "caluna_context_contents_scale") { _, c in try output(out, "out").pointee = c.scale }
}

// MARK: the current transformation matrix

@_cdecl("caluna_context_translate")
public func caluna_context_translate(_ e: OpaquePointer?, _ ctx: UInt64, _ tx: Double, _ ty: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_translate") { _, c in try c.translateBy(x: tx, y: ty) }
}

@_cdecl("caluna_context_scale")
public func caluna_context_scale(_ e: OpaquePointer?, _ ctx: UInt64, _ sx: Double, _ sy: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_scale") { _, c in try c.scaleBy(x: sx, y: sy) }
}

@_cdecl("caluna_context_rotate")
public func caluna_context_rotate(_ e: OpaquePointer?, _ ctx: UInt64, _ radians: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_rotate") { _, c in try c.rotate(by: radians) }
}

@_cdecl("caluna_context_concat")
public func caluna_context_concat(_ e: OpaquePointer?, _ ctx: UInt64, _ a: Double, _ b: Double, _ cc: Double,
                                  _ d: Double, _ tx: Double, _ ty: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_concat") { _, c in
        try finite([("a", a), ("b", b), ("c", cc), ("d", d), ("tx", tx), ("ty", ty)])
        try c.concatenate(AffineTransform(a: a, b: b, c: cc, d: d, tx: tx, ty: ty))
    }
}

@_cdecl("caluna_context_get_ctm")
public func caluna_context_get_ctm(_ e: OpaquePointer?, _ ctx: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    if let out { for i in 0..<6 { out[i] = 0 } }
    return withContext(e, ctx, "caluna_context_get_ctm") { _, c in
        let o = try output(out, "out")
        let t = try c.currentTransform
        for (i, v) in [t.a, t.b, t.c, t.d, t.tx, t.ty].enumerated() { o[i] = v }
    }
}

// MARK: the current path

@_cdecl("caluna_context_begin_path")
public func caluna_context_begin_path(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_begin_path") { _, c in try c.beginPath() }
}

@_cdecl("caluna_context_move_to")
public func caluna_context_move_to(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_move_to") { _, c in try c.move(to: Point(x, y)) }
}

@_cdecl("caluna_context_add_line_to")
public func caluna_context_add_line_to(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_line_to") { _, c in try c.addLine(to: Point(x, y)) }
}

@_cdecl("caluna_context_add_curve_to")
public func caluna_context_add_curve_to(_ e: OpaquePointer?, _ ctx: UInt64, _ c1x: Double, _ c1y: Double,
                                        _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_curve_to") { _, c in
        try c.addCurve(to: Point(x, y), control1: Point(c1x, c1y), control2: Point(c2x, c2y))
    }
}

@_cdecl("caluna_context_add_quad_curve_to")
public func caluna_context_add_quad_curve_to(_ e: OpaquePointer?, _ ctx: UInt64, _ cx: Double, _ cy: Double,
                                             _ x: Double, _ y: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_quad_curve_to") { _, c in try c.addQuadCurve(to: Point(x, y), control: Point(cx, cy)) }
}

@_cdecl("caluna_context_add_arc")
public func caluna_context_add_arc(_ e: OpaquePointer?, _ ctx: UInt64, _ cx: Double, _ cy: Double, _ radius: Double,
                                   _ startAngle: Double, _ endAngle: Double, _ clockwise: Int32) -> Int32 {
    withContext(e, ctx, "caluna_context_add_arc") { _, c in
        try c.addArc(center: Point(cx, cy), radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise != 0)
    }
}

@_cdecl("caluna_context_add_rect")
public func caluna_context_add_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                    _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_rect") { _, c in try c.addRect(Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_add_ellipse_in_rect")
public func caluna_context_add_ellipse_in_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                               _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_ellipse_in_rect") { _, c in try c.addEllipse(in: Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_add_rounded_rect")
public func caluna_context_add_rounded_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                            _ width: Double, _ height: Double, _ cornerRadius: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_add_rounded_rect") { _, c in
        try c.addRoundedRect(Rect(x, y, width, height), cornerRadius: cornerRadius)
    }
}

@_cdecl("caluna_context_add_path")
public func caluna_context_add_path(_ e: OpaquePointer?, _ ctx: UInt64, _ elements: UnsafeRawPointer?, _ count: UInt) -> Int32 {
    withContext(e, ctx, "caluna_context_add_path") { _, c in try c.addPath(try readPath(elements, count: count, "elements")) }
}

@_cdecl("caluna_context_close_path")
public func caluna_context_close_path(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_close_path") { _, c in try c.closePath() }
}

// MARK: painting

@_cdecl("caluna_context_fill_path")
public func caluna_context_fill_path(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_fill_path") { _, c in try c.fillPath() }
}

@_cdecl("caluna_context_eo_fill_path")
public func caluna_context_eo_fill_path(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_eo_fill_path") { _, c in try c.fillPath(evenOdd: true) }
}

@_cdecl("caluna_context_stroke_path")
public func caluna_context_stroke_path(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_stroke_path") { _, c in try c.strokePath() }
}

@_cdecl("caluna_context_draw_path")
public func caluna_context_draw_path(_ e: OpaquePointer?, _ ctx: UInt64, _ mode: UnsafePointer<CChar>?) -> Int32 {
    withContext(e, ctx, "caluna_context_draw_path") { _, c in try c.drawPath(mode: try string(mode, "mode")) }
}

@_cdecl("caluna_context_fill_rect")
public func caluna_context_fill_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                     _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_fill_rect") { _, c in try c.fillRect(Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_stroke_rect")
public func caluna_context_stroke_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                       _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_stroke_rect") { _, c in try c.strokeRect(Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_clear_rect")
public func caluna_context_clear_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                      _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_clear_rect") { _, c in try c.clearRect(Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_fill_ellipse_in_rect")
public func caluna_context_fill_ellipse_in_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                                _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_fill_ellipse_in_rect") { _, c in try c.fillEllipse(in: Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_stroke_ellipse_in_rect")
public func caluna_context_stroke_ellipse_in_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                                  _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_stroke_ellipse_in_rect") { _, c in try c.strokeEllipse(in: Rect(x, y, width, height)) }
}

// MARK: clipping

@_cdecl("caluna_context_clip")
public func caluna_context_clip(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_clip") { _, c in try c.clip() }
}

@_cdecl("caluna_context_eo_clip")
public func caluna_context_eo_clip(_ e: OpaquePointer?, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_context_eo_clip") { _, c in try c.clip(evenOdd: true) }
}

@_cdecl("caluna_context_clip_to_rect")
public func caluna_context_clip_to_rect(_ e: OpaquePointer?, _ ctx: UInt64, _ x: Double, _ y: Double,
                                        _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_clip_to_rect") { _, c in try c.clip(to: Rect(x, y, width, height)) }
}

@_cdecl("caluna_context_clip_bounding_box")
public func caluna_context_clip_bounding_box(_ e: OpaquePointer?, _ ctx: UInt64,
                                             _ x: UnsafeMutablePointer<Double>?, _ y: UnsafeMutablePointer<Double>?,
                                             _ width: UnsafeMutablePointer<Double>?, _ height: UnsafeMutablePointer<Double>?) -> Int32 {
    x?.pointee = 0; y?.pointee = 0; width?.pointee = 0; height?.pointee = 0
    return withContext(e, ctx, "caluna_context_clip_bounding_box") { _, c in
        let o = [try output(x, "x"), try output(y, "y"), try output(width, "width"), try output(height, "height")]
        let r = try c.clipBoundingBox
        for (p, v) in zip(o, [r.origin.x, r.origin.y, r.size.width, r.size.height]) { p.pointee = v }
    }
}
