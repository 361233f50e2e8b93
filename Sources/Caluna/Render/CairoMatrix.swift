import CCairo

/// cairo's matrix fields in Core Graphics' names: xx = a, yx = b, xy = c, yy = d.
extension AffineTransform {
    init(cairo m: cairo_matrix_t) {
        self.init(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
    }

    var cairoMatrix: cairo_matrix_t { cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty) }
}
