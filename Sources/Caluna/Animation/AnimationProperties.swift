/// The animation property table: every animation property declared once —
/// key, which classes have it, what it holds, how it is checked — and used by
/// the Lua binding and the C ABI alike.
public struct AnimationProperty {
    public enum Kind: Sendable, Equatable {
        /// A plain value of this kind.
        case value(ValueKind)
        /// A value of the animation's key path kind (fromValue, toValue, byValue).
        case keyPathValue
        /// An array of key-path values (keyframe values).
        case keyPathValues
        /// An array of numbers (keyTimes, tensionValues …).
        case numbers
        /// A timing function: a name ("easeIn") or {c1x, c1y, c2x, c2y}.
        case timingFunction
        /// An array of timing functions.
        case timingFunctions
    }

    public let key: String
    public let kind: Kind
    public let nullable: Bool
    public let readOnly: Bool
    /// repeatCount and repeatDuration accept infinity (repeat forever).
    public var allowsInfinity: Bool { kind == .value(.number) && MediaTiming.allowsInfinity(key) }
    let appliesTo: (Animation) -> Bool
    let read: (Animation) -> Value
    let write: (Animation, Value) throws -> Void

    public func applies(to a: Animation) -> Bool { appliesTo(a) }
    public func get(_ a: Animation) -> Value { read(a) }

    /// Sets after checking mutability, kind and finiteness.
    public func set(_ a: Animation, _ v: Value) throws {
        try a.checkMutable()
        if readOnly { throw CalunaError.invalid("\(a.className).\(key) is read-only") }
        if v == .null {
            guard nullable else { throw CalunaError(.typeMismatch, "\(a.className).\(key) cannot be nil") }
        } else if case .value(let k) = kind, v.kind != k {
            throw CalunaError(.typeMismatch, "\(a.className).\(key) expects \(k.expectation), got \(v.kind.expectation)")
        }
        try write(a, v)
    }

    /// The kind a key-path-valued property takes on this animation.
    public func valueKind(for a: Animation) throws -> ValueKind? {
        switch kind {
        case .value(let k): return k
        case .keyPathValue, .keyPathValues:
            guard let p = a as? PropertyAnimation else { return nil }
            return try p.valueKind()
        default: return nil
        }
    }
}

extension TimingFunction {
    /// A timing function as a Value: its name, or its four control numbers.
    public var value: Value {
        if let name { return .string(name) }
        return .array([.number(c1x), .number(c1y), .number(c2x), .number(c2y)])
    }

    public init(value v: Value) throws {
        switch v {
        case .string(let s): self = try TimingFunction.named(s)
        case .array(let a) where a.count == 4:
            var n: [Double] = []
            for e in a { guard case .number(let x) = e else { break }; n.append(x) }
            if n.count == 4 { self = try TimingFunction(n[0], n[1], n[2], n[3]); return }
            fallthrough
        default:
            throw CalunaError(.typeMismatch, "a timing function is a name (\(TimingFunction.names.joined(separator: ", "))) or {c1x, c1y, c2x, c2y}, got \(v.kind.expectation)")
        }
    }
}

extension AnimationProperty {
    static func timing(_ key: String, _ path: WritableKeyPath<MediaTiming, Double>) -> AnimationProperty {
        AnimationProperty(key: key, kind: .value(.number), nullable: false, readOnly: false, appliesTo: { _ in true },
                          read: { .number($0.timing[keyPath: path]) },
                          write: { a, v in
                              guard case .number(let n) = v else { return }
                              try MediaTiming.check(key, n)
                              a.timing[keyPath: path] = n
                          })
    }

    static func make<A: Animation>(_ key: String, _ type: A.Type, _ kind: Kind, nullable: Bool = false,
                                   readOnly: Bool = false, read: @escaping (A) -> Value,
                                   write: @escaping (A, Value) throws -> Void = { _, _ in }) -> AnimationProperty {
        AnimationProperty(key: key, kind: kind, nullable: nullable, readOnly: readOnly, appliesTo: { $0 is A },
                          read: { ($0 as? A).map(read) ?? .null },
                          write: { a, v in if let a = a as? A { try write(a, v) } })
    }

    static func enumeration<A: Animation, E: RawRepresentable & CaseIterable>(
        _ key: String, _ type: A.Type, _ path: ReferenceWritableKeyPath<A, E>
    ) -> AnimationProperty where E.RawValue == String {
        make(key, type, .value(.string), read: { .string($0[keyPath: path].rawValue) }) { a, v in
            guard case .string(let s) = v, let e = E(rawValue: s) else {
                throw CalunaError.invalid("\(a.className).\(key) must be one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
            }
            a[keyPath: path] = e
        }
    }

    static func optionalEnumeration<A: Animation, E: RawRepresentable & CaseIterable>(
        _ key: String, _ type: A.Type, _ path: ReferenceWritableKeyPath<A, E?>
    ) -> AnimationProperty where E.RawValue == String {
        make(key, type, .value(.string), nullable: true, read: { $0[keyPath: path].map { .string($0.rawValue) } ?? .null }) { a, v in
            if v == .null { a[keyPath: path] = nil; return }
            guard case .string(let s) = v, let e = E(rawValue: s) else {
                throw CalunaError.invalid("\(a.className).\(key) must be nil or one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
            }
            a[keyPath: path] = e
        }
    }

    static func flag<A: Animation>(_ key: String, _ type: A.Type, _ path: ReferenceWritableKeyPath<A, Bool>) -> AnimationProperty {
        make(key, type, .value(.bool), read: { .bool($0[keyPath: path]) }) { a, v in
            if case .bool(let b) = v { a[keyPath: path] = b }
        }
    }

    static func numbers(_ key: String, _ path: ReferenceWritableKeyPath<KeyframeAnimation, [Double]?>) -> AnimationProperty {
        make(key, KeyframeAnimation.self, .numbers, nullable: true,
             read: { $0[keyPath: path].map { .array($0.map { .number($0) }) } ?? .null }) { a, v in
            if v == .null { a[keyPath: path] = nil; return }
            guard case .array(let items) = v else { throw CalunaError(.typeMismatch, "\(a.className).\(key) expects an array of numbers") }
            a[keyPath: path] = try items.enumerated().map { i, e in
                guard case .number(let n) = e, n.isFinite else {
                    throw CalunaError(.typeMismatch, "\(a.className).\(key)[\(i + 1)] must be a finite number")
                }
                return n
            }
        }
    }

    static func spring(_ key: String, _ path: KeyPath<SpringCurve, Double>) -> AnimationProperty {
        make(key, SpringAnimation.self, .value(.number), read: { .number($0.spring[keyPath: path]) }) { a, v in
            guard case .number(let n) = v else { return }
            var p = (a.spring.mass, a.spring.stiffness, a.spring.damping, a.spring.initialVelocity)
            switch key {
            case "mass": p.0 = n
            case "stiffness": p.1 = n
            case "damping": p.2 = n
            default: p.3 = n
            }
            a.spring = try SpringCurve(mass: p.0, stiffness: p.1, damping: p.2, initialVelocity: p.3)
        }
    }

    static func progress(_ key: String, _ path: ReferenceWritableKeyPath<Transition, Double>) -> AnimationProperty {
        make(key, Transition.self, .value(.number), read: { .number($0[keyPath: path]) }) { a, v in
            guard case .number(let n) = v, n >= 0, n <= 1 else {
                throw CalunaError.invalid("\(a.className).\(key) must be within 0…1")
            }
            a[keyPath: path] = n
        }
    }

    /// A key-path value; checked against the key path when the animation is added.
    static func keyPathValue(_ key: String, _ path: ReferenceWritableKeyPath<BasicAnimation, Value?>) -> AnimationProperty {
        make(key, BasicAnimation.self, .keyPathValue, nullable: true, read: { $0[keyPath: path] ?? .null }) { a, v in
            guard v.isFinite else { throw CalunaError.invalid("\(a.className).\(key) must be finite") }
            a[keyPath: path] = v == .null ? nil : v
        }
    }
}

public enum AnimationProperties {
    public static let all: [AnimationProperty] = [
        .timing("duration", \.duration),
        .timing("beginTime", \.beginTime),
        .timing("speed", \.speed),
        .timing("timeOffset", \.timeOffset),
        .timing("repeatCount", \.repeatCount),
        .timing("repeatDuration", \.repeatDuration),
        .make("autoreverses", Animation.self, .value(.bool), read: { .bool($0.timing.autoreverses) }) { a, v in
            if case .bool(let b) = v { a.timing.autoreverses = b }
        },
        .make("fillMode", Animation.self, .value(.string), read: { .string($0.timing.fillMode.rawValue) }) { a, v in
            guard case .string(let s) = v, let m = MediaTiming.FillMode(rawValue: s) else {
                throw CalunaError.invalid("fillMode must be one of \"removed\", \"forwards\", \"backwards\", \"both\"")
            }
            a.timing.fillMode = m
        },
        .make("timingFunction", Animation.self, .timingFunction, nullable: true, read: { $0.timingFunction?.value ?? .null }) { a, v in
            a.timingFunction = v == .null ? nil : try TimingFunction(value: v)
        },
        .flag("removedOnCompletion", Animation.self, \.removedOnCompletion),
        .make("keyPath", PropertyAnimation.self, .value(.string), nullable: true, read: { $0.keyPath.map { .string($0) } ?? .null }) { a, v in
            guard case .string(let s) = v else { a.keyPath = nil; return }
            _ = try Layer.kind(forKeyPath: s)
            a.keyPath = s
        },
        .flag("additive", PropertyAnimation.self, \.additive),
        .flag("cumulative", PropertyAnimation.self, \.cumulative),
        .optionalEnumeration("valueFunction", PropertyAnimation.self, \.valueFunction),
        .keyPathValue("fromValue", \.fromValue),
        .keyPathValue("toValue", \.toValue),
        .keyPathValue("byValue", \.byValue),
        .spring("mass", \.mass),
        .spring("stiffness", \.stiffness),
        .spring("damping", \.damping),
        .spring("initialVelocity", \.initialVelocity),
        .make("settlingDuration", SpringAnimation.self, .value(.number), readOnly: true, read: { .number($0.settlingDuration) }),
        .make("values", KeyframeAnimation.self, .keyPathValues, nullable: true, read: { $0.values.map { .array($0) } ?? .null }) { a, v in
            guard case .array(let items) = v else { a.values = nil; return }
            guard v.isFinite else { throw CalunaError.invalid("\(a.className).values must be finite") }
            a.values = items
        },
        .make("path", KeyframeAnimation.self, .value(.path), nullable: true, read: { $0.path.map { .path($0) } ?? .null }) { a, v in
            guard case .path(let p) = v else { a.path = nil; return }
            a.path = p
        },
        .numbers("keyTimes", \.keyTimes),
        .make("timingFunctions", KeyframeAnimation.self, .timingFunctions, nullable: true,
              read: { $0.timingFunctions.map { .array($0.map { $0.value }) } ?? .null }) { a, v in
            guard case .array(let items) = v else { a.timingFunctions = nil; return }
            a.timingFunctions = try items.map { try TimingFunction(value: $0) }
        },
        .enumeration("calculationMode", KeyframeAnimation.self, \.calculationMode),
        .optionalEnumeration("rotationMode", KeyframeAnimation.self, \.rotationMode),
        .numbers("tensionValues", \.tensionValues),
        .numbers("continuityValues", \.continuityValues),
        .numbers("biasValues", \.biasValues),
        .enumeration("type", Transition.self, \.type),
        .optionalEnumeration("subtype", Transition.self, \.subtype),
        .progress("startProgress", \.startProgress),
        .progress("endProgress", \.endProgress),
    ]

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The property `key` of animation `a`, with the error a caller should see.
    public static func resolve(_ key: String, for a: Animation) throws -> AnimationProperty {
        guard let p = byKey[key], p.applies(to: a) else {
            if key == "delegate" || key == "animations" {
                throw CalunaError(.unknownKey, "\(a.className).\(key) is set through its own call")
            }
            if key == "filter", a is Transition {
                throw CalunaError(.notSupported, "Transition.filter is not supported (Core Image filters do not exist here; iOS ignores them too)")
            }
            throw CalunaError(.unknownKey, "\(a.className) has no property '\(key)'")
        }
        return p
    }

    /// Names of the animation kinds, for constructors.
    public static func make(_ className: String) throws -> Animation {
        switch className {
        case "BasicAnimation": return BasicAnimation()
        case "KeyframeAnimation": return KeyframeAnimation()
        case "SpringAnimation": return SpringAnimation()
        case "AnimationGroup": return AnimationGroup()
        case "Transition": return Transition()
        default:
            throw CalunaError(.unknownKey, "no animation class '\(className)' (BasicAnimation, KeyframeAnimation, SpringAnimation, AnimationGroup, Transition)")
        }
    }
}
