/// The resolved keyframes of a KeyframeAnimation: values (or path segments),
/// their times, per-segment timing functions, and the calculation mode.
/// Built once when the animation is attached; evaluated every frame.
struct KeyframeTrack {
    typealias Mode = KeyframeAnimation.CalculationMode

    let values: [Value]
    /// For `path` animations: one geometric segment per keyframe interval.
    let segments: [PathSegment]?
    /// Start time (0…1) of each keyframe; for discrete mode a value holds
    /// from its time to the next one.
    let times: [Double]
    let functions: [TimingFunction?]
    let mode: Mode
    /// Kochanek–Bartels tangents (outgoing, incoming) per keyframe, cubic modes only.
    let tangents: [(out: [Double], in: [Double])]?

    init(_ a: KeyframeAnimation) throws {
        let name = a.className
        mode = a.calculationMode
        if let path = a.path {
            let kind = try a.valueKind()
            guard kind == .point else {
                throw CalunaError(.typeMismatch, "\(name).path animates a point key path; '\(a.keyPath ?? "")' is \(kind.expectation)")
            }
            let segs = PathSegment.segments(of: path)
            guard !segs.isEmpty else { throw CalunaError.invalid("\(name).path has no segments to follow") }
            segments = segs
            values = [.point(segs[0].start)] + segs.map { .point($0.end) }
        } else {
            guard let vs = a.values, !vs.isEmpty else {
                throw CalunaError.invalid("\(name) needs values (or a path)")
            }
            let kind = try a.valueKind()
            for (i, v) in vs.enumerated() where v.kind != kind {
                throw CalunaError(.typeMismatch, "\(name).values[\(i + 1)] for '\(a.keyPath ?? "")' expects \(kind.expectation), got \(v.kind.expectation)")
            }
            segments = nil
            values = vs
        }
        let n = values.count
        if mode == .paced || mode == .cubicPaced {
            times = try KeyframeTrack.pacedTimes(values, segments)
            functions = Array(repeating: nil, count: max(n - 1, 0))
        } else {
            times = try KeyframeTrack.times(a.keyTimes, count: n, discrete: mode == .discrete, name)
            // Apple asks for exactly n − 1 functions; missing ones are linear,
            // extra ones are ignored (documented in the conformance table).
            let fs = a.timingFunctions ?? []
            functions = (0..<max(n - 1, 0)).map { $0 < fs.count ? fs[$0] : nil }
        }
        // Cubic modes need every keyframe as a vector of numbers.
        let vectors = values.compactMap(Interpolation.components)
        if mode == .cubic || mode == .cubicPaced, segments == nil, n > 1, vectors.count == n {
            tangents = KeyframeTrack.kochanekBartels(vectors, a.tensionValues, a.continuityValues, a.biasValues)
        } else {
            tangents = nil
        }
    }

    static func times(_ given: [Double]?, count n: Int, discrete: Bool, _ name: String) throws -> [Double] {
        guard let kt = given else {
            let steps = Double(discrete ? n : max(n - 1, 1))
            return (0..<n).map { Double($0) / steps }
        }
        guard kt.count == n || (discrete && kt.count == n + 1) else {
            throw CalunaError.invalid("\(name).keyTimes has \(kt.count) entries for \(n) keyframes (one per keyframe\(discrete ? ", or one more in discrete mode" : ""))")
        }
        var last = 0.0
        for (i, t) in kt.enumerated() {
            guard t.isFinite, t >= 0, t <= 1, t >= last else {
                throw CalunaError.invalid("\(name).keyTimes must rise from 0 to 1 (entry \(i + 1) is \(t))")
            }
            last = t
        }
        return kt
    }

    /// Paced: each interval's share of time is its share of the total distance.
    static func pacedTimes(_ values: [Value], _ segments: [PathSegment]?) throws -> [Double] {
        let n = values.count
        guard n > 1 else { return [0] }
        var lengths: [Double] = []
        if let segments {
            lengths = segments.map { $0.length }
        } else {
            for i in 1..<n { lengths.append(try Interpolation.distance(values[i - 1], values[i])) }
        }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return (0..<n).map { Double($0) / Double(n - 1) } }
        var t = [0.0], acc = 0.0
        for l in lengths { acc += l; t.append(acc / total) }
        t[n - 1] = 1
        return t
    }

    /// Tangents of a Kochanek–Bartels spline (Catmull-Rom when all are 0);
    /// the ends repeat their keyframe, so the curve starts and stops flat.
    static func kochanekBartels(_ p: [[Double]], _ tension: [Double]?, _ continuity: [Double]?, _ bias: [Double]?) -> [(out: [Double], in: [Double])] {
        let n = p.count
        return (0..<n).map { i in
            let t = tension.flatMap { i < $0.count ? $0[i] : nil } ?? 0
            let c = continuity.flatMap { i < $0.count ? $0[i] : nil } ?? 0
            let b = bias.flatMap { i < $0.count ? $0[i] : nil } ?? 0
            let prev = p[max(i - 1, 0)], cur = p[i], next = p[min(i + 1, n - 1)]
            var out = [Double](), inn = [Double]()
            for k in cur.indices {
                let d0 = cur[k] - prev[k], d1 = next[k] - cur[k]
                out.append((1 - t) * (1 + b) * (1 + c) / 2 * d0 + (1 - t) * (1 - b) * (1 - c) / 2 * d1)
                inn.append((1 - t) * (1 + b) * (1 - c) / 2 * d0 + (1 - t) * (1 - b) * (1 + c) / 2 * d1)
            }
            return (out, inn)
        }
    }

    /// The interval holding progress `f` and the eased fraction within it.
    func locate(_ f: Double) -> (index: Int, u: Double) {
        let n = values.count
        if mode == .discrete {
            var i = 0
            while i + 1 < times.count, times[i + 1] <= f { i += 1 }
            return (min(i, n - 1), 0)
        }
        guard n > 1 else { return (0, 0) }
        var i = 0
        while i + 2 < n, times[i + 1] <= f { i += 1 }
        // Progress past the last key time (keyTimes ending before 1) holds
        // the last value; before the first, the first.
        let t0 = times[i], t1 = times[i + 1]
        var u = t1 > t0 ? (f - t0) / (t1 - t0) : 1
        u = min(max(u, 0), 1)
        if let fn = functions[i] { u = fn.evaluate(u) }
        return (i, u)
    }

    /// The value at progress `f` (0…1), and for paths the tangent angle.
    func value(at f: Double) throws -> (Value, angle: Double?) {
        let (i, u) = locate(f)
        if mode == .discrete || values.count == 1 { return (values[i], segments.map { $0[min(i, $0.count - 1)].angle(at: 0) }) }
        if let segments {
            let s = segments[i]
            let w = (mode == .paced || mode == .cubicPaced) ? s.parameter(atLengthFraction: u) : u
            return (.point(s.point(at: w)), s.angle(at: w))
        }
        if let tangents, let a = Interpolation.components(values[i]), let b = Interpolation.components(values[i + 1]) {
            let m0 = tangents[i].out, m1 = tangents[i + 1].in
            let u2 = u * u, u3 = u2 * u
            let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
            let c = a.indices.map { h00 * a[$0] + h10 * m0[$0] + h01 * b[$0] + h11 * m1[$0] }
            if let v = Interpolation.value(components: c, like: values[i]) { return (v, nil) }
        }
        return (try Interpolation.interpolate(values[i], values[i + 1], u), nil)
    }

    var first: Value { values[0] }
    var last: Value { values[values.count - 1] }
}
