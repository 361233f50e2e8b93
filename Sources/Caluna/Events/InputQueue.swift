/// Input events waiting for delivery, in (tick, sequence) order: time order,
/// then the order they were sent. Every operation is O(log n) or amortised
/// O(1), so n events cost O(n log n) however they are sent or spread in time
/// (a sorted array cost O(n) per out-of-order send and per delivery).
struct InputQueue {
    struct Entry {
        let tick: Int64
        let sequence: Int
        let event: InputEvent
        /// The waiting event's share of the current engine's memory (its payload's size).
        let memoryCharge: MemoryCharge

        func precedes(_ other: Entry) -> Bool {
            tick != other.tick ? tick < other.tick : sequence < other.sequence
        }
    }

    /// Events whose time had come when they were sent ("now" or late). Their
    /// ticks are the clock's at sending, which never goes back, so this FIFO is
    /// already in order; `head` is the first not yet taken.
    private var due: [Entry] = []
    private var head = 0
    /// Events for a later time: a binary min-heap on (tick, sequence).
    private var later: [Entry] = []

    var count: Int { due.count - head + later.count }
    var isEmpty: Bool { count == 0 }

    /// Adds an event; `now` is the clock when it is sent.
    mutating func insert(_ e: Entry, now: Int64) {
        if e.tick <= now {
            due.append(e)
        } else {
            later.append(e)
            siftUp(later.count - 1)
        }
    }

    /// The earliest tick of an event sent for a later time, or nil; `now` if
    /// the clock has passed it (the frame loop visits every such tick, so
    /// that means it moved some other way: the event is delivered at once).
    func nextTick(notBefore now: Int64) -> Int64? {
        later.first.map { max($0.tick, now) }
    }

    /// Takes, in order, every event due by `now`. Events sent while they are
    /// delivered wait for the next call.
    mutating func takeDue(now: Int64) -> [Entry] {
        var taken: [Entry] = []
        while true {
            let fromDue = head < due.count && due[head].tick <= now ? due[head] : nil
            let fromLater = later.first.flatMap { $0.tick <= now ? $0 : nil }
            if let l = fromLater, fromDue.map({ l.precedes($0) }) ?? true {
                taken.append(l)
                popLater()
            } else if let d = fromDue {
                taken.append(d)
                head += 1
            } else {
                compactDue()
                return taken
            }
        }
    }

    private mutating func compactDue() {
        if head == due.count { due.removeAll(keepingCapacity: due.count <= 1024); head = 0 }
        else if head > 1024, head * 2 > due.count { due.removeFirst(head); head = 0 }
    }

    private mutating func popLater() {
        let last = later.removeLast()
        guard !later.isEmpty else { return }
        later[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < later.count, later[l].precedes(later[m]) { m = l }
            if r < later.count, later[r].precedes(later[m]) { m = r }
            if m == i { return }
            later.swapAt(i, m)
            i = m
        }
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let p = (i - 1) / 2
            guard later[i].precedes(later[p]) else { return }
            later.swapAt(i, p)
            i = p
        }
    }
}
