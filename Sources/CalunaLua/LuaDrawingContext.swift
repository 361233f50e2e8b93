import CLua
import CalunaLuaShim
import Caluna

/// The `ctx` a layer's draw callback receives: Core Graphics' CGContext
/// (docs/drawing.md). Methods return the context so calls chain, unless they
/// return values. Once the callback has returned every method raises (the
/// object may be kept, its pixels may not).
enum LuaDrawingContext {
    static let metatable = "caluna.DrawingContext"

    static func push(_ L: OpaquePointer, _ ctx: DrawingContext) {
        RetainedUserdata.push(L, ctx)
        luaL_setmetatable(L, metatable)
    }

    static func get(_ L: OpaquePointer, _ idx: Int32) -> DrawingContext? {
        RetainedUserdata.object(luaL_testudata(L, idx, metatable), as: DrawingContext.self)
    }

    static func register(_ L: OpaquePointer) {
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaDrawingContext.metatable), as: DrawingContext.self)
            return 0
        } })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            guard let ctx = LuaDrawingContext.get(L, 1) else { throw Args(L: L, api: "DrawingContext").fail(1, "a DrawingContext") }
            L.push("DrawingContext(\(ctx.isValid ? "valid" : "ended"), scale \(ctx.scale))"); return 1
        } })
        L.setFunction(-1, "__index", { L in protect(L) { L in
            let a = Args(L: L, api: "DrawingContext")
            guard let ctx = LuaDrawingContext.get(L, 1) else { throw a.fail(1, "a DrawingContext") }
            let key = try a.string(2)
            switch key {
            case "contentsScale": lua_pushnumber(L, ctx.scale)
            case "valid": lua_pushboolean(L, ctx.isValid ? 1 : 0)
            default:
                guard let fn = LuaDrawingContext.methods[key] else {
                    throw CalunaError(.unknownKey, "DrawingContext has no field or method '\(key)'")
                }
                calu_push_function(L, fn)
            }
            return 1
        } })
        L.pop()
    }

    /// Runs method `name` on the context at 1. `body` returns its result
    /// count, or nil to return the context. Engine errors ("CGContext.fillRect: …")
    /// are renamed to the Lua method ("DrawingContext:fillRect: …").
    static func method(_ L: OpaquePointer?, _ name: String, _ body: (Args, DrawingContext) throws -> Int32?) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: "DrawingContext:\(name)")
            guard let ctx = LuaDrawingContext.get(L, 1) else { throw a.fail(1, "a DrawingContext (call it with ':')") }
            do {
                if let n = try body(a, ctx) { return n }
            } catch let e as CalunaError where !e.message.hasPrefix(a.api) {
                var m = Substring(e.message)
                if m.hasPrefix("CGContext."), let colon = m.firstIndex(of: ":") { m = m[m.index(after: colon)...] } else { m = " " + m }
                throw CalunaError(e.code, a.api + ":" + m)
            }
            lua_settop(L, 1)
            return 1
        }
    }

    // MARK: argument readers

    static func rect(_ a: Args, _ i: Int32) throws -> Rect {
        guard let r = LuaValues.rect(a.L, i) else { throw a.fail(i, "a rect {x, y, w, h}") }
        return r
    }

    static func point(_ a: Args, _ i: Int32, _ what: String) throws -> Point {
        guard let p = LuaValues.point(a.L, i) else {
            throw CalunaError(.typeMismatch, "\(a.api): \(what) expects a point {x, y}, got \(LuaValues.describe(a.L, i))")
        }
        return p
    }

    static func color(_ a: Args, _ i: Int32, _ what: String) throws -> Color {
        guard let c = try LuaValues.color(a.L, i, what: "\(a.api): \(what)") else {
            throw CalunaError(.invalidArgument,
                              "\(a.api): \(what) expects a colour (\"#rrggbb[aa]\", a CSS name or {r, g, b, a}), got \(LuaValues.describe(a.L, i))")
        }
        return c
    }

    static func bool(_ a: Args, _ i: Int32) throws -> Bool {
        guard lua_type(a.L, i) == LUA_TBOOLEAN else { throw a.fail(i, "a boolean") }
        return lua_toboolean(a.L, i) != 0
    }

    /// The numbers of the array at `i` (nil or absent: none), at most `limit`.
    static func numbers(_ a: Args, _ i: Int32, _ what: String, limit: Int) throws -> [Double] {
        if a.isNil(i) { return [] }
        guard lua_type(a.L, i) == LUA_TTABLE else { throw a.fail(i, "a table of numbers") }
        let n = lua_rawlen(a.L, i)
        guard n <= UInt64(limit) else { throw CalunaError.invalid("\(a.api): at most \(limit) \(what) (got \(n))") }
        var out: [Double] = []
        for k in 0..<Int(n) {
            defer { a.L.pop() }
            guard lua_rawgeti(a.L, i, lua_Integer(k + 1)) == LUA_TNUMBER else {
                throw CalunaError(.typeMismatch, "\(a.api): \(what)[\(k + 1)] expects a number, got \(LuaValues.describe(a.L, -1))")
            }
            out.append(lua_tonumberx(a.L, -1, nil))
        }
        return out
    }

    // MARK: methods

    static let methods: [String: LuaFunction] = {
        var m: [String: LuaFunction] = [:]
        m["setFillColor"] = { L in method(L, "setFillColor") { a, c in try c.setFillColor(try color(a, 2, "colour")); return nil } }
        m["setStrokeColor"] = { L in method(L, "setStrokeColor") { a, c in try c.setStrokeColor(try color(a, 2, "colour")); return nil } }
        m["setLineWidth"] = { L in method(L, "setLineWidth") { a, c in try c.setLineWidth(try a.number(2)); return nil } }
        m["setLineCap"] = { L in method(L, "setLineCap") { a, c in try c.setLineCap(try a.string(2)); return nil } }
        m["setLineJoin"] = { L in method(L, "setLineJoin") { a, c in try c.setLineJoin(try a.string(2)); return nil } }
        m["setMiterLimit"] = { L in method(L, "setMiterLimit") { a, c in try c.setMiterLimit(try a.number(2)); return nil } }
        m["setLineDash"] = { L in method(L, "setLineDash") { a, c in
            let phase = try a.number(2)
            try c.setLineDash(phase: phase, lengths: try numbers(a, 3, "lengths", limit: DrawingContext.maximumDashCount))
            return nil
        } }
        m["setAlpha"] = { L in method(L, "setAlpha") { a, c in try c.setAlpha(try a.number(2)); return nil } }
        m["setShouldAntialias"] = { L in method(L, "setShouldAntialias") { a, c in try c.setShouldAntialias(try bool(a, 2)); return nil } }
        m["saveGState"] = { L in method(L, "saveGState") { _, c in try c.saveGState(); return nil } }
        m["restoreGState"] = { L in method(L, "restoreGState") { _, c in try c.restoreGState(); return nil } }
        m["translate"] = { L in method(L, "translate") { a, c in try c.translateBy(x: try a.number(2), y: try a.number(3)); return nil } }
        m["scale"] = { L in method(L, "scale") { a, c in try c.scaleBy(x: try a.number(2), y: try a.number(3)); return nil } }
        m["rotate"] = { L in method(L, "rotate") { a, c in try c.rotate(by: try a.number(2)); return nil } }
        m["concat"] = { L in method(L, "concat") { a, c in
            guard let t = LuaTransform.get(a.L, 2) else { throw a.fail(2, "a Transform3D") }
            guard t.isAffine else { throw CalunaError.invalid("\(a.api): the transform must be affine (2D)") }
            try c.concatenate(t.affine)
            return nil
        } }
        m["currentTransform"] = { L in method(L, "currentTransform") { a, c in
            LuaTransform.push(a.L, Transform3D(try c.currentTransform)); return 1
        } }
        m["beginPath"] = { L in method(L, "beginPath") { _, c in try c.beginPath(); return nil } }
        m["moveTo"] = { L in method(L, "moveTo") { a, c in try c.move(to: Point(try a.number(2), try a.number(3))); return nil } }
        m["addLineTo"] = { L in method(L, "addLineTo") { a, c in try c.addLine(to: Point(try a.number(2), try a.number(3))); return nil } }
        m["addCurveTo"] = { L in method(L, "addCurveTo") { a, c in
            let n = try (2...7).map { try a.number(Int32($0)) }
            try c.addCurve(to: Point(n[4], n[5]), control1: Point(n[0], n[1]), control2: Point(n[2], n[3]))
            return nil
        } }
        m["addQuadCurveTo"] = { L in method(L, "addQuadCurveTo") { a, c in
            let n = try (2...5).map { try a.number(Int32($0)) }
            try c.addQuadCurve(to: Point(n[2], n[3]), control: Point(n[0], n[1]))
            return nil
        } }
        m["addArc"] = { L in method(L, "addArc") { a, c in
            let n = try (2...6).map { try a.number(Int32($0)) }
            try c.addArc(center: Point(n[0], n[1]), radius: n[2], startAngle: n[3], endAngle: n[4], clockwise: try bool(a, 7))
            return nil
        } }
        m["addRect"] = { L in method(L, "addRect") { a, c in try c.addRect(try rect(a, 2)); return nil } }
        m["addEllipseInRect"] = { L in method(L, "addEllipseInRect") { a, c in try c.addEllipse(in: try rect(a, 2)); return nil } }
        m["addRoundedRect"] = { L in method(L, "addRoundedRect") { a, c in
            try c.addRoundedRect(try rect(a, 2), cornerRadius: try a.number(3)); return nil
        } }
        m["addPath"] = { L in method(L, "addPath") { a, c in
            guard let p = LuaPath.get(a.L, 2) else { throw a.fail(2, "a Path") }
            try c.addPath(p)
            return nil
        } }
        m["closePath"] = { L in method(L, "closePath") { _, c in try c.closePath(); return nil } }
        m["fillPath"] = { L in method(L, "fillPath") { _, c in try c.fillPath(); return nil } }
        m["eoFillPath"] = { L in method(L, "eoFillPath") { _, c in try c.fillPath(evenOdd: true); return nil } }
        m["strokePath"] = { L in method(L, "strokePath") { _, c in try c.strokePath(); return nil } }
        m["drawPath"] = { L in method(L, "drawPath") { a, c in try c.drawPath(mode: try a.string(2)); return nil } }
        m["fillRect"] = { L in method(L, "fillRect") { a, c in try c.fillRect(try rect(a, 2)); return nil } }
        m["strokeRect"] = { L in method(L, "strokeRect") { a, c in try c.strokeRect(try rect(a, 2)); return nil } }
        m["clearRect"] = { L in method(L, "clearRect") { a, c in try c.clearRect(try rect(a, 2)); return nil } }
        m["fillEllipseInRect"] = { L in method(L, "fillEllipseInRect") { a, c in try c.fillEllipse(in: try rect(a, 2)); return nil } }
        m["strokeEllipseInRect"] = { L in method(L, "strokeEllipseInRect") { a, c in try c.strokeEllipse(in: try rect(a, 2)); return nil } }
        m["clip"] = { L in method(L, "clip") { _, c in try c.clip(); return nil } }
        m["eoClip"] = { L in method(L, "eoClip") { _, c in try c.clip(evenOdd: true); return nil } }
        m["clipToRect"] = { L in method(L, "clipToRect") { a, c in try c.clip(to: try rect(a, 2)); return nil } }
        m["clipBoundingBox"] = { L in method(L, "clipBoundingBox") { a, c in
            let r = try c.clipBoundingBox
            lua_createtable(a.L, 0, 4)
            for (k, v) in [("x", r.origin.x), ("y", r.origin.y), ("width", r.size.width), ("height", r.size.height)] {
                lua_pushnumber(a.L, v); a.L.setField(-2, k)
            }
            return 1
        } }
        m["drawLinearGradient"] = { L in method(L, "drawLinearGradient") { a, c in
            let g = try gradient(a, radial: false)
            try c.drawLinearGradient(colors: g.colors, locations: g.locations, start: g.start, end: g.end,
                                     drawsBeforeStart: g.before, drawsAfterEnd: g.after)
            return nil
        } }
        m["drawRadialGradient"] = { L in method(L, "drawRadialGradient") { a, c in
            let g = try gradient(a, radial: true)
            try c.drawRadialGradient(colors: g.colors, locations: g.locations, startCenter: g.start, startRadius: g.r0,
                                     endCenter: g.end, endRadius: g.r1, drawsBeforeStart: g.before, drawsAfterEnd: g.after)
            return nil
        } }
        m["drawImage"] = { L in method(L, "drawImage") { a, c in
            guard let img = LuaImage.get(a.L, 2) else { throw a.fail(2, "an Image") }
            try c.draw(img, in: try rect(a, 3))
            return nil
        } }
        m["setFont"] = { L in method(L, "setFont") { a, c in try c.setFont(name: try a.string(2), size: try a.number(3)); return nil } }
        m["showText"] = { L in method(L, "showText") { a, c in
            try c.showText(try a.string(2), at: Point(try a.number(3), try a.number(4))); return nil
        } }
        m["drawText"] = { L in method(L, "drawText") { a, c in
            let align = a.isNil(4) ? "left" : try a.string(4)
            try c.drawText(try a.string(2), in: try rect(a, 3), alignment: align)
            return nil
        } }
        m["textSize"] = { L in method(L, "textSize") { a, c in
            let width: Double? = a.isNil(3) ? nil : try a.number(3)
            let s = try c.textSize(try a.string(2), width: width)
            lua_pushnumber(a.L, s.width); lua_pushnumber(a.L, s.height)
            return 2
        } }
        return m
    }()
}

extension LuaDrawingContext {
    struct GradientArgs {
        var colors: [Color] = [], locations: [Double]? = nil
        var start = Point.zero, end = Point.zero, r0 = 0.0, r1 = 0.0
        var before = false, after = false
    }

    /// The options table at 2 of drawLinearGradient / drawRadialGradient.
    /// Unknown keys are errors (a misspelt option must not vanish).
    static func gradient(_ a: Args, radial: Bool) throws -> GradientArgs {
        let L = a.L
        try a.table(2)
        let allowed: Set<String> = radial
            ? ["colors", "locations", "startCenter", "startRadius", "endCenter", "endRadius", "drawsBeforeStart", "drawsAfterEnd"]
            : ["colors", "locations", "start", "end", "drawsBeforeStart", "drawsAfterEnd"]
        lua_pushnil(L)
        while lua_next(L, 2) != 0 {
            let key = L.string(-2)
            L.pop()
            guard let key, allowed.contains(key) else {
                throw CalunaError(.unknownKey, "\(a.api): unknown option \(key.map { "'\($0)'" } ?? "key") (expected \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        /// Runs `body` with field `name` of the table on top of the stack (as index `top`).
        func field<T>(_ name: String, _ body: (Int32) throws -> T) rethrows -> T {
            L.rawField(2, name)
            defer { L.pop() }
            return try body(lua_gettop(L))
        }
        var g = GradientArgs()
        g.colors = try field("colors") { i in
            guard lua_type(L, i) == LUA_TTABLE else { throw CalunaError(.typeMismatch, "\(a.api): colors expects a list of colours, got \(LuaValues.describe(L, i))") }
            let n = lua_rawlen(L, i)
            guard n <= UInt64(DrawingContext.maximumGradientColors) else {
                throw CalunaError.invalid("\(a.api): at most \(DrawingContext.maximumGradientColors) colors (got \(n))")
            }
            return try (0..<Int(n)).map { k in
                lua_rawgeti(L, i, lua_Integer(k + 1))
                defer { L.pop() }
                return try color(a, lua_gettop(L), "colors[\(k + 1)]")
            }
        }
        g.locations = try field("locations") { i in
            if lua_type(L, i) <= LUA_TNIL { return nil }
            guard lua_type(L, i) == LUA_TTABLE else {
                throw CalunaError(.typeMismatch, "\(a.api): locations expects a list of numbers, got \(LuaValues.describe(L, i))")
            }
            return try numbers(a, i, "locations", limit: DrawingContext.maximumGradientColors)
        }
        let (s, e) = radial ? ("startCenter", "endCenter") : ("start", "end")
        g.start = try field(s) { try point(a, $0, s) }
        g.end = try field(e) { try point(a, $0, e) }
        if radial {
            for (name, r) in [("startRadius", \GradientArgs.r0), ("endRadius", \GradientArgs.r1)] {
                g[keyPath: r] = try field(name) { i in
                    guard let v = L.number(i) else {
                        throw CalunaError(.typeMismatch, "\(a.api): \(name) expects a number, got \(LuaValues.describe(L, i))")
                    }
                    return v
                }
            }
        }
        for (name, flag) in [("drawsBeforeStart", \GradientArgs.before), ("drawsAfterEnd", \GradientArgs.after)] {
            g[keyPath: flag] = try field(name) { i in
                switch lua_type(L, i) {
                case LUA_TNIL, LUA_TNONE: return false
                case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0
                default: throw CalunaError(.typeMismatch, "\(a.api): \(name) expects a boolean, got \(LuaValues.describe(L, i))")
                }
            }
        }
        return g
    }
}
