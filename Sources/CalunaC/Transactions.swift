import Caluna
import CalunaBridge
import Glibc

// CATransaction (issue #4): the engine's transaction stack — begin, commit,
// flush, the four Core Animation settings, completion callbacks and free-form
// values by key.

public typealias CCompletionCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

extension CEngine {
    var transaction: TransactionStack { engine.transaction }
}

@_cdecl("caluna_transaction_begin")
public func caluna_transaction_begin(_ e: OpaquePointer?) -> Int32 {
    withEngine(e, "caluna_transaction_begin") { ce in try ce.transaction.begin() }
}

@_cdecl("caluna_transaction_commit")
public func caluna_transaction_commit(_ e: OpaquePointer?) -> Int32 {
    withEngine(e, "caluna_transaction_commit") { ce in try ce.transaction.commit() }
}

@_cdecl("caluna_transaction_flush")
public func caluna_transaction_flush(_ e: OpaquePointer?) -> Int32 {
    withEngine(e, "caluna_transaction_flush") { ce in try ce.engine.flush() }
}

@_cdecl("caluna_transaction_depth")
public func caluna_transaction_depth(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_transaction_depth") { ce in
        try output(out, "out").pointee = try int32(ce.transaction.depth, "depth")
    }
}

// MARK: the Core Animation settings

@_cdecl("caluna_transaction_set_animation_duration")
public func caluna_transaction_set_animation_duration(_ e: OpaquePointer?, _ seconds: Double) -> Int32 {
    withEngine(e, "caluna_transaction_set_animation_duration") { ce in
        try ce.transaction.setValue(seconds, forKey: TransactionStack.animationDurationKey)
    }
}

@_cdecl("caluna_transaction_animation_duration")
public func caluna_transaction_animation_duration(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_transaction_animation_duration") { ce in
        try output(out, "out").pointee = ce.transaction.animationDuration
    }
}

@_cdecl("caluna_transaction_set_disable_actions")
public func caluna_transaction_set_disable_actions(_ e: OpaquePointer?, _ disable: Int32) -> Int32 {
    withEngine(e, "caluna_transaction_set_disable_actions") { ce in
        try ce.transaction.setValue(disable != 0, forKey: TransactionStack.disableActionsKey)
    }
}

@_cdecl("caluna_transaction_disable_actions")
public func caluna_transaction_disable_actions(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_transaction_disable_actions") { ce in
        try output(out, "out").pointee = ce.transaction.disableActions ? 1 : 0
    }
}

@_cdecl("caluna_transaction_set_animation_timing_function")
public func caluna_transaction_set_animation_timing_function(_ e: OpaquePointer?, _ c1x: Double, _ c1y: Double,
                                                             _ c2x: Double, _ c2y: Double) -> Int32 {
    withEngine(e, "caluna_transaction_set_animation_timing_function") { ce in
        let f = try TimingFunction(c1x, c1y, c2x, c2y)
        try ce.transaction.setValue(f, forKey: TransactionStack.animationTimingFunctionKey)
    }
}

@_cdecl("caluna_transaction_set_animation_timing_function_named")
public func caluna_transaction_set_animation_timing_function_named(_ e: OpaquePointer?,
                                                                   _ name: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_transaction_set_animation_timing_function_named") { ce in
        // NULL is setAnimationTimingFunction:nil (implicit animations use "default").
        let f = name == nil ? nil : try TimingFunction.named(try string(name, "name"))
        try ce.transaction.setValue(f, forKey: TransactionStack.animationTimingFunctionKey)
    }
}

@_cdecl("caluna_transaction_animation_timing_function")
public func caluna_transaction_animation_timing_function(_ e: OpaquePointer?,
                                                         _ c1x: UnsafeMutablePointer<Double>?, _ c1y: UnsafeMutablePointer<Double>?,
                                                         _ c2x: UnsafeMutablePointer<Double>?, _ c2y: UnsafeMutablePointer<Double>?) -> Int32 {
    c1x?.pointee = 0; c1y?.pointee = 0; c2x?.pointee = 0; c2y?.pointee = 0
    return withEngine(e, "caluna_transaction_animation_timing_function") { ce in
        let o = [try output(c1x, "c1x"), try output(c1y, "c1y"), try output(c2x, "c2x"), try output(c2y, "c2y")]
        // What implicit animations use: the transaction's curve, else the default one.
        let f = ce.transaction.animationTimingFunction ?? .default
        for (p, v) in zip(o, [f.c1x, f.c1y, f.c2x, f.c2y]) { p.pointee = v }
    }
}

// MARK: completion

@_cdecl("caluna_transaction_set_completion")
public func caluna_transaction_set_completion(_ e: OpaquePointer?, _ callback: CCompletionCallback?,
                                              _ user: UnsafeMutableRawPointer?, _ release: CReleaseCallback?) -> Int32 {
    withEngine(e, "caluna_transaction_set_completion") { ce in
        guard let callback else {
            ce.transaction.completionBlock = nil
            return
        }
        // The block keeps `user` until it has fired (or the engine goes).
        let host = HostReference(user: user, release: release, engine: ce)
        ce.transaction.completionBlock = CompletionBlock(payload: host) { [weak ce] in
            guard let ce else { return }
            callback(ce.pointer, host.user)
        }
    }
}

// MARK: values by key

@_cdecl("caluna_transaction_set_value")
public func caluna_transaction_set_value(_ e: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                         _ value: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_transaction_set_value") { ce in
        let k = try string(key, "key")
        let v = try readValue(value, key: k)
        try ce.transaction.setValue(try transactionValue(v, forKey: k), forKey: k)
    }
}

/// A caluna_value as what the transaction stores under `key`: the typed
/// meaning of the four Core Animation keys; plain numbers, booleans and
/// strings as Swift values (what the Lua binding reads and writes too).
private func transactionValue(_ v: Value, forKey key: String) throws -> Any? {
    func mismatch(_ expected: String) -> CalunaError {
        CalunaError(.typeMismatch, "Transaction.\(key) expects \(expected), got \(v.kind.expectation)")
    }
    switch key {
    case TransactionStack.animationDurationKey:
        guard case .number(let d) = v else { throw mismatch("a NUMBER of seconds") }
        return d
    case TransactionStack.disableActionsKey:
        guard case .bool(let b) = v else { throw mismatch("a BOOL") }
        return b
    case TransactionStack.animationTimingFunctionKey:
        switch v {
        case .null: return nil
        case .string(let name): return try TimingFunction.named(name)
        default: throw mismatch("a STRING name or NIL (custom curves: caluna_transaction_set_animation_timing_function)")
        }
    case TransactionStack.completionBlockKey:
        guard v == .null else { throw mismatch("NIL here (set a callback with caluna_transaction_set_completion)") }
        return nil
    default:
        switch v {
        case .null: return nil
        case .number(let d): return d
        case .bool(let b): return b
        case .string(let s): return s
        default: return v
        }
    }
}

@_cdecl("caluna_transaction_value")
public func caluna_transaction_value(_ e: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                     _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ValueLayout.size) }
    return withEngine(e, "caluna_transaction_value") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let k = try string(key, "key")
        let v: Value
        switch ce.transaction.value(forKey: k) {
        case nil: v = .null
        case let d as Double: v = .number(d)
        case let b as Bool: v = .bool(b)
        case let s as String: v = .string(s)
        case let x as Value: v = x
        case let f as TimingFunction:
            guard let name = f.name else {
                throw CalunaError(.notSupported, "Transaction.\(k) is a custom curve: read it with caluna_transaction_animation_timing_function")
            }
            v = .string(name)
        case is CompletionBlock:
            throw CalunaError(.notSupported, "Transaction.\(k) is a completion callback, which a caluna_value cannot hold")
        default:
            throw CalunaError(.notSupported, "Transaction.\(k) holds a Lua value, which C cannot read")
        }
        do { try writeValue(v, to: out, engine: ce) } catch {
            memset(out, 0, ValueLayout.size)
            throw error
        }
    }
}
