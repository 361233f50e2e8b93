import ArgumentParser
import Caluna
import CalunaBridge
import CalunaLua
import Glibc

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a Lua scene and render frames to PNG files.",
        discussion: """
        The script runs once at time 0 to build its layer tree (its `ca` engine is already \
        sized by --size and --scale). Then frame i is rendered at time --at + i/--fps.
        With -o DIR/ the frames are DIR/frame_0000.png, DIR/frame_0001.png, …; with \
        -o NAME.png a single frame is written (at --at).
        With --events FILE.jsonl the file's input events are queued after the script ran, one \
        JSON object per line, e.g. {"time": 2, "type": "tap", "x": 230, "y": 150} (blank lines \
        and lines starting with # are skipped). Each is delivered at its own time while the \
        engine steps to a frame, so the frames are the same at any --fps. A bad line stops the \
        run with FILE:LINE: message.
        With --watch the scene is run and rendered again, in a fresh engine, whenever the scene \
        file (or the --events file) changes; a script error is printed and the watch goes on. \
        When a run writes some frames but fewer than the run before it (a frame error stopped \
        it), the frame files that earlier run wrote beyond them are removed; nothing else is. \
        Frames are written to a hidden temporary name and renamed, so a viewer never reads \
        half a PNG. Ctrl-C stops the watch (after the frame being written) with exit status 0.
        With --stats each frame's costs go to stderr as one line of name=value pairs (the \
        counters of that render and the display work before it; the bytes the tree holds), \
        then a summary: per counter the total and the largest frame, per byte gauge the \
        largest value.
        """)

    @Argument(help: "The scene script.")
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("A directory for frame_NNNN.png files, or a .png file for one frame.", valueName: "path"))
    var output: String = "out/"

    @Option(help: "Number of frames to render (directory output).")
    var frames: Int = 1

    @Option(help: "Frames per second: frame i is rendered at --at + i/fps seconds.")
    var fps: Double = 30

    @Option(help: "Time of the first (or only) frame, in seconds.")
    var at: Double = 0

    @Option(help: ArgumentHelp("A JSON Lines file of timestamped input events to deliver at their times.", valueName: "file.jsonl"))
    var events: String?

    @Flag(help: "Render again whenever the scene file (or the --events file) changes, until Ctrl-C.")
    var watch = false

    /// For tests: end the watch after this many runs (successful or not),
    /// with the last run's exit status.
    @Option(help: .hidden)
    var watchRuns: Int?

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var scriptOptions: ScriptOptions

    @Flag(name: .shortAndLong, help: "No progress bar and no summary.")
    var quiet = false

    @Flag(help: "Print each frame's statistics (layers drawn, offscreen passes, raster cache hits, draw callbacks, bytes held …) to stderr, then totals and maxima.")
    var stats = false

    @Option(help: ArgumentHelp("Threads each frame is drawn on, 1…\(Engine.maximumRenderThreads) (1: no worker threads); by default one per core, or what the scene's ca.setup{threads} asks.", valueName: "N"))
    var threads: Int? = nil

    func validate() throws {
        if let n = threads, n < 1 || n > Engine.maximumRenderThreads {
            throw ValidationError("--threads must be in 1…\(Engine.maximumRenderThreads)")
        }
        guard frames >= 1, frames <= 1_000_000 else { throw ValidationError("--frames must be in 1…1000000") }
        guard fps.isFinite, fps > 0, fps <= 10_000 else { throw ValidationError("--fps must be in (0, 10000]") }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time ≥ 0 in seconds") }
        if output.hasSuffix(".png") && frames != 1 {
            throw ValidationError("-o \(output) names one PNG file: use a directory (ending in /) for --frames \(frames)")
        }
        if let n = watchRuns {
            guard watch else { throw ValidationError("--watch-runs goes with --watch") }
            guard n >= 1 else { throw ValidationError("--watch-runs must be at least 1") }
        }
    }

    func run() throws {
        if watch {
            try watchScene()
        } else {
            var written: [String] = []
            try renderOnce(written: &written)
        }
    }

    /// Runs the scene in a fresh engine and writes its frames. Script,
    /// events and frame errors are printed (file:line: message) and thrown
    /// as ExitCode.failure; other errors (the size, the output directory)
    /// are thrown as they are. `written` gets the path of each PNG file
    /// written, also when it throws. With `atomic` each PNG is written to a
    /// hidden temporary name and renamed. `interrupted` is asked between
    /// frames; when it says yes the run stops with WatchInterrupted.
    func renderOnce(written: inout [String], atomic: Bool = false, interrupted: () -> Bool = { false }) throws {
        let started = monotonicSeconds()
        let (session, host) = try scriptOptions.loadScene(scene, outputOptions)
        if let threads { try session.setRenderThreads(threads) }
        try queueEvents(events, in: session)
        let single = output.hasSuffix(".png")
        if single {
            let parent = output.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty { try makeDirectories(parent) }
        } else {
            try makeDirectories(output)
        }
        let digits = max(4, String(frames - 1).count)
        let progress = ProgressBar(total: frames, enabled: !quiet && !stats && isatty(2) != 0)
        var summary = StatsSummary()
        var lastPath = ""
        for i in 0..<frames {
            if interrupted() {
                progress.finish()
                throw WatchInterrupted()
            }
            let t = at + Double(i) / fps
            do {
                // The script may already have moved the clock past t.
                try session.engine.advance(to: max(t, session.engine.mediaTime))
                // One retained frame: each frame redraws only what changed.
                let image = try session.engine.renderRetained()
                lastPath = single ? output : joinPath(output, "frame_" + zeroPadded(i, digits) + ".png")
                if atomic { try writePNGAtomically(image, to: lastPath) } else { try image.writePNG(to: lastPath, access: .unrestricted) }
                written.append(lastPath)
                if stats {
                    let s = session.engine.stats
                    summary.add(s)
                    printError("frame \(zeroPadded(i, digits)) t=\(formatted(t, 3)) s: " + s.fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
                }
            } catch {
                progress.finish()
                throw fail(error, host: host, trace: scriptOptions.trace)
            }
            progress.update(i + 1)
        }
        progress.finish()
        if stats { printError(summary.text) }
        if !quiet {
            let elapsed = monotonicSeconds() - started
            let (w, h) = session.engine.pixelSize
            let target = single ? lastPath : output
            printError("caluna: \(frames) frame\(frames == 1 ? "" : "s") of \(w)×\(h) px → \(target) in "
                       + "\(formatted(elapsed, 2)) s (\(formatted(elapsed * 1000 / Double(frames), 1)) ms/frame)")
        }
    }

    /// `--watch`: renders, then polls the scene (and events) file every
    /// 200 ms and renders again, in a fresh Session and LuaHost, once a
    /// change has settled (two polls agree). Ends on SIGINT/SIGTERM (exit
    /// 0) or after --watch-runs runs.
    func watchScene() throws {
        WatchSignals.install()
        let files = [scene] + (events.map { [$0] } ?? [])
        let names = files.map { String($0.split(separator: "/").last ?? Substring($0)) }.joined(separator: ", ")
        var ours: [String] = []  // the PNG files the last run that wrote any wrote
        var runs = 0
        while true {
            let before = files.map(FileState.init(path:))
            var written: [String] = []
            var succeeded = false
            do {
                try renderOnce(written: &written, atomic: true, interrupted: { WatchSignals.interrupted })
                succeeded = true
            } catch is WatchInterrupted {
                break
            } catch is ExitCode {
                // A script, events or frame error: printed; keep watching.
            }
            // Anything else (a bad --size, an output directory that cannot
            // be made) is no scene problem: it ends the watch like a run.
            if !written.isEmpty {
                let now = Set(written)
                for path in ours where !now.contains(path) { unlink(path) }
                ours = written
            }
            runs += 1
            if let n = watchRuns, runs >= n { throw succeeded ? ExitCode.success : ExitCode.failure }
            if WatchSignals.interrupted { break }
            printError("caluna: watching \(names) (Ctrl-C to stop)")
            // Wait for a change against the state before the run (an edit
            // during the run counts), then until two polls agree and every
            // file is there (an editor may be halfway through saving).
            var last = before
            while true {
                usleep(200_000)
                if WatchSignals.interrupted { break }
                let now = files.map(FileState.init(path:))
                if now != before && now == last && now.allSatisfy(\.exists) { break }
                last = now
            }
            if WatchSignals.interrupted { break }
        }
        printError("caluna: stopped watching")
    }
}

/// Queues the input events of a JSON Lines file (`--events`) in the
/// session's engine; a bad file is printed as `file:line: message`.
func queueEvents(_ path: String?, in session: Session) throws {
    guard let path else { return }
    do {
        try session.engine.loadEvents(path: path, access: .unrestricted)
    } catch {
        throw fail(error, host: nil, trace: false)
    }
}

/// Writes `image` to a hidden temporary file beside `path`, then renames it
/// over `path`: whoever reads `path` sees the old PNG or the new one.
func writePNGAtomically(_ image: Image, to path: String) throws {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts[parts.count - 1] = "." + parts[parts.count - 1] + ".tmp"
    let temporary = parts.joined(separator: "/")
    do {
        try image.writePNG(to: temporary, access: .unrestricted)
    } catch let e as CalunaError {
        unlink(temporary)
        // Name the file asked for, not the temporary one.
        let prefix = "cannot write PNG '\(temporary)'"
        throw e.message.hasPrefix(prefix) ? CalunaError(.ioError, "cannot write PNG '\(path)'" + e.message.dropFirst(prefix.count)) : e
    }
    guard rename(temporary, path) == 0 else {
        let why = String(cString: strerror(errno))
        unlink(temporary)
        throw CalunaError(.ioError, "cannot write PNG '\(path)': \(why)")
    }
}

/// A run of `--watch` stopped by SIGINT or SIGTERM between frames.
struct WatchInterrupted: Error {}

/// What `--watch` compares between polls: modification time, size and
/// inode (an editor that saves by renaming makes a new inode).
struct FileState: Equatable {
    var exists = false
    var seconds = 0, nanoseconds = 0, size: Int64 = 0, inode: UInt64 = 0

    init(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        exists = true
        seconds = Int(st.st_mtim.tv_sec)
        nanoseconds = Int(st.st_mtim.tv_nsec)
        size = Int64(st.st_size)
        inode = UInt64(st.st_ino)
    }
}

/// SIGINT and SIGTERM during `--watch` set a flag that the watch checks
/// between frames and between polls. The handler resets itself, so a second
/// Ctrl-C kills a script that never returns.
enum WatchSignals {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var interrupted: Bool { flag != 0 }

    static func install() {
        flag = 0
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in WatchSignals.flag = 1 }
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)  // 0x80000000
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }
}

/// `caluna run --stats`: totals and per-frame maxima of the counters, maxima
/// of the byte gauges (the FrameStats fields whose names end in "Bytes").
struct StatsSummary {
    private(set) var frames = 0
    private var names: [String] = []
    private var totals: [Int] = []
    private var maxima: [Int] = []

    mutating func add(_ s: FrameStats) {
        let f = s.fields
        if names.isEmpty {
            names = f.map(\.0)
            totals = Array(repeating: 0, count: f.count)
            maxima = Array(repeating: 0, count: f.count)
        }
        frames += 1
        for (i, (_, v)) in f.enumerated() where i < totals.count {
            let (sum, overflow) = totals[i].addingReportingOverflow(v)
            totals[i] = overflow ? Int.max : sum
            maxima[i] = max(maxima[i], v)
        }
    }

    var text: String {
        let parts = names.indices.map { i in
            names[i].hasSuffix("Bytes") ? "\(names[i]) max \(maxima[i])" : "\(names[i]) \(totals[i]) (max \(maxima[i]))"
        }
        return "caluna: stats over \(frames) frame\(frames == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}

/// A one-line progress bar on stderr (only on a terminal).
final class ProgressBar {
    let total: Int
    let enabled: Bool
    init(total: Int, enabled: Bool) { self.total = total; self.enabled = enabled }
    func update(_ done: Int) {
        guard enabled else { return }
        let width = 30
        let filled = done * width / max(total, 1)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        fputs("\r[\(bar)] \(done)/\(total)", stderr)
    }
    func finish() { if enabled { fputs("\r\u{1B}[K", stderr) } }
}

func printError(_ s: String) { fputs(s + "\n", stderr) }

func formatted(_ v: Double, _ decimals: Int) -> String {
    var p = 1.0
    for _ in 0..<decimals { p *= 10 }
    let r = (v * p).rounded() / p
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let have = s.distance(from: dot, to: s.endIndex) - 1
        if have < decimals { s += String(repeating: "0", count: decimals - have) }
    }
    return s
}

func zeroPadded(_ n: Int, _ digits: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
}

func joinPath(_ dir: String, _ name: String) -> String { dir.hasSuffix("/") ? dir + name : dir + "/" + name }

/// mkdir -p
func makeDirectories(_ path: String) throws {
    var current = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        current += String(part) + "/"
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw CalunaError(.ioError, "cannot create directory '\(current)': \(String(cString: strerror(errno)))")
        }
    }
}
