import CCairo

/// A Path as cairo's current path: the one conversion the compositor
/// (shadow paths) and DrawingContext (addPath, addQuadCurveTo) share.
extension Path {
    func append(to cr: OpaquePointer) {
        for e in elements {
            switch e {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .quad(let c, let p): Path.appendQuad(cr, control: c, end: p)
            case .cubic(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: if cairo_has_current_point(cr) != 0 { cairo_close_path(cr) }
            }
        }
    }

    /// A quadratic from the current point is exactly the cubic whose controls
    /// lie 2/3 of the way to its control (cairo has no quadratics).
    static func appendQuad(_ cr: OpaquePointer, control c: Point, end p: Point) {
        var x0 = 0.0, y0 = 0.0
        cairo_get_current_point(cr, &x0, &y0)
        cairo_curve_to(cr, x0 + 2 / 3 * (c.x - x0), y0 + 2 / 3 * (c.y - y0),
                       p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
    }
}

/// cairo strokes every dash, on screen or not (about 15 ns each): a long
/// path with short dashes could take minutes, so such a stroke is refused.
/// One rule for shape layers and draw callbacks.
enum DashLimit {
    static let maximumDashesDrawn = 20_000_000.0

    /// `length`: an upper bound of the path's length (its control polygon),
    /// in the units of `dashes`. `what` names the caller in the error.
    static func check(_ dashes: [Double], length: Double, _ what: String) throws {
        guard !dashes.isEmpty else { return }
        let mean = dashes.reduce(0, +) / Double(dashes.count)
        let drawn = length / mean
        guard drawn <= maximumDashesDrawn else {
            throw CalunaError.invalid("\(what) would draw about \(fmt(drawn.rounded())) dashes along its path (at most \(fmt(maximumDashesDrawn))); lengthen the dashes or shorten the path")
        }
    }

    /// The same for a Path, measured along its control points in order (at
    /// least as long as the path).
    static func check(_ dashes: [Double], along path: Path, _ what: String) throws {
        guard !dashes.isEmpty else { return }
        var length = 0.0, previous: Point? = nil
        for p in path.points {
            if let q = previous { length += q.distance(to: p) }
            previous = p
        }
        try check(dashes, length: length, what)
    }

    /// The control-polygon length of cairo's current path (user space), at
    /// least the path's own length.
    static func currentPathLength(_ cr: OpaquePointer) -> Double {
        guard let path = cairo_copy_path(cr) else { return 0 }
        defer { cairo_path_destroy(path) }
        // An empty path has no data (NULL), and a path in error none either.
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return 0 }
        let count = Int(path.pointee.num_data)
        var length = 0.0, previous: Point? = nil, i = 0
        while i < count {
            let header = data[i].header
            guard header.length >= 1, i + Int(header.length) <= count else { break }
            for k in 1..<Int(header.length) {
                let p = Point(data[i + k].point.x, data[i + k].point.y)
                if header.type != CAIRO_PATH_MOVE_TO, let q = previous { length += q.distance(to: p) }
                previous = p
            }
            i += Int(header.length)
        }
        return length
    }
}

/// Core Animation's and Core Graphics' line caps and joins as cairo's (the
/// geometry is the same).
extension LineCap {
    var cairoValue: cairo_line_cap_t {
        switch self {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension LineJoin {
    var cairoValue: cairo_line_join_t {
        switch self {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }
}
