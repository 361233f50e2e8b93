/// A dynamically typed property value: what the property table, the Lua
/// binding and the C ABI exchange.
public enum Value: Equatable {
    case null
    case number(Double)
    case bool(Bool)
    case string(String)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    // Boxed: a matrix is 128 bytes and would make every Value that large.
    indirect case transform(Transform3D)
    case image(Image)
    case path(Path)
    case array([Value])

    public var kind: ValueKind {
        switch self {
        case .null: return .null
        case .number: return .number
        case .bool: return .bool
        case .string: return .string
        case .point: return .point
        case .size: return .size
        case .rect: return .rect
        case .color: return .color
        case .transform: return .transform
        case .image: return .image
        case .path: return .path
        case .array: return .array
        }
    }

    public static func == (l: Value, r: Value) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.point(a), .point(b)): return a == b
        case let (.size(a), .size(b)): return a == b
        case let (.rect(a), .rect(b)): return a == b
        case let (.color(a), .color(b)): return a == b
        case let (.transform(a), .transform(b)): return a == b
        case let (.image(a), .image(b)): return a === b
        case let (.path(a), .path(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        default: return false
        }
    }

    /// True when every number inside is finite (NaN and ∞ are refused on input).
    public var isFinite: Bool {
        switch self {
        case .number(let v): return v.isFinite
        case .point(let p): return p.isFinite
        case .size(let s): return s.isFinite
        case .rect(let r): return r.isFinite
        case .color(let c): return c.isFinite
        case .transform(let t): return t.isFinite
        case .path(let p): return p.isFinite
        case .array(let a): return a.allSatisfy { $0.isFinite }
        case .null, .bool, .string, .image: return true
        }
    }

    // MARK: component key paths ("position.x", "bounds.size.width")
    // Transforms have Core Animation's virtual components ("rotation.z",
    // "scale", "translation.x", …), see TransformDecomposition.swift.

    /// The kind of value at `component` (e.g. "size.width" of a rect), or nil
    /// if this kind has no such component.
    public static func componentKind(of kind: ValueKind, _ component: [Substring]) -> ValueKind? {
        guard let first = component.first else { return kind }
        let rest = Array(component.dropFirst())
        switch (kind, first) {
        case (.point, "x"), (.point, "y"), (.size, "width"), (.size, "height"):
            return rest.isEmpty ? .number : nil
        case (.rect, "origin"): return componentKind(of: .point, rest)
        case (.rect, "size"): return componentKind(of: .size, rest)
        case (.transform, _): return Transform3D.virtualComponentKind(component)
        default: return nil
        }
    }

    /// The value of a component, or nil if there is no such component.
    public func component(_ path: [Substring]) -> Value? {
        guard let first = path.first else { return self }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.point(let p), "x") where rest.isEmpty: return .number(p.x)
        case (.point(let p), "y") where rest.isEmpty: return .number(p.y)
        case (.size(let s), "width") where rest.isEmpty: return .number(s.width)
        case (.size(let s), "height") where rest.isEmpty: return .number(s.height)
        case (.rect(let r), "origin"): return Value.point(r.origin).component(rest)
        case (.rect(let r), "size"): return Value.size(r.size).component(rest)
        case (.transform(let t), _): return t.virtualComponent(path)
        default: return nil
        }
    }

    /// This value with one component replaced. The new component must have
    /// the component's kind (a number for x/width, a point for origin, …).
    public func settingComponent(_ path: [Substring], to v: Value) -> Value? {
        guard let first = path.first else { return v.kind == kind ? v : nil }
        let rest = Array(path.dropFirst())
        switch (self, first, v) {
        case (.point(var p), "x", .number(let n)) where rest.isEmpty: p.x = n; return .point(p)
        case (.point(var p), "y", .number(let n)) where rest.isEmpty: p.y = n; return .point(p)
        case (.size(var s), "width", .number(let n)) where rest.isEmpty: s.width = n; return .size(s)
        case (.size(var s), "height", .number(let n)) where rest.isEmpty: s.height = n; return .size(s)
        case (.rect(var r), "origin", _):
            guard case .point(let o)? = Value.point(r.origin).settingComponent(rest, to: v) else { return nil }
            r.origin = o; return .rect(r)
        case (.rect(var r), "size", _):
            guard case .size(let s)? = Value.size(r.size).settingComponent(rest, to: v) else { return nil }
            r.size = s; return .rect(r)
        case (.transform(let t), _, _): return t.settingVirtualComponent(path, to: v).map(Value.transform)
        default: return nil
        }
    }
}

/// The declared type of a property or component.
public enum ValueKind: String, Sendable {
    case null, number, bool, string, point, size, rect, color, transform, image, path, array

    /// How Lua and C users spell an expected value of this kind in errors.
    public var expectation: String {
        switch self {
        case .null: return "nil"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .string: return "a string"
        case .point: return "a point {x, y}"
        case .size: return "a size {w, h}"
        case .rect: return "a rect {x, y, w, h}"
        case .color: return "a colour (\"#rrggbb[aa]\", a CSS name or {r, g, b, a})"
        case .transform: return "a Transform3D"
        case .image: return "an Image"
        case .path: return "a Path"
        case .array: return "an array"
        }
    }
}
