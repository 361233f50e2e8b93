/// The properties of chapter 6's specialised layers. Each kind declares its
/// state struct and its property table in its own file (ShapeLayer.swift,
/// TextLayer.swift, …); this file holds them together so a layer stores one
/// boxed value, shared until the layer changes one of them, and presentation
/// copies stay one reference larger than a plain CALayer's.
public struct SpecialisedLayerState: Equatable {
    static let shared = Boxed(SpecialisedLayerState())
    public var shape = ShapeLayerState()
    public var text = TextLayerState()
    public var gradient = GradientLayerState()
    public var replicator = ReplicatorLayerState()
    public var scroll = ScrollLayerState()
    public var tiled = TiledLayerState()
    public var emitter = EmitterLayerState()
    public var pixelBuffer = PixelBufferLayerState()
}

extension LayerProperty {
    /// A property of a specialised kind, stored in `SpecialisedLayerState`.
    /// `didChange` runs after the new value is stored on a model layer (to
    /// mark a redraw, say) and on presentation copies an animation writes.
    static func specialised<T: ValueConvertible>(
        _ key: String, _ path: WritableKeyPath<SpecialisedLayerState, T>, animatable: Bool,
        invalidates: Invalidation = .render, elementKind: ValueKind? = nil, animatesImplicitly: Bool = true,
        check: @escaping (T) throws -> Void = { _ in }, didChange: ((Layer) -> Void)? = nil
    ) -> LayerProperty {
        LayerProperty(
            key: key, kind: T.valueKind, nullable: T.nullable, derived: false, animatable: animatable,
            invalidates: invalidates, allowsInfinity: false, elementKind: elementKind,
            animatesImplicitly: animatesImplicitly, read: { $0.state.specialised.value[keyPath: path].value },
            write: { layer, v in
                guard let t = T(value: v) else {
                    throw CalunaError(.typeMismatch, "\(key) expects \(T.valueKind.expectation), got \(v.kind.expectation)")
                }
                try check(t)
                layer.state.specialised.value[keyPath: path] = t
                didChange?(layer)
                layer.changed(key)
            })
    }

    /// A specialised property holding one of Core Animation's strings
    /// (fillRule, lineCap, alignmentMode, …).
    static func specialisedChoice<T: StringEnumProperty>(
        _ key: String, _ path: WritableKeyPath<SpecialisedLayerState, T>, animatable: Bool = false,
        didChange: ((Layer) -> Void)? = nil
    ) -> LayerProperty {
        specialised(key, path, animatable: animatable, didChange: didChange).restricted(to: T.self)
    }

    /// The same property, refusing strings that are not one of `T`'s cases
    /// with an error that lists them.
    func restricted<T: StringEnumProperty>(to: T.Type) -> LayerProperty {
        let key = self.key, write = self.write
        return LayerProperty(key: key, kind: .string, nullable: nullable, derived: derived, animatable: animatable,
                             invalidates: invalidates, allowsInfinity: false, elementKind: nil,
                             animatesImplicitly: animatesImplicitly, read: read,
                             write: { layer, v in
            if case .null = v { return try write(layer, v) }
            guard case .string(let s) = v, T(rawValue: s) != nil else {
                let given: String
                if case .string(let s) = v { given = "\"\(s)\"" } else { given = v.kind.expectation }
                throw CalunaError(.invalidArgument, "\(key) must be one of \(T.choices) (got \(given))")
            }
            try write(layer, v)
        })
    }
}

extension LayerProperties {
    /// Each specialised kind's own properties (CALayer's come first for all).
    static let specific: [LayerKind: [LayerProperty]] = [
        .shapeLayer: shapeLayer, .textLayer: textLayer, .gradientLayer: gradientLayer,
        .replicatorLayer: replicatorLayer, .scrollLayer: scrollLayer, .tiledLayer: tiledLayer,
        .emitterLayer: emitterLayer, .pixelBufferLayer: pixelBufferLayer,
    ]

    private static let specificByKey: [LayerKind: [String: LayerProperty]] = specific.mapValues {
        Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0) })
    }

    /// Every property a layer of `kind` has: CALayer's, then its kind's.
    public static func all(of kind: LayerKind) -> [LayerProperty] {
        guard let own = specific[kind] else { return all }
        return all + own
    }

    /// The property `key` of a layer of `kind`, or nil.
    public static func named(_ key: String, kind: LayerKind) -> LayerProperty? {
        named(key) ?? specificByKey[kind]?[key]
    }

    /// The kind whose property `key` is (for "CALayer has no property" errors).
    static func owner(of key: String) -> LayerKind? {
        LayerKind.allCases.first { specificByKey[$0]?[key] != nil }
    }
}
