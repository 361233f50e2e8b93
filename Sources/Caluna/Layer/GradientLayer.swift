/// CAGradientLayer (spec ch.6 §2.7): colour stops drawn over the background,
/// filling the layer's (rounded) shape. Drawing is in Render/GradientRendering.swift.
public struct GradientLayerState: Equatable {
    /// nil (or empty) draws nothing.
    public var colors: ElementArray<Color>? = nil
    /// nil spaces the colours evenly; a count other than colors' draws nothing.
    public var locations: ElementArray<Double>? = nil
    /// Unit coordinates of the bounds, (0, 0) top-left (iOS, spec §1.1).
    public var startPoint = Point(0.5, 0)
    public var endPoint = Point(0.5, 1)
    public var type = GradientType.axial
}

/// kCAGradientLayerAxial / Radial / Conic.
public enum GradientType: String, CaseIterable, Sendable, StringEnumProperty {
    case axial, radial, conic
}

/// An array property's value (`Value.array` of one element kind): Equatable
/// so layer state can hold it, ValueConvertible so the property table can.
public struct ElementArray<Element: ValueConvertible & Equatable>: Equatable, ValueConvertible {
    public var items: [Element]
    public init(_ items: [Element]) { self.items = items }
    public static var valueKind: ValueKind { .array }
    public var value: Value { .array(items.map(\.value)) }
    public init?(value: Value) {
        guard case .array(let vs) = value else { return nil }
        var out: [Element] = []
        out.reserveCapacity(vs.count)
        for v in vs {
            guard let e = Element(value: v) else { return nil }
            out.append(e)
        }
        items = out
    }
}

extension GradientLayerState {
    /// More stops than this is refused (one cairo stop each; no scene needs more).
    public static let maximumColors = 1024

    static func checkColors(_ c: ElementArray<Color>?) throws {
        guard let c else { return }
        guard c.items.count <= maximumColors else {
            throw CalunaError.invalid("colors: at most \(maximumColors) colours (got \(c.items.count))")
        }
    }

    static func checkLocations(_ l: ElementArray<Double>?) throws {
        guard let l else { return }
        guard l.items.count <= maximumColors else {
            throw CalunaError.invalid("locations: at most \(maximumColors) numbers (got \(l.items.count))")
        }
        // Any finite value is kept (Apple does not refuse them); beyond 0…1
        // they lie past the start or end point (GradientRendering.swift).
        for v in l.items { try LayerProperty.checkMagnitude("locations", v) }
    }
}

extension LayerProperties {
    static let gradientLayer: [LayerProperty] = [
        .specialised("colors", \.gradient.colors, animatable: true, elementKind: .color) {
            try GradientLayerState.checkColors($0)
        },
        .specialised("locations", \.gradient.locations, animatable: true, elementKind: .number) {
            try GradientLayerState.checkLocations($0)
        },
        .specialised("startPoint", \.gradient.startPoint, animatable: true) {
            try LayerProperty.checkMagnitude("startPoint", $0.x, $0.y)
        },
        .specialised("endPoint", \.gradient.endPoint, animatable: true) {
            try LayerProperty.checkMagnitude("endPoint", $0.x, $0.y)
        },
        .specialisedChoice("type", \.gradient.type),
    ]
}
