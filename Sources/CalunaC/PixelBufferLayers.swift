import Caluna
import CalunaBridge
import Glibc

// Pixel buffer layers (ABI 1.7): a host's frame callback (CAEAGLLayer's
// drawFrame: a software renderer or a GL readback) and frames a host pushes
// (AVPlayerLayer fed by a video decoder).

public typealias CPixelBufferCallback = @convention(c) (OpaquePointer?, UInt64, UnsafeMutableRawPointer?, Int32, Int32,
                                                        Int32, Double, UnsafeMutableRawPointer?) -> Int32

/// The layer `id` as a pixel buffer model layer.
private func pixelBufferLayer(_ ce: CEngine, _ id: UInt64) throws -> Layer {
    let l = try ce.layer(id, "layer", kind: .pixelBufferLayer)
    try l.checkModel("layer")
    return l
}

/// One run of a host's frame callback: a zeroed (transparent) buffer in
/// `format`, tightly packed, converted into the frame after the call.
private func runFrameCallback(_ callback: CPixelBufferCallback, _ format: PixelFormat, _ host: HostReference,
                              _ layer: Layer, _ buffer: PixelBuffer, _ time: Double) throws {
    guard let ce = host.engine else { return }
    let stride = buffer.width * 4
    guard let bytes = calloc(buffer.height, stride) else {
        throw CalunaError(.outOfMemory, "the frame callback: cannot allocate \(buffer.width)×\(buffer.height) pixels")
    }
    defer { free(bytes) }
    let status = callback(ce.pointer, ce.id(layer), bytes, Int32(buffer.width), Int32(buffer.height), Int32(stride),
                          time, host.user)
    try checkCallbackStatus(status, "the pixel buffer callback")
    try buffer.load(bytes, stride: stride, format: format)
}

@_cdecl("caluna_pixel_buffer_layer_set_callback")
public func caluna_pixel_buffer_layer_set_callback(_ e: OpaquePointer?, _ layer: UInt64, _ format: Int32,
                                                   _ callback: CPixelBufferCallback?, _ user: UnsafeMutableRawPointer?,
                                                   _ release: CReleaseCallback?) -> Int32 {
    withEngine(e, "caluna_pixel_buffer_layer_set_callback") { ce in
        let l = try pixelBufferLayer(ce, layer)
        guard let callback else {
            l.pixelBufferStore.frameHandler = nil
            return
        }
        let fmt = try pixelFormat(format)
        // The handler holds `user`: its release runs when the handler goes.
        let host = HostReference(user: user, release: release, engine: ce)
        l.pixelBufferStore.frameHandler = { layer, buffer, time in
            try runFrameCallback(callback, fmt, host, layer, buffer, time)
        }
    }
}

@_cdecl("caluna_pixel_buffer_layer_submit")
public func caluna_pixel_buffer_layer_submit(_ e: OpaquePointer?, _ layer: UInt64, _ pixels: UnsafeRawPointer?,
                                             _ width: Int32, _ height: Int32, _ stride: Int32, _ format: Int32) -> Int32 {
    withEngine(e, "caluna_pixel_buffer_layer_submit") { ce in
        let l = try pixelBufferLayer(ce, layer)
        let fmt = try pixelFormat(format)
        guard let pixels else { throw CalunaError(.invalidArgument, "pixels is NULL") }
        try Image.checkSize(Int(width), Int(height), "width × height")
        l.pixelBufferStore.submit(try Image(width: Int(width), height: Int(height), copying: pixels, stride: Int(stride),
                                            format: fmt))
    }
}

@_cdecl("caluna_pixel_buffer_layer_frames_drawn")
public func caluna_pixel_buffer_layer_frames_drawn(_ e: OpaquePointer?, _ layer: UInt64,
                                                   _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_pixel_buffer_layer_frames_drawn") { ce in
        let o = try output(out, "out")
        o.pointee = UInt64(try pixelBufferLayer(ce, layer).pixelBufferStore.framesDrawn)
    }
}
