import ArgumentParser
import Caluna
import CalunaBridge
import CalunaLua

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a Lua scene to a time and print its layer tree as JSON.",
        discussion: "Prints the presentation tree (today equal to the model tree; animations arrive with issue #3).")

    @Argument(help: "The scene script.")
    var scene: String

    @Option(help: "The time to dump at, in seconds.")
    var at: Double = 0

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var scriptOptions: ScriptOptions

    func run() throws {
        let (session, host) = try scriptOptions.loadScene(scene, outputOptions)
        do {
            let e = session.engine
            try e.advance(to: max(at, e.mediaTime))
            try e.root.layoutIfNeeded()
        } catch {
            throw fail(error, host: host, trace: scriptOptions.trace)
        }
        print(session.engine.root.jsonDescription())
    }
}
