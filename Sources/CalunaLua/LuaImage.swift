import CLua
import CalunaLuaShim
import Caluna

/// `ca.Image`: a bitmap (what ca.render returns; PNG and JPEG files load into one).
/// Decoded once, shared by every layer that shows it (docs/images.md).
///   ca.Image.load(path)                         PNG or JPEG file (format from its first bytes)
///   ca.Image.fromData(bytes)                    a string holding a PNG or JPEG file
///   ca.Image.fromPixels(w, h, bytes[, format])  w×h×4 bytes; format "rgba" (straight, default),
///                                               "rgbaPremultiplied", "bgra", "bgraPremultiplied"
///   img.width, img.height                       pixels
///   img.byteCount                               decoded bytes held (stride × height)
///   img:pixel(x, y)                             r, g, b, a as 0…255 straight alpha (x, y in pixels)
///   img:write(path)                             PNG, straight alpha
///   img:writeJPEG(path[, quality])              JPEG, quality 1…100 (default 90), alpha dropped
///   img:compare(other[, tol])                   mismatched pixel count, largest channel difference, diff image
enum LuaImage {
    static let metatable = "caluna.Image"

    /// Proxies by image (weak values): the same Lua object comes back for
    /// the same Image, as for layers, so `layer.contents == sheet` holds.
    static let cacheKey = "caluna.Image.proxies"

    static func push(_ L: OpaquePointer, _ image: Image) {
        guard lua_getfield(L, registryIndex, LuaImage.cacheKey) == LUA_TTABLE else {
            L.pop()
            return pushNew(L, image)
        }
        let key = Unmanaged.passUnretained(image).toOpaque()
        lua_pushlightuserdata(L, key)
        if lua_rawget(L, -2) == LUA_TUSERDATA { calu_remove(L, -2); return }
        L.pop()
        pushNew(L, image)                        // cache, proxy
        lua_pushlightuserdata(L, key)
        lua_pushvalue(L, -2)
        lua_rawset(L, -4)                        // cache[key] = proxy
        calu_remove(L, -2)
    }

    /// The collector hears of the pixels, so dropped images are collected
    /// in step with what they hold.
    private static func pushNew(_ L: OpaquePointer, _ image: Image) {
        RetainedUserdata.noteExternalAllocation(L, image.byteCount)
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
        calu_newtable(L)
        L.pushWeakValuesMetatable()
        L.setLockedMetatable(-2)
        lua_setfield(L, registryIndex, LuaImage.cacheKey)
        guard L.newMetatable(LuaImage.metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaImage.metatable), as: Image.self)
            return 0
        } })
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
            case "byteCount": lua_pushinteger(L, lua_Integer(img.byteCount))
            case "pixel": calu_push_function(L, LuaImage.pixel)
            case "write": calu_push_function(L, LuaImage.write)
            case "writeJPEG": calu_push_function(L, LuaImage.writeJPEG)
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
        try LuaImage.arg(a, 1).writePNG(to: try a.string(2), access: try LuaBinding.of(L).session.fileAccess, api: a.api)
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

    static let writeJPEG: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image:writeJPEG")
        let img = try LuaImage.arg(a, 1)
        let path = try a.string(2)
        let quality = try a.isNil(3) ? 90 : LuaImage.whole(a, 3, "quality")
        let access = try LuaBinding.of(L).session.fileAccess
        try prefixed(a.api) { try img.writeJPEG(to: path, access: access, api: a.api, quality: quality) }
        lua_pushvalue(L, 1)
        return 1
    } }

    /// A whole-number argument, converted without trapping.
    static func whole(_ a: Args, _ i: Int32, _ what: String) throws -> Int {
        let v = try a.number(i)
        guard v == v.rounded(), abs(v) <= 1e15 else {
            throw CalunaError.invalid("\(a.api): \(what) must be a whole number, got \(v)")
        }
        return Int(v)
    }

    /// A Lua string's bytes (any bytes, NULs included), valid while it is on the stack.
    static func bytes(_ a: Args, _ i: Int32) throws -> UnsafeRawBufferPointer {
        guard lua_type(a.L, i) == LUA_TSTRING else { throw a.fail(i, "a string") }
        var length = 0
        guard let p = lua_tolstring(a.L, i, &length) else { throw a.fail(i, "a string") }
        return UnsafeRawBufferPointer(start: p, count: length)
    }

    static let formats: [String: PixelFormat] = [
        "rgba": .rgba8Straight, "rgbaPremultiplied": .rgba8Premultiplied,
        "bgra": .bgra8Straight, "bgraPremultiplied": .bgra8Premultiplied,
    ]

    static let load: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image.load")
        let path = try a.string(1)
        let access = try LuaBinding.of(L).session.fileAccess
        LuaImage.push(L, try prefixed(a.api) { try Image.load(path: path, access: access, api: a.api) })
        try LuaBinding.of(L).engine.noteImageDecoded()
        return 1
    } }

    static let fromData: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image.fromData")
        let data = try LuaImage.bytes(a, 1)
        LuaImage.push(L, try prefixed(a.api) { try Image.decode(data, name: "image data") })
        try LuaBinding.of(L).engine.noteImageDecoded()
        return 1
    } }

    static let fromPixels: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Image.fromPixels")
        let w = try LuaImage.whole(a, 1, "width"), h = try LuaImage.whole(a, 2, "height")
        try Image.checkSize(w, h, a.api)
        let data = try LuaImage.bytes(a, 3)
        let name = try a.isNil(4) ? "rgba" : a.string(4)
        guard let format = LuaImage.formats[name] else {
            throw CalunaError.invalid("\(a.api): format must be \"rgba\", \"rgbaPremultiplied\", \"bgra\" or \"bgraPremultiplied\", got \"\(name)\"")
        }
        guard data.count == w * h * 4, let base = data.baseAddress else {
            throw CalunaError.invalid("\(a.api): a \(w)×\(h) image needs \(w * h * 4) bytes, got \(data.count)")
        }
        LuaImage.push(L, try prefixed(a.api) {
            try Image(width: w, height: h, copying: base, stride: w * 4, format: format)
        })
        return 1
    } }

    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "load", LuaImage.load)
        L.setFunction(-1, "fromData", LuaImage.fromData)
        L.setFunction(-1, "fromPixels", LuaImage.fromPixels)
    }
}
