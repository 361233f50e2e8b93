import Caluna
import CalunaBridge
import Glibc

// Layer actions (issue #4): the actions dictionary, the style chain, a C
// action delegate (actionForLayer:forKey:), the full lookup and
// +defaultActionForKey:, with actions made of animations or C callbacks.

public typealias CActionCallback = @convention(c) (OpaquePointer?, UInt64, UnsafePointer<CChar>?,
                                                  UnsafeMutableRawPointer?) -> Int32
public typealias CActionDelegateCallback = @convention(c) (OpaquePointer?, UInt64, UnsafePointer<CChar>?,
                                                          UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

/// The layout of caluna_action (checked by the header at compile time): a
/// 4-byte kind, padding, the animation id, callback, user and release.
enum ActionLayout {
    static let size = 40, animation = 8, callback = 16, user = 24, release = 32

    enum Kind: Int32 {
        case `continue` = 0, null, animation, callback
    }
}

/// CAAction implemented by the host: runActionForKey: calls the C callback.
final class CCallbackAction: CustomAction {
    let callback: CActionCallback
    /// The host's `user`; released when the action goes, unless it came from
    /// a delegate's answer (which the host keeps owning).
    let host: HostReference

    init(callback: CActionCallback, host: HostReference) {
        self.callback = callback
        self.host = host
    }

    func run(forKey event: String, layer: Layer, arguments: [String: Value]?) throws {
        guard let ce = host.engine else { return }
        let id = ce.id(layer)
        let status = event.withCString { callback(ce.pointer, id, $0, host.user) }
        try checkCallbackStatus(status, "the action callback for '\(event)'")
    }
}

/// A host callback's nonzero status as the error the triggering call
/// reports: a caluna_status as itself, any other number as SCRIPT.
func checkCallbackStatus(_ status: Int32, _ what: String) throws {
    guard status != 0 else { return }
    guard let code = CalunaError.Code(rawValue: status) else {
        throw CalunaError(.scriptError, "\(what) failed: it returned \(status) (not a caluna_status: reported as CALUNA_ERR_SCRIPT)")
    }
    throw CalunaError(code, "\(what) failed: it returned \(status) (\(String(cString: caluna_status_name(status))))")
}

/// A layer's C action delegate (actionForLayer:forKey:). The layer holds it
/// weakly, so the engine keeps it (CEngine.actionDelegates).
final class CActionDelegate: LayerDelegate {
    let callback: CActionDelegateCallback
    let host: HostReference
    @WeakLink var layer: Layer?
    /// The delegate the layer had before (a Lua layout callback): layout
    /// still reaches it, and it answers what the host continues past.
    weak var previous: LayerDelegate?

    init(callback: CActionDelegateCallback, host: HostReference, layer: Layer, previous: LayerDelegate?) {
        self.callback = callback
        self.host = host
        self.layer = layer
        self.previous = previous
    }

    func layoutSublayers(of layer: Layer) throws { try previous?.layoutSublayers(of: layer) }
    // Drawing still reaches the delegate this one sits in front of.
    func display(_ layer: Layer) throws -> Bool { try previous?.display(layer) ?? false }
    func drawsContent(of layer: Layer) throws -> Bool { try previous?.drawsContent(of: layer) ?? false }
    func draw(_ layer: Layer, in ctx: DrawingContext) throws { try previous?.draw(layer, in: ctx) }
    func willDraw(_ layer: Layer) throws { try previous?.willDraw(layer) }

    func action(for layer: Layer, forKey key: String) throws -> LayerAction? {
        guard let ce = host.engine else { return nil }
        let id = ce.id(layer)
        // Zeroed: kind CONTINUE, as the header promises the callback.
        let out = UnsafeMutableRawPointer.allocate(byteCount: ActionLayout.size, alignment: 8)
        defer { out.deallocate() }
        memset(out, 0, ActionLayout.size)
        let status = key.withCString { callback(ce.pointer, id, $0, host.user, out) }
        try checkCallbackStatus(status, "the action delegate for '\(key)'")
        let what = "the action delegate's answer for '\(key)'"
        guard let answer = try readAction(out, ce, owning: false, what) else {
            return try previous?.action(for: layer, forKey: key)
        }
        return answer
    }
}

/// Reads a caller's caluna_action; nil is CONTINUE. A CALLBACK's release is
/// taken over only when `owning` (dictionary entries, not delegate answers).
/// Nothing that can fail comes after the host reference is made, so a failed
/// call never runs the caller's release.
func readAction(_ p: UnsafeRawPointer, _ ce: CEngine, owning: Bool, _ what: String) throws -> LayerAction? {
    let raw = p.loadUnaligned(as: Int32.self)
    guard let kind = ActionLayout.Kind(rawValue: raw) else {
        throw CalunaError(.invalidArgument, "\(what): kind \(raw) is not a caluna_action_kind (0…3)")
    }
    switch kind {
    case .continue: return nil
    case .null: return .null
    case .animation:
        let id = p.loadUnaligned(fromByteOffset: ActionLayout.animation, as: UInt64.self)
        return .animation(try ce.animation(id, "\(what): animation"))
    case .callback:
        guard let f = p.loadUnaligned(fromByteOffset: ActionLayout.callback, as: CActionCallback?.self) else {
            throw CalunaError(.invalidArgument, "\(what): kind is CALUNA_ACTION_CALLBACK but callback is NULL")
        }
        let user = p.loadUnaligned(fromByteOffset: ActionLayout.user, as: UnsafeMutableRawPointer?.self)
        let release = owning ? p.loadUnaligned(fromByteOffset: ActionLayout.release, as: CReleaseCallback?.self) : nil
        return .custom(CCallbackAction(callback: f, host: HostReference(user: user, release: release, engine: ce)))
    }
}

/// Writes an action into a caller's caluna_action (release is always NULL:
/// the engine keeps what it owns). Animation ids are borrowed unless `owned`.
func writeAction(_ a: LayerAction?, to p: UnsafeMutableRawPointer, _ ce: CEngine, owned: Bool) throws {
    memset(p, 0, ActionLayout.size)
    let kind: ActionLayout.Kind
    switch a {
    case nil: kind = .continue
    case .null?: kind = .null
    case .animation(let anim)?:
        let id = owned ? try ce.ownedAnimationID(anim) : try ce.animationID(anim)
        p.storeBytes(of: id, toByteOffset: ActionLayout.animation, as: UInt64.self)
        kind = .animation
    case .custom(let c as CCallbackAction)?:
        p.storeBytes(of: c.callback, toByteOffset: ActionLayout.callback, as: CActionCallback.self)
        p.storeBytes(of: c.host.user, toByteOffset: ActionLayout.user, as: UnsafeMutableRawPointer?.self)
        kind = .callback
    case .custom?:
        throw CalunaError(.notSupported, "the action is one a Lua script set (a function or an object with run), which C cannot read")
    }
    p.storeBytes(of: kind.rawValue, as: Int32.self)
}

/// Adds, replaces or (nil) removes `key` in an actions dictionary; an empty
/// dictionary becomes nil.
private func install(_ a: LayerAction?, forKey key: String, in actions: inout [String: LayerAction]?) {
    if let a {
        actions = actions ?? [:]
        actions![key] = a
    } else {
        actions?[key] = nil
        if actions?.isEmpty == true { actions = nil }
    }
}

/// The style at `level` (0: layer.style, 1: layer.style.style, …), made on
/// the way when `creating`; nil when it does not exist.
private func style(of l: Layer, level: Int, creating: Bool) -> LayerStyle? {
    if l.style == nil {
        guard creating else { return nil }
        l.style = LayerStyle()
    }
    var s = l.style!
    for _ in 0..<level {
        if let next = s.style {
            s = next
        } else {
            guard creating else { return nil }
            let next = LayerStyle()
            s.style = next
            s = next
        }
    }
    return s
}

private func styleLevel(_ level: Int32) throws -> Int {
    guard level >= 0, Int(level) < LayerStyle.maximumNesting else {
        throw CalunaError(.invalidArgument,
            "level \(level) is out of range (0…\(LayerStyle.maximumNesting - 1): 0 is style.actions, 1 style.style.actions, …)")
    }
    return Int(level)
}

/// The out pointer of an action getter, zeroed first so a failure leaves CONTINUE.
private func actionOutput(_ out: UnsafeMutableRawPointer?) throws -> UnsafeMutableRawPointer {
    guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
    return out
}

// MARK: the actions dictionary

@_cdecl("caluna_layer_set_action")
public func caluna_layer_set_action(_ e: OpaquePointer?, _ layer: UInt64, _ key: UnsafePointer<CChar>?,
                                    _ action: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_layer_set_action") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        let k = try string(key, "key")
        let a = try action.flatMap { try readAction($0, ce, owning: true, "action") }
        install(a, forKey: k, in: &l.actions)
    }
}

@_cdecl("caluna_layer_action")
public func caluna_layer_action(_ e: OpaquePointer?, _ layer: UInt64, _ key: UnsafePointer<CChar>?,
                                _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ActionLayout.size) }
    return withEngine(e, "caluna_layer_action") { ce in
        let o = try actionOutput(out)
        let l = try ce.layer(layer, "layer")
        let k = try string(key, "key")
        try writeAction(l.actions?[k], to: o, ce, owned: false)
    }
}

@_cdecl("caluna_layer_clear_actions")
public func caluna_layer_clear_actions(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_clear_actions") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        l.actions = nil
    }
}

// MARK: the style chain

@_cdecl("caluna_layer_set_style_action")
public func caluna_layer_set_style_action(_ e: OpaquePointer?, _ layer: UInt64, _ level: Int32,
                                          _ key: UnsafePointer<CChar>?, _ action: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_layer_set_style_action") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        let n = try styleLevel(level)
        let k = try string(key, "key")
        let a = try action.flatMap { try readAction($0, ce, owning: true, "action") }
        // Removing from a style that does not exist changes nothing.
        guard let s = style(of: l, level: n, creating: a != nil) else { return }
        install(a, forKey: k, in: &s.actions)
    }
}

@_cdecl("caluna_layer_style_action")
public func caluna_layer_style_action(_ e: OpaquePointer?, _ layer: UInt64, _ level: Int32,
                                      _ key: UnsafePointer<CChar>?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ActionLayout.size) }
    return withEngine(e, "caluna_layer_style_action") { ce in
        let o = try actionOutput(out)
        let l = try ce.layer(layer, "layer")
        let n = try styleLevel(level)
        let k = try string(key, "key")
        try writeAction(style(of: l, level: n, creating: false)?.actions?[k], to: o, ce, owned: false)
    }
}

@_cdecl("caluna_layer_clear_style")
public func caluna_layer_clear_style(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_clear_style") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        l.style = nil
    }
}

// MARK: the delegate and the lookup

@_cdecl("caluna_layer_set_action_delegate")
public func caluna_layer_set_action_delegate(_ e: OpaquePointer?, _ layer: UInt64, _ callback: CActionDelegateCallback?,
                                             _ user: UnsafeMutableRawPointer?, _ release: CReleaseCallback?) -> Int32 {
    withEngine(e, "caluna_layer_set_action_delegate") { ce in
        let l = try ce.layer(layer, "layer")
        try l.checkModel("layer")
        // The delegate the layer had before C's, kept across replacements.
        let current = l.delegate as? CActionDelegate
        let previous = current != nil ? current?.previous : l.delegate
        guard let callback else {
            if current != nil { l.delegate = previous }
            ce.actionDelegates[ObjectIdentifier(l)] = nil
            return
        }
        let d = CActionDelegate(callback: callback, host: HostReference(user: user, release: release, engine: ce),
                                layer: l, previous: previous)
        l.delegate = d
        // Replacing an entry lets go of the old delegate (or of a dead layer's
        // that had the same address).
        ce.actionDelegates[ObjectIdentifier(l)] = d
    }
}

@_cdecl("caluna_layer_action_for_key")
public func caluna_layer_action_for_key(_ e: OpaquePointer?, _ layer: UInt64, _ key: UnsafePointer<CChar>?,
                                        _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ActionLayout.size) }
    return withEngine(e, "caluna_layer_action_for_key") { ce in
        let o = try actionOutput(out)
        let l = try ce.layer(layer, "layer")
        let k = try string(key, "key")
        try writeAction(try l.action(forKey: k), to: o, ce, owned: true)
    }
}

@_cdecl("caluna_default_action_for_key")
public func caluna_default_action_for_key(_ e: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                          _ out: UnsafeMutableRawPointer?) -> Int32 {
    if let out { memset(out, 0, ActionLayout.size) }
    return withEngine(e, "caluna_default_action_for_key") { ce in
        let o = try actionOutput(out)
        let k = try string(key, "key")
        try writeAction(Layer.defaultAction(forKey: k, transaction: ce.transaction, kind: nil), to: o, ce, owned: true)
    }
}
