/// CALayer.mask: a layer whose alpha (its whole subtree's) cuts the owner.
/// It is laid out in the owner's coordinates like a sublayer but is not one:
/// its superlayer stays nil (spec F74). Its animations run in the owner's time.
extension Layer {
    /// The mask layer; nil for none.
    public var mask: Layer? { maskLayer }

    /// Sets the mask. The mask must belong to the same engine, have no
    /// superlayer, mask no other layer, and not contain the owner.
    public func setMask(_ newMask: Layer?) throws {
        try checkModel("mask")
        if let m = newMask {
            guard m !== maskLayer else { return }
            guard m.engine === engine else { throw CalunaError(.treeError, "Layer.mask: the mask belongs to another engine") }
            guard m !== engine?.root else { throw CalunaError(.treeError, "Layer.mask: the engine's root layer cannot be a mask") }
            guard !m.isPresentation else { throw CalunaError(.treeError, "Layer.mask: a presentation layer cannot be a mask") }
            guard m.superlayer == nil else {
                throw CalunaError(.treeError, "Layer.mask: the mask layer has a superlayer; remove it from its superlayer first")
            }
            guard m.maskOwner == nil else { throw CalunaError(.treeError, "Layer.mask: the layer is already the mask of another layer") }
            guard !m.isAncestor(of: self) else {
                throw CalunaError(.treeError, "Layer.mask: a layer cannot be masked by itself or by one of its ancestors")
            }
            try checkDepth(adding: m)
        }
        maskLayer?.maskOwner = nil
        maskLayer?.hostChanged()
        maskLayer = newMask
        newMask?.maskOwner = self
        newMask?.hostChanged()
        if let m = newMask { engine?.adoptAnimations(in: m) }
        sublayersNeedCommit = true
        markNeedsCommit()
    }

    /// The layer this one is laid out in: its superlayer, or the layer it masks.
    var hostLayer: Layer? { superlayer ?? maskOwner }
}
