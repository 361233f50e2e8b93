import CalunaBridge
import CalunaLua
import Foundation
import Testing
@testable import Caluna

// Image input (docs/images.md): PNG and JPEG from files and memory, caller
// pixels, and clear errors on hostile input. Fixtures are made at test time.

/// A fresh temporary directory, removed when `body` returns.
private func inTempDir(_ body: (String) throws -> Void) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caluna-imageio-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try body(dir)
}

private func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

private func read(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Straight RGBA bytes: a gradient with varied alpha, so every channel matters.
private func pattern(_ w: Int, _ h: Int) -> [UInt8] {
    var out: [UInt8] = []
    for y in 0..<h {
        for x in 0..<w {
            out += [UInt8(x * 255 / max(1, w - 1)), UInt8(y * 255 / max(1, h - 1)), UInt8((x * 7 + y * 13) & 255),
                    x % 5 == 0 ? 255 : UInt8(128 + (x + y) % 128)]
        }
    }
    return out
}

private func image(_ w: Int, _ h: Int, _ bytes: [UInt8], _ format: PixelFormat = .rgba8Straight) throws -> Image {
    try bytes.withUnsafeBytes { try Image(width: w, height: h, copying: $0.baseAddress!, stride: w * 4, format: format) }
}

private func flat(_ w: Int, _ h: Int, _ c: RGBA) throws -> Image {
    try image(w, h, [UInt8]((0..<w * h).flatMap { _ in [UInt8(c.r), UInt8(c.g), UInt8(c.b), UInt8(c.a)] }))
}

private func samePixels(_ a: Image, _ b: Image, tol: Int = 0) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height { for x in 0..<a.width where !px(a, x, y).matches(px(b, x, y), tol: tol) { return false } }
    return true
}

/// The CalunaError `body` throws (nil if none, or another kind of error).
private func caught<T>(_ body: () throws -> T) -> CalunaError? {
    do { _ = try body(); return nil } catch { return error as? CalunaError }
}

@Test func pngRoundTripThroughAFile() throws {
    try inTempDir { dir in
        let original = try image(37, 23, pattern(37, 23))
        try original.writePNG(to: dir + "/a.png", access: .unrestricted)
        let loaded = try Image.load(path: dir + "/a.png", access: .unrestricted)
        #expect(loaded.width == 37 && loaded.height == 23)
        #expect(samePixels(original, loaded, tol: 1))
        #expect(loaded.byteCount == loaded.stride * 23)
    }
}

@Test func pngFromMemory() throws {
    let original = try image(20, 10, pattern(20, 10))
    let png = try original.pngData()
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(samePixels(original, try Image(data: png), tol: 1))
    let decoded = try png.withUnsafeBytes { try Image.decode($0, name: "test") }
    #expect(samePixels(original, decoded, tol: 1))
}

@Test func jpegRoundTripOfAFlatColour() throws {
    try inTempDir { dir in
        let colour = RGBA(200, 100, 50)
        try flat(64, 48, colour).writeJPEG(to: dir + "/a.jpg", access: .unrestricted, quality: 100)
        #expect(try read(dir + "/a.jpg").starts(with: [0xFF, 0xD8, 0xFF]))
        let loaded = try Image.load(path: dir + "/a.jpg", access: .unrestricted)
        #expect(loaded.width == 64 && loaded.height == 48)
        for (x, y) in [(0, 0), (63, 47), (31, 20), (5, 40)] {
            #expect(px(loaded, x, y).matches(colour), "(\(x), \(y)) is \(px(loaded, x, y))")
        }
    }
}

@Test func jpegFromMemoryAtDefaultQuality() throws {
    let jpeg = try flat(16, 16, RGBA(10, 200, 30)).jpegData()
    #expect(px(try Image(data: jpeg), 8, 8).matches(RGBA(10, 200, 30), tol: 4))
}

@Test func grayscaleJPEGDecodesToGrey() throws {
    let jpeg = try flat(32, 16, RGBA(90, 90, 90)).jpegData(quality: 100, grayscale: true)
    let loaded = try Image(data: jpeg)
    #expect(loaded.width == 32 && loaded.height == 16)
    #expect(px(loaded, 3, 9).matches(RGBA(90, 90, 90)), "\(px(loaded, 3, 9))")
}

@Test func jpegQualityOutOfRangeIsRefused() throws {
    let img = try flat(4, 4, .red)
    #expect(caught { try img.jpegData(quality: 0) }?.code == .invalidArgument)
    #expect(caught { try img.jpegData(quality: 101) }?.code == .invalidArgument)
}

@Test func truncatedPNGIsAnError() throws {
    let png = try image(64, 64, pattern(64, 64)).pngData()
    let half = Array(png.prefix(png.count / 2))
    let e = caught { try Image(data: half) }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("PNG") == true, "\(String(describing: e))")
    try inTempDir { dir in
        try write(half, to: dir + "/half.png")
        #expect(caught { try Image.load(path: dir + "/half.png", access: .unrestricted) }?.code == .ioError)
    }
}

@Test func truncatedJPEGIsAnError() throws {
    let jpeg = try image(64, 64, pattern(64, 64)).jpegData(quality: 90)
    let e = caught { try Image(data: Array(jpeg.prefix(jpeg.count / 2))) }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("JPEG") == true, "\(String(describing: e))")
    // Only the header, and only the magic bytes.
    #expect(caught { try Image(data: Array(jpeg.prefix(20))) } != nil)
    #expect(caught { try Image(data: [0xFF, 0xD8, 0xFF]) } != nil)
}

@Test func corruptJPEGBodyIsAnError() throws {
    var jpeg = try image(64, 64, pattern(64, 64)).jpegData(quality: 90)
    // Overwrite the middle of the entropy-coded data with marker bytes.
    for i in stride(from: jpeg.count / 2, to: jpeg.count / 2 + 40, by: 2) { jpeg[i] = 0xFF; jpeg[i + 1] = 0xD9 }
    #expect(caught { try Image(data: jpeg) } != nil)
}

@Test func corruptPNGDataIsAnError() throws {
    var png = try image(64, 64, pattern(64, 64)).pngData()
    png[png.count / 2] ^= 0xFF  // inside IDAT: the chunk's CRC no longer matches
    let e = caught { try Image(data: png) }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("corrupt PNG") == true, "\(String(describing: e))")
}

@Test func aTextFileNamedPNGIsRefused() throws {
    try inTempDir { dir in
        try write(Array("hello, not an image\n".utf8), to: dir + "/text.png")
        let e = caught { try Image.load(path: dir + "/text.png", access: .unrestricted) }
        #expect(e?.code == .ioError)
        #expect(e?.message.contains("is not a PNG or JPEG image") == true, "\(String(describing: e))")
        #expect(e?.message.contains("text.png") == true)
    }
    #expect(caught { try Image(data: Array("GIF89a".utf8)) }?.code == .invalidArgument)
}

@Test func aMissingFileSaysSo() throws {
    let e = caught { try Image.load(path: "/nonexistent/caluna/x.png", access: .unrestricted) }
    #expect(e?.code == .ioError)
    #expect(e?.message == "cannot read image '/nonexistent/caluna/x.png': no such file")
}

@Test func anEmptyFileOrADirectoryIsAnError() throws {
    try inTempDir { dir in
        try write([], to: dir + "/empty.png")
        let e = caught { try Image.load(path: dir + "/empty.png", access: .unrestricted) }
        #expect(e?.code == .ioError)
        #expect(e?.message.contains("empty") == true)
        #expect(caught { try Image.load(path: dir, access: .unrestricted) }?.message.contains("directory") == true)
    }
    #expect(caught { try Image(data: []) }?.code == .invalidArgument)
}

@Test func aPNGClaimingAHugeSizeIsRefusedBeforeDecoding() throws {
    var png = try image(8, 8, pattern(8, 8)).pngData()
    // IHDR width and height (bytes 16…23, big-endian) → 100000 × 100000; the CRC is left wrong on purpose.
    let huge: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
    png.replaceSubrange(16..<20, with: huge)
    png.replaceSubrange(20..<24, with: huge)
    let e = caught { try Image(data: png) }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("100000×100000") == true, "\(String(describing: e))")
}

@Test func aJPEGClaimingAHugeSizeIsRefusedBeforeDecoding() throws {
    var jpeg = try flat(8, 8, .red).jpegData(quality: 95)
    // The baseline frame header: FF C0, length (2), precision (1), height (2), width (2).
    let sof = try #require((0..<jpeg.count - 9).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
    jpeg.replaceSubrange(sof + 5..<sof + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])  // 65500 × 65500
    let e = caught { try Image(data: jpeg) }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("65500×65500") == true, "\(String(describing: e))")
}

@Test func straightAndPremultipliedPixels() throws {
    // Half-transparent red, straight: reads back unchanged.
    let straight = try image(2, 1, [255, 0, 0, 128, 0, 0, 255, 255], .rgba8Straight)
    #expect(px(straight, 0, 0).matches(RGBA(255, 0, 0, 128), tol: 1))
    #expect(px(straight, 1, 0) == RGBA(0, 0, 255, 255))
    // The same colour premultiplied is (128, 0, 0, 128).
    let pre = try image(1, 1, [128, 0, 0, 128], .rgba8Premultiplied)
    #expect(px(pre, 0, 0).matches(RGBA(255, 0, 0, 128), tol: 1))
    // BGRA orders.
    #expect(px(try image(1, 1, [0, 0, 255, 128], .bgra8Straight), 0, 0).matches(RGBA(255, 0, 0, 128), tol: 1))
    #expect(px(try image(1, 1, [0, 0, 128, 128], .bgra8Premultiplied), 0, 0).matches(RGBA(255, 0, 0, 128), tol: 1))
    // Premultiplied colour above its alpha is clamped, not wrapped.
    #expect(px(try image(1, 1, [255, 255, 255, 0], .rgba8Premultiplied), 0, 0) == RGBA(0, 0, 0, 0))
}

@Test func aRowStrideAndItsLimits() throws {
    // 2×2 with 12-byte rows (4 bytes of padding each).
    let bytes: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 9, 9, 9, 9,
                          0, 0, 255, 255, 255, 255, 255, 255, 9, 9, 9, 9]
    let img = try bytes.withUnsafeBytes { try Image(width: 2, height: 2, copying: $0.baseAddress!, stride: 12, format: .rgba8Straight) }
    #expect(px(img, 0, 1) == .blue && px(img, 1, 1) == .white && px(img, 1, 0) == .green)
    let e = caught { try bytes.withUnsafeBytes { try Image(width: 2, height: 2, copying: $0.baseAddress!, stride: 7, format: .rgba8Straight) } }
    #expect(e?.code == .invalidArgument)
    #expect(e?.message.contains("stride") == true)
    #expect(caught { try bytes.withUnsafeBytes { try Image(width: 2, height: 2, copying: $0.baseAddress!, stride: Int.max, format: .rgba8Straight) } } != nil)
    #expect(caught { try bytes.withUnsafeBytes { try Image(width: 0, height: 2, copying: $0.baseAddress!, stride: 8, format: .rgba8Straight) } } != nil)
}

@Test func a8192By8192PNG() throws {
    try inTempDir { dir in
        let path = dir + "/big.png"
        do {
            // Quadrants in four colours, filled row by row (the image is freed at the end of this block).
            let big = try Image(width: 8192, height: 8192)
            big.withMutablePixels { data, stride in
                let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0x8080_8080]
                for y in 0..<8192 {
                    let row = (data + y * stride).bindMemory(to: UInt32.self, capacity: 8192)
                    row.update(repeating: colours[y < 4096 ? 0 : 2], count: 4096)
                    (row + 4096).update(repeating: colours[y < 4096 ? 1 : 3], count: 4096)
                }
            }
            try big.writePNG(to: path, access: .unrestricted)
        }
        let loaded = try Image.load(path: path, access: .unrestricted)
        #expect(loaded.width == 8192 && loaded.height == 8192)
        #expect(loaded.byteCount == 8192 * 8192 * 4)
        #expect(px(loaded, 0, 0) == .red && px(loaded, 8191, 0) == .green)
        #expect(px(loaded, 0, 8191) == .blue && px(loaded, 4095, 4095) == .red)
        #expect(px(loaded, 8191, 8191).matches(RGBA(255, 255, 255, 128), tol: 1))
    }
}

@Test func theLuaImageAPI() throws {
    try inTempDir { dir in
        let host = try LuaHost(session: try Session())
        let results = try host.evaluate("""
            local ca = require "caluna"
            local dir = ...
            -- fromPixels: straight RGBA by default; 2×1, half-transparent red then opaque blue.
            local img = ca.Image.fromPixels(2, 1, string.char(255, 0, 0, 128, 0, 0, 255, 255))
            local r, g, b, a = img:pixel(0, 0)
            assert(r == 255 and g == 0 and b == 0 and math.abs(a - 128) <= 1, "straight red")
            local pre = ca.Image.fromPixels(1, 1, string.char(0, 0, 128, 128), "bgraPremultiplied")
            r, g, b, a = pre:pixel(0, 0)
            assert(r == 255 and a == 128, "premultiplied bgra")
            -- JPEG out and back in, from a file and from a string.
            local flat = ca.Image.fromPixels(8, 8, string.rep(string.char(40, 120, 200, 255), 64))
            flat:writeJPEG(dir .. "/f.jpg", 100)
            local j = ca.Image.load(dir .. "/f.jpg")
            r, g, b = j:pixel(4, 4)
            assert(math.abs(r - 40) <= 3 and math.abs(g - 120) <= 3 and math.abs(b - 200) <= 3, "jpeg colour")
            local f = assert(io.open(dir .. "/f.jpg", "rb")); local bytes = f:read("a"); f:close()
            local m = ca.Image.fromData(bytes)
            -- Errors name the API.
            local function err(fn, ...) local ok, e = pcall(fn, ...); assert(not ok); return e end
            assert(err(ca.Image.load, dir .. "/nope.png"):find("Image.load: cannot read image '.-nope.png': no such file"))
            assert(err(ca.Image.fromData, "plain text"):find("Image.fromData: image data is not a PNG or JPEG image"))
            assert(err(ca.Image.fromData, bytes:sub(1, #bytes // 2)):find("Image.fromData: .*truncated or corrupt JPEG"))
            assert(err(ca.Image.fromPixels, 2, 2, "abc"):find("Image.fromPixels: a 2×2 image needs 16 bytes, got 3"))
            assert(err(ca.Image.fromPixels, 1, 1, "abcd", "argb"):find("format must be"))
            assert(err(ca.Image.fromPixels, 1.5, 1, "abcd"):find("whole number"))
            assert(err(ca.Image.fromPixels, 100000, 1, "abcd"):find("too large"))
            assert(err(flat.writeJPEG, flat, dir .. "/q.jpg", 0):find("Image:writeJPEG: .*quality"))
            return img.byteCount, j.width, m.height, m.byteCount
            """, chunkName: "imageio", args: [dir])
        #expect(results == [8, 8, 8, 256])
    }
}
