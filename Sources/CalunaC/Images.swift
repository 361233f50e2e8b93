import Caluna
import CalunaBridge
import Glibc

// Images as ids (ABI 1.3): decoding files and memory, copying caller pixels,
// reading pixels back, and the id table images and drawing contexts share.

// MARK: ids of images and drawing contexts

/// Ids for images, drawing contexts and physics objects, shaped like the
/// other ids (`tag << 48 | generation << 32 | kind << 28 | slot`, the engine's
/// tag) so a stale, foreign or wrong-kind id is an error, never a crash. Kinds
/// 4 and up follow ObjectKind's animation (1), display link (2) and timer (3);
/// layer ids have 0 there.
///
/// Objects are held weakly (an image stays while a layer shows it) plus the
/// references a C caller owns; a context is held while its callback runs and
/// closed (its id made stale at once) when the callback returns.
final class ExternalTable {
    enum Kind: UInt64 {
        case image = 4, context = 5
        case world = 6, body = 7, shape = 8, constraint = 9, arbiter = 10
        case eventHandler = 11
        case emitterCell = 12
        case renderTarget = 13

        var name: String {
            switch self {
            case .image: return "image"
            case .context: return "drawing context"
            case .world: return "physics world"
            case .body: return "body"
            case .shape: return "shape"
            case .constraint: return "constraint"
            case .arbiter: return "arbiter"
            case .eventHandler: return "event handler"
            case .emitterCell: return "emitter cell"
            case .renderTarget: return "render target"
            }
        }

        var article: String {
            switch self {
            case .image, .arbiter, .emitterCell: return "an \(name)"
            default: return "a \(name)"
            }
        }

        /// Why an id of this kind goes stale (the message of a stale id).
        var staleReason: String {
            switch self {
            case .image: return "the image no longer exists"
            case .context: return "a context is valid only inside the draw callback that received it"
            case .world: return "the world was destroyed"
            case .arbiter: return "an arbiter is valid only inside the collision callback that received it"
            case .eventHandler: return "the handler was removed, or its layer no longer exists"
            case .emitterCell: return "the cell was released and no layer or cell holds it"
            case .renderTarget: return "the target was destroyed"
            default: return "the \(name) no longer exists"
            }
        }
    }

    private struct Slot {
        weak var object: AnyObject?
        var owned: AnyObject?
        var refs = 0
        var generation: UInt16 = 1
        var key: ObjectIdentifier? = nil
    }

    let tag: UInt16
    let kind: Kind
    private var slots: [Slot] = []
    private var free: [Int] = []
    private var byObject: [ObjectIdentifier: Int] = [:]
    private var allocationsSinceSweep = 0

    init(tag: UInt16, kind: Kind) {
        self.tag = tag
        self.kind = kind
    }

    /// "a layer", "an animation", "an image" … for the kind bits of an id.
    static func article(forBits k: UInt64) -> String {
        if let mine = Kind(rawValue: k) { return mine.article }
        return ObjectKind.article(forBits: k)
    }

    /// The id of `object`, assigned on first use (borrowed: no reference).
    func id(for object: AnyObject) throws -> UInt64 {
        let key = ObjectIdentifier(object)
        if let i = byObject[key], slots[i].object === object { return makeID(i) }
        let i = try allocateSlot()
        slots[i].object = object
        slots[i].key = key
        byObject[key] = i
        return makeID(i)
    }

    private func makeID(_ i: Int) -> UInt64 {
        UInt64(tag) << 48 | UInt64(slots[i].generation) << 32 | kind.rawValue << ObjectTable.kindShift | UInt64(i + 1)
    }

    /// The live object an id names, or the error a caller should see.
    func object(_ id: UInt64) throws -> AnyObject {
        guard id != 0 else { throw CalunaError(.staleHandle, "the \(kind.name) id is 0 (none)") }
        guard UInt16(truncatingIfNeeded: id >> 48) == tag else {
            throw CalunaError(.staleHandle, "\(kind.name) id \(hexID(id)) belongs to another engine")
        }
        let bits = (id >> ObjectTable.kindShift) & 0xF
        guard bits == kind.rawValue else {
            throw CalunaError(.staleHandle, "id \(hexID(id)) is \(ExternalTable.article(forBits: bits)) id, not \(kind.article) id")
        }
        let index = Int(id & ObjectTable.slotMask) - 1
        let gen = UInt16(truncatingIfNeeded: id >> 32)
        guard index >= 0, index < slots.count, slots[index].generation == gen, let o = slots[index].object else {
            throw CalunaError(.staleHandle, "\(kind.name) id \(hexID(id)) is stale (\(kind.staleReason))")
        }
        return o
    }

    /// One more reference owned by the caller (or, for a context, by its callback).
    func retain(_ id: UInt64) throws {
        let o = try object(id)
        let i = Int(id & ObjectTable.slotMask) - 1
        guard slots[i].refs < Int(Int32.max) else { throw CalunaError(.invalidArgument, "too many references to \(hexID(id))") }
        slots[i].refs += 1
        slots[i].owned = o
    }

    func release(_ id: UInt64) throws {
        _ = try object(id)
        let i = Int(id & ObjectTable.slotMask) - 1
        guard slots[i].refs > 0 else {
            throw CalunaError(.invalidArgument, "\(kind.name) id \(hexID(id)) has no owned reference left to release")
        }
        slots[i].refs -= 1
        if slots[i].refs == 0 { slots[i].owned = nil }
    }

    /// Ends an id now (a context whose callback returned): it is stale from
    /// here on, whoever still holds the object.
    func close(_ id: UInt64) {
        guard (try? object(id)) != nil else { return }
        let i = Int(id & ObjectTable.slotMask) - 1
        retire(i)
        free.append(i)
    }

    private func retire(_ i: Int) {
        if let k = slots[i].key, byObject[k] == i { byObject[k] = nil }
        slots[i].object = nil
        slots[i].owned = nil
        slots[i].refs = 0
        slots[i].key = nil
        slots[i].generation = slots[i].generation == UInt16.max ? 1 : slots[i].generation + 1
    }

    private func allocateSlot() throws -> Int {
        if free.isEmpty, allocationsSinceSweep >= max(64, slots.count / 2) { sweep() }
        allocationsSinceSweep += 1
        if let i = free.popLast() { return i }
        guard UInt64(slots.count) < ObjectTable.slotMask else {
            throw CalunaError(.outOfMemory, "too many live \(kind.name) ids")
        }
        slots.append(Slot())
        return slots.count - 1
    }

    /// Frees the slots of objects that died, bumping their generation. Runs
    /// only when the free list is empty, so no freed slot is met twice.
    private func sweep() {
        allocationsSinceSweep = 0
        for i in slots.indices where slots[i].object == nil {
            retire(i)
            free.append(i)
        }
    }
}

extension CEngine {
    /// The live object `id` names in `table` (images, physics objects); the
    /// message names the argument.
    func object<T: AnyObject>(in table: ExternalTable, _ id: UInt64, _ name: String, as: T.Type) throws -> T {
        do {
            guard let o = try table.object(id) as? T else {
                throw CalunaError(.staleHandle, "\(hexID(id)) is not \(table.kind.article)")
            }
            return o
        } catch let e as CalunaError {
            throw CalunaError(e.code, "\(name): \(e.message)")
        }
    }

    /// The live image an id names; the message names the argument.
    func image(_ id: UInt64, _ name: String) throws -> Image {
        try object(in: images, id, name, as: Image.self)
    }

    /// The borrowed id of an image.
    func imageID(_ img: Image) throws -> UInt64 { try images.id(for: img) }

    /// A new owned id for an image (a fresh one, or one the caller keeps).
    func ownedImageID(_ img: Image) throws -> UInt64 {
        let id = try imageID(img)
        try images.retain(id)
        return id
    }
}

/// The largest encoded image caluna_image_load_data takes (as files).
private let maximumDataSize = Image.maximumFileSize

/// A caluna_pixel_format, or INVALID_ARGUMENT.
func pixelFormat(_ raw: Int32) throws -> PixelFormat {
    guard let f = PixelFormat(rawValue: raw) else {
        throw CalunaError(.invalidArgument, "format \(raw) is not a caluna_pixel_format (0…3)")
    }
    return f
}

/// Width × height pixels at `stride` bytes per row: the stride fits a row and
/// `stride × height` fits `available` bytes (when given), without overflow.
func checkLayout(width: Int, height: Int, stride: Int32, available: UInt?) throws {
    let rowBytes = Int64(width) * 4
    guard Int64(stride) >= rowBytes else {
        throw CalunaError(.invalidArgument, "stride \(stride) is smaller than width × 4 = \(rowBytes) bytes")
    }
    guard let available else { return }
    let (needed, overflow) = Int64(stride).multipliedReportingOverflow(by: Int64(height))
    guard !overflow, needed >= 0, UInt64(needed) <= UInt64(available) else {
        throw CalunaError(.invalidArgument, "buffer_size \(available) is smaller than stride × height = \(stride) × \(height) bytes")
    }
}

// MARK: making images

@_cdecl("caluna_image_load_file")
public func caluna_image_load_file(_ e: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                   _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_image_load_file") { ce in
        let o = try output(out, "out")
        let p = try string(path, "path")
        guard !p.isEmpty else { throw CalunaError(.invalidArgument, "path is empty") }
        let img = try Image.load(path: p, access: ce.session.fileAccess, api: "caluna_image_load_file")
        ce.engine.noteImageDecoded()
        o.pointee = try ce.ownedImageID(img)
    }
}

@_cdecl("caluna_image_load_data")
public func caluna_image_load_data(_ e: OpaquePointer?, _ data: UnsafeRawPointer?, _ size: UInt,
                                   _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_image_load_data") { ce in
        let o = try output(out, "out")
        guard let data else { throw CalunaError(.invalidArgument, "data is NULL") }
        guard size > 0 else { throw CalunaError(.invalidArgument, "size is 0 (no image data)") }
        guard size <= UInt(maximumDataSize) else {
            throw CalunaError(.invalidArgument, "size \(size) is larger than \(maximumDataSize >> 20) MiB")
        }
        let img = try Image.decode(UnsafeRawBufferPointer(start: data, count: Int(size)), name: "the image data")
        ce.engine.noteImageDecoded()
        o.pointee = try ce.ownedImageID(img)
    }
}

@_cdecl("caluna_image_from_pixels")
public func caluna_image_from_pixels(_ e: OpaquePointer?, _ width: Int32, _ height: Int32, _ stride: Int32,
                                     _ format: Int32, _ pixels: UnsafeRawPointer?,
                                     _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_image_from_pixels") { ce in
        let o = try output(out, "out")
        let fmt = try pixelFormat(format)
        guard let pixels else { throw CalunaError(.invalidArgument, "pixels is NULL") }
        try Image.checkSize(Int(width), Int(height), "width × height")
        try checkLayout(width: Int(width), height: Int(height), stride: stride, available: nil)
        let img = try Image(width: Int(width), height: Int(height), copying: pixels, stride: Int(stride), format: fmt)
        o.pointee = try ce.ownedImageID(img)
    }
}

// MARK: lifetime

@_cdecl("caluna_image_retain")
public func caluna_image_retain(_ e: OpaquePointer?, _ img: UInt64) -> Int32 {
    withEngine(e, "caluna_image_retain") { ce in
        _ = try ce.image(img, "image")
        try ce.images.retain(img)
    }
}

@_cdecl("caluna_image_release")
public func caluna_image_release(_ e: OpaquePointer?, _ img: UInt64) -> Int32 {
    withEngine(e, "caluna_image_release") { ce in
        _ = try ce.image(img, "image")
        try ce.images.release(img)
    }
}

// MARK: reading

@_cdecl("caluna_image_size")
public func caluna_image_size(_ e: OpaquePointer?, _ img: UInt64, _ width: UnsafeMutablePointer<Int32>?,
                              _ height: UnsafeMutablePointer<Int32>?) -> Int32 {
    width?.pointee = 0
    height?.pointee = 0
    return withEngine(e, "caluna_image_size") { ce in
        let w = try output(width, "width"), h = try output(height, "height")
        let i = try ce.image(img, "image")
        w.pointee = try int32(i.width, "width")
        h.pointee = try int32(i.height, "height")
    }
}

@_cdecl("caluna_image_byte_count")
public func caluna_image_byte_count(_ e: OpaquePointer?, _ img: UInt64, _ out: UnsafeMutablePointer<UInt>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_image_byte_count") { ce in
        let o = try output(out, "out")
        o.pointee = UInt(try ce.image(img, "image").byteCount)
    }
}

@_cdecl("caluna_image_read_pixels")
public func caluna_image_read_pixels(_ e: OpaquePointer?, _ img: UInt64, _ buffer: UnsafeMutableRawPointer?,
                                     _ bufferSize: UInt, _ stride: Int32, _ format: Int32) -> Int32 {
    withEngine(e, "caluna_image_read_pixels") { ce in
        let i = try ce.image(img, "image")
        let fmt = try pixelFormat(format)
        guard let buffer else { throw CalunaError(.invalidArgument, "buffer is NULL") }
        try checkLayout(width: i.width, height: i.height, stride: stride, available: bufferSize)
        i.copy(into: buffer, stride: Int(stride), format: fmt)
    }
}

@_cdecl("caluna_image_write_png")
public func caluna_image_write_png(_ e: OpaquePointer?, _ img: UInt64, _ path: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_image_write_png") { ce in
        let i = try ce.image(img, "image")
        let p = try string(path, "path")
        guard !p.isEmpty else { throw CalunaError(.invalidArgument, "path is empty") }
        try i.writePNG(to: p, access: ce.session.fileAccess, api: "caluna_image_write_png")
    }
}
