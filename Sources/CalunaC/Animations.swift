import Caluna
import CalunaBridge
import Glibc

// Animation objects (issue #3): lifetime, properties by key, arrays, timing
// functions, keyframe paths, tags, delegates and groups. Ids, the layer's
// animation API, presentation, layer time, display links, timers and easing
// are in Timers.swift.

// MARK: argument helpers

/// The largest array the animation calls take (values, keyTimes, path elements …).
let maxArrayCount = 1 << 20

/// A count with its pointer: 0…maxArrayCount, and a pointer unless 0.
func arrayCount(_ count: Int32, _ pointer: UnsafeRawPointer?, _ name: String) throws -> Int {
    guard count >= 0, Int(count) <= maxArrayCount else {
        throw CalunaError(.invalidArgument, "count \(count) is out of range (0…\(maxArrayCount))")
    }
    guard count == 0 || pointer != nil else { throw CalunaError(.invalidArgument, "\(name) is NULL but count is \(count)") }
    return Int(count)
}

/// Where an array getter writes: capacity ≥ 0, a buffer unless capacity is 0.
func arrayOutput(_ out: UnsafeMutableRawPointer?, _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) throws -> UnsafeMutablePointer<Int32> {
    let c = try output(count, "count")
    guard capacity >= 0 else { throw CalunaError(.invalidArgument, "capacity \(capacity) is negative") }
    guard capacity == 0 || out != nil else { throw CalunaError(.invalidArgument, "out is NULL but capacity is \(capacity)") }
    return c
}

/// A caller's caluna_value, with the key in the message of a bad one.
func readValue(_ p: UnsafeRawPointer?, key: String, allowingInfinity: Bool = false) throws -> Value {
    guard let p else { throw CalunaError(.invalidArgument, "value is NULL") }
    do { return try readValue(p, allowingInfinity: allowingInfinity) } catch let err as CalunaError {
        throw CalunaError(err.code, "\(key): \(err.message)")
    }
}

/// A key-path value (fromValue, an element of values) checked against the
/// animation's key path when it has one; otherwise at addAnimation.
private func checkKeyPathValue(_ p: AnimationProperty, _ a: Animation, _ v: Value, _ what: String) throws {
    guard v != .null, let kind = try? p.valueKind(for: a), v.kind != kind else { return }
    let kp = (a as? PropertyAnimation)?.keyPath ?? ""
    throw CalunaError(.typeMismatch, "\(a.className).\(what) for '\(kp)' expects \(kind.expectation), got \(v.kind.expectation)")
}

private func property(_ key: UnsafePointer<CChar>?, _ a: Animation) throws -> (String, AnimationProperty) {
    let k = try string(key, "key")
    return (k, try AnimationProperties.resolve(k, for: a))
}


// MARK: lifetime

@_cdecl("caluna_animation_create")
public func caluna_animation_create(_ e: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_animation_create") { ce in
        let o = try output(out, "out")
        let a = try AnimationProperties.make(try string(className, "class_name"))
        o.pointee = try ce.ownedAnimationID(a)
    }
}

@_cdecl("caluna_animation_retain")
public func caluna_animation_retain(_ e: OpaquePointer?, _ anim: UInt64) -> Int32 {
    withEngine(e, "caluna_animation_retain") { ce in
        _ = try ce.animation(anim, "anim")
        try ce.objects.retain(anim, .animation)
    }
}

@_cdecl("caluna_animation_release")
public func caluna_animation_release(_ e: OpaquePointer?, _ anim: UInt64) -> Int32 {
    withEngine(e, "caluna_animation_release") { ce in
        _ = try ce.animation(anim, "anim")
        try ce.objects.release(anim, .animation)
    }
}

@_cdecl("caluna_animation_copy")
public func caluna_animation_copy(_ e: OpaquePointer?, _ anim: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_animation_copy") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.ownedAnimationID(try ce.animation(anim, "anim").copy())
    }
}

@_cdecl("caluna_animation_class_name")
public func caluna_animation_class_name(_ e: OpaquePointer?, _ anim: UInt64,
                                        _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return withEngine(e, "caluna_animation_class_name") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.keep(try ce.animation(anim, "anim").className)
    }
}

@_cdecl("caluna_animation_is_attached")
public func caluna_animation_is_attached(_ e: OpaquePointer?, _ anim: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_animation_is_attached") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.animation(anim, "anim").isFrozen ? 1 : 0
    }
}

// MARK: properties

@_cdecl("caluna_animation_set")
public func caluna_animation_set(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                 _ value: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_animation_set") { ce in
        let a = try ce.animation(anim, "anim")
        let (k, p) = try property(key, a)
        // HUGE_VAL means forever for the repeat keys (the property table checks the rest).
        let v = try readValue(value, key: k, allowingInfinity: p.allowsInfinity)
        switch p.kind {
        case .keyPathValue:
            try checkKeyPathValue(p, a, v, k)
        case .keyPathValues, .numbers, .timingFunctions:
            guard v == .null else {
                let call = p.kind == .keyPathValues ? "caluna_animation_set_values"
                    : p.kind == .numbers ? "caluna_animation_set_numbers" : "caluna_animation_set_timing_functions(_named)"
                throw CalunaError(.typeMismatch, "\(a.className).\(k) is an array: set it with \(call) (NIL clears it here)")
            }
        case .value(.path):
            guard v == .null else { throw CalunaError(.typeMismatch, "\(a.className).\(k): set a path with caluna_animation_set_path (NIL clears it here)") }
        default: break
        }
        try p.set(a, v)
    }
}

@_cdecl("caluna_animation_get")
public func caluna_animation_get(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                 _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_animation_get") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let a = try ce.animation(anim, "anim")
        let (k, p) = try property(key, a)
        let v = p.get(a)
        switch (p.kind, v) {
        case (_, .null): break
        case (.timingFunction, .array):
            throw CalunaError(.notSupported, "\(a.className).\(k) is a custom curve: read it with caluna_animation_get_timing_function")
        case (.keyPathValues, _):
            throw CalunaError(.notSupported, "\(a.className).\(k) is an array: read it with caluna_animation_get_values")
        case (.numbers, _), (.keyPathValue, .array):
            throw CalunaError(.notSupported, "\(a.className).\(k) is an array: read it with caluna_animation_get_numbers")
        case (.timingFunctions, _):
            throw CalunaError(.notSupported, "\(a.className).\(k) is an array: read it with caluna_animation_get_timing_functions")
        case (_, .path):
            throw CalunaError(.notSupported, "\(a.className).\(k) is a path: read it with caluna_animation_get_path")
        default: break
        }
        do { try writeValue(v, to: out, engine: ce) } catch {
            memset(out, 0, ValueLayout.size)
            throw error
        }
    }
}

// MARK: arrays

@_cdecl("caluna_animation_set_numbers")
public func caluna_animation_set_numbers(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                         _ numbers: UnsafePointer<Double>?, _ count: Int32) -> Int32 {
    withEngine(e, "caluna_animation_set_numbers") { ce in
        let a = try ce.animation(anim, "anim")
        let (k, p) = try property(key, a)
        let n = try arrayCount(count, numbers.map(UnsafeRawPointer.init), "numbers")
        let items = (0..<n).map { numbers![$0] }
        for (i, x) in items.enumerated() where !x.isFinite {
            throw CalunaError(.invalidArgument, "\(a.className).\(k): numbers[\(i)] must be finite (got \(x))")
        }
        switch p.kind {
        case .numbers:
            try p.set(a, numbers == nil ? .null : .array(items.map { .number($0) }))
        case .keyPathValue:
            // {x, y, z} for the scale and translate value functions.
            let v: Value = numbers == nil ? .null : .array(items.map { .number($0) })
            try checkKeyPathValue(p, a, v, k)
            try p.set(a, v)
        default:
            throw CalunaError(.typeMismatch, "\(a.className).\(k) does not take an array of numbers")
        }
    }
}

@_cdecl("caluna_animation_get_numbers")
public func caluna_animation_get_numbers(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<Double>?, _ capacity: Int32,
                                         _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_animation_get_numbers") { ce in
        let c = try arrayOutput(out.map(UnsafeMutableRawPointer.init), capacity, count)
        let a = try ce.animation(anim, "anim")
        let (k, p) = try property(key, a)
        var items: [Double] = []
        switch p.get(a) {
        case .null: break
        case .array(let vs):
            for v in vs {
                guard case .number(let x) = v else { throw CalunaError(.typeMismatch, "\(a.className).\(k) is not an array of numbers") }
                items.append(x)
            }
        default:
            throw CalunaError(.typeMismatch, "\(a.className).\(k) is not an array of numbers (read it with caluna_animation_get)")
        }
        for i in 0..<min(items.count, Int(capacity)) { out![i] = items[i] }
        c.pointee = try int32(items.count, "count")
    }
}

@_cdecl("caluna_animation_set_values")
public func caluna_animation_set_values(_ e: OpaquePointer?, _ anim: UInt64, _ values: UnsafeRawPointer?,
                                        _ count: Int32) -> Int32 {
    withEngine(e, "caluna_animation_set_values") { ce in
        let a = try ce.animation(anim, "anim")
        let p = try AnimationProperties.resolve("values", for: a)
        let n = try arrayCount(count, values, "values")
        guard let values else { try p.set(a, .null); return }
        var items: [Value] = []
        items.reserveCapacity(n)
        for i in 0..<n {
            let v = try readValue(values + i * ValueLayout.size, key: "values[\(i)]")
            guard v != .null else { throw CalunaError(.typeMismatch, "\(a.className).values[\(i)] is NIL") }
            try checkKeyPathValue(p, a, v, "values[\(i)]")
            items.append(v)
        }
        try p.set(a, .array(items))
    }
}

@_cdecl("caluna_animation_get_values")
public func caluna_animation_get_values(_ e: OpaquePointer?, _ anim: UInt64, _ out: UnsafeMutableRawPointer?,
                                        _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_animation_get_values") { ce in
        let c = try arrayOutput(out, capacity, count)
        let a = try ce.animation(anim, "anim")
        guard case .array(let items) = try AnimationProperties.resolve("values", for: a).get(a) else { return }
        let n = min(items.count, Int(capacity))
        for i in 0..<n {
            if case .string = items[i] {
                throw CalunaError(.notSupported, "values[\(i)] is a string, which this call cannot return")
            }
            if case .array = items[i] {
                throw CalunaError(.notSupported, "values[\(i)] is an array, which this ABI version cannot return")
            }
        }
        if let out, n > 0 { try writeValues(items[0..<n], to: out, engine: ce) }
        c.pointee = try int32(items.count, "count")
    }
}

// MARK: timing functions

@_cdecl("caluna_animation_set_timing_function")
public func caluna_animation_set_timing_function(_ e: OpaquePointer?, _ anim: UInt64, _ c1x: Double, _ c1y: Double,
                                                 _ c2x: Double, _ c2y: Double) -> Int32 {
    withEngine(e, "caluna_animation_set_timing_function") { ce in
        let a = try ce.animation(anim, "anim")
        let f = try TimingFunction(c1x, c1y, c2x, c2y)
        try AnimationProperties.resolve("timingFunction", for: a).set(a, f.value)
    }
}

@_cdecl("caluna_animation_set_timing_function_named")
public func caluna_animation_set_timing_function_named(_ e: OpaquePointer?, _ anim: UInt64,
                                                       _ name: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_animation_set_timing_function_named") { ce in
        let a = try ce.animation(anim, "anim")
        let f = try TimingFunction.named(try string(name, "name"))
        try AnimationProperties.resolve("timingFunction", for: a).set(a, f.value)
    }
}

@_cdecl("caluna_animation_get_timing_function")
public func caluna_animation_get_timing_function(_ e: OpaquePointer?, _ anim: UInt64,
                                                 _ c1x: UnsafeMutablePointer<Double>?, _ c1y: UnsafeMutablePointer<Double>?,
                                                 _ c2x: UnsafeMutablePointer<Double>?, _ c2y: UnsafeMutablePointer<Double>?) -> Int32 {
    c1x?.pointee = 0; c1y?.pointee = 0; c2x?.pointee = 0; c2y?.pointee = 0
    return withEngine(e, "caluna_animation_get_timing_function") { ce in
        let o = [try output(c1x, "c1x"), try output(c1y, "c1y"), try output(c2x, "c2x"), try output(c2y, "c2y")]
        let f = try ce.animation(anim, "anim").timingFunction ?? .linear
        for (p, v) in zip(o, [f.c1x, f.c1y, f.c2x, f.c2y]) { p.pointee = v }
    }
}

@_cdecl("caluna_animation_set_timing_functions")
public func caluna_animation_set_timing_functions(_ e: OpaquePointer?, _ anim: UInt64, _ points: UnsafePointer<Double>?,
                                                  _ count: Int32) -> Int32 {
    withEngine(e, "caluna_animation_set_timing_functions") { ce in
        let a = try ce.animation(anim, "anim")
        let p = try AnimationProperties.resolve("timingFunctions", for: a)
        let n = try arrayCount(count, points.map(UnsafeRawPointer.init), "control_points")
        guard let points else { try p.set(a, .null); return }
        let fs = try (0..<n).map { i -> Value in
            do {
                return try TimingFunction(points[4 * i], points[4 * i + 1], points[4 * i + 2], points[4 * i + 3]).value
            } catch let err as CalunaError {
                throw CalunaError(err.code, "timing function \(i): \(err.message)")
            }
        }
        try p.set(a, .array(fs))
    }
}

@_cdecl("caluna_animation_set_timing_functions_named")
public func caluna_animation_set_timing_functions_named(_ e: OpaquePointer?, _ anim: UInt64,
                                                        _ names: UnsafePointer<UnsafePointer<CChar>?>?,
                                                        _ count: Int32) -> Int32 {
    withEngine(e, "caluna_animation_set_timing_functions_named") { ce in
        let a = try ce.animation(anim, "anim")
        let p = try AnimationProperties.resolve("timingFunctions", for: a)
        let n = try arrayCount(count, names.map(UnsafeRawPointer.init), "names")
        guard let names else { try p.set(a, .null); return }
        let fs = try (0..<n).map { i -> Value in
            try TimingFunction.named(try string(names[i], "names[\(i)]")).value
        }
        try p.set(a, .array(fs))
    }
}

@_cdecl("caluna_animation_get_timing_functions")
public func caluna_animation_get_timing_functions(_ e: OpaquePointer?, _ anim: UInt64, _ out: UnsafeMutablePointer<Double>?,
                                                  _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_animation_get_timing_functions") { ce in
        let c = try arrayOutput(out.map(UnsafeMutableRawPointer.init), capacity, count)
        let a = try ce.animation(anim, "anim")
        _ = try AnimationProperties.resolve("timingFunctions", for: a)
        let fs = (a as? KeyframeAnimation)?.timingFunctions ?? []
        for i in 0..<min(fs.count, Int(capacity)) {
            for (j, v) in [fs[i].c1x, fs[i].c1y, fs[i].c2x, fs[i].c2y].enumerated() { out![4 * i + j] = v }
        }
        c.pointee = try int32(fs.count, "count")
    }
}

// MARK: paths

@_cdecl("caluna_animation_set_path")
public func caluna_animation_set_path(_ e: OpaquePointer?, _ anim: UInt64, _ elements: UnsafeRawPointer?,
                                      _ count: Int32) -> Int32 {
    withEngine(e, "caluna_animation_set_path") { ce in
        let a = try ce.animation(anim, "anim")
        let p = try AnimationProperties.resolve("path", for: a)
        let n = try arrayCount(count, elements, "elements")
        guard let elements else { try p.set(a, .null); return }
        let path = try readPath(elements, count: UInt(n), "caluna_animation_set_path")
        try p.set(a, .path(path))
    }
}

@_cdecl("caluna_animation_get_path")
public func caluna_animation_get_path(_ e: OpaquePointer?, _ anim: UInt64, _ out: UnsafeMutableRawPointer?,
                                      _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_animation_get_path") { ce in
        let c = try arrayOutput(out, capacity, count)
        let a = try ce.animation(anim, "anim")
        guard case .path(let path) = try AnimationProperties.resolve("path", for: a).get(a) else { return }
        if let out { writePath(path, to: out, capacity: Int(capacity)) }
        c.pointee = try int32(path.elements.count, "count")
    }
}

// MARK: tags

@_cdecl("caluna_animation_set_tag")
public func caluna_animation_set_tag(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                     _ value: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_animation_set_tag") { ce in
        let a = try ce.animation(anim, "anim")
        let k = try string(key, "key")
        let v = try readValue(value, key: k)
        try a.checkMutable()
        a.tags[k] = v == .null ? nil : v
    }
}

@_cdecl("caluna_animation_get_tag")
public func caluna_animation_get_tag(_ e: OpaquePointer?, _ anim: UInt64, _ key: UnsafePointer<CChar>?,
                                     _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_animation_get_tag") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let a = try ce.animation(anim, "anim")
        let k = try string(key, "key")
        switch a.tags[k] {
        case nil: break
        case let v as Value:
            do { try writeValue(v, to: out, engine: ce) } catch {
                memset(out, 0, ValueLayout.size)
                throw error
            }
        default:
            throw CalunaError(.notSupported, "tag '\(k)' holds a Lua value, which C cannot read")
        }
    }
}

// MARK: delegates

public typealias CAnimationCallback = @convention(c) (OpaquePointer?, UInt64, UInt64, Int32, UnsafeMutableRawPointer?) -> Void

/// A delegate made of C function pointers. The layer's attached copy gets
/// its own instance that also knows the layer (the engine's delegate
/// protocol does not pass it).
final class CAnimationDelegate: AnimationDelegate {
    let didStart: CAnimationCallback?
    let didStop: CAnimationCallback?
    let user: UnsafeMutableRawPointer?
    weak var engine: CEngine?
    @WeakLink var layer: Layer?

    init(didStart: CAnimationCallback?, didStop: CAnimationCallback?, user: UnsafeMutableRawPointer?,
         engine: CEngine?, layer: Layer? = nil) {
        self.didStart = didStart
        self.didStop = didStop
        self.user = user
        self.engine = engine
        self.layer = layer
    }

    func bound(to layer: Layer) -> CAnimationDelegate {
        CAnimationDelegate(didStart: didStart, didStop: didStop, user: user, engine: engine, layer: layer)
    }

    func animationDidStart(_ animation: Animation) throws { try call(didStart, animation, finished: 0) }

    func animationDidStop(_ animation: Animation, finished: Bool) throws {
        try call(didStop, animation, finished: finished ? 1 : 0)
    }

    private func call(_ f: CAnimationCallback?, _ a: Animation, finished: Int32) throws {
        guard let f, let ce = engine else { return }
        let animID = try ce.animationID(a)
        let layerID = layer.map { ce.handles.id(for: $0) } ?? 0
        f(ce.pointer, animID, layerID, finished, user)
    }
}

@_cdecl("caluna_animation_set_delegate")
public func caluna_animation_set_delegate(_ e: OpaquePointer?, _ anim: UInt64, _ didStart: CAnimationCallback?,
                                          _ didStop: CAnimationCallback?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    withEngine(e, "caluna_animation_set_delegate") { ce in
        let a = try ce.mutableAnimation(anim, "anim")
        a.delegate = didStart == nil && didStop == nil ? nil
            : CAnimationDelegate(didStart: didStart, didStop: didStop, user: user, engine: ce)
    }
}

// MARK: groups

@_cdecl("caluna_group_add_animation")
public func caluna_group_add_animation(_ e: OpaquePointer?, _ group: UInt64, _ child: UInt64) -> Int32 {
    withEngine(e, "caluna_group_add_animation") { ce in
        let g = try ce.group(group, "group")
        let c = try ce.animation(child, "child")
        try g.checkMutable()
        guard (g.animations?.count ?? 0) < maxArrayCount else {
            throw CalunaError(.invalidArgument, "a group holds at most \(maxArrayCount) animations")
        }
        try g.addAnimation(c, "AnimationGroup.animations")
    }
}

@_cdecl("caluna_group_remove_all_animations")
public func caluna_group_remove_all_animations(_ e: OpaquePointer?, _ group: UInt64) -> Int32 {
    withEngine(e, "caluna_group_remove_all_animations") { ce in
        let g = try ce.group(group, "group")
        try g.checkMutable()
        g.animations = nil
    }
}

@_cdecl("caluna_group_animation_count")
public func caluna_group_animation_count(_ e: OpaquePointer?, _ group: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_group_animation_count") { ce in
        let o = try output(out, "out")
        o.pointee = try int32(try ce.group(group, "group").animations?.count ?? 0, "count")
    }
}

@_cdecl("caluna_group_animation_at")
public func caluna_group_animation_at(_ e: OpaquePointer?, _ group: UInt64, _ index: Int32,
                                      _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_group_animation_at") { ce in
        let o = try output(out, "out")
        let children = try ce.group(group, "group").animations ?? []
        o.pointee = try ce.animationID(try element(children, index, "the group has \(children.count) animations"))
    }
}
