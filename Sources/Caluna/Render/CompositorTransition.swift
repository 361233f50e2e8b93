import CCairo

/// Drawing a layer in the middle of a Transition: the snapshot taken at
/// commit (old) and the layer as it is (new), each drawn offscreen in the
/// layer's space, then cross-faded or slid by the transition's progress.
extension Compositor {
    mutating func drawTransition(_ frame: TransitionFrame, over layer: Layer, alpha: Double) throws {
        let t = frame.transition, p = frame.progress
        // The snapshots are painted slid: a partial redraw draws them whole
        // (a box or shadow cut to the region would slide in cut).
        partial?.suspended += 1
        defer { partial?.suspended -= 1 }
        try pushGroup()
        if let old = t.snapshot { try drawContent(old, alpha: 1) }
        let oldPattern = popGroup()
        defer { endGroup(oldPattern) }
        try pushGroup()
        try drawContent(layer, alpha: 1)
        let newPattern = popGroup()
        defer { endGroup(newPattern) }
        let (old, new) = frame.offsets(in: layer.bounds)
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
        case .push, .moveIn:
            paint(oldPattern, old.x, old.y, alpha)
            paint(newPattern, new.x, new.y, alpha)
        case .reveal:
            paint(newPattern, new.x, new.y, alpha)
            paint(oldPattern, old.x, old.y, alpha)
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
