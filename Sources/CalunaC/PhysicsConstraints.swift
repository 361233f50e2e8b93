import Caluna
import CalunaBridge
import Glibc

// Physics constraints (ABI 1.4): made from a kind name and key/value
// parameters (caluna_param), properties by key.

/// The most parameters one constraint takes (its kind's keys are fewer).
private let maximumParameters: UInt = 64

/// A caller's `count` caluna_params as the parameters of a constraint.
private func readParameters(_ params: UnsafeRawPointer?, _ count: UInt) throws -> [String: Value] {
    guard count <= maximumParameters else {
        throw CalunaError(.invalidArgument, "count \(count) is out of range (0…\(maximumParameters))")
    }
    guard count == 0 || params != nil else { throw CalunaError(.invalidArgument, "params is NULL but count is \(count)") }
    guard let params else { return [:] }
    var values: [String: Value] = [:]
    for i in 0..<Int(count) {
        let base = params + i * PhysicsLayout.Param.size
        let keyBits = base.loadUnaligned(fromByteOffset: PhysicsLayout.Param.key, as: UInt.self)
        let key = try string(UnsafePointer<CChar>(bitPattern: keyBits), "params[\(i)].key")
        guard values[key] == nil else { throw CalunaError(.invalidArgument, "params[\(i)].key '\(key)' is given twice") }
        do { values[key] = try readValue(base + PhysicsLayout.Param.value, allowingInfinity: true) } catch let err as CalunaError {
            throw CalunaError(err.code, "params[\(i)] '\(key)': \(err.message)")
        }
    }
    return values
}

@_cdecl("caluna_constraint_create")
public func caluna_constraint_create(_ e: OpaquePointer?, _ kind: UnsafePointer<CChar>?, _ bodyA: UInt64, _ bodyB: UInt64,
                                     _ params: UnsafeRawPointer?, _ count: UInt,
                                     _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_constraint_create") { ce in
        let o = try output(out, "out")
        let name = try string(kind, "kind")
        guard let k = PhysicsConstraint.Kind(rawValue: name) else {
            throw CalunaError(.invalidArgument,
                "unknown constraint kind '\(name)'; kinds: \(PhysicsConstraint.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let a = try ce.body(bodyA, "body_a"), b = try ce.body(bodyB, "body_b")
        let c = try PhysicsConstraint(k, a, b, try readParameters(params, count))
        o.pointee = try ce.ownedID(ce.physics.constraints, c)
    }
}

@_cdecl("caluna_constraint_retain")
public func caluna_constraint_retain(_ e: OpaquePointer?, _ constraint: UInt64) -> Int32 {
    physicsReference(e, "caluna_constraint_retain", constraint, retain: true) { $0.constraints }
}

@_cdecl("caluna_constraint_release")
public func caluna_constraint_release(_ e: OpaquePointer?, _ constraint: UInt64) -> Int32 {
    physicsReference(e, "caluna_constraint_release", constraint, retain: false) { $0.constraints }
}

@_cdecl("caluna_constraint_get")
public func caluna_constraint_get(_ e: OpaquePointer?, _ constraint: UInt64, _ key: UnsafePointer<CChar>?,
                                  _ out: UnsafeMutableRawPointer?) -> Int32 {
    physicsGet(e, "caluna_constraint_get", key, out) { ce, k in try ce.constraint(constraint).value(forKey: k) }
}

@_cdecl("caluna_constraint_set")
public func caluna_constraint_set(_ e: OpaquePointer?, _ constraint: UInt64, _ key: UnsafePointer<CChar>?,
                                  _ value: UnsafeRawPointer?) -> Int32 {
    physicsSet(e, "caluna_constraint_set", key, value) { ce, k, v in try ce.constraint(constraint).setValue(v, forKey: k) }
}

@_cdecl("caluna_constraint_bodies")
public func caluna_constraint_bodies(_ e: OpaquePointer?, _ constraint: UInt64, _ outA: UnsafeMutablePointer<UInt64>?,
                                     _ outB: UnsafeMutablePointer<UInt64>?) -> Int32 {
    physicsIDPair(e, "caluna_constraint_bodies", outA, outB, names: ("body_a", "body_b")) { ce in
        let c = try ce.constraint(constraint)
        return (try ce.bodyID(c.bodyA), try ce.bodyID(c.bodyB))
    }
}
