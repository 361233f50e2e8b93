/// The stored properties of a layer, kept in a copy-on-write box the model
/// layer, its committed state and its presentation copy share while they
/// are equal (Layer.stateBox). Defaults are the values a fresh layer has; the
/// property table reads them from a pristine layer, so they are written only here.
public struct LayerState: Equatable {
    // MARK: geometry (ch.3)
    public var bounds = Rect.zero
    public var position = Point.zero
    public var anchorPoint = Point(0.5, 0.5)
    public var anchorPointZ: Double {
        get { rare.withValue { $0.pointee.anchorPointZ } }
        set { rare.value.anchorPointZ = newValue }
    }
    /// Stored here, not in `rare`: 3D scenes give every layer a depth (the
    /// G2 grid rendered 10 % slower, and each layer took a 368-byte box, with
    /// it there).
    public var zPosition = 0.0
    public var transform: Transform3D {
        get { rare.withValue { $0.pointee.transform } }
        set { rare.value.transform = newValue }
    }
    /// Applied to every direct sublayer about the anchor point (ch.5 §1.7).
    public var sublayerTransform: Transform3D {
        get { rare.withValue { $0.pointee.sublayerTransform } }
        set { rare.value.sublayerTransform = newValue }
    }

    // MARK: appearance
    public var opacity = 1.0
    public var backgroundColor: Color? = nil
    // The flags follow the 33-byte colour, filling its padding: a state box
    // is then 16 bytes smaller (one allocation size down).
    /// Whether the back of the layer is drawn when it faces away (ch.5 §1.10).
    public var doubleSided = true
    public var geometryFlipped = false
    public var hidden = false
    public var masksToBounds = false
    /// Apple's modern default (true); the book's iOS 6 behaviour is `false`.
    public var allowsGroupOpacity = true
    /// On by default in caluna (a documented divergence: iOS defaults to NO).
    public var allowsEdgeAntialiasing = true
    public var name: String? {
        get { rare.withValue { $0.pointee.name } }
        set { rare.value.name = newValue }
    }

    /// Contents and effects (ch.2, ch.4), boxed: most layers never set
    /// them, and presentation copies (one per animated layer and frame)
    /// then copy one reference instead of all of them.
    public var appearance = LayerAppearance.shared

    // MARK: time (ch.9): a layer's beginTime/speed/timeOffset map its
    // superlayer's time to its own, for its animations and its sublayers'.
    public var timing: MediaTiming {
        get { rare.withValue { $0.pointee.timing } }
        set { rare.value.timing = newValue }
    }

    /// The timing of the state at `s`, read in place (no copy of the state).
    static func timing(_ s: UnsafePointer<LayerState>) -> MediaTiming { s.pointee.rare.withValue { $0.pointee.timing } }

    /// The transforms, anchorPointZ, name and timing, boxed and shared until
    /// a layer changes one (most layers never do): every state, and so every
    /// still layer and every animated layer's presentation copy, is smaller
    /// by all of them (the renderer reads the sublayer transform from the
    /// box anyway, so the transform costs no extra pointer chase).
    var rare = LayerRareState.shared

    /// The properties of the specialised kinds (SpecialisedLayers.swift),
    /// boxed and shared until a layer changes one.
    public var specialised = SpecialisedLayerState.shared
}

/// What most layers leave at its default (LayerState.rare).
public struct LayerRareState: Equatable {
    static let shared = Boxed(LayerRareState())
    public var anchorPointZ = 0.0
    public var transform = Transform3D.identity
    public var sublayerTransform = Transform3D.identity
    public var name: String? = nil
    public var timing = MediaTiming()
}

/// The contents and visual-effect properties of a layer (defaults here).
public struct LayerAppearance: Equatable {
    /// The defaults, shared until a layer changes one (copy on write).
    static let shared = Boxed(LayerAppearance())
    // MARK: contents (ch.2, ContentsDrawing.swift)
    public var contents: Image? = nil
    public var contentsGravity = ContentsGravity.resize
    public var contentsScale = 1.0
    /// Unit rectangles of the image: the part shown, and its stretchable centre.
    public var contentsRect = Rect(0, 0, 1, 1)
    public var contentsCenter = Rect(0, 0, 1, 1)
    public var minificationFilter = ContentsFilter.linear
    public var magnificationFilter = ContentsFilter.linear
    public var minificationFilterBias = 0.0
    /// Drawn backing stores have no alpha channel (they start black).
    public var isOpaque = false
    public var needsDisplayOnBoundsChange = false
    /// Accepted for parity; drawing is synchronous and the output identical.
    public var drawsAsynchronously = false

    // MARK: visual effects (ch.4, CompositorEffects.swift)
    public var cornerRadius = 0.0
    /// CACornerMask bits: 1 minX-minY, 2 maxX-minY, 4 minX-maxY, 8 maxX-maxY.
    public var maskedCorners = CornerMask.all
    public var borderWidth = 0.0
    public var borderColor: Color? = .black
    public var shadowColor: Color? = .black
    public var shadowOpacity = 0.0
    public var shadowOffset = Size(0, -3)
    public var shadowRadius = 3.0
    public var shadowPath: Path? = nil
    public var shouldRasterize = false
    public var rasterizationScale = 1.0
}

/// A value behind a reference, copied on write: cheap to copy while shared.
public struct Boxed<T: Equatable>: Equatable {
    /// The value lives in the object's tail storage and is reached through
    /// a pointer: a read in place (`withValue`) is then no formal access to a
    /// stored property. Shared boxes (the defaults) are read by every
    /// engine's thread, and an `inout` read of a stored property counts as a
    /// modification to ThreadSanitizer.
    private final class Box: ManagedBuffer<Void, T> {
        static func make(_ v: T) -> Box {
            let b = unsafeDowncast(Box.create(minimumCapacity: 1) { _ in }, to: Box.self)
            b.withUnsafeMutablePointerToElements { $0.initialize(to: v) }
            return b
        }
        var pointer: UnsafeMutablePointer<T> { withUnsafeMutablePointerToElements { $0 } }
        deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
    }
    private var box: Box
    public init(_ v: T) { box = Box.make(v) }
    public var value: T {
        get { box.pointer.pointee }
        set {
            if isKnownUniquelyReferenced(&box) { box.pointer.pointee = newValue } else { box = Box.make(newValue) }
        }
        // In place once unique (a changed field does not copy the whole value twice).
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box.make(box.pointer.pointee) }
            yield &box.pointer.pointee
        }
    }
    /// Reads the value in place (the getter copies all of it, retaining
    /// whatever it holds); the pointer is valid inside `body` only.
    @inline(__always)
    func withValue<R>(_ body: (UnsafePointer<T>) -> R) -> R { body(UnsafePointer(box.pointer)) }
    /// The same for a Boxed stored in a class: mutating only so that it is
    /// borrowed where it lies, not copied (a copy counts a reference).
    @inline(__always)
    mutating func withValueInPlace<R>(_ body: (UnsafePointer<T>) -> R) -> R { withValue(body) }
    /// True when both share one copy.
    func isSame(as other: Boxed) -> Bool { box === other.box }
    public static func == (a: Boxed, b: Boxed) -> Bool { a.box === b.box || a.box.pointer.pointee == b.box.pointer.pointee }
}

/// What `Layer.extras` holds (see the forwarding properties there).
final class LayerExtras {
    weak var delegate: LayerDelegate? = nil
    // Actions (LayerActions.swift).
    var actions: [String: LayerAction]? = nil
    var style: LayerStyle? = nil
    var defaultActionOverride: ((Layer, String) throws -> LayerAction?)? = nil
    var transitionFrame: TransitionFrame? = nil
    var foreignContents: AnyObject? = nil
    var displayDirty: Rect? = nil
    var isDisplaying = false
    weak var ownBackingStore: Image? = nil
    var drawHandler: ((Layer, DrawingContext) throws -> Void)? = nil
    var eventHandlers: [EventHandler] = []
}
