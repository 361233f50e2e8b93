import Glibc

/// The one gate between a script and the file system. Every engine call that
/// names a file (image load and write, render to a path, event files) asks it
/// for the path to open. A trusted host's gate lets everything through; a
/// sandboxed one lets through only paths that resolve (symbolic links and
/// `..` followed) inside the directories the host granted — none by default.
public struct FileAccess: Sendable, Equatable {
    public enum Mode: Sendable { case read, write }

    /// False: every path is allowed (the default for trusted scripts).
    public let restricted: Bool
    /// Resolved directories a script may read from (writable ones are readable too).
    public let readDirectories: [String]
    /// Resolved directories a script may create and overwrite files in.
    public let writeDirectories: [String]

    public static let unrestricted = FileAccess(restricted: false, read: [], write: [])

    private init(restricted: Bool, read: [String], write: [String]) {
        self.restricted = restricted
        readDirectories = read
        writeDirectories = write
    }

    /// A sandbox's gate. Each directory must exist; it is resolved now, so a
    /// later rename or link does not widen what was granted.
    public static func sandboxed(read: [String] = [], write: [String] = []) throws -> FileAccess {
        func resolve(_ dir: String, _ flag: String) throws -> String {
            guard !dir.isEmpty, !dir.utf8.contains(0) else { throw CalunaError.invalid("\(flag): '\(dir)' is not a directory path") }
            guard let real = realPath(dir) else {
                throw CalunaError.invalid("\(flag): '\(dir)': \(String(cString: strerror(errno)))")
            }
            var st = stat()
            guard stat(real, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                throw CalunaError.invalid("\(flag): '\(dir)' is not a directory")
            }
            return real
        }
        return FileAccess(restricted: true, read: try read.map { try resolve($0, "allow-read") },
                          write: try write.map { try resolve($0, "allow-write") })
    }

    /// The path to open for `mode`, or an error naming `api` when the gate
    /// refuses it. A refused path is never opened, not even to test it.
    public func check(_ path: String, _ mode: Mode, _ api: String) throws -> String {
        guard restricted else { return path }
        func refuse(_ why: String = "") -> CalunaError {
            let flag = mode == .read ? "--allow-read" : "--allow-write"
            let shown = path.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "\\0")  // a NUL would cut the message in C
            return CalunaError(.ioError, "\(api): \(mode == .read ? "reading" : "writing") '\(shown)' is not allowed in the sandbox"
                               + (why.isEmpty ? " (grant a directory with \(flag))" : " (\(why))"))
        }
        guard !path.isEmpty, !path.utf8.contains(0) else { throw refuse("not a file path") }
        let dirs = mode == .read ? readDirectories + writeDirectories : writeDirectories
        guard !dirs.isEmpty else { throw refuse() }
        let resolved: String
        if let real = FileAccess.realPath(path) {
            resolved = real
        } else {
            // No such file (yet): its directory must resolve, and its name must be a plain name.
            let (dir, name) = FileAccess.split(path)
            guard !name.isEmpty, name != ".", name != "..", let realDir = FileAccess.realPath(dir) else { throw refuse() }
            resolved = realDir == "/" ? "/" + name : realDir + "/" + name
        }
        guard dirs.contains(where: { FileAccess.isInside(resolved, $0) }) else { throw refuse() }
        return resolved
    }

    static func isInside(_ path: String, _ dir: String) -> Bool {
        dir == "/" ? path.hasPrefix("/") : path == dir || path.hasPrefix(dir + "/")
    }

    /// The directory part ("." when none) and the last component of a path.
    static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }

    /// The canonical absolute path (every link and `..` resolved), or nil.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
