/// Input a host or a script feeds the engine — pointer, key, tilt, resize and
/// named custom events — and the gestures the engine recognises from them.
/// Events are stamped on the virtual clock and delivered in order during a
/// step (EventQueue.swift); handlers find the hit layer (EventDispatch.swift).
public struct InputEvent {
    public enum Kind: String, CaseIterable, Sendable {
        case pointerDown = "pointerdown", pointerMove = "pointermove", pointerUp = "pointerup"
        case pointerCancel = "pointercancel"
        case keyDown = "keydown", keyUp = "keyup"
        case tilt, resize, custom
        /// Recognised by the engine from pointer events (never sent).
        case tap, pan

        public var isPointer: Bool {
            switch self {
            case .pointerDown, .pointerMove, .pointerUp, .pointerCancel: return true
            default: return false
            }
        }

        public var isGesture: Bool { self == .tap || self == .pan }

        /// Kinds a layer can handle: they have a hit layer to start from.
        public var reachesLayers: Bool { isPointer || isGesture }
    }

    /// Keyboard modifiers held during the event.
    public struct Modifiers: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        public static let control = Modifiers(rawValue: 2)
        public static let alt = Modifiers(rawValue: 4)
        public static let meta = Modifiers(rawValue: 8)

        public static let names: [(String, Modifiers)] = [("shift", .shift), ("control", .control), ("alt", .alt), ("meta", .meta)]
        public static let all = Modifiers(rawValue: 15)
    }

    /// A pan's state (UIGestureRecognizerState, for the continuous gesture).
    public enum Phase: String, Sendable {
        case none = "", began, changed, ended, cancelled
    }

    public var kind: Kind
    /// The event's name: the kind's name, or a custom event's own name.
    public var name: String
    /// Media time in seconds the event happened at (set when it is queued).
    public internal(set) var time: Double = 0
    /// Pointer id (a finger, the mouse): moves and ups follow their down.
    public var pointerID: Int64 = 0
    /// Pointer position in the root layer's coordinates (points, y down).
    public var location = Point.zero
    /// Buttons held: 1 primary, 2 secondary, 4 middle (a bit mask).
    public var buttons: Int32 = 0
    public var modifiers: Modifiers = []
    /// Key events: the key's name ("a", "Left", "Return", …) and the text it types.
    public var key = ""
    public var text = ""
    /// Tilt: the accelerometer vector, in g (the book's UIAcceleration).
    public var acceleration = (x: 0.0, y: 0.0, z: 0.0)
    /// Resize: the new output size in points, and scale (nil: keep it).
    public var size = Size.zero
    public var scale: Double? = nil
    /// A custom event's data (JSON-shaped).
    public var payload = EventPayload.null

    // Filled in by delivery.
    /// The hit layer (model tree), or nil when the pointer hit no layer or
    /// the event does not concern a layer.
    public internal(set) var target: Layer? = nil
    /// The layer whose handler is running (nil for handlers on the engine).
    public internal(set) var currentTarget: Layer? = nil
    /// Pan: its phase, translation since it began (or since setTranslation)
    /// and velocity in points per second.
    public internal(set) var phase = Phase.none
    public internal(set) var translation = Point.zero
    public internal(set) var velocity = Point.zero

    public init(_ kind: Kind, name: String? = nil) {
        self.kind = kind
        self.name = name ?? kind.rawValue
    }

    public static func pointer(_ kind: Kind, id: Int64 = 1, at p: Point, buttons: Int32? = nil,
                               modifiers: Modifiers = []) -> InputEvent {
        var e = InputEvent(kind)
        e.pointerID = id
        e.location = p
        e.buttons = buttons ?? (kind == .pointerDown || kind == .pointerMove ? 1 : 0)
        e.modifiers = modifiers
        return e
    }

    public static func key(_ kind: Kind, _ key: String, text: String = "", modifiers: Modifiers = []) -> InputEvent {
        var e = InputEvent(kind)
        e.key = key
        e.text = text
        e.modifiers = modifiers
        return e
    }

    public static func tilt(x: Double, y: Double, z: Double = 0) -> InputEvent {
        var e = InputEvent(.tilt)
        e.acceleration = (x, y, z)
        return e
    }

    public static func resize(_ size: Size, scale: Double? = nil) -> InputEvent {
        var e = InputEvent(.resize)
        e.size = size
        e.scale = scale
        return e
    }

    public static func custom(_ name: String, _ payload: EventPayload = .null) -> InputEvent {
        var e = InputEvent(.custom, name: name)
        e.payload = payload
        return e
    }

    /// Names a handler may not use for custom events (the built-in kinds).
    public static let builtInNames = Set(Kind.allCases.filter { $0 != .custom }.map(\.rawValue))

    /// Refuses what would be meaningless or hostile: NaN positions, empty
    /// names, oversized payloads, kinds a host cannot send.
    func validate() throws {
        switch kind {
        case .pointerDown, .pointerMove, .pointerUp, .pointerCancel:
            guard location.x.isFinite, location.y.isFinite, abs(location.x) <= 1e9, abs(location.y) <= 1e9 else {
                throw CalunaError.invalid("\(name): the position must be finite (got \(location))")
            }
            guard buttons >= 0, buttons < 1 << 16 else { throw CalunaError.invalid("\(name): buttons must be a bit mask of 16 bits (got \(buttons))") }
        case .keyDown, .keyUp:
            guard !key.isEmpty, key.utf8.count <= 64 else { throw CalunaError.invalid("\(name): the key name must be 1–64 bytes (got \"\(key)\")") }
            guard text.utf8.count <= 1024 else { throw CalunaError.invalid("\(name): text is at most 1024 bytes") }
        case .tilt:
            let a = acceleration
            guard a.x.isFinite, a.y.isFinite, a.z.isFinite, abs(a.x) <= 1e6, abs(a.y) <= 1e6, abs(a.z) <= 1e6 else {
                throw CalunaError.invalid("tilt: the acceleration must be finite (got \(a.x), \(a.y), \(a.z))")
            }
        case .resize:
            try Engine.checkOutput(size: size, scale: scale ?? 1)
        case .custom:
            guard !name.isEmpty, name.utf8.count <= 128 else { throw CalunaError.invalid("a custom event needs a name of 1–128 bytes") }
            guard !InputEvent.builtInNames.contains(name) else {
                throw CalunaError.invalid("'\(name)' is a built-in event; a custom event needs another name")
            }
            try payload.checkSize()
        case .tap, .pan:
            throw CalunaError.invalid("'\(name)' is recognised by the engine from pointer events; send pointerdown/pointermove/pointerup instead")
        }
        guard modifiers.isSubset(of: .all) else { throw CalunaError.invalid("\(name): unknown modifier bits \(modifiers.rawValue)") }
    }
}

/// A custom event's data: the values JSON and Lua tables share.
public indirect enum EventPayload: Equatable, Sendable {
    /// Roughly the bytes it holds (what the memory cap counts while it waits).
    var estimatedBytes: Int {
        switch self {
        case .null, .bool, .number: return 16
        case .string(let s): return 32 + s.utf8.count
        case .array(let items): return items.reduce(32) { $0 &+ $1.estimatedBytes }
        case .object(let fields): return fields.reduce(32) { $0 &+ 32 &+ $1.0.utf8.count &+ $1.1.estimatedBytes }
        }
    }

    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([EventPayload])
    /// Keys in the order they were given (JSON text keeps it; Lua sorts them).
    case object([(String, EventPayload)])

    public static func == (a: EventPayload, b: EventPayload) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public static let maximumDepth = 32
    public static let maximumNodes = 100_000

    /// The value of `key` in an object (nil when absent or not an object).
    public subscript(key: String) -> EventPayload? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    /// Refuses payloads deeper or larger than a script could reasonably mean.
    func checkSize() throws {
        var nodes = 0
        func visit(_ v: EventPayload, _ depth: Int) throws {
            nodes += 1
            guard nodes <= EventPayload.maximumNodes else { throw CalunaError.invalid("event data has more than \(EventPayload.maximumNodes) values") }
            guard depth <= EventPayload.maximumDepth else { throw CalunaError.invalid("event data is nested more than \(EventPayload.maximumDepth) deep") }
            switch v {
            case .array(let a): for x in a { try visit(x, depth + 1) }
            case .object(let o): for (_, x) in o { try visit(x, depth + 1) }
            case .number(let d): guard d.isFinite else { throw CalunaError.invalid("event data numbers must be finite (got \(d))") }
            default: break
            }
        }
        try visit(self, 0)
    }
}
