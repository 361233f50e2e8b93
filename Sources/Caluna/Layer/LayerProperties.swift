import Glibc

/// The layer property table: every property declared once — key, kind,
/// default, animatable, what a change invalidates — and used by the Lua
/// binding, the C ABI and (later) animations alike. A class: the fast paths
/// fetch one per access, and a reference costs one retain where a struct of
/// closures would cost one per closure.
public final class LayerProperty {
    public struct Invalidation: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let layout = Invalidation(rawValue: 1)   // the layer's own layout
        public static let render = Invalidation(rawValue: 2)   // the next frame differs
        public static let order = Invalidation(rawValue: 4)    // the siblings' drawing order
    }

    public let key: String
    public let kind: ValueKind
    /// nil is a legal value (e.g. backgroundColor, name).
    public let nullable: Bool
    /// Derived properties (frame, affineTransform) are computed from others.
    public let derived: Bool
    public let animatable: Bool
    public let invalidates: Invalidation
    /// repeatCount and repeatDuration accept infinity (repeat forever).
    public let allowsInfinity: Bool
    /// For array properties (colors, locations, lineDashPattern): the kind
    /// of each element, so Lua and C know how to convert them.
    public let elementKind: ValueKind?
    /// False for animatable properties Core Animation never animates
    /// implicitly (CAShapeLayer.path): no default action.
    public let animatesImplicitly: Bool
    let read: (Layer) -> Value
    let write: (Layer, Value) throws -> Void
    /// Typed access for stored numbers, flags, points, sizes and rects,
    /// without boxing in a Value (the Lua and C fast paths); nil otherwise.
    public let typed: TypedAccess?
    /// The kind `typed` reads and writes (.number, .bool, .point, .size,
    /// .rect), nil without typed access: what the fast paths switch on
    /// (matching `typed` itself copies its closures, a retain and a release each).
    public let typedKind: ValueKind?
    /// The setter of `typed`, in a field of its kind, called in place.
    private let setters: TypedSetters

    init(key: String, kind: ValueKind, nullable: Bool, derived: Bool, animatable: Bool, invalidates: Invalidation,
         allowsInfinity: Bool, elementKind: ValueKind? = nil, animatesImplicitly: Bool = true, typed: TypedAccess? = nil,
         read: @escaping (Layer) -> Value, write: @escaping (Layer, Value) throws -> Void) {
        (self.key, self.kind, self.nullable, self.derived, self.animatable) = (key, kind, nullable, derived, animatable)
        (self.invalidates, self.allowsInfinity, self.elementKind) = (invalidates, allowsInfinity, elementKind)
        (self.animatesImplicitly, self.typed, self.read, self.write) = (animatesImplicitly, typed, read, write)
        var setters = TypedSetters()
        switch typed {
        case .number(_, let w)?: (typedKind, setters.number) = (.number, w)
        case .bool(_, let w)?: (typedKind, setters.bool) = (.bool, w)
        case .point(_, let w)?: (typedKind, setters.point) = (.point, w)
        case .size(_, let w)?: (typedKind, setters.size) = (.size, w)
        case .rect(_, let w)?: (typedKind, setters.rect) = (.rect, w)
        case nil: typedKind = nil
        }
        self.setters = setters
    }

    /// The setters of `typed`, at most one set.
    private struct TypedSetters {
        var number: ((Layer, Double) throws -> Void)?
        var bool: ((Layer, Bool) throws -> Void)?
        var point: ((Layer, Point) throws -> Void)?
        var size: ((Layer, Size) throws -> Void)?
        var rect: ((Layer, Rect) throws -> Void)?
    }

    /// A stored property's getter and (checking) setter, by kind.
    public enum TypedAccess {
        case number((Layer) -> Double, (Layer, Double) throws -> Void)
        case bool((Layer) -> Bool, (Layer, Bool) throws -> Void)
        case point((Layer) -> Point, (Layer, Point) throws -> Void)
        case size((Layer) -> Size, (Layer, Size) throws -> Void)
        case rect((Layer) -> Rect, (Layer, Rect) throws -> Void)
    }

    /// The value of a fresh layer.
    public var defaultValue: Value { read(LayerProperty.pristine) }
    private static let pristine = Layer()

    public func get(_ layer: Layer) -> Value { read(layer) }

    /// False when the environment variable CALUNA_NO_FAST_PATHS is set (read
    /// once): the Lua and C bindings then take their general paths for every
    /// property, which the equivalence tests compare with the fast ones.
    public static let fastPathsEnabled = getenv("CALUNA_NO_FAST_PATHS") == nil

    /// The typed fast paths: the same checks, effects and errors as `set`
    /// (anything unusual — a NaN, a property of another kind — goes through
    /// `set` itself), without boxing the value.
    public func setNumber(_ layer: Layer, _ v: Double) throws {
        guard let write = setters.number, v.isFinite else { return try set(layer, .number(v)) }
        try setTyped(layer) { try write(layer, v) }
    }

    public func setBool(_ layer: Layer, _ v: Bool) throws {
        guard let write = setters.bool else { return try set(layer, .bool(v)) }
        try setTyped(layer) { try write(layer, v) }
    }

    public func setPoint(_ layer: Layer, _ v: Point) throws {
        guard let write = setters.point, v.x.isFinite, v.y.isFinite else { return try set(layer, .point(v)) }
        try setTyped(layer) { try write(layer, v) }
    }

    public func setSize(_ layer: Layer, _ v: Size) throws {
        guard let write = setters.size, v.width.isFinite, v.height.isFinite else { return try set(layer, .size(v)) }
        try setTyped(layer) { try write(layer, v) }
    }

    public func setRect(_ layer: Layer, _ v: Rect) throws {
        guard let write = setters.rect, v.origin.x.isFinite, v.origin.y.isFinite,
              v.size.width.isFinite, v.size.height.isFinite else { return try set(layer, .rect(v)) }
        try setTyped(layer) { try write(layer, v) }
    }

    @inline(__always)
    private func setTyped(_ layer: Layer, _ write: () throws -> Void) throws {
        try layer.checkModel(key)
        try write()
        try layer.takeEngineActionError()
    }

    /// Sets after checking kind and finiteness; range rules live in `write`.
    public func set(_ layer: Layer, _ v: Value) throws {
        if case .null = v {
            guard nullable else {
                throw CalunaError(.typeMismatch, "\(key) expects \(kind.expectation), got nil")
            }
        } else if v.kind != kind {
            throw CalunaError(.typeMismatch, "\(key) expects \(kind.expectation), got \(v.kind.expectation)")
        }
        if let elementKind, case .array(let items) = v {
            for (i, item) in items.enumerated() where item.kind != elementKind {
                throw CalunaError(.typeMismatch, "\(key)[\(i + 1)] expects \(elementKind.expectation), got \(item.kind.expectation)")
            }
        }
        try layer.checkModel(key)
        if case .number(let n) = v, allowsInfinity, n == .infinity {
        } else if !v.isFinite {
            throw CalunaError(.invalidArgument, "\(key) must be finite (got NaN or infinity)")
        }
        try write(layer, v)
        // The property keeps its new value even when its action failed.
        try layer.engine?.takeActionError()
    }
}

/// A Swift type a property can hold, and how it maps to `Value`.
public protocol ValueConvertible {
    static var valueKind: ValueKind { get }
    static var nullable: Bool { get }
    var value: Value { get }
    init?(value: Value)
    /// Typed access to a stored property of this type (nil: none).
    static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                            _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess?
}
extension ValueConvertible {
    public static var nullable: Bool { false }
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? { nil }
}

extension Double: ValueConvertible {
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? {
        .number(get, { layer, v in try check(v); set(layer, v) })
    }
    public static var valueKind: ValueKind { .number }
    public var value: Value { .number(self) }
    public init?(value: Value) { guard case .number(let v) = value else { return nil }; self = v }
}
extension Bool: ValueConvertible {
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? {
        .bool(get, { layer, v in try check(v); set(layer, v) })
    }
    public static var valueKind: ValueKind { .bool }
    public var value: Value { .bool(self) }
    public init?(value: Value) { guard case .bool(let v) = value else { return nil }; self = v }
}
extension String: ValueConvertible {
    public static var valueKind: ValueKind { .string }
    public var value: Value { .string(self) }
    public init?(value: Value) { guard case .string(let v) = value else { return nil }; self = v }
}
extension Point: ValueConvertible {
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? {
        .point(get, { layer, v in try check(v); set(layer, v) })
    }
    public static var valueKind: ValueKind { .point }
    public var value: Value { .point(self) }
    public init?(value: Value) { guard case .point(let v) = value else { return nil }; self = v }
}
extension Size: ValueConvertible {
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? {
        .size(get, { layer, v in try check(v); set(layer, v) })
    }
    public static var valueKind: ValueKind { .size }
    public var value: Value { .size(self) }
    public init?(value: Value) { guard case .size(let v) = value else { return nil }; self = v }
}
extension Rect: ValueConvertible {
    public static func typedAccess(_ get: @escaping (Layer) -> Self, _ set: @escaping (Layer, Self) -> Void,
                                   _ check: @escaping (Self) throws -> Void) -> LayerProperty.TypedAccess? {
        .rect(get, { layer, v in try check(v); set(layer, v) })
    }
    public static var valueKind: ValueKind { .rect }
    public var value: Value { .rect(self) }
    public init?(value: Value) { guard case .rect(let v) = value else { return nil }; self = v }
}
extension Color: ValueConvertible {
    public static var valueKind: ValueKind { .color }
    public var value: Value { .color(self) }
    public init?(value: Value) { guard case .color(let v) = value else { return nil }; self = v }
}
extension Path: ValueConvertible {
    public static var valueKind: ValueKind { .path }
    public var value: Value { .path(self) }
    public init?(value: Value) { guard case .path(let v) = value else { return nil }; self = v }
}
extension Transform3D: ValueConvertible {
    public static var valueKind: ValueKind { .transform }
    public var value: Value { .transform(self) }
    public init?(value: Value) { guard case .transform(let v) = value else { return nil }; self = v }
}
extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    public static var valueKind: ValueKind { Wrapped.valueKind }
    public static var nullable: Bool { true }
    public var value: Value { self?.value ?? .null }
    public init?(value: Value) {
        if case .null = value { self = nil; return }
        guard let w = Wrapped(value: value) else { return nil }
        self = w
    }
}

/// Geometry beyond this magnitude (points) is refused: cairo's fixed-point
/// coordinates cannot represent it, and no real scene needs it.
public let maximumCoordinate = 1.0e8

extension LayerProperty {
    /// A blur wider than this (points) is refused: its kernel would be huge.
    public static let maximumShadowRadius = 1000.0
}

extension LayerProperty {
    /// A stored property read and written through `get` and `set` (closures
    /// written at the declaration, so an access is a direct call: a key path
    /// applied at run time costs a third of a typed property access).
    static func stored<T: ValueConvertible>(
        _ key: String, _ get: @escaping (Layer) -> T, _ set: @escaping (Layer, T) -> Void, animatable: Bool,
        invalidates: Invalidation = .render, derived: Bool = false, allowsInfinity: Bool = false,
        check: @escaping (T) throws -> Void = { _ in }
    ) -> LayerProperty {
        LayerProperty(
            key: key, kind: T.valueKind, nullable: T.nullable, derived: derived, animatable: animatable,
            invalidates: invalidates, allowsInfinity: allowsInfinity, typed: T.typedAccess(get, set, check),
            read: { get($0).value },
            write: { layer, v in
                guard let t = T(value: v) else {
                    throw CalunaError(.typeMismatch, "\(key) expects \(T.valueKind.expectation), got \(v.kind.expectation)")
                }
                try check(t)
                set(layer, t)
            })
    }

    /// The same through a key path (properties no fast path reads).
    static func stored<T: ValueConvertible>(
        _ key: String, _ path: ReferenceWritableKeyPath<Layer, T>, animatable: Bool,
        invalidates: Invalidation = .render, derived: Bool = false, allowsInfinity: Bool = false,
        check: @escaping (T) throws -> Void = { _ in }
    ) -> LayerProperty {
        stored(key, { $0[keyPath: path] }, { $0[keyPath: path] = $1 }, animatable: animatable, invalidates: invalidates,
               derived: derived, allowsInfinity: allowsInfinity, check: check)
    }

    /// A property holding one of Core Animation's strings (gravity, filters).
    static func choice<T: StringEnumProperty>(_ key: String, _ path: ReferenceWritableKeyPath<Layer, T>) -> LayerProperty {
        stored(key, path, animatable: false).restricted(to: T.self)
    }

    static func nonNegative(_ key: String, _ v: Double) throws {
        guard v >= 0 else { throw CalunaError.invalid("\(key) must not be negative (got \(fmt(v)))") }
    }

    static func scale(_ key: String, _ v: Double) throws {
        guard v > 0, v <= 64 else { throw CalunaError.invalid("\(key) must be in (0, 64] (got \(fmt(v)))") }
    }

    static func timing(_ key: String, _ path: WritableKeyPath<MediaTiming, Double>) -> LayerProperty {
        stored(key, (\Layer.timing).appending(path: path), animatable: false, invalidates: .render,
               allowsInfinity: MediaTiming.allowsInfinity(key)) { try MediaTiming.check(key, $0) }
    }

    /// Refuses a value beyond ±maximumCoordinate; `unit` names what the
    /// value measures in the message (points unless said otherwise).
    public static func checkMagnitude(_ key: String, unit: String = "points", _ values: Double...) throws {
        for v in values { try checkMagnitude(key, unit: unit, v) }
    }

    /// One value (and two, below): what the property setters call, without
    /// the array a variadic call makes.
    @inline(__always)
    public static func checkMagnitude(_ key: String, unit: String = "points", _ v: Double) throws {
        guard abs(v) <= maximumCoordinate else {
            throw CalunaError(.invalidArgument, "\(key): \(v) is beyond the supported range ±\(fmt(maximumCoordinate)) \(unit)")
        }
    }

    @inline(__always)
    public static func checkMagnitude(_ key: String, _ x: Double, _ y: Double) throws {
        try checkMagnitude(key, x)
        try checkMagnitude(key, y)
    }

    public static func checkRect(_ key: String, _ r: Rect) throws {
        try checkMagnitude(key, r.origin.x, r.origin.y)
        try checkMagnitude(key, r.size.width, r.size.height)
        guard r.size.width >= 0, r.size.height >= 0 else {
            throw CalunaError(.invalidArgument, "\(key): width and height must not be negative (got \(r))")
        }
    }
}

/// All layer properties, in declaration order.
public enum LayerProperties {
    public static let all: [LayerProperty] = [
        .stored("bounds", { $0.bounds }, { $0.bounds = $1 }, animatable: true, invalidates: [.render, .layout]) { try LayerProperty.checkRect("bounds", $0) },
        .stored("position", { $0.position }, { $0.position = $1 }, animatable: true) { try LayerProperty.checkMagnitude("position", $0.x, $0.y) },
        .stored("frame", { $0.frame }, { $0.frame = $1 }, animatable: false, invalidates: [.render, .layout], derived: true) {
            try LayerProperty.checkRect("frame", $0)
        },
        .stored("anchorPoint", { $0.anchorPoint }, { $0.anchorPoint = $1 }, animatable: true) { try LayerProperty.checkMagnitude("anchorPoint", $0.x, $0.y) },
        .stored("anchorPointZ", { $0.anchorPointZ }, { $0.anchorPointZ = $1 }, animatable: true) { try LayerProperty.checkMagnitude("anchorPointZ", $0) },
        .stored("zPosition", { $0.zPosition }, { $0.zPosition = $1 }, animatable: true, invalidates: [.render, .order]) {
            try LayerProperty.checkMagnitude("zPosition", $0)
        },
        .stored("transform", { $0.transform }, { $0.transform = $1 }, animatable: true),
        .stored("affineTransform", { $0.affineTransformValue }, { $0.affineTransformValue = $1 }, animatable: false, derived: true),
        .stored("sublayerTransform", { $0.sublayerTransform }, { $0.sublayerTransform = $1 }, animatable: true),
        .stored("doubleSided", { $0.doubleSided }, { $0.doubleSided = $1 }, animatable: true),
        .stored("geometryFlipped", { $0.geometryFlipped }, { $0.geometryFlipped = $1 }, animatable: false),
        .stored("hidden", { $0.hidden }, { $0.hidden = $1 }, animatable: true),
        .stored("opacity", { $0.opacity }, { $0.opacity = $1 }, animatable: true),
        .stored("backgroundColor", { $0.backgroundColor }, { $0.backgroundColor = $1 }, animatable: true),
        .stored("masksToBounds", { $0.masksToBounds }, { $0.masksToBounds = $1 }, animatable: true),
        .stored("allowsGroupOpacity", { $0.allowsGroupOpacity }, { $0.allowsGroupOpacity = $1 }, animatable: false),
        .stored("allowsEdgeAntialiasing", { $0.allowsEdgeAntialiasing }, { $0.allowsEdgeAntialiasing = $1 }, animatable: false),
        .stored("name", { $0.name }, { $0.name = $1 }, animatable: false, invalidates: []),
        // Contents (ch.2): the image, where it goes, how it is sampled.
        LayerProperty(key: "contents", kind: .image, nullable: true, derived: false, animatable: true, invalidates: .render,
                      allowsInfinity: false, read: { $0.contents.map(Value.image) ?? .null },
                      write: { layer, v in if case .image(let i) = v { layer.contents = i } else { layer.contents = nil } }),
        .choice("contentsGravity", \.contentsGravity),
        .stored("contentsScale", { $0.contentsScale }, { $0.contentsScale = $1 }, animatable: false) { try LayerProperty.scale("contentsScale", $0) },
        .stored("contentsRect", { $0.contentsRect }, { $0.contentsRect = $1 }, animatable: true) { try LayerProperty.checkMagnitude("contentsRect", $0.origin.x, $0.origin.y, $0.size.width, $0.size.height) },
        .stored("contentsCenter", { $0.contentsCenter }, { $0.contentsCenter = $1 }, animatable: true) { try LayerProperty.checkMagnitude("contentsCenter", $0.origin.x, $0.origin.y, $0.size.width, $0.size.height) },
        .choice("minificationFilter", \.minificationFilter),
        .choice("magnificationFilter", \.magnificationFilter),
        .stored("minificationFilterBias", { $0.minificationFilterBias }, { $0.minificationFilterBias = $1 }, animatable: false) { try LayerProperty.checkMagnitude("minificationFilterBias", $0) },
        .stored("opaque", { $0.isOpaque }, { $0.isOpaque = $1 }, animatable: false),
        .stored("needsDisplayOnBoundsChange", { $0.needsDisplayOnBoundsChange }, { $0.needsDisplayOnBoundsChange = $1 }, animatable: false, invalidates: []),
        .stored("drawsAsynchronously", { $0.drawsAsynchronously }, { $0.drawsAsynchronously = $1 }, animatable: false, invalidates: []),
        // Visual effects (ch.4).
        .stored("cornerRadius", { $0.cornerRadius }, { $0.cornerRadius = $1 }, animatable: true) {
            try LayerProperty.nonNegative("cornerRadius", $0); try LayerProperty.checkMagnitude("cornerRadius", $0)
        },
        .stored("maskedCorners", { $0.maskedCorners }, { $0.maskedCorners = $1 }, animatable: false),
        .stored("borderWidth", { $0.borderWidth }, { $0.borderWidth = $1 }, animatable: true) {
            try LayerProperty.nonNegative("borderWidth", $0); try LayerProperty.checkMagnitude("borderWidth", $0)
        },
        .stored("borderColor", { $0.borderColor }, { $0.borderColor = $1 }, animatable: true),
        .stored("shadowColor", { $0.shadowColor }, { $0.shadowColor = $1 }, animatable: true),
        .stored("shadowOpacity", { $0.shadowOpacity }, { $0.shadowOpacity = $1 }, animatable: true),
        .stored("shadowOffset", { $0.shadowOffset }, { $0.shadowOffset = $1 }, animatable: true) { try LayerProperty.checkMagnitude("shadowOffset", $0.width, $0.height) },
        .stored("shadowRadius", { $0.shadowRadius }, { $0.shadowRadius = $1 }, animatable: true) {
            try LayerProperty.nonNegative("shadowRadius", $0)
            guard $0 <= LayerProperty.maximumShadowRadius else {
                throw CalunaError.invalid("shadowRadius: \(fmt($0)) is beyond the supported \(fmt(LayerProperty.maximumShadowRadius)) points")
            }
        },
        .stored("shadowPath", { $0.shadowPath }, { $0.shadowPath = $1 }, animatable: true) { p in
            for q in p?.points ?? [] { try LayerProperty.checkMagnitude("shadowPath", q.x, q.y) }
        },
        .stored("shouldRasterize", { $0.shouldRasterize }, { $0.shouldRasterize = $1 }, animatable: false),
        .stored("rasterizationScale", { $0.rasterizationScale }, { $0.rasterizationScale = $1 }, animatable: false) { try LayerProperty.scale("rasterizationScale", $0) },
        // Media timing (ch.9): only beginTime, speed and timeOffset change a
        // layer's time; the others are kept for CAMediaTiming parity.
        .timing("beginTime", \.beginTime), .timing("duration", \.duration), .timing("speed", \.speed),
        .timing("timeOffset", \.timeOffset), .timing("repeatCount", \.repeatCount),
        .timing("repeatDuration", \.repeatDuration),
        .stored("autoreverses", { $0.timing.autoreverses }, { $0.timing.autoreverses = $1 }, animatable: false, invalidates: []),
        .stored("fillMode", { $0.fillModeName }, { $0.fillModeName = $1 }, animatable: false, invalidates: []) { v in
            guard MediaTiming.FillMode(rawValue: v) != nil else {
                throw CalunaError.invalid("fillMode must be one of \"removed\", \"forwards\", \"backwards\", \"both\"")
            }
        },
    ]

    private static let byKey: [String: LayerProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    public static func named(_ key: String) -> LayerProperty? { byKey[key] }

    /// Core Animation layer keys caluna knows but does not implement yet:
    /// setting or reading one is a clear "not supported" error, never a silent no-op.
    public static let notYetSupported: [String: String] = {
        var d: [String: String] = [:]
        d["contentsFormat"] = "caluna stores every backing image as 8-bit premultiplied ARGB"
        d["cornerCurve"] = "only \"circular\" corners are drawn"
        for k in ["filters", "backgroundFilters", "compositingFilter", "edgeAntialiasingMask",
                  "layoutManager", "constraints", "autoresizingMask"] {
            d[k] = "nothing yet: not in caluna's scope"
        }
        return d
    }()

    /// Looks a key up, with the error a caller should see when it is unknown.
    /// `kind` nil: a property of any kind (an animation's key path, before
    /// it is attached to a layer).
    public static func resolve(_ key: String, kind: LayerKind? = .layer) throws -> LayerProperty {
        guard let kind else {
            if let p = named(key) { return p }
            if let owner = owner(of: key), let p = named(key, kind: owner) { return p }
            return try resolve(key, kind: .layer)
        }
        if let p = named(key, kind: kind) { return p }
        if let owner = owner(of: key) {
            throw CalunaError(.unknownKey, "\(kind.className) has no property '\(key)' (it belongs to \(owner.className))")
        }
        if let why = notYetSupported[key] {
            throw CalunaError(.notSupported, "Layer property '\(key)' is not supported yet (\(why))")
        }
        if key == "mask" {
            throw CalunaError(.unknownKey, "Layer.mask is a layer, not a value: set it with its own call (Lua layer.mask = …; C caluna_layer_set_mask)")
        }
        if key == "actions" || key == "style" || key == "delegate" {
            throw CalunaError(.unknownKey, "Layer.\(key) holds actions, not a value: set it with its own call (Lua layer.\(key) = …; C caluna_layer_set_action…)")
        }
        throw CalunaError(.unknownKey, "Layer has no property '\(key)'")
    }
}

extension Layer {
    var fillModeName: String {
        get { timing.fillMode.rawValue }
        set { if let m = MediaTiming.FillMode(rawValue: newValue) { timing.fillMode = m } }
    }

    /// Stored as a Transform3D so it shares the transform kind (setAffineTransform
    /// keeps only the affine part of what it is given).
    var affineTransformValue: Transform3D {
        get { Transform3D(affineTransform) }
        set { transform = Transform3D(newValue.affine) }
    }

    /// A key path's property name and the components after it ("bounds",
    /// ["size", "width"]); a plain key (most) is not split.
    static func splitKeyPath(_ keyPath: String) -> (key: String, rest: [Substring]) {
        guard keyPath.utf8.contains(UInt8(ascii: ".")) else { return (keyPath, []) }
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        return (String(parts[0]), Array(parts.dropFirst()))
    }

    /// KVC-style access by key path: "position", "position.x", "bounds.size.width".
    public func value(forKeyPath keyPath: String) throws -> Value {
        let (key, rest) = Layer.splitKeyPath(keyPath)
        let prop = try LayerProperties.resolve(key, kind: kind)
        guard let v = prop.get(self).component(rest) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer (\(prop.key) is \(prop.kind.expectation))")
        }
        return v
    }

    public func setValue(_ v: Value, forKeyPath keyPath: String) throws {
        let (key, rest) = Layer.splitKeyPath(keyPath)
        let prop = try LayerProperties.resolve(key, kind: kind)
        if rest.isEmpty { return try prop.set(self, v) }
        guard let componentKind = Value.componentKind(of: prop.kind, rest) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer (\(prop.key) is \(prop.kind.expectation))")
        }
        guard v.kind == componentKind else {
            throw CalunaError(.typeMismatch, "\(keyPath) expects \(componentKind.expectation), got \(v.kind.expectation)")
        }
        guard let whole = prop.get(self).settingComponent(rest, to: v) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer")
        }
        try prop.set(self, whole)
    }
}

extension Layer {
    /// The kind a key path takes, and whether nil is allowed (for callers that
    /// convert untyped input, like Lua).
    public static func kind(forKeyPath keyPath: String, of layerKind: LayerKind? = nil) throws -> (ValueKind, Bool) {
        let (key, rest) = splitKeyPath(keyPath)
        let prop = try LayerProperties.resolve(key, kind: layerKind)
        guard let kind = Value.componentKind(of: prop.kind, rest) else {
            throw CalunaError(.unknownKey, "'\(keyPath)' is not a key path of Layer (\(prop.key) is \(prop.kind.expectation))")
        }
        return (kind, rest.isEmpty && prop.nullable)
    }

    /// The kind of each element when a key path names a whole array property
    /// (gradient colors, dash patterns); nil otherwise.
    public static func elementKind(forKeyPath keyPath: String, of layerKind: LayerKind? = nil) -> ValueKind? {
        guard !keyPath.contains(".") else { return nil }
        return (try? LayerProperties.resolve(keyPath, kind: layerKind))?.elementKind
    }
}
