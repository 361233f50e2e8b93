import Foundation

/// The physics of CASpringAnimation: a damped harmonic oscillator
/// m·x″ + c·x′ + k·(x − 1) = 0 with x(0) = 0 and x′(0) = initialVelocity, so
/// x is the fraction of the way from the start value (0) to the target (1).
///
/// With ω0 = √(k/m), ζ = c / (2√(km)) and β = ζ·ω0 = c / (2m), the
/// displacement u = x − 1 has a closed form in each regime:
/// - under-damped (ζ < 1): u = e^(−βt)·(−cos ωd·t + (v0 − β)·sin(ωd·t)/ωd), ωd = ω0√(1 − ζ²)
/// - critically damped (ζ = 1): u = e^(−βt)·(−1 + (v0 − β)·t)
/// - over-damped (ζ > 1): u = e^(−βt)·(−cosh γt + (v0 − β)·sinh(γt)/γ), γ = ω0√(ζ² − 1)
///
/// Settling rule (`settlingDuration`): the earliest time after which an upper
/// bound ("envelope") of |1 − x| stays below `settlingTolerance` = 0.001 for
/// good. The defaults (m 1, k 100, c 10, v0 0) settle after ≈ 1.410319 s.
public struct SpringCurve: Equatable, Sendable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    /// In fractions of the distance per second; positive is toward the target.
    public let initialVelocity: Double

    /// CASpringAnimation's defaults: mass 1, stiffness 100, damping 10, velocity 0.
    public static let standard = SpringCurve()

    /// The defaults, without `try` (they are valid). `SpringCurve()` picks this
    /// overload; any explicit argument picks the validating one.
    public init() {
        mass = 1; stiffness = 100; damping = 10; initialVelocity = 0
    }

    /// |1 − x| below which the spring counts as settled.
    public static let settlingTolerance = 0.001

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                initialVelocity: Double = 0) throws {
        func check(_ name: String, _ v: Double, _ ok: Bool, _ rule: String) throws {
            guard v.isFinite, ok else {
                throw CalunaError(.invalidArgument, "spring \(name) must be \(rule), got \(v)")
            }
        }
        try check("mass", mass, mass > 0, "finite and > 0")
        try check("stiffness", stiffness, stiffness > 0, "finite and > 0")
        try check("damping", damping, damping >= 0, "finite and >= 0")
        try check("initialVelocity", initialVelocity, true, "finite")
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
        self.initialVelocity = initialVelocity
    }

    /// Undamped natural angular frequency ω0 = √(k/m), in rad/s.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2√(km)): < 1 oscillates, 1 is critical, > 1 creeps.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// ζ this close to 1 is treated as critical, where the ωd/γ forms divide by ~0.
    private static let criticalBand = 1e-12

    /// The fraction x(t) at t seconds of real (not normalised) time; 0 for t ≤ 0.
    public func fraction(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let w0 = naturalFrequency, zeta = dampingRatio
        let beta = damping / (2 * mass)
        let b = initialVelocity - beta  // the coefficient of the sin/sinh/t term
        let u: Double
        if abs(zeta - 1) <= Self.criticalBand {
            u = exp(-beta * t) * (-1 + b * t)
        } else if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            u = exp(-beta * t) * (-cos(wd * t) + b * sin(wd * t) / wd)
        } else {
            // e^(−βt)·cosh γt and e^(−βt)·sinh γt rewritten with one decaying
            // exponential and expm1: no overflow for large t and no cancellation
            // for γ → 0 (near-critical).
            let g = w0 * (zeta * zeta - 1).squareRoot()
            let slow = exp((g - beta) * t), fast = exp(-2 * g * t)
            let coshPart = slow * (1 + fast) / 2
            let sinhPart = -slow * expm1(-2 * g * t) / 2
            u = -coshPart + b * sinhPart / g
        }
        return 1 + u
    }

    /// Seconds until the spring stays within `settlingTolerance` of the target,
    /// judged by the envelope of |1 − x| (conservative: the true last excursion
    /// can only be earlier):
    /// - under-damped: the exponential envelope R·e^(−βt), R = √(1 + ((v0 − β)/ωd)²),
    ///   solved in closed form;
    /// - critical: e^(−βt)·(1 + |v0 − β|·t), exact when v0 ≤ β;
    /// - over-damped: the smaller settling time of two valid bounds,
    ///   |C1|e^(r1 t) + |C2|e^(r2 t) (tight when ζ is well above 1) and
    ///   e^(−(β−γ)t)·(1 + |v0 − β|·t) (tight near ζ = 1).
    /// 0 when the bound is already inside the tolerance at t = 0 (never, since
    /// x(0) = 0). Undamped springs (damping 0) never settle: `.infinity`.
    public var settlingDuration: Double {
        guard damping > 0 else { return .infinity }
        let eps = Self.settlingTolerance
        let w0 = naturalFrequency, zeta = dampingRatio
        let beta = damping / (2 * mass)
        let b = abs(initialVelocity - beta)
        if zeta < 1 && abs(zeta - 1) > Self.criticalBand {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let r = (1 + (b / wd) * (b / wd)).squareRoot()
            return max(0, log(r / eps) / beta)
        }
        let g = zeta > 1 ? w0 * (zeta * zeta - 1).squareRoot() : 0
        let rate = beta - g  // the slow decay rate, > 0
        // e^(−rate·t)(1 + b·t) rises until 1/rate − 1/b, then falls.
        let peak = b > 0 ? max(0, 1 / rate - 1 / b) : 0
        var settle = Self.firstTimeBelow(eps, from: peak) { t in exp(-rate * t) * (1 + b * t) }
        if g > 0 {
            let r1 = -beta + g, r2 = -beta - g
            let c1 = (initialVelocity + r2) / (r1 - r2), c2 = -1 - c1
            settle = min(settle, Self.firstTimeBelow(eps, from: 0) { t in
                abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
            })
        }
        return settle
    }

    /// The time at which `f`, decreasing on [t0, ∞) toward 0, falls to `eps`:
    /// grow an upper bracket by doubling, then bisect to double precision.
    private static func firstTimeBelow(_ eps: Double, from t0: Double, _ f: (Double) -> Double) -> Double {
        if f(t0) <= eps { return t0 }
        var lo = t0, step = 1.0
        var hi = t0 + step
        while f(hi) > eps {
            lo = hi; step *= 2; hi = t0 + step
            if !hi.isFinite { return .infinity }
        }
        var iterations = 0
        while hi - lo > 1e-12 * max(1, hi) && iterations < 200 {
            iterations += 1
            let mid = 0.5 * (lo + hi)
            if f(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }
}
