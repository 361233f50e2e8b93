import ArgumentParser
import Caluna
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

/// Prints a script failure as `file:line: message` (plus the traceback with
/// --trace) on stderr, like lua5.4 does, and gives the exit code to throw.
func fail(_ error: Error, host: LuaHost?, trace: Bool) -> ExitCode {
    var text = (error as? CalunaError)?.message ?? "\(error)"
    if trace, let tb = host?.lastTraceback, !tb.isEmpty { text += "\n" + tb }
    printError(text)
    return ExitCode.failure
}
