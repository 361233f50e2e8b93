import Caluna
import CalunaBridge

// Conversion between layer spaces, containsPoint, hitTest and layout.

/// Converts `p` from `from`'s space to `to`'s (nil: the canvas).
private func convert(_ p: Point, from: Layer?, to: Layer?) throws -> Point {
    switch (from, to) {
    case (nil, nil): return p
    case (let f?, nil): return try f.convert(p, to: nil)
    case (_, let t?): return try t.convert(p, from: from)
    }
}

private func convert(_ r: Rect, from: Layer?, to: Layer?) throws -> Rect {
    switch (from, to) {
    case (nil, nil): return r
    case (let f?, nil): return try f.convert(r, to: nil)
    case (_, let t?): return try t.convert(r, from: from)
    }
}

@_cdecl("caluna_layer_convert_point")
public func caluna_layer_convert_point(_ e: OpaquePointer?, _ from: UInt64, _ to: UInt64, _ x: Double, _ y: Double,
                                       _ outX: UnsafeMutablePointer<Double>?, _ outY: UnsafeMutablePointer<Double>?) -> Int32 {
    outX?.pointee = 0; outY?.pointee = 0
    return withEngine(e, "caluna_layer_convert_point") { ce in
        let ox = try output(outX, "out_x"), oy = try output(outY, "out_y")
        try finite([("x", x), ("y", y)])
        let q = try convert(Point(x, y), from: try ce.optionalLayer(from, "from"), to: try ce.optionalLayer(to, "to"))
        ox.pointee = q.x
        oy.pointee = q.y
    }
}

@_cdecl("caluna_layer_convert_rect")
public func caluna_layer_convert_rect(_ e: OpaquePointer?, _ from: UInt64, _ to: UInt64,
                                      _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                      _ outX: UnsafeMutablePointer<Double>?, _ outY: UnsafeMutablePointer<Double>?,
                                      _ outW: UnsafeMutablePointer<Double>?, _ outH: UnsafeMutablePointer<Double>?) -> Int32 {
    outX?.pointee = 0; outY?.pointee = 0; outW?.pointee = 0; outH?.pointee = 0
    return withEngine(e, "caluna_layer_convert_rect") { ce in
        let ox = try output(outX, "out_x"), oy = try output(outY, "out_y")
        let ow = try output(outW, "out_width"), oh = try output(outH, "out_height")
        try finite([("x", x), ("y", y), ("width", width), ("height", height)])
        let r = try convert(Rect(x, y, width, height), from: try ce.optionalLayer(from, "from"),
                            to: try ce.optionalLayer(to, "to"))
        ox.pointee = r.origin.x
        oy.pointee = r.origin.y
        ow.pointee = r.size.width
        oh.pointee = r.size.height
    }
}

@_cdecl("caluna_layer_contains_point")
public func caluna_layer_contains_point(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                        _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_contains_point") { ce in
        let o = try output(out, "out")
        try finite([("x", x), ("y", y)])
        o.pointee = try ce.layer(layer, "layer").contains(Point(x, y)) ? 1 : 0
    }
}

@_cdecl("caluna_layer_hit_test")
public func caluna_layer_hit_test(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                  _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_layer_hit_test") { ce in
        let o = try output(out, "out")
        try finite([("x", x), ("y", y)])
        o.pointee = ce.id(try ce.layer(layer, "layer").hitTest(Point(x, y)))
    }
}

@_cdecl("caluna_layer_set_needs_layout")
public func caluna_layer_set_needs_layout(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_set_needs_layout") { ce in
        try ce.layer(layer, "layer").setNeedsLayout()
    }
}

@_cdecl("caluna_layer_layout_if_needed")
public func caluna_layer_layout_if_needed(_ e: OpaquePointer?, _ layer: UInt64) -> Int32 {
    withEngine(e, "caluna_layer_layout_if_needed") { ce in
        try ce.layer(layer, "layer").layoutIfNeeded()
    }
}
