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

    /// Blurs an A8 cairo image surface in place.
    static func blurAlpha(_ surface: OpaquePointer, sigma: Double) {
        let r = margin(sigma: sigma)
        guard r > 0 else { return }
        cairo_surface_flush(surface)
        let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
        let stride = cairo_image_surface_get_stride(surface)
        guard let data = cairo_image_surface_get_data(surface),
              let tmp = pixman_image_create_bits(PIXMAN_a8, w, h, nil, stride) else { return }
        defer { pixman_image_unref(tmp) }
        guard let img = data.withMemoryRebound(to: UInt32.self, capacity: 1, { pixman_image_create_bits(PIXMAN_a8, w, h, $0, stride) }) else { return }
        defer { pixman_image_unref(img) }
        let k = kernel(sigma: sigma)
        let n = pixman_fixed_t(k.count) << 16
        // Rows: a width-n, height-1 kernel; then columns: width 1, height n.
        var rows: [pixman_fixed_t] = [n, 1 << 16, 0, 0] + k + [1 << 16]
        var cols: [pixman_fixed_t] = [1 << 16, n, 0, 0, 1 << 16] + k
        _ = pixman_image_set_filter(img, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, &rows, Int32(rows.count))
        pixman_image_composite32(PIXMAN_OP_SRC, img, nil, tmp, 0, 0, 0, 0, 0, 0, w, h)
        _ = pixman_image_set_filter(tmp, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, &cols, Int32(cols.count))
        _ = pixman_image_set_filter(img, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, tmp, nil, img, 0, 0, 0, 0, 0, 0, w, h)
        cairo_surface_mark_dirty(surface)
    }
}
