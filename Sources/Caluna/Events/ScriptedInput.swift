import Foundation

/// Scripted input: events described as JSON-shaped objects — one per line of
/// a `.jsonl` file (`caluna run --events`), a Lua table (`ca.send{…}`) or a
/// C string (`caluna_send_json`). One reader serves all three.
///
///     {"time": 2, "type": "pointerdown", "x": 230, "y": 150}
///     {"time": 2.5, "type": "tap", "x": 40, "y": 40}
///     {"time": 3, "type": "drag", "from": [250, 150], "to": [150, 150], "duration": 0.5, "steps": 10}
///
/// `tap` and `drag` are shorthands for the pointer events a finger makes.
extension InputEvent {
    /// The fields each scripted type accepts besides `type` and `time`.
    static let scriptFields: [String: Set<String>] = {
        let pointer: Set<String> = ["x", "y", "id", "buttons", "modifiers"]
        return [
            "pointerdown": pointer, "pointermove": pointer, "pointerup": pointer, "pointercancel": pointer,
            "keydown": ["key", "text", "modifiers"], "keyup": ["key", "text", "modifiers"],
            "tilt": ["x", "y", "z"], "resize": ["width", "height", "scale"], "custom": ["name", "data"],
            "tap": ["x", "y", "id", "duration", "modifiers"],
            "drag": ["from", "to", "id", "duration", "steps", "modifiers"],
        ]
    }()

    /// The events one scripted object stands for, each with its time (nil:
    /// now). `now` is the time a shorthand without `time` starts at.
    public static func scripted(_ object: EventPayload, now: Double) throws -> [(InputEvent, Double?)] {
        guard case .object(let fields) = object else { throw CalunaError.invalid("an event is an object with a 'type'") }
        guard case .string(let type)? = object["type"] else { throw CalunaError.invalid("an event needs a 'type' (a string)") }
        if type == "pan" {
            throw CalunaError.invalid("a pan is recognised by the engine from pointer events; send a drag (or pointerdown, pointermove …, pointerup)")
        }
        guard let allowed = scriptFields[type] else {
            let names = scriptFields.keys.sorted().joined(separator: ", ")
            throw CalunaError(.unknownKey, "unknown event type '\(type)' (one of \(names); a custom event is {type = \"custom\", name = …, data = …})")
        }
        for (k, _) in fields where k != "type" && k != "time" && !allowed.contains(k) {
            throw CalunaError(.unknownKey, "\(type) event: unknown field '\(k)' (it takes \(allowed.sorted().joined(separator: ", ")), time)")
        }
        let r = FieldReader(object: object, type: type)
        let time = try r.optionalNumber("time")
        if let t = time, !(t.isFinite && t >= 0) { throw CalunaError.invalid("\(type) event: time must be a finite number ≥ 0 (got \(t))") }
        let modifiers = try r.modifiers()
        switch type {
        case "pointerdown", "pointermove", "pointerup", "pointercancel":
            let kind = InputEvent.Kind(rawValue: type)!
            let buttons = try r.optionalNumber("buttons").map { try r.int32($0, "buttons") }
            let e = InputEvent.pointer(kind, id: try r.pointerID(), at: try r.point(), buttons: buttons, modifiers: modifiers)
            return [(e, time)]
        case "keydown", "keyup":
            let e = InputEvent.key(InputEvent.Kind(rawValue: type)!, try r.string("key"), text: try r.optionalString("text") ?? "",
                                   modifiers: modifiers)
            return [(e, time)]
        case "tilt":
            return [(InputEvent.tilt(x: try r.number("x"), y: try r.number("y"), z: try r.optionalNumber("z") ?? 0), time)]
        case "resize":
            return [(InputEvent.resize(Size(try r.number("width"), try r.number("height")), scale: try r.optionalNumber("scale")), time)]
        case "custom":
            return [(InputEvent.custom(try r.string("name"), object["data"] ?? .null), time)]
        case "tap":
            let p = try r.point(), id = try r.pointerID()
            let start = time ?? now, duration = try r.duration()
            return [(InputEvent.pointer(.pointerDown, id: id, at: p, modifiers: modifiers), start),
                    (InputEvent.pointer(.pointerUp, id: id, at: p, modifiers: modifiers), start + duration)]
        default: // drag
            let from = try r.point("from"), to = try r.point("to"), id = try r.pointerID()
            let start = time ?? now, duration = try r.duration()
            let stepsValue = try r.optionalNumber("steps") ?? 10
            guard stepsValue == stepsValue.rounded(), stepsValue >= 1, stepsValue <= 10_000 else {
                throw CalunaError.invalid("drag event: steps must be a whole number in 1…10000 (got \(stepsValue))")
            }
            let steps = Int(stepsValue)
            var out = [(InputEvent.pointer(.pointerDown, id: id, at: from, modifiers: modifiers), Optional(start))]
            for i in 1...steps {
                let f = Double(i) / Double(steps)
                let p = Point(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f)
                out.append((InputEvent.pointer(.pointerMove, id: id, at: p, modifiers: modifiers), start + duration * f))
            }
            out.append((InputEvent.pointer(.pointerUp, id: id, at: to, modifiers: modifiers), start + duration))
            return out
        }
    }
}

/// Typed reads of a scripted event's fields, with errors that name them.
private struct FieldReader {
    let object: EventPayload
    let type: String

    func fail(_ field: String, _ expected: String) -> CalunaError {
        CalunaError(.typeMismatch, "\(type) event: '\(field)' must be \(expected)")
    }

    func optionalNumber(_ k: String) throws -> Double? {
        switch object[k] {
        case nil, .null?: return nil
        case .number(let d)?: guard d.isFinite else { throw fail(k, "a finite number") }; return d
        default: throw fail(k, "a number")
        }
    }

    func number(_ k: String) throws -> Double {
        guard let d = try optionalNumber(k) else { throw CalunaError.invalid("\(type) event: '\(k)' is required") }
        return d
    }

    func optionalString(_ k: String) throws -> String? {
        switch object[k] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw fail(k, "a string")
        }
    }

    func string(_ k: String) throws -> String {
        guard let s = try optionalString(k) else { throw CalunaError.invalid("\(type) event: '\(k)' is required") }
        return s
    }

    func int32(_ d: Double, _ k: String) throws -> Int32 {
        guard d == d.rounded(), abs(d) < 2_147_483_648 else { throw fail(k, "a whole number") }
        return Int32(d)
    }

    func pointerID() throws -> Int64 {
        guard let d = try optionalNumber("id") else { return 1 }
        guard d == d.rounded(), abs(d) <= 9_007_199_254_740_992 else { throw fail("id", "a whole number") }
        return Int64(d)
    }

    func duration() throws -> Double {
        let d = try optionalNumber("duration") ?? 0
        guard d >= 0, d <= 3600 else { throw fail("duration", "in 0…3600 seconds") }
        return d
    }

    /// `x` and `y`, or a point field given as [x, y] or {x = …, y = …}.
    func point(_ k: String? = nil) throws -> Point {
        guard let k else { return Point(try number("x"), try number("y")) }
        switch object[k] {
        case .array(let a)? where a.count == 2:
            if case .number(let x) = a[0], case .number(let y) = a[1], x.isFinite, y.isFinite { return Point(x, y) }
        case .object?:
            let r = FieldReader(object: object[k]!, type: type)
            return Point(try r.number("x"), try r.number("y"))
        case nil: throw CalunaError.invalid("\(type) event: '\(k)' is required")
        default: break
        }
        throw fail(k, "a point: [x, y] or {x, y}")
    }

    func modifiers() throws -> InputEvent.Modifiers {
        switch object["modifiers"] {
        case nil, .null?: return []
        case .array(let names)?:
            var m: InputEvent.Modifiers = []
            for n in names {
                guard case .string(let s) = n, let bit = InputEvent.Modifiers.names.first(where: { $0.0 == s })?.1 else {
                    throw fail("modifiers", "a list of shift, control, alt, meta")
                }
                m.insert(bit)
            }
            return m
        default: throw fail("modifiers", "a list of shift, control, alt, meta")
        }
    }
}

extension EventPayload: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let n = try? c.decode(Double.self) { self = .number(n); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([EventPayload].self) { self = .array(a); return }
        // JSON objects are unordered; sorted keys make delivery deterministic.
        self = .object(try c.decode([String: EventPayload].self).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o):
            var d: [String: EventPayload] = [:]
            for (k, v) in o { d[k] = v }
            try c.encode(d)
        }
    }

    /// Parses JSON text (one value).
    public init(json: String) throws {
        do {
            self = try JSONDecoder().decode(EventPayload.self, from: Data(json.utf8))
        } catch {
            throw CalunaError.invalid("not valid JSON (\(EventPayload.reason(error)))")
        }
        try checkSize()
    }

    /// The value as JSON text, keys sorted.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func reason(_ error: Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted?: return "a syntax error"
        case .typeMismatch?, .valueNotFound?: return "a value out of range or of no JSON type"
        default: return "\(error)".prefix(120).description
        }
    }
}

extension Engine {
    /// Sends the events one scripted object describes (see ScriptedInput);
    /// all or none.
    public func sendScripted(_ object: EventPayload) throws {
        let batch = try admitted(InputEvent.scripted(object, now: mediaTime))
        try checkRoom(for: batch.count, "event")
        for (e, tick) in batch { enqueue(e, at: tick) }
    }

    /// Sends every event of JSON Lines text (one object per line; blank
    /// lines and lines starting with # are skipped). All or nothing: a bad
    /// line is an error naming it, and no event of the text is queued.
    /// Returns how many events were queued.
    @discardableResult
    public func sendScripted(jsonLines text: String, source: String) throws -> Int {
        var events: [(InputEvent, Int64)] = []
        let now = mediaTime
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                events += try admitted(InputEvent.scripted(try EventPayload(json: String(trimmed)), now: now))
            } catch let e as CalunaError {
                throw CalunaError(e.code, "\(source):\(n + 1): \(e.message)")
            }
        }
        try checkRoom(for: events.count, source)
        for (e, tick) in events { enqueue(e, at: tick) }
        return events.count
    }

    /// Each event with the tick it will be queued at; the first invalid
    /// event or time is an error (before anything is queued).
    private func admitted(_ batch: [(InputEvent, Double?)]) throws -> [(InputEvent, Int64)] {
        try batch.map { ($0.0, try admissionTick($0.0, at: $0.1)) }
    }

    /// Sends the events of a JSON Lines file (`caluna run --events`).
    @discardableResult
    public func loadEvents(path: String, access: FileAccess, api: String = "loadEvents") throws -> Int {
        let bytes = try Image.readFile(path, access: access, api: api, what: "events", maximumSize: 64 << 20)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CalunaError(.ioError, "events file '\(path)' is not UTF-8 text")
        }
        return try sendScripted(jsonLines: text, source: path)
    }
}
