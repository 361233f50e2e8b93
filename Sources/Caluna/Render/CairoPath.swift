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
