import Testing
@testable import Caluna

// The layer property table (DESIGN §2: one table drives Swift, Lua, C and
// animations) and KVC-style key paths. Defaults per spec §1.2–§1.12.

@Test func everyPropertyKeyIsUnique() {
    let keys = LayerProperties.all.map(\.key)
    #expect(Set(keys).count == keys.count)
    for p in LayerProperties.all {
        #expect(LayerProperties.named(p.key)?.key == p.key)
        #expect(LayerProperties.notYetSupported[p.key] == nil, "\(p.key) is both supported and not")
    }
    #expect(LayerProperties.named("nope") == nil)
}

@Test func defaultsFollowCoreAnimation() throws {
    let expected: [(String, Value)] = [
        ("bounds", .rect(.zero)),
        ("position", .point(.zero)),
        ("frame", .rect(Rect(0, 0, 0, 0))),
        ("anchorPoint", .point(Point(0.5, 0.5))),
        ("anchorPointZ", .number(0)),
        ("zPosition", .number(0)),
        ("transform", .transform(.identity)),
        ("affineTransform", .transform(.identity)),
        ("hidden", .bool(false)),
        ("opacity", .number(1)),
        ("backgroundColor", .null),
        ("masksToBounds", .bool(false)),
        ("geometryFlipped", .bool(false)),
        ("allowsGroupOpacity", .bool(true)),
        ("name", .null),
    ]
    let fresh = Layer()
    for (key, value) in expected {
        let prop = try #require(LayerProperties.named(key), "\(key)")
        #expect(prop.defaultValue == value, "\(key)")
        #expect(try fresh.value(forKeyPath: key) == value, "\(key)")
    }
    #expect(fresh.sublayers.isEmpty && fresh.superlayer == nil && fresh.delegate == nil)
}

@Test func nullabilityIsDeclared() throws {
    func prop(_ k: String) throws -> LayerProperty { try #require(LayerProperties.named(k)) }
    #expect(try prop("backgroundColor").nullable)
    #expect(try prop("name").nullable)
    #expect(try prop("position").nullable == false)
    #expect(try prop("frame").derived)
    #expect(try prop("bounds").derived == false)
}

@Test func wholeValuesRoundTrip() throws {
    let l = Layer()
    let values: [(String, Value)] = [
        ("bounds", .rect(Rect(-5, 2.5, 30, 40))),
        ("position", .point(Point(3.25, -4))),
        ("anchorPoint", .point(Point(-0.5, 1.5))),
        ("anchorPointZ", .number(12)),
        ("zPosition", .number(0.0001)),
        ("transform", .transform(.rotation(0.4, 1, 2, 3))),
        ("hidden", .bool(true)),
        ("opacity", .number(0.25)),
        ("backgroundColor", .color(Color(r8: 220, g8: 20, b8: 60, a8: 128))),
        ("masksToBounds", .bool(true)),
        ("geometryFlipped", .bool(true)),
        ("allowsGroupOpacity", .bool(false)),
        ("name", .string("crate")),
    ]
    for (key, value) in values {
        try l.setValue(value, forKeyPath: key)
        #expect(try l.value(forKeyPath: key) == value, "\(key)")
    }
    #expect(l.position == Point(3.25, -4))
    #expect(l.name == "crate")
    try l.setValue(.null, forKeyPath: "backgroundColor")
    #expect(l.backgroundColor == nil)
}

@Test func componentKeyPathsRoundTrip() throws {
    let l = Layer()
    l.frame = Rect(10, 20, 30, 40)
    try l.setValue(.number(7), forKeyPath: "position.x")
    #expect(l.position == Point(7, 40))
    #expect(try l.value(forKeyPath: "position.x") == .number(7))
    #expect(try l.value(forKeyPath: "position.y") == .number(40))

    try l.setValue(.number(50), forKeyPath: "bounds.size.width")
    #expect(l.bounds == Rect(0, 0, 50, 40))
    #expect(try l.value(forKeyPath: "bounds.size.width") == .number(50))

    try l.setValue(.number(-3), forKeyPath: "bounds.origin.y")
    #expect(l.bounds == Rect(0, -3, 50, 40))
    #expect(try l.value(forKeyPath: "bounds.origin.y") == .number(-3))
    #expect(try l.value(forKeyPath: "bounds.origin") == .point(Point(0, -3)))
}

@Test func frameComponentKeyPath() throws {
    let l = Layer()
    l.frame = Rect(10, 20, 30, 40)
    try l.setValue(.number(60), forKeyPath: "frame.size.height")
    #expect(near(l.frame, Rect(10, 20, 30, 60), derivedTolerance))
    #expect(l.bounds.size == Size(30, 60))
    #expect(l.position == Point(25, 50), "the anchor (0.5, 0.5) of the new frame")
    #expect(try l.value(forKeyPath: "frame.size.height") == .number(60))
    #expect(try l.value(forKeyPath: "frame.origin.x") == .number(10))
}

@Test func affineTransformKeyKeepsOnlyTheAffinePart() throws {
    let l = Layer()
    try l.setValue(.transform(Transform3D.rotation(0.5, 0, 0, 1).translated(1, 2, 3)), forKeyPath: "affineTransform")
    #expect(l.transform.isAffine)
    #expect(near(l.affineTransform, AffineTransform.translation(1, 2).concatenating(.rotation(0.5))))
}

// MARK: errors

@Test func unknownKeyIsUnknownKey() {
    let l = Layer()
    #expect(errorCode { try l.value(forKeyPath: "bogus") } == .unknownKey)
    #expect(errorCode { try l.setValue(.number(1), forKeyPath: "bogus") } == .unknownKey)
    #expect(errorCode { try l.value(forKeyPath: "position.z") } == .unknownKey)
    #expect(errorCode { try l.setValue(.number(1), forKeyPath: "position.z") } == .unknownKey)
    #expect(errorCode { try l.value(forKeyPath: "opacity.x") } == .unknownKey)
    #expect(errorCode { try l.value(forKeyPath: "") } == .unknownKey)
    #expect(errorCode { try l.value(forKeyPath: "position.") } == .unknownKey)
}

@Test func notYetSupportedKeyIsNotSupported() {
    let l = Layer()
    for key in ["contentsFormat", "cornerCurve"] {
        #expect(errorCode { try l.value(forKeyPath: key) } == .notSupported, "\(key)")
        #expect(errorCode { try l.setValue(.number(1), forKeyPath: key) } == .notSupported, "\(key)")
    }
    #expect(errorCode { try l.setValue(.number(1), forKeyPath: "contentsFormat.scale") } == .notSupported)
    // The mask is a layer: its own call sets it.
    #expect(errorCode { try l.value(forKeyPath: "mask") } == .unknownKey)
    // Actions are not values: their own calls set them.
    #expect(errorCode { try l.value(forKeyPath: "actions") } == .unknownKey)
}

@Test func wrongKindIsTypeMismatch() {
    let l = Layer()
    #expect(errorCode { try l.setValue(.string("10"), forKeyPath: "opacity") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.number(1), forKeyPath: "hidden") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.size(Size(1, 1)), forKeyPath: "position") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.string("red"), forKeyPath: "backgroundColor") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.point(.zero), forKeyPath: "bounds.size.width") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.number(1), forKeyPath: "bounds.origin") } == .typeMismatch)
    #expect(l.opacity == 1 && !l.hidden && l.position == .zero)
}

@Test func nonFiniteIsInvalidArgument() {
    let l = Layer()
    #expect(errorCode { try l.setValue(.number(.nan), forKeyPath: "opacity") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(.infinity), forKeyPath: "zPosition") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.point(Point(.nan, 0)), forKeyPath: "position") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(-.infinity), forKeyPath: "position.x") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.rect(Rect(0, 0, .nan, 1)), forKeyPath: "bounds") } == .invalidArgument)
    var t = Transform3D.identity
    t.m34 = .nan
    #expect(errorCode { try l.setValue(.transform(t), forKeyPath: "transform") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.color(Color(red: .nan, green: 0, blue: 0)), forKeyPath: "backgroundColor") }
            == .invalidArgument)
    #expect(l.opacity == 1 && l.position == .zero && l.transform == .identity && l.backgroundColor == nil)
}

@Test func negativeBoundsSizeIsInvalidArgument() {
    let l = Layer()
    l.bounds = Rect(0, 0, 10, 10)
    #expect(errorCode { try l.setValue(.rect(Rect(0, 0, -1, 10)), forKeyPath: "bounds") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(-5), forKeyPath: "bounds.size.height") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.rect(Rect(0, 0, 10, -1)), forKeyPath: "frame") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(-1), forKeyPath: "frame.size.width") } == .invalidArgument)
    #expect(l.bounds == Rect(0, 0, 10, 10))
    // A negative origin is fine.
    #expect(errorCode { try l.setValue(.rect(Rect(-10, -10, 10, 10)), forKeyPath: "bounds") } == nil)
}

@Test func hugeMagnitudeIsInvalidArgument() {
    let l = Layer()
    #expect(errorCode { try l.setValue(.point(Point(1e8 + 1, 0)), forKeyPath: "position") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(-2e8), forKeyPath: "position.y") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.rect(Rect(0, 0, 1e9, 1)), forKeyPath: "bounds") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.number(1e10), forKeyPath: "zPosition") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.point(Point(0, 1e12)), forKeyPath: "anchorPoint") } == .invalidArgument)
    #expect(errorCode { try l.setValue(.point(Point(1e8, -1e8)), forKeyPath: "position") } == nil, "±1e8 itself is allowed")
}

@Test func nilIsTypeMismatchUnlessNullable() {
    let l = Layer()
    #expect(errorCode { try l.setValue(.null, forKeyPath: "position") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.null, forKeyPath: "opacity") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.null, forKeyPath: "hidden") } == .typeMismatch)
    #expect(errorCode { try l.setValue(.null, forKeyPath: "position.x") } == .typeMismatch)
    l.backgroundColor = uiRed
    #expect(errorCode { try l.setValue(.null, forKeyPath: "backgroundColor") } == nil)
    #expect(l.backgroundColor == nil)
    l.name = "x"
    #expect(errorCode { try l.setValue(.null, forKeyPath: "name") } == nil)
    #expect(l.name == nil)
}

/// The fast paths switch on `typedKind` and call the typed setter kept apart
/// from `typed`: for every property both agree with `typed`, and a typed set
/// leaves the layer (or the error) as the general `set` does.
@Test func typedSettersMatchTheGeneralSet() throws {
    #expect(LayerProperties.all.filter { $0.typedKind != nil }.count > 20)
    for p in LayerProperties.all {
        let kind: ValueKind? = switch p.typed {
        case .number?: .number
        case .bool?: .bool
        case .point?: .point
        case .size?: .size
        case .rect?: .rect
        case nil: nil
        }
        #expect(p.typedKind == kind, "\(p.key)")
        guard let kind else { continue }
        for n in [0.25, 3, -2] {
            let fast = Layer(), plain = Layer()
            let (value, set): (Value, () throws -> Void) = switch kind {
            case .number: (.number(n), { try p.setNumber(fast, n) })
            case .bool: (.bool(n > 0), { try p.setBool(fast, n > 0) })
            case .point: (.point(Point(n, 1)), { try p.setPoint(fast, Point(n, 1)) })
            case .size: (.size(Size(n, 2)), { try p.setSize(fast, Size(n, 2)) })
            default: (.rect(Rect(1, n, 3, n)), { try p.setRect(fast, Rect(1, n, 3, n)) })
            }
            #expect(errorCode(set) == errorCode { try p.set(plain, value) }, "\(p.key) = \(value)")
            #expect(p.get(fast) == p.get(plain), "\(p.key) = \(value)")
        }
    }
}
