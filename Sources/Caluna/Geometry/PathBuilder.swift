/// A Path a script builds (Lua's `ca.Path`), its element storage charged
/// to a memory ledger as it grows: a builder that doubles itself with
/// addPath is refused at the cap instead of taking the host's memory. The
/// charge follows the storage's capacity and is released when the builder
/// is freed. Storage shared with another holder (a copy, a layer's path) is
/// counted as the builder's own; when an edit makes Swift copy it, the copy
/// is counted as it is made (without refusal) and the next charge refuses.
public final class PathBuilder {
    /// The path built so far.
    public private(set) var path: Path
    /// What `path`'s storage is charged (bytes = capacity × Path.elementBytes).
    private let charge: MemoryCharge

    /// A builder starting from `path` (empty by default), charging `memory`
    /// (by default the thread's current ledger, MemoryLedger.swift; nil
    /// charges nothing). The storage `path` shares with its source is
    /// charged without refusal: it exists already, and Swift copies it only
    /// when an `edit` (which checks first) changes it.
    public init(_ path: Path = Path(), memory: MemoryLedger? = MemoryLedger.current) {
        self.path = path
        charge = MemoryCharge(forcing: memory, path.elements.capacity * Path.elementBytes)
    }

    /// Bytes charged now.
    public var chargedBytes: Int { charge.bytes }

    /// Runs `body` on the path after making sure the ledger can take the
    /// storage `adding` more elements may need (Swift arrays at least double
    /// when they grow); refused with `.outOfMemory` before anything is
    /// allocated, and then the path is unchanged. `adding` is an upper bound
    /// the caller states (e.g. 1 for a lineTo, `other.elements.count` for addPath).
    public func edit(adding: Int, _ what: @autoclosure () -> String, _ body: (inout Path) throws -> Void) throws {
        guard adding >= 0 else { throw CalunaError.invalid("\(what()): a negative element count (\(adding))") }
        let count = path.elements.count, capacity = path.elements.capacity
        let (needed, overflow) = count.addingReportingOverflow(adding)
        guard !overflow, needed <= Int.max / 2 / Path.elementBytes else {
            throw CalunaError(.outOfMemory, "\(what()): a path of \(count) + \(adding) elements is too large")
        }
        let worst = needed > capacity ? max(needed, 2 * capacity) : capacity
        try charge.resize(to: max(charge.bytes, worst * Path.elementBytes), what())
        defer { settle() }
        try body(&path)
    }

    /// Replaces the path (a transform applied, a copy taken), charging the new storage first.
    public func replace(with newPath: Path, _ what: @autoclosure () -> String) throws {
        try charge.resize(to: max(charge.bytes, newPath.elements.capacity * Path.elementBytes), what())
        path = newPath
        settle()
    }

    /// The charge follows the storage actually held (never refused: it was checked before).
    private func settle() {
        charge.force(to: path.elements.capacity * Path.elementBytes)
    }
}
