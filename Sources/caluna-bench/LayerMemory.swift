import BenchPeers
import Caluna
import Glibc

/// Bytes of the C heap in use (mallinfo2: chunks handed out plus mmapped
/// blocks): unlike resident memory, not hidden by pages an earlier row freed.
func heapBytesInUse() -> Int { Int(bench_heap_in_use()) }

/// Resident bytes of this process (the second field of /proc/self/statm, in pages).
func residentBytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, 256, f) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Bytes per layer at 100,000 attached layers (heap bytes in use before and
/// after, divided by the count), static and with one running animation
/// each; the timed part is a step of the static scene (nothing changed:
/// it should cost nothing per layer) beside a loop over 100,000 plain
/// structs checking a dirty flag, what a hand-written scene graph does.
final class LayerMemory: Benchmark {
    static let name = "layer-memory"
    static let peer = "struct-array"
    static let count = 100_000
    var detail: String { "\(LayerMemory.count) layers" }

    /// What a hand-written scene graph keeps per node.
    struct Node { var bounds = Rect.zero, position = Point.zero, anchor = Point(0.5, 0.5), opacity = 1.0
                  var transform = Transform3D.identity, color: Color? = nil, dirty = false }

    let still: Engine, animated: Engine
    let staticBytes: Double, animatedBytes: Double
    var nodes: [Node]

    init() throws {
        (still, staticBytes) = try LayerMemory.scene(animated: false)
        (animated, animatedBytes) = try LayerMemory.scene(animated: true)
        nodes = Array(repeating: Node(), count: LayerMemory.count)
    }

    /// An engine with `count` attached 8x8 layers (each with a position
    /// animation when `animated`), committed; its resident bytes per layer.
    static func scene(animated: Bool) throws -> (Engine, Double) {
        let before = heapBytesInUse()
        let engine = try Engine.singleThreaded(size: Size(1280, 720))
        var rng = LCG(seed: 0x3E30)
        for _ in 0..<count {
            let l = engine.makeLayer()
            l.bounds = Rect(0, 0, 8, 8)
            l.position = Point(Double(rng.below(1280)), Double(rng.below(720)))
            l.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
            try engine.root.addSublayer(l)
            if animated {
                let a = BasicAnimation()
                a.keyPath = "position"
                a.toValue = .point(Point(Double(rng.below(1280)), Double(rng.below(720))))
                a.timing.duration = 1
                a.timing.repeatCount = .infinity
                try l.addAnimation(a, forKey: "move")
            }
        }
        try engine.step(0)
        try engine.step(1.0 / 60)
        return (engine, Double(heapBytesInUse() - before) / Double(count))
    }

    func runCaluna() throws { try still.step(1.0 / 60) }

    func runPeer() throws {
        var dirty = 0
        for i in nodes.indices where nodes[i].dirty { dirty += 1; nodes[i].dirty = false }
        guard dirty == 0 else { throw BenchmarkFailure("a node was dirty") }
    }

    func check() throws -> String {
        guard still.root.sublayers.count == LayerMemory.count, animated.root.sublayers.count == LayerMemory.count else {
            throw BenchmarkFailure("the scenes lost layers")
        }
        return "static \(Int(staticBytes)) B/layer (target <= 1024), animated \(Int(animatedBytes)) B/layer (target <= 1536), a plain node \(MemoryLayout<Node>.stride) B"
    }
}
