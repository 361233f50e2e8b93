/// What CATransform3D and CGAffineTransform share as plain values: their fields
/// as a flat list (the Lua binding's fields and `:elements()`, the C ABI's
/// `double m[16]` / `double t[6]`), identity, inversion and concatenation.
public protocol MatrixValue: Hashable, Sendable {
    /// Field names in element order ("m11" … "m44"; "a" … "ty").
    static var elementNames: [String] { get }
    /// The fields in `elementNames` order.
    var elements: [Double] { get }
    /// From exactly `elementNames.count` numbers, else nil.
    init?(elements: [Double])
    var isIdentity: Bool { get }
    var isFinite: Bool { get }
    /// The inverse, or nil when singular.
    func inverted() -> Self?
    /// self first, then b (CATransform3DConcat / CGAffineTransformConcat).
    func concatenating(_ b: Self) -> Self
}

extension Transform3D: MatrixValue {
    public static let elementNames = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                                      "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44"]
}

extension AffineTransform: MatrixValue {
    public static let elementNames = ["a", "b", "c", "d", "tx", "ty"]
}
