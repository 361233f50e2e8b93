import ArgumentParser
import Caluna
import CalunaBridge
import CalunaLua

@main
struct CalunaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caluna",
        abstract: "Core Animation for C hosts and Lua scripts: run, test and inspect Lua scenes.",
        version: versionText,
        subcommands: [Run.self, TestCommand.self, Dump.self])

    static var versionText: String {
        "caluna \(calunaVersion) (" + Engine.libraryVersions.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"
    }
}

/// Options shared by the commands that build an engine.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Output size in points, WIDTHxHEIGHT (the root layer's size).", valueName: "WxH"))
    var size: String = "320x480"

    @Option(help: "Pixels per point (a screen scale), in (0, 16].")
    var scale: Double = 1

    func parsedSize() throws -> Size {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
            throw ValidationError("--size expects WIDTHxHEIGHT in points, e.g. 320x480 (got '\(size)')")
        }
        return Size(w, h)
    }
}

/// How far to trust the scene script.
struct ScriptOptions: ParsableArguments {
    @Flag(help: "Run the script as untrusted (docs/sandbox.md): no io, os, debug or package library, no C or binary loading, no files outside granted directories, a memory cap, an instruction budget and a time limit.")
    var sandbox = false

    @Option(help: ArgumentHelp("Memory cap of the sandboxed script, in MiB: its Lua heap and the engine memory made for it.", valueName: "MiB"))
    var memoryLimit: Int = 256

    @Option(help: "Instruction budget of the sandboxed script (VM instructions in all, callbacks included; C library work charged by what it touches).")
    var instructionLimit: Int64 = 1_000_000_000

    @Option(help: ArgumentHelp("Seconds the sandboxed script may run in all (its callbacks and the engine work they ask for included).", valueName: "seconds"))
    var timeLimit: Double = 60

    @Option(help: ArgumentHelp("Bytes the sandboxed script may print, in KiB; later output is dropped.", valueName: "KiB"))
    var outputLimit: Int = 1024

    @Option(name: .customLong("allow-read"), help: ArgumentHelp("A directory the sandboxed script may read files from (repeatable).", valueName: "dir"))
    var readDirectories: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp("A directory the sandboxed script may write files to, and read (repeatable).", valueName: "dir"))
    var writeDirectories: [String] = []

    @Flag(help: "Print the Lua traceback with script errors.")
    var trace = false

    func validate() throws {
        guard memoryLimit >= 1, memoryLimit <= 1 << 20 else { throw ValidationError("--memory-limit must be in 1…1048576 MiB") }
        guard instructionLimit >= 1000 else { throw ValidationError("--instruction-limit must be at least 1000") }
        guard timeLimit > 0, timeLimit <= 1e6 else { throw ValidationError("--time-limit must be in (0, 1e6] seconds") }
        guard outputLimit >= 0, outputLimit <= 1 << 30 else { throw ValidationError("--output-limit must be in 0…1073741824 KiB") }
        guard sandbox || (readDirectories.isEmpty && writeDirectories.isEmpty) else {
            throw ValidationError("--allow-read and --allow-write go with --sandbox (a trusted script may touch any file)")
        }
    }

    /// The sandbox these options ask for (nil without --sandbox).
    var limits: LuaHost.Sandbox? {
        guard sandbox else { return nil }
        return LuaHost.Sandbox(memoryLimit: memoryLimit << 20, instructionLimit: instructionLimit, timeLimit: timeLimit,
                               outputLimit: outputLimit << 10, readDirectories: readDirectories,
                               writeDirectories: writeDirectories)
    }

    /// An engine sized by `output`, with `scene` run in it (errors printed as
    /// `file:line: message`).
    func loadScene(_ scene: String, _ output: OutputOptions) throws -> (Session, LuaHost) {
        let session = try Session(size: try output.parsedSize(), scale: output.scale)
        let host = try LuaHost(session: session, sandbox: limits)
        do {
            try host.runFile(scene)
        } catch {
            throw fail(error, host: host, trace: trace)
        }
        return (session, host)
    }
}

/// Prints a script failure as `file:line: message` (plus the traceback with
/// --trace) on stderr, like lua5.4 does, and gives the exit code to throw:
/// 1, or 3 when the sandbox stopped the script (budget or time spent).
func fail(_ error: Error, host: LuaHost?, trace: Bool) -> ExitCode {
    var text = (error as? CalunaError)?.message ?? "\(error)"
    if let stop = host?.stopReason {
        printError(text.contains(stop) ? text : "\(text)\n\(stop)")
        return ExitCode(3)
    }
    if trace, let tb = host?.lastTraceback, !tb.isEmpty { text += "\n" + tb }
    printError(text)
    return ExitCode.failure
}
