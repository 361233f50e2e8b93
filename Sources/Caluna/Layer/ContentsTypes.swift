/// contentsGravity: Core Animation's twelve strings. "top" is the visual top
/// in caluna's y-down space (spec D1).
public enum ContentsGravity: String, CaseIterable, Sendable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill

    /// Where content of natural size `content` goes in `bounds` (spec §1.4).
    public func rect(for content: Size, in bounds: Rect) -> Rect {
        let W = bounds.width, H = bounds.height, w = content.width, h = content.height
        func at(_ fx: Double, _ fy: Double, _ sw: Double, _ sh: Double) -> Rect {
            Rect(bounds.minX + (W - sw) * fx, bounds.minY + (H - sh) * fy, sw, sh)
        }
        switch self {
        case .center: return at(0.5, 0.5, w, h)
        case .top: return at(0.5, 0, w, h)
        case .bottom: return at(0.5, 1, w, h)
        case .left: return at(0, 0.5, w, h)
        case .right: return at(1, 0.5, w, h)
        case .topLeft: return at(0, 0, w, h)
        case .topRight: return at(1, 0, w, h)
        case .bottomLeft: return at(0, 1, w, h)
        case .bottomRight: return at(1, 1, w, h)
        case .resize: return Rect(bounds.minX, bounds.minY, W, H)
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return Rect(bounds.midX, bounds.midY, 0, 0) }
            let s = self == .resizeAspect ? min(W / w, H / h) : max(W / w, H / h)
            return at(0.5, 0.5, w * s, h * s)
        }
    }
}

/// minificationFilter / magnificationFilter.
public enum ContentsFilter: String, CaseIterable, Sendable {
    case linear, nearest, trilinear
}

/// CACornerMask: which corners cornerRadius rounds.
public struct CornerMask: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let minXMinY = CornerMask(rawValue: 1)
    public static let maxXMinY = CornerMask(rawValue: 2)
    public static let minXMaxY = CornerMask(rawValue: 4)
    public static let maxXMaxY = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]
}

/// Enumerations stored as Core Animation's strings in the property table.
protocol StringEnumProperty: ValueConvertible, RawRepresentable, CaseIterable where RawValue == String {}
extension StringEnumProperty {
    public static var valueKind: ValueKind { .string }
    public var value: Value { .string(rawValue) }
    public init?(value: Value) {
        guard case .string(let s) = value, let v = Self(rawValue: s) else { return nil }
        self = v
    }
    static var choices: String { allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
}
extension ContentsGravity: StringEnumProperty {}
extension ContentsFilter: StringEnumProperty {}

extension CornerMask: ValueConvertible {
    public static var valueKind: ValueKind { .number }
    public var value: Value { .number(Double(rawValue)) }
    public init?(value: Value) {
        guard case .number(let n) = value, n >= 0, n <= 15, n == n.rounded() else { return nil }
        self.init(rawValue: Int(n))
    }
}
