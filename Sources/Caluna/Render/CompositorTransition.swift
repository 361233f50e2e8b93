import CCairo

/// Drawing a layer in the middle of a Transition: the snapshot taken at
/// commit (old) and the layer as it is (new), each drawn offscreen in the
/// layer's space, then cross-faded or slid by the transition's progress.
extension Compositor {
    mutating func drawTransition(_ frame: TransitionFrame, over layer: Layer, alpha: Double) throws {
        let t = frame.transition, p = frame.progress
        try pushGroup()
        if let old = t.snapshot { try drawContent(old, alpha: 1) }
        let oldPattern = popGroup()
        defer { endGroup(oldPattern) }
        try pushGroup()
        try drawContent(layer, alpha: 1)
        let newPattern = popGroup()
        defer { endGroup(newPattern) }
        // The distance a slide covers, in the direction content moves.
        let b = layer.bounds
        let (ux, uy): (Double, Double)
        switch t.subtype ?? .fromLeft {
        case .fromLeft: (ux, uy) = (b.width, 0)
        case .fromRight: (ux, uy) = (-b.width, 0)
        case .fromTop: (ux, uy) = (0, b.height)
        case .fromBottom: (ux, uy) = (0, -b.height)
        }
        let (outX, outY) = (ux * p, uy * p)                  // where old content has gone
        let (inX, inY) = (-ux * (1 - p), -uy * (1 - p))      // where new content still is
        switch t.type {
        case .fade:
            // old × (1 − p) + new × p, added: an opaque pair stays opaque.
            try pushGroup()
            paint(oldPattern, 0, 0, 1 - p)
            cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
            paint(newPattern, 0, 0, p)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            popGroupToSource()
            cairo_paint_with_alpha(cr, alpha)
        case .push:
            paint(oldPattern, outX, outY, alpha)
            paint(newPattern, inX, inY, alpha)
        case .moveIn:
            paint(oldPattern, 0, 0, alpha)
            paint(newPattern, inX, inY, alpha)
        case .reveal:
            paint(newPattern, 0, 0, alpha)
            paint(oldPattern, outX, outY, alpha)
        }
    }

    private func paint(_ pattern: OpaquePointer?, _ dx: Double, _ dy: Double, _ alpha: Double) {
        guard alpha > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, dx, dy)
        cairo_set_source(cr, pattern)
        cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
    }
}
