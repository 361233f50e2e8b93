import CCairo

/// The part of Core Graphics' graphics state that cairo does not keep: cairo
/// has one source, CG a fill and a stroke colour and a global alpha. Saved
/// and restored with cairo's own state by saveGState/restoreGState.
struct DrawingState {
    var fillColor = Color.black
    var strokeColor = Color.black
    var alpha = 1.0
    var fontName = "DejaVu Sans"
    var fontSize = 12.0
}

extension DrawingContext {
    /// saveGState nests at most this deep (each level costs memory).
    public static let maximumSaveDepth = 4096

    // MARK: graphics state

    /// CGContextSetFillColorWithColor (default black). Components are clamped to 0…1.
    public func setFillColor(_ c: Color) throws {
        _ = try live("CGContext.setFillColor")
        guard c.isFinite else { throw CalunaError.invalid("CGContext.setFillColor: colour components must be finite") }
        state.fillColor = c.clamped
    }

    /// CGContextSetStrokeColorWithColor (default black).
    public func setStrokeColor(_ c: Color) throws {
        _ = try live("CGContext.setStrokeColor")
        guard c.isFinite else { throw CalunaError.invalid("CGContext.setStrokeColor: colour components must be finite") }
        state.strokeColor = c.clamped
    }

    /// CGContextSetAlpha: multiplies everything painted afterwards (0…1, default 1).
    public func setAlpha(_ a: Double) throws {
        _ = try live("CGContext.setAlpha")
        let a = try finite("CGContext.setAlpha", "alpha", a)
        guard a >= 0, a <= 1 else { throw CalunaError.invalid("CGContext.setAlpha: alpha must be in 0…1 (got \(a))") }
        state.alpha = a
    }

    /// CGContextSetLineWidth in user-space points at stroke time (default 1;
    /// 0 strokes a one-pixel hairline, as Core Graphics does).
    public func setLineWidth(_ w: Double) throws {
        let cr = try live("CGContext.setLineWidth")
        let w = try coordinate("CGContext.setLineWidth", "width", w)
        guard w >= 0 else { throw CalunaError.invalid("CGContext.setLineWidth: width must be ≥ 0 (got \(w))") }
        cairo_set_line_width(cr, w)
    }

    /// CGContextSetLineCap: "butt" (default), "round" or "square".
    public func setLineCap(_ s: String) throws {
        let cr = try live("CGContext.setLineCap")
        guard let cap = LineCap(rawValue: s) else {
            throw CalunaError.invalid("CGContext.setLineCap: cap must be \"butt\", \"round\" or \"square\" (got \"\(s)\")")
        }
        cairo_set_line_cap(cr, cap.cairoValue)
    }

    /// CGContextSetLineJoin: "miter" (default), "round" or "bevel".
    public func setLineJoin(_ s: String) throws {
        let cr = try live("CGContext.setLineJoin")
        guard let join = LineJoin(rawValue: s) else {
            throw CalunaError.invalid("CGContext.setLineJoin: join must be \"miter\", \"round\" or \"bevel\" (got \"\(s)\")")
        }
        cairo_set_line_join(cr, join.cairoValue)
    }

    /// CGContextSetMiterLimit (default 10): miter length over line width
    /// beyond which a miter join is bevelled; must be > 0.
    public func setMiterLimit(_ m: Double) throws {
        let cr = try live("CGContext.setMiterLimit")
        let m = try coordinate("CGContext.setMiterLimit", "limit", m)
        guard m > 0 else { throw CalunaError.invalid("CGContext.setMiterLimit: limit must be > 0 (got \(m))") }
        cairo_set_miter_limit(cr, m)
    }

    /// CGContextSetLineDash: alternating on/off lengths in points, starting
    /// `phase` points into the pattern. An empty array strokes solid lines.
    public func setLineDash(phase: Double, lengths: [Double]) throws {
        let cr = try live("CGContext.setLineDash")
        let api = "CGContext.setLineDash"
        let phase = try coordinate(api, "phase", phase)
        guard lengths.count <= DrawingContext.maximumDashCount else {
            throw CalunaError.invalid("\(api): at most \(DrawingContext.maximumDashCount) lengths (got \(lengths.count))")
        }
        var total = 0.0
        for (i, v) in lengths.enumerated() {
            let v = try coordinate(api, "length \(i + 1)", v)
            guard v >= 0 else { throw CalunaError.invalid("\(api): length \(i + 1) must be ≥ 0 (got \(v))") }
            total += v
        }
        guard lengths.isEmpty || total > 0 else { throw CalunaError.invalid("\(api): the lengths must not all be 0") }
        lengths.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32(lengths.count), phase) }
    }

    /// CGContextSetShouldAntialias (default true).
    public func setShouldAntialias(_ on: Bool) throws {
        let cr = try live("CGContext.setShouldAntialias")
        cairo_set_antialias(cr, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// CGContextSaveGState: pushes the transform, clip, line style, colours,
    /// alpha and font (not the current path, as in Core Graphics).
    public func saveGState() throws {
        let cr = try live("CGContext.saveGState")
        guard savedStates.count < DrawingContext.maximumSaveDepth else {
            throw CalunaError.invalid("CGContext.saveGState: more than \(DrawingContext.maximumSaveDepth) nested saves")
        }
        cairo_save(cr)
        try checkStatus(cr, "CGContext.saveGState")
        savedStates.append(state)
    }

    /// CGContextRestoreGState: pops what the matching saveGState pushed.
    public func restoreGState() throws {
        let cr = try live("CGContext.restoreGState")
        guard let s = savedStates.popLast() else {
            throw CalunaError.invalid("CGContext.restoreGState: no saveGState to restore")
        }
        cairo_restore(cr)
        state = s
    }

    // MARK: the current transformation matrix

    /// CGContextTranslateCTM.
    public func translateBy(x: Double, y: Double) throws {
        let cr = try live("CGContext.translateBy")
        let x = try coordinate("CGContext.translateBy", "x", x), y = try coordinate("CGContext.translateBy", "y", y)
        try concat(cr, AffineTransform.translation(x, y), "CGContext.translateBy")
    }

    /// CGContextScaleCTM (a zero factor is refused: nothing could be drawn or undone).
    public func scaleBy(x: Double, y: Double) throws {
        let cr = try live("CGContext.scaleBy")
        let sx = try coordinate("CGContext.scaleBy", "x", x), sy = try coordinate("CGContext.scaleBy", "y", y)
        guard sx != 0, sy != 0 else { throw CalunaError.invalid("CGContext.scaleBy: scale factors must not be 0") }
        try concat(cr, AffineTransform.scale(sx, sy), "CGContext.scaleBy")
    }

    /// CGContextRotateCTM: positive radians turn clockwise on screen (y down).
    public func rotate(by radians: Double) throws {
        let cr = try live("CGContext.rotate")
        let a = try angle("CGContext.rotate", "angle", radians)
        try concat(cr, AffineTransform.rotation(a), "CGContext.rotate")
    }

    /// CGContextConcatCTM: `t` applies first, then the current transform.
    public func concatenate(_ t: AffineTransform) throws {
        let cr = try live("CGContext.concatenate")
        guard t.isFinite, t.inverted() != nil else {
            throw CalunaError.invalid("CGContext.concatenate: the transform must be finite and invertible")
        }
        try concat(cr, t, "CGContext.concatenate")
    }

    /// Applies `t` in user space, refusing a result cairo could not invert
    /// (cairo would put the context in a permanent error state instead).
    private func concat(_ cr: OpaquePointer, _ t: AffineTransform, _ api: String) throws {
        var m = t.cairoMatrix
        var current = cairo_matrix_t()
        cairo_get_matrix(cr, &current)
        var result = cairo_matrix_t()
        cairo_matrix_multiply(&result, &m, &current)
        var inverse = result
        let parts = [result.xx, result.yx, result.xy, result.yy, result.x0, result.y0]
        guard parts.allSatisfy({ $0.isFinite && abs($0) < 1e15 }),
              cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS,
              [inverse.xx, inverse.yx, inverse.xy, inverse.yy, inverse.x0, inverse.y0].allSatisfy({ $0.isFinite && abs($0) < 1e15 })
        else {
            throw CalunaError.invalid("\(api): the resulting transform would be degenerate or out of range")
        }
        cairo_set_matrix(cr, &result)
    }

    /// CGContextGetCTM relative to the context's starting space (identity at
    /// the start; the points → pixels scale is not included).
    public var currentTransform: AffineTransform {
        get throws {
            let cr = try live("CGContext.currentTransform")
            var m = cairo_matrix_t(), baseInverse = baseMatrix
            cairo_get_matrix(cr, &m)
            cairo_matrix_invert(&baseInverse)
            var u = cairo_matrix_t()
            cairo_matrix_multiply(&u, &m, &baseInverse)
            return AffineTransform(a: u.xx, b: u.yx, c: u.xy, d: u.yy, tx: u.x0, ty: u.y0)
        }
    }

    // MARK: painting (each consumes the current path, as in Core Graphics)

    /// Sets cairo's source to a colour times the context alpha.
    func setSource(_ cr: OpaquePointer, _ c: Color) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * state.alpha)
    }

    private func fill(_ cr: OpaquePointer, evenOdd: Bool, preserve: Bool) {
        setSource(cr, state.fillColor)
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        if preserve { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
    }

    private func stroke(_ cr: OpaquePointer) throws {
        let dashCount = Int(cairo_get_dash_count(cr))
        if dashCount > 0 {
            var dashes = [Double](repeating: 0, count: dashCount)
            cairo_get_dash(cr, &dashes, nil)
            do {
                try DashLimit.check(dashes, length: DashLimit.currentPathLength(cr), "CGContext: the line dash")
            } catch {
                cairo_new_path(cr)   // a stroke consumes the path, even one refused
                throw error
            }
        }
        setSource(cr, state.strokeColor)
        let w = cairo_get_line_width(cr)
        guard w == 0 else { cairo_stroke(cr); return }
        // A zero width is CG's hairline: one device pixel, whatever the CTM.
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let det = abs(m.xx * m.yy - m.xy * m.yx)
        cairo_set_line_width(cr, det > 0 ? 1 / det.squareRoot() : 1)
        cairo_stroke(cr)
        cairo_set_line_width(cr, 0)
    }

    /// CGContextFillPath (non-zero winding) or CGContextEOFillPath.
    public func fillPath(evenOdd: Bool = false) throws {
        let cr = try live(evenOdd ? "CGContext.eoFillPath" : "CGContext.fillPath")
        fill(cr, evenOdd: evenOdd, preserve: false)
    }

    /// CGContextStrokePath with the stroke colour and line style.
    public func strokePath() throws {
        let cr = try live("CGContext.strokePath")
        try stroke(cr)
    }

    /// CGContextDrawPath: "fill", "eoFill", "stroke", "fillStroke" or
    /// "eoFillStroke" (the fill is painted first, then the stroke on top).
    public func drawPath(mode: String) throws {
        let cr = try live("CGContext.drawPath")
        switch mode {
        case "fill": fill(cr, evenOdd: false, preserve: false)
        case "eoFill": fill(cr, evenOdd: true, preserve: false)
        case "stroke": try stroke(cr)
        case "fillStroke": fill(cr, evenOdd: false, preserve: true); try stroke(cr)
        case "eoFillStroke": fill(cr, evenOdd: true, preserve: true); try stroke(cr)
        default:
            throw CalunaError.invalid(
                "CGContext.drawPath: mode must be \"fill\", \"eoFill\", \"stroke\", \"fillStroke\" or \"eoFillStroke\" (got \"\(mode)\")")
        }
    }

    /// CGContextFillRect.
    public func fillRect(_ rect: Rect) throws {
        let cr = try live("CGContext.fillRect")
        let r = try checked("CGContext.fillRect", "rect", rect)
        cairo_new_path(cr)
        cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
        fill(cr, evenOdd: false, preserve: false)
    }

    /// CGContextStrokeRect: the line is centred on the rect's edges.
    public func strokeRect(_ rect: Rect) throws {
        let cr = try live("CGContext.strokeRect")
        let r = try checked("CGContext.strokeRect", "rect", rect)
        cairo_new_path(cr)
        cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
        try stroke(cr)
    }

    /// CGContextClearRect: the rect's pixels become transparent (inside the clip).
    public func clearRect(_ rect: Rect) throws {
        let cr = try live("CGContext.clearRect")
        let r = try checked("CGContext.clearRect", "rect", rect)
        cairo_new_path(cr)
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// CGContextFillEllipseInRect.
    public func fillEllipse(in rect: Rect) throws {
        let cr = try live("CGContext.fillEllipseInRect")
        let r = try checked("CGContext.fillEllipseInRect", "rect", rect)
        cairo_new_path(cr)
        var p = Path()
        p.addEllipse(in: r)
        p.append(to: cr)
        fill(cr, evenOdd: false, preserve: false)
    }

    /// CGContextStrokeEllipseInRect.
    public func strokeEllipse(in rect: Rect) throws {
        let cr = try live("CGContext.strokeEllipseInRect")
        let r = try checked("CGContext.strokeEllipseInRect", "rect", rect)
        cairo_new_path(cr)
        var p = Path()
        p.addEllipse(in: r)
        p.append(to: cr)
        try stroke(cr)
    }

    // MARK: clipping

    /// CGContextClip / CGContextEOClip: intersects the clip with the current
    /// path, which is consumed.
    public func clip(evenOdd: Bool = false) throws {
        let cr = try live(evenOdd ? "CGContext.eoClip" : "CGContext.clip")
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
    }

    /// CGContextClipToRect (the current path is left alone).
    public func clip(to rect: Rect) throws {
        let cr = try live("CGContext.clipToRect")
        let r = try checked("CGContext.clipToRect", "rect", rect)
        preservingPath(cr) {
            cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_clip(cr)
        }
    }

    /// CGContextGetClipBoundingBox in the current user space (zero-sized when
    /// everything is clipped away).
    public var clipBoundingBox: Rect {
        get throws {
            let cr = try live("CGContext.clipBoundingBox")
            var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
            cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
            return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))
        }
    }
}
