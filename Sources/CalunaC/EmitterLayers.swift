import Caluna
import CalunaBridge
import Glibc

// Emitter layers (ABI 1.7): emitter cells as ids, their values by key
// (EmitterCell.properties), installing cells in a layer or a cell, and the
// live particle count.

extension CEngine {
    func emitterCell(_ id: UInt64, _ name: String) throws -> EmitterCell {
        try object(in: emitterCells, id, name, as: EmitterCell.self)
    }

    /// The cells of a caller's array (NULL with count 0: none).
    func emitterCellArray(_ p: UnsafePointer<UInt64>?, _ count: Int32) throws -> [EmitterCell] {
        guard count >= 0, count <= 10_000 else {
            throw CalunaError.invalid("count \(count) is not in 0…10000")
        }
        guard count > 0 else { return [] }
        guard let p else { throw CalunaError.invalid("cells is NULL with count \(count)") }
        return try (0..<Int(count)).map { try emitterCell(p[$0], "cells[\($0)]") }
    }
}

@_cdecl("caluna_emitter_cell_create")
public func caluna_emitter_cell_create(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_emitter_cell_create") { ce in
        let o = try output(out, "out")
        let cell = EmitterCell()
        try withExtendedLifetime(cell) {
            let id = try ce.emitterCells.id(for: cell)
            try ce.emitterCells.retain(id)
            o.pointee = id
        }
    }
}

@_cdecl("caluna_emitter_cell_retain")
public func caluna_emitter_cell_retain(_ e: OpaquePointer?, _ cell: UInt64) -> Int32 {
    withEngine(e, "caluna_emitter_cell_retain") { ce in
        _ = try ce.emitterCell(cell, "cell")
        try ce.emitterCells.retain(cell)
    }
}

@_cdecl("caluna_emitter_cell_release")
public func caluna_emitter_cell_release(_ e: OpaquePointer?, _ cell: UInt64) -> Int32 {
    withEngine(e, "caluna_emitter_cell_release") { ce in
        _ = try ce.emitterCell(cell, "cell")
        try ce.emitterCells.release(cell)
    }
}

@_cdecl("caluna_emitter_cell_set")
public func caluna_emitter_cell_set(_ e: OpaquePointer?, _ cell: UInt64, _ key: UnsafePointer<CChar>?,
                                    _ value: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_emitter_cell_set") { ce in
        let c = try ce.emitterCell(cell, "cell")
        let k = try string(key, "key")
        guard let value else { throw CalunaError(.invalidArgument, "value is NULL") }
        let v: Value
        do { v = try readValue(value) } catch let err as CalunaError { throw CalunaError(err.code, "\(k): \(err.message)") }
        try c.setValue(v, forKey: k)
    }
}

@_cdecl("caluna_emitter_cell_get")
public func caluna_emitter_cell_get(_ e: OpaquePointer?, _ cell: UInt64, _ key: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_emitter_cell_get") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let c = try ce.emitterCell(cell, "cell")
        try writeValue(try c.value(forKey: try string(key, "key")), to: out, engine: ce)
    }
}

@_cdecl("caluna_emitter_cell_set_cells")
public func caluna_emitter_cell_set_cells(_ e: OpaquePointer?, _ cell: UInt64, _ cells: UnsafePointer<UInt64>?,
                                          _ count: Int32) -> Int32 {
    withEngine(e, "caluna_emitter_cell_set_cells") { ce in
        let c = try ce.emitterCell(cell, "cell")
        try c.setEmitterCells(try ce.emitterCellArray(cells, count))
    }
}

@_cdecl("caluna_emitter_cell_get_cells")
public func caluna_emitter_cell_get_cells(_ e: OpaquePointer?, _ cell: UInt64, _ out: UnsafeMutablePointer<UInt64>?,
                                          _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    cellIDs(e, "caluna_emitter_cell_get_cells", out, capacity, count) { try $0.emitterCell(cell, "cell").emitterCells }
}

@_cdecl("caluna_emitter_layer_set_cells")
public func caluna_emitter_layer_set_cells(_ e: OpaquePointer?, _ layer: UInt64, _ cells: UnsafePointer<UInt64>?,
                                           _ count: Int32) -> Int32 {
    withEngine(e, "caluna_emitter_layer_set_cells") { ce in
        let l = try ce.layer(layer, "layer", kind: .emitterLayer)
        try l.setEmitterCells(try ce.emitterCellArray(cells, count))
    }
}

@_cdecl("caluna_emitter_layer_get_cells")
public func caluna_emitter_layer_get_cells(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?,
                                           _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    cellIDs(e, "caluna_emitter_layer_get_cells", out, capacity, count) { ce in
        try ce.layer(layer, "layer", kind: .emitterLayer).emitterCells
    }
}

/// The shape of both get_cells calls: borrowed ids of the cells `cells`
/// names, up to `capacity` of them, and how many there are.
private func cellIDs(_ e: OpaquePointer?, _ function: String, _ out: UnsafeMutablePointer<UInt64>?, _ capacity: Int32,
                     _ count: UnsafeMutablePointer<Int32>?, _ cells: (CEngine) throws -> [EmitterCell]) -> Int32 {
    count?.pointee = 0
    return withEngine(e, function) { ce in
        let n = try output(count, "count")
        guard capacity >= 0 else { throw CalunaError.invalid("capacity \(capacity) is negative") }
        let found = try cells(ce)
        guard capacity == 0 || out != nil else { throw CalunaError.invalid("cells is NULL with capacity \(capacity)") }
        for (i, c) in found.prefix(Int(capacity)).enumerated() { out?[i] = try ce.emitterCells.id(for: c) }
        n.pointee = Int32(found.count)
    }
}

@_cdecl("caluna_emitter_layer_particle_count")
public func caluna_emitter_layer_particle_count(_ e: OpaquePointer?, _ layer: UInt64,
                                                _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_emitter_layer_particle_count") { ce in
        let o = try output(out, "out")
        o.pointee = Int32(try ce.layer(layer, "layer", kind: .emitterLayer).emitterParticles().particles.count)
    }
}
