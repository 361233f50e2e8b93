import CLua
import CalunaLua
import CalunaLuaShim

/// A stock Lua state with `require "caluna"` (as `lua5.4` gives it) and a
/// tiny C function registered beside it: the peer of the lua-property rows.
final class LuaBench {
    let L: OpaquePointer

    init(setup: String) throws {
        guard let L = luaL_newstate() else { throw BenchmarkFailure("cannot make a Lua state") }
        self.L = L
        luaL_openlibs(L)
        luaL_requiref(L, "caluna", { L in calu_swift_open(L) }, 0)
        lua_settop(L, 0)
        // peer(layer, v) stores a number; peer(layer) returns one; peer(layer, {x, y}) reads two.
        lua_pushcclosure(L, { L in
            guard let L else { return 0 }
            switch lua_type(L, 2) {
            case LUA_TNUMBER: luaBenchSink = lua_tonumberx(L, 2, nil); return 0
            case LUA_TTABLE:
                lua_rawgeti(L, 2, 1); lua_rawgeti(L, 2, 2)
                luaBenchSink = lua_tonumberx(L, -2, nil) + lua_tonumberx(L, -1, nil)
                return 0
            default: lua_pushnumber(L, luaBenchSink); return 1
            }
        }, 0)
        lua_setglobal(L, "peer")
        try run(setup)
    }

    deinit { lua_close(L) }

    /// Runs a chunk; its number results.
    @discardableResult
    func run(_ source: String) throws -> [Double] {
        lua_settop(L, 0)
        guard luaL_loadstring(L, source) == LUA_OK, lua_pcallk(L, 0, LUA_MULTRET, 0, 0, nil) == LUA_OK else {
            let m = lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "?"
            lua_settop(L, 0)
            throw BenchmarkFailure("lua: \(m)")
        }
        let out = (0..<lua_gettop(L)).map { lua_tonumberx(L, $0 + 1, nil) }
        lua_settop(L, 0)
        return out
    }
}

nonisolated(unsafe) var luaBenchSink = 0.0

/// One kind of property access from Lua, `calls` times in a Lua loop,
/// beside the same loop calling a plain C function with the same arguments.
/// The check runs the loop once more and reads `readBack`, expecting `expect`.
class LuaPropertyRow {
    static let calls = 100_000
    /// The v of the loop's last pass.
    static let last = Double(calls % 1024) / 1024
    let lua: LuaBench
    let caluna: String, peerLoop: String, readBack: String, expect: [Double], target: String

    /// `body` is the access, over `layer` and the loop's `v`; `peerBody` the
    /// matching call of `peer`.
    init(setup: String = "", body: String, peerBody: String, readBack: String, expect: [Double], target: String) throws {
        lua = try LuaBench(setup: """
            ca = require "caluna"
            layer = ca.Layer { bounds = {0, 0, 10, 10} }
            \(setup)
            function caluna_loop(n) local layer = layer for i = 1, n do local v = (i % 1024) / 1024; \(body) end end
            function peer_loop(n) local layer, peer = layer, peer for i = 1, n do local v = (i % 1024) / 1024; \(peerBody) end end
            """)
        caluna = "caluna_loop(\(LuaPropertyRow.calls))"
        peerLoop = "peer_loop(\(LuaPropertyRow.calls))"
        self.readBack = readBack
        self.expect = expect
        self.target = target
    }

    var unitsPerRun: Int { LuaPropertyRow.calls }
    func runCaluna() throws { try lua.run(caluna) }
    func runPeer() throws { try lua.run(peerLoop) }

    func check() throws -> String {
        try runCaluna()
        let v = try lua.run("return " + readBack)
        guard v == expect else { throw BenchmarkFailure("after the loop \(readBack) gives \(v), not \(expect)") }
        return "\(readBack) = \(expect.map { fixed($0, 3) }.joined(separator: ", "))"
    }

    func remark(_ t: Timing, earlier: [String: Timing]) -> String? {
        "\(fixed(t.caluna * 1e9, 1)) ns, a plain Lua->C call \(fixed(t.peer * 1e9, 1)) ns; target \(target)"
    }
}

final class LuaPropertySet: LuaPropertyRow, Benchmark {
    static let name = "lua-property-set"
    static let peer = "lua-c-call"
    var detail: String { "layer.opacity = v" }
    required init() throws {
        try super.init(body: "layer.opacity = v", peerBody: "peer(layer, v)",
                       readBack: "layer.opacity", expect: [LuaPropertyRow.last], target: "<= 100 ns")
    }
}

final class LuaPropertyGet: LuaPropertyRow, Benchmark {
    static let name = "lua-property-get"
    static let peer = "lua-c-call"
    var detail: String { "v = layer.opacity" }
    required init() throws {
        try super.init(setup: "layer.opacity = 0.5", body: "v = layer.opacity", peerBody: "v = peer(layer)",
                       readBack: "layer.opacity", expect: [0.5], target: "<= 60 ns")
    }
}

final class LuaPropertyPoint: LuaPropertyRow, Benchmark {
    static let name = "lua-property-point"
    static let peer = "lua-c-call"
    var detail: String { "layer.position = {x, y}" }
    required init() throws {
        try super.init(body: "layer.position = {v, 1 - v}", peerBody: "peer(layer, {v, 1 - v})",
                       readBack: "layer.position.x, layer.position.y",
                       expect: [LuaPropertyRow.last, 1 - LuaPropertyRow.last], target: "<= 150 ns")
    }
}

/// A set on a committed layer with actions enabled: each runs the default
/// action, an implicit animation replacing the previous one.
final class LuaPropertyImplicit: LuaPropertyRow, Benchmark {
    static let name = "lua-property-implicit"
    static let peer = "lua-c-call"
    var detail: String { "opacity set + animation" }
    required init() throws {
        try super.init(setup: "ca.root:addSublayer(layer); ca.step(0)", body: "layer.opacity = v", peerBody: "peer(layer, v)",
                       readBack: "#layer:animationKeys(), layer.opacity", expect: [1, LuaPropertyRow.last],
                       target: "<= 1000 ns")
    }
}
