/// `ca.step` of a still scene (100 layers in the tree) from a Lua state that
/// holds 100,000 more layers in a table, beside the same step from a state
/// that holds none: what held layers cost each step (target: ratio 0.95-1.05).
final class LuaHeldLayers: Benchmark {
    static let name = "lua-held-layers"
    static let peer = "none-held"
    static let held = 100_000
    let holding: LuaBench, empty: LuaBench
    var detail: String { "\(LuaHeldLayers.held) held, ca.step" }

    static let scene = """
        ca = require "caluna"
        for i = 1, 100 do ca.root:addSublayer(ca.Layer { frame = {i, i, 10, 10}, backgroundColor = "red" }) end
        ca.step(0)
        """

    init() throws {
        holding = try LuaBench(setup: LuaHeldLayers.scene + """
            held = {}
            for i = 1, \(LuaHeldLayers.held) do held[i] = ca.Layer { bounds = {0, 0, 1, 1} } end
            for i = 1, 100 do held[i].layoutSublayers = function() end end
            """)
        empty = try LuaBench(setup: LuaHeldLayers.scene + "held = {}")
    }

    func runCaluna() throws { try holding.run("ca.step(1 / 60)") }
    func runPeer() throws { try empty.run("ca.step(1 / 60)") }

    func check() throws -> String {
        let n = try holding.run("return #held, #ca.root.sublayers")
        guard n == [Double(LuaHeldLayers.held), 100] else { throw BenchmarkFailure("the scene holds \(n)") }
        return "\(LuaHeldLayers.held) held, 100 with callbacks"
    }
}
