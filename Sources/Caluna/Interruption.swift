import Glibc

/// Lets the one who asked for engine work stop it half way: a sandboxed
/// script whose time or budget ran out while a `ca.render`, `ca.advance` or
/// `world:step` it called is still going. Loops whose length a script
/// controls (physics steps, layers drawn) call `Interruption.check()`; it
/// throws the error the innermost `Interruption.with` on this thread returns.
public enum Interruption {
    /// Runs `body` with `stop` as this thread's check (restored afterwards;
    /// calls nest). `stop` returns nil to go on, or the error to stop with.
    public static func with<R>(_ stop: @escaping () -> CalunaError?, _ body: () throws -> R) rethrows -> R {
        let box = Unmanaged.passRetained(Check(stop))
        let previous = pthread_getspecific(checkKey)
        pthread_setspecific(checkKey, box.toOpaque())
        defer {
            pthread_setspecific(checkKey, previous)
            box.release()
        }
        return try body()
    }

    /// Throws when this thread's check says stop; free when there is none.
    @inline(__always)
    public static func check() throws {
        guard let p = pthread_getspecific(checkKey) else { return }
        if let e = Unmanaged<Check>.fromOpaque(p).takeUnretainedValue().stop() { throw e }
    }

    private final class Check {
        let stop: () -> CalunaError?
        init(_ stop: @escaping () -> CalunaError?) { self.stop = stop }
    }
}

/// The thread-specific slot behind `Interruption` (made once).
private let checkKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
