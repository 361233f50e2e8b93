import Caluna
import CalunaBridge

// Rendering into a caller-owned buffer and to PNG.

@_cdecl("caluna_render")
public func caluna_render(_ e: OpaquePointer?, _ buffer: UnsafeMutableRawPointer?, _ bufferSize: UInt,
                          _ width: Int32, _ height: Int32, _ stride: Int32, _ format: Int32) -> Int32 {
    withEngine(e, "caluna_render") { ce in
        let fmt = try pixelFormat(format)
        guard let buffer else { throw CalunaError(.invalidArgument, "buffer is NULL") }
        let (pw, ph) = ce.engine.pixelSize
        guard Int(width) == pw, Int(height) == ph else {
            throw CalunaError(.invalidArgument,
                "width × height is \(width)×\(height) but the engine renders \(pw)×\(ph) pixels (see caluna_engine_pixel_size)")
        }
        try checkLayout(width: Int(width), height: Int(height), stride: stride, available: bufferSize)
        let image = try ce.engine.render()
        guard image.width == pw, image.height == ph else {
            throw CalunaError(.invalidArgument, "the rendered image is \(image.width)×\(image.height), expected \(pw)×\(ph)")
        }
        image.copy(into: buffer, stride: Int(stride), format: fmt)
    }
}

@_cdecl("caluna_render_png")
public func caluna_render_png(_ e: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_render_png") { ce in
        let p = try string(path, "path")
        guard !p.isEmpty else { throw CalunaError(.invalidArgument, "path is empty") }
        try ce.engine.render().writePNG(to: p, access: ce.session.fileAccess, api: "caluna_render_png")
    }
}
