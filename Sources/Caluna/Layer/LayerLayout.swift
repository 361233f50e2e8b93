/// Layout (ch.3): a layer marked by setNeedsLayout — or whose bounds changed —
/// runs layoutSublayers in the next layout pass (each step, and before each
/// render). Ancestors carry a flag so the pass visits only marked branches.
extension Layer {
    public func setNeedsLayout() {
        needsLayout = true
        propagateNeedsLayoutUp()
    }

    func propagateNeedsLayoutUp() {
        var l = hostLayer
        while let cur = l, !cur.descendantNeedsLayout {
            cur.descendantNeedsLayout = true
            l = cur.hostLayer
        }
    }

    /// Lays out this layer and any marked descendants now. Every marked layer
    /// is laid out even if an earlier callback fails; the first error is thrown.
    public func layoutIfNeeded() throws {
        try NativeStack.check("layoutIfNeeded")
        var errors = FirstError()
        layoutPass(&errors)
        try errors.rethrow()
    }

    private func layoutPass(_ errors: inout FirstError) {
        guard NativeStack.hasRoom else {
            return errors.run { try NativeStack.check("layout") }
        }
        if needsLayout {
            needsLayout = false
            errors.run { try layoutSublayers() }
        }
        guard descendantNeedsLayout else { return }
        descendantNeedsLayout = false
        for sub in sublayers where sub.needsLayout || sub.descendantNeedsLayout {
            sub.layoutPass(&errors)
        }
        if let m = maskLayer, m.needsLayout || m.descendantNeedsLayout { m.layoutPass(&errors) }
    }

    /// CALayer's layoutSublayers: asks the delegate (there is no layout manager).
    public func layoutSublayers() throws {
        try delegate?.layoutSublayers(of: self)
    }
}
