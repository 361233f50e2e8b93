import CCairo
import Glibc

/// Blurred shadow masks kept between renders. A blur depends only on the
/// silhouette's pixels, σ, and where the wanted pixels lie relative to the
/// silhouette's (GaussianBlur works in relative positions), so a mask is
/// looked up by exactly those: the same shadow in a later frame (its colour,
/// opacity or offset changed, or a neighbour moved) and identical shapes at
/// whole-pixel offsets in one frame (a grid of cards) are blurred once. A
/// hit compares the silhouette byte for byte, so it gives the bytes a new
/// blur would. Masks nobody used are dropped past `budget`.
public final class EffectCache {
    struct Key: Hashable {
        let sigma: UInt64
        /// The silhouette's size, the wanted pixels' offset from it and their size.
        let sw: Int, sh: Int, dx: Int, dy: Int, w: Int, h: Int
        let hash: UInt64
    }

    final class Entry {
        /// The silhouette, `sw` bytes per row, packed.
        let silhouette: UnsafeMutableRawPointer
        /// The blurred A8 mask (w × h).
        let mask: OpaquePointer
        let bytes: Int
        var lastUsed = 0
        private let charge: MemoryCharge?

        init(silhouette: UnsafeMutableRawPointer, mask: OpaquePointer, bytes: Int, charge: MemoryCharge?) {
            (self.silhouette, self.mask, self.bytes, self.charge) = (silhouette, mask, bytes, charge)
        }

        deinit {
            silhouette.deallocate()
            cairo_surface_destroy(mask)
        }
    }

    /// Where a layer's shadow mask came from, as damage tracking knows the
    /// layer: while all of this is unchanged, the layer's content draws the
    /// same silhouette (the fingerprint hashes the whole subtree, as partial
    /// redraws already rely on), so the mask can be found without drawing it.
    struct LayerShadow: Equatable {
        let fingerprint: DamageTracker.Fingerprint
        let ctm: AffineTransform
        let contentsFlipped: Bool
        let sigma: UInt64
        let needed: PixelRect, wanted: PixelRect
    }

    final class LayerEntry {
        @WeakLink var layer: Layer?
        let shadow: LayerShadow
        let key: Key
        weak var entry: Entry?
        var lastUsed: Int
        init(layer: Layer, shadow: LayerShadow, key: Key, entry: Entry, use: Int) {
            (self.layer, self.shadow, self.key, self.entry, lastUsed) = (layer, shadow, key, entry, use)
        }
    }

    /// Guards the entries and holds the render count (`lastUsed` compares
    /// with it): a render's bands look up and insert at once.
    private let lock = Locked(0)
    private var entries: [Key: Entry] = [:]
    /// The mask each layer's shadow used last (at most one per layer; those
    /// of layers not drawn for two renders go once there are many).
    private var byLayer: [ObjectIdentifier: LayerEntry] = [:]
    private var layersUsedLastRender = 0, layersUsed = 0
    /// Masks found by layer (shadows painted without their content), for tests.
    private(set) var layerHits = 0
    /// Bytes of silhouettes and masks kept.
    public private(set) var bytes = 0
    /// Masks beyond this many bytes that the current render did not use are dropped.
    public static let defaultBudget = 32 << 20
    public var budget = EffectCache.defaultBudget
    /// A mask larger than this is not kept (one shadow must not push out the rest).
    static let largestEntry = 8 << 20

    public init() {}

    /// Drops every mask.
    public func removeAll() {
        let dropped = lock.withLock { _ in
            defer { entries = [:]; byLayer = [:]; bytes = 0 }
            return entries
        }
        withExtendedLifetime(dropped) {}
    }

    /// The number of masks kept.
    public var count: Int { lock.withLock { _ in entries.count } }

    /// Starts a render: masks used from here on are this render's.
    func beginRender() {
        lock.withLock { use in
            use += 1
            (layersUsedLastRender, layersUsed) = (layersUsed, 0)
            if byLayer.count > 2 * layersUsedLastRender + 256 {
                byLayer = byLayer.filter { $0.value.lastUsed >= use - 2 && $0.value.layer != nil }
            }
        }
    }

    /// Notes that `layer`'s shadow, drawn as `shadow` says, used the mask of `key`.
    func noteMask(_ key: Key, of layer: Layer, as shadow: LayerShadow) {
        lock.withLock { use in
            guard let e = entries[key] else { return }
            let id = ObjectIdentifier(layer)
            if let old = byLayer[id], old.layer === layer, old.entry === e, old.shadow == shadow {
                if old.lastUsed != use { layersUsed += 1 }
                old.lastUsed = use
                return
            }
            if byLayer[id]?.lastUsed != use { layersUsed += 1 }
            byLayer[id] = LayerEntry(layer: layer, shadow: shadow, key: key, entry: e, use: use)
        }
    }

    /// The mask `layer`'s shadow used when it was last drawn as `shadow`
    /// says, if the cache still holds it (the caller releases it).
    func mask(of layer: Layer, as shadow: LayerShadow) -> OpaquePointer? {
        lock.withLock { use in
            guard let l = byLayer[ObjectIdentifier(layer)], l.layer === layer, l.shadow == shadow,
                  let e = l.entry, entries[l.key] === e else { return nil }
            if l.lastUsed != use { layersUsed += 1 }
            l.lastUsed = use
            e.lastUsed = use
            layerHits += 1
            return cairo_surface_reference(e.mask)
        }
    }

    /// The key of a silhouette (an A8 surface) blurred at `sigma` into `w`×`h`
    /// pixels starting (dx, dy) from its own origin.
    static func key(_ silhouette: OpaquePointer, sigma: Double, dx: Int, dy: Int, w: Int, h: Int) -> Key {
        let sw = Int(cairo_image_surface_get_width(silhouette)), sh = Int(cairo_image_surface_get_height(silhouette))
        return Key(sigma: sigma.bitPattern, sw: sw, sh: sh, dx: dx, dy: dy, w: w, h: h,
                   hash: hash(silhouette, sw, sh))
    }

    /// The mask for `key` whose silhouette has the same bytes, or nil.
    /// The caller releases it (bands of one render share the cache: an
    /// entry may be replaced while another band still paints its mask).
    func mask(_ key: Key, silhouette: OpaquePointer) -> OpaquePointer? {
        // The bytes are compared outside the lock (an entry never changes;
        // holding it keeps it alive), so bands do not wait on each other.
        guard let e = lock.withLock({ _ in entries[key] }), let (data, stride) = EffectCache.rows(silhouette) else { return nil }
        for y in 0..<key.sh where memcmp(data + y * stride, e.silhouette + y * key.sw, key.sw) != 0 { return nil }
        lock.withLock { use in e.lastUsed = use }
        return cairo_surface_reference(e.mask)
    }

    /// Keeps `mask` (the cache takes a reference) for `key`, if the ledger
    /// and the budget allow.
    func insert(_ key: Key, silhouette: OpaquePointer, mask: OpaquePointer, memory: MemoryLedger?) {
        let size = key.sw * key.sh + key.w * key.h
        guard size <= EffectCache.largestEntry,
              let charge = try? MemoryCharge(memory, size, "shadow cache"),
              let (data, stride) = EffectCache.rows(silhouette) else { return }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(key.sw * key.sh, 1), alignment: 8)
        for y in 0..<key.sh { memcpy(copy + y * key.sw, data + y * stride, key.sw) }
        let e = Entry(silhouette: copy, mask: cairo_surface_reference(mask), bytes: size, charge: charge)
        // Freed after the lock: an entry's charge goes back to the ledger.
        var dropped: [Entry] = []
        lock.withLock { use in
            e.lastUsed = use
            if let old = entries.updateValue(e, forKey: key) {
                bytes -= old.bytes
                dropped.append(old)
            }
            bytes += size
            dropped += trim(use: use)
        }
        withExtendedLifetime(dropped) {}
    }

    /// Drops the least recently used masks the current render did not use.
    /// Drops the least recently used entries past the budget (under the
    /// lock); returns them, to be freed after it.
    private func trim(use: Int) -> [Entry] {
        guard bytes > budget else { return [] }
        var dropped: [Entry] = []
        for (k, e) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where e.lastUsed < use {
            entries[k] = nil
            bytes -= e.bytes
            dropped.append(e)
            if bytes <= budget { break }
        }
        return dropped
    }

    /// A 64-bit hash of the rows' bytes (8 at a time).
    static func hash(_ s: OpaquePointer, _ w: Int, _ h: Int) -> UInt64 {
        guard let (data, stride) = rows(s) else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride)
            var x = 0
            while x + 8 <= w {
                hash = (hash ^ row.loadUnaligned(fromByteOffset: x, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 29
                x += 8
            }
            while x < w {
                hash = (hash ^ UInt64(row.load(fromByteOffset: x, as: UInt8.self))) &* 0x100_0000_01b3
                x += 1
            }
            hash = (hash ^ UInt64(y)) &* 0x9E37_79B9_7F4A_7C15
        }
        return hash
    }

    /// An image surface's pixels, flushed, and its stride (nil without pixels).
    private static func rows(_ s: OpaquePointer) -> (UnsafeMutablePointer<UInt8>, Int)? {
        cairo_surface_flush(s)
        guard let data = cairo_image_surface_get_data(s) else { return nil }
        return (data, Int(cairo_image_surface_get_stride(s)))
    }
}
