import CCairo
import Glibc

// Gradients and images in a DrawingContext (CGContextDrawLinearGradient,
// CGContextDrawRadialGradient, CGContextDrawImage as UIImage draws).

extension DrawingContext {
    /// CGContextDrawLinearGradient: paints the whole clip with colours along
    /// start → end. `locations` (0…1, one per colour) default to evenly
    /// spaced; one colour paints a solid. Beyond the ends nothing is painted
    /// unless `drawsBeforeStart` / `drawsAfterEnd` extend the end colours.
    public func drawLinearGradient(colors: [Color], locations: [Double]?, start: Point, end: Point,
                                   drawsBeforeStart: Bool, drawsAfterEnd: Bool) throws {
        let cr = try live("CGContext.drawLinearGradient")
        let api = "CGContext.drawLinearGradient"
        let stops = try gradientStops(api, colors, locations)
        let s = try checked(api, "start", start), e = try checked(api, "end", end)
        let g = Gradient(c0: s, r0: 0, c1: e, r1: 0, radial: false)
        try paint(cr, api, g, stops, drawsBeforeStart, drawsAfterEnd)
    }

    /// CGContextDrawRadialGradient: colours from the start circle to the end
    /// circle (cairo and CG share the PDF cone model), same options.
    public func drawRadialGradient(colors: [Color], locations: [Double]?, startCenter: Point, startRadius: Double,
                                   endCenter: Point, endRadius: Double,
                                   drawsBeforeStart: Bool, drawsAfterEnd: Bool) throws {
        let cr = try live("CGContext.drawRadialGradient")
        let api = "CGContext.drawRadialGradient"
        let stops = try gradientStops(api, colors, locations)
        let c0 = try checked(api, "startCenter", startCenter), c1 = try checked(api, "endCenter", endCenter)
        let r0 = try coordinate(api, "startRadius", startRadius), r1 = try coordinate(api, "endRadius", endRadius)
        guard r0 >= 0, r1 >= 0 else { throw CalunaError.invalid("\(api): radii must be ≥ 0 (got \(r0), \(r1))") }
        try paint(cr, api, Gradient(c0: c0, r0: r0, c1: c1, r1: r1, radial: true), stops, drawsBeforeStart, drawsAfterEnd)
    }

    private struct Gradient {
        var c0: Point, r0: Double, c1: Point, r1: Double
        let radial: Bool
        /// The circle (or linear end point) at parameter t.
        func at(_ t: Double) -> (Point, Double) {
            (Point(c0.x + t * (c1.x - c0.x), c0.y + t * (c1.y - c0.y)), r0 + t * (r1 - r0))
        }
    }

    private func gradientStops(_ api: String, _ colors: [Color], _ locations: [Double]?) throws -> [(Double, Color)] {
        guard !colors.isEmpty else { throw CalunaError.invalid("\(api): at least one colour is needed") }
        guard colors.count <= DrawingContext.maximumGradientColors else {
            throw CalunaError.invalid("\(api): at most \(DrawingContext.maximumGradientColors) colours (got \(colors.count))")
        }
        for (i, c) in colors.enumerated() where !c.isFinite {
            throw CalunaError.invalid("\(api): colour \(i + 1) must be finite")
        }
        if let locations {
            guard locations.count == colors.count else {
                throw CalunaError.invalid("\(api): \(locations.count) locations for \(colors.count) colours (need one per colour)")
            }
            for (i, l) in locations.enumerated() where !(l >= 0 && l <= 1) {
                throw CalunaError.invalid("\(api): location \(i + 1) must be in 0…1 (got \(l))")
            }
        }
        // Stable by location, so equal locations keep their order (a hard edge).
        let stops = GradientStops.ordered(colors, locations).map { ($0.t, $0.color) }
        // One colour (or all at one place): a solid, as Core Graphics paints it.
        return stops.count == 1 ? [(0, stops[0].1), (1, stops[0].1)] : stops
    }

    /// Paints `g` over the clip. cairo extends both ends or neither; for one
    /// end only, the gradient's parameter range is stretched past that end
    /// (to beyond the clip, or to a radial cone's tip) with the end colour
    /// repeated, and extend NONE bounds the other.
    private func paint(_ cr: OpaquePointer, _ api: String, _ g: Gradient, _ stops: [(Double, Color)],
                       _ before: Bool, _ after: Bool) throws {
        var lo = 0.0, hi = 1.0
        if before != after {
            var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
            cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
            let corners = [Point(x0, y0), Point(x1, y0), Point(x0, y1), Point(x1, y1)]
            let move = hypot(g.c1.x - g.c0.x, g.c1.y - g.c0.y), grow = abs(g.r1 - g.r0)
            let reach = corners.map { hypot($0.x - g.c0.x, $0.y - g.c0.y) }.max() ?? 0
            let far = reach + move + g.r0 + g.r1 + 1
            // Enough parameter to cover every clip corner: nested circles cover
            // at rate grow − move, anything else sweeps at most max(grow, move).
            let rate = grow > move ? grow - move : max(grow, move)
            guard rate > 0 else { return }   // a degenerate gradient paints nothing, as in CG
            let k = min(2 * far / rate + 1, 1e6)
            if before { lo = -k } else { hi = 1 + k }
            if g.radial, g.r1 != g.r0 {
                // Stop where the radius reaches 0: the cone has no circles past its tip.
                let tip = g.r0 / (g.r0 - g.r1)   // ≤ 0 when growing, ≥ 1 when shrinking
                if g.r1 > g.r0 { lo = max(lo, tip) } else { hi = min(hi, tip) }
            }
        }
        let (p0, q0) = g.at(lo), (p1, q1) = g.at(hi)
        guard let pattern = g.radial
            ? cairo_pattern_create_radial(p0.x, p0.y, max(q0, 0), p1.x, p1.y, max(q1, 0))
            : cairo_pattern_create_linear(p0.x, p0.y, p1.x, p1.y) else {
            throw CalunaError(.outOfMemory, "\(api): cairo could not make a gradient")
        }
        defer { cairo_pattern_destroy(pattern) }
        let span = hi - lo
        for (t, c) in stops {
            cairo_pattern_add_color_stop_rgba(pattern, (t - lo) / span, c.red, c.green, c.blue, c.alpha * state.alpha)
        }
        if lo < 0, let first = stops.first?.1 {
            cairo_pattern_add_color_stop_rgba(pattern, 0, first.red, first.green, first.blue, first.alpha * state.alpha)
        }
        if hi > 1, let last = stops.last?.1 {
            cairo_pattern_add_color_stop_rgba(pattern, 1, last.red, last.green, last.blue, last.alpha * state.alpha)
        }
        cairo_pattern_set_extend(pattern, before && after ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
        cairo_save(cr)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_restore(cr)
        try checkStatus(cr, api)
    }

    /// UIImage's drawInRect: the image scaled into `rect` upright (row 0 at
    /// rect.minY) with bilinear filtering, times the context alpha. Edges are
    /// crisp: the rect is filled, not the image's blurred border.
    public func draw(_ image: Image, in rect: Rect) throws {
        let cr = try live("CGContext.drawImage")
        let api = "CGContext.drawImage"
        let r = try checked(api, "rect", rect).standardized
        guard image !== self.image else {
            throw CalunaError.invalid("\(api): cannot draw the context's own bitmap into itself")
        }
        guard r.width > 0, r.height > 0 else { return }
        preservingPath(cr) {
            cairo_save(cr)
            cairo_rectangle(cr, r.origin.x, r.origin.y, r.size.width, r.size.height)
            cairo_clip(cr)
            cairo_translate(cr, r.origin.x, r.origin.y)
            cairo_scale(cr, r.width / Double(image.width), r.height / Double(image.height))
            cairo_set_source_surface(cr, image.surface, 0, 0)
            if let source = cairo_get_source(cr) {
                cairo_pattern_set_filter(source, CAIRO_FILTER_BILINEAR)
                cairo_pattern_set_extend(source, CAIRO_EXTEND_PAD)
            }
            cairo_paint_with_alpha(cr, state.alpha)
            cairo_restore(cr)
        }
        try checkStatus(cr, api)
    }
}
