import CCairo
import Glibc

/// CAGradientLayer's drawing (spec ch.6 §2.7, §6 item 6): over the
/// background, filling the (rounded) bounds, geometry in points, colours
/// interpolated in sRGB as stored (no colour management), end colours extend.
extension Compositor {
    mutating func drawGradient(_ layer: Layer, alpha: Double) throws {
        let g = layer.state.specialised.value.gradient
        let b = layer.bounds.standardized
        guard alpha > 0, !b.isEmpty, let stops = GradientStops(g) else { return }
        // Unit space → the layer's points; counter-flipped like contents
        // under an odd number of geometryFlipped ancestors.
        func place(_ u: Point) -> Point {
            Point(b.minX + u.x * b.width, b.minY + (contentsFlipped ? 1 - u.y : u.y) * b.height)
        }
        let s = place(g.startPoint), e = place(g.endPoint)
        let pattern: OpaquePointer?
        switch g.type {
        case .axial: pattern = stops.axial(from: s, to: e, alpha: alpha)
        case .radial: pattern = stops.radial(center: s, radii: Size(abs(e.x - s.x), abs(e.y - s.y)), alpha: alpha)
        case .conic:
            let reach = b.corners.map { hypot($0.x - s.x, $0.y - s.y) }.max() ?? 0
            pattern = stops.conic(center: s, angle: e == s ? 0 : atan2(e.y - s.y, e.x - s.x), radius: reach + 2, alpha: alpha)
        }
        guard let pattern else { return }   // a zero-length axis draws nothing (as Core Graphics)
        defer { cairo_pattern_destroy(pattern) }
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE) }
        cairo_set_source(cr, pattern)
        addRoundedBounds(layer)
        cairo_fill(cr)
        if !layer.allowsEdgeAntialiasing { cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT) }
        stats.layersDrawn += 1
    }
}

/// The colour stops of a gradient layer, sorted by location.
struct GradientStops {
    /// (location, colour) by location; equal locations keep their order (a hard edge).
    let stops: [(t: Double, color: Color)]

    /// Nil when nothing is drawn: no colours, or a locations count that is
    /// not the colours count (the book's "blank gradient").
    init?(_ g: GradientLayerState) {
        guard let colors = g.colors?.items, !colors.isEmpty else { return nil }
        if let l = g.locations?.items, l.count != colors.count { return nil }
        // Apple asks for increasing locations; others are sorted (stable).
        stops = GradientStops.ordered(colors, g.locations?.items)
    }

    /// The stops of `colors` (clamped) at `locations` (one per colour; nil:
    /// evenly spaced from 0 to 1), sorted by location; equal locations keep
    /// their order. Gradient layers and CGContext gradients share it.
    static func ordered(_ colors: [Color], _ locations: [Double]?) -> [(t: Double, color: Color)] {
        let n = colors.count
        let locs = locations ?? (n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) })
        return zip(locs, colors.map(\.clamped)).enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { (t: $0.element.0, color: $0.element.1) }
    }

    /// The colour at parameter t: linear between stops, the end colours beyond.
    func color(at t: Double) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if t <= first.t { return first.color }
        if t >= last.t { return last.color }
        var i = 1
        while stops[i].t < t { i += 1 }
        let (a, b) = (stops[i - 1], stops[i])
        let f = b.t > a.t ? (t - a.t) / (b.t - a.t) : 1
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return Color(red: mix(a.color.red, b.color.red), green: mix(a.color.green, b.color.green),
                     blue: mix(a.color.blue, b.color.blue), alpha: mix(a.color.alpha, b.color.alpha))
    }

    /// The stops within lo…hi, with the colours at lo and hi added, mapped to 0…1.
    func normalized(_ lo: Double, _ hi: Double) -> [(Double, Color)] {
        var out = [(0.0, color(at: lo))]
        for s in stops where s.t > lo && s.t < hi { out.append(((s.t - lo) / (hi - lo), s.color)) }
        out.append((1, color(at: hi)))
        return out
    }

    private static func add(_ stops: [(Double, Color)], to p: OpaquePointer, alpha: Double) {
        for (t, c) in stops { cairo_pattern_add_color_stop_rgba(p, t, c.red, c.green, c.blue, c.alpha * alpha) }
    }

    /// Iso-lines perpendicular to start → end (in points); locations beyond
    /// 0…1 lie past the start or end point.
    func axial(from s: Point, to e: Point, alpha: Double) -> OpaquePointer? {
        guard s != e, let first = stops.first, let last = stops.last else { return nil }
        let lo = min(0, first.t), hi = max(1, last.t)
        let dx = e.x - s.x, dy = e.y - s.y
        guard let p = cairo_pattern_create_linear(s.x + lo * dx, s.y + lo * dy, s.x + hi * dx, s.y + hi * dy) else { return nil }
        GradientStops.add(normalized(lo, hi), to: p, alpha: alpha)
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD)
        return p
    }

    /// Apple's radial type: an ellipse centred on the start point whose
    /// radii are the start → end distances along x and along y; location 1
    /// is on the ellipse. A zero radius leaves every point but the centre
    /// infinitely far: the last colour everywhere (the limit).
    func radial(center c: Point, radii: Size, alpha: Double) -> OpaquePointer? {
        guard let last = stops.last else { return nil }
        guard radii.width > 0, radii.height > 0 else {
            let k = last.color
            return cairo_pattern_create_rgba(k.red, k.green, k.blue, k.alpha * alpha)
        }
        let hi = max(1, last.t)
        guard let p = cairo_pattern_create_radial(0, 0, 0, 0, 0, hi) else { return nil }
        GradientStops.add(normalized(0, hi), to: p, alpha: alpha)
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD)
        // user space → the unit circle's space
        var m = cairo_matrix_t()
        cairo_matrix_init_scale(&m, 1 / radii.width, 1 / radii.height)
        cairo_matrix_translate(&m, -c.x, -c.y)
        cairo_pattern_set_matrix(p, &m)
        return p
    }

    /// Segments of a conic gradient: fine enough that a sector's cubic arc
    /// spaces colours evenly by angle to well under 1/255.
    static let conicSegments = 256

    /// Apple's conic type: the colour follows the angle about the start
    /// point, 0 along start → end and 1 after a full clockwise turn (on a
    /// y-down screen). cairo has no conic pattern: it is a mesh of thin
    /// sectors whose corner colours are the colours at their edge angles.
    func conic(center c: Point, angle a0: Double, radius r: Double, alpha: Double) -> OpaquePointer? {
        guard let p = cairo_pattern_create_mesh() else { return nil }
        var cuts = (0...GradientStops.conicSegments).map { Double($0) / Double(GradientStops.conicSegments) }
        cuts += stops.map(\.t).filter { $0 > 0 && $0 < 1 }
        cuts.sort()
        // cairo rasterizes patches in order, a later one winning the pixels
        // two share: last to first, so the seam pixels go to the sector at 0
        // (the one a pixel centre just past the start direction lies in).
        for (t1, t2) in zip(cuts, cuts.dropFirst()).reversed() where t2 > t1 {
            let a1 = a0 + 2 * .pi * t1, a2 = a0 + 2 * .pi * t2
            // A cubic arc: control points at 4/3·tan(θ/4) along the tangents.
            let k = 4.0 / 3.0 * tan((a2 - a1) / 4) * r
            let p1 = Point(c.x + r * cos(a1), c.y + r * sin(a1)), p2 = Point(c.x + r * cos(a2), c.y + r * sin(a2))
            // Just inside each edge, so a hard stop at t1 shows the colour after it.
            let c1 = color(at: t1 + (t2 - t1) * 1e-9), c2 = color(at: t2 - (t2 - t1) * 1e-9)
            cairo_mesh_pattern_begin_patch(p)
            cairo_mesh_pattern_move_to(p, c.x, c.y)
            cairo_mesh_pattern_line_to(p, p1.x, p1.y)
            cairo_mesh_pattern_curve_to(p, p1.x - k * sin(a1), p1.y + k * cos(a1),
                                        p2.x + k * sin(a2), p2.y - k * cos(a2), p2.x, p2.y)
            cairo_mesh_pattern_line_to(p, c.x, c.y)
            for (corner, col) in [(0, c1), (1, c1), (2, c2), (3, c2)] {
                cairo_mesh_pattern_set_corner_color_rgba(p, UInt32(corner), col.red, col.green, col.blue, col.alpha * alpha)
            }
            cairo_mesh_pattern_end_patch(p)
        }
        return p
    }
}
