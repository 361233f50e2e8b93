import CCairo

/// CAShapeLayer drawing: cairo fills and strokes the path as vectors in the
/// current transform (so any scale or 3D placement stays sharp), fill first,
/// stroke on top, between the layer's contents and its sublayers, never
/// clipped to the bounds.
extension Compositor {
    mutating func drawShape(_ layer: Layer, alpha: Double) throws {
        let s = layer.state.specialised.value.shape
        guard let path = s.path, !path.elements.isEmpty else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_new_path(cr)
        if let fill = s.fillColor?.clamped, fill.alpha > 0 {
            cairo_set_fill_rule(cr, s.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha * alpha)
            path.append(to: cr)
            cairo_fill(cr)
        }
        if let stroke = s.strokeColor?.clamped, stroke.alpha > 0, s.lineWidth > 0 {
            cairo_set_source_rgba(cr, stroke.red, stroke.green, stroke.blue, stroke.alpha * alpha)
            try strokeShape(layer, s, path)
        }
        stats.layersDrawn += 1
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "render: cairo failed drawing a CAShapeLayer: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// The stroke of the part strokeStart…strokeEnd (by arc length over all
    /// subpaths), with the dashes where they fall on the whole path.
    private mutating func strokeShape(_ layer: Layer, _ s: ShapeLayerState, _ path: Path) throws {
        let start = min(max(s.strokeStart, 0), 1), end = min(max(s.strokeEnd, 0), 1)
        guard start < end else { return }
        cairo_set_line_width(cr, s.lineWidth)
        cairo_set_line_cap(cr, s.lineCap.cairoValue)
        cairo_set_line_join(cr, s.lineJoin.cairoValue)
        cairo_set_miter_limit(cr, s.miterLimit)
        let dashes = s.lineDashPattern?.lengths ?? []
        try DashLimit.check(dashes, along: path, "render: a CAShapeLayer's lineDashPattern")
        func setDash(_ offset: Double) {
            guard !dashes.isEmpty else { return }
            dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), s.lineDashPhase + offset) }
        }
        guard start > 0 || end < 1 else {
            setDash(0)
            path.append(to: cr)
            cairo_stroke(cr)
            return
        }
        let trim = try ShapeTrim.cached(for: path, on: layer)
        let (head, rest, headOffset) = trim.trimmed(from: start, to: end)
        // Dashes restart at each subpath (Core Graphics, cairo): only a cut
        // first subpath needs its phase moved by the length cut off.
        if !head.elements.isEmpty {
            setDash(headOffset)
            head.append(to: cr)
            cairo_stroke(cr)
        }
        if !rest.elements.isEmpty {
            setDash(0)
            rest.append(to: cr)
            cairo_stroke(cr)
        }
    }
}

/// A path measured for strokeStart/strokeEnd: its drawn pieces with their
/// arc lengths (PathSegment's), kept in the layer's kindCache while the path
/// stays the same, so an animated strokeEnd does not re-measure every frame.
final class ShapeTrim {
    struct Piece {
        var segment: PathSegment
        var length: Double
        /// Arc length of the path before this piece.
        var offset: Double
        /// The first piece of a subpath, and that subpath's starting offset.
        var startsSubpath: Bool
        var subpathOffset: Double
        /// Made by a close element (drawn as a close when its subpath is whole).
        var closes: Bool
    }
    let path: Path
    let pieces: [Piece]
    let total: Double
    /// The measured pieces' cost, charged before they are measured.
    let memoryCharge: MemoryCharge

    init(_ path: Path) throws {
        memoryCharge = try MemoryCharge(MemoryLedger.current, PathSegment.estimatedBytes(of: path) + 256,
                                        "CAShapeLayer: measuring a path of \(path.elements.count) elements")
        self.path = path
        var pieces: [Piece] = []
        var total = 0.0, subpathOffset = 0.0
        for p in PathSegment.pieces(of: path) {
            if p.startsSubpath { subpathOffset = total }
            let length = p.segment.length
            pieces.append(Piece(segment: p.segment, length: length, offset: total, startsSubpath: p.startsSubpath,
                                subpathOffset: subpathOffset, closes: p.closes))
            total += length
        }
        self.pieces = pieces
        self.total = total
    }

    static func cached(for path: Path, on layer: Layer) throws -> ShapeTrim {
        if let t = layer.kindCache as? ShapeTrim, t.path == path { return t }
        try RenderBand.requireCallingThread()
        let t = try ShapeTrim(path)
        layer.kindCache = t
        return t
    }

    /// The part between the fractions `from` < `to` of the arc length: the
    /// first drawn subpath (which the cut may have shortened: `headOffset` is
    /// the length cut from its start, for the dash phase) and the rest.
    func trimmed(from: Double, to: Double) -> (head: Path, rest: Path, headOffset: Double) {
        var head = Path(), rest = Path(), headOffset = 0.0
        guard total > 0 else { return (path, rest, 0) }
        let lo = from * total, hi = to * total
        var inHead = true, started = false, whole = false
        var previousDrawn = false
        for p in pieces {
            let a = p.offset, b = p.offset + p.length
            let overlaps = p.length > 0 ? (a < hi && b > lo) : (a >= lo && a <= hi)
            guard overlaps else { previousDrawn = false; continue }
            var seg = p.segment
            if a < lo || b > hi {
                let t0 = a < lo ? seg.parameter(atLengthFraction: (lo - a) / p.length) : 0
                let t1 = b > hi ? seg.parameter(atLengthFraction: (hi - a) / p.length) : 1
                seg = seg.subsegment(from: t0, to: t1)
            }
            if p.startsSubpath || !previousDrawn {
                if started { inHead = false }
                started = true
                // A subpath drawn from its own start can close with a join.
                whole = a >= lo && p.startsSubpath
                if inHead { headOffset = max(lo, a) - p.subpathOffset }
                if inHead { head.move(to: seg.start) } else { rest.move(to: seg.start) }
            }
            let element: Path.Element
            if p.closes, whole, b <= hi {
                element = .close
            } else {
                switch seg.points.count {
                case 2: element = .line(seg.end)
                case 3: element = .quad(seg.points[1], seg.end)
                default: element = .cubic(seg.points[1], seg.points[2], seg.end)
                }
            }
            if inHead { head.elements.append(element) } else { rest.elements.append(element) }
            previousDrawn = b <= hi
        }
        return (head, rest, headOffset)
    }
}


extension Layer {
    /// What a shape layer can draw in its own space: the path's control-point
    /// box grown by the widest a stroke can reach (a miter at the limit, a
    /// square cap's corner); nil without a path. The compositor's extents
    /// (shadows, offscreen passes, rasterisation) include it.
    var shapeExtent: Rect? {
        guard kind == .shapeLayer else { return nil }
        let s = state.specialised.value.shape
        guard let path = s.path, !path.elements.isEmpty else { return nil }
        var r = path.controlPointBounds
        if s.strokeColor != nil, s.lineWidth > 0 {
            let reach = s.lineWidth / 2 * max(s.lineJoin == .miter ? max(s.miterLimit, 1) : 1, 2.0.squareRoot())
            r = r.insetBy(-reach - 1, -reach - 1)
        }
        return r
    }
}
