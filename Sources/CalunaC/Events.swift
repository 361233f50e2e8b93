import Caluna
import CalunaBridge
import Glibc

// Input (ABI 1.6): sending pointer, key, tilt, resize and custom events,
// scripted input, and handlers on the engine and on layers.

/// caluna_event's layout (checked by the header at compile time).
enum EventLayout {
    static let size = 176
    static let target = 128
    static let name = 144, key = 152, text = 160, payload = 168
}

public typealias CEventCallback = @convention(c) (OpaquePointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

/// caluna_event_type ⇄ InputEvent.Kind.
private let eventKinds: [InputEvent.Kind] = [.pointerDown, .pointerMove, .pointerUp, .pointerCancel, .keyDown, .keyUp,
                                             .tilt, .resize, .custom, .tap, .pan]

private func eventKind(_ type: Int32, _ allowed: [InputEvent.Kind], _ what: String) throws -> InputEvent.Kind {
    guard type >= 1, Int(type) <= eventKinds.count, allowed.contains(eventKinds[Int(type) - 1]) else {
        throw CalunaError(.invalidArgument, "type \(type) is not \(what)")
    }
    return eventKinds[Int(type) - 1]
}

/// CALUNA_NOW (-1) → nil; other times must be finite and not negative.
private func eventTime(_ t: Double) throws -> Double? {
    if t == -1 { return nil }
    guard t.isFinite, t >= 0 else { throw CalunaError(.invalidArgument, "time must be a media time ≥ 0 or CALUNA_NOW (got \(t))") }
    return t
}

private func modifiers(_ bits: UInt32) throws -> InputEvent.Modifiers {
    let m = InputEvent.Modifiers(rawValue: bits)
    guard m.isSubset(of: .all) else { throw CalunaError(.invalidArgument, "modifiers has unknown bits \(bits) (CALUNA_MOD_* only)") }
    return m
}

extension CEngine {
    /// Calls a C handler with the event laid out as caluna_event.
    func callHandler(_ callback: CEventCallback, _ e: InputEvent, _ user: UnsafeMutableRawPointer?) -> Bool {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: EventLayout.size, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: EventLayout.size)
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer {
            for s in strings { free(s) }
            buffer.deallocate()
        }
        func put<T>(_ v: T, _ offset: Int) { buffer.storeBytes(of: v, toByteOffset: offset, as: T.self) }
        func putString(_ s: String?, _ offset: Int) {
            guard let s, let c = strdup(s) else { return }
            strings.append(c)
            put(UInt(bitPattern: c), offset)
        }
        put(Int32((eventKinds.firstIndex(of: e.kind) ?? -1) + 1), 0)
        let phases: [InputEvent.Phase] = [.none, .began, .changed, .ended, .cancelled]
        put(Int32(phases.firstIndex(of: e.phase) ?? 0), 4)
        put(e.time, 8)
        if e.kind.reachesLayers {
            put(e.pointerID, 16)
            put(e.location.x, 24); put(e.location.y, 32)
            put(e.buttons, 40)
        }
        put(e.modifiers.rawValue, 44)
        if e.kind == .tilt { put(e.acceleration.x, 48); put(e.acceleration.y, 56); put(e.acceleration.z, 64) }
        if e.kind == .resize { put(e.size.width, 72); put(e.size.height, 80); put(session.engine.scale, 88) }
        if e.kind == .pan {
            put(e.translation.x, 96); put(e.translation.y, 104)
            put(e.velocity.x, 112); put(e.velocity.y, 120)
        }
        put(id(e.target), EventLayout.target)
        put(id(e.currentTarget), EventLayout.target + 8)
        putString(e.name, EventLayout.name)
        if e.kind == .keyDown || e.kind == .keyUp { putString(e.key, EventLayout.key); putString(e.text, EventLayout.text) }
        if e.kind == .custom { putString(e.payload.jsonText, EventLayout.payload) }
        return callback(pointer, UnsafeRawPointer(buffer), user) != 0
    }

    func eventHandler(_ id: UInt64, _ name: String) throws -> EventHandler {
        let h = try object(in: eventHandlers, id, name, as: EventHandler.self)
        guard h.isValid else { throw CalunaError(.staleHandle, "\(name): handler id \(hexID(id)) is stale (the handler was removed)") }
        return h
    }

    /// Registers a made handler and writes its id (undoing it on failure).
    func handlerID(_ h: EventHandler, _ out: UnsafeMutablePointer<UInt64>) throws {
        do { out.pointee = try eventHandlers.id(for: h) } catch {
            session.engine.removeEventHandler(h)
            throw error
        }
    }
}

@_cdecl("caluna_send_pointer")
public func caluna_send_pointer(_ e: OpaquePointer?, _ type: Int32, _ pointer: Int64, _ x: Double, _ y: Double,
                                _ buttons: Int32, _ mods: UInt32, _ time: Double) -> Int32 {
    withEngine(e, "caluna_send_pointer") { ce in
        let kind = try eventKind(type, [.pointerDown, .pointerMove, .pointerUp, .pointerCancel], "a pointer event type (CALUNA_EVENT_POINTER_*)")
        let ev = InputEvent.pointer(kind, id: pointer, at: Point(x, y), buttons: buttons, modifiers: try modifiers(mods))
        try ce.session.engine.send(ev, at: try eventTime(time))
    }
}

@_cdecl("caluna_send_key")
public func caluna_send_key(_ e: OpaquePointer?, _ type: Int32, _ key: UnsafePointer<CChar>?, _ text: UnsafePointer<CChar>?,
                            _ mods: UInt32, _ time: Double) -> Int32 {
    withEngine(e, "caluna_send_key") { ce in
        let kind = try eventKind(type, [.keyDown, .keyUp], "CALUNA_EVENT_KEY_DOWN or CALUNA_EVENT_KEY_UP")
        let t = text == nil ? "" : try string(text, "text")
        try ce.session.engine.send(InputEvent.key(kind, try string(key, "key"), text: t, modifiers: try modifiers(mods)),
                                   at: try eventTime(time))
    }
}

@_cdecl("caluna_send_tilt")
public func caluna_send_tilt(_ e: OpaquePointer?, _ x: Double, _ y: Double, _ z: Double, _ time: Double) -> Int32 {
    withEngine(e, "caluna_send_tilt") { ce in
        try ce.session.engine.send(InputEvent.tilt(x: x, y: y, z: z), at: try eventTime(time))
    }
}

@_cdecl("caluna_send_resize")
public func caluna_send_resize(_ e: OpaquePointer?, _ width: Double, _ height: Double, _ scale: Double, _ time: Double) -> Int32 {
    withEngine(e, "caluna_send_resize") { ce in
        try ce.session.engine.send(InputEvent.resize(Size(width, height), scale: scale == 0 ? nil : scale), at: try eventTime(time))
    }
}

@_cdecl("caluna_send_custom")
public func caluna_send_custom(_ e: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ json: UnsafePointer<CChar>?,
                               _ time: Double) -> Int32 {
    withEngine(e, "caluna_send_custom") { ce in
        let payload = json == nil ? EventPayload.null : try EventPayload(json: try string(json, "payload_json"))
        try ce.session.engine.send(InputEvent.custom(try string(name, "name"), payload), at: try eventTime(time))
    }
}

@_cdecl("caluna_send_json")
public func caluna_send_json(_ e: OpaquePointer?, _ json: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_send_json") { ce in
        try ce.session.engine.sendScripted(jsonLines: try string(json, "json"), source: "json")
    }
}

@_cdecl("caluna_load_events")
public func caluna_load_events(_ e: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_load_events") { ce in
        let n = try ce.session.engine.loadEvents(path: try string(path, "path"), access: ce.session.fileAccess,
                                                 api: "caluna_load_events")
        count?.pointee = try int32(n, "count")
    }
}

@_cdecl("caluna_pending_event_count")
public func caluna_pending_event_count(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_pending_event_count") { ce in
        try output(out, "out").pointee = try int32(ce.session.engine.input.pendingCount, "count")
    }
}

@_cdecl("caluna_on")
public func caluna_on(_ e: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ callback: CEventCallback?,
                      _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_on") { ce in
        let o = try output(out, "out")
        guard let callback else { throw CalunaError(.invalidArgument, "callback is NULL") }
        let h = try ce.session.engine.addEventHandler(try string(name, "name")) { [weak ce] ev in
            ce?.callHandler(callback, ev, user) ?? false
        }
        try ce.handlerID(h, o)
    }
}

@_cdecl("caluna_layer_on")
public func caluna_layer_on(_ e: OpaquePointer?, _ layer: UInt64, _ name: UnsafePointer<CChar>?, _ callback: CEventCallback?,
                            _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_on") { ce in
        let o = try output(out, "out")
        let l = try ce.layer(layer, "layer")
        guard let callback else { throw CalunaError(.invalidArgument, "callback is NULL") }
        let h = try ce.session.engine.addEventHandler(try string(name, "name"), on: l) { [weak ce] ev in
            ce?.callHandler(callback, ev, user) ?? false
        }
        try ce.handlerID(h, o)
    }
}

@_cdecl("caluna_off")
public func caluna_off(_ e: OpaquePointer?, _ handler: UInt64) -> Int32 {
    withEngine(e, "caluna_off") { ce in
        ce.session.engine.removeEventHandler(try ce.eventHandler(handler, "handler"))
    }
}

@_cdecl("caluna_set_hit_test_tree")
public func caluna_set_hit_test_tree(_ e: OpaquePointer?, _ presentation: Int32) -> Int32 {
    withEngine(e, "caluna_set_hit_test_tree") { ce in
        guard presentation == 0 || presentation == 1 else {
            throw CalunaError(.invalidArgument, "presentation must be 1 (presentation tree) or 0 (model tree), got \(presentation)")
        }
        ce.session.engine.hitTestsPresentation = presentation == 1
    }
}

@_cdecl("caluna_hit_layer")
public func caluna_hit_layer(_ e: OpaquePointer?, _ x: Double, _ y: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_hit_layer") { ce in
        let o = try output(out, "out")
        try finite([("x", x), ("y", y)])
        o.pointee = ce.id(ce.session.engine.hitLayer(at: Point(x, y)))
    }
}

@_cdecl("caluna_pan_set_translation")
public func caluna_pan_set_translation(_ e: OpaquePointer?, _ pointer: Int64, _ x: Double, _ y: Double) -> Int32 {
    withEngine(e, "caluna_pan_set_translation") { ce in
        try ce.session.engine.setPanTranslation(Point(x, y), pointer: pointer)
    }
}

@_cdecl("caluna_pointer_capture")
public func caluna_pointer_capture(_ e: OpaquePointer?, _ pointer: Int64, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_pointer_capture") { ce in
        try ce.session.engine.capturePointer(pointer, to: try ce.optionalLayer(layer, "layer"))
    }
}
