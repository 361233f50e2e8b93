/// CATransition: animates a layer from a snapshot of how it looked before
/// the change to how it looks now — a cross-fade or a slide. The snapshot is
/// taken when the transition is committed (Core Animation's render-tree
/// snapshot), so the layer's whole rendered subtree takes part.
///
/// Rendering (Compositor+Transition): both states are drawn in the layer's
/// own space; slides move by the layer's width or height and are clipped
/// only by masksToBounds (spec ch.7–9 §5-13). Directions are in the layer's
/// coordinates with y down: "fromTop" enters from the top edge.
public final class Transition: Animation {
    /// kCATransitionFade, MoveIn, Push, Reveal.
    public enum Kind: String, CaseIterable, Sendable { case fade, moveIn, push, reveal }
    /// kCATransitionFromRight, FromLeft, FromTop, FromBottom.
    public enum Direction: String, CaseIterable, Sendable { case fromLeft, fromRight, fromTop, fromBottom }

    public var type = Kind.fade
    /// nil behaves as fromLeft (Core Animation's default).
    public var subtype: Direction? = nil
    /// The part of the transition shown: progress runs from startProgress to
    /// endProgress over the duration.
    public var startProgress = 0.0
    public var endProgress = 1.0

    // Taken at commit: the layer as it was (nil: it showed nothing yet).
    var snapshot: Layer? = nil

    public override var className: String { "Transition" }
    override func makeEmpty() -> Animation { Transition() }

    override func copyFields(to c: Animation) {
        super.copyFields(to: c)
        guard let c = c as? Transition else { return }
        c.type = type
        c.subtype = subtype
        c.startProgress = startProgress
        c.endProgress = endProgress
        c.snapshot = snapshot
    }

    override func validate(for layer: Layer) throws {
        guard startProgress >= 0, startProgress <= 1, endProgress >= 0, endProgress <= 1 else {
            throw CalunaError.invalid("Transition: startProgress and endProgress must be within 0…1 (got \(startProgress), \(endProgress))")
        }
    }

    /// Shows the transition's progress on a presentation layer.
    override func contribute(to layer: Layer, _ s: TimingSample) throws {
        let p = startProgress + (endProgress - startProgress) * progress(s)
        layer.transitionFrame = TransitionFrame(transition: self, progress: min(max(p, 0), 1))
    }
}

/// A transition at one instant, kept on the presentation layer it applies
/// to (a class: the optional on every layer stays one word).
final class TransitionFrame {
    let transition: Transition
    let progress: Double
    init(transition: Transition, progress: Double) {
        self.transition = transition
        self.progress = progress
    }

    /// Where the old content (the snapshot) and the new content are drawn,
    /// offset in the layer's space, for a layer of `bounds`: slides move by
    /// its width or height (fromLeft: content moves right).
    func offsets(in bounds: Rect) -> (old: Point, new: Point) {
        let p = progress
        let (ux, uy): (Double, Double)
        switch transition.subtype ?? .fromLeft {
        case .fromLeft: (ux, uy) = (bounds.width, 0)
        case .fromRight: (ux, uy) = (-bounds.width, 0)
        case .fromTop: (ux, uy) = (0, bounds.height)
        case .fromBottom: (ux, uy) = (0, -bounds.height)
        }
        let out = Point(ux * p, uy * p)                   // where old content has gone
        let into = Point(-ux * (1 - p), -uy * (1 - p))    // where new content still is
        switch transition.type {
        case .fade: return (.zero, .zero)
        case .push: return (out, into)
        case .moveIn: return (.zero, into)
        case .reveal: return (out, .zero)
        }
    }
}

extension Layer {
    /// A frozen copy of this (presentation) layer's subtree, outside any
    /// engine: what a transition fades or slides away from.
    /// Copies level by level with its own stack, not native recursion.
    func snapshotTree() -> Layer {
        let top = snapshotOne()
        var pending = [(self, top)]
        while let (l, c) = pending.popLast() {
            c.sublayers = l.sublayers.map { s in
                let sc = s.snapshotOne()
                pending.append((s, sc))
                return sc
            }
            for s in c.sublayers { s.superlayer = c }
            if let m = l.maskLayer {
                let mc = m.snapshotOne()
                pending.append((m, mc))
                c.maskLayer = mc
                mc.maskOwner = c
            }
        }
        return top
    }

    /// This layer alone, frozen.
    private func snapshotOne() -> Layer {
        let c = Layer(engine: nil, kind: kind)  // a shape or text layer keeps drawing its own content
        c.state = state
        c.transitionFrame = transitionFrame
        if kind == .pixelBufferLayer, let frame = pixelBufferStore.frame {
            // The frame shown now, frozen: the copy has no callback to draw one.
            let store = PixelBufferStore()
            store.submit(frame)
            c.kindCache = store
        }
        return c
    }
}
