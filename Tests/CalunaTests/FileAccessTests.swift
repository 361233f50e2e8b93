import Foundation
import Testing
@testable import Caluna

// The sandbox's gate for files (FileAccess.swift, docs/sandbox.md): nothing by
// default, only paths that resolve inside a granted directory, links and ".."
// followed; FIFOs refused for writing.

/// A fresh directory tree: root/granted, root/other, root/granted/link → root/other.
private func withTree(_ body: (_ granted: String, _ other: String) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("caluna-gate-\(UUID().uuidString)").path
    let granted = root + "/granted", other = root + "/other"
    try FileManager.default.createDirectory(atPath: granted, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: granted + "/link", withDestinationPath: other)
    try FileManager.default.createSymbolicLink(atPath: granted + "/file-link", withDestinationPath: other + "/secret.png")
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: other + "/secret.png"))
    defer { try? FileManager.default.removeItem(atPath: root) }
    try body(FileAccess.realPath(granted)!, FileAccess.realPath(other)!)
}

private func refused(_ body: () throws -> String) -> Bool {
    do { _ = try body(); return false } catch let e as CalunaError {
        return e.code == .ioError && e.message.contains("is not allowed in the sandbox")
    } catch { return false }
}

@Test func unrestrictedGateLetsEveryPathThrough() throws {
    #expect(try FileAccess.unrestricted.check("../x.png", .write, "t") == "../x.png")
    #expect(try FileAccess.unrestricted.check("/etc/passwd", .read, "t") == "/etc/passwd")
}

@Test func sandboxWithoutGrantsRefusesEverything() throws {
    let gate = try FileAccess.sandboxed()
    for path in ["x.png", "../victim.txt", "/etc/passwd", "/tmp/a.png", "", "a\u{0}b"] {
        #expect(refused { try gate.check(path, .read, "t") }, "read \(path)")
        #expect(refused { try gate.check(path, .write, "t") }, "write \(path)")
    }
}

@Test func grantedDirectoriesAndWhatResolvesInsideThem() throws {
    try withTree { granted, other in
        let gate = try FileAccess.sandboxed(read: [], write: [granted])
        #expect(try gate.check(granted + "/new.png", .write, "t") == granted + "/new.png")
        #expect(try gate.check(granted + "/../granted/new.png", .write, "t") == granted + "/new.png")
        // Escapes: "..", a link to a directory outside, a link to a file outside.
        #expect(refused { try gate.check(granted + "/../other/x.png", .write, "t") })
        #expect(refused { try gate.check(granted + "/link/x.png", .write, "t") })
        #expect(refused { try gate.check(granted + "/file-link", .write, "t") })
        #expect(refused { try gate.check(granted + "/file-link", .read, "t") })
        #expect(refused { try gate.check(other + "/secret.png", .read, "t") })
        #expect(refused { try gate.check(granted + "/..", .write, "t") })
        #expect(refused { try gate.check(granted + "/missing/x.png", .write, "t") })
        // A write grant reads too; a read grant does not write.
        let readOnly = try FileAccess.sandboxed(read: [other])
        #expect(try readOnly.check(other + "/secret.png", .read, "t") == other + "/secret.png")
        #expect(refused { try readOnly.check(other + "/new.png", .write, "t") })
        // A prefix is not a parent: "/granted-evil" is not inside "/granted".
        #expect(!FileAccess.isInside(granted + "-evil/x", granted))
        #expect(FileAccess.isInside(granted + "/x", granted))
    }
}

@Test func grantsMustBeDirectories() throws {
    #expect(throws: CalunaError.self) { try FileAccess.sandboxed(read: ["/nonexistent/caluna"]) }
    #expect(throws: CalunaError.self) { try FileAccess.sandboxed(write: ["/etc/passwd"]) }
    #expect(throws: CalunaError.self) { try FileAccess.sandboxed(write: [""]) }
}

@Test func theGateGuardsEveryFileCall() throws {
    try withTree { granted, other in
        let gate = try FileAccess.sandboxed(write: [granted])
        let image = try Image(width: 2, height: 2, memory: nil)
        #expect(throws: CalunaError.self) { try image.writePNG(to: other + "/out.png", access: gate) }
        #expect(!FileManager.default.fileExists(atPath: other + "/out.png"))
        #expect(throws: CalunaError.self) { try image.writeJPEG(to: other + "/out.jpg", access: gate) }
        #expect(throws: CalunaError.self) { try Image.load(path: other + "/secret.png", access: gate) }
        let engine = try Engine()
        #expect(throws: CalunaError.self) { try engine.loadEvents(path: other + "/secret.png", access: gate) }
        try image.writePNG(to: granted + "/out.png", access: gate)
        let back = try Image.load(path: granted + "/out.png", access: gate)
        #expect(back.width == 2 && back.height == 2)
        // A FIFO in a granted directory is refused, never opened for a blocking write.
        #expect(mkfifo(granted + "/fifo", 0o600) == 0)
        let e = #expect(throws: CalunaError.self) { try image.writePNG(to: granted + "/fifo", access: gate) }
        #expect(e?.message.contains("cannot write PNG") == true)  // ENXIO with no reader, else "not a regular file"
    }
}
