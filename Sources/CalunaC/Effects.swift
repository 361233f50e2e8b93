import Caluna
import CalunaBridge
import Glibc

// Visual effects that are not plain values (ABI 1.3): shadowPath as path
// elements and the mask layer; and display — setNeedsDisplay, display,
// displayIfNeeded — with the C draw callback (a subclass's drawInContext:).

// MARK: shadowPath

@_cdecl("caluna_layer_set_shadow_path")
public func caluna_layer_set_shadow_path(_ e: OpaquePointer?, _ layer: UInt64, _ elements: UnsafeRawPointer?,
                                         _ count: UInt) -> Int32 {
    withEngine(e, "caluna_layer_set_shadow_path") { ce in
        let l = try ce.layer(layer, "layer")
        // NULL with count 0 is nil (the shadow follows the content); a
        // non-NULL pointer with count 0 is an empty path (no shadow).
        let v: Value = elements == nil && count == 0 ? .null : .path(try readPath(elements, count: count, "elements"))
        try l.setValue(v, forKeyPath: "shadowPath")
    }
}

@_cdecl("caluna_layer_shadow_path")
public func caluna_layer_shadow_path(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutableRawPointer?,
                                     _ capacity: UInt, _ count: UnsafeMutablePointer<UInt>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_layer_shadow_path") { ce in
        let c = try output(count, "count")
        guard capacity == 0 || out != nil else { throw CalunaError(.invalidArgument, "out is NULL but capacity is \(capacity)") }
        let l = try ce.layer(layer, "layer")
        guard let path = l.shadowPath else { return }
        if let out { writePath(path, to: out, capacity: Int(min(capacity, UInt(path.elements.count)))) }
        c.pointee = UInt(path.elements.count)
    }
}

// MARK: the mask

@_cdecl("caluna_layer_set_mask")
public func caluna_layer_set_mask(_ e: OpaquePointer?, _ layer: UInt64, _ mask: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_set_mask") { ce in
        let l = try ce.layer(layer, "layer")
        let m = try ce.optionalLayer(mask, "mask")
        // The engine's root is the tree itself: as a mask it would hang the
        // whole tree under another layer.
        if let m, m === ce.engine.root {
            throw CalunaError(.treeError, "the root layer cannot be a mask")
        }
        try l.setMask(m)
    }
}

@_cdecl("caluna_layer_mask")
public func caluna_layer_mask(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_mask") { ce in
        let o = try output(out, "out")
        o.pointee = ce.id(try ce.layer(layer, "layer").mask)
    }
}

// MARK: display

@_cdecl("caluna_layer_set_needs_display")
public func caluna_layer_set_needs_display(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_set_needs_display") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        l.setNeedsDisplay()
    }
}

@_cdecl("caluna_layer_set_needs_display_in_rect")
public func caluna_layer_set_needs_display_in_rect(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                                   _ width: Double, _ height: Double) -> Int32 {
    withEngine(e, "caluna_layer_set_needs_display_in_rect") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        try finite([("x", x), ("y", y), ("width", width), ("height", height)])
        let r = Rect(x, y, width, height).standardized
        try LayerProperty.checkRect("rect", r)
        l.setNeedsDisplay(in: r)
    }
}

@_cdecl("caluna_layer_needs_display")
public func caluna_layer_needs_display(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_needs_display") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.layer(layer, "layer").needsDisplay ? 1 : 0
    }
}

/// Runs a display of `l` the way every caller does: refused for a layer
/// whose draw callback is running (it would display itself forever), and
/// the errors of the actions its new contents ran reported.
private func runDisplay(_ ce: CEngine, _ l: Layer, ifNeeded: Bool) throws {
    try l.checkModel("layer")
    if ce.drawingLayers.contains(ObjectIdentifier(l)) {
        throw CalunaError(.invalidArgument,
            "the layer is being drawn now (this is its own draw callback, or one it started): a layer cannot display itself while it draws")
    }
    if ifNeeded { try l.displayIfNeeded() } else { try l.display() }
    try ce.engine.takeActionError()
}

@_cdecl("caluna_layer_display")
public func caluna_layer_display(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_display") { ce in try runDisplay(ce, try ce.layer(layer, "layer"), ifNeeded: false) }
}

@_cdecl("caluna_layer_display_if_needed")
public func caluna_layer_display_if_needed(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_display_if_needed") { ce in try runDisplay(ce, try ce.layer(layer, "layer"), ifNeeded: true) }
}

// MARK: the draw callback

public typealias CDrawCallback = @convention(c) (OpaquePointer?, UInt64, UInt64, UnsafeMutableRawPointer?) -> Int32

/// Draw callbacks nest at most this deep (a callback that displays another
/// layer, whose callback displays a third …).
let maximumDrawNesting = 32

/// One run of a host's draw callback: the context gets an id for the length
/// of the call, then the id is stale whatever the host kept.
private func runDrawCallback(_ callback: CDrawCallback, _ host: HostReference, _ layer: Layer,
                             _ ctx: DrawingContext) throws {
    guard let ce = host.engine else { return }
    let key = ObjectIdentifier(layer)
    guard !ce.drawingLayers.contains(key) else {
        throw CalunaError(.invalidArgument, "the draw callback: the layer is already being drawn (it displayed itself)")
    }
    guard ce.drawingLayers.count < maximumDrawNesting else {
        throw CalunaError(.invalidArgument, "the draw callback: draw callbacks nest more than \(maximumDrawNesting) deep")
    }
    let id = try ce.contexts.id(for: ctx)
    try ce.contexts.retain(id)
    ce.drawingLayers.append(key)
    defer {
        ce.drawingLayers.removeLast()
        ce.contexts.close(id)
    }
    let status = callback(ce.pointer, ce.id(layer), id, host.user)
    try checkCallbackStatus(status, "the draw callback")
}

@_cdecl("caluna_layer_set_draw_callback")
public func caluna_layer_set_draw_callback(_ e: OpaquePointer?, _ layer: UInt64, _ callback: CDrawCallback?,
                                           _ user: UnsafeMutableRawPointer?, _ release: CReleaseCallback?) -> Int32 {
    withEngine(e, "caluna_layer_set_draw_callback") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        guard let callback else {
            l.drawHandler = nil
            return
        }
        // The handler holds `user` (its release runs when the handler goes:
        // replaced, cleared, its layer dies, or the engine is destroyed).
        let host = HostReference(user: user, release: release, engine: ce)
        l.drawHandler = { layer, ctx in try runDrawCallback(callback, host, layer, ctx) }
    }
}
