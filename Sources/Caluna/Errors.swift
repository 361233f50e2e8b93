/// Every failure the engine reports. The C ABI maps `Code` one-to-one onto its
/// status codes and Lua raises `message`.
public struct CalunaError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: Int32, Sendable {
        case invalidArgument = 1   // a value out of range, NaN, ∞, NULL, bad size
        case unknownKey = 2        // no such property or key path
        case typeMismatch = 3      // a value of the wrong type for the key
        case notSupported = 4      // a real Core Animation feature caluna does not do (yet)
        case staleHandle = 5       // an object id that is dead or belongs to another engine
        case treeError = 6         // an illegal tree operation (cycle, foreign engine, …)
        case scriptError = 7       // a Lua script raised an error
        case ioError = 8           // a file could not be read or written
        case outOfMemory = 9       // an allocation was refused
        case limitReached = 10     // a sandboxed script spent its instruction budget or time limit
    }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }

    public static func invalid(_ m: String) -> CalunaError { CalunaError(.invalidArgument, m) }
    public static func unsupported(_ m: String) -> CalunaError { CalunaError(.notSupported, m) }
}

/// Work that must all run even when a part fails (every marked layer laid
/// out, every callback of an instant called): remembers the first error, to
/// be thrown once everything ran.
struct FirstError {
    private(set) var error: Error?

    mutating func run(_ body: () throws -> Void) {
        do { try body() } catch { if self.error == nil { self.error = error } }
    }

    func rethrow() throws { if let error { throw error } }
}
