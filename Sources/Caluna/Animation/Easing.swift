import Foundation

/// Robert Penner's easing equations (http://www.robertpenner.com/easing) as
/// pure functions of the time fraction t in [0, 1] with begin 0, change 1 and
/// duration 1 (spec ch10 §1.1.7). They are written from the published
/// formulas. Inputs outside [0, 1] are not clamped: the formulas extrapolate.
///
/// The book prints two of them, and its versions win where they differ:
/// `quadraticEaseInOut` is written exactly as the book writes it, and
/// `bounceEaseOut` uses the book's coefficients, which are NOT Penner's
/// original bounce (rebound minima 0.7, 0.91, 0.973 instead of 0.75, 0.9375,
/// 0.984375). Penner's original is kept as `pennerBounceEaseOut`.
///
/// Endpoints: every function maps 0 → 0 and 1 → 1 to within 1e-9. Some are
/// not exact in double arithmetic (e.g. bounceEaseOut(1) = 1.0000000000000018,
/// as the spec notes); the exponential and elastic functions special-case the
/// endpoints, as Penner's originals do, because 2^-10 ≠ 0.
public enum Easing {
    public static func linear(_ t: Double) -> Double { t }

    // MARK: Polynomial

    public static func quadraticEaseIn(_ t: Double) -> Double { t * t }
    public static func quadraticEaseOut(_ t: Double) -> Double { -(t * (t - 2)) }
    /// The book's form: t < 0.5 ? 2t² : −2t² + 4t − 1.
    public static func quadraticEaseInOut(_ t: Double) -> Double {
        t < 0.5 ? 2 * t * t : (-2 * t * t) + (4 * t) - 1
    }

    public static func cubicEaseIn(_ t: Double) -> Double { t * t * t }
    public static func cubicEaseOut(_ t: Double) -> Double { let u = t - 1; return u * u * u + 1 }
    public static func cubicEaseInOut(_ t: Double) -> Double {
        if t < 0.5 { return 4 * t * t * t }
        let u = 2 * t - 2
        return 0.5 * u * u * u + 1
    }

    public static func quarticEaseIn(_ t: Double) -> Double { t * t * t * t }
    public static func quarticEaseOut(_ t: Double) -> Double { let u = t - 1; return 1 - u * u * u * u }
    public static func quarticEaseInOut(_ t: Double) -> Double {
        if t < 0.5 { return 8 * t * t * t * t }
        let u = t - 1
        return 1 - 8 * u * u * u * u
    }

    public static func quinticEaseIn(_ t: Double) -> Double { t * t * t * t * t }
    public static func quinticEaseOut(_ t: Double) -> Double { let u = t - 1; return u * u * u * u * u + 1 }
    public static func quinticEaseInOut(_ t: Double) -> Double {
        if t < 0.5 { return 16 * t * t * t * t * t }
        let u = 2 * t - 2
        return 0.5 * u * u * u * u * u + 1
    }

    // MARK: Sine, circular, exponential

    public static func sineEaseIn(_ t: Double) -> Double { 1 - cos(t * .pi / 2) }
    public static func sineEaseOut(_ t: Double) -> Double { sin(t * .pi / 2) }
    public static func sineEaseInOut(_ t: Double) -> Double { 0.5 * (1 - cos(t * .pi)) }

    public static func circularEaseIn(_ t: Double) -> Double { 1 - (1 - t * t).squareRoot() }
    public static func circularEaseOut(_ t: Double) -> Double { ((2 - t) * t).squareRoot() }
    public static func circularEaseInOut(_ t: Double) -> Double {
        if t < 0.5 { return 0.5 * (1 - (1 - 4 * t * t).squareRoot()) }
        return 0.5 * ((-(2 * t - 3) * (2 * t - 1)).squareRoot() + 1)
    }

    public static func exponentialEaseIn(_ t: Double) -> Double { t == 0 ? 0 : pow(2, 10 * (t - 1)) }
    public static func exponentialEaseOut(_ t: Double) -> Double { t == 1 ? 1 : 1 - pow(2, -10 * t) }
    public static func exponentialEaseInOut(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        if t < 0.5 { return 0.5 * pow(2, 20 * t - 10) }
        return 1 - 0.5 * pow(2, -20 * t + 10)
    }

    // MARK: Elastic (amplitude 1; period 0.3, or 0.45 for in-out, as Penner's defaults)

    public static func elasticEaseIn(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let p = 0.3, s = p / 4
        return -(pow(2, 10 * (t - 1)) * sin((t - 1 - s) * 2 * .pi / p))
    }

    public static func elasticEaseOut(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let p = 0.3, s = p / 4
        return pow(2, -10 * t) * sin((t - s) * 2 * .pi / p) + 1
    }

    public static func elasticEaseInOut(_ t: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let p = 0.45, s = p / 4
        let u = 2 * t - 1  // time relative to the midpoint, in half-durations
        if u < 0 { return -0.5 * pow(2, 10 * u) * sin((u - s) * 2 * .pi / p) }
        return 0.5 * pow(2, -10 * u) * sin((u - s) * 2 * .pi / p) + 1
    }

    // MARK: Back (overshoot s = 1.70158, about 10 %; in-out scales it by 1.525)

    public static func backEaseIn(_ t: Double) -> Double {
        let s = 1.70158
        return t * t * ((s + 1) * t - s)
    }

    public static func backEaseOut(_ t: Double) -> Double {
        let s = 1.70158, u = t - 1
        return u * u * ((s + 1) * u + s) + 1
    }

    public static func backEaseInOut(_ t: Double) -> Double {
        let s = 1.70158 * 1.525
        let u = 2 * t
        if u < 1 { return 0.5 * (u * u * ((s + 1) * u - s)) }
        let v = u - 2
        return 0.5 * (v * v * ((s + 1) * v + s) + 2)
    }

    // MARK: Bounce

    /// The book's bounceEaseOut (ch10 §1.1.7), coefficients verbatim. Each
    /// parabola touches 1 at the breakpoints 4/11, 8/11 and 9/10.
    public static func bounceEaseOut(_ t: Double) -> Double {
        if t < 4 / 11.0 { return (121 * t * t) / 16.0 }
        if t < 8 / 11.0 { return (363 / 40.0 * t * t) - (99 / 10.0 * t) + 17 / 5.0 }
        if t < 9 / 10.0 { return (4356 / 361.0 * t * t) - (35442 / 1805.0 * t) + 16061 / 1805.0 }
        return (54 / 5.0 * t * t) - (513 / 25.0 * t) + 268 / 25.0
    }

    public static func bounceEaseIn(_ t: Double) -> Double { 1 - bounceEaseOut(1 - t) }

    public static func bounceEaseInOut(_ t: Double) -> Double {
        t < 0.5 ? 0.5 * bounceEaseIn(2 * t) : 0.5 * bounceEaseOut(2 * t - 1) + 0.5
    }

    /// Penner's original bounce, for comparison only: breakpoints 1/2.75,
    /// 2/2.75, 2.5/2.75 and rebound minima 0.75, 0.9375, 0.984375. The book's
    /// `bounceEaseOut` is a different curve; book-derived tests use that one.
    public static func pennerBounceEaseOut(_ t: Double) -> Double {
        let k = 7.5625
        if t < 1 / 2.75 { return k * t * t }
        if t < 2 / 2.75 { let u = t - 1.5 / 2.75; return k * u * u + 0.75 }
        if t < 2.5 / 2.75 { let u = t - 2.25 / 2.75; return k * u * u + 0.9375 }
        let u = t - 2.625 / 2.75
        return k * u * u + 0.984375
    }

    // MARK: Lookup for the bindings

    /// Every function by name, in a stable order (family by family, In/Out/InOut).
    public static let all: [(name: String, function: (Double) -> Double)] = [
        ("linear", linear),
        ("quadraticEaseIn", quadraticEaseIn), ("quadraticEaseOut", quadraticEaseOut),
        ("quadraticEaseInOut", quadraticEaseInOut),
        ("cubicEaseIn", cubicEaseIn), ("cubicEaseOut", cubicEaseOut), ("cubicEaseInOut", cubicEaseInOut),
        ("quarticEaseIn", quarticEaseIn), ("quarticEaseOut", quarticEaseOut),
        ("quarticEaseInOut", quarticEaseInOut),
        ("quinticEaseIn", quinticEaseIn), ("quinticEaseOut", quinticEaseOut),
        ("quinticEaseInOut", quinticEaseInOut),
        ("sineEaseIn", sineEaseIn), ("sineEaseOut", sineEaseOut), ("sineEaseInOut", sineEaseInOut),
        ("circularEaseIn", circularEaseIn), ("circularEaseOut", circularEaseOut),
        ("circularEaseInOut", circularEaseInOut),
        ("exponentialEaseIn", exponentialEaseIn), ("exponentialEaseOut", exponentialEaseOut),
        ("exponentialEaseInOut", exponentialEaseInOut),
        ("elasticEaseIn", elasticEaseIn), ("elasticEaseOut", elasticEaseOut),
        ("elasticEaseInOut", elasticEaseInOut),
        ("backEaseIn", backEaseIn), ("backEaseOut", backEaseOut), ("backEaseInOut", backEaseInOut),
        ("bounceEaseIn", bounceEaseIn), ("bounceEaseOut", bounceEaseOut), ("bounceEaseInOut", bounceEaseInOut),
        ("pennerBounceEaseOut", pennerBounceEaseOut),
    ]

    /// The function called `name` in `all`, or nil.
    public static func named(_ name: String) -> ((Double) -> Double)? {
        all.first { $0.name == name }?.function
    }
}
