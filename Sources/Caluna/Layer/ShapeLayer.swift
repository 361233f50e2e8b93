/// CAShapeLayer (chapter 6, listing 6.1): a vector path filled and stroked
/// in the layer's own space, drawn between the contents and the sublayers,
/// never clipped to the bounds (a zero-size layer still draws). The drawing
/// is in Render/ShapeRendering.swift.
///
/// Choice strings are Core Animation's constant names without the prefix,
/// in lower camel case, as caluna names every choice (kCAGravityResizeAspect
/// → "resizeAspect"): kCAFillRuleEvenOdd → "evenOdd", kCALineCapRound →
/// "round", kCALineJoinBevel → "bevel". (The strings Apple stores are
/// "non-zero" and "even-odd"; caluna does not accept those spellings.)
public struct ShapeLayerState: Equatable {
    /// The shape (CGPath), in the layer's coordinates. Animatable, explicitly
    /// only: setting it never runs an implicit action (Apple).
    public var path: Path? = nil
    /// nil: no fill. Animatable.
    public var fillColor: Color? = .black
    public var fillRule = FillRule.nonZero
    /// nil (the default): no stroke. Animatable.
    public var strokeColor: Color? = nil
    /// Points; 0 strokes nothing. Animatable.
    public var lineWidth = 1.0
    public var lineCap = LineCap.butt
    public var lineJoin = LineJoin.miter
    /// Miter length / line width beyond which a miter join is bevelled. Animatable.
    public var miterLimit = 10.0
    /// On/off lengths in points; nil or empty: a solid stroke.
    public var lineDashPattern: DashPattern? = nil
    /// Points into the dash pattern where the stroke starts. Animatable.
    public var lineDashPhase = 0.0
    /// The stroked part of the path, as fractions of its whole arc length
    /// (all subpaths); clamped to 0…1 when drawn. Animatable.
    public var strokeStart = 0.0
    public var strokeEnd = 1.0

    /// Paths longer than this are refused (the C ABI's PATH limit too).
    public static let maximumPathElements = 1 << 20
    /// At most this many dash lengths (as CGContextSetLineDash in caluna).
    public static let maximumDashCount = 1024

    static func checkPath(_ key: String, _ path: Path?) throws {
        guard let path else { return }
        guard path.elements.count <= maximumPathElements else {
            throw CalunaError.invalid("\(key): \(path.elements.count) elements is more than \(maximumPathElements)")
        }
        for p in path.points { try LayerProperty.checkMagnitude(key, p.x, p.y) }
    }

    static func checkLength(_ key: String, _ v: Double) throws {
        try LayerProperty.nonNegative(key, v)
        try LayerProperty.checkMagnitude(key, v)
    }

    /// Core Graphics' rules, which cairo enforces by failing for good: no
    /// negative length, not all zero.
    static func checkDashes(_ key: String, _ d: DashPattern?) throws {
        guard let d else { return }
        guard d.lengths.count <= maximumDashCount else {
            throw CalunaError.invalid("\(key): \(d.lengths.count) lengths is more than \(maximumDashCount)")
        }
        for (i, v) in d.lengths.enumerated() {
            guard v >= 0, v <= maximumCoordinate else {
                throw CalunaError.invalid("\(key)[\(i + 1)] must be in 0…\(fmt(maximumCoordinate)) points (got \(fmt(v)))")
            }
        }
        if !d.lengths.isEmpty, d.lengths.allSatisfy({ $0 == 0 }) {
            throw CalunaError.invalid("\(key): the lengths must not all be 0 (use nil for a solid line)")
        }
    }
}

/// kCAFillRuleNonZero, kCAFillRuleEvenOdd.
public enum FillRule: String, CaseIterable, Sendable, StringEnumProperty { case nonZero, evenOdd }
/// kCALineCapButt, kCALineCapRound, kCALineCapSquare.
public enum LineCap: String, CaseIterable, Sendable, StringEnumProperty { case butt, round, square }
/// kCALineJoinMiter, kCALineJoinRound, kCALineJoinBevel.
public enum LineJoin: String, CaseIterable, Sendable, StringEnumProperty { case miter, round, bevel }

/// lineDashPattern: an array of numbers (NSArray<NSNumber *>).
public struct DashPattern: Equatable, Sendable, ValueConvertible {
    public var lengths: [Double]
    public init(_ lengths: [Double]) { self.lengths = lengths }
    public static var valueKind: ValueKind { .array }
    public var value: Value { .array(lengths.map { .number($0) }) }
    public init?(value: Value) {
        guard case .array(let items) = value else { return nil }
        var out: [Double] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case .number(let n) = item else { return nil }
            out.append(n)
        }
        lengths = out
    }
}

extension LayerProperties {
    static let shapeLayer: [LayerProperty] = [
        .specialised("path", \.shape.path, animatable: true, animatesImplicitly: false) {
            try ShapeLayerState.checkPath("path", $0)
        },
        .specialised("fillColor", \.shape.fillColor, animatable: true),
        .specialisedChoice("fillRule", \.shape.fillRule),
        .specialised("strokeColor", \.shape.strokeColor, animatable: true),
        .specialised("lineWidth", \.shape.lineWidth, animatable: true) { try ShapeLayerState.checkLength("lineWidth", $0) },
        .specialisedChoice("lineCap", \.shape.lineCap),
        .specialisedChoice("lineJoin", \.shape.lineJoin),
        .specialised("miterLimit", \.shape.miterLimit, animatable: true) { try ShapeLayerState.checkLength("miterLimit", $0) },
        .specialised("lineDashPattern", \.shape.lineDashPattern, animatable: false, elementKind: .number) {
            try ShapeLayerState.checkDashes("lineDashPattern", $0)
        },
        .specialised("lineDashPhase", \.shape.lineDashPhase, animatable: true) {
            try LayerProperty.checkMagnitude("lineDashPhase", $0)
        },
        .specialised("strokeStart", \.shape.strokeStart, animatable: true),
        .specialised("strokeEnd", \.shape.strokeEnd, animatable: true),
    ]
}
