import Caluna
import Glibc

/// caluna_layer_set of CALayer's stored numbers, flags, points, sizes and
/// rects (LayerProperty.TypedAccess) without making a Swift String or a
/// Value: the key is found by the address of the caller's string (hosts pass
/// literals; confirmed with strcmp) and the value goes straight to the typed
/// setter. Anything else — a key path with components, another kind of
/// value, a NaN — takes the general path, which gives every error.
final class PropertyKeyCache {
    /// A key string's address, the property it named (unretained: the table
    /// lives as long as the process) and that property's key as a C string.
    /// Everything a hit needs is here: each read of a static is a call.
    private struct Entry {
        var key: UnsafeRawPointer? = nil
        var name: UnsafeMutablePointer<CChar>? = nil
        var property: Unmanaged<LayerProperty>? = nil
    }
    /// Entries by the key string's address (direct-mapped). Read and written
    /// only in `property`, which calls nothing that could reach it again: the
    /// exclusivity check would cost more than the lookup.
    @exclusivity(unchecked) private var entries = [Entry](repeating: Entry(), count: 64)
    /// LayerProperty.fastPathsEnabled, read once.
    private let enabled = LayerProperty.fastPathsEnabled

    /// Each typed property's key as a C string, by index in LayerProperties.all.
    private static let names: [UnsafeMutablePointer<CChar>?] = LayerProperties.all.map { $0.typed == nil ? nil : strdup($0.key) }
    private static let indexByKey: [String: Int] = {
        var d: [String: Int] = [:]
        for (i, p) in LayerProperties.all.enumerated() where p.typed != nil { d[p.key] = i }
        return d
    }()

    /// The typed property `key` names, or nil. A host may reuse its buffer
    /// for another key: the address only finds the entry, strcmp confirms it.
    func property(_ key: UnsafePointer<CChar>) -> Unmanaged<LayerProperty>? {
        guard enabled else { return nil }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: key) >> 3) & (entries.count - 1)
        let e = entries[slot]
        if e.key == UnsafeRawPointer(key), let name = e.name, let p = e.property, strcmp(name, key) == 0 {
            return p
        }
        guard strlen(key) < 32, let i = PropertyKeyCache.indexByKey[String(cString: key)] else { return nil }
        let p = Unmanaged.passUnretained(LayerProperties.all[i])
        entries[slot] = Entry(key: UnsafeRawPointer(key), name: PropertyKeyCache.names[i], property: p)
        return p
    }
}

/// Sets `value` (a caluna_value) on `layer` when `prop` takes its kind and
/// it is finite; false when the general path must run.
func setTyped(_ prop: LayerProperty, _ layer: Layer, _ value: UnsafeRawPointer) throws -> Bool {
    guard let typed = prop.typedKind, let tag = ValueLayout.Tag(rawValue: value.loadUnaligned(as: Int32.self)) else { return false }
    let u = value + ValueLayout.union
    func d(_ i: Int) -> Double { u.loadUnaligned(fromByteOffset: i * 8, as: Double.self) }
    switch (typed, tag) {
    case (.number, .number):
        guard d(0).isFinite else { return false }
        try prop.setNumber(layer, d(0))
    case (.bool, .bool):
        try prop.setBool(layer, u.loadUnaligned(as: Int32.self) != 0)
    case (.point, .point):
        guard d(0).isFinite, d(1).isFinite else { return false }
        try prop.setPoint(layer, Point(d(0), d(1)))
    case (.size, .size):
        guard d(0).isFinite, d(1).isFinite else { return false }
        try prop.setSize(layer, Size(d(0), d(1)))
    case (.rect, .rect):
        guard d(0).isFinite, d(1).isFinite, d(2).isFinite, d(3).isFinite else { return false }
        try prop.setRect(layer, Rect(d(0), d(1), d(2), d(3)))
    default:
        return false
    }
    return true
}
