import CalunaStack

/// The native stack of the calling thread. Work that recurses with the input
/// (rendering and laying out a deep tree, callbacks that call back into the
/// engine, presentation copies, hit tests) checks it first, so a host thread
/// with a small stack gets an error instead of a crash.
///
/// A host thread that calls caluna needs at least `minimumHostStack` bytes
/// (256 KiB); with less, work that does not recurse (text layout in pango,
/// a cairo fill) may not fit. Deep trees need more: a check fails cleanly
/// when what is left falls below `reserve`.
public enum NativeStack {
    /// Bytes kept free for the deepest non-recursive work between two checks
    /// (a pango layout, cairo's rasteriser, a Lua call into C): 64 KiB.
    public static let reserve = 64 * 1024
    /// The smallest host thread stack caluna supports: 256 KiB.
    public static let minimumHostStack = 256 * 1024

    /// Bytes left below the caller on this thread (Int.max when unknown).
    public static var remaining: Int {
        let r = calu_stack_remaining()
        return r > UInt(Int.max) ? .max : Int(r)
    }

    /// Throws when less than `reserve` bytes of stack are left; `what` names
    /// the work ("render", "layout", "a callback").
    @inline(__always)
    public static func check(_ what: @autoclosure () -> String) throws {
        let left = remaining
        if left < reserve { throw exhausted(what(), left) }
    }

    /// True while there is room to recurse (for work that cannot throw).
    @inline(__always)
    public static var hasRoom: Bool { remaining >= reserve }

    static func exhausted(_ what: String, _ left: Int) -> CalunaError {
        CalunaError(.outOfMemory, "\(what): the thread's native stack is nearly exhausted (\(left / 1024) KiB of \(Int(calu_stack_size()) / 1024) KiB left, \(reserve / 1024) KiB kept in reserve); the tree or the callbacks nest too deep for this thread (a host thread needs at least \(minimumHostStack / 1024) KiB, more for deep trees)")
    }
}
