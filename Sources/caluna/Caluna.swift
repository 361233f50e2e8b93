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
    @Flag(help: "Run the script as untrusted: no io, os, debug or package library, no file or C loading, with a memory cap and an instruction budget.")
    var sandbox = false

    @Option(help: ArgumentHelp("Memory cap of the sandboxed Lua state, in MiB.", valueName: "MiB"))
    var memoryLimit: Int = 256

    @Option(help: "Instruction budget of the sandboxed script (VM instructions in all, callbacks included).")
    var instructionLimit: Int64 = 1_000_000_000

    @Flag(help: "Print the Lua traceback with script errors.")
    var trace = false

    func validate() throws {
        guard memoryLimit >= 1, memoryLimit <= 1 << 20 else { throw ValidationError("--memory-limit must be in 1…1048576 MiB") }
        guard instructionLimit >= 1000 else { throw ValidationError("--instruction-limit must be at least 1000") }
    }

    /// An engine sized by `output`, with `scene` run in it (errors printed as
    /// `file:line: message`).
    func loadScene(_ scene: String, _ output: OutputOptions) throws -> (Session, LuaHost) {
        let session = try Session(size: try output.parsedSize(), scale: output.scale)
        let host = try LuaHost(session: session, sandbox: sandbox ? LuaHost.Sandbox(memoryLimit: memoryLimit << 20,
                                                                                    instructionLimit: instructionLimit) : nil)
        do {
            try host.runFile(scene)
        } catch {
            throw fail(error, host: host, trace: trace)
        }
        return (session, host)
    }
}

/// Prints a script failure as `file:line: message` (plus the traceback with
/// --trace) on stderr, like lua5.4 does, and gives the exit code to throw.
func fail(_ error: Error, host: LuaHost?, trace: Bool) -> ExitCode {
    var text = (error as? CalunaError)?.message ?? "\(error)"
    if trace, let tb = host?.lastTraceback, !tb.isEmpty { text += "\n" + tb }
    printError(text)
    return ExitCode.failure
}
