/// Core Animation's CALayer: a rectangle in a tree that holds content and
/// places its sublayers. Properties are declared once in `LayerProperties`
/// (key, kind, default, animatable, invalidation); this class stores them.
///
/// Defaults are the values a fresh layer has, and the property table reads
/// them from a pristine layer, so they are written only here.
public final class Layer {
    /// The engine the layer belongs to; layers never move between engines.
    public private(set) weak var engine: Engine?
    public internal(set) weak var superlayer: Layer?
    public internal(set) var sublayers: [Layer] = []

    /// Assigned by the bridge (C ABI / Lua) the first time the layer is handed
    /// out; 0 until then. The engine itself never reads it.
    public var externalID: UInt64 = 0

    /// Receives layout callbacks (weak, like CALayer's delegate).
    public weak var delegate: LayerDelegate?

    // MARK: geometry (ch.3)
    public var bounds = Rect.zero { didSet { if bounds != oldValue { setNeedsLayout() } } }
    public var position = Point.zero
    public var anchorPoint = Point(0.5, 0.5)
    public var anchorPointZ = 0.0
    public var zPosition = 0.0 { didSet { if zPosition != oldValue { superlayer?.sublayerOrderChanged() } } }
    public var transform = Transform3D.identity
    public var geometryFlipped = false

    // MARK: appearance
    public var hidden = false
    public var opacity = 1.0
    public var backgroundColor: Color? = nil
    public var masksToBounds = false
    /// Apple's modern default (true); the book's iOS 6 behaviour is `false`.
    public var allowsGroupOpacity = true
    /// On by default in caluna (a documented divergence: iOS defaults to NO).
    public var allowsEdgeAntialiasing = true
    public var name: String? = nil

    // MARK: layout state
    public internal(set) var needsLayout = false
    var descendantNeedsLayout = false
    /// Sublayers in drawing order (stable by zPosition); nil when stale.
    var drawingOrderCache: [Layer]? = nil

    public init(engine: Engine?) {
        self.engine = engine
    }

    /// A layer outside any engine: only for reading defaults and for tests.
    public convenience init() { self.init(engine: nil) }

    /// The layer's root ancestor (itself when it has no superlayer).
    public var rootAncestor: Layer {
        var l = self
        while let s = l.superlayer { l = s }
        return l
    }

    /// True when `self` is `other` or one of its ancestors.
    public func isAncestor(of other: Layer) -> Bool {
        var l: Layer? = other
        while let cur = l {
            if cur === self { return true }
            l = cur.superlayer
        }
        return false
    }
}

/// The optional callbacks a layer's owner can answer (CALayerDelegate).
public protocol LayerDelegate: AnyObject {
    /// layoutSublayersOfLayer: — called during a layout pass when the layer
    /// needs layout. Errors propagate to the step or render that ran the pass.
    func layoutSublayers(of layer: Layer) throws
}
