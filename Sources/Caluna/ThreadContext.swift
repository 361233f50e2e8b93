import CalunaStack

/// What the calling thread is inside of, in one record per thread
/// (calu_thread.h): the current memory ledger (`MemoryLedger.current`) and
/// the binding call the thread is inside of (the C ABI: its engine; the core
/// only keeps it). Entering saves both and leaving puts them back with plain
/// stores (with a pthread key for each, set and restored, a caluna_layer_set
/// took 71 ns; with this record, 53).
public enum ThreadContext {
    /// What `enter` replaced, for `leave` to put back.
    public struct Saved {
        fileprivate let ledger: UnsafeMutableRawPointer?
        fileprivate let call: UnsafeMutableRawPointer?
    }

    /// Makes `ledger` this thread's current ledger and `call` its current
    /// call until `leave`; calls nest. `MemoryLedger.withCurrent` in two
    /// halves, without a closure or a reference counted, for a caller that
    /// keeps both alive until `leave` (the C ABI's calls).
    public static func enter(ledger: Unmanaged<MemoryLedger>, call: UnsafeMutableRawPointer) -> Saved {
        let t = calu_thread_here()
        let saved = Saved(ledger: t.pointee.ledger, call: t.pointee.call)
        t.pointee.ledger = ledger.toOpaque()
        t.pointee.call = call
        return saved
    }

    /// Puts back what `enter` replaced.
    public static func leave(_ saved: Saved) {
        let t = calu_thread_here()
        t.pointee.ledger = saved.ledger
        t.pointee.call = saved.call
    }

    /// The call of the innermost `enter` on this thread, or nil.
    public static var call: UnsafeMutableRawPointer? { calu_thread_here().pointee.call }

    /// This thread's current ledger, unretained (nil: none).
    static var ledger: UnsafeMutableRawPointer? {
        get { calu_thread_here().pointee.ledger }
        set { calu_thread_here().pointee.ledger = newValue }
    }
}
