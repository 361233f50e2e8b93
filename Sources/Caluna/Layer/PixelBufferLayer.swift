/// The properties of a PixelBufferLayer: caluna's portable CAEAGLLayer and
/// AVPlayerLayer (chapter 6.14–6.16). Its content is a frame of pixels a
/// callback draws at render time (a software renderer, a GL readback) or a
/// host submits (a video decoder), composited exactly like `contents`:
/// contentsGravity (AVPlayerLayer's videoGravity), contentsRect, masks,
/// corners and 3D transforms all apply (PixelBufferRendering.swift).
public struct PixelBufferLayerState: Equatable {
    /// The buffer a callback draws, in pixels; 0 = bounds × contentsScale
    /// (rounded up).
    public var pixelWidth = 0.0
    public var pixelHeight = 0.0
    /// kEAGLDrawablePropertyRetainedBacking: false (the book's NO) asks the
    /// callback for a new frame each time the layer is drawn; true keeps the
    /// frame until setNeedsDisplay (or a new buffer size) asks again.
    public var retainedBacking = false

    static func checkPixels(_ key: String, _ v: Double) throws {
        guard v >= 0, v <= Double(Image.maximumSide), v.rounded() == v else {
            throw CalunaError.invalid("\(key) must be a whole number of pixels in 0…\(Image.maximumSide) (got \(fmt(v)))")
        }
    }
}

extension LayerProperties {
    static let pixelBufferLayer: [LayerProperty] = [
        .specialised("pixelWidth", \.pixelBuffer.pixelWidth, animatable: false) {
            try PixelBufferLayerState.checkPixels("pixelWidth", $0)
        },
        .specialised("pixelHeight", \.pixelBuffer.pixelHeight, animatable: false) {
            try PixelBufferLayerState.checkPixels("pixelHeight", $0)
        },
        .specialised("retainedBacking", \.pixelBuffer.retainedBacking, animatable: false),
    ]
}

/// The pixels a frame callback writes: straight-alpha colour in, stored
/// premultiplied (the frame is an Image). Valid only during the callback.
public final class PixelBuffer {
    private(set) var image: Image
    public var width: Int { image.width }
    public var height: Int { image.height }
    public private(set) var isValid = true

    init(width: Int, height: Int) throws {
        image = try Image(width: width, height: height)
    }

    func invalidate() { isValid = false }

    private func live(_ api: String) throws {
        guard isValid else {
            throw CalunaError.invalid("\(api): the pixel buffer is only valid inside the callback that received it")
        }
    }

    static func word(_ c: Color) -> UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        let a = byte(c.alpha)
        func pre(_ v: Double) -> UInt32 { min(byte(min(max(v, 0), 1) * Double(a) / 255), a) }
        return a << 24 | pre(c.red) << 16 | pre(c.green) << 8 | pre(c.blue)
    }

    /// Sets pixel (x, y) (top-left origin) to `color`; outside is an error.
    public func set(x: Int, y: Int, _ color: Color) throws {
        try live("PixelBuffer:set")
        guard x >= 0, y >= 0, x < width, y < height else {
            throw CalunaError.invalid("PixelBuffer:set: pixel (\(x), \(y)) is outside the \(width)×\(height) buffer")
        }
        let w = PixelBuffer.word(color)
        image.withMutablePixels { p, stride in p.storeBytes(of: w, toByteOffset: y * stride + x * 4, as: UInt32.self) }
    }

    /// The pixel at (x, y), straight alpha.
    public func pixel(x: Int, y: Int) throws -> Color {
        try live("PixelBuffer:get")
        guard let p = image.pixel(x: x, y: y) else {
            throw CalunaError.invalid("PixelBuffer:get: pixel (\(x), \(y)) is outside the \(width)×\(height) buffer")
        }
        return Color(red: Double(p.r) / 255, green: Double(p.g) / 255, blue: Double(p.b) / 255, alpha: Double(p.a) / 255)
    }

    /// Replaces every pixel with a host's `width` × `height` bytes in
    /// `format`, `stride` bytes per row (the C frame callback's buffer).
    public func load(_ pixels: UnsafeRawPointer, stride: Int, format: PixelFormat) throws {
        try live("PixelBuffer:load")
        image = try Image(width: width, height: height, copying: pixels, stride: stride, format: format)
    }

    /// Every pixel set to `color` (glClearColor + glClear).
    public func fill(_ color: Color) throws {
        try live("PixelBuffer:fill")
        let w = PixelBuffer.word(color)
        image.withMutablePixels { p, stride in
            for y in 0..<height {
                let row = (p + y * stride).bindMemory(to: UInt32.self, capacity: width)
                for x in 0..<width { row[x] = w }
            }
        }
    }
}

/// Draws a pixel buffer layer's frame (the Lua binding is one).
public protocol PixelBufferLayerDelegate: AnyObject {
    /// Draws into `buffer` for the engine time `time`; returns a whole image
    /// to show instead, or nil (the buffer is the frame). `drew` is false
    /// when the delegate has no frame callback for the layer.
    func drawFrame(of layer: Layer, into buffer: PixelBuffer, time: Double) throws -> (drew: Bool, image: Image?)
}

/// What a pixel buffer layer shows, on its model layer: the last frame and
/// who makes the next one.
public final class PixelBufferStore {
    /// The frame shown (the last one drawn or submitted).
    public internal(set) var frame: Image? = nil
    /// setNeedsDisplay asked for a new frame.
    var needsFrame = false
    /// A host's frame callback: it draws `buffer` at `time` (C: a format
    /// conversion around the host's bytes). Comes before the delegate.
    public var frameHandler: ((Layer, PixelBuffer, Double) throws -> Void)? = nil
    /// Frames the callbacks drew (tests count them).
    public internal(set) var framesDrawn = 0
    /// The engine render that last asked for a frame (a layer drawn by
    /// several bands, or copied by a replicator, gets one frame per render).
    var askedInRender: UInt64 = 0

    /// A host's frame (a decoder pushing video): shown until the next one.
    public func submit(_ image: Image) {
        frame = image
        needsFrame = false
    }
}

extension Layer {
    /// The frame store of a pixel buffer layer (on the model layer).
    public var pixelBufferStore: PixelBufferStore {
        let model = modelLayer
        if let s = model.kindCache as? PixelBufferStore { return s }
        let s = PixelBufferStore()
        model.kindCache = s
        return s
    }
}
