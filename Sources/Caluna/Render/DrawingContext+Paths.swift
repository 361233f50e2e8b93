import CCairo

// The current path of a DrawingContext (CGContextBeginPath … CGContextClosePath),
// and the input checks every DrawingContext file shares. Points are in the
// current user space; cairo transforms them by the CTM as they are added, as
// Core Graphics does.

extension DrawingContext {
    /// At most this many dash lengths (CGContextSetLineDash).
    public static let maximumDashCount = 1024
    /// At most this many colours in a gradient.
    public static let maximumGradientColors = 1024
    /// Angles beyond ±this many radians are refused (precision is gone long before).
    static let maximumAngle = 1.0e6

    // MARK: checks (NaN and ∞ must never reach cairo or an Int conversion)

    func finite(_ api: String, _ what: String, _ v: Double) throws -> Double {
        guard v.isFinite else { throw CalunaError.invalid("\(api): \(what) must be finite (got \(v))") }
        return v
    }

    /// A length or coordinate in points: finite and within ±maximumCoordinate.
    func coordinate(_ api: String, _ what: String, _ v: Double) throws -> Double {
        _ = try finite(api, what, v)
        guard abs(v) <= maximumCoordinate else {
            throw CalunaError.invalid("\(api): \(what) \(v) is beyond ±\(fmt(maximumCoordinate)) points")
        }
        return v
    }

    func checked(_ api: String, _ what: String, _ p: Point) throws -> Point {
        _ = try coordinate(api, "\(what).x", p.x)
        _ = try coordinate(api, "\(what).y", p.y)
        return p
    }

    func checked(_ api: String, _ what: String, _ r: Rect) throws -> Rect {
        _ = try checked(api, "\(what).origin", r.origin)
        _ = try coordinate(api, "\(what).width", r.size.width)
        _ = try coordinate(api, "\(what).height", r.size.height)
        return r
    }

    func angle(_ api: String, _ what: String, _ v: Double) throws -> Double {
        _ = try finite(api, what, v)
        guard abs(v) <= DrawingContext.maximumAngle else {
            throw CalunaError.invalid("\(api): \(what) \(v) is beyond ±\(fmt(DrawingContext.maximumAngle)) radians")
        }
        return v
    }

    func requireCurrentPoint(_ cr: OpaquePointer, _ api: String) throws {
        guard cairo_has_current_point(cr) != 0 else {
            throw CalunaError.invalid("\(api): no current point; call moveTo first")
        }
    }

    /// A cairo context in an error state draws nothing ever again: say so
    /// rather than go silent (only allocation failure should get here).
    func checkStatus(_ cr: OpaquePointer, _ api: String) throws {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "\(api): cairo failed: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    // MARK: the current path

    /// Bytes cairo keeps per path element (an op and up to three points).
    static let pathElementBytes = 32

    /// Charges `n` more elements of the current path before cairo stores
    /// them (refused past the memory limit). A path without a current point
    /// is empty (filled, stroked or begun again), so the count restarts;
    /// the charge moves in 4 KiB steps.
    func growPath(_ cr: OpaquePointer, _ api: String, _ n: Int) throws {
        let count = (cairo_has_current_point(cr) == 0 ? 0 : pathElements) + n
        let bytes = (count * DrawingContext.pathElementBytes + 4095) & ~4095
        if bytes != pathCharge.bytes { try pathCharge.resize(to: bytes, "\(api): the drawing context's path") }
        pathElements = count
    }

    /// CGContextBeginPath: discards the current path.
    public func beginPath() throws {
        let cr = try live("CGContext.beginPath")
        cairo_new_path(cr)
    }

    /// CGContextMoveToPoint: starts a new subpath at `p`.
    public func move(to p: Point) throws {
        let cr = try live("CGContext.moveTo")
        let p = try checked("CGContext.moveTo", "point", p)
        try growPath(cr, "CGContext.moveTo", 1)
        cairo_move_to(cr, p.x, p.y)
    }

    /// CGContextAddLineToPoint.
    public func addLine(to p: Point) throws {
        let cr = try live("CGContext.addLineTo")
        let p = try checked("CGContext.addLineTo", "point", p)
        try requireCurrentPoint(cr, "CGContext.addLineTo")
        try growPath(cr, "CGContext.addLineTo", 1)
        cairo_line_to(cr, p.x, p.y)
    }

    /// CGContextAddCurveToPoint: a cubic Bézier from the current point.
    public func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) throws {
        let cr = try live("CGContext.addCurveTo")
        let api = "CGContext.addCurveTo"
        let p = try checked(api, "point", p), c1 = try checked(api, "control1", c1), c2 = try checked(api, "control2", c2)
        try requireCurrentPoint(cr, api)
        try growPath(cr, api, 2)
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
    }

    /// CGContextAddQuadCurveToPoint (cairo has no quadratic: raised to a cubic).
    public func addQuadCurve(to p: Point, control c: Point) throws {
        let cr = try live("CGContext.addQuadCurveTo")
        let api = "CGContext.addQuadCurveTo"
        let p = try checked(api, "point", p), c = try checked(api, "control", c)
        try requireCurrentPoint(cr, api)
        try growPath(cr, api, 2)
        Path.appendQuad(cr, control: c, end: p)
    }

    /// UIBezierPath/CGContextAddArc semantics in y-down space: angles in radians
    /// from +x, `clockwise` turns clockwise on screen (increasing angle). A line
    /// joins the current point to the arc's start, if there is a current point.
    /// A sweep of more than one turn draws one full circle.
    public func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) throws {
        let cr = try live("CGContext.addArc")
        let api = "CGContext.addArc"
        let c = try checked(api, "center", center)
        let r = try coordinate(api, "radius", radius)
        guard r >= 0 else { throw CalunaError.invalid("\(api): radius must be ≥ 0 (got \(r))") }
        let a0 = try angle(api, "startAngle", startAngle)
        var a1 = try angle(api, "endAngle", endAngle)
        try growPath(cr, api, 16)  // cairo splits an arc into a few cubics
        if clockwise {
            if a1 - a0 > 2 * Double.pi { a1 = a0 + 2 * Double.pi }
            cairo_arc(cr, c.x, c.y, r, a0, a1)
        } else {
            if a0 - a1 > 2 * Double.pi { a1 = a0 - 2 * Double.pi }
            cairo_arc_negative(cr, c.x, c.y, r, a0, a1)
        }
    }

    /// CGContextAddRect: a closed subpath from the rect's origin.
    public func addRect(_ rect: Rect) throws {
        let cr = try live("CGContext.addRect")
        let r = try checked("CGContext.addRect", "rect", rect)
        try growPath(cr, "CGContext.addRect", 5)
        cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
    }

    /// CGContextAddEllipseInRect: four cubic arcs, clockwise from the rightmost point.
    public func addEllipse(in rect: Rect) throws {
        let cr = try live("CGContext.addEllipseInRect")
        let r = try checked("CGContext.addEllipseInRect", "rect", rect)
        try growPath(cr, "CGContext.addEllipseInRect", 10)
        var p = Path()
        p.addEllipse(in: r)
        p.append(to: cr)
    }

    /// UIBezierPath(roundedRect:cornerRadius:): the radius is clamped to half
    /// the shorter side (so a square with a large radius becomes a circle).
    public func addRoundedRect(_ rect: Rect, cornerRadius: Double) throws {
        let cr = try live("CGContext.addRoundedRect")
        let api = "CGContext.addRoundedRect"
        let r = try checked(api, "rect", rect).standardized
        let radius = try coordinate(api, "cornerRadius", cornerRadius)
        guard radius >= 0 else { throw CalunaError.invalid("\(api): cornerRadius must be ≥ 0 (got \(radius))") }
        try growPath(cr, api, 4 * 16 + 2)
        let k = min(radius, r.width / 2, r.height / 2)
        guard k > 0 else {
            cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
            return
        }
        let x0 = r.minX, y0 = r.minY, x1 = r.maxX, y1 = r.maxY, q = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x1 - k, y0 + k, k, -q, 0)
        cairo_arc(cr, x1 - k, y1 - k, k, 0, q)
        cairo_arc(cr, x0 + k, y1 - k, k, q, 2 * q)
        cairo_arc(cr, x0 + k, y0 + k, k, 2 * q, 3 * q)
        cairo_close_path(cr)
    }

    /// CGContextAddPath: appends a whole path (checked first, so a bad path adds nothing).
    public func addPath(_ path: Path) throws {
        let cr = try live("CGContext.addPath")
        let api = "CGContext.addPath"
        var hasPoint = cairo_has_current_point(cr) != 0
        for (i, e) in path.elements.enumerated() {
            let what = "element \(i + 1)"
            switch e {
            case .move(let p):
                _ = try checked(api, what, p)
                hasPoint = true
            case .line(let p):
                _ = try checked(api, what, p)
            case .quad(let c, let p):
                _ = try checked(api, what, c); _ = try checked(api, what, p)
            case .cubic(let c1, let c2, let p):
                _ = try checked(api, what, c1); _ = try checked(api, what, c2); _ = try checked(api, what, p)
            case .close:
                break
            }
            if !hasPoint, e != .close {
                throw CalunaError.invalid("\(api): \(what) has no current point; start the path with moveTo")
            }
        }
        try growPath(cr, api, 2 * path.elements.count)
        path.append(to: cr)
    }

    /// CGContextClosePath: a line back to the subpath's start.
    public func closePath() throws {
        let cr = try live("CGContext.closePath")
        try requireCurrentPoint(cr, "CGContext.closePath")
        try growPath(cr, "CGContext.closePath", 2)
        cairo_close_path(cr)
    }

    /// Runs `body` with an empty current path and puts the caller's path back
    /// afterwards (for calls that use cairo's path but not CG's: clipToRect,
    /// images, text).
    func preservingPath<T>(_ cr: OpaquePointer, _ body: () throws -> T) rethrows -> T {
        let saved = cairo_copy_path(cr)
        cairo_new_path(cr)
        defer {
            cairo_new_path(cr)
            if let saved {
                if saved.pointee.status == CAIRO_STATUS_SUCCESS { cairo_append_path(cr, saved) }
                cairo_path_destroy(saved)
            }
        }
        return try body()
    }
}
