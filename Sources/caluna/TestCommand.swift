import ArgumentParser
import Caluna
import CalunaBridge
import CalunaLua
import Glibc

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run Lua test scenes (files using require \"caluna.test\").",
        discussion: """
        Each .lua file (directories are searched recursively, skipping goldens/ and failures/) \
        runs in a fresh engine; each test in it gets a reset engine. Goldens are read from \
        goldens/ beside the file; mismatches write failures/NAME.actual.png and .diff.png. \
        Set CALUNA_RECORD_GOLDENS=1 to (re)record goldens. Ends with `N passed, N failed` \
        and exits 1 if anything failed.
        """)

    @Argument(help: "Test files or directories.")
    var paths: [String] = ["Tests/scenes"]

    func run() throws {
        var files: [String] = []
        for p in paths { files += try luaFiles(under: p) }
        guard !files.isEmpty else { throw ValidationError("no .lua test files under \(paths.joined(separator: ", "))") }
        var passed = 0, failed = 0
        for file in files {
            print(file)
            let (p, f) = runFile(file)
            passed += p
            failed += f
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(1) }
    }

    /// Runs one file; a file that fails to load counts as one failure.
    func runFile(_ file: String) -> (Int, Int) {
        let dir = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let base = dir.isEmpty ? "." : dir
        let label = String(file.split(separator: "/").last ?? Substring(file))
        do {
            let host = try LuaHost(session: try Session())
            try host.runString("""
                local T = require "caluna.test"
                T.goldenDir = \(luaQuoted(base + "/goldens"))
                T.dir = \(luaQuoted(base))
                T.failureDir = \(luaQuoted(base + "/failures"))
                """, chunkName: "caluna test")
            do {
                try host.runFile(file)
            } catch {
                print("  FAIL  \(label): \((error as? CalunaError)?.message ?? "\(error)")")
                return (0, 1)
            }
            let r = try host.evaluate("return require('caluna.test').run(...)", chunkName: "caluna test", args: [label])
            guard r.count == 2, r.allSatisfy({ $0.isFinite }) else { return (0, 1) }
            return (Int(r[0]), Int(r[1]))
        } catch {
            print("  FAIL  \(label): \((error as? CalunaError)?.message ?? "\(error)")")
            return (0, 1)
        }
    }
}

func luaQuoted(_ s: String) -> String {
    "\"" + s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"") + "\""
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}

/// The .lua files at `path` (itself, or recursively below a directory), sorted.
func luaFiles(under path: String) throws -> [String] {
    var st = stat()
    guard stat(path, &st) == 0 else { throw ValidationError("no such file or directory: \(path)") }
    if (st.st_mode & S_IFMT) != S_IFDIR { return [path] }
    guard let d = opendir(path) else { throw ValidationError("cannot read directory \(path)") }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name.hasPrefix(".") || name == "goldens" || name == "failures" || name == "fixtures" { continue }
        let full = joinPath(path, name)
        var s = stat()
        guard stat(full, &s) == 0 else { continue }
        if (s.st_mode & S_IFMT) == S_IFDIR { out += try luaFiles(under: full) } else if name.hasSuffix(".lua") { out.append(full) }
    }
    return out.sorted()
}
