import Caluna
import CalunaBridge
import Glibc

// caluna_context_*, continued: gradients, images and text in a draw
// callback's context (DrawingContext+Gradient.swift, +Text.swift); and a
// layer drawn into a context (renderInContext:) or into a new image
// (snapshot).

/// caluna_gradient_options bits (kCGGradientDrawsBeforeStartLocation / …AfterEndLocation).
private enum GradientOptions {
    static let beforeStart: UInt32 = 1, afterEnd: UInt32 = 2
}

/// `count` colours (4 doubles each) and, unless NULL, `count` locations.
private func gradientStops(_ colors: UnsafePointer<Double>?, _ locations: UnsafePointer<Double>?,
                           _ count: UInt, _ options: UInt32) throws -> ([Color], [Double]?) {
    guard count >= 1, count <= UInt(DrawingContext.maximumGradientColors) else {
        throw CalunaError(.invalidArgument, "count \(count) is out of range (1…\(DrawingContext.maximumGradientColors))")
    }
    guard let colors else { throw CalunaError(.invalidArgument, "colors is NULL") }
    guard options & ~(GradientOptions.beforeStart | GradientOptions.afterEnd) == 0 else {
        throw CalunaError(.invalidArgument, "options \(options) has bits other than CALUNA_GRADIENT_DRAWS_BEFORE_START (1) and _AFTER_END (2)")
    }
    let n = Int(count)
    var cs: [Color] = []
    cs.reserveCapacity(n)
    for i in 0..<n {
        let r = colors[4 * i], g = colors[4 * i + 1], b = colors[4 * i + 2], a = colors[4 * i + 3]
        guard r.isFinite, g.isFinite, b.isFinite, a.isFinite else {
            throw CalunaError(.invalidArgument, "colors[\(i)] must be finite (got \(r), \(g), \(b), \(a))")
        }
        cs.append(Color(red: r, green: g, blue: b, alpha: a))
    }
    return (cs, locations.map { Array(UnsafeBufferPointer(start: $0, count: n)) })
}

@_cdecl("caluna_context_draw_linear_gradient")
public func caluna_context_draw_linear_gradient(_ e: OpaquePointer?, _ ctx: UInt64, _ colors: UnsafePointer<Double>?,
                                                _ locations: UnsafePointer<Double>?, _ count: UInt,
                                                _ startX: Double, _ startY: Double, _ endX: Double, _ endY: Double,
                                                _ options: UInt32) -> Int32 {
    withContext(e, ctx, "caluna_context_draw_linear_gradient") { _, c in
        let (cs, ls) = try gradientStops(colors, locations, count, options)
        try c.drawLinearGradient(colors: cs, locations: ls, start: Point(startX, startY), end: Point(endX, endY),
                                 drawsBeforeStart: options & GradientOptions.beforeStart != 0,
                                 drawsAfterEnd: options & GradientOptions.afterEnd != 0)
    }
}

@_cdecl("caluna_context_draw_radial_gradient")
public func caluna_context_draw_radial_gradient(_ e: OpaquePointer?, _ ctx: UInt64, _ colors: UnsafePointer<Double>?,
                                                _ locations: UnsafePointer<Double>?, _ count: UInt,
                                                _ startX: Double, _ startY: Double, _ startRadius: Double,
                                                _ endX: Double, _ endY: Double, _ endRadius: Double,
                                                _ options: UInt32) -> Int32 {
    withContext(e, ctx, "caluna_context_draw_radial_gradient") { _, c in
        let (cs, ls) = try gradientStops(colors, locations, count, options)
        try c.drawRadialGradient(colors: cs, locations: ls, startCenter: Point(startX, startY), startRadius: startRadius,
                                 endCenter: Point(endX, endY), endRadius: endRadius,
                                 drawsBeforeStart: options & GradientOptions.beforeStart != 0,
                                 drawsAfterEnd: options & GradientOptions.afterEnd != 0)
    }
}

// MARK: images

@_cdecl("caluna_context_draw_image")
public func caluna_context_draw_image(_ e: OpaquePointer?, _ ctx: UInt64, _ img: UInt64, _ x: Double, _ y: Double,
                                      _ width: Double, _ height: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_draw_image") { ce, c in
        try c.draw(try ce.image(img, "image"), in: Rect(x, y, width, height))
    }
}

// MARK: text

@_cdecl("caluna_context_set_font")
public func caluna_context_set_font(_ e: OpaquePointer?, _ ctx: UInt64, _ name: UnsafePointer<CChar>?, _ size: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_set_font") { _, c in try c.setFont(name: try string(name, "name"), size: size) }
}

@_cdecl("caluna_context_show_text")
public func caluna_context_show_text(_ e: OpaquePointer?, _ ctx: UInt64, _ text: UnsafePointer<CChar>?,
                                     _ x: Double, _ y: Double) -> Int32 {
    withContext(e, ctx, "caluna_context_show_text") { _, c in try c.showText(try string(text, "text"), at: Point(x, y)) }
}

@_cdecl("caluna_context_draw_text")
public func caluna_context_draw_text(_ e: OpaquePointer?, _ ctx: UInt64, _ text: UnsafePointer<CChar>?,
                                     _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                     _ alignment: UnsafePointer<CChar>?) -> Int32 {
    withContext(e, ctx, "caluna_context_draw_text") { _, c in
        let align = alignment == nil ? "left" : try string(alignment, "alignment")
        try c.drawText(try string(text, "text"), in: Rect(x, y, width, height), alignment: align)
    }
}

@_cdecl("caluna_context_text_size")
public func caluna_context_text_size(_ e: OpaquePointer?, _ ctx: UInt64, _ text: UnsafePointer<CChar>?, _ width: Double,
                                     _ outWidth: UnsafeMutablePointer<Double>?, _ outHeight: UnsafeMutablePointer<Double>?) -> Int32 {
    outWidth?.pointee = 0
    outHeight?.pointee = 0
    return withContext(e, ctx, "caluna_context_text_size") { _, c in
        let w = try output(outWidth, "out_width"), h = try output(outHeight, "out_height")
        try finite([("width", width)])
        let s = try c.textSize(try string(text, "text"), width: width > 0 ? width : nil)
        w.pointee = s.width
        h.pointee = s.height
    }
}

// MARK: a layer drawn into a context or an image

/// True when `l`'s subtree (masks included) shows `image` (a context's own
/// bitmap cannot be drawn into itself).
private func shows(_ image: Image, in l: Layer) -> Bool {
    var stack = [l]
    while let cur = stack.popLast() {
        if cur.contents === image { return true }
        stack.append(contentsOf: cur.sublayers)
        if let m = cur.mask { stack.append(m) }
    }
    return false
}

@_cdecl("caluna_layer_render_in_context")
public func caluna_layer_render_in_context(_ e: OpaquePointer?, _ layer: UInt64, _ ctx: UInt64) -> Int32 {
    withContext(e, ctx, "caluna_layer_render_in_context") { ce, c in
        let l = try ce.layer(layer, "layer")
        guard !shows(c.image, in: l) else {
            throw CalunaError(.invalidArgument,
                "the layer (or a sublayer or mask) shows the backing store this context draws into; it cannot be drawn into itself")
        }
        try l.render(in: c)
    }
}

@_cdecl("caluna_layer_snapshot")
public func caluna_layer_snapshot(_ e: OpaquePointer?, _ layer: UInt64, _ scale: Double,
                                  _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_snapshot") { ce in
        let o = try output(out, "out")
        let l = try ce.layer(layer, "layer")
        o.pointee = try ce.ownedImageID(try l.snapshot(scale: scale))
    }
}
