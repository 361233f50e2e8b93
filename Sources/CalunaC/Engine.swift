import Caluna
import CalunaBridge
import CalunaLua
import Glibc

// Engine lifetime, size, scripts and time.

/// The version-1 layout of caluna_engine_options (LP64).
private enum OptionsLayout {
    static let structSize = 0, width = 8, height = 16, scale = 24
    static let size: UInt32 = 32
    /// ABI 1.10: read when struct_size covers it.
    static let renderThreads = 32, withThreads: UInt32 = 36
}

@_cdecl("caluna_engine_create")
public func caluna_engine_create(_ opts: UnsafeRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    let function = "caluna_engine_create"
    do {
        let out = try output(out, "out")
        var size = Engine.defaultSize, scale = 1.0, threads: Int32 = 0
        if let opts {
            let n = opts.loadUnaligned(fromByteOffset: OptionsLayout.structSize, as: UInt32.self)
            guard n >= OptionsLayout.size else {
                throw CalunaError(.invalidArgument,
                    "options.struct_size is \(n), at least \(OptionsLayout.size) expected (set it to sizeof(caluna_engine_options))")
            }
            size = Size(opts.loadUnaligned(fromByteOffset: OptionsLayout.width, as: Double.self),
                        opts.loadUnaligned(fromByteOffset: OptionsLayout.height, as: Double.self))
            scale = opts.loadUnaligned(fromByteOffset: OptionsLayout.scale, as: Double.self)
            if n >= OptionsLayout.withThreads {
                threads = opts.loadUnaligned(fromByteOffset: OptionsLayout.renderThreads, as: Int32.self)
            }
        }
        let session = try Session(size: size, scale: scale)
        try session.setRenderThreads(Int(threads))
        let ce = try CEngine(session: session)
        out.pointee = registerEngine(ce)
        return CalunaStatus.ok
    } catch {
        return failWithoutEngine(function, error)
    }
}

@_cdecl("caluna_engine_destroy")
public func caluna_engine_destroy(_ e: OpaquePointer?) -> Int32 {
    let function = "caluna_engine_destroy"
    switch acquireEngine(e, function) {
    case .failure(let err):
        setThreadError(err.message)
        return err.code.rawValue
    case .success(let admitted):
        destroyEngine(admitted)
        return CalunaStatus.ok
    }
}

@_cdecl("caluna_engine_set_size")
public func caluna_engine_set_size(_ e: OpaquePointer?, _ width: Double, _ height: Double, _ scale: Double) -> Int32 {
    withEngine(e, "caluna_engine_set_size") { ce in
        try ce.engine.setup(size: Size(width, height), scale: scale)
    }
}

@_cdecl("caluna_engine_size")
public func caluna_engine_size(_ e: OpaquePointer?, _ width: UnsafeMutablePointer<Double>?,
                               _ height: UnsafeMutablePointer<Double>?, _ scale: UnsafeMutablePointer<Double>?) -> Int32 {
    width?.pointee = 0; height?.pointee = 0; scale?.pointee = 0
    return withEngine(e, "caluna_engine_size") { ce in
        guard width != nil || height != nil || scale != nil else {
            throw CalunaError(.invalidArgument, "width, height and scale are all NULL (nothing to return)")
        }
        width?.pointee = ce.engine.size.width
        height?.pointee = ce.engine.size.height
        scale?.pointee = ce.engine.scale
    }
}

@_cdecl("caluna_engine_pixel_size")
public func caluna_engine_pixel_size(_ e: OpaquePointer?, _ width: UnsafeMutablePointer<Int32>?,
                                     _ height: UnsafeMutablePointer<Int32>?) -> Int32 {
    width?.pointee = 0; height?.pointee = 0
    return withEngine(e, "caluna_engine_pixel_size") { ce in
        let w = try output(width, "width"), h = try output(height, "height")
        let (pw, ph) = ce.engine.pixelSize
        let w32 = try int32(pw, "pixel width"), h32 = try int32(ph, "pixel height")
        w.pointee = w32
        h.pointee = h32
    }
}

// MARK: scripts

@_cdecl("caluna_engine_load_file")
public func caluna_engine_load_file(_ e: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_engine_load_file") { ce in
        let p = try string(path, "path")
        try ce.luaHost().runFile(p)
    }
}

@_cdecl("caluna_engine_load_string")
public func caluna_engine_load_string(_ e: OpaquePointer?, _ source: UnsafePointer<CChar>?,
                                      _ chunkName: UnsafePointer<CChar>?) -> Int32 {
    withEngine(e, "caluna_engine_load_string") { ce in
        let s = try string(source, "source")
        let name = chunkName == nil ? "string" : try string(chunkName, "chunk_name")
        try ce.luaHost().runString(s, chunkName: name)
    }
}

@_cdecl("caluna_engine_set_sandbox")
public func caluna_engine_set_sandbox(_ e: OpaquePointer?, _ memoryLimit: UInt64, _ instructionLimit: Int64) -> Int32 {
    withEngine(e, "caluna_engine_set_sandbox") { ce in
        guard memoryLimit <= UInt64(Int.max) else { throw CalunaError.invalid("memory_limit is too large") }
        let sb = LuaHost.Sandbox(memoryLimit: Int(memoryLimit), instructionLimit: instructionLimit)
        guard sb.memoryLimit >= 1 << 20 else { throw CalunaError.invalid("memory_limit must be at least 1 MiB (got \(memoryLimit) bytes)") }
        guard sb.instructionLimit >= 1000 else { throw CalunaError.invalid("instruction_limit must be at least 1000 (got \(instructionLimit))") }
        try ce.setSandbox(sb)
    }
}

/// The version-1 layout of caluna_sandbox_options (LP64).
private enum SandboxOptionsLayout {
    static let structSize = 0, memoryLimit = 8, instructionLimit = 16, timeLimit = 24, outputLimit = 32
    static let readDirs = 40, writeDirs = 48
    static let size: UInt32 = 56
    /// Entries read from one directory list at most (a list without its NULL must not run on).
    static let maximumDirectories = 1024
}

@_cdecl("caluna_engine_set_sandbox_options")
public func caluna_engine_set_sandbox_options(_ e: OpaquePointer?, _ opts: UnsafeRawPointer?) -> Int32 {
    withEngine(e, "caluna_engine_set_sandbox_options") { ce in
        guard let opts else { throw CalunaError.invalid("options is NULL") }
        typealias L = SandboxOptionsLayout
        let n = opts.loadUnaligned(fromByteOffset: L.structSize, as: UInt32.self)
        guard n >= L.size else {
            throw CalunaError.invalid("options.struct_size is \(n), at least \(L.size) expected (set it to sizeof(caluna_sandbox_options))")
        }
        let defaults = LuaHost.Sandbox()
        let memory = opts.loadUnaligned(fromByteOffset: L.memoryLimit, as: UInt64.self)
        let instructions = opts.loadUnaligned(fromByteOffset: L.instructionLimit, as: Int64.self)
        let time = opts.loadUnaligned(fromByteOffset: L.timeLimit, as: Double.self)
        let output = opts.loadUnaligned(fromByteOffset: L.outputLimit, as: UInt64.self)
        guard memory <= UInt64(Int.max) else { throw CalunaError.invalid("memory_limit is too large") }
        guard output <= UInt64(Int.max) else { throw CalunaError.invalid("output_limit is too large") }
        func directories(_ offset: Int, _ what: String) throws -> [String] {
            guard let list = opts.loadUnaligned(fromByteOffset: offset, as: UnsafePointer<UnsafePointer<CChar>?>?.self) else { return [] }
            var out: [String] = []
            while let p = list[out.count] {
                guard out.count < L.maximumDirectories else {
                    throw CalunaError.invalid("\(what) has more than \(L.maximumDirectories) entries (is its NULL missing?)")
                }
                out.append(try string(p, what))
            }
            return out
        }
        let sb = LuaHost.Sandbox(memoryLimit: memory == 0 ? defaults.memoryLimit : Int(memory),
                                 instructionLimit: instructions == 0 ? defaults.instructionLimit : instructions,
                                 timeLimit: time == 0 ? defaults.timeLimit : time,
                                 outputLimit: output == 0 ? defaults.outputLimit : Int(output),
                                 readDirectories: try directories(L.readDirs, "read_dirs"),
                                 writeDirectories: try directories(L.writeDirs, "write_dirs"))
        try ce.setSandbox(sb)
    }
}

// MARK: time

@_cdecl("caluna_engine_step")
public func caluna_engine_step(_ e: OpaquePointer?, _ dt: Double) -> Int32 {
    withEngine(e, "caluna_engine_step") { ce in try ce.engine.step(dt) }
}

@_cdecl("caluna_engine_advance")
public func caluna_engine_advance(_ e: OpaquePointer?, _ t: Double) -> Int32 {
    withEngine(e, "caluna_engine_advance") { ce in try ce.engine.advance(to: t) }
}

@_cdecl("caluna_engine_media_time")
public func caluna_engine_media_time(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_engine_media_time") { ce in
        try output(out, "out").pointee = ce.engine.mediaTime
    }
}
