import CCairo
import Glibc

/// A bitmap: premultiplied ARGB32 in native byte order (cairo's layout), sRGB.
/// Immutable once made, so many layers and frames can share one.
public final class Image {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int
    /// Halved copies for trilinear minification (built on first use, ContentsDrawing).
    var mipmapChain: [Image]? = nil
    /// Made by a layer's display (memory accounting tells them from images).
    public internal(set) var isBackingStore = false
    /// Bumped when a backing store is redrawn in place (raster caches compare it).
    var version = 0

    /// Decoded bytes (what memory accounting counts, once per image).
    public var byteCount: Int { stride * height }

    /// Larger bitmaps are refused: cairo's limit is 32767, and memory matters.
    public static let maximumSide = 16384
    public static let maximumPixels = 1 << 27

    public static func checkSize(_ w: Int, _ h: Int, _ what: String) throws {
        guard w > 0, h > 0 else {
            throw CalunaError(.invalidArgument, "\(what): size \(w)×\(h) pixels is empty")
        }
        guard w <= maximumSide, h <= maximumSide, w * h <= maximumPixels else {
            throw CalunaError(.invalidArgument,
                              "\(what): size \(w)×\(h) pixels is too large (at most \(maximumSide) per side and \(maximumPixels) pixels)")
        }
    }

    /// A transparent bitmap.
    public init(width: Int, height: Int) throws {
        try Image.checkSize(width, height, "Image")
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "Image: cannot allocate \(width)×\(height) pixels")
        }
        surface = s
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// Raw premultiplied ARGB32 words, row by row (`stride` bytes per row), to read.
    func withPixels<R>(_ body: (UnsafeRawPointer, Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        return try body(UnsafeRawPointer(cairo_image_surface_get_data(surface)), stride)
    }

    /// The same, to write: cairo is told the pixels changed.
    func withMutablePixels<R>(_ body: (UnsafeMutableRawPointer, Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        defer { cairo_surface_mark_dirty(surface) }
        return try body(cairo_image_surface_get_data(surface), stride)
    }

    /// The pixel at (x, y) as straight-alpha 8-bit RGBA, or nil outside.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return withPixels { data, stride in
            let word = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
            return PixelFormat.unpremultiply(word)
        }
    }

    /// Writes a PNG with straight alpha (cairo un-premultiplies).
    public func writePNG(to path: String) throws {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            // cairo says only "error while writing to output stream": ask the OS why.
            var why = String(cString: cairo_status_to_string(status))
            if let f = fopen(path, "wb") { fclose(f) } else { why = String(cString: strerror(errno)) }
            throw CalunaError(.ioError, "cannot write PNG '\(path)': \(why)")
        }
    }

    /// Takes ownership of a decoded ARGB32 image surface (ImageIO.swift makes them).
    init(adopting s: OpaquePointer) {
        surface = s
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
    }
}
