import ArgumentParser
import Caluna
import CalunaBridge
import CalunaLua
import Glibc

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a Lua scene to a time and print its layer tree as JSON.",
        discussion: """
        Prints the presentation tree: the committed model with the animations at that time applied, as rendered. \
        --model prints the model tree instead.
        With --events FILE.jsonl the file's input events (one JSON object per line, e.g. \
        {"time": 2, "type": "tap", "x": 230, "y": 150}) are queued after the script ran and \
        delivered at their own times up to --at, as `caluna run --events` does; a bad line \
        stops with FILE:LINE: message.
        """)

    @Argument(help: "The scene script.")
    var scene: String

    @Option(help: "The time to dump at, in seconds.")
    var at: Double = 0

    @Option(help: ArgumentHelp("A JSON Lines file of timestamped input events to deliver up to --at.", valueName: "file.jsonl"))
    var events: String?

    @Flag(help: "Print the model tree (the values scripts set) instead of the presentation tree.")
    var model = false

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var scriptOptions: ScriptOptions

    func run() throws {
        let (session, host) = try scriptOptions.loadScene(scene, outputOptions)
        try queueEvents(events, in: session)
        do {
            let e = session.engine
            try e.advance(to: max(at, e.mediaTime))
            try e.flush()
        } catch {
            throw fail(error, host: host, trace: scriptOptions.trace)
        }
        let root = session.engine.root!
        var out = StandardOutput()
        (model ? root : root.presentation() ?? root).writeJSON(to: &out)
        out.write("\n")
    }
}

/// stdout as a stream: the tree is written as it is walked, never held whole.
private struct StandardOutput: TextOutputStream {
    mutating func write(_ string: String) { fputs(string, stdout) }
}
