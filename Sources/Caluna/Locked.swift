import Glibc

/// A value behind a pthread mutex, for state several threads share (a
/// render's bands, objects freed on another thread). Synchronization's Mutex
/// would do as well, but ThreadSanitizer cannot see its futex-based
/// synchronisation and reports every access as a race; this one it sees.
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
