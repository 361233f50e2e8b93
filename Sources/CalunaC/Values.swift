import Caluna
import CalunaBridge
import Glibc

// caluna_value ⇄ Value, and property access by key path.

/// The layout of caluna_value (checked by the header at compile time):
/// a 4-byte type tag, padding, then a 128-byte union at offset 8.
enum ValueLayout {
    static let size = 136
    static let union = 8

    enum Tag: Int32 {
        case null = 0, number, bool, string, point, size, rect, color, transform, image, path, array
    }
    /// The most elements an ARRAY value holds.
    static let maximumArrayCount = 1 << 20
}

/// Reads a caller's caluna_value. NaN and ∞ anywhere are refused here, except
/// a NUMBER of +∞ when `allowingInfinity` (repeatCount: forever).
func readValue(_ p: UnsafeRawPointer, allowingInfinity: Bool = false, nested: Bool = false) throws -> Value {
    let raw = p.loadUnaligned(as: Int32.self)
    let u = p + ValueLayout.union
    func d(_ i: Int) -> Double { u.loadUnaligned(fromByteOffset: i * 8, as: Double.self) }
    guard let tag = ValueLayout.Tag(rawValue: raw) else {
        throw CalunaError(.invalidArgument, "value.type \(raw) is not a caluna_value_type")
    }
    let v: Value
    switch tag {
    case .null: v = .null
    case .number: v = .number(d(0))
    case .bool: v = .bool(u.loadUnaligned(as: Int32.self) != 0)
    case .string:
        let bits = u.loadUnaligned(as: UInt.self)
        guard let s = UnsafePointer<CChar>(bitPattern: bits) else {
            throw CalunaError(.invalidArgument, "value.u.string is NULL (use CALUNA_TYPE_NIL for no value)")
        }
        guard let str = String(validatingCString: s) else {
            throw CalunaError(.invalidArgument, "value.u.string is not valid UTF-8")
        }
        v = .string(str)
    case .point: v = .point(Point(d(0), d(1)))
    case .size: v = .size(Size(d(0), d(1)))
    case .rect: v = .rect(Rect(d(0), d(1), d(2), d(3)))
    case .color: v = .color(Color(red: d(0), green: d(1), blue: d(2), alpha: d(3)))
    case .transform:
        guard let t = Transform3D(elements: (0..<16).map(d)) else {
            throw CalunaError(.invalidArgument, "value.u.transform needs 16 entries")
        }
        v = .transform(t)
    case .image:
        let id = u.loadUnaligned(as: UInt64.self)
        guard let ce = currentEngine() else {
            throw CalunaError(.notSupported, "an IMAGE value needs an engine to name the image in")
        }
        guard id != 0 else {
            throw CalunaError(.staleHandle, "value.u.image is 0 (no image): use CALUNA_TYPE_NIL for none")
        }
        v = .image(try ce.image(id, "value.u.image"))
    case .path:
        let bits = u.loadUnaligned(as: UInt.self)
        let count = u.loadUnaligned(fromByteOffset: 8, as: UInt.self)
        v = .path(try readPath(UnsafeRawPointer(bitPattern: bits), count: count, "value.u.path"))
    case .array:
        guard !nested else { throw CalunaError(.invalidArgument, "an ARRAY value cannot hold arrays") }
        let bits = u.loadUnaligned(as: UInt.self)
        let count = u.loadUnaligned(fromByteOffset: 8, as: UInt.self)
        guard count <= UInt(ValueLayout.maximumArrayCount) else {
            throw CalunaError(.invalidArgument, "value.u.array.count \(count) is more than \(ValueLayout.maximumArrayCount)")
        }
        var items: [Value] = []
        if count > 0 {
            guard let base = UnsafeRawPointer(bitPattern: bits) else {
                throw CalunaError(.invalidArgument, "value.u.array.items is NULL with count \(count)")
            }
            items.reserveCapacity(Int(count))
            for i in 0..<Int(count) { items.append(try readValue(base + i * ValueLayout.size, nested: true)) }
        }
        v = .array(items)
    }
    guard v.isFinite || (allowingInfinity && v == .number(.infinity)) else {
        throw CalunaError(.invalidArgument, "the value contains NaN or infinity")
    }
    return v
}

/// Writes `v` into a caller's caluna_value; strings go to the engine's buffer, a
/// path's elements to `pathElements` when given (else to the engine's path buffer).
func writeValue(_ v: Value, to p: UnsafeMutableRawPointer, engine ce: CEngine,
                pathElements: UnsafeMutableRawPointer? = nil) throws {
    func put(_ tag: ValueLayout.Tag, _ doubles: [Double]) {
        memset(p, 0, ValueLayout.size)
        p.storeBytes(of: tag.rawValue, as: Int32.self)
        for (i, x) in doubles.enumerated() {
            p.storeBytes(of: x, toByteOffset: ValueLayout.union + i * 8, as: Double.self)
        }
    }
    switch v {
    case .null: put(.null, [])
    case .number(let n): put(.number, [n])
    case .bool(let b):
        put(.bool, [])
        p.storeBytes(of: Int32(b ? 1 : 0), toByteOffset: ValueLayout.union, as: Int32.self)
    case .string(let s):
        let c = try ce.keep(s)
        put(.string, [])
        p.storeBytes(of: UInt(bitPattern: c), toByteOffset: ValueLayout.union, as: UInt.self)
    case .point(let pt): put(.point, [pt.x, pt.y])
    case .size(let s): put(.size, [s.width, s.height])
    case .rect(let r): put(.rect, [r.origin.x, r.origin.y, r.size.width, r.size.height])
    case .color(let c): put(.color, [c.red, c.green, c.blue, c.alpha])
    case .transform(let t): put(.transform, t.elements)
    case .image(let img):
        let id = try ce.imageID(img)
        put(.image, [])
        p.storeBytes(of: id, toByteOffset: ValueLayout.union, as: UInt64.self)
    case .path(let path):
        let n = path.elements.count
        let buffer = try pathElements ?? ce.pathBuffer(n * CPathLayout.size)
        writePath(path, to: buffer, capacity: n)
        put(.path, [])
        p.storeBytes(of: UInt(bitPattern: buffer), toByteOffset: ValueLayout.union, as: UInt.self)
        p.storeBytes(of: UInt(n), toByteOffset: ValueLayout.union + 8, as: UInt.self)
    case .array(let items):
        // Entries are plain values (numbers, colours, points…): a string or a
        // path inside would need a second result buffer.
        let buffer = try ce.arrayBuffer(items.count * ValueLayout.size)
        for (i, item) in items.enumerated() {
            switch item {
            case .string, .path, .array, .image:
                throw CalunaError(.notSupported, "an array of \(item.kind.expectation) cannot be returned through caluna_value")
            default: try writeValue(item, to: buffer + i * ValueLayout.size, engine: ce)
            }
        }
        put(.array, [])
        p.storeBytes(of: UInt(bitPattern: buffer), toByteOffset: ValueLayout.union, as: UInt.self)
        p.storeBytes(of: UInt(items.count), toByteOffset: ValueLayout.union + 8, as: UInt.self)
    }
}

/// Writes `items` into consecutive caluna_values at `out`. Their paths share
/// one engine-owned buffer, reserved once: a buffer per path would be
/// reallocated under the earlier items' pointers.
func writeValues(_ items: ArraySlice<Value>, to out: UnsafeMutableRawPointer, engine ce: CEngine) throws {
    let total = items.reduce(0) { n, v in if case .path(let p) = v { return n + p.elements.count } else { return n } }
    var next = total > 0 ? try ce.pathBuffer(total * CPathLayout.size) : nil
    for (i, item) in items.enumerated() {
        try writeValue(item, to: out + i * ValueLayout.size, engine: ce, pathElements: next)
        if case .path(let p) = item { next = next.map { $0 + p.elements.count * CPathLayout.size } }
    }
}

// MARK: paths (caluna_path_element arrays)

/// The layout of caluna_path_element: a 4-byte type, padding, 3 points.
enum CPathLayout {
    static let size = 56, points = 8
    /// Coordinates beyond this are refused (the property or call checks its own range too).
    static let limit = 1e9
    /// The most elements a path may have.
    static let maximumCount = 1 << 20
}

/// A caller's `count` path elements; NULL is allowed only with count 0.
func readPath(_ elements: UnsafeRawPointer?, count: UInt, _ name: String) throws -> Path {
    guard count <= UInt(CPathLayout.maximumCount) else {
        throw CalunaError(.invalidArgument, "\(name): count \(count) is out of range (0…\(CPathLayout.maximumCount))")
    }
    guard count == 0 || elements != nil else {
        throw CalunaError(.invalidArgument, "\(name): elements is NULL but count is \(count)")
    }
    var path = Path()
    guard let elements, count > 0 else { return path }
    path.elements.reserveCapacity(Int(count))
    for i in 0..<Int(count) {
        let base = elements + i * CPathLayout.size
        let type = base.loadUnaligned(as: Int32.self)
        func pt(_ j: Int) throws -> Point {
            let x = base.loadUnaligned(fromByteOffset: CPathLayout.points + 16 * j, as: Double.self)
            let y = base.loadUnaligned(fromByteOffset: CPathLayout.points + 16 * j + 8, as: Double.self)
            guard x.isFinite, y.isFinite, abs(x) <= CPathLayout.limit, abs(y) <= CPathLayout.limit else {
                throw CalunaError(.invalidArgument, "\(name): elements[\(i)].points[\(j)] = (\(x), \(y)) must be finite and within ±1e9")
            }
            return Point(x, y)
        }
        switch type {
        case 0: path.elements.append(.move(try pt(0)))
        case 1: path.elements.append(.line(try pt(0)))
        case 2: path.elements.append(.quad(try pt(0), try pt(1)))
        case 3: path.elements.append(.cubic(try pt(0), try pt(1), try pt(2)))
        case 4: path.elements.append(.close)
        default:
            throw CalunaError(.invalidArgument, "\(name): elements[\(i)].type \(type) is not a caluna_path_element_type (0…4)")
        }
    }
    return path
}

/// Writes the first `capacity` elements of `path` (unused points zeroed).
func writePath(_ path: Path, to out: UnsafeMutableRawPointer, capacity: Int) {
    for (i, el) in path.elements.prefix(capacity).enumerated() {
        let base = out + i * CPathLayout.size
        memset(base, 0, CPathLayout.size)
        let (type, pts): (Int32, [Point]) = switch el {
        case .move(let p): (0, [p])
        case .line(let p): (1, [p])
        case .quad(let c1, let p): (2, [c1, p])
        case .cubic(let c1, let c2, let p): (3, [c1, c2, p])
        case .close: (4, [])
        }
        base.storeBytes(of: type, as: Int32.self)
        for (j, p) in pts.enumerated() {
            base.storeBytes(of: p.x, toByteOffset: CPathLayout.points + 16 * j, as: Double.self)
            base.storeBytes(of: p.y, toByteOffset: CPathLayout.points + 16 * j + 8, as: Double.self)
        }
    }
}

@_cdecl("caluna_layer_set")
public func caluna_layer_set(_ e: OpaquePointer?, _ layer: UInt64, _ keyPath: UnsafePointer<CChar>?,
                             _ value: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_layer_set") { ce in
        let l = try ce.layer(layer, "layer")
        if let keyPath, let value, let prop = ce.propertyKeys.property(keyPath),
           try prop._withUnsafeGuaranteedRef({ try setTyped($0, l, value) }) { return }
        let key = try string(keyPath, "key_path")
        guard let value else { throw CalunaError(.invalidArgument, "value is NULL") }
        let v: Value
        do { v = try readValue(value) } catch let err as CalunaError {
            throw CalunaError(err.code, "\(key): \(err.message)")
        }
        try l.setValue(v, forKeyPath: key)
    }
}

@_cdecl("caluna_layer_get")
public func caluna_layer_get(_ e: OpaquePointer?, _ layer: UInt64, _ keyPath: UnsafePointer<CChar>?,
                             _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_layer_get") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let l = try ce.layer(layer, "layer")
        let key = try string(keyPath, "key_path")
        do {
            try writeValue(try l.value(forKeyPath: key), to: out, engine: ce)
        } catch let err as CalunaError {
            memset(out, 0, ValueLayout.size)
            throw err
        }
    }
}
