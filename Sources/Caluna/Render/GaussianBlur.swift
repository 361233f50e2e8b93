import CCairo
import Glibc

/// The shadow blur (spec D8): a Gaussian with σ = shadowRadius points (the
/// convention design tools use: their "blur" is 2 × shadowRadius and σ is
/// half of it), cut at 3σ; the only blur the compositor has (shadows, also
/// inside rasterised and projected subtrees).
///
/// Separable: rows, then columns, each a 1D blur of a line. Up to
/// σ = `exactLimit` the kernel's taps are summed (at most 19 per pixel).
/// Beyond, the kernel is written as a short cosine series over its window
/// (`cosineTerms` terms of the discrete Fourier series of the cut kernel)
/// and each term's sum over the window slides along the line with one
/// complex rotation per pixel (a sliding DFT): the cost per pixel does not
/// depend on σ, and the result stays within `tolerance` of the summed taps
/// for any input (the series' L1 error is below 0.65 levels of 255 for every
/// σ > 3; GaussianBlurTests measures it).
///
/// Only what is asked is computed: the caller gives the silhouette's pixels
/// and the pixels it wants back (the part of the shadow the target shows);
/// the work is O(input + output + lines × σ).
enum GaussianBlur {
    /// σ (device pixels) up to which the kernel's taps are summed.
    static let exactLimit = 3.0
    /// Terms of the cosine series after the constant one (four SIMD lanes).
    static let cosineTerms = 4
    /// The documented bound: the largest difference (8-bit levels) between
    /// this blur and the summed 3σ kernel (docs/lua.md "Shadows", GaussianBlurTests).
    static let tolerance = 1

    /// How a line is blurred.
    enum Method: Equatable { case exact, cosines }

    /// The method for σ, or `forced` (tests compare the two).
    static func method(sigma: Double, forced: Method? = nil) -> Method {
        forced ?? (sigma <= exactLimit ? .exact : .cosines)
    }

    /// The widest blur drawn, σ in device pixels: a shadow scaled past it
    /// (a huge transform) is blurred at this σ. Three times it is twice an
    /// image's side, so what lies further cannot reach a target.
    static let maximumSigma = Double(Image.maximumSide) * 2 / 3

    /// σ as blurred: at most `maximumSigma`, and 0 when not a number.
    static func clamped(sigma: Double) -> Double { sigma.isNaN ? 0 : min(sigma, maximumSigma) }

    /// Pixels a blur of σ device pixels spreads beyond its source: 3σ
    /// rounded up; 0 (no blur) for σ ≤ 0.01.
    static func margin(sigma: Double) -> Int {
        let s = clamped(sigma: sigma)
        return s > 0.01 ? Int((3 * s).rounded(.up)) : 0
    }

    /// The normalised kernel, 2·margin + 1 taps (in Double: the cosine
    /// series is taken from it).
    static func kernel(sigma: Double) -> [Double] {
        let r = margin(sigma: sigma)
        let w = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }

    /// The kernel k(t), |t| ≤ R, as c₀ + Σ cⱼ·cos(θⱼ·t) with θⱼ = 2πj/(2R+1):
    /// the first terms of its discrete Fourier series over the window.
    static func cosineSeries(sigma: Double) -> [(c: Double, theta: Double)] {
        let k = kernel(sigma: sigma), r = k.count / 2, period = Double(k.count)
        return (0...min(cosineTerms, r)).map { j in
            let theta = 2 * Double.pi * Double(j) / period
            var sum = 0.0
            for (i, w) in k.enumerated() { sum += w * cos(theta * Double(i - r)) }
            return (c: (j == 0 ? 1 : 2) * sum / period, theta: theta)
        }
    }

    /// An A8 bitmap whose pixel (0, 0) sits at device pixel `origin`.
    struct Plane {
        let surface: OpaquePointer
        let origin: (x: Int, y: Int)
        var width: Int { Int(cairo_image_surface_get_width(surface)) }
        var height: Int { Int(cairo_image_surface_get_height(surface)) }
    }

    /// Bytes of scratch `blur` uses beyond the two bitmaps of these sizes
    /// (width, height) (charge it first).
    static func scratchBytes(source: (Int, Int), target: (Int, Int), sigma: Double) -> Int {
        let capacity = Line.capacity(source, margin: margin(sigma: sigma))
        return 4 * (target.0 * source.1 + Line.Scratch.floats(capacity, source, target))
    }

    /// Writes into `target` the blur of `source` (zero beyond it) over the
    /// target's pixels: rows of the source first (only the target's columns),
    /// then columns. σ ≤ 0.01 copies. `reusesRepeats` false blurs a row or
    /// column like the previous one again (tests compare the two).
    static func blur(_ source: Plane, into target: Plane, sigma: Double, method forced: Method? = nil,
                     reusesRepeats: Bool = true) {
        cairo_surface_flush(source.surface)
        cairo_surface_flush(target.surface)
        defer { cairo_surface_mark_dirty(target.surface) }
        let (sw, sh, tw, th) = (source.width, source.height, target.width, target.height)
        let sStride = Int(cairo_image_surface_get_stride(source.surface))
        let tStride = Int(cairo_image_surface_get_stride(target.surface))
        guard sw > 0, sh > 0, tw > 0, th > 0, let src = cairo_image_surface_get_data(source.surface),
              let dst = cairo_image_surface_get_data(target.surface) else { return }
        let line = Line(sigma: sigma, method: sigma > 0.01 ? method(sigma: sigma, forced: forced) : nil)
        // Row pass: the source's rows, blurred along x, at the target's columns.
        let rows = UnsafeMutablePointer<Float>.allocate(capacity: tw * sh)
        defer { rows.deallocate() }
        let work = Line.Scratch(capacity: Line.capacity((sw, sh), margin: line.margin), (sw, sh), (tw, th))
        defer { work.free() }
        for y in 0..<sh {
            let s = src + y * sStride
            // A row like the one above blurs the same (the inside of a box):
            // copied, which is exact and makes a box cost its edges.
            if reusesRepeats, y > 0, memcmp(s, s - sStride, sw) == 0 {
                (rows + y * tw).update(from: rows + (y - 1) * tw, count: tw)
                continue
            }
            var any: UInt8 = 0
            for x in 0..<sw { work.input[x] = Float(s[x]); any |= s[x] }
            guard any != 0 else { (rows + y * tw).initialize(repeating: 0, count: tw); continue }
            line.blur(work.input, count: sw, at: source.origin.x, into: rows + y * tw, from: target.origin.x, count: tw, work)
        }
        // Column pass, a block of columns at a time (rows are read and
        // written a block wide, not a byte at a time down a column).
        var x0 = 0
        while x0 < tw {
            let n = min(Line.blockSize, tw - x0)
            for y in 0..<sh {
                let r = rows + y * tw + x0
                for i in 0..<n { work.columns[i * sh + y] = r[i] }
            }
            for i in 0..<n {
                let column = work.columns + i * sh, result = work.results + i * th
                // The same for a column like the last one blurred.
                if reusesRepeats, x0 + i > 0, memcmp(column, work.lastColumn, sh * 4) == 0 {
                    result.update(from: work.lastResult, count: th)
                    continue
                }
                line.blur(column, count: sh, at: source.origin.y, into: result, from: target.origin.y, count: th, work)
                work.lastColumn.update(from: column, count: sh)
                work.lastResult.update(from: result, count: th)
            }
            for y in 0..<th {
                let d = dst + y * tStride + x0
                for i in 0..<n { d[i] = UInt8(min(max(work.results[i * th + y] + 0.5, 0), 255)) }
            }
            x0 += n
        }
    }

    /// The 1D blur of one line.
    struct Line {
        static let blockSize = 16
        let margin: Int
        /// The exact kernel's taps (empty for the cosine series).
        let taps: [Float]
        /// The cosine series: the constant term's weight, then per rotating
        /// term its weight and the rotations of one step (e^−iθ) and of R
        /// steps (e^−iθR). Terms a short window lacks have weight 0.
        struct Weights {
            var c0 = 0.0
            var c = SIMD4<Double>(), stepCos = SIMD4<Double>(repeating: 1), stepSin = SIMD4<Double>()
            var reachCos = SIMD4<Double>(repeating: 1), reachSin = SIMD4<Double>()
        }
        let weights: Weights

        /// method nil: no blur (a copy).
        init(sigma: Double, method: Method?) {
            var w = Weights()
            switch method {
            case .exact?:
                taps = GaussianBlur.kernel(sigma: sigma).map { Float($0) }
            case .cosines?:
                taps = []
                let r = Double(GaussianBlur.margin(sigma: sigma))
                for (j, t) in GaussianBlur.cosineSeries(sigma: sigma).enumerated() {
                    guard j > 0 else { w.c0 = t.c; continue }
                    w.c[j - 1] = t.c
                    (w.stepCos[j - 1], w.stepSin[j - 1]) = (cos(t.theta), -sin(t.theta))
                    (w.reachCos[j - 1], w.reachSin[j - 1]) = (cos(t.theta * r), -sin(t.theta * r))
                }
            case nil:
                taps = [1]
            }
            weights = w
            margin = method == nil ? 0 : GaussianBlur.margin(sigma: sigma)
        }

        /// The longest padded line: a line of the source (width, height)
        /// with the window's reach on both sides, and more.
        static func capacity(_ source: (Int, Int), margin: Int) -> Int {
            max(source.0, source.1) + 4 * margin + 8
        }

        /// Buffers reused by every line of one blur (sizes are (width, height)).
        final class Scratch {
            let input, columns, results, padded: UnsafeMutablePointer<Float>
            /// The last column blurred and its result (a column like it is copied).
            let lastColumn, lastResult: UnsafeMutablePointer<Float>
            static func floats(_ capacity: Int, _ source: (Int, Int), _ target: (Int, Int)) -> Int {
                max(source.0, source.1) + (blockSize + 1) * (source.1 + target.1) + capacity
            }
            init(capacity: Int, _ source: (Int, Int), _ target: (Int, Int)) {
                input = .allocate(capacity: max(source.0, source.1))
                columns = .allocate(capacity: blockSize * source.1)
                results = .allocate(capacity: blockSize * target.1)
                padded = .allocate(capacity: capacity)
                lastColumn = .allocate(capacity: source.1)
                lastResult = .allocate(capacity: target.1)
            }
            func free() { for p in [input, columns, results, padded, lastColumn, lastResult] { p.deallocate() } }
        }

        /// out[i] = the blur at position o0 + i (i < m) of the values
        /// `input[j]` at positions s + j (j < n), zero elsewhere.
        func blur(_ input: UnsafePointer<Float>, count n: Int, at s: Int, into out: UnsafeMutablePointer<Float>,
                  from o0: Int, count m: Int, _ work: Scratch) {
            out.initialize(repeating: 0, count: m)
            // Where the result can be non-zero, within what is asked.
            let lo = max(o0, s - margin), hi = min(o0 + m, s + n + margin)
            guard lo < hi else { return }
            if !taps.isEmpty {
                exact(input, n, s, into: out + (lo - o0), lo, hi - lo, work.padded)
            } else {
                cosines(input, n, s, into: out + (lo - o0), lo, hi - lo, work.padded)
            }
        }

        /// `values` (positions s…s+n−1) copied into `padded` covering
        /// positions p0…p0+len−1, zero elsewhere.
        private func place(_ values: UnsafePointer<Float>, _ n: Int, _ s: Int, _ padded: UnsafeMutablePointer<Float>, _ p0: Int, _ len: Int) {
            padded.initialize(repeating: 0, count: len)
            let a = max(s, p0), b = min(s + n, p0 + len)
            if a < b { (padded + (a - p0)).update(from: values + (a - s), count: b - a) }
        }

        /// The kernel's taps summed at positions o…o+m−1.
        private func exact(_ values: UnsafePointer<Float>, _ n: Int, _ s: Int, into out: UnsafeMutablePointer<Float>,
                           _ o: Int, _ m: Int, _ padded: UnsafeMutablePointer<Float>) {
            let r = taps.count / 2
            place(values, n, s, padded, o - r, m + 2 * r)
            taps.withUnsafeBufferPointer { k in
                for i in 0..<m {
                    var sum: Float = 0
                    let p = padded + i
                    for t in 0..<k.count { sum += p[t] * k[t] }
                    out[i] = sum
                }
            }
        }

        /// The cosine series at positions o…o+m−1. Each term's window sum
        /// Zⱼ(x) = Σ f(u)·e^{iθⱼ(u−x)} over |u − x| ≤ R starts at 0 where the
        /// window holds no input (x = s − R − 1) and slides: with
        /// θⱼ(2R+1) = 2πj, Zⱼ(x+1) = e^{−iθⱼ}(Zⱼ(x) + (f(x+R+1) − f(x−R))·e^{−iθⱼR}).
        /// The blur at x is Σ cⱼ·Re Zⱼ(x). Sums are in Double (≤ 10⁵ steps).
        private func cosines(_ values: UnsafePointer<Float>, _ n: Int, _ s: Int, into out: UnsafeMutablePointer<Float>,
                             _ o: Int, _ m: Int, _ padded: UnsafeMutablePointer<Float>) {
            let r = margin, start = s - r - 1
            // padded[j] is position start − R + j: from the first position
            // leaving the window to the last entering it (o + m − 1 + R).
            let len = o + m + 2 * r + 1 - start
            place(values, n, s, padded, start - r, len)
            // Term 0 (θ = 0) is the window's plain sum; the four others rotate,
            // side by side in SIMD lanes.
            let w = weights
            var sum = 0.0, re = SIMD4<Double>(), im = SIMD4<Double>()
            var x = start
            while x < o + m {
                if x >= o { out[x - o] = Float(w.c0 * sum + (w.c * re).sum()) }
                // Slide to x + 1: f(x+R+1) enters, f(x−R) leaves.
                let i = x - start
                let d = Double(padded[i + 2 * r + 1]) - Double(padded[i])
                sum += d
                let a = re + d * w.reachCos, b = im + d * w.reachSin
                re = a * w.stepCos - b * w.stepSin
                im = a * w.stepSin + b * w.stepCos
                x += 1
            }
        }
    }
}
