import Testing
@testable import Caluna
import CalunaBridge
@testable import CalunaLua
import CalunaLuaShim
import CLua
import Glibc

/// The typed fast path of Lua property access (LuaLayerFastPath) against the
/// general path: the same seeded operations run in two Lua states, one
/// through `layer[key]` (fast where it applies), one through the general
/// __newindex and __index called as functions; the transcripts — every
/// success or error message, every value read back, the presentation after
/// each frame — must be identical. (C's fast path: Tests/host/fastpath_test.c.)
@Suite struct LuaFastPathTests {
    /// A Lua state with `general_set(layer, key, value)` and
    /// `general_get(layer, key)`: the general __newindex and __index.
    static func host() throws -> LuaHost {
        let host = try LuaHost(session: try Session())
        calu_push_function(host.L, LuaLayer.generalNewIndex)
        lua_setglobal(host.L, "general_set")
        calu_push_function(host.L, LuaLayer.generalIndex)
        lua_setglobal(host.L, "general_get")
        return host
    }

    /// The transcript of `count` seeded operations; `general` selects the path.
    static func transcript(seed: Int, count: Int, general: Bool) throws -> String {
        let host = try LuaFastPathTests.host()
        _ = try host.evaluate(script, chunkName: "fastpath", args: [String(seed), String(count), general ? "general" : "fast"])
        lua_getglobal(host.L, "transcript")
        defer { lua_settop(host.L, 0) }
        return host.L.string(-1) ?? ""
    }

    static let script = """
        local ca = require "caluna"
        local seed, count, mode = ...
        seed, count = tonumber(seed), tonumber(count)
        local set = mode == "general" and general_set or function(l, k, v) l[k] = v end
        local get = mode == "general" and general_get or function(l, k) return l[k] end
        local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
        local keys = { "opacity", "zPosition", "anchorPointZ", "cornerRadius", "borderWidth", "shadowOpacity",
                       "shadowRadius", "contentsScale", "rasterizationScale", "speed", "timeOffset", "beginTime",
                       "repeatCount", "hidden", "masksToBounds", "doubleSided", "geometryFlipped", "opaque",
                       "position", "anchorPoint", "shadowOffset", "bounds", "frame", "contentsRect",
                       "name", "backgroundColor", "transform", "fillColor", "nope", 1, true }
        local numbers = { 0, 1, -1, 0.5, 2.5, 64, 65, 1e9, -1e9, 0 / 0, math.huge, -math.huge, 3 }
        local function number() return numbers[rand(#numbers)] end
        local function value()
          local k = rand(10)
          if k <= 3 then return number()
          elseif k == 4 then return rand(2) == 1
          elseif k == 5 then return { number(), number() }
          elseif k == 6 then return { number(), number(), number(), number() }
          elseif k == 7 then return { x = number(), y = number() }
          elseif k == 8 then return { number(), "x" }
          elseif k == 9 then return "red"
          else return nil end
        end
        local function show(v)
          if type(v) ~= "table" then return tostring(v) end
          local out = {}
          for _, f in ipairs { "x", "y", "width", "height", "r", "g", "b", "a" } do
            if v[f] ~= nil then out[#out + 1] = f .. "=" .. tostring(v[f]) end
          end
          return "{" .. table.concat(out, ",") .. "}"
        end
        local out = {}
        -- An error's position differs (the wrapper's line, or none for a direct call): drop it.
        local function note(ok, v)
          out[#out + 1] = ok and "ok " .. show(v) or "error " .. tostring(v):gsub("^[^:]*:%d+: ", "")
        end
        local layer = ca.Layer { bounds = {0, 0, 10, 10} }
        for i = 1, count do
          if i == count // 3 then ca.root:addSublayer(layer); ca.step(0) end
          if i % 50 == 0 then
            ca.step(1 / 60)
            local p = layer:presentation()
            for _, k in ipairs { "opacity", "position", "bounds", "zPosition" } do note(true, p and p[k]) end
          end
          local key, v = keys[rand(#keys)], value()
          out[#out + 1] = tostring(key) .. " = " .. show(v)
          note(pcall(set, layer, key, v))
          for _, k in ipairs(keys) do note(pcall(get, layer, k)) end
        end
        transcript = table.concat(out, "\\n")
        return #out
        """

    @Test func luaFastPathMatchesTheGeneralPath() throws {
        let seeds = Int(Glibc.getenv("CALUNA_FASTPATH_SEEDS").map { String(cString: $0) } ?? "") ?? 20
        for seed in 1...seeds {
            let fast = try LuaFastPathTests.transcript(seed: seed, count: 600, general: false)
            let general = try LuaFastPathTests.transcript(seed: seed, count: 600, general: true)
            #expect(fast.count > 100_000, "seed \(seed): the transcript is \(fast.count) bytes")
            if fast != general {
                let f = fast.split(separator: "\n"), g = general.split(separator: "\n")
                let i = (0..<min(f.count, g.count)).first { f[$0] != g[$0] } ?? min(f.count, g.count)
                Issue.record("seed \(seed), line \(i): \(i < f.count ? String(f[i]) : "end") / \(i < g.count ? String(g[i]) : "end")")
            }
        }
    }

    @Test func fastPathsAreTaken() throws {
        let host = try LuaFastPathTests.host()
        // A key the fast path serves gives what the general path gives, and
        // reads it back through either.
        let r = try host.evaluate("""
            local ca = require "caluna"
            local l = ca.Layer {}
            l.opacity = 0.25; l.position = {3, 4}; l.bounds = {1, 2, 30, 40}; l.hidden = true
            return l.opacity, general_get(l, "opacity"), l.position.x, l.position.y, l.bounds.width, l.frame.height,
                   l.hidden and 1 or 0
            """, chunkName: "fast")
        #expect(r == [0.25, 0.25, 3, 4, 30, 40, 1])
    }
}
