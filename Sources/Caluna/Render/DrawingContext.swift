import CCairo

/// Core Graphics' CGContext for a layer's draw callback: cairo drawing into a
/// backing store, in the layer's points (y down, origin = bounds.origin),
/// scaled by contentsScale, clipped to the dirty rectangle.
///
/// A context is valid only during the callback that received it: afterwards
/// every call throws (a script may keep the object, never the pixels).
/// The drawing operations live in DrawingContext+*.swift.
public final class DrawingContext {
    /// The cairo context; nil once the callback returned.
    private(set) var cairo: OpaquePointer?
    /// The bitmap drawn into.
    public let image: Image
    /// Pixels per point of the backing store.
    public let scale: Double
    /// The clip bounding box at the start, in points (CGContextGetClipBoundingBox).
    public let initialClip: Rect
    /// The graphics state cairo does not keep (DrawingContext+Paint.swift),
    /// and the copies saveGState pushed beside cairo's own.
    var state = DrawingState()
    var savedStates: [DrawingState] = []
    /// Points → pixels at the start: currentTransform is relative to it.
    var baseMatrix = cairo_matrix_t()
    /// The current path's elements (since it was last empty) and their
    /// charge on the ledger current when the context was made (growPath).
    var pathElements = 0
    let pathCharge = MemoryCharge(forcing: MemoryLedger.current, 0)

    /// A context over `image`, mapping points to pixels by `scale` with
    /// `origin` (bounds.origin) at the top-left pixel, clipped to `clip`.
    public init(image: Image, scale: Double, origin: Point = .zero, clip: Rect? = nil) {
        self.image = image
        self.scale = scale
        let cr = cairo_create(image.surface)!
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -origin.x, -origin.y)
        let full = Rect(origin.x, origin.y, Double(image.width) / scale, Double(image.height) / scale)
        let c = clip.map { $0.intersection(full) } ?? full
        cairo_rectangle(cr, c.origin.x, c.origin.y, c.size.width, c.size.height)
        cairo_clip(cr)
        initialClip = c
        cairo = cr
        cairo_get_matrix(cr, &baseMatrix)
    }

    deinit { invalidate() }

    /// Ends the context's life (after the callback).
    public func invalidate() {
        if let cr = cairo { cairo_destroy(cr) }
        cairo = nil
        pathCharge.force(to: 0)   // the path went with cairo's context
    }

    public var isValid: Bool { cairo != nil }

    /// The live cairo context, or the error a late caller should see.
    func live(_ api: String) throws -> OpaquePointer {
        guard let cr = cairo else {
            throw CalunaError.invalid("\(api): the drawing context is only valid inside the draw callback that received it")
        }
        return cr
    }
}
