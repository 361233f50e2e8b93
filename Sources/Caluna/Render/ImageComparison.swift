/// Pixel-by-pixel comparison of two bitmaps in straight-alpha RGBA, for
/// golden-image tests.
public struct ImageComparison {
    /// Pixels where some channel differs by more than the tolerance.
    public var mismatchedPixels: Int
    /// The largest channel difference anywhere.
    public var maximumDifference: Int
    /// A picture of the differences: mismatches in red (brighter = larger),
    /// matching pixels as a faint grey copy of `self`.
    public var diff: Image
}

extension Image {
    public func compare(with other: Image, tolerance: Int) throws -> ImageComparison {
        guard width == other.width, height == other.height else {
            throw CalunaError(.invalidArgument,
                              "compare: sizes differ (\(width)×\(height) versus \(other.width)×\(other.height) pixels)")
        }
        let diff = try Image(width: width, height: height)
        var mismatched = 0, maxDelta = 0
        withPixels { a, aStride in
            other.withPixels { b, bStride in
                diff.withMutablePixels { d, dStride in
                    for y in 0..<height {
                        for x in 0..<width {
                            let pa = PixelFormat.unpremultiply(a.load(fromByteOffset: y * aStride + x * 4, as: UInt32.self))
                            let pb = PixelFormat.unpremultiply(b.load(fromByteOffset: y * bStride + x * 4, as: UInt32.self))
                            let delta = Swift.max(abs(Int(pa.r) - Int(pb.r)), abs(Int(pa.g) - Int(pb.g)),
                                                  abs(Int(pa.b) - Int(pb.b)), abs(Int(pa.a) - Int(pb.a)))
                            maxDelta = Swift.max(maxDelta, delta)
                            let word: UInt32
                            if delta > tolerance {
                                mismatched += 1
                                word = 0xFF00_0000 | UInt32(Swift.min(255, 128 + delta)) << 16
                            } else {
                                let grey = UInt32((Int(pa.r) + Int(pa.g) + Int(pa.b)) / 3 / 4 + 160)
                                word = 0xFF00_0000 | grey << 16 | grey << 8 | grey
                            }
                            d.storeBytes(of: word, toByteOffset: y * dStride + x * 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
        return ImageComparison(mismatchedPixels: mismatched, maximumDifference: maxDelta, diff: diff)
    }
}
