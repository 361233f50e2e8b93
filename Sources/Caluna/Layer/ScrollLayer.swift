/// CAScrollLayer and CALayer's scrolling category (spec ch.6 §2.9): scrolling
/// is changing bounds.origin — nothing else: no clamping, no content size,
/// no input handling, no clipping (set masksToBounds, as listing 6.10 does).
public struct ScrollLayerState: Equatable {
    public var scrollMode = ScrollMode.both
}

/// kCAScrollNone / Vertically / Horizontally / Both: the axes scrolling changes.
public enum ScrollMode: String, CaseIterable, Sendable, StringEnumProperty {
    case none, vertically, horizontally, both
    var horizontal: Bool { self == .horizontally || self == .both }
    var vertical: Bool { self == .vertically || self == .both }
}

extension LayerProperties {
    static let scrollLayer: [LayerProperty] = [
        .specialisedChoice("scrollMode", \.scroll.scrollMode),
    ]
}

extension Layer {
    private func requireScrollLayer(_ api: String) throws {
        guard kind == .scrollLayer else {
            throw CalunaError(.typeMismatch, "\(api): the layer is a \(kind.className), not a CAScrollLayer")
        }
    }

    private static func checkFinite(_ api: String, _ values: Double...) throws {
        for v in values where !v.isFinite { throw CalunaError.invalid("\(api): coordinates must be finite (got \(v))") }
        try LayerProperty.checkMagnitude(api, values.max(by: { abs($0) < abs($1) }) ?? 0)
    }

    /// -[CAScrollLayer scrollToPoint:]: bounds.origin = p on the axes
    /// scrollMode allows. The change is a bounds change like any other (it
    /// runs the bounds action: implicit animation unless disabled).
    public func scroll(toPoint p: Point) throws {
        let api = "CAScrollLayer.scrollToPoint"
        try requireScrollLayer(api)
        try checkModel(api)
        try Layer.checkFinite(api, p.x, p.y)
        let mode = state.specialised.value.scroll.scrollMode
        var b = bounds
        if mode.horizontal { b.origin.x = p.x }
        if mode.vertical { b.origin.y = p.y }
        guard b != bounds else { return }
        try setValue(.rect(b), forKeyPath: "bounds")
    }

    /// -[CAScrollLayer scrollToRect:]: the smallest scroll that shows `r`
    /// (in the scroll layer's own coordinates) within its bounds; a rect
    /// larger than the bounds on an axis shows its start (min) edge.
    public func scroll(toRect r: Rect) throws {
        let api = "CAScrollLayer.scrollToRect"
        try requireScrollLayer(api)
        try Layer.checkFinite(api, r.origin.x, r.origin.y, r.size.width, r.size.height)
        let r = r.standardized, b = bounds
        func axis(_ lo: Double, _ hi: Double, _ origin: Double, _ extent: Double) -> Double {
            if hi - lo > extent || lo < origin { return lo }
            if hi > origin + extent { return hi - extent }
            return origin
        }
        try scroll(toPoint: Point(axis(r.minX, r.maxX, b.minX, b.width), axis(r.minY, r.maxY, b.minY, b.height)))
    }

    /// The nearest ancestor scroll layer (not the layer itself).
    public var enclosingScrollLayer: Layer? {
        var s = superlayer
        while let cur = s, cur.kind != .scrollLayer { s = cur.superlayer }
        return s
    }

    /// -[CALayer scrollPoint:]: scrolls the nearest ancestor scroll layer so
    /// `p` (in this layer's coordinates) is at its origin. False (a no-op,
    /// as in Core Animation) when there is no ancestor scroll layer.
    @discardableResult
    public func scrollPoint(_ p: Point) throws -> Bool {
        try Layer.checkFinite("CALayer.scrollPoint", p.x, p.y)
        guard let s = enclosingScrollLayer else { return false }
        try s.scroll(toPoint: try s.convert(p, from: self))
        return true
    }

    /// -[CALayer scrollRectToVisible:]: scrolls the nearest ancestor scroll
    /// layer (scrollToRect:) so `r` (this layer's coordinates) is visible.
    @discardableResult
    public func scrollRectToVisible(_ r: Rect) throws -> Bool {
        try Layer.checkFinite("CALayer.scrollRectToVisible", r.origin.x, r.origin.y, r.size.width, r.size.height)
        guard let s = enclosingScrollLayer else { return false }
        try s.scroll(toRect: try s.convert(r, from: self))
        return true
    }

    /// CALayer.visibleRect: the part of the bounds not clipped by the
    /// nearest ancestor scroll layer's bounds, in this layer's coordinates
    /// (the bounds when there is none; zero size when nothing shows).
    public var visibleRect: Rect {
        get throws {
            guard let s = enclosingScrollLayer else { return bounds }
            let seen = try convert(s.bounds, from: s).intersection(bounds)
            return seen.isEmpty ? Rect(seen.origin.x, seen.origin.y, 0, 0) : seen
        }
    }
}
