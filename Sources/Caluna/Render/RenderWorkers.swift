import Glibc
import Synchronization

/// The worker threads that composite bands of one render (RenderBands.swift).
/// `run(n, body)` calls `body(0)` on the calling thread and `body(1)` …
/// `body(n - 1)` on workers, and returns when all have returned. Made once
/// per engine, on the first render that uses more than one thread; the
/// threads sleep between renders and are joined when the engine goes.
final class RenderWorkers {
    /// Worker threads (the calling thread is the other one).
    let count: Int
    /// Each worker's native stack (the calling thread needs at least this
    /// much left for bands to run on workers: see `RenderBands`).
    static let stackSize = 4 << 20

    /// What the threads hold (never the pool: its deinit stops and joins them).
    private let shared = Shared()
    private var threads: [pthread_t] = []

    /// Starts `count` (≥ 1) threads; nil when the system refuses one (the
    /// render then runs on the calling thread alone).
    init?(count: Int) {
        self.count = count
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, RenderWorkers.stackSize)
        for i in 0..<count {
            let context = Unmanaged.passRetained(Start(shared: shared, index: i + 1)).toOpaque()
            var t = pthread_t()
            guard pthread_create(&t, &attr, { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                start.shared.loop(index: start.index)
                return nil
            }, context) == 0 else {
                Unmanaged<Start>.fromOpaque(context).release()
                shutDown()
                return nil
            }
            threads.append(t)
        }
    }

    private final class Start {
        let shared: Shared
        let index: Int
        init(shared: Shared, index: Int) { (self.shared, self.index) = (shared, index) }
    }

    deinit { shutDown() }

    private func shutDown() {
        shared.stop()
        for t in threads { pthread_join(t, nil) }
        threads = []
    }

    /// Runs `body(i)` for i in 0..<n (n ≤ count + 1): 0 here, the rest on
    /// workers. While it waits it calls `poll` every few milliseconds (the
    /// caller's interruption check). Not reentrant.
    func run(_ n: Int, poll: () -> Void, _ body: @escaping (Int) -> Void) {
        precondition(n >= 1 && n <= count + 1)
        shared.run(n, poll: poll, body)
    }

    private final class Shared {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        // Guarded by `mutex`.
        private var job: ((Int) -> Void)? = nil
        private var jobBands = 0
        private var generation = 0
        private var pending = 0
        private var stopping = false

        init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(wake, nil)
            pthread_cond_init(done, nil)
        }

        deinit {
            pthread_cond_destroy(wake)
            pthread_cond_destroy(done)
            pthread_mutex_destroy(mutex)
            wake.deallocate()
            done.deallocate()
            mutex.deallocate()
        }

        func stop() {
            pthread_mutex_lock(mutex)
            stopping = true
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
        }

        func run(_ n: Int, poll: () -> Void, _ body: @escaping (Int) -> Void) {
            pthread_mutex_lock(mutex)
            job = body
            jobBands = n
            pending = n - 1
            generation &+= 1
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)

            body(0)

            pthread_mutex_lock(mutex)
            while pending > 0 {
                var until = timespec()
                clock_gettime(CLOCK_REALTIME, &until)
                until.tv_nsec += 5_000_000
                if until.tv_nsec >= 1_000_000_000 { until.tv_sec += 1; until.tv_nsec -= 1_000_000_000 }
                if pthread_cond_timedwait(done, mutex, &until) == ETIMEDOUT, pending > 0 {
                    pthread_mutex_unlock(mutex)
                    poll()
                    pthread_mutex_lock(mutex)
                }
            }
            job = nil
            pthread_mutex_unlock(mutex)
        }

        func loop(index: Int) {
            var seen = 0
            pthread_mutex_lock(mutex)
            while true {
                while !stopping && generation == seen { pthread_cond_wait(wake, mutex) }
                if stopping { break }
                seen = generation
                guard index < jobBands, let body = job else { continue }
                pthread_mutex_unlock(mutex)
                body(index)
                pthread_mutex_lock(mutex)
                pending -= 1
                if pending == 0 { pthread_cond_signal(done) }
            }
            pthread_mutex_unlock(mutex)
        }
    }
}

/// What a thread drawing one band of a parallel render may not do: run a
/// script's or host's callback (tiles, pixel buffer frames) or fill a cache
/// that other bands read (text layouts, shape trims, mipmaps, raster caches,
/// emitter state, replicator delays). Those places call
/// `requireCallingThread()`: inside a band it marks the band and throws, and
/// the band is drawn again on the calling thread alone once every band is
/// done (where the callback runs and the cache fills, as in a serial render).
enum RenderBand {
    final class State {
        /// The band met something only the calling thread may do (read
        /// after the band, so a throw swallowed on the way still counts).
        var needsCallingThread = false
    }

    /// Set to stop the bands of one render early.
    final class Cancel {
        let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
        func set() { flag.store(true, ordering: .relaxed) }
    }

    struct NeedsCallingThread: Error {}

    /// Runs `body` as a band: `requireCallingThread` throws inside it.
    static func run<R>(_ state: State, _ body: () throws -> R) rethrows -> R {
        let previous = pthread_getspecific(bandKey)
        pthread_setspecific(bandKey, Unmanaged.passUnretained(state).toOpaque())
        defer { pthread_setspecific(bandKey, previous) }
        return try withExtendedLifetime(state) { try body() }
    }

    /// Throws (and marks the band) inside a band; free outside one.
    @inline(__always)
    static func requireCallingThread() throws {
        guard let p = pthread_getspecific(bandKey) else { return }
        Unmanaged<State>.fromOpaque(p).takeUnretainedValue().needsCallingThread = true
        throw NeedsCallingThread()
    }

    /// True inside a band (for code that cannot throw: it must not mutate).
    static var isBand: Bool { pthread_getspecific(bandKey) != nil }
}

private let bandKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
