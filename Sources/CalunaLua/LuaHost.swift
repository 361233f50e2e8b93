import CLua
import CalunaLuaShim
import Caluna
import CalunaBridge
import Glibc

/// A Lua state with the standard libraries and the `caluna` module bound to
/// one Session: what the CLI and the C ABI use to run scripts.
/// `require "caluna"` returns the module; `require "caluna.test"` the harness.
public final class LuaHost {
    public let session: Session
    let L: OpaquePointer
    let binding: LuaBinding

    /// Limits for scripts you do not trust (DESIGN §4, docs/sandbox.md): no
    /// io, os, debug or package library, no loading of binary chunks or C code
    /// (`require` knows only "caluna"), no files outside granted directories,
    /// and limits nothing escapes. Running out of one raises a Lua error; once
    /// the instruction budget or the time limit is spent the script is
    /// finished for good (every later call into it fails at once). The host
    /// carries on.
    public struct Sandbox: Sendable {
        /// Bytes the script may hold: its Lua heap plus the engine memory made
        /// on its behalf (bitmaps, layers, animations, paths, physics …).
        /// At least 1 MiB; default 256 MiB.
        public var memoryLimit: Int
        /// VM instructions in all, every callback and coroutine included; C
        /// library work is charged by what it touches (16 bytes or one
        /// element or one matching step = one instruction). At least 1000;
        /// default 1e9.
        public var instructionLimit: Int64
        /// Seconds spent running the script and its callbacks (and the engine
        /// work they ask for), in all; checked by a watchdog. In (0, 1e6];
        /// default 60.
        public var timeLimit: Double
        /// Bytes `print` may write; later output is dropped with one notice
        /// on stderr. Default 1 MiB.
        public var outputLimit: Int
        /// The longest string the script may make, in bytes (this bounds the
        /// work one VM instruction can do). Default 16 MiB.
        public var stringLimit: Int
        /// Directories the script may read files from (none by default).
        public var readDirectories: [String]
        /// Directories the script may write files to (readable too; none by default).
        public var writeDirectories: [String]

        public init(memoryLimit: Int = 256 << 20, instructionLimit: Int64 = 1_000_000_000, timeLimit: Double = 60,
                    outputLimit: Int = 1 << 20, stringLimit: Int = 16 << 20,
                    readDirectories: [String] = [], writeDirectories: [String] = []) {
            self.memoryLimit = memoryLimit
            self.instructionLimit = instructionLimit
            self.timeLimit = timeLimit
            self.outputLimit = outputLimit
            self.stringLimit = stringLimit
            self.readDirectories = readDirectories
            self.writeDirectories = writeDirectories
        }

        /// Refuses limits out of range (messages name the option).
        public func validate() throws {
            guard memoryLimit >= 1 << 20 else { throw CalunaError.invalid("sandbox: the memory limit must be at least 1 MiB") }
            guard instructionLimit >= 1000 else { throw CalunaError.invalid("sandbox: the instruction limit must be at least 1000") }
            guard timeLimit > 0, timeLimit <= 1e6 else {
                throw CalunaError.invalid("sandbox: the time limit must be in (0, 1e6] seconds (got \(timeLimit))")
            }
            guard outputLimit >= 0 else { throw CalunaError.invalid("sandbox: the output limit must not be negative") }
            guard stringLimit >= 1 << 10 else { throw CalunaError.invalid("sandbox: the string limit must be at least 1 KiB") }
        }

        /// Validates the limits, then puts the file gate and the memory cap on
        /// `session`: they hold from now on, for a host's own path calls too,
        /// not only once a script runs.
        public func apply(to session: Session) throws {
            try validate()
            session.fileAccess = try FileAccess.sandboxed(read: readDirectories, write: writeDirectories)
            session.memory.limit = memoryLimit
        }
    }
    public let sandbox: Sandbox?

    public init(session: Session, sandbox: Sandbox? = nil) throws {
        try sandbox?.apply(to: session)
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
            try installSandbox(sb)
        } else {
            lua_getglobal(L, "package")
            L.rawField(-1, "preload")
            calu_push_function(L, calu_swift_open_test)
            lua_setfield(L, -2, "caluna.test")
            lua_settop(L, 0)
        }
    }

    /// The guarded library (sandbox_lib.c), the prelude below, the Lua heap
    /// and the engine under one cap (`apply` set it), then the limits.
    private func installSandbox(_ sb: Sandbox) throws {
        lua_pushcclosure(L, calu_open_sandbox, 0)
        try call(nargs: 0, nresults: 1)
        guard luaL_loadbufferx(L, LuaHost.sandboxSetup, LuaHost.sandboxSetup.utf8.count, "=caluna sandbox", "t") == LUA_OK else {
            throw popError(loading: true)
        }
        calu_insert(L, -2)
        luaL_getsubtable(L, registryIndex, LUA_LOADED_TABLE)
        L.rawField(-1, "caluna")
        calu_remove(L, -2)
        calu_insert(L, -2)
        try call(nargs: 2, nresults: 0)
        let memory = session.memory
        let state = UInt(bitPattern: L)
        memory.external = { Int(calu_memory_in_use(OpaquePointer(bitPattern: state))) }
        // Bitmaps held only by garbage (a drawing context, an image no longer
        // referenced) are let go before a charge is refused.
        memory.reclaim = { calu_full_gc(OpaquePointer(bitPattern: state)) }
        calu_set_external_memory(L, { ctx in
            guard let ctx else { return 0 }
            return Unmanaged<MemoryLedger>.fromOpaque(ctx).takeUnretainedValue().used
        }, Unmanaged.passUnretained(memory).toOpaque())
        calu_configure_sandbox(L, sb.instructionLimit, sb.timeLimit, sb.outputLimit, sb.stringLimit)
    }

    /// Trims the base library for untrusted scripts: text chunks only, no
    /// files; C functions whose work allocation does not pay for are charged
    /// first (a tail call keeps their errors' positions and names).
    static let sandboxSetup = """
        local caluna, cost = ...
        local loaded = { caluna = caluna }
        local rawload, error, type = load, error, type
        dofile, loadfile = nil, nil
        local select = select
        load = function(chunk, name, mode, ...)
          if type(chunk) == "function" then
            local read = chunk
            chunk = function() local piece = read() cost.load(piece) return piece end
          else
            cost.load(chunk)
          end
          if select("#", ...) > 0 then return rawload(chunk, name, "t", ...) end
          return rawload(chunk, name, "t")
        end
        require = function(name)
          local m = loaded[name]
          if m == nil then error("module '" .. tostring(name) .. "' is not available in the sandbox", 2) end
          return m
        end
        for _, c in ipairs{
          {table, "insert", cost.insert}, {table, "remove", cost.remove}, {table, "move", cost.move},
          {table, "sort", cost.sort}, {table, "concat", cost.range}, {table, "unpack", cost.range},
          {string, "rep", cost.rep}, {utf8, "len", cost.scan}, {utf8, "codepoint", cost.scan},
          {utf8, "offset", cost.scan}, {_G, "tonumber", cost.scan}, {_G, "rawequal", cost.compare},
          {_G, "collectgarbage", cost.collect},
        } do
          local lib, name, price = c[1], c[2], c[3]
          local raw = lib[name]
          lib[name] = function(...) price(...) return raw(...) end
        end
        """

    /// Why the script was finished (nil while it may still run).
    public var stopReason: String? { LuaBinding.stopError(L)?.message }

    deinit {
        if sandbox != nil {
            // The ledger may outlive this state (the session does): it must not call into it.
            session.memory.external = nil
            session.memory.reclaim = nil
        }
        calu_close(L)
    }

    /// Runs a script file. Errors: CalunaError(.scriptError, "file:line: message").
    public func runFile(_ path: String) throws {
        // A FIFO or a device would block the open (or never end): scenes are regular files.
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            let what = st.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw CalunaError(.ioError, "cannot read '\(path)': \(what)")
        }
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
        // Engine work the script asks for stops once the sandbox finishes it (Interruption.swift).
        let status = LuaBinding.withInterruption(L) { session.memory.withCurrent { calu_pcall(L, nargs, nresults, base) } }
        calu_remove(L, base)
        guard status == LUA_OK else { throw popError(loading: false) }
    }

    private func popError(loading: Bool) -> CalunaError {
        if let stop = LuaBinding.stopError(L) {
            // Whatever the error says (a refused allocation, an error in the
            // handler), the script ran out of its budget or time.
            L.pop()
            lastTraceback = ""
            return stop
        }
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
