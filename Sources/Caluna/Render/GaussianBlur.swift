import CCairo
import Glibc

/// The shadow blur (spec D8): a Gaussian with σ = shadowRadius points (the
/// convention design tools use: their "blur" is 2 × shadowRadius and σ is
/// half of it). pixman does the convolution — two separable passes (rows,
/// then columns) so the cost is O(taps) per pixel, not O(taps²).
enum GaussianBlur {
    /// Pixels a blur of σ device pixels spreads beyond its source.
    static func margin(sigma: Double) -> Int {
        sigma > 0.01 ? Int((3 * sigma).rounded(.up)) : 0
    }

    /// The normalised kernel, in pixman's 16.16 fixed point.
    static func kernel(sigma: Double) -> [pixman_fixed_t] {
        let r = margin(sigma: sigma)
        var w = (0...(2 * r)).map { i -> Double in
            let x = Double(i - r)
            return exp(-x * x / (2 * sigma * sigma))
        }
        let sum = w.reduce(0, +)
        var k = w.map { pixman_fixed_t(($0 / sum * 65536).rounded()) }
        // Rounding must not change the total: flat areas keep their alpha.
        k[r] += 65536 - k.reduce(0, +)
        return k
    }

    /// Blurs an A8 cairo image surface in place: rows, then columns, each
    /// output byte the kernel-weighted sum of its neighbours (16.16 fixed
    /// point, rounded). pixman's separable-convolution filter computes the
    /// same sums but fetches every tap through a generic pixel path, ~10×
    /// slower (the shadow-paths benchmark measured it); this loop is the
    /// hand-written fast path DESIGN §4 allows.
    static func blurAlpha(_ surface: OpaquePointer, sigma: Double) {
        let r = margin(sigma: sigma)
        guard r > 0 else { return }
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, let data = cairo_image_surface_get_data(surface) else { return }
        let k = kernel(sigma: sigma).map { Int($0) }
        var tmp = [UInt8](repeating: 0, count: w * h)
        k.withUnsafeBufferPointer { k in
            tmp.withUnsafeMutableBufferPointer { t in
                // Rows: data → tmp (packed).
                for y in 0..<h {
                    let src = data + y * stride, dst = t.baseAddress! + y * w
                    for x in 0..<w {
                        var sum = 0
                        let lo = max(0, x - r), hi = min(w - 1, x + r)
                        var i = lo
                        while i <= hi { sum &+= Int(src[i]) &* k[i - x + r]; i += 1 }
                        dst[x] = UInt8(min(255, (sum + 32768) >> 16))
                    }
                }
                // Columns: tmp → data, a row of sums at a time (cache friendly).
                var acc = [Int](repeating: 0, count: w)
                acc.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<h {
                        for x in 0..<w { acc[x] = 32768 }
                        for j in max(0, y - r)...min(h - 1, y + r) {
                            let kj = k[j - y + r], row = t.baseAddress! + j * w
                            for x in 0..<w { acc[x] &+= Int(row[x]) &* kj }
                        }
                        let dst = data + y * stride
                        for x in 0..<w { dst[x] = UInt8(min(255, acc[x] >> 16)) }
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }
}
