import Caluna
import CalunaBridge

// UIBezierPath's arc and per-corner rounded rect as path elements (ABI 1.7), made by
// Caluna's Path (one place for the geometry), so a C host builds a CAShapeLayer's
// "path" from these, lines and curves. Engine-less: messages at caluna_last_error(NULL).
// Like caluna_animation_get_path, the first `capacity` elements are written and *count
// is the whole count.

private func emitting(_ function: String, _ out: UnsafeMutableRawPointer?, _ capacity: Int32,
                      _ count: UnsafeMutablePointer<Int32>?, _ body: () throws -> Path) -> Int32 {
    count?.pointee = 0
    return withoutEngine(function) {
        let c = try arrayOutput(out, capacity, count)
        let path = try body()
        if let out { writePath(path, to: out, capacity: Int(capacity)) }
        c.pointee = Int32(path.elements.count)
    }
}

/// A coordinate or length in points: finite, within ±1e8 (a layer path's range).
private func points(_ values: [(String, Double)]) throws {
    try finite(values)
    for (name, v) in values where abs(v) > maximumCoordinate {
        throw CalunaError(.invalidArgument, "\(name) \(v) is beyond ±1e8 points")
    }
}

@_cdecl("caluna_path_arc")
public func caluna_path_arc(_ cx: Double, _ cy: Double, _ radius: Double, _ startAngle: Double, _ endAngle: Double,
                            _ clockwise: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32,
                            _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    emitting("caluna_path_arc", out, capacity, count) {
        try points([("cx", cx), ("cy", cy), ("radius", radius)])
        try finite([("start_angle", startAngle), ("end_angle", endAngle)])
        guard radius >= 0 else { throw CalunaError(.invalidArgument, "radius must be ≥ 0 (got \(radius))") }
        guard abs(startAngle) <= 1e6, abs(endAngle) <= 1e6 else {
            throw CalunaError(.invalidArgument, "angles must be within ±1e6 radians (got \(startAngle), \(endAngle))")
        }
        var p = Path()
        p.addArc(center: Point(cx, cy), radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise != 0)
        return p
    }
}

@_cdecl("caluna_path_rounded_rect")
public func caluna_path_rounded_rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                     _ radiusWidth: Double, _ radiusHeight: Double, _ corners: UInt32,
                                     _ out: UnsafeMutableRawPointer?, _ capacity: Int32,
                                     _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    emitting("caluna_path_rounded_rect", out, capacity, count) {
        try points([("x", x), ("y", y), ("width", width), ("height", height),
                    ("radius_width", radiusWidth), ("radius_height", radiusHeight)])
        guard radiusWidth >= 0, radiusHeight >= 0 else {
            throw CalunaError(.invalidArgument, "the radii must be ≥ 0 (got \(radiusWidth), \(radiusHeight))")
        }
        guard corners <= 15 else { throw CalunaError(.invalidArgument, "corners \(corners) is not a mask of 1|2|4|8") }
        var p = Path()
        p.addRoundedRect(Rect(x, y, width, height), cornerRadii: Size(radiusWidth, radiusHeight),
                         corners: CornerMask(rawValue: Int(corners)))
        return p
    }
}
