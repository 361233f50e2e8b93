import CLua
import CalunaLuaShim
import Caluna

/// `ca.Image`: a bitmap (what ca.render returns; PNG files load into one).
///   ca.Image.load(path)          PNG (JPEG and contents arrive with issue #5)
///   img.width, img.height        pixels
///   img:LuaImage.pixel(x, y)              r, g, b, a as 0…255 straight alpha (x, y in pixels)
///   img:LuaImage.write(path)              PNG, straight alpha
///   img:LuaImage.compare(other[, tol])    mismatched LuaImage.pixel count, largest channel difference, diff image
enum LuaImage {
    static let metatable = "caluna.Image"

    static func push(_ L: OpaquePointer, _ image: Image) {
        RetainedUserdata.push(L, image)
        luaL_setmetatable(L, LuaImage.metatable)
    }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Image? {
        RetainedUserdata.object(luaL_testudata(L, idx, LuaImage.metatable), as: Image.self)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> Image {
        guard let img = LuaImage.get(a.L, i) else { throw a.fail(i, "an Image") }
        return img
    }

    static func register(_ L: OpaquePointer) {
        guard luaL_newmetatable(L, LuaImage.metatable) != 0 else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaImage.metatable), as: Image.self)
            return 0
        })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            let img = try LuaImage.arg(Args(L: L, api: "Image"), 1)
            L.push("Image(\(img.width)×\(img.height))"); return 1
        } })
        L.setFunction(-1, "__index", { L in protect(L) { L in
            let a = Args(L: L, api: "Image")
            let img = try LuaImage.arg(a, 1)
            let key = try a.string(2)
            switch key {
            case "width": lua_pushinteger(L, lua_Integer(img.width))
            case "height": lua_pushinteger(L, lua_Integer(img.height))
            case "pixel": calu_push_function(L, LuaImage.pixel)
            case "write": calu_push_function(L, LuaImage.write)
            case "compare": calu_push_function(L, LuaImage.compare)
            default: throw CalunaError(.unknownKey, "Image has no field or method '\(key)'")
            }
            return 1
        } })
        L.pop()
    }

    static let pixel: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image:pixel")
        let img = try LuaImage.arg(a, 1)
        let x = try a.number(2), y = try a.number(3)
        guard x >= 0, y >= 0, x < Double(img.width), y < Double(img.height),
              let p = img.pixel(x: Int(x), y: Int(y)) else {
            throw CalunaError(.invalidArgument, "Image:pixel: (\(x), \(y)) is outside the \(img.width)×\(img.height) image")
        }
        for c in [p.r, p.g, p.b, p.a] { lua_pushinteger(L, lua_Integer(c)) }
        return 4
    } }

    static let write: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image:write")
        try LuaImage.arg(a, 1).writePNG(to: try a.string(2))
        lua_pushvalue(L, 1)
        return 1
    } }

    static let compare: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image:compare")
        let tol = try a.optionalNumber(3, 0)
        guard tol >= 0, tol <= 255 else { throw CalunaError.invalid("Image:compare: tolerance must be in 0…255") }
        let c = try LuaImage.arg(a, 1).compare(with: try LuaImage.arg(a, 2), tolerance: Int(tol))
        lua_pushinteger(L, lua_Integer(c.mismatchedPixels))
        lua_pushinteger(L, lua_Integer(c.maximumDifference))
        LuaImage.push(L, c.diff)
        return 3
    } }

    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "load", { L in protect(L) { L in
            LuaImage.push(L, try Image(pngPath: try Args(L: L, api: "Image.load").string(1))); return 1
        } })
    }
}
