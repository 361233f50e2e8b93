import Testing
@testable import Caluna

/// The per-pixel reference the C copy-out (calu_pixels.c) must equal byte for byte.
private func referenceBytes(_ w: UInt32, _ f: PixelFormat) -> [UInt8] {
    var (r, g, b, a) = (UInt8((w >> 16) & 255), UInt8((w >> 8) & 255), UInt8(w & 255), UInt8(w >> 24))
    if f.isStraight { (r, g, b, a) = PixelFormat.unpremultiply(w) }
    return f.isRGBA ? [r, g, b, a] : [b, g, r, a]
}

@Test func copyOutEqualsThePerPixelReferenceForSeededImages() throws {
    var rng = SeededRandom(seed: 0x5EED_C0B1)   // DamageTests.swift
    func next() -> UInt32 { UInt32(truncatingIfNeeded: rng.next()) }
    for round in 0..<60 {
        let width = 1 + Int(next() % 37), height = 1 + Int(next() % 9)
        let image = try Image(width: width, height: height)
        // Runs of opaque, clear and partial pixels, so the four-pixel fast paths and
        // their mixed blocks are all taken; a few words with colour above alpha too.
        image.withMutablePixels { data, stride in
            for y in 0..<height {
                var x = 0
                while x < width {
                    let kind = next() % 4, run = 1 + Int(next() % 7)
                    for _ in 0..<run where x < width {
                        let a: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : next() % 256
                        func c() -> UInt32 { kind == 3 ? next() % 256 : (a == 0 ? 0 : next() % (a + 1)) }
                        let word = a << 24 | c() << 16 | c() << 8 | c()
                        data.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self)
                        x += 1
                    }
                }
            }
        }
        for format in [PixelFormat.rgba8Premultiplied, .bgra8Premultiplied, .rgba8Straight, .bgra8Straight] {
            let stride = width * 4 + Int(next() % 3) * 4 + (round % 2)   // packed, padded, odd
            var buf = [UInt8](repeating: 0xEE, count: stride * height)
            buf.withUnsafeMutableBytes { image.copy(into: $0.baseAddress!, stride: stride, format: format) }
            var expected = [UInt8](repeating: 0xEE, count: stride * height)
            image.withPixels { data, s in
                for y in 0..<height {
                    for x in 0..<width {
                        let w = data.load(fromByteOffset: y * s + x * 4, as: UInt32.self)
                        expected.replaceSubrange((y * stride + x * 4)..<(y * stride + x * 4 + 4), with: referenceBytes(w, format))
                    }
                }
            }
            #expect(buf == expected, "round \(round), \(width)×\(height), stride \(stride), \(format)")
        }
    }
}

/// Every (alpha, channel) pair, straight and premultiplied, in both byte orders: the
/// float reciprocal in calu_pixels.c must give the integer division's result exactly.
@Test func copyOutUnpremultipliesEveryAlphaAndChannelExactly() throws {
    let image = try Image(width: 256, height: 256)
    image.withMutablePixels { data, stride in
        for a in 0..<256 {
            for c in 0..<256 {
                let w = UInt32(a) << 24 | UInt32(c) << 16 | UInt32(255 - c) << 8 | UInt32(c / 2)
                data.storeBytes(of: w, toByteOffset: a * stride + c * 4, as: UInt32.self)
            }
        }
    }
    for format in [PixelFormat.rgba8Straight, .bgra8Straight, .rgba8Premultiplied] {
        var buf = [UInt8](repeating: 0, count: 256 * 256 * 4)
        buf.withUnsafeMutableBytes { image.copy(into: $0.baseAddress!, stride: 256 * 4, format: format) }
        var wrong = 0
        image.withPixels { data, stride in
            for a in 0..<256 {
                for c in 0..<256 {
                    let w = data.load(fromByteOffset: a * stride + c * 4, as: UInt32.self)
                    let o = (a * 256 + c) * 4
                    if Array(buf[o..<(o + 4)]) != referenceBytes(w, format) { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0, "\(format): \(wrong) of 65,536 pixels differ from the reference")
    }
}
