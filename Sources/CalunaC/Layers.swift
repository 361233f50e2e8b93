import Caluna
import CalunaBridge

// Layer ids, ownership and the tree.

@_cdecl("caluna_root_layer")
public func caluna_root_layer(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_root_layer") { ce in
        let o = try output(out, "out")
        o.pointee = ce.id(ce.engine.root)
    }
}

@_cdecl("caluna_layer_create")
public func caluna_layer_create(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_create") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.newLayer(.layer)
    }
}

@_cdecl("caluna_layer_create_class")
public func caluna_layer_create_class(_ e: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_create_class") { ce in
        let out = try output(out, "out")
        let name = try string(className, "class_name")
        guard let kind = LayerKind(rawValue: name) else {
            let known = LayerKind.allCases.map(\.className).joined(separator: ", ")
            throw CalunaError(.notSupported, "caluna_layer_create_class: '\(name)' is not a layer class caluna draws (known: \(known))")
        }
        out.pointee = try ce.newLayer(kind)
    }
}

@_cdecl("caluna_layer_class_name")
public func caluna_layer_class_name(_ e: OpaquePointer?, _ layer: UInt64,
                                    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return withEngine(e, "caluna_layer_class_name") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.keep(try ce.layer(layer, "layer").kind.className)
    }
}

extension CEngine {
    /// A new layer of `kind` and the caller's owned reference to it.
    func newLayer(_ kind: LayerKind) throws -> UInt64 {
        // The handle table holds layers weakly: keep this one alive until
        // the caller's reference is recorded.
        let layer = try engine.createLayer(kind: kind)
        let id = handles.id(for: layer)
        try withExtendedLifetime(layer) { try handles.retain(id) }
        return id
    }
}

@_cdecl("caluna_layer_retain")
public func caluna_layer_retain(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_retain") { ce in
        _ = try ce.layer(layer, "layer")
        try ce.handles.retain(layer)
    }
}

@_cdecl("caluna_layer_release")
public func caluna_layer_release(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_release") { ce in
        _ = try ce.layer(layer, "layer")
        try ce.handles.release(layer)
    }
}

@_cdecl("caluna_layer_add_sublayer")
public func caluna_layer_add_sublayer(_ e: OpaquePointer?, _ parent: UInt64, _ child: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_add_sublayer") { ce in
        let p = try ce.layer(parent, "parent"), c = try ce.layer(child, "child")
        try p.addSublayer(c)
    }
}

@_cdecl("caluna_layer_insert_sublayer")
public func caluna_layer_insert_sublayer(_ e: OpaquePointer?, _ parent: UInt64, _ child: UInt64, _ index: Int32) -> Int32 {
    withEngine(e, "caluna_layer_insert_sublayer") { ce in
        let p = try ce.layer(parent, "parent"), c = try ce.layer(child, "child")
        try p.insertSublayer(c, at: Int(index))
    }
}

@_cdecl("caluna_layer_insert_sublayer_above")
public func caluna_layer_insert_sublayer_above(_ e: OpaquePointer?, _ parent: UInt64, _ child: UInt64,
                                               _ sibling: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_insert_sublayer_above") { ce in
        let p = try ce.layer(parent, "parent"), c = try ce.layer(child, "child")
        try p.insertSublayer(c, above: try ce.optionalLayer(sibling, "sibling"))
    }
}

@_cdecl("caluna_layer_insert_sublayer_below")
public func caluna_layer_insert_sublayer_below(_ e: OpaquePointer?, _ parent: UInt64, _ child: UInt64,
                                               _ sibling: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_insert_sublayer_below") { ce in
        let p = try ce.layer(parent, "parent"), c = try ce.layer(child, "child")
        try p.insertSublayer(c, below: try ce.optionalLayer(sibling, "sibling"))
    }
}

@_cdecl("caluna_layer_replace_sublayer")
public func caluna_layer_replace_sublayer(_ e: OpaquePointer?, _ parent: UInt64, _ oldLayer: UInt64,
                                          _ newLayer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_replace_sublayer") { ce in
        let p = try ce.layer(parent, "parent")
        let o = try ce.layer(oldLayer, "old_layer"), n = try ce.layer(newLayer, "new_layer")
        try p.replaceSublayer(o, with: n)
    }
}

@_cdecl("caluna_layer_remove_from_superlayer")
public func caluna_layer_remove_from_superlayer(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_remove_from_superlayer") { ce in
        try ce.layer(layer, "layer").removeFromSuperlayer()
    }
}

@_cdecl("caluna_layer_superlayer")
public func caluna_layer_superlayer(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_superlayer") { ce in
        let o = try output(out, "out")
        o.pointee = ce.id(try ce.layer(layer, "layer").superlayer)
    }
}

@_cdecl("caluna_layer_sublayer_count")
public func caluna_layer_sublayer_count(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_sublayer_count") { ce in
        let o = try output(out, "out")
        o.pointee = try int32(try ce.layer(layer, "layer").sublayers.count, "sublayer count")
    }
}

@_cdecl("caluna_layer_sublayer_at")
public func caluna_layer_sublayer_at(_ e: OpaquePointer?, _ layer: UInt64, _ index: Int32,
                                     _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_sublayer_at") { ce in
        let o = try output(out, "out")
        let subs = try ce.layer(layer, "layer").sublayers
        o.pointee = ce.id(try element(subs, index, "the layer has \(subs.count) sublayers"))
    }
}

@_cdecl("caluna_layer_find")
public func caluna_layer_find(_ e: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_find") { ce in
        let n = try string(name, "name")
        let o = try output(out, "out")
        // Depth-first, pre-order, sublayers in array order.
        var stack: [Layer] = [ce.engine.root]
        while let l = stack.popLast() {
            if l.name == n {
                o.pointee = ce.id(l)
                return
            }
            stack.append(contentsOf: l.sublayers.reversed())
        }
        throw CalunaError(.unknownKey, "no layer in the tree is named '\(n)'")
    }
}
