import CCairo
import Glibc
import Testing
@testable import Caluna

// The shadow blur (GaussianBlur.swift, issue #20): three extended boxes
// stay within GaussianBlur.tolerance of the exact Gaussian; only the part
// of a shadow the target shows is computed, from the silhouette pixels
// that reach it.

/// An A8 bitmap of w×h whose pixel (0, 0) is device pixel `origin`.
final class AlphaPlane {
    let plane: GaussianBlur.Plane
    init(_ w: Int, _ h: Int, at origin: (Int, Int), draw: (OpaquePointer) -> Void = { _ in }) {
        let s = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h))!
        let cr = cairo_create(s)!
        cairo_translate(cr, Double(-origin.0), Double(-origin.1))
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        plane = GaussianBlur.Plane(surface: s, origin: origin)
    }
    deinit { cairo_surface_destroy(plane.surface) }

    /// The byte at device pixel (x, y); 0 outside.
    subscript(x x: Int, y y: Int) -> Int {
        let (i, j) = (x - plane.origin.x, y - plane.origin.y)
        guard i >= 0, j >= 0, i < plane.width, j < plane.height else { return 0 }
        let stride = Int(cairo_image_surface_get_stride(plane.surface))
        return Int(cairo_image_surface_get_data(plane.surface)![j * stride + i])
    }

    /// The largest difference from `o` over this plane's pixels.
    func maxDifference(_ o: AlphaPlane) -> Int {
        var worst = 0
        for y in plane.origin.y..<(plane.origin.y + plane.height) {
            for x in plane.origin.x..<(plane.origin.x + plane.width) { worst = max(worst, abs(self[x: x, y: y] - o[x: x, y: y])) }
        }
        return worst
    }
}

/// Hard-edged silhouettes (a 48×48 area at the origin): the worst cases for
/// a box approximation are steps, thin lines and single pixels.
let blurShapes: [(String, (OpaquePointer) -> Void)] = [
    ("square", { cairo_rectangle($0, 8, 8, 32, 32); cairo_fill($0) }),
    ("disc", { cairo_arc($0, 24, 24, 17.5, 0, 2 * Double.pi); cairo_fill($0) }),
    ("line", { cairo_rectangle($0, 23, 0, 1, 48); cairo_fill($0) }),
    ("dot", { cairo_rectangle($0, 24, 24, 1, 1); cairo_fill($0) }),
    ("stripes", { cr in for i in stride(from: 0, to: 48, by: 4) { cairo_rectangle(cr, Double(i), 0, 2, 48) }; cairo_fill(cr) }),
    ("triangle", { cairo_move_to($0, 2, 46); cairo_line_to($0, 46, 46); cairo_line_to($0, 24, 3); cairo_fill($0) }),
]

let blurSigmas: [Double] = [0.5, 0.75, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50]

/// The blur of a 48×48 silhouette over everything it reaches, by `method`
/// (nil: the one the compositor uses).
func blurred(_ draw: @escaping (OpaquePointer) -> Void, sigma: Double, method: GaussianBlur.Method?) -> AlphaPlane {
    let source = AlphaPlane(48, 48, at: (0, 0), draw: draw)
    let m = GaussianBlur.margin(sigma: sigma)
    let target = AlphaPlane(48 + 2 * m, 48 + 2 * m, at: (-m, -m))
    GaussianBlur.blur(source.plane, into: target.plane, sigma: sigma, method: method)
    return target
}

/// The blur caluna had before issue #20, kept as the reference: the 3σ
/// kernel in 16.16 fixed point summed tap by tap, rows rounded to bytes,
/// then columns, in place over the silhouette drawn with the margin around it.
func referenceBlur(_ draw: @escaping (OpaquePointer) -> Void, sigma: Double) -> AlphaPlane {
    let r = GaussianBlur.margin(sigma: sigma)
    let out = AlphaPlane(48 + 2 * r, 48 + 2 * r, at: (-r, -r), draw: draw)
    let w = out.plane.width, h = out.plane.height
    let stride = Int(cairo_image_surface_get_stride(out.plane.surface))
    let data = cairo_image_surface_get_data(out.plane.surface)!
    var k = GaussianBlur.kernel(sigma: sigma).map { Int(($0 * 65536).rounded()) }
    k[r] += 65536 - k.reduce(0, +)
    var rows = [Int](repeating: 0, count: w * h)
    for y in 0..<h {
        for x in 0..<w {
            var sum = 0
            for i in max(0, x - r)...min(w - 1, x + r) { sum += Int(data[y * stride + i]) * k[i - x + r] }
            rows[y * w + x] = min(255, (sum + 32768) >> 16)
        }
    }
    for y in 0..<h {
        for x in 0..<w {
            var sum = 32768
            for j in max(0, y - r)...min(h - 1, y + r) { sum += rows[j * w + x] * k[j - y + r] }
            data[y * stride + x] = UInt8(min(255, sum >> 16))
        }
    }
    cairo_surface_mark_dirty(out.plane.surface)
    return out
}

@Test func blurStaysWithinItsToleranceOfTheExactGaussian() {
    // Against the taps summed in the same (Float) pipeline: the cosine
    // series is within GaussianBlur.tolerance for every σ > exactLimit.
    var worst = 0
    for sigma in blurSigmas where sigma > GaussianBlur.exactLimit {
        for (name, draw) in blurShapes {
            let d = blurred(draw, sigma: sigma, method: nil).maxDifference(blurred(draw, sigma: sigma, method: .exact))
            #expect(d <= GaussianBlur.tolerance, "σ \(sigma), \(name): \(d) levels from the summed taps")
            worst = max(worst, d)
        }
    }
    #expect(GaussianBlur.tolerance == 1 && worst == 1)
}

@Test func blurStaysWithinOneLevelOfTheBlurBeforeIssue20() {
    // Against the old implementation (rows rounded to bytes before the
    // columns), σ 0.5…50: measured 1 level, for the summed taps (σ ≤ 3, the
    // rounding of the rows) and for the cosine series alike.
    var worst = (exact: 0, cosines: 0)
    for sigma in blurSigmas {
        for (name, draw) in blurShapes {
            let d = blurred(draw, sigma: sigma, method: nil).maxDifference(referenceBlur(draw, sigma: sigma))
            #expect(d <= 1, "σ \(sigma), \(name): \(d) levels from the old blur")
            if sigma <= GaussianBlur.exactLimit { worst.exact = max(worst.exact, d) } else { worst.cosines = max(worst.cosines, d) }
        }
    }
    #expect(worst.exact == 1 && worst.cosines == 1)
}

@Test func blurCosineSeriesBoundsItsError() {
    // Any input of bytes moves by at most 255·‖k̃ − k‖₁·(‖k‖₁ + ‖k̃‖₁) before
    // rounding (rows, then columns): below 0.65 levels, so at most 1 after.
    #expect(GaussianBlur.method(sigma: 3) == .exact && GaussianBlur.method(sigma: 3.01) == .cosines)
    for sigma in [3.01, 3.5, 4, 5.5, 8, 13, 30, 77.7, 300, 1000] {
        let k = GaussianBlur.kernel(sigma: sigma), r = k.count / 2
        let series = GaussianBlur.cosineSeries(sigma: sigma)
        #expect(series.count == GaussianBlur.cosineTerms + 1)
        #expect(abs(series[0].c - 1 / Double(k.count)) < 1e-15, "the constant term is the mean")
        var error = 0.0, norm = 0.0
        for (i, w) in k.enumerated() {
            let t = Double(i - r)
            let approx = series.reduce(0) { $0 + $1.c * cos($1.theta * t) }
            error += abs(approx - w)
            norm += abs(approx)
        }
        let bound = 255 * error * (1 + norm)
        #expect(bound < 0.65, "σ \(sigma): \(bound)")
    }
    // A short window holds all its terms: σ 1 (7 taps) is represented exactly.
    #expect(GaussianBlur.cosineSeries(sigma: 1).count == 4)
    for sigma in [0.5, 1] {
        for (name, draw) in blurShapes {
            let d = blurred(draw, sigma: sigma, method: .cosines).maxDifference(blurred(draw, sigma: sigma, method: .exact))
            #expect(d == 0, "σ \(sigma), \(name)")
        }
    }
}

@Test func blurKernelIsNormalised() {
    for sigma in [0.5, 1, 3, 7.3, 20] {
        let k = GaussianBlur.kernel(sigma: sigma)
        #expect(abs(k.reduce(0, +) - 1) < 1e-12)
        #expect(k.count == 2 * GaussianBlur.margin(sigma: sigma) + 1)
        #expect(k.first! == k.last! && k.first! < k[k.count / 2])
    }
    #expect(GaussianBlur.margin(sigma: 0) == 0 && GaussianBlur.margin(sigma: 0.01) == 0)
    #expect(GaussianBlur.margin(sigma: 8) == 24 && GaussianBlur.margin(sigma: 1000) == 3000)
}

@Test func blurOfPartOfTheAreaIsThatPartOfTheWholeBlur() {
    // The target's pixels do not depend on how much else is computed.
    for sigma in [1.5, 8, 40] {
        let whole = blurred(blurShapes[1].1, sigma: sigma, method: nil)
        let source = AlphaPlane(48, 48, at: (0, 0), draw: blurShapes[1].1)
        let part = AlphaPlane(13, 7, at: (40, -3))
        GaussianBlur.blur(source.plane, into: part.plane, sigma: sigma)
        #expect(part.maxDifference(whole) == 0, "σ \(sigma)")
        // Beyond the margin nothing is drawn.
        let at = (48 + GaussianBlur.margin(sigma: sigma), 0)
        let far = AlphaPlane(4, 4, at: at)
        GaussianBlur.blur(source.plane, into: far.plane, sigma: sigma)
        #expect(far.maxDifference(AlphaPlane(4, 4, at: at)) == 0)
    }
}

@Test func blurKeepsFlatAreas() {
    // Full alpha far from the edges stays 255; σ ≤ 0.01 copies.
    for sigma in [2.0, 5, 12] {
        let source = AlphaPlane(100, 100, at: (0, 0), draw: { cairo_paint($0) })
        let middle = AlphaPlane(8, 8, at: (46, 46))
        GaussianBlur.blur(source.plane, into: middle.plane, sigma: sigma)
        #expect(middle[x: 46, y: 46] == 255 && middle[x: 53, y: 53] == 255, "σ \(sigma)")
    }
    let dot = AlphaPlane(1, 1, at: (0, 0), draw: { cairo_paint($0) })
    let out = AlphaPlane(1, 1, at: (0, 0))
    GaussianBlur.blur(dot.plane, into: out.plane, sigma: 0.005)
    #expect(out[x: 0, y: 0] == 255)
}

// MARK: shadows

/// A `side`² frame with one 10×10 layer at (20, 20) casting a black shadow
/// of `radius` through a shadowPath.
func shadowScene(radius: Double, side: Double = 64, offset: Size = Size(0, 0)) throws -> Engine {
    let e = try Engine(size: Size(side, side))
    let l = e.makeLayer()
    l.frame = Rect(20, 20, 10, 10)
    l.shadowOpacity = 1
    l.shadowRadius = radius
    l.shadowOffset = offset
    var p = Path()
    p.addRect(Rect(0, 0, 10, 10))
    l.shadowPath = p
    try e.root.addSublayer(l)
    return e
}

@Test func wideShadowBlursOnlyTheVisibleFrame() throws {
    // σ = 1000 around a 10×10 layer: the silhouette's 10×10 pixels and the
    // frame's 64×64 grown by one pixel (66×66), not a 6010×6010 buffer.
    let e = try shadowScene(radius: 1000)
    let image = try e.render()
    #expect(e.stats.offscreenPasses == 1)
    #expect(e.stats.offscreenPixels == 10 * 10 + 66 * 66)
    // 100 pixels spread over a Gaussian of σ 1000: about 100 / (2π·10⁶) of
    // full alpha, far below one level.
    #expect(px(image, 25, 25).a == 0 && px(image, 0, 63).a == 0)
}

@Test func shadowBufferFollowsTheOffsetAndTheClip() throws {
    // σ 4 (margin 12) with the shadow moved 100 pt right: out of the frame,
    // nothing is computed; moved 40 pt, only its visible part.
    let gone = try shadowScene(radius: 4, offset: Size(100, 0))
    _ = try gone.render()
    #expect(gone.stats.offscreenPasses == 0)
    let part = try shadowScene(radius: 4, offset: Size(40, 0))
    let image = try part.render()
    // Before the offset: x 8…42 (the reach) within the frame's −40…24
    // grown by a pixel ⇒ 8…25; y 8…42 ⇒ 17 × 34, from the 10×10 silhouette.
    #expect(part.stats.offscreenPixels == 10 * 10 + 17 * 34)
    let probes = [(47, 25, 0), (50, 25, 2), (55, 25, 26), (63, 25, 153), (63, 29, 105)]
    for (x, y, a) in probes { #expect(px(image, x, y).a == a, "(\(x), \(y))") }
    // The same shadow cast in place (the layer at x 60, no offset) computes
    // more of it and draws the same pixels.
    let moved = try shadowScene(radius: 4)
    moved.root.sublayers[0].frame = Rect(60, 20, 10, 10)
    let same = try moved.render()
    for (x, y, a) in probes { #expect(px(same, x, y).a == a, "(\(x), \(y))") }
}

/// A shadow under a huge transform asked for a blur of σ = ∞ device pixels:
/// converting 3σ to an Int trapped (found by the C fuzzer). The blur is drawn at
/// `maximumSigma` at most; a full and a retained render both finish.
@Test func aShadowUnderAHugeScaleIsBlurredAtTheLargestSigma() throws {
    #expect(GaussianBlur.margin(sigma: .infinity) == Int((3 * GaussianBlur.maximumSigma).rounded(.up)))
    #expect(GaussianBlur.margin(sigma: .nan) == 0)
    #expect(GaussianBlur.margin(sigma: 1e300) == GaussianBlur.margin(sigma: .infinity))
    let e = try Engine(size: Size(40, 40))
    let parent = e.makeLayer()
    parent.frame = Rect(0, 0, 40, 40)
    parent.sublayerTransform = Transform3D(AffineTransform.scale(1e200, 1e200))
    let child = e.makeLayer()
    child.frame = Rect(0, 0, 1e-199, 1e-199)
    child.backgroundColor = Color(red: 1, green: 0, blue: 0)
    child.shadowOpacity = 1
    child.shadowRadius = 5
    try parent.addSublayer(child)
    try e.root.addSublayer(parent)
    _ = try e.render()
    try e.render(into: RenderTarget())
}
