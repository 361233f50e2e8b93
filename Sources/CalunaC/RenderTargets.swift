import Caluna
import CalunaBridge
import Glibc

// Render targets (ABI 1.9): a retained frame converted into a buffer (the
// host's or one the engine owns); each draw redraws only the damage and
// converts only those pixels.

/// A caluna_render_target: the Swift RenderTarget and where its frames go.
final class CRenderTarget {
    let target = RenderTarget()
    let width: Int, height: Int, stride: Int
    let format: PixelFormat
    let buffer: UnsafeMutableRawPointer
    /// The most an engine-owned row may be padded (bytes past width × 4).
    static let maximumPadding = 4096
    /// The engine's own buffer (nil: the host's), charged to the engine's memory.
    private let ownedCharge: MemoryCharge?

    init(width: Int, height: Int, stride: Int, format: PixelFormat, hostBuffer: UnsafeMutableRawPointer?) throws {
        (self.width, self.height, self.stride, self.format) = (width, height, stride, format)
        if let hostBuffer {
            buffer = hostBuffer
            ownedCharge = nil
        } else {
            ownedCharge = try MemoryCharge(MemoryLedger.current, stride * height, "render target \(width)×\(height)")
            guard let p = calloc(stride * height, 1) else {
                throw CalunaError(.outOfMemory, "cannot allocate a render target of \(stride * height) bytes")
            }
            buffer = p
        }
    }

    deinit { if ownedCharge != nil { free(buffer) } }

    /// Redraws what changed into the retained frame, converts the damaged
    /// pixels into the buffer, and returns the damage.
    func draw(_ engine: Engine, full: Bool) throws -> [PixelRect] {
        let (pw, ph) = engine.pixelSize
        guard pw == width, ph == height else {
            throw CalunaError(.invalidArgument,
                "the target is \(width)×\(height) pixels but the engine renders \(pw)×\(ph) (see caluna_engine_pixel_size): make a target of the new size")
        }
        let damage = try engine.render(into: target, full: full)
        guard let frame = target.frame else { return [] }
        for r in damage { frame.copy(r, into: buffer, stride: stride, format: format) }
        return damage
    }
}

extension CEngine {
    func renderTarget(_ id: UInt64, _ name: String) throws -> CRenderTarget {
        try object(in: renderTargets, id, name, as: CRenderTarget.self)
    }
}

@_cdecl("caluna_render_target_create")
public func caluna_render_target_create(_ e: OpaquePointer?, _ buffer: UnsafeMutableRawPointer?, _ bufferSize: UInt,
                                        _ width: Int32, _ height: Int32, _ stride: Int32, _ format: Int32,
                                        _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_render_target_create") { ce in
        let o = try output(out, "out")
        let fmt = try pixelFormat(format)
        try Image.checkSize(Int(width), Int(height), "render target")
        let rowBytes = Int(width) * 4
        let rowStride = buffer == nil && stride == 0 ? rowBytes : Int(stride)
        try checkLayout(width: Int(width), height: Int(height), stride: Int32(rowStride),
                        available: buffer == nil ? nil : bufferSize)
        // The engine's own rows are padded for alignment at most, not by any amount asked.
        guard buffer != nil || rowStride <= rowBytes + CRenderTarget.maximumPadding else {
            throw CalunaError(.invalidArgument,
                "stride \(stride) pads an engine-owned row by more than \(CRenderTarget.maximumPadding) bytes")
        }
        let t = try CRenderTarget(width: Int(width), height: Int(height), stride: rowStride, format: fmt, hostBuffer: buffer)
        let id = try ce.renderTargets.id(for: t)
        try ce.renderTargets.retain(id)
        o.pointee = id
    }
}

@_cdecl("caluna_render_target_draw")
public func caluna_render_target_draw(_ e: OpaquePointer?, _ target: UInt64, _ full: Int32,
                                      _ rects: UnsafeMutablePointer<Int32>?, _ capacity: Int32,
                                      _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    count?.pointee = 0
    return withEngine(e, "caluna_render_target_draw") { ce in
        guard capacity >= 0 else { throw CalunaError(.invalidArgument, "capacity \(capacity) is negative") }
        guard rects != nil || capacity == 0 else { throw CalunaError(.invalidArgument, "rects is NULL with capacity \(capacity)") }
        let t = try ce.renderTarget(target, "target")
        var damage = try t.draw(ce.engine, full: full != 0)
        // More rectangles than the caller has room for: the rest join the last one.
        if capacity > 0 { damage = RenderTarget.capped(damage, to: Int(capacity)) }
        if let rects {
            for (i, r) in damage.prefix(Int(capacity)).enumerated() {
                (rects + 4 * i).update(from: [Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)], count: 4)
            }
        }
        count?.pointee = Int32(capacity == 0 ? damage.count : min(damage.count, Int(capacity)))
    }
}

@_cdecl("caluna_render_target_pixels")
public func caluna_render_target_pixels(_ e: OpaquePointer?, _ target: UInt64,
                                        _ pixels: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                        _ stride: UnsafeMutablePointer<Int32>?) -> Int32 {
    pixels?.pointee = nil
    stride?.pointee = 0
    return withEngine(e, "caluna_render_target_pixels") { ce in
        let p = try output(pixels, "pixels")
        let t = try ce.renderTarget(target, "target")
        p.pointee = t.buffer
        stride?.pointee = Int32(t.stride)
    }
}

@_cdecl("caluna_render_target_destroy")
public func caluna_render_target_destroy(_ e: OpaquePointer?, _ target: UInt64) -> Int32 {
    withEngine(e, "caluna_render_target_destroy") { ce in
        _ = try ce.renderTarget(target, "target")
        try ce.renderTargets.release(target)
    }
}
