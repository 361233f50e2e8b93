import CChipmunk
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What every call into Chipmunk relies on. Debian builds Chipmunk with its
/// assertions on, and a failed one aborts the process, so the wrapper checks
/// every value before Chipmunk sees it (DESIGN §4 "Physics").
enum Chipmunk {
    /// The largest magnitude accepted for positions, velocities, forces,
    /// masses and the like. From a state bounded by this, one step cannot
    /// overflow to ∞, so Chipmunk's sanity assertions never fire mid-step;
    /// a body that leaves the bound after a step is reported as diverged.
    static let limit = 1e15

    /// Debian's Chipmunk prints a two-line banner to stdout when the process
    /// makes its first space. The first space is made here with stdout sent
    /// to /dev/null, once per process.
    private static let bannerSilenced: Bool = {
        fflush(stdout)
        let saved = dup(1)
        let devNull = open("/dev/null", O_WRONLY)
        if saved >= 0, devNull >= 0 { dup2(devNull, 1) }
        cpSpaceFree(cpSpaceNew())
        fflush(stdout)
        if saved >= 0 { dup2(saved, 1); close(saved) }
        if devNull >= 0 { close(devNull) }
        return true
    }()

    static func newSpace() -> SpaceRef {
        _ = bannerSilenced
        return cpSpaceNew()
    }

    // MARK: checks

    static func number(_ v: Double, _ what: String, min: Double = -limit, max: Double = limit) throws -> Double {
        guard v.isFinite else { throw CalunaError.invalid("\(what) must be finite (got \(v))") }
        guard v >= min, v <= max else {
            throw CalunaError.invalid("\(what) must be in [\(fmt(min)), \(fmt(max))] (got \(fmt(v)))")
        }
        return v
    }

    static func positive(_ v: Double, _ what: String, allowZero: Bool = false) throws -> Double {
        guard v.isFinite else { throw CalunaError.invalid("\(what) must be finite (got \(v))") }
        guard allowZero ? v >= 0 : v > 0 else {
            throw CalunaError.invalid("\(what) must be \(allowZero ? "0 or more" : "positive") (got \(fmt(v)))")
        }
        guard v <= limit else { throw CalunaError.invalid("\(what) must be at most \(fmt(limit)) (got \(fmt(v)))") }
        return v
    }

    static func vect(_ p: Point, _ what: String) throws -> cpVect {
        guard p.x.isFinite, p.y.isFinite else { throw CalunaError.invalid("\(what) must be finite (got \(p))") }
        guard abs(p.x) <= limit, abs(p.y) <= limit else {
            throw CalunaError.invalid("\(what) must be within ±\(fmt(limit)) (got \(p))")
        }
        return cpv(p.x, p.y)
    }

    static func point(_ v: cpVect) -> Point { Point(v.x, v.y) }
}

typealias SpaceRef = UnsafeMutablePointer<cpSpace>
typealias BodyRef = UnsafeMutablePointer<cpBody>
typealias ShapeRef = UnsafeMutablePointer<cpShape>
typealias ConstraintRef = UnsafeMutablePointer<cpConstraint>
typealias ArbiterRef = UnsafeMutablePointer<cpArbiter>

@inline(__always) func cpv(_ x: Double, _ y: Double) -> cpVect { cpVect(x: x, y: y) }

/// How shapes filter collisions (cpShapeFilter): shapes in the same non-zero
/// group never collide; otherwise each one's categories must meet the
/// other's mask.
public struct ShapeFilter: Equatable, Sendable {
    public var group: UInt
    public var categories: UInt32
    public var mask: UInt32
    public init(group: UInt = 0, categories: UInt32 = .max, mask: UInt32 = .max) {
        self.group = group; self.categories = categories; self.mask = mask
    }
    public static let all = ShapeFilter()
    var cp: cpShapeFilter { cpShapeFilter(group: group, categories: categories, mask: mask) }
    init(_ f: cpShapeFilter) { self.init(group: f.group, categories: f.categories, mask: f.mask) }
}

/// A collision type: an integer or a name. Chipmunk sees numbers: integers
/// below 2⁴⁸ as they are, names from 2⁴⁸ up in the order first used
/// (process-wide, so C and Lua agree; they only key handler lookups, so the
/// numbers never affect a result).
public enum CollisionType: Hashable, Sendable, CustomStringConvertible {
    case number(UInt)
    case name(String)

    public static let none = CollisionType.number(0)
    /// Integers must be below this; names are numbered from it.
    public static let numberLimit: UInt = 1 << 48
    static let maximumNames = 1 << 16

    public var description: String {
        switch self { case .number(let n): return String(n); case .name(let s): return s }
    }

    private struct Names { var numbers: [String: UInt] = [:]; var names: [String] = [] }
    private static let names = Mutex<Names>(Names())

    /// Chipmunk's number for this type (a new name gets the next one).
    public func number() throws -> UInt {
        switch self {
        case .number(let n):
            guard n < CollisionType.numberLimit else {
                throw CalunaError.invalid("a collision type number must be below 2^48 (got \(n))")
            }
            return n
        case .name(let s):
            return try CollisionType.names.withLock { t in
                if let n = t.numbers[s] { return n }
                guard t.names.count < CollisionType.maximumNames else {
                    throw CalunaError(.outOfMemory, "too many collision type names (at most \(CollisionType.maximumNames))")
                }
                let n = CollisionType.numberLimit + UInt(t.names.count)
                t.numbers[s] = n
                t.names.append(s)
                return n
            }
        }
    }

    /// The type a number stands for: an integer, or a name already numbered.
    public init?(number n: UInt) {
        if n < CollisionType.numberLimit { self = .number(n); return }
        let i = n - CollisionType.numberLimit
        guard let s = CollisionType.names.withLock({ t in i < UInt(t.names.count) ? t.names[Int(i)] : nil }) else { return nil }
        self = .name(s)
    }

    /// A collision type from a script's value: a whole number (0 to 2⁴⁸ − 1) or a name.
    public init(_ v: Value) throws {
        switch v {
        case .number(let n):
            guard n.isFinite, n >= 0, n < Double(CollisionType.numberLimit), n == n.rounded() else {
                throw CalunaError.invalid("a collision type must be a whole number from 0 to 2^48 - 1, or a name (got \(n))")
            }
            self = .number(UInt(n))
        case .string(let s): self = .name(s)
        default: throw CalunaError(.typeMismatch, "a collision type is a whole number or a name (got \(v.kind.rawValue))")
        }
    }

    /// The value a script reads back: the number or the name.
    public var value: Value {
        switch self { case .number(let n): return .number(Double(n)); case .name(let s): return .string(s) }
    }
}
