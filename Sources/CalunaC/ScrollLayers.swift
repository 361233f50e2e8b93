import Caluna
import CalunaBridge

// Scroll layers (ABI 1.7): CAScrollLayer's scrollToPoint:/scrollToRect: and
// CALayer's scrolling category (scrollPoint:, scrollRectToVisible:, visibleRect).

@_cdecl("caluna_scroll_layer_scroll_to_point")
public func caluna_scroll_layer_scroll_to_point(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double) -> Int32 {
    withEngine(e, "caluna_scroll_layer_scroll_to_point") { ce in
        try finite([("x", x), ("y", y)])
        try ce.layer(layer, "layer").scroll(toPoint: Point(x, y))
    }
}

@_cdecl("caluna_scroll_layer_scroll_to_rect")
public func caluna_scroll_layer_scroll_to_rect(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                               _ width: Double, _ height: Double) -> Int32 {
    withEngine(e, "caluna_scroll_layer_scroll_to_rect") { ce in
        try finite([("x", x), ("y", y), ("width", width), ("height", height)])
        try ce.layer(layer, "layer").scroll(toRect: Rect(x, y, width, height))
    }
}

@_cdecl("caluna_layer_scroll_point")
public func caluna_layer_scroll_point(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                      _ outScrolled: UnsafeMutablePointer<Int32>?) -> Int32 {
    outScrolled?.pointee = 0
    return withEngine(e, "caluna_layer_scroll_point") { ce in
        try finite([("x", x), ("y", y)])
        let found = try ce.layer(layer, "layer").scrollPoint(Point(x, y))
        outScrolled?.pointee = found ? 1 : 0
    }
}

@_cdecl("caluna_layer_scroll_rect_to_visible")
public func caluna_layer_scroll_rect_to_visible(_ e: OpaquePointer?, _ layer: UInt64, _ x: Double, _ y: Double,
                                                _ width: Double, _ height: Double,
                                                _ outScrolled: UnsafeMutablePointer<Int32>?) -> Int32 {
    outScrolled?.pointee = 0
    return withEngine(e, "caluna_layer_scroll_rect_to_visible") { ce in
        try finite([("x", x), ("y", y), ("width", width), ("height", height)])
        let found = try ce.layer(layer, "layer").scrollRectToVisible(Rect(x, y, width, height))
        outScrolled?.pointee = found ? 1 : 0
    }
}

@_cdecl("caluna_layer_visible_rect")
public func caluna_layer_visible_rect(_ e: OpaquePointer?, _ layer: UInt64,
                                      _ outX: UnsafeMutablePointer<Double>?, _ outY: UnsafeMutablePointer<Double>?,
                                      _ outW: UnsafeMutablePointer<Double>?, _ outH: UnsafeMutablePointer<Double>?) -> Int32 {
    outX?.pointee = 0; outY?.pointee = 0; outW?.pointee = 0; outH?.pointee = 0
    return withEngine(e, "caluna_layer_visible_rect") { ce in
        let ox = try output(outX, "out_x"), oy = try output(outY, "out_y")
        let ow = try output(outW, "out_width"), oh = try output(outH, "out_height")
        let r = try ce.layer(layer, "layer").visibleRect
        ox.pointee = r.origin.x
        oy.pointee = r.origin.y
        ow.pointee = r.size.width
        oh.pointee = r.size.height
    }
}
