import CalunaPixels

/// Pixel layouts a host can ask for, and the conversions from cairo's
/// premultiplied native-endian ARGB32.
public enum PixelFormat: Int32, Sendable {
    case rgba8Premultiplied = 0
    case bgra8Premultiplied = 1
    case rgba8Straight = 2
    case bgra8Straight = 3

    public var isStraight: Bool { self == .rgba8Straight || self == .bgra8Straight }
    public var isRGBA: Bool { self == .rgba8Premultiplied || self == .rgba8Straight }

    /// One premultiplied ARGB32 word → straight RGBA bytes (rounded).
    @inline(__always)
    static func unpremultiply(_ w: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let a = UInt32(w >> 24), r = (w >> 16) & 255, g = (w >> 8) & 255, b = w & 255
        guard a != 0 else { return (0, 0, 0, 0) }
        guard a != 255 else { return (UInt8(r), UInt8(g), UInt8(b), 255) }
        func u(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
        return (u(r), u(g), u(b), UInt8(a))
    }
}

extension Image {
    /// Copies the bitmap into a caller's buffer in `format`, `stride` bytes
    /// per row. The caller guarantees `stride * height` writable bytes.
    /// Vectorisable C (calu_pixels.c): memory speed for opaque and clear
    /// pixels, a table for the straight-alpha division.
    public func copy(into buffer: UnsafeMutableRawPointer, stride dstStride: Int, format: PixelFormat) {
        copy(PixelRect(x: 0, y: 0, width: width, height: height), into: buffer, stride: dstStride, format: format)
    }

    /// The same for the pixels of `rect` only (cut to the bitmap): they go to
    /// the same place in the caller's buffer, whose origin is the bitmap's.
    public func copy(_ rect: PixelRect, into buffer: UnsafeMutableRawPointer, stride dstStride: Int, format: PixelFormat) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        withPixels { src, srcStride in
            _ = calu_pixels_convert((src + r.y * srcStride + r.x * 4).assumingMemoryBound(to: UInt8.self), srcStride,
                                    (buffer + r.y * dstStride + r.x * 4).assumingMemoryBound(to: UInt8.self), dstStride,
                                    r.width, r.height, Int32(format.rawValue))
        }
    }
}
