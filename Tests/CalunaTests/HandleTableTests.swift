import Testing
@testable import Caluna
import CalunaBridge

// The id table C and Lua share (DESIGN §4 "C ABI": 64-bit ids with a
// generation; a stale or foreign id is an error code, never a crash).

/// An id for a layer nobody else holds: it dies when this returns.
private func idOfDeadLayer(_ t: HandleTable) -> UInt64 {
    let l = Layer()
    return t.id(for: l)
}

/// An id for a layer only the table's external reference keeps alive.
private func idOfRetainedLayer(_ t: HandleTable, name: String) throws -> UInt64 {
    let l = Layer()
    l.name = name
    let id = t.id(for: l)
    try t.retain(id)
    return id
}

@Test func idIsStable() throws {
    let t = HandleTable()
    let a = Layer(), b = Layer()
    let ida = t.id(for: a)
    #expect(ida != 0)
    #expect(t.id(for: a) == ida)
    #expect(t.id(for: b) != ida)
    #expect(try t.layer(ida) === a)
    #expect(try t.layer(t.id(for: b)) === b)
    #expect(a.externalID == ida)
}

@Test func idZeroIsStale() {
    let t = HandleTable()
    #expect(errorCode { try t.layer(0) } == .staleHandle)
    #expect(errorCode { try t.retain(0) } == .staleHandle)
    #expect(errorCode { try t.release(0) } == .staleHandle)
}

@Test func idFromAnotherTableIsStale() throws {
    let t1 = HandleTable(), t2 = HandleTable()
    #expect(t1.tag != t2.tag)
    let l = Layer()
    let id = t1.id(for: l)
    do {
        _ = try t2.layer(id)
        Issue.record("a foreign id was accepted")
    } catch let e as CalunaError {
        #expect(e.code == .staleHandle)
        #expect(e.message.contains("another engine"))
    }
    #expect(try t1.layer(id) === l)
}

@Test func garbageIdsAreStaleNotCrashes() {
    let t = HandleTable()
    let l = Layer()
    let id = t.id(for: l)
    let tagOnly = id & 0xFFFF_0000_0000_0000
    for bad in [tagOnly, tagOnly | 0xFFFF_FFFF, id ^ (1 << 32), id + 1, UInt64.max] {
        #expect(errorCode { try t.layer(bad) } == .staleHandle, "\(bad)")
    }
    withExtendedLifetime(l) {}
}

@Test func idOfADeadLayerIsStale() throws {
    let t = HandleTable()
    let id = idOfDeadLayer(t)
    #expect(errorCode { try t.layer(id) } == .staleHandle)
    #expect(errorCode { try t.retain(id) } == .staleHandle)
    #expect(t.liveCount == 0)
}

@Test func retainKeepsALayerAliveAndReleaseFreesIt() throws {
    let t = HandleTable()
    let id = try idOfRetainedLayer(t, name: "kept")
    #expect(try t.layer(id).name == "kept", "the external reference keeps it alive")
    #expect(t.liveCount == 1)
    try t.retain(id)
    try t.release(id)
    #expect(try t.layer(id).name == "kept", "one reference is still held")
    try t.release(id)
    #expect(errorCode { try t.layer(id) } == .staleHandle, "the last release frees the layer")
    #expect(t.liveCount == 0)
}

@Test func releasingTooOftenIsAnError() throws {
    let t = HandleTable()
    let l = Layer()
    let id = t.id(for: l)
    #expect(errorCode { try t.release(id) } == .invalidArgument, "never retained")
    try t.retain(id)
    try t.release(id)
    #expect(errorCode { try t.release(id) } == .invalidArgument)
    #expect(try t.layer(id) === l, "the Swift owner still holds it")
}

@Test func reusedSlotGivesANewId() throws {
    let t = HandleTable()
    let dead = idOfDeadLayer(t)
    var live: [Layer] = []
    var ids: [UInt64] = []
    // Enough allocations to trigger the sweep that recycles dead slots.
    for _ in 0..<200 {
        let l = Layer()
        live.append(l)
        ids.append(t.id(for: l))
    }
    #expect(!ids.contains(dead))
    #expect(Set(ids).count == ids.count)
    #expect(ids.contains { $0 & 0xFFFF_FFFF == dead & 0xFFFF_FFFF }, "the dead layer's slot was reused")
    #expect(errorCode { try t.layer(dead) } == .staleHandle)
    for (l, id) in zip(live, ids) { #expect(try t.layer(id) === l) }
    #expect(t.liveCount == 200)
}

@Test func sessionResetMakesOldIdsForeign() throws {
    let s = try Session(size: Size(50, 50))
    let id = s.handles.id(for: s.engine.root)
    try s.reset(size: Size(10, 10), scale: 1)
    #expect(errorCode { try s.handles.layer(id) } == .staleHandle, "ids of the old engine are foreign")
}
