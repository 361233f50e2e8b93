import Caluna
import CalunaBridge

/// Argument checks shared by the exports: each throws the error the caller sees.

/// A non-NULL, valid UTF-8 C string as a Swift String.
func string(_ p: UnsafePointer<CChar>?, _ name: String) throws -> String {
    guard let p else { throw CalunaError(.invalidArgument, "\(name) is NULL") }
    guard let s = String(validatingCString: p) else {
        throw CalunaError(.invalidArgument, "\(name) is not valid UTF-8")
    }
    return s
}

/// Runs an engine-less call (timing functions, easing, transform math): its
/// message goes to caluna_last_error(NULL).
func withoutEngine(_ function: String, _ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return CalunaStatus.ok
    } catch {
        return failWithoutEngine(function, error)
    }
}

/// A non-NULL out pointer.
func output<T>(_ p: UnsafeMutablePointer<T>?, _ name: String) throws -> UnsafeMutablePointer<T> {
    guard let p else { throw CalunaError(.invalidArgument, "\(name) is NULL (an output pointer is required)") }
    return p
}

/// Finite numbers only (the engine validates too; this names the argument).
func finite(_ values: [(String, Double)]) throws {
    for (name, v) in values where !v.isFinite {
        throw CalunaError(.invalidArgument, "\(name) must be finite (got \(v))")
    }
}

extension CEngine {
    /// The live layer an id names; the message names the argument.
    func layer(_ id: UInt64, _ name: String) throws -> Layer {
        // The table unretained (a reference counted was a tenth of a
        // caluna_layer_set). The session holds it, and only Session.reset
        // (ca.reset, from a script) replaces it. Nothing done before the
        // lookup returns can run a script or any host code — it reads the
        // id, the slot array and the layer's link, and an error only builds
        // a message — so the session still holds the table when it is done.
        try Unmanaged.passUnretained(session.handles)._withUnsafeGuaranteedRef { handles in
            if let k = ObjectTable.otherKind(of: id, tag: handles.tag) {
                throw CalunaError(.staleHandle, "\(name): id \(hexID(id)) is \(ObjectKind.article(forBits: k)) id, not a layer id")
            }
            do {
                return try handles.layer(id)
            } catch let e as CalunaError {
                throw CalunaError(e.code, "\(name): \(e.message)")
            }
        }
    }

    /// The layer `id` names, which must be of `kind` (the calls of one
    /// specialised class): TYPE_MISMATCH for any other class.
    func layer(_ id: UInt64, _ name: String, kind: LayerKind) throws -> Layer {
        let l = try layer(id, name)
        guard l.kind == kind else {
            throw CalunaError(.typeMismatch, "\(name) is a \(l.kind.className), not a \(kind.className)")
        }
        return l
    }

    /// A layer, or nil for the id 0 (where 0 means "none": canvas, front/back).
    func optionalLayer(_ id: UInt64, _ name: String) throws -> Layer? {
        id == 0 ? nil : try layer(id, name)
    }

    /// The id the C side sees for a layer (0 for none); borrowed.
    func id(_ layer: Layer?) -> UInt64 {
        guard let layer else { return 0 }
        return handles.id(for: layer)
    }
}

/// An Int32 count or index from a Swift Int, refusing what does not fit.
func int32(_ v: Int, _ name: String) throws -> Int32 {
    guard let r = Int32(exactly: v) else {
        throw CalunaError(.invalidArgument, "\(name) \(v) does not fit in 32 bits")
    }
    return r
}

/// items[index] for a C index, or INVALID_ARGUMENT naming the range;
/// `range` describes it for the message ("the layer has 3 sublayers").
func element<T>(_ items: [T], _ index: Int32, _ range: String) throws -> T {
    guard index >= 0, Int(index) < items.count else {
        throw CalunaError(.invalidArgument, "index \(index) is out of range (\(range))")
    }
    return items[Int(index)]
}
