import CCairo
import CalunaJPEG
import Glibc

/// Images in and out: PNG (cairo, libpng) and JPEG (libjpeg-turbo through
/// CalunaJPEG, whose C code catches libjpeg's longjmp errors), from files or
/// memory, and caller pixels. Every input is hostile until checked: the size
/// is read from the header and checked before any pixel is allocated.
extension Image {
    /// Files larger than this are refused unread (a full-size PNG needs ~512 MiB).
    public static let maximumFileSize = 1 << 30

    /// Reads a PNG or JPEG file (the format comes from its first bytes), if
    /// `access` lets `api` read it.
    public static func load(path: String, access: FileAccess, api: String = "Image.load") throws -> Image {
        Image(adopting: try loadSurface(path, access, api))
    }

    /// Decodes a PNG or JPEG file held in memory.
    public convenience init(data: [UInt8], name: String = "image data") throws {
        let s = try data.withUnsafeBytes { try Image.decodeSurface($0, name: name, code: .invalidArgument) }
        self.init(adopting: s)
    }

    /// Decodes a PNG or JPEG file held in memory; `name` is for messages.
    public static func decode(_ bytes: UnsafeRawBufferPointer, name: String = "image data") throws -> Image {
        Image(adopting: try decodeSurface(bytes, name: name, code: .invalidArgument))
    }

    private static func loadSurface(_ path: String, _ access: FileAccess, _ api: String) throws -> OpaquePointer {
        let bytes = try readFile(path, access: access, api: api)
        return try bytes.withUnsafeBytes { try decodeSurface($0, name: "image '\(path)'", code: .ioError) }
    }

    /// The whole file, if `access` lets `api` read it, with the OS's reason
    /// when it cannot be read.
    static func readFile(_ path: String, access: FileAccess, api: String, what: String = "image",
                         maximumSize: Int = maximumFileSize) throws -> [UInt8] {
        let allowed = try access.check(path, .read, api)
        func fail(_ why: String) -> CalunaError { CalunaError(.ioError, "cannot read \(what) '\(path)': \(why)") }
        func reason(_ e: Int32) -> String { e == ENOENT ? "no such file" : String(cString: strerror(e)) }
        // O_NONBLOCK: opening a FIFO must not hang; it is refused below.
        let fd = open(allowed, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw fail(reason(errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw fail(reason(errno)) }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw fail(st.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "not a regular file")
        }
        guard let size = Int(exactly: st.st_size), size > 0 else { throw fail("the file is empty") }
        guard size <= maximumSize else { throw fail("the file is larger than \(maximumSize >> 20) MiB") }
        // The buffer counts against the memory cap while it is read (a sandbox's file can be large).
        let charge = try MemoryCharge(MemoryLedger.current, size, "reading \(what) '\(path)'")
        defer { withExtendedLifetime(charge) {} }
        var bytes = [UInt8](repeating: 0, count: size)
        let got = try bytes.withUnsafeMutableBytes { buf -> Int in
            guard let base = buf.baseAddress else { return 0 }
            var done = 0
            while done < size {
                let n = read(fd, base + done, size - done)
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else { throw fail(reason(errno)) }
                if n == 0 { break }  // the file shrank while we read it
                done += n
            }
            return done
        }
        guard got > 0 else { throw fail("the file is empty") }
        if got < size { bytes.removeLast(size - got) }
        return bytes
    }

    /// An ARGB32 surface from PNG or JPEG bytes; format errors carry `code`.
    static func decodeSurface(_ data: UnsafeRawBufferPointer, name: String, code: CalunaError.Code) throws -> OpaquePointer {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try decodePNG(data, name: name, code: code)
        }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try decodeJPEG(data, name: name, code: code)
        }
        throw CalunaError(code, data.isEmpty ? "\(name) is empty" : "\(name) is not a PNG or JPEG image")
    }

    // MARK: PNG

    /// The memory a PNG stream reads from (cairo's read callback's closure).
    private struct PNGSource {
        let data: UnsafeRawBufferPointer
        var offset = 0
    }

    /// Never throws: a short read returns an error status and cairo's own
    /// libpng error handler takes it from there, after this frame returned.
    private static let readPNG: cairo_read_func_t = { closure, out, length in
        guard let source = closure?.assumingMemoryBound(to: PNGSource.self), let out else { return CAIRO_STATUS_READ_ERROR }
        let n = Int(length), at = source.pointee.offset
        guard n <= source.pointee.data.count - at, let base = source.pointee.data.baseAddress else {
            return CAIRO_STATUS_READ_ERROR
        }
        UnsafeMutableRawPointer(out).copyMemory(from: base + at, byteCount: n)
        source.pointee.offset = at + n
        return CAIRO_STATUS_SUCCESS
    }

    private static func decodePNG(_ data: UnsafeRawBufferPointer, name: String, code: CalunaError.Code) throws -> OpaquePointer {
        // Signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
        guard data.count >= 24, Array(data[12..<16]) == Array("IHDR".utf8) else {
            throw CalunaError(code, "\(name): corrupt PNG (no IHDR header)")
        }
        func be32(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let w = be32(16), h = be32(20)
        try checkSize(w, h, name)
        try checkMemory(w, h, name)
        var source = PNGSource(data: data)
        let s = withUnsafeMutablePointer(to: &source) { cairo_image_surface_create_from_png_stream(readPNG, $0) }
        guard let s else { throw CalunaError(.outOfMemory, "\(name): cannot decode the PNG") }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            // cairo 1.16 reports every libpng error (bad CRC, bad zlib data) as NO_MEMORY.
            let why = status == CAIRO_STATUS_NO_MEMORY ? "corrupt PNG data, or no memory for \(w)×\(h) pixels"
                : "truncated or corrupt PNG data (\(String(cString: cairo_status_to_string(status))))"
            throw CalunaError(code, "\(name): \(why)")
        }
        return try normalised(s, name: name)
    }

    /// cairo gives RGB24 for opaque PNGs: repaint into ARGB32 so every Image has one layout.
    private static func normalised(_ s: OpaquePointer, name: String) throws -> OpaquePointer {
        if cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32 { return s }
        defer { cairo_surface_destroy(s) }
        let n = try newSurface(Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)), name)
        let cr = cairo_create(n)
        cairo_set_source_surface(cr, s, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(n)
            throw CalunaError(.outOfMemory, "\(name): cannot convert the pixels")
        }
        return n
    }

    private static func newSurface(_ w: Int, _ h: Int, _ name: String) throws -> OpaquePointer {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(clamping: w), Int32(clamping: h)) else {
            throw CalunaError(.outOfMemory, "\(name): cannot allocate \(w)×\(h) pixels")
        }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw CalunaError(.outOfMemory, "\(name): cannot allocate \(w)×\(h) pixels")
        }
        return s
    }

    // MARK: JPEG

    private static func decodeJPEG(_ data: UnsafeRawBufferPointer, name: String, code: CalunaError.Code) throws -> OpaquePointer {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw CalunaError(code, "\(name) is empty")
        }
        var err = [CChar](repeating: 0, count: 256)
        var w: Int32 = 0, h: Int32 = 0
        guard calu_jpeg_header(base, data.count, &w, &h, &err, 256) == 0 else {
            throw CalunaError(code, "\(name): truncated or corrupt JPEG data (\(message(err)))")
        }
        try checkSize(Int(w), Int(h), name)
        try checkMemory(Int(w), Int(h), name)
        let s = try newSurface(Int(w), Int(h), name)
        cairo_surface_flush(s)
        let status = calu_jpeg_decode(base, data.count, cairo_image_surface_get_data(s),
                                      cairo_image_surface_get_stride(s), w, h, &err, 256)
        cairo_surface_mark_dirty(s)
        guard status == 0 else {
            cairo_surface_destroy(s)
            throw CalunaError(code, "\(name): truncated or corrupt JPEG data (\(message(err)))")
        }
        return s
    }

    private static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bitmap as a JPEG file's bytes, quality 1…100, in colour or
    /// greyscale. JPEG has no alpha: transparent parts come out as if drawn
    /// over black.
    public func jpegData(quality: Int = 90, grayscale: Bool = false) throws -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw CalunaError.invalid("JPEG quality must be 1…100, got \(quality)")
        }
        var err = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        let status = withPixels { data, stride in
            calu_jpeg_encode(data.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height),
                             Int32(clamping: stride), Int32(quality), grayscale ? 1 : 0, &out, &length, &err, 256)
        }
        guard status == 0, let out else {
            throw CalunaError(.outOfMemory, "cannot encode a JPEG: \(Image.message(err))")
        }
        defer { calu_jpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Writes a JPEG file (see `jpegData(quality:grayscale:)`), if `access` lets `api` write it.
    public func writeJPEG(to path: String, access: FileAccess, api: String = "Image.writeJPEG",
                          quality: Int = 90, grayscale: Bool = false) throws {
        try Image.writeFile(path, try jpegData(quality: quality, grayscale: grayscale), what: "JPEG", access: access, api: api)
    }

    /// The bitmap as a PNG file's bytes (straight alpha, as `writePNG`).
    public func pngData() throws -> [UInt8] {
        var bytes: [UInt8] = []
        cairo_surface_flush(surface)
        let status = withUnsafeMutablePointer(to: &bytes) { cairo_surface_write_to_png_stream(surface, Image.appendPNG, $0) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CalunaError(.outOfMemory, "cannot encode a PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return bytes
    }

    private static let appendPNG: cairo_write_func_t = { closure, data, length in
        guard let bytes = closure?.assumingMemoryBound(to: [UInt8].self) else { return CAIRO_STATUS_WRITE_ERROR }
        if let data { bytes.pointee.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
        return CAIRO_STATUS_SUCCESS
    }

    /// Creates or replaces a regular file, if `access` lets `api` write it
    /// (a FIFO or device is refused, never opened for blocking writes).
    static func writeFile(_ path: String, _ bytes: [UInt8], what: String, access: FileAccess, api: String) throws {
        let allowed = try access.check(path, .write, api)
        func fail(_ why: String = String(cString: strerror(errno))) -> CalunaError {
            CalunaError(.ioError, "cannot write \(what) '\(path)': \(why)")
        }
        let fd = open(allowed, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { throw fail() }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw fail() }
        guard st.st_mode & S_IFMT == S_IFREG else { throw fail("not a regular file") }
        guard ftruncate(fd, 0) == 0 else { throw fail() }
        try bytes.withUnsafeBytes { buf in
            guard let base = buf.baseAddress else { return }
            var done = 0
            while done < buf.count {
                let n = write(fd, base + done, buf.count - done)
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                guard n > 0 else { throw fail() }
                done += n
            }
        }
    }

    // MARK: caller pixels

    /// Copies a host's `width` × `height` pixels, `stride` bytes per row, in
    /// `format`. Straight alpha is premultiplied (rounded); premultiplied
    /// colour above its alpha is clamped to it. The caller guarantees
    /// `stride × (height − 1) + width × 4` readable bytes.
    public convenience init(width: Int, height: Int, copying pixels: UnsafeRawPointer, stride: Int, format: PixelFormat) throws {
        try Image.checkSize(width, height, "Image")
        guard stride >= width * 4 else {
            throw CalunaError.invalid("Image: a stride of \(stride) bytes is less than width × 4 = \(width * 4)")
        }
        let (last, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        guard !overflow, last <= Int.max - width * 4 else {
            throw CalunaError.invalid("Image: a stride of \(stride) bytes × \(height) rows overflows")
        }
        try self.init(width: width, height: height)
        let (r, b) = format.isRGBA ? (0, 2) : (2, 0)
        let straight = format.isStraight
        withMutablePixels { dst, dstStride in
            for y in 0..<height {
                let srow = pixels + y * stride, drow = dst + y * dstStride
                for x in 0..<width {
                    let p = srow + x * 4
                    let a = UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
                    func channel(_ i: Int) -> UInt32 {
                        let c = UInt32(p.load(fromByteOffset: i, as: UInt8.self))
                        return straight ? (c * a + 127) / 255 : min(c, a)
                    }
                    let word = a << 24 | channel(r) << 16 | channel(1) << 8 | channel(b)
                    drow.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
    }
}
