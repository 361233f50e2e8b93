import CLua
import CalunaLuaShim
import Caluna

/// Pixel buffer layers from Lua: `layer.drawFrame = function(layer, buffer,
/// time) … end` draws a frame (CAEAGLLayer's -drawFrame, a video frame
/// source) into `buffer`, or returns an Image to show instead.
/// The buffer: `buffer.width`, `buffer.height`, `buffer:set(x, y, r, g, b[, a])`
/// (components 0…1, straight alpha), `buffer:get(x, y)` → r, g, b, a,
/// `buffer:fill(colour)`. It is valid only during the callback.
enum LuaPixelBufferLayer {
    static let metatable = "caluna.PixelBuffer"

    static func push(_ L: OpaquePointer, _ buffer: PixelBuffer) {
        RetainedUserdata.push(L, buffer)
        luaL_setmetatable(L, metatable)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> PixelBuffer {
        guard let b = RetainedUserdata.object(luaL_testudata(a.L, i, metatable), as: PixelBuffer.self) else {
            throw a.fail(i, "a PixelBuffer")
        }
        return b
    }

    /// Whole pixel coordinates (x, y) at i, i + 1.
    static func coordinates(_ a: Args, _ i: Int32) throws -> (Int, Int) {
        let x = try a.number(i), y = try a.number(i + 1)
        guard x == x.rounded(), y == y.rounded(), abs(x) < 1e9, abs(y) < 1e9 else {
            throw CalunaError.invalid("\(a.api): x and y must be whole numbers (got \(x), \(y))")
        }
        return (Int(x), Int(y))
    }

    static func component(_ a: Args, _ i: Int32, _ what: String) throws -> Double {
        let v = try a.number(i)
        guard v >= 0, v <= 1 else { throw CalunaError.invalid("\(a.api): \(what) must be in 0…1 (got \(v))") }
        return v
    }

    static let set: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "PixelBuffer:set")
        let b = try LuaPixelBufferLayer.arg(a, 1)
        let (x, y) = try LuaPixelBufferLayer.coordinates(a, 2)
        let c = Color(red: try LuaPixelBufferLayer.component(a, 4, "r"), green: try LuaPixelBufferLayer.component(a, 5, "g"), blue: try LuaPixelBufferLayer.component(a, 6, "b"),
                      alpha: a.isNil(7) ? 1 : try LuaPixelBufferLayer.component(a, 7, "a"))
        try b.set(x: x, y: y, c)
        return 0
    } }

    static let get: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "PixelBuffer:get")
        let b = try LuaPixelBufferLayer.arg(a, 1)
        let (x, y) = try LuaPixelBufferLayer.coordinates(a, 2)
        let c = try b.pixel(x: x, y: y)
        for v in [c.red, c.green, c.blue, c.alpha] { lua_pushnumber(L, v) }
        return 4
    } }

    static let fill: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "PixelBuffer:fill")
        let b = try LuaPixelBufferLayer.arg(a, 1)
        try b.fill(try LuaDrawingContext.color(a, 2, "colour"))
        return 0
    } }

    static func register(_ L: OpaquePointer) {
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPixelBufferLayer.metatable), as: PixelBuffer.self)
            return 0
        } })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            let b = try LuaPixelBufferLayer.arg(Args(L: L, api: "PixelBuffer"), 1)
            L.push("PixelBuffer(\(b.width)×\(b.height)\(b.isValid ? "" : ", ended"))"); return 1
        } })
        L.setFunction(-1, "__index", { L in protect(L) { L in
            let a = Args(L: L, api: "PixelBuffer")
            let b = try LuaPixelBufferLayer.arg(a, 1)
            switch try a.string(2) {
            case "width": lua_pushinteger(L, lua_Integer(b.width))
            case "height": lua_pushinteger(L, lua_Integer(b.height))
            case "valid": lua_pushboolean(L, b.isValid ? 1 : 0)
            case "set": calu_push_function(L, LuaPixelBufferLayer.set)
            case "get": calu_push_function(L, LuaPixelBufferLayer.get)
            case "fill": calu_push_function(L, LuaPixelBufferLayer.fill)
            case let key: throw CalunaError(.unknownKey, "PixelBuffer has no field or method '\(key)'")
            }
            return 1
        } })
        L.pop()
    }
}

extension LuaBinding: PixelBufferLayerDelegate {
    func drawFrame(of layer: Layer, into buffer: PixelBuffer, time: Double) throws -> (drew: Bool, image: Image?) {
        try withLayerValue(layer, "drawFrame") { L, fn in
            guard lua_type(L, fn) == LUA_TFUNCTION else { return (false, nil) }
            lua_pushvalue(L, fn)
            LuaLayer.push(L, layer, binding: self)
            LuaPixelBufferLayer.push(L, buffer)
            lua_pushnumber(L, time)
            try pcall(L, nargs: 3, results: 1)
            if lua_type(L, -1) <= LUA_TNIL { return (true, nil) }
            guard let image = LuaImage.get(L, -1) else {
                throw CalunaError(.typeMismatch, "Layer.drawFrame must return nothing or an Image, got \(LuaValues.describe(L, -1))")
            }
            return (true, image)
        } ?? (false, nil)
    }
}
