/// Issue #6's physics rows. Each builds caluna's world and the C peer's
/// space from one PhysicsScene, advances both the same number of steps
/// untimed (so the timed steps are of a settling pile, not of free fall),
/// then times ten 1/120 s steps per run (rows show the time per step).
/// measure() runs both sides equally often, so they stay at the same
/// simulation step, and check() proves they did the same work: every body
/// at the same position and angle.
class PhysicsRow {
    static let stepsPerRun = 10
    let caluna: CalunaPhysics
    let chipmunk: ChipmunkPeer

    init(_ scene: PhysicsScene, mode: CalunaPhysicsMode, settle: Int) throws {
        caluna = try CalunaPhysics(scene, mode: mode)
        chipmunk = try ChipmunkPeer(scene)
        try caluna.step(settle)
        chipmunk.step(settle)
    }

    var unitsPerRun: Int { PhysicsRow.stepsPerRun }
    func runCaluna() throws { try caluna.step(PhysicsRow.stepsPerRun) }
    func runPeer() throws { chipmunk.step(PhysicsRow.stepsPerRun) }

    func check() throws -> String {
        let mine = try caluna.bodies(), peer = chipmunk.bodies()
        let worst = try largestDifference(mine, peer, what: "body states")
        guard worst <= 1e-9 else {
            throw BenchmarkFailure("caluna's bodies and the C peer's differ by up to \(worst): not the same simulation")
        }
        var text = worst == 0 ? "\(caluna.count) bodies bit-identical" : "\(caluna.count) bodies agree within \(worst)"
        if caluna.mode == .luaBound {
            // The layers must sit where their bodies are (identity mapping).
            let layers = try caluna.layerPositions()
            let positions = stride(from: 0, to: mine.count, by: 3).flatMap { [mine[$0], mine[$0 + 1]] }
            let off = try largestDifference(layers, positions, what: "layer positions")
            guard off <= 1e-9 else { throw BenchmarkFailure("bound layers are up to \(off) from their bodies") }
            text += ", layers on their bodies"
        }
        return text
    }

    /// The largest absolute difference between two equally long lists (∞ if
    /// any value is not finite).
    func largestDifference(_ a: [Double], _ b: [Double], what: String) throws -> Double {
        guard a.count == b.count else { throw BenchmarkFailure("\(what): \(a.count) values against \(b.count)") }
        var worst = 0.0
        for (x, y) in zip(a, b) {
            let d = abs(x - y)
            if !d.isFinite { return .infinity }
            worst = max(worst, d)
        }
        return worst
    }
}

func milliseconds(_ s: Double) -> String { fixed(s * 1e3, 3) + " ms" }

/// (a) 1,000 boxes settling on a terrain, stepped from Lua with
/// `world:step(1/120)`, no layers bound.
final class PhysicsBoxes: PhysicsRow, Benchmark {
    static let name = "physics-1000-boxes"
    static let peer = "chipmunk-c"
    var detail: String { "1000 boxes, Lua step" }
    required init() throws { try super.init(.terrain(), mode: .lua, settle: 180) }
}

/// (a′) The same through the Swift API (PhysicsWorld.step), no Lua: the
/// difference from (a) is what the Lua binding costs.
final class PhysicsBoxesSwift: PhysicsRow, Benchmark {
    static let name = "physics-1000-boxes-swift"
    static let peer = "chipmunk-c"
    var detail: String { "1000 boxes, Swift step" }
    required init() throws { try super.init(.terrain(), mode: .swift, settle: 180) }
}

/// (b) The same scene with a layer bound to each body, stepped by the engine
/// (`ca.step(1/120)`): a whole frame, the bound layers synced and committed.
final class PhysicsBoxesBound: PhysicsRow, Benchmark {
    static let name = "physics-1000-boxes-bound"
    static let peer = "chipmunk-c"
    var detail: String { "1000 bound, ca.step" }
    required init() throws { try super.init(.terrain(), mode: .luaBound, settle: 180) }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        guard let unbound = earlier[PhysicsBoxes.name] else {
            return "run \(PhysicsBoxes.name) too for the binding's extra cost"
        }
        return "binding + frame: +" + milliseconds(t.caluna - unbound.caluna) + " per step, "
            + fixed(t.caluna / unbound.caluna, 2) + "x \(PhysicsBoxes.name)'s caluna step"
    }
}

/// (c) G18: the book's crates, 200 of them, in a 1000×1000 box; one
/// cpSpaceStep must stay within 50% of the 1/120 s it simulates.
final class PhysicsCrates: PhysicsRow, Benchmark {
    static let name = "physics-g18-200-crates"
    static let peer = "chipmunk-c"
    static let budget = PhysicsScene.step / 2
    var detail: String { "200 crates, Lua step" }
    required init() throws { try super.init(.crates(), mode: .lua, settle: 120) }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "G18: " + milliseconds(t.caluna) + " per 1/120 s step, "
            + (t.caluna <= PhysicsCrates.budget ? "within" : "OVER") + " the " + milliseconds(PhysicsCrates.budget) + " budget"
    }
}
