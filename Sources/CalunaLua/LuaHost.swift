import CLua
import CalunaLuaShim
import Caluna
import CalunaBridge

/// A Lua state with the standard libraries and the `caluna` module bound to
/// one Session: what the CLI and the C ABI use to run scripts.
/// `require "caluna"` returns the module; `require "caluna.test"` the harness.
public final class LuaHost {
    public let session: Session
    let L: OpaquePointer
    let binding: LuaBinding

    /// Limits for scripts you do not trust (DESIGN §4): no io, os, debug or
    /// package library, no loading of files, binary chunks or C code (`require`
    /// knows only "caluna"), a memory cap and an instruction budget. Running
    /// out of either raises a Lua error; the host carries on.
    public struct Sandbox: Sendable {
        /// Bytes the Lua state may hold (Swift-side engine memory is not counted).
        public var memoryLimit: Int
        /// VM instructions in all, every callback and coroutine included.
        public var instructionLimit: Int64
        public init(memoryLimit: Int = 256 << 20, instructionLimit: Int64 = 1_000_000_000) {
            self.memoryLimit = memoryLimit
            self.instructionLimit = instructionLimit
        }
    }
    public let sandbox: Sandbox?

    public init(session: Session, sandbox: Sandbox? = nil) throws {
        if let sb = sandbox {
            guard sb.memoryLimit >= 1 << 20 else { throw CalunaError.invalid("sandbox: the memory limit must be at least 1 MiB") }
            guard sb.instructionLimit >= 1000 else { throw CalunaError.invalid("sandbox: the instruction limit must be at least 1000") }
        }
        guard let L = calu_newstate(sandbox.map { $0.memoryLimit } ?? 0) else {
            throw CalunaError(.outOfMemory, "cannot create a Lua state")
        }
        self.L = L
        self.session = session
        self.sandbox = sandbox
        binding = LuaBinding(session: session, state: L)
        if sandbox == nil {
            luaL_openlibs(L)
        } else {
            for (name, open) in [("_G", luaopen_base), ("coroutine", luaopen_coroutine), ("table", luaopen_table),
                                 ("string", luaopen_string), ("math", luaopen_math), ("utf8", luaopen_utf8)]
                as [(String, lua_CFunction)] {
                luaL_requiref(L, name, open, 1)
                L.pop()
            }
        }
        binding.install(in: L)
        // Build the module in protected mode, then register it as loaded.
        calu_push_function(L, { L in protect(L) { L in try LuaModule.push(L); return 1 } })
        try call(nargs: 0, nresults: 1)
        luaL_getsubtable(L, registryIndex, LUA_LOADED_TABLE)
        lua_pushvalue(L, -2)
        lua_setfield(L, -2, "caluna")
        lua_settop(L, 0)
        if let sb = sandbox {
            guard luaL_loadbufferx(L, LuaHost.sandboxSetup, LuaHost.sandboxSetup.utf8.count, "=caluna sandbox", "t") == LUA_OK else {
                throw popError(loading: true)
            }
            luaL_getsubtable(L, registryIndex, LUA_LOADED_TABLE)
            L.rawField(-1, "caluna")
            calu_remove(L, -2)
            try call(nargs: 1, nresults: 0)
            lua_pushboolean(L, 1)
            lua_setfield(L, registryIndex, LuaImage.sandboxedKey)
            calu_set_instruction_budget(L, sb.instructionLimit)
        } else {
            lua_getglobal(L, "package")
            L.rawField(-1, "preload")
            calu_push_function(L, calu_swift_open_test)
            lua_setfield(L, -2, "caluna.test")
            lua_settop(L, 0)
        }
    }

    /// Trims the base library for untrusted scripts: text chunks only, no files.
    static let sandboxSetup = """
        local loaded = { caluna = (...) }
        local rawload, type, error = load, type, error
        dofile, loadfile = nil, nil
        load = function(chunk, name, mode, env) return rawload(chunk, name, "t", env) end
        require = function(name)
          local m = loaded[name]
          if m == nil then error("module '" .. tostring(name) .. "' is not available in the sandbox", 2) end
          return m
        end
        """

    deinit { calu_close(L) }

    /// Runs a script file. Errors: CalunaError(.scriptError, "file:line: message").
    public func runFile(_ path: String) throws {
        let status = luaL_loadfilex(L, path, nil)
        if status == LUA_ERRFILE {
            // A file that cannot be opened or read is an I/O error, not a script error.
            let e = popError(loading: true)
            throw CalunaError(.ioError, e.message)
        }
        guard status == LUA_OK else { throw popError(loading: true) }
        try call(nargs: 0, nresults: 0)
    }

    /// Runs source text; `chunkName` names it in error messages.
    public func runString(_ source: String, chunkName: String) throws {
        let status = luaL_loadbufferx(L, source, source.utf8.count, "=" + chunkName, "t")
        guard status == LUA_OK else { throw popError(loading: true) }
        try call(nargs: 0, nresults: 0)
    }

    /// The traceback of the last script error, if any (for --trace).
    public private(set) var lastTraceback: String = ""

    /// Calls the function below `nargs` arguments in protected mode.
    func call(nargs: Int32, nresults: Int32) throws {
        let base = lua_gettop(L) - nargs
        lua_pushcclosure(L, calu_traceback_handler, 0)
        calu_insert(L, base)
        let status = calu_pcall(L, nargs, nresults, base)
        calu_remove(L, base)
        guard status == LUA_OK else { throw popError(loading: false) }
    }

    private func popError(loading: Bool) -> CalunaError {
        let text = L.string(-1) ?? "(error object is a \(L.typeName(-1)) value)"
        L.pop()
        guard let r = text.firstRange(of: "\nstack traceback:") else {
            lastTraceback = ""
            return CalunaError(.scriptError, text)
        }
        lastTraceback = String(text[r.lowerBound...].dropFirst())
        return CalunaError(.scriptError, String(text[..<r.lowerBound]))
    }

    /// Runs `source` as a chunk with string arguments (`...`) and returns
    /// its results as numbers (NaN for non-numbers).
    public func evaluate(_ source: String, chunkName: String, args: [String] = []) throws -> [Double] {
        lua_settop(L, 0)
        guard luaL_loadbufferx(L, source, source.utf8.count, "=" + chunkName, "t") == LUA_OK else {
            throw popError(loading: true)
        }
        for a in args { L.push(a) }
        try call(nargs: Int32(args.count), nresults: LUA_MULTRET)
        let n = lua_gettop(L)
        let out = n < 1 ? [] : (1...n).map { L.number($0) ?? .nan }
        lua_settop(L, 0)
        return out
    }
}

// MARK: entry points for stock lua5.4 (called by luaopen_caluna in the shim)

/// `require "caluna"` from a plain Lua interpreter: a default engine (320×480
/// points, scale 1) bound to that Lua state; ca.setup resizes it.
@_cdecl("calu_swift_open")
public func calu_swift_open(_ L: OpaquePointer?) -> Int32 {
    protect(L) { L in
        if (try? LuaBinding.of(L)) == nil {
            let session = try Session()
            LuaBinding(session: session, state: L).install(in: L)
        }
        try LuaModule.push(L)
        return 1
    }
}

/// `require "caluna.test"`: the test harness (Lua source, see TestHarness.swift).
@_cdecl("calu_swift_open_test")
public func calu_swift_open_test(_ L: OpaquePointer?) -> Int32 {
    protect(L) { L in
        let src = testHarnessSource
        guard luaL_loadbufferx(L, src, src.utf8.count, "=caluna.test", "t") == LUA_OK else {
            throw CalunaError(.scriptError, L.string(-1) ?? "cannot load caluna.test")
        }
        if calu_pcall(L, 0, 1, 0) != LUA_OK {
            throw CalunaError(.scriptError, L.string(-1) ?? "caluna.test failed to load")
        }
        return 1
    }
}
