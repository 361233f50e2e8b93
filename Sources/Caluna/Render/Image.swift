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
    /// The image whose pixels a `view()` draws on.
    private var viewed: Image? = nil

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

    /// The pixels' cost in a memory ledger, released when the image is freed.
    let memoryCharge: MemoryCharge

    /// What a bitmap of w × h pixels is charged: 4 bytes a pixel and the
    /// surface's bookkeeping.
    public static func chargedBytes(_ w: Int, _ h: Int) -> Int { w * h * 4 + 256 }

    /// A transparent bitmap, charged to `memory` (by default the thread's
    /// current ledger, MemoryLedger.swift) before it is allocated.
    public init(width: Int, height: Int, memory: MemoryLedger? = MemoryLedger.current) throws {
        try Image.checkSize(width, height, "Image")
        let charge = try MemoryCharge(memory, Image.chargedBytes(width, height), "Image \(width)×\(height)")
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "Image: cannot allocate \(width)×\(height) pixels")
        }
        surface = s
        self.width = width
        self.height = height
        memoryCharge = charge
    }

    deinit { cairo_surface_destroy(surface) }

    /// cairo draws the first shape on a fresh surface by another path (its
    /// "clear" shortcut), which rounds antialiased edges differently; a
    /// partial redraw (RenderTarget) draws on a surface that is not fresh.
    /// Frames start without the shortcut, so both give the same bytes: one
    /// pixel is painted and cleared again (a clear alone is skipped on a
    /// fresh surface). Only for an image nothing was drawn on yet.
    func endClearShortcut() {
        let cr = cairo_create(surface)!
        cairo_rectangle(cr, 0, 0, 1, 1)
        cairo_clip(cr)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
    }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// A new bitmap with the same pixels (a frame kept past the next render).
    public func duplicate() throws -> Image {
        let copy = try Image(width: width, height: height)
        withPixels { src, ss in
            copy.withMutablePixels { dst, ds in
                if ss == ds { memcpy(dst, src, ss * height); return }
                for y in 0..<height { memcpy(dst + y * ds, src + y * ss, width * 4) }
            }
        }
        return copy
    }

    /// Raw premultiplied ARGB32 words, row by row (`stride` bytes per row), to read.
    func withPixels<R>(_ body: (UnsafeRawPointer, Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        return try body(UnsafeRawPointer(cairo_image_surface_get_data(surface)), stride)
    }

    /// The same, to write: cairo is told the pixels changed.
    /// The pixels and stride, flushed, for writing without cairo (call
    /// `markDirty` after): bands of one render write disjoint rows at once.
    func rawPixels() -> (UnsafeMutableRawPointer, Int) {
        cairo_surface_flush(surface)
        return (UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!), stride)
    }

    func markDirty() { cairo_surface_mark_dirty(surface) }

    /// Every pixel transparent, as a fresh bitmap's are (the clear shortcut
    /// stays off: see `endClearShortcut`).
    func clearPixels() {
        clearPixels([PixelRect(x: 0, y: 0, width: width, height: height)])
    }

    /// The pixels of `rects` (inside the bitmap) transparent: memset, a
    /// few times faster than cairo's CLEAR fill.
    func clearPixels(_ rects: [PixelRect]) {
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!, stride = self.stride
        for r in rects {
            let r = r.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
            guard !r.isEmpty else { continue }
            if r.x == 0 && r.width == width {
                memset(data + r.y * stride, 0, r.height * stride)
            } else {
                for y in r.y..<r.maxY { memset(data + y * stride + r.x * 4, 0, r.width * 4) }
            }
            cairo_surface_mark_dirty_rectangle(surface, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
    }

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

    /// Writes a PNG with straight alpha (cairo un-premultiplies), if `access`
    /// lets `api` write the file.
    public func writePNG(to path: String, access: FileAccess, api: String = "Image.write") throws {
        try Image.writeFile(path, try pngData(), what: "PNG", access: access, api: api)
    }

    /// Another Image over the same pixels with a cairo surface of its own:
    /// threads drawing disjoint parts of one bitmap each use one (cairo's
    /// surface state is not shared between threads). Uncharged; it keeps this
    /// image alive. Nil when cairo refuses.
    func view() -> Image? {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface),
              let s = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { return nil }
        let v = Image(adopting: s, memory: nil)
        v.viewed = self
        return v
    }

    /// Takes ownership of a decoded ARGB32 image surface (ImageIO.swift makes
    /// them, after `checkMemory` passed for its size): charged without refusal.
    init(adopting s: OpaquePointer, memory: MemoryLedger? = MemoryLedger.current) {
        surface = s
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
        memoryCharge = MemoryCharge(forcing: memory, Image.chargedBytes(width, height))
    }

    /// Refuses a bitmap of w × h pixels the current ledger cannot take,
    /// before a decoder allocates it (`init(adopting:)` then charges it).
    static func checkMemory(_ w: Int, _ h: Int, _ what: String) throws {
        try MemoryLedger.current?.check(chargedBytes(w, h), what)
    }
}
