/// CAMediaTimingFunction: a cubic Bézier from (0,0) to (1,1) through the
/// control points c1 and c2 that maps an animation's linear time fraction x to
/// its progress y (spec ch10 §1.1.3, ch7–9 §1.19).
///
/// Evaluation solves x(s) = x for the curve parameter s and returns y(s). It is
/// called per animated property per frame, so it allocates nothing and uses
/// precomputed polynomial coefficients.
///
/// Equality and hashing compare the curve (the four control points) only, so a
/// named function equals a custom one with the same points. Control points are
/// stored as Double; Apple stores `float` (0.58 reads back as 0.5799999833).
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The curve, behind one reference: an optional timing function is
    /// then 8 bytes instead of 97 in every animation object, and the named
    /// constants are shared by every animation that uses them.
    private final class Curve: Sendable {
        let c1x, c1y, c2x, c2y: Double
        let name: String?
        let solver: Solver

        init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, name: String?) {
            self.c1x = c1x; self.c1y = c1y; self.c2x = c2x; self.c2y = c2y
            self.name = name
            solver = Solver(c1x, c1y, c2x, c2y)
        }
    }
    private let curve: Curve

    /// What evaluating the curve needs, as a plain value: a loop over many
    /// animations keeps these (EvaluationPlan), with no reference to count
    /// per evaluation.
    struct Solver {
        // Power-basis coefficients: x(s) = ((ax·s + bx)·s + cx)·s, same for y.
        let ax, bx, cx, ay, by, cy: Double
        /// The curve is the identity when both control points lie on the
        /// diagonal; then evaluate returns x exactly, without solver round-off.
        let isIdentity: Bool

        init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
            cx = 3 * c1x; bx = 3 * (c2x - c1x) - cx; ax = 1 - cx - bx
            cy = 3 * c1y; by = 3 * (c2y - c1y) - cy; ay = 1 - cy - by
            isIdentity = c1x == c1y && c2x == c2y
        }

        /// TimingFunction.evaluate.
        func evaluate(_ x: Double) -> Double {
            if !(x > 0) { return 0 }
            if x >= 1 { return 1 }
            if isIdentity { return x }
            let s = solveParameter(x)
            return ((ay * s + by) * s + cy) * s
        }

        /// Solves x(s) = x for s in [0, 1]. x(s) is non-decreasing because c1x and
        /// c2x lie in [0, 1], so a bracket [lo, hi] always holds the root: Newton
        /// steps are taken while they stay inside it, bisection otherwise (flat
        /// spots where x'(s) ≈ 0, e.g. easeOut near s = 0). Stops when the residual
        /// is at rounding level or the bracket is narrower than 1e-14. (Curves with
        /// a vertical tangent, e.g. (1,0,0,1) at x = 0.5, are ill-conditioned: there
        /// s is only determined to ~(1e-16)^(1/3) by double rounding of x(s).)
        func solveParameter(_ x: Double) -> Double {
            var lo = 0.0, hi = 1.0
            var s = x  // a good first guess: exact for the identity, close for mild curves
            for _ in 0..<100 {
                let err = ((ax * s + bx) * s + cx) * s - x
                if abs(err) <= 1e-15 { return s }
                if err < 0 { lo = s } else { hi = s }
                if hi - lo <= 1e-14 { return 0.5 * (lo + hi) }
                let slope = (3 * ax * s + 2 * bx) * s + cx
                let next = slope > 1e-12 ? s - err / slope : .nan
                if abs(next - s) <= 1e-15 { return next }  // Newton has stalled at rounding level
                // The bracket test also rejects NaN.
                s = (lo < next && next < hi) ? next : 0.5 * (lo + hi)
            }
            return s
        }
    }
    /// The curve's solver (see Solver).
    var solver: Solver { curve.solver }

    public var c1x: Double { curve.c1x }
    public var c1y: Double { curve.c1y }
    public var c2x: Double { curve.c2x }
    public var c2y: Double { curve.c2y }
    /// The Apple name ("easeIn", …) when created by name; nil for custom curves.
    public var name: String? { curve.name }

    /// Custom control points. x coordinates must lie in [0, 1] so the curve
    /// stays a function of time; y coordinates may overshoot. All must be finite.
    public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) throws {
        try self.init(c1x, c1y, c2x, c2y, name: nil)
    }

    private init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, name: String?) throws {
        for (label, v) in [("c1x", c1x), ("c1y", c1y), ("c2x", c2x), ("c2y", c2y)] where !v.isFinite {
            throw CalunaError(.invalidArgument, "timing function control point \(label) must be finite, got \(v)")
        }
        for (label, v) in [("c1x", c1x), ("c2x", c2x)] where !(0...1).contains(v) {
            throw CalunaError(.invalidArgument,
                              "timing function control point \(label) must lie in [0, 1], got \(fmt(v))")
        }
        curve = Curve(c1x, c1y, c2x, c2y, name: name)
    }

    /// Builds the named constants; their points are known valid.
    private static func make(_ name: String, _ p: (Double, Double, Double, Double)) -> TimingFunction {
        try! TimingFunction(p.0, p.1, p.2, p.3, name: name)
    }

    public static let linear = make("linear", (0, 0, 1, 1))
    public static let easeIn = make("easeIn", (0.42, 0, 1, 1))
    public static let easeOut = make("easeOut", (0, 0, 0.58, 1))
    public static let easeInEaseOut = make("easeInEaseOut", (0.42, 0, 0.58, 1))
    /// kCAMediaTimingFunctionDefault: used by implicit (layer-action) animations.
    public static let `default` = make("default", (0.25, 0.1, 0.25, 1))

    /// The kCAMediaTimingFunction* string values, in Apple's header order.
    public static let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

    /// +functionWithName:.
    public static func named(_ name: String) throws -> TimingFunction {
        switch name {
        case "linear": return .linear
        case "easeIn": return .easeIn
        case "easeOut": return .easeOut
        case "easeInEaseOut": return .easeInEaseOut
        case "default": return .default
        default:
            throw CalunaError(.invalidArgument,
                              "unknown timing function name '\(name)'; valid names: \(names.joined(separator: ", "))")
        }
    }

    public var controlPoints: (Double, Double, Double, Double) { (c1x, c1y, c2x, c2y) }

    /// -getControlPointAtIndex:values: — 0 is (0,0), 1 and 2 the control points, 3 is (1,1).
    public func controlPoint(_ index: Int) throws -> Point {
        switch index {
        case 0: return Point(0, 0)
        case 1: return Point(c1x, c1y)
        case 2: return Point(c2x, c2y)
        case 3: return Point(1, 1)
        default:
            throw CalunaError(.invalidArgument, "timing function control point index must be 0...3, got \(index)")
        }
    }

    /// Progress at time fraction x (clamped to [0, 1]; NaN counts as 0).
    /// f(0) = 0 and f(1) = 1 exactly; the identity curve returns x exactly.
    public func evaluate(_ x: Double) -> Double { curve.solver.evaluate(x) }

    public var description: String {
        name ?? "(\(fmt(c1x)), \(fmt(c1y)), \(fmt(c2x)), \(fmt(c2y)))"
    }

    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.c1x == b.c1x && a.c1y == b.c1y && a.c2x == b.c2x && a.c2y == b.c2y
    }

    public func hash(into h: inout Hasher) {
        h.combine(c1x); h.combine(c1y); h.combine(c2x); h.combine(c2y)
    }
}
