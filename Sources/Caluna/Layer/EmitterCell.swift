/// CAEmitterCell: the template an emitter layer makes particles from. Three
/// kinds of values (book, 6.13): initial values (color, velocity, scale …),
/// ranges (each particle gets mean ± range/2, uniform, spec §2.11), and
/// speeds (change per second of age). Cells may hold cells: every particle
/// of the outer cell emits them.
///
/// The values live in one table (`EmitterCell.properties`: key, kind,
/// default, check) that Lua and C use alike. A change to a cell that is
/// installed in a layer affects particles born from then on (the layer's
/// emission history records it at the time it is made).
public final class EmitterCell {
    public private(set) var parameters = EmitterCellParameters()
    /// Sub-cells: each particle of this cell emits them.
    public private(set) var emitterCells: [EmitterCell] = []
    /// The emitter histories this cell takes part in (directly or nested).
    private var owners: [WeakSimulation] = []

    public init() {}

    /// The deepest nesting of sub-cells accepted (each level multiplies the
    /// particle count).
    public static let maximumNesting = 8

    public func value(forKey key: String) throws -> Value {
        try EmitterCell.property(key).read(parameters)
    }

    public func setValue(_ v: Value, forKey key: String) throws {
        let p = try EmitterCell.property(key)
        if case .null = v {
            guard p.nullable else { throw CalunaError(.typeMismatch, "EmitterCell.\(key) expects \(p.kind.expectation), got nil") }
        } else if v.kind != p.kind {
            throw CalunaError(.typeMismatch, "EmitterCell.\(key) expects \(p.kind.expectation), got \(v.kind.expectation)")
        }
        guard v.isFinite else { throw CalunaError.invalid("EmitterCell.\(key) must be finite (got NaN or infinity)") }
        var copy = parameters
        try p.write(&copy, v)
        guard copy != parameters else { return }
        parameters = copy
        notifyOwners()
    }

    /// Replaces the sub-cells (nil or empty: none). Refuses cycles and
    /// nesting deeper than `maximumNesting`.
    public func setEmitterCells(_ cells: [EmitterCell]) throws {
        for c in cells where c === self || c.contains(self) {
            throw CalunaError(.treeError, "EmitterCell.emitterCells: a cell cannot contain itself")
        }
        let depth = 1 + (cells.map(\.nestingDepth).max() ?? 0)
        guard depth <= EmitterCell.maximumNesting else {
            throw CalunaError.invalid("EmitterCell.emitterCells: nesting deeper than \(EmitterCell.maximumNesting) levels is not supported")
        }
        emitterCells = cells
        for o in owners { if let s = o.simulation { for c in cells { c.addOwner(s) } } }
        notifyOwners()
    }

    /// Levels of cells below and including this one.
    var nestingDepth: Int { 1 + (emitterCells.map(\.nestingDepth).max() ?? 0) }

    func contains(_ cell: EmitterCell) -> Bool {
        emitterCells.contains { $0 === cell || $0.contains(cell) }
    }

    /// The values now, with the sub-cells', as one value.
    var snapshot: EmitterCellSnapshot {
        EmitterCellSnapshot(parameters: parameters, subcells: emitterCells.map(\.snapshot))
    }

    func addOwner(_ s: EmitterSimulation) {
        owners.removeAll { $0.simulation == nil }
        if !owners.contains(where: { $0.simulation === s }) { owners.append(WeakSimulation(simulation: s)) }
        for c in emitterCells { c.addOwner(s) }
    }

    private func notifyOwners() {
        for o in owners { o.simulation?.noteChange() }
    }

    public static func property(_ key: String) throws -> EmitterCellProperty {
        if let p = propertiesByKey[key] { return p }
        if key == "emitterCells" {
            throw CalunaError(.unknownKey, "EmitterCell.emitterCells holds cells, not a value: set it with its own call (Lua cell.emitterCells = {…}; C caluna_emitter_cell_set_cells)")
        }
        if let why = notSupported[key] { throw CalunaError(.notSupported, "EmitterCell.\(key) is not supported (\(why))") }
        throw CalunaError(.unknownKey, "EmitterCell has no property '\(key)'")
    }

    /// CAEmitterCell keys caluna knows and does not do.
    static let notSupported: [String: String] = {
        var d = ["style": "no style dictionaries on cells"]
        for k in ["speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode"] {
            d[k] = "a cell's timing is beginTime and duration only"
        }
        return d
    }()
}

struct WeakSimulation { weak var simulation: EmitterSimulation? }

/// A cell's values at one moment, with its sub-cells': what the particles
/// born in one stretch of the emission history are made from.
public struct EmitterCellSnapshot: Equatable {
    public var parameters: EmitterCellParameters
    public var subcells: [EmitterCellSnapshot]
}

/// The stored values of a cell (defaults are Apple's, spec §2.12).
public struct EmitterCellParameters: Equatable {
    public var name: String? = nil
    public var enabled = true
    public var contents: Image? = nil
    public var contentsRect = Rect(0, 0, 1, 1)
    public var contentsScale = 1.0
    public var minificationFilter = ContentsFilter.linear
    public var magnificationFilter = ContentsFilter.linear
    public var minificationFilterBias = 0.0
    /// Particles per second (× the layer's birthRate).
    public var birthRate = 0.0
    public var lifetime = 0.0, lifetimeRange = 0.0
    public var velocity = 0.0, velocityRange = 0.0
    public var xAcceleration = 0.0, yAcceleration = 0.0, zAcceleration = 0.0
    public var emissionLatitude = 0.0, emissionLongitude = 0.0, emissionRange = 0.0
    public var scale = 1.0, scaleRange = 0.0, scaleSpeed = 0.0
    public var spin = 0.0, spinRange = 0.0
    public var color = Color.white
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0
    /// When the cell emits, in its emitter's time (a sub-cell's: its parent
    /// particle's age); duration 0 emits for ever.
    public var beginTime = 0.0, duration = 0.0

    public static func == (a: Self, b: Self) -> Bool {
        a.contents === b.contents && a.isEqual(b)
    }

    /// Memberwise equality but for contents (an image compares by identity).
    private func isEqual(_ o: Self) -> Bool {
        name == o.name && enabled == o.enabled && contentsRect == o.contentsRect && contentsScale == o.contentsScale
            && minificationFilter == o.minificationFilter && magnificationFilter == o.magnificationFilter
            && minificationFilterBias == o.minificationFilterBias
            && EmitterCell.numberKeys.allSatisfy { self[keyPath: $0] == o[keyPath: $0] } && color == o.color
    }
}

/// One row of the cell property table.
public struct EmitterCellProperty {
    public let key: String
    public let kind: ValueKind
    public let nullable: Bool
    public var defaultValue: Value { read(EmitterCellParameters()) }
    let read: (EmitterCellParameters) -> Value
    let write: (inout EmitterCellParameters, Value) throws -> Void

    /// `refused`: the message for a value of the right kind `T` does not
    /// take (a string that is not one of an enumeration's cases).
    static func stored<T: ValueConvertible>(_ key: String, _ path: WritableKeyPath<EmitterCellParameters, T>,
                                            refused: String = "is not accepted",
                                            check: @escaping (T) throws -> Void = { _ in }) -> EmitterCellProperty {
        EmitterCellProperty(key: key, kind: T.valueKind, nullable: T.nullable, read: { $0[keyPath: path].value },
                            write: { params, v in
            guard let t = T(value: v) else { throw CalunaError(.invalidArgument, "EmitterCell.\(key) \(refused)") }
            try check(t)
            params[keyPath: path] = t
        })
    }

    static func choice<T: StringEnumProperty>(_ key: String, _ path: WritableKeyPath<EmitterCellParameters, T>) -> EmitterCellProperty {
        stored(key, path, refused: "must be one of \(T.choices)")
    }

    static func number(_ key: String, _ path: WritableKeyPath<EmitterCellParameters, Double>,
                       nonNegative: Bool = false) -> EmitterCellProperty {
        stored(key, path) { v in
            if nonNegative { try LayerProperty.nonNegative("EmitterCell.\(key)", v) }
            if key == "birthRate" {
                guard v <= EmitterSimulation.maximumBirthRate else {
                    throw CalunaError.invalid("EmitterCell.birthRate: \(fmt(v)) is more than \(fmt(EmitterSimulation.maximumBirthRate)) particles per second")
                }
            } else {
                try LayerProperty.checkMagnitude("EmitterCell.\(key)", unit: EmitterCell.unit(of: key), v)
            }
        }
    }
}

extension EmitterCell {
    /// What a numeric value measures, for messages.
    static func unit(of key: String) -> String {
        switch key {
        case "lifetime", "lifetimeRange": return "seconds"
        case "velocity", "velocityRange": return "points per second"
        case "xAcceleration", "yAcceleration", "zAcceleration": return "points per second²"
        case "emissionLatitude", "emissionLongitude", "emissionRange": return "radians"
        case "spin", "spinRange": return "radians per second"
        case "scale", "scaleRange": return "(a scale factor)"
        case "scaleSpeed": return "per second"
        default: return key.hasSuffix("Speed") ? "per second" : key.hasSuffix("Range") ? "(colour components)" : "points"
        }
    }

    /// The numeric values, in table order, and whether each must be ≥ 0.
    static let numberRows: [(String, WritableKeyPath<EmitterCellParameters, Double>, Bool)] = [
        ("birthRate", \.birthRate, true), ("lifetime", \.lifetime, true), ("lifetimeRange", \.lifetimeRange, true),
        ("velocity", \.velocity, false), ("velocityRange", \.velocityRange, true),
        ("xAcceleration", \.xAcceleration, false), ("yAcceleration", \.yAcceleration, false),
        ("zAcceleration", \.zAcceleration, false),
        ("emissionLatitude", \.emissionLatitude, false), ("emissionLongitude", \.emissionLongitude, false),
        ("emissionRange", \.emissionRange, true),
        ("scale", \.scale, false), ("scaleRange", \.scaleRange, true), ("scaleSpeed", \.scaleSpeed, false),
        ("spin", \.spin, false), ("spinRange", \.spinRange, true),
        ("redRange", \.redRange, true), ("greenRange", \.greenRange, true), ("blueRange", \.blueRange, true),
        ("alphaRange", \.alphaRange, true),
        ("redSpeed", \.redSpeed, false), ("greenSpeed", \.greenSpeed, false), ("blueSpeed", \.blueSpeed, false),
        ("alphaSpeed", \.alphaSpeed, false),
        ("beginTime", \.beginTime, false), ("duration", \.duration, true),
    ]
    static let numberKeys = numberRows.map(\.1)

    /// Every cell property, in declaration order.
    public static let properties: [EmitterCellProperty] = [
        .stored("name", \.name),
        .stored("enabled", \.enabled),
        EmitterCellProperty(key: "contents", kind: .image, nullable: true, read: { $0.contents.map(Value.image) ?? .null },
                            write: { p, v in if case .image(let i) = v { p.contents = i } else { p.contents = nil } }),
        .stored("contentsRect", \.contentsRect) { r in
            try LayerProperty.checkMagnitude("EmitterCell.contentsRect", r.origin.x, r.origin.y, r.size.width, r.size.height)
        },
        .stored("contentsScale", \.contentsScale) { try LayerProperty.scale("EmitterCell.contentsScale", $0) },
        .choice("minificationFilter", \.minificationFilter),
        .choice("magnificationFilter", \.magnificationFilter),
        .number("minificationFilterBias", \.minificationFilterBias),
        .stored("color", \.color),
    ] + numberRows.map { EmitterCellProperty.number($0.0, $0.1, nonNegative: $0.2) }

    static let propertiesByKey = Dictionary(uniqueKeysWithValues: properties.map { ($0.key, $0) })
}
