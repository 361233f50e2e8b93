import Testing
@testable import Caluna

// The input queue (a FIFO for events due when sent, a heap for later ones)
// against the plain reference it replaced: one array sorted by (tick,
// sequence). Seeded random sends and deliveries; both must hand out the same
// events in the same order.

private struct Reference {
    var entries: [(tick: Int64, sequence: Int)] = []
    mutating func insert(_ tick: Int64, _ sequence: Int) {
        let i = entries.firstIndex { ($0.tick, $0.sequence) > (tick, sequence) } ?? entries.count
        entries.insert((tick, sequence), at: i)
    }
    func nextTick(after now: Int64) -> Int64? { entries.first { $0.tick > now }?.tick }
    mutating func takeDue(now: Int64) -> [Int] {
        let taken = entries.filter { $0.tick <= now }
        entries.removeAll { $0.tick <= now }
        return taken.map(\.sequence)
    }
}

@Test(arguments: 1...20)
func inputQueueMatchesSortedReference(seed: UInt64) {
    var rng = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func below(_ n: Int) -> Int {
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
        return Int(rng % UInt64(n))
    }
    var queue = InputQueue()
    var reference = Reference()
    var now: Int64 = 0, sequence = 0
    for _ in 0..<2000 {
        switch below(10) {
        case 0...5:
            // Sent for a past, present or future tick; the clock decides which.
            let tick = max(now + Int64(below(40)) - 10, now)
            queue.insert(InputQueue.Entry(tick: tick, sequence: sequence, event: .custom("e"),
                                          memoryCharge: MemoryCharge(forcing: nil, 0)), now: now)
            reference.insert(tick, sequence)
            sequence += 1
        case 6, 7:
            // The clock moves as the frame loop moves it: never past the next input
            // instant, where it stops and delivers.
            let next = reference.nextTick(after: now)
            #expect(queue.nextTick(notBefore: now) == next, "seed \(seed)")
            now = min(next ?? .max, now + Int64(below(5)))
            let got = queue.takeDue(now: now).map(\.sequence)
            #expect(got == reference.takeDue(now: now), "seed \(seed)")
        default:
            #expect(queue.count == reference.entries.count)
        }
    }
    // A clock moved past later events some other way: nextTick says "now", and they come out in order.
    now += 100
    #expect(queue.nextTick(notBefore: now).map { $0 <= now } ?? true)
    let rest = queue.takeDue(now: .max).map(\.sequence)
    #expect(rest == reference.takeDue(now: .max))
    #expect(queue.isEmpty)
}
