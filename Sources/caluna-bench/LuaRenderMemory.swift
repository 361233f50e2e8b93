import CCairo

/// `ca.render()` at 1920x1080 from a stock Lua state, its result dropped and
/// never a `collectgarbage` call: resident memory after 1,000 and 10,000
/// renders (measured once, at setup) must stay flat. Timed: one render of a
/// moving layer, beside making and dropping a 1080p cairo surface.
final class LuaRenderMemory: Benchmark {
    static let name = "lua-render-memory"
    static let peer = "cairo-surface"
    static var renders: [Int] { [1_000, 10_000] }
    let lua: LuaBench
    var resident: [(Int, Int)] = []
    var detail: String { "1920x1080, no collect" }

    init() throws {
        lua = try LuaBench(setup: """
            ca = require "caluna"
            ca.setup { size = {1920, 1080} }
            box = ca.Layer { frame = {0, 0, 100, 100}, backgroundColor = "teal" }
            ca.root:addSublayer(box)
            frame = 0
            function render(n)
              for i = 1, n do
                frame = frame + 1
                box.position = {frame % 1800 + 60, 540}
                ca.step(1 / 60)
                local image = ca.render()
              end
            end
            """)
        try lua.run("render(100)")
        let base = residentBytes()
        var done = 0
        for n in LuaRenderMemory.renders {
            try lua.run("render(\(n - done))")
            done = n
            resident.append((n, residentBytes()))
        }
        resident.insert((100, base), at: 0)
    }

    func runCaluna() throws { try lua.run("render(1)") }

    func runPeer() throws {
        let s = try cairoSurface(1920, 1080)
        cairo_surface_destroy(s)
    }

    func check() throws -> String {
        resident.map { "\(fixed(Double($0.1) / 1048576, 0)) MB after \($0.0)" }.joined(separator: ", ")
    }
}
