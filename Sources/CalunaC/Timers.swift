import Caluna
import CalunaBridge
import Glibc

// Time and motion around the animation objects (issue #3): the ids of
// animations, display links and timers; the layer's animation API, its
// presentation and its time; the engine's flush; display links and timers on
// the virtual clock; timing functions and easing without an engine.

// MARK: ids of objects other than layers

/// What a non-layer id names. Stored in bits 28–31 of the id's low word;
/// layer ids have 0 there (HandleTable's slots never reach 2^28).
enum ObjectKind: UInt64 {
    case animation = 1, displayLink = 2, timer = 3

    var name: String {
        switch self {
        case .animation: return "animation"
        case .displayLink: return "display link"
        case .timer: return "timer"
        }
    }

    /// "a layer", "an animation", … for the kind bits of any id.
    static func article(forBits k: UInt64) -> String {
        switch ObjectKind(rawValue: k) {
        case .animation?: return "an animation"
        case .displayLink?: return "a display link"
        case .timer?: return "a timer"
        case nil: return k == 0 ? "a layer" : "an unknown kind of"
        }
    }
}

/// Ids for animations, display links and timers, shaped like layer ids
/// (`tag << 48 | generation << 32 | kind << 28 | slot`, the engine's tag), so
/// a stale, foreign or wrong-kind id is an error, never a crash.
///
/// Objects are held weakly (an id stays valid while something holds the
/// object: a layer, a group, the engine's frame loop), plus the references
/// a C caller owns (create/copy/retain until release).
final class ObjectTable {
    private struct Slot {
        weak var object: AnyObject?
        var owned: AnyObject?
        var refs = 0
        var generation: UInt16 = 1
        var kind = ObjectKind.animation
        var key: ObjectIdentifier? = nil
    }

    static let kindShift: UInt64 = 28
    static let slotMask: UInt64 = (1 << 28) - 1

    let tag: UInt16
    private var slots: [Slot] = []
    private var free: [Int] = []
    private var byObject: [ObjectIdentifier: Int] = [:]
    private var allocationsSinceSweep = 0

    init(tag: UInt16) { self.tag = tag }

    /// The kind bits of an id of this engine that is not a layer id, or nil.
    func otherKind(of id: UInt64) -> UInt64? { ObjectTable.otherKind(of: id, tag: tag) }

    /// The kind bits of an id of the table tagged `tag` (nil for a layer id
    /// or another engine's): a plain computation, no table needed.
    static func otherKind(of id: UInt64, tag: UInt16) -> UInt64? {
        guard UInt16(truncatingIfNeeded: id >> 48) == tag else { return nil }
        let k = (id >> ObjectTable.kindShift) & 0xF
        return k == 0 ? nil : k
    }

    /// The id of `object`, assigned on first use (borrowed: no reference).
    func id(for object: AnyObject, kind: ObjectKind) throws -> UInt64 {
        let key = ObjectIdentifier(object)
        if let i = byObject[key], slots[i].object === object { return makeID(i) }
        let i = try allocateSlot()
        slots[i].object = object
        slots[i].kind = kind
        slots[i].key = key
        byObject[key] = i
        return makeID(i)
    }

    private func makeID(_ i: Int) -> UInt64 {
        UInt64(tag) << 48 | UInt64(slots[i].generation) << 32 | slots[i].kind.rawValue << ObjectTable.kindShift | UInt64(i + 1)
    }

    /// The live object an id names, or the error a caller should see.
    func object(_ id: UInt64, _ kind: ObjectKind) throws -> AnyObject {
        guard id != 0 else { throw CalunaError(.staleHandle, "the \(kind.name) id is 0 (none)") }
        guard UInt16(truncatingIfNeeded: id >> 48) == tag else {
            throw CalunaError(.staleHandle, "\(kind.name) id \(hexID(id)) belongs to another engine")
        }
        let bits = (id >> ObjectTable.kindShift) & 0xF
        guard bits == kind.rawValue else {
            throw CalunaError(.staleHandle, "id \(hexID(id)) is \(ObjectKind.article(forBits: bits)) id, not \(ObjectKind.article(forBits: kind.rawValue)) id")
        }
        let index = Int(id & ObjectTable.slotMask) - 1
        let gen = UInt16(truncatingIfNeeded: id >> 32)
        guard index >= 0, index < slots.count, slots[index].generation == gen, slots[index].kind == kind,
              let o = slots[index].object else {
            throw CalunaError(.staleHandle, "\(kind.name) id \(hexID(id)) is stale (the \(kind.name) no longer exists)")
        }
        return o
    }

    /// One more reference owned by the caller.
    func retain(_ id: UInt64, _ kind: ObjectKind) throws {
        let o = try object(id, kind)
        let i = Int(id & ObjectTable.slotMask) - 1
        guard slots[i].refs < Int(Int32.max) else { throw CalunaError(.invalidArgument, "too many references to \(hexID(id))") }
        slots[i].refs += 1
        slots[i].owned = o
    }

    func release(_ id: UInt64, _ kind: ObjectKind) throws {
        _ = try object(id, kind)
        let i = Int(id & ObjectTable.slotMask) - 1
        guard slots[i].refs > 0 else {
            throw CalunaError(.invalidArgument, "\(kind.name) id \(hexID(id)) has no owned reference left to release")
        }
        slots[i].refs -= 1
        if slots[i].refs == 0 { slots[i].owned = nil }
    }

    private func allocateSlot() throws -> Int {
        if free.isEmpty, allocationsSinceSweep >= max(64, slots.count / 2) { sweep() }
        allocationsSinceSweep += 1
        if let i = free.popLast() { return i }
        guard UInt64(slots.count) < ObjectTable.slotMask else {
            throw CalunaError(.outOfMemory, "too many live animation, display link and timer ids")
        }
        slots.append(Slot())
        return slots.count - 1
    }

    /// Frees the slots of objects that died, bumping their generation.
    private func sweep() {
        allocationsSinceSweep = 0
        for i in slots.indices where slots[i].object == nil {
            if let k = slots[i].key, byObject[k] == i { byObject[k] = nil }
            slots[i].owned = nil
            slots[i].refs = 0
            slots[i].key = nil
            slots[i].generation = slots[i].generation == UInt16.max ? 1 : slots[i].generation + 1
            free.append(i)
        }
    }
}

func hexID(_ v: UInt64) -> String { "0x" + String(v, radix: 16) }

extension CEngine {
    /// The live animation an id names; the message names the argument.
    func animation(_ id: UInt64, _ name: String) throws -> Animation {
        do {
            guard let a = try objects.object(id, .animation) as? Animation else {
                throw CalunaError(.staleHandle, "\(hexID(id)) is not an animation")
            }
            return a
        } catch let e as CalunaError {
            throw CalunaError(e.code, "\(name): \(e.message)")
        }
    }

    /// A mutable animation (not a layer's attached copy).
    func mutableAnimation(_ id: UInt64, _ name: String) throws -> Animation {
        let a = try animation(id, name)
        try a.checkMutable()
        return a
    }

    func group(_ id: UInt64, _ name: String) throws -> AnimationGroup {
        let a = try animation(id, name)
        guard let g = a as? AnimationGroup else {
            throw CalunaError(.typeMismatch, "\(name) is a \(a.className), not an AnimationGroup")
        }
        return g
    }

    /// The borrowed id of an animation.
    func animationID(_ a: Animation) throws -> UInt64 { try objects.id(for: a, kind: .animation) }

    /// A new owned id for a fresh animation.
    func ownedAnimationID(_ a: Animation) throws -> UInt64 {
        let id = try animationID(a)
        try objects.retain(id, .animation)
        return id
    }

    /// The pointer C callbacks receive for this engine.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
}

// MARK: the layer's animations

@_cdecl("caluna_layer_add_animation")
public func caluna_layer_add_animation(_ e: OpaquePointer?, _ layer: UInt64, _ anim: UInt64,
                                       _ key: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_layer_add_animation") { ce in
        let l = try ce.layer(layer, "layer")
        let a = try ce.animation(anim, "anim")
        let k = key == nil ? nil : try string(key, "key")
        try l.addAnimation(a, forKey: k)
        // The attached copy is the last one; its delegate learns the layer.
        if let copy = l.animations.last, copy !== a, let d = copy.delegate as? CAnimationDelegate {
            copy.delegate = d.bound(to: l)
        }
    }
}

@_cdecl("caluna_layer_remove_animation")
public func caluna_layer_remove_animation(_ e: OpaquePointer?, _ layer: UInt64, _ key: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_layer_remove_animation") { ce in
        let l = try ce.layer(layer, "layer")
        let k = try string(key, "key")
        try l.checkModel("caluna_layer_remove_animation")
        l.removeAnimation(forKey: k)
    }
}

@_cdecl("caluna_layer_remove_all_animations")
public func caluna_layer_remove_all_animations(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_remove_all_animations") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("caluna_layer_remove_all_animations")
        l.removeAllAnimations()
    }
}

@_cdecl("caluna_layer_animation_for_key")
public func caluna_layer_animation_for_key(_ e: OpaquePointer?, _ layer: UInt64, _ key: UnsafePointer<CChar>?,
                                           _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_animation_for_key") { ce in
        let o = try output(out, "out")
        let l = try ce.layer(layer, "layer")
        let k = try string(key, "key")
        guard let a = l.animation(forKey: k) else {
            throw CalunaError(.unknownKey, "the layer has no animation for key '\(k)'")
        }
        o.pointee = try ce.animationID(a)
    }
}

@_cdecl("caluna_layer_animation_key_count")
public func caluna_layer_animation_key_count(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_animation_key_count") { ce in
        let o = try output(out, "out")
        o.pointee = try int32(try ce.layer(layer, "layer").animationKeys.count, "key count")
    }
}

@_cdecl("caluna_layer_animation_key_at")
public func caluna_layer_animation_key_at(_ e: OpaquePointer?, _ layer: UInt64, _ index: Int32,
                                          _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return withEngine(e, "caluna_layer_animation_key_at") { ce in
        let o = try output(out, "out")
        let keys = try ce.layer(layer, "layer").animationKeys
        o.pointee = try ce.keep(try element(keys, index, "the layer has \(keys.count) animation keys"))
    }
}

// MARK: presentation

@_cdecl("caluna_layer_presentation")
public func caluna_layer_presentation(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_presentation") { ce in
        let o = try output(out, "out")
        o.pointee = ce.id(try ce.layer(layer, "layer").presentation())
    }
}

@_cdecl("caluna_layer_model_layer")
public func caluna_layer_model_layer(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_model_layer") { ce in
        let o = try output(out, "out")
        o.pointee = ce.id(try ce.layer(layer, "layer").modelLayer)
    }
}

@_cdecl("caluna_layer_get_presentation")
public func caluna_layer_get_presentation(_ e: OpaquePointer?, _ layer: UInt64, _ keyPath: UnsafePointer<CChar>?,
                                          _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_layer_get_presentation") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let l = try ce.layer(layer, "layer")
        let key = try string(keyPath, "key_path")
        guard let p = l.presentation() else {
            // Name the key path first, so a bad one is not reported as "not committed".
            _ = try l.value(forKeyPath: key)
            throw CalunaError(.unknownKey, "the layer has no presentation yet (it was not in the engine's tree at a commit: step, flush or render first)")
        }
        do { try writeValue(try p.value(forKeyPath: key), to: out, engine: ce) } catch {
            memset(out, 0, ValueLayout.size)
            throw error
        }
    }
}

// MARK: layer time

@_cdecl("caluna_layer_convert_time")
public func caluna_layer_convert_time(_ e: OpaquePointer?, _ from: UInt64, _ to: UInt64, _ t: Double,
                                      _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_convert_time") { ce in
        let o = try output(out, "out")
        try MediaTiming.checkTime(t, "t")
        let f = try ce.optionalLayer(from, "from"), d = try ce.optionalLayer(to, "to")
        let r: Double
        switch (f, d) {
        case (nil, nil): r = t
        case (let f?, nil): r = f.convertTime(t, to: nil)
        case (_, let d?): r = d.convertTime(t, from: f)
        }
        guard r.isFinite else { throw CalunaError(.invalidArgument, "the converted time of \(t) is not finite") }
        o.pointee = r
    }
}

@_cdecl("caluna_engine_flush")
public func caluna_engine_flush(_ e: OpaquePointer?) -> Int32 {
    withEngine(e, "caluna_engine_flush") { ce in try ce.engine.flush() }
}

// MARK: display links and timers

public typealias CDisplayLinkCallback = @convention(c) (OpaquePointer?, UInt64, Double, Double, Double, UnsafeMutableRawPointer?) -> Void
public typealias CTimerCallback = @convention(c) (OpaquePointer?, UInt64, Double, UnsafeMutableRawPointer?) -> Void

extension CEngine {
    /// A display link that has not been invalidated.
    func displayLink(_ id: UInt64, _ name: String) throws -> DisplayLink {
        do {
            guard let l = try objects.object(id, .displayLink) as? DisplayLink, l.isValid else {
                throw CalunaError(.staleHandle, "display link id \(hexID(id)) is stale (the link was invalidated)")
            }
            return l
        } catch let e as CalunaError {
            throw CalunaError(e.code, "\(name): \(e.message)")
        }
    }

    /// A timer that has not been invalidated (nor fired, if it does not repeat).
    func timer(_ id: UInt64, _ name: String) throws -> FrameTimer {
        do {
            guard let t = try objects.object(id, .timer) as? FrameTimer, t.isValid else {
                throw CalunaError(.staleHandle, "timer id \(hexID(id)) is stale (the timer was invalidated, or fired and does not repeat)")
            }
            return t
        } catch let e as CalunaError {
            throw CalunaError(e.code, "\(name): \(e.message)")
        }
    }
}

@_cdecl("caluna_display_link_create")
public func caluna_display_link_create(_ e: OpaquePointer?, _ callback: CDisplayLinkCallback?, _ user: UnsafeMutableRawPointer?,
                                       _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_display_link_create") { ce in
        let o = try output(out, "out")
        guard let callback else { throw CalunaError(.invalidArgument, "callback is NULL") }
        let link = DisplayLink(engine: ce.engine) { [weak ce] link in
            guard let ce else { return }
            let id = try ce.objects.id(for: link, kind: .displayLink)
            callback(ce.pointer, id, link.timestamp, link.targetTimestamp, link.duration, user)
        }
        do { o.pointee = try ce.objects.id(for: link, kind: .displayLink) } catch {
            link.invalidate()
            throw error
        }
    }
}

@_cdecl("caluna_display_link_set_paused")
public func caluna_display_link_set_paused(_ e: OpaquePointer?, _ link: UInt64, _ paused: Int32) -> Int32 {
    withEngine(e, "caluna_display_link_set_paused") { ce in
        try ce.displayLink(link, "link").isPaused = paused != 0
    }
}

@_cdecl("caluna_display_link_set_preferred_fps")
public func caluna_display_link_set_preferred_fps(_ e: OpaquePointer?, _ link: UInt64, _ fps: Int32) -> Int32 {
    withEngine(e, "caluna_display_link_set_preferred_fps") { ce in
        let l = try ce.displayLink(link, "link")
        guard fps >= 0 else { throw CalunaError(.invalidArgument, "fps must be 0 (every frame) or positive (got \(fps))") }
        l.preferredFramesPerSecond = Int(fps)
    }
}

@_cdecl("caluna_display_link_set_frame_interval")
public func caluna_display_link_set_frame_interval(_ e: OpaquePointer?, _ link: UInt64, _ interval: Int32) -> Int32 {
    withEngine(e, "caluna_display_link_set_frame_interval") { ce in
        let l = try ce.displayLink(link, "link")
        guard interval >= 1 else { throw CalunaError(.invalidArgument, "frame_interval must be at least 1 (got \(interval))") }
        l.frameInterval = Int(interval)
    }
}

@_cdecl("caluna_display_link_timestamps")
public func caluna_display_link_timestamps(_ e: OpaquePointer?, _ link: UInt64, _ timestamp: UnsafeMutablePointer<Double>?,
                                           _ target: UnsafeMutablePointer<Double>?, _ duration: UnsafeMutablePointer<Double>?) -> Int32 {
    timestamp?.pointee = 0; target?.pointee = 0; duration?.pointee = 0
    return withEngine(e, "caluna_display_link_timestamps") { ce in
        guard timestamp != nil || target != nil || duration != nil else {
            throw CalunaError(.invalidArgument, "timestamp, target_timestamp and duration are all NULL (nothing to return)")
        }
        let l = try ce.displayLink(link, "link")
        timestamp?.pointee = l.timestamp
        target?.pointee = l.targetTimestamp
        duration?.pointee = l.duration
    }
}

@_cdecl("caluna_display_link_invalidate")
public func caluna_display_link_invalidate(_ e: OpaquePointer?, _ link: UInt64) -> Int32 {
    withEngine(e, "caluna_display_link_invalidate") { ce in try ce.displayLink(link, "link").invalidate() }
}

@_cdecl("caluna_timer_create")
public func caluna_timer_create(_ e: OpaquePointer?, _ interval: Double, _ repeats: Int32, _ callback: CTimerCallback?,
                                _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_timer_create") { ce in
        let o = try output(out, "out")
        guard let callback else { throw CalunaError(.invalidArgument, "callback is NULL") }
        let timer = try FrameTimer(engine: ce.engine, interval: interval, repeats: repeats != 0) { [weak ce] timer in
            guard let ce else { return }
            let id = try ce.objects.id(for: timer, kind: .timer)
            callback(ce.pointer, id, ce.engine.mediaTime, user)
        }
        do { o.pointee = try ce.objects.id(for: timer, kind: .timer) } catch {
            timer.invalidate()
            throw error
        }
    }
}

@_cdecl("caluna_timer_fire_date")
public func caluna_timer_fire_date(_ e: OpaquePointer?, _ timer: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_timer_fire_date") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.timer(timer, "timer").fireDate
    }
}

@_cdecl("caluna_timer_invalidate")
public func caluna_timer_invalidate(_ e: OpaquePointer?, _ timer: UInt64) -> Int32 {
    withEngine(e, "caluna_timer_invalidate") { ce in try ce.timer(timer, "timer").invalidate() }
}

// MARK: timing functions and easing (no engine)

@_cdecl("caluna_timing_function_evaluate")
public func caluna_timing_function_evaluate(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double,
                                            _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withoutEngine("caluna_timing_function_evaluate") {
        let o = try output(out, "out")
        try finite([("x", x)])
        o.pointee = try TimingFunction(c1x, c1y, c2x, c2y).evaluate(x)
    }
}

@_cdecl("caluna_timing_function_named_evaluate")
public func caluna_timing_function_named_evaluate(_ name: UnsafePointer<CChar>?, _ x: Double,
                                                  _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withoutEngine("caluna_timing_function_named_evaluate") {
        let o = try output(out, "out")
        let f = try TimingFunction.named(try string(name, "name"))
        try finite([("x", x)])
        o.pointee = f.evaluate(x)
    }
}

@_cdecl("caluna_timing_function_named_points")
public func caluna_timing_function_named_points(_ name: UnsafePointer<CChar>?,
                                                _ c1x: UnsafeMutablePointer<Double>?, _ c1y: UnsafeMutablePointer<Double>?,
                                                _ c2x: UnsafeMutablePointer<Double>?, _ c2y: UnsafeMutablePointer<Double>?) -> Int32 {
    c1x?.pointee = 0; c1y?.pointee = 0; c2x?.pointee = 0; c2y?.pointee = 0
    return withoutEngine("caluna_timing_function_named_points") {
        let o = [try output(c1x, "c1x"), try output(c1y, "c1y"), try output(c2x, "c2x"), try output(c2y, "c2y")]
        let f = try TimingFunction.named(try string(name, "name"))
        for (p, v) in zip(o, [f.c1x, f.c1y, f.c2x, f.c2y]) { p.pointee = v }
    }
}

@_cdecl("caluna_easing")
public func caluna_easing(_ name: UnsafePointer<CChar>?, _ t: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withoutEngine("caluna_easing") {
        let o = try output(out, "out")
        let n = try string(name, "name")
        guard let f = Easing.named(n) else {
            throw CalunaError(.invalidArgument, "unknown easing function '\(n)'; valid names: \(Easing.all.map { $0.name }.joined(separator: ", "))")
        }
        try finite([("t", t)])
        let r = f(t)
        guard r.isFinite else { throw CalunaError(.invalidArgument, "\(n) is not defined at t = \(t)") }
        o.pointee = r
    }
}

@_cdecl("caluna_easing_name_at")
public func caluna_easing_name_at(_ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return withoutEngine("caluna_easing_name_at") {
        let o = try output(out, "out")
        o.pointee = try element(easingNames, index, "0…\(easingNames.count - 1)")
    }
}

/// The easing names as static C strings, in Easing.all's order.
private let easingNames: [UnsafePointer<CChar>] = Easing.all.map { staticCString($0.name) }
