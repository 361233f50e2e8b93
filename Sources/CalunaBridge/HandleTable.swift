import Caluna
import Synchronization

/// Maps 64-bit object ids to layers for callers outside Swift (C and Lua).
///
/// An id is `tag << 48 | generation << 32 | slot`: `tag` names the engine, so a
/// foreign id is recognised; `generation` changes each time a slot is reused,
/// so a stale id is recognised. Looking an id up never traps.
///
/// The table holds layers weakly, plus an optional count of external
/// references (C's create/retain/release) that keep a layer alive.
public final class HandleTable {
    private struct Slot {
        @WeakLink var object: Layer?
        var owned: Layer?
        var externalRefs = 0
        var generation: UInt16 = 1
    }

    private static let nextTag = Atomic<UInt32>(1)

    public let tag: UInt16
    /// (No dynamic exclusivity check: every lookup reads it. Every access is
    /// a plain read or write that calls nothing — a write that drops the
    /// last reference to a layer, whose deinit could run anything, is done
    /// with the layer still held, and the layer freed after the write.)
    @exclusivity(unchecked) private var slots: [Slot] = []
    private var free: [Int] = []
    private var allocationsSinceSweep = 0

    public init() {
        // 0 is never a tag, so the id 0 is never valid (C's "no layer").
        let t = HandleTable.nextTag.add(1, ordering: .relaxed).oldValue
        tag = UInt16(truncatingIfNeeded: t % 0xFFFF) &+ 1
    }

    /// The id of `layer`, assigned on first use.
    public func id(for layer: Layer) -> UInt64 {
        if layer.externalID != 0, (try? self.layer(layer.externalID)) === layer { return layer.externalID }
        let index = allocateSlot()
        slots[index].object = layer
        let id = UInt64(tag) << 48 | UInt64(slots[index].generation) << 32 | UInt64(index + 1)
        layer.externalID = id
        return id
    }

    /// The live layer an id names, or a clear error.
    public func layer(_ id: UInt64) throws -> Layer {
        guard id != 0 else { throw CalunaError(.staleHandle, "the layer id is 0 (no layer)") }
        guard UInt16(truncatingIfNeeded: id >> 48) == tag else {
            throw CalunaError(.staleHandle, "layer id \(hex(id)) belongs to another engine")
        }
        let index = Int(id & 0xFFFF_FFFF) - 1
        let gen = UInt16(truncatingIfNeeded: id >> 32)
        guard index >= 0, index < slots.count, slots[index].generation == gen,
              let l = slots[index].object else {
            throw CalunaError(.staleHandle, "layer id \(hex(id)) is stale (the layer no longer exists)")
        }
        return l
    }

    /// One more external reference: the layer stays alive until released.
    public func retain(_ id: UInt64) throws {
        let l = try layer(id)
        let i = Int(id & 0xFFFF_FFFF) - 1
        slots[i].externalRefs += 1
        slots[i].owned = l
    }

    public func release(_ id: UInt64) throws {
        _ = try layer(id)
        let i = Int(id & 0xFFFF_FFFF) - 1
        guard slots[i].externalRefs > 0 else {
            throw CalunaError(.invalidArgument, "layer id \(hex(id)) has no reference left to release")
        }
        slots[i].externalRefs -= 1
        if slots[i].externalRefs == 0 {
            let last = slots[i].owned   // freed after the write (see `slots`)
            slots[i].owned = nil
            withExtendedLifetime(last) {}
        }
    }

    /// How many ids currently name live layers (for leak tests).
    public var liveCount: Int { slots.reduce(0) { $0 + ($1.object != nil ? 1 : 0) } }

    private func allocateSlot() -> Int {
        if free.isEmpty, allocationsSinceSweep >= max(64, slots.count / 2) { sweep() }
        allocationsSinceSweep += 1
        if let i = free.popLast() { return i }
        slots.append(Slot())
        return slots.count - 1
    }

    /// Frees the slots of layers that died, bumping their generation. Runs
    /// only when the free list is empty, so no freed slot is met twice.
    private func sweep() {
        allocationsSinceSweep = 0
        for i in slots.indices where slots[i].object == nil {
            slots[i].owned = nil
            slots[i].externalRefs = 0
            slots[i].generation = slots[i].generation == UInt16.max ? 1 : slots[i].generation + 1
            free.append(i)
        }
    }
}

func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16) }
