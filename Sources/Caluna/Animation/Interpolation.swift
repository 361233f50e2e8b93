/// Value arithmetic for animations, once per value kind: interpolation,
/// the "addition" behind byValue / additive / cumulative, scaling by a cycle
/// count, distance (paced keyframes) and flat component vectors (cubic
/// keyframes). Properties never interpolate themselves.
///
/// Kinds:
/// - number, point, size, rect: per component; f outside 0…1 extrapolates.
/// - colour: per straight (un-premultiplied) RGBA component, clamped to 0…1.
///   Nil on one side is the other colour made transparent, as Core Animation
///   fades from and to a clear colour.
/// - transform: by decomposition (translation, scale, skew, perspective
///   linearly, rotation by shortest-path slerp); element-wise when either side
///   has no decomposition (singular).
/// - path: point by point when both have the same elements in the same order.
/// - array: element by element when the counts match (gradient colours,
///   locations).
/// - anything else, a path or array whose structure differs, or nil against a
///   non-colour: discrete, `f < 0.5 ? a : b` (the switch happens at the middle).
/// - two different non-nil kinds: CalunaError(.typeMismatch).
public enum Interpolation {
    /// One component: x at f = 0, y at f = 1, extrapolated outside.
    @inline(__always)
    public static func lerp(_ x: Double, _ y: Double, _ f: Double) -> Double { x + (y - x) * f }

    /// Up to four components at once (the typed evaluation of numbers,
    /// points and rects, AnimationEvaluation.TypedBasic): the same per
    /// component as `interpolate` and `add`, `subtract`, `multiply` on
    /// those kinds.
    @inline(__always)
    static func lerp(_ x: SIMD4<Double>, _ y: SIMD4<Double>, _ f: Double) -> SIMD4<Double> { x + (y - x) * f }

    public static func interpolate(_ a: Value, _ b: Value, _ f: Double) throws -> Value {
        func l(_ x: Double, _ y: Double) -> Double { lerp(x, y, f) }
        func lp(_ p: Point, _ q: Point) -> Point { Point(l(p.x, q.x), l(p.y, q.y)) }
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(l(x, y))
        case let (.point(p), .point(q)): return .point(lp(p, q))
        case let (.size(s), .size(t)): return .size(Size(l(s.width, t.width), l(s.height, t.height)))
        case let (.rect(r), .rect(s)):
            return .rect(Rect(l(r.origin.x, s.origin.x), l(r.origin.y, s.origin.y),
                              l(r.size.width, s.size.width), l(r.size.height, s.size.height)))
        case let (.color(c), .color(d)):
            return .color(Color(red: l(c.red, d.red), green: l(c.green, d.green), blue: l(c.blue, d.blue),
                                alpha: l(c.alpha, d.alpha)).clamped)
        case let (.null, .color(d)):
            return try interpolate(.color(Color(red: d.red, green: d.green, blue: d.blue, alpha: 0)), b, f)
        case let (.color(c), .null):
            return try interpolate(a, .color(Color(red: c.red, green: c.green, blue: c.blue, alpha: 0)), f)
        case let (.transform(s), .transform(t)):
            if let ds = DecomposedTransform(s), let dt = DecomposedTransform(t) {
                return .transform(DecomposedTransform.interpolate(ds, dt, f).transform)
            }
            return .transform(Transform3D(elements: zip(s.elements, t.elements).map { l($0, $1) }) ?? t)
        case let (.path(p), .path(q)):
            guard p.elements.count == q.elements.count else { break }
            var out: [Path.Element] = []
            out.reserveCapacity(p.elements.count)
            for (e, g) in zip(p.elements, q.elements) {
                switch (e, g) {
                case let (.move(x), .move(y)): out.append(.move(lp(x, y)))
                case let (.line(x), .line(y)): out.append(.line(lp(x, y)))
                case let (.quad(x1, x2), .quad(y1, y2)): out.append(.quad(lp(x1, y1), lp(x2, y2)))
                case let (.cubic(x1, x2, x3), .cubic(y1, y2, y3)):
                    out.append(.cubic(lp(x1, y1), lp(x2, y2), lp(x3, y3)))
                case (.close, .close): out.append(.close)
                default: return f < 0.5 ? a : b
                }
            }
            return .path(Path(out))
        case let (.array(x), .array(y)):
            guard x.count == y.count else { break }
            return .array(try zip(x, y).map { try interpolate($0, $1, f) })
        default:
            try requireSameKind(a, b, "interpolate")
        }
        return f < 0.5 ? a : b
    }

    /// a "plus" b. Numbers, points, sizes, rects add per component; colours
    /// per component, clamped. Transforms concatenate with a first:
    /// `add(model, delta) = model.concatenating(delta)` — the delta is applied
    /// after the model transform (in the parent's space), the order in which
    /// Core Animation stacks additive transform animations on the underlying
    /// value. Arrays of equal length add element-wise.
    public static func add(_ a: Value, _ b: Value) throws -> Value {
        if case let (.transform(s), .transform(t)) = (a, b) { return .transform(s.concatenating(t)) }
        return try combine(a, b, "add", +)
    }

    /// a "minus" b, the inverse of `add`: add(subtract(a, b), b) == a (for
    /// colours only while no component is clamped). Transforms:
    /// `a.concatenating(b⁻¹)`; a singular b throws invalidArgument.
    public static func subtract(_ a: Value, _ b: Value) throws -> Value {
        if case let (.transform(s), .transform(t)) = (a, b) {
            guard let inv = t.inverted() else {
                throw CalunaError(.invalidArgument, "cannot subtract a singular transform (it has no inverse)")
            }
            return .transform(s.concatenating(inv))
        }
        return try combine(a, b, "subtract", -)
    }

    /// a "times" k, for cumulative animations (the value × completed cycles).
    /// Transforms: for a whole k with |k| ≤ 2²⁰, a concatenated with itself
    /// |k| times (inverted first when k < 0; k = 0 is the identity); for any
    /// other k, the decomposition extrapolated from the identity (translation
    /// and skew × k, rotation angle × k, scale 1 + (s − 1)·k).
    public static func multiply(_ a: Value, _ k: Double) throws -> Value {
        guard k.isFinite else { throw CalunaError(.invalidArgument, "cannot multiply a value by \(k)") }
        if case .transform(let t) = a {
            if k == k.rounded(), abs(k) <= 1_048_576 {
                var base = t
                if k < 0 {
                    guard let inv = t.inverted() else {
                        throw CalunaError(.invalidArgument, "cannot raise a singular transform to a negative power")
                    }
                    base = inv
                }
                var n = Int(abs(k)), result = Transform3D.identity
                while n > 0 {  // square and multiply: powers of one matrix commute
                    if n & 1 == 1 { result = result.concatenating(base) }
                    base = base.concatenating(base)
                    n >>= 1
                }
                return .transform(result)
            }
            return try interpolate(.transform(.identity), a, k)
        }
        if case .array(let xs) = a { return .array(try xs.map { try multiply($0, k) }) }
        guard let c = components(a), let v = value(components: c.map { $0 * k }, like: a) else {
            throw CalunaError(.notSupported, "cannot multiply \(a.kind.expectation) (it has no arithmetic)")
        }
        return v
    }

    /// How far apart a and b are, for paced keyframes: the Euclidean distance
    /// over the components (numbers, points, sizes, rects, colours; arrays
    /// element by element). Transforms: over the decomposition,
    /// √(|Δtranslation|² + θ² + |Δscale|²) with θ the angle in radians of
    /// the rotation between them (mixed units, but monotone in each); the 16
    /// elements when either side is singular.
    public static func distance(_ a: Value, _ b: Value) throws -> Double {
        switch (a, b) {
        case let (.transform(s), .transform(t)):
            guard let ds = DecomposedTransform(s), let dt = DecomposedTransform(t) else {
                return euclidean(s.elements, t.elements)
            }
            let dtr = ds.translation - dt.translation, dsc = ds.scale - dt.scale
            let theta = DecomposedTransform.Quaternion.angle(ds.rotation, dt.rotation)
            return (dtr.dot(dtr) + theta * theta + dsc.dot(dsc)).squareRoot()
        case let (.array(x), .array(y)) where x.count == y.count:
            return try zip(x, y).map { try distance($0, $1) }.reduce(0) { $0 + $1 * $1 }.squareRoot()
        default:
            try requireSameKind(a, b, "measure the distance between")
            guard let x = components(a), let y = components(b), x.count == y.count else {
                throw CalunaError(.notSupported, "cannot measure a distance between values of kind \(a.kind.rawValue)")
            }
            return euclidean(x, y)
        }
    }

    /// The flat components of a vector-like value: number [v], point [x, y],
    /// size [w, h], rect [x, y, w, h], colour [r, g, b, a]; nil otherwise.
    public static func components(_ v: Value) -> [Double]? {
        switch v {
        case .number(let n): return [n]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c): return [c.red, c.green, c.blue, c.alpha]
        default: return nil
        }
    }

    /// The inverse of `components`: a value of `like`'s kind, or nil for a
    /// wrong count or a kind without components. Colours are clamped to 0…1
    /// (a Catmull-Rom curve may overshoot).
    public static func value(components c: [Double], like: Value) -> Value? {
        switch (like, c.count) {
        case (.number, 1): return .number(c[0])
        case (.point, 2): return .point(Point(c[0], c[1]))
        case (.size, 2): return .size(Size(c[0], c[1]))
        case (.rect, 4): return .rect(Rect(c[0], c[1], c[2], c[3]))
        case (.color, 4): return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]).clamped)
        default: return nil
        }
    }

    // MARK: helpers

    private static func combine(_ a: Value, _ b: Value, _ verb: String,
                                _ op: (Double, Double) -> Double) throws -> Value {
        try requireSameKind(a, b, verb)
        if case let (.array(x), .array(y)) = (a, b) {
            guard x.count == y.count else {
                throw CalunaError(.typeMismatch, "cannot \(verb) arrays of \(x.count) and \(y.count) elements")
            }
            return .array(try zip(x, y).map { try combine($0, $1, verb, op) })
        }
        guard let x = components(a), let y = components(b),
              let v = value(components: zip(x, y).map { op($0, $1) }, like: a) else {
            throw CalunaError(.notSupported,
                              "cannot \(verb) values of kind \(a.kind.rawValue) (they have no arithmetic)")
        }
        return v
    }

    private static func requireSameKind(_ a: Value, _ b: Value, _ verb: String) throws {
        guard a.kind == b.kind || a.kind == .null || b.kind == .null else {
            throw CalunaError(.typeMismatch, "cannot \(verb) \(a.kind.expectation) and \(b.kind.expectation)")
        }
    }

    private static func euclidean(_ x: [Double], _ y: [Double]) -> Double {
        zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
