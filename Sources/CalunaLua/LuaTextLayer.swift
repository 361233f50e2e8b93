import CLua
import CalunaLuaShim
import Caluna

/// CATextLayer's attributed string in Lua. An attributed string is an array
/// of runs, each a string or a table with Core Text's attributes:
///
///     layer:setAttributedString{
///       { text = "Lorem ", font = "DejaVu Sans", fontSize = 15, foregroundColor = "black" },
///       { text = "ipsum", fontSize = 15, foregroundColor = "red", underline = true },
///       " dolor",                       -- Helvetica 12, black (Core Text's defaults)
///     }
///
/// `layer:attributedString()` gives the runs back (nil for a plain string);
/// `layer:textStoreSize()` the pixel size of the store the last render drew.
/// The plain `string` property and these methods replace each other.
enum LuaTextLayer {
    static let runKeys: Set<String> = ["text", "font", "fontSize", "foregroundColor", "underline", "strikethrough", "kern"]

    static func register(_ L: OpaquePointer) {
        lua_getfield(L, registryIndex, LuaLayer.methodsKey)
        L.setFunction(-1, "setAttributedString", { L in protect(L) { L in
            let a = Args(L: L, api: "TextLayer:setAttributedString")
            let layer = try LuaTextLayer.textLayer(a)
            let runs: [TextRun]? = a.isNil(2) ? nil : try LuaTextLayer.runs(L, 2, api: a.api)
            try LuaLayerMethods.changing(L) { try layer.setAttributedString(runs, api: a.api) }
            return 0
        } })
        L.setFunction(-1, "attributedString", { L in protect(L) { L in
            let layer = try LuaTextLayer.textLayer(Args(L: L, api: "TextLayer:attributedString"))
            guard let runs = layer.attributedString else { lua_pushnil(L); return 1 }
            let binding = try LuaBinding.of(L)
            lua_createtable(L, Int32(runs.count), 0)
            for (i, r) in runs.enumerated() {
                LuaTextLayer.push(L, r, binding: binding)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        } })
        L.setFunction(-1, "textStoreSize", { L in protect(L) { L in
            let layer = try LuaTextLayer.textLayer(Args(L: L, api: "TextLayer:textStoreSize"))
            guard let (w, h) = layer.textStorePixelSize else { lua_pushnil(L); return 1 }
            lua_pushinteger(L, lua_Integer(w))
            lua_pushinteger(L, lua_Integer(h))
            return 2
        } })
        L.pop()
    }

    /// Argument 1 as a text layer, with an error naming the kind otherwise.
    static func textLayer(_ a: Args) throws -> Layer {
        let layer = try LuaLayer.arg(a, 1)
        guard layer.kind == .textLayer else {
            throw CalunaError(.typeMismatch, "\(a.api): the layer is a \(layer.kind.className), not a CATextLayer")
        }
        return layer
    }

    /// The Lua string at idx as UTF-8 text, refusing invalid UTF-8 and NUL
    /// rather than repairing or cutting it.
    static func text(_ L: OpaquePointer, _ idx: Int32, what: String) throws -> String {
        guard lua_type(L, idx) == LUA_TSTRING else {
            throw CalunaError(.typeMismatch, "\(what) expects a string, got \(LuaValues.describe(L, idx))")
        }
        var n = 0
        guard let p = lua_tolstring(L, idx, &n) else { return "" }
        let bytes = UnsafeRawBufferPointer(start: p, count: n)
        guard !bytes.contains(0) else { throw CalunaError.invalid("\(what) contains a NUL character") }
        guard let s = String(validating: bytes, as: UTF8.self) else { throw CalunaError.invalid("\(what) is not valid UTF-8") }
        return s
    }

    /// The array of runs at idx.
    static func runs(_ L: OpaquePointer, _ idx: Int32, api: String) throws -> [TextRun] {
        let t = lua_absindex(L, idx)
        guard lua_type(L, t) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(api) expects an array of runs (strings or {text=…, font=…, fontSize=…, foregroundColor=…, underline=…}) or nil, got \(LuaValues.describe(L, t))")
        }
        let n = Int(lua_rawlen(L, t))
        guard n <= TextRun.maximumRuns else {
            throw CalunaError.invalid("\(api): \(n) runs is more than the \(TextRun.maximumRuns) allowed")
        }
        var out: [TextRun] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            lua_rawgeti(L, t, lua_Integer(i + 1))
            defer { L.pop() }
            out.append(try run(L, -1, what: "\(api): runs[\(i + 1)]"))
        }
        return out
    }

    static func run(_ L: OpaquePointer, _ idx: Int32, what: String) throws -> TextRun {
        let r = lua_absindex(L, idx)
        if lua_type(L, r) == LUA_TSTRING { return TextRun(try text(L, r, what: what)) }
        guard lua_type(L, r) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(what) expects a string or a table {text=…}, got \(LuaValues.describe(L, r))")
        }
        // Unknown keys are refused: a misspelt attribute would vanish silently.
        lua_pushnil(L)
        while lua_next(L, r) != 0 {
            L.pop()
            let k = lua_type(L, -1) == LUA_TSTRING ? L.string(-1) ?? "" : LuaValues.describe(L, -1)
            guard runKeys.contains(k) else {
                L.pop()
                throw CalunaError.invalid("\(what) has no attribute '\(k)' (use \(runKeys.sorted().joined(separator: ", ")))")
            }
        }
        func field<T>(_ name: String, _ read: (Int32, String) throws -> T) throws -> T? {
            defer { L.pop() }
            return L.rawField(r, name) <= LUA_TNIL ? nil : try read(-1, "\(what).\(name)")
        }
        func number(_ i: Int32, _ w: String) throws -> Double {
            guard case .number(let n) = try LuaValues.value(L, i, kind: .number, nullable: false, what: w) else { return 0 }
            return n
        }
        func flag(_ i: Int32, _ w: String) throws -> Bool {
            guard lua_type(L, i) == LUA_TBOOLEAN else { throw CalunaError(.typeMismatch, "\(w) expects a boolean, got \(LuaValues.describe(L, i))") }
            return lua_toboolean(L, i) != 0
        }
        guard let s = try field("text", { try text(L, $0, what: $1) }) else {
            throw CalunaError.invalid("\(what) needs text (a string)")
        }
        var run = TextRun(s)
        run.font = try field("font", { try text(L, $0, what: $1) })
        run.fontSize = try field("fontSize", number)
        run.foregroundColor = try field("foregroundColor") { i, w in
            guard case .color(let c) = try LuaValues.value(L, i, kind: .color, nullable: false, what: w) else { return Color.black }
            return c
        }
        run.underline = try field("underline", flag) ?? false
        run.strikethrough = try field("strikethrough", flag) ?? false
        run.kern = try field("kern", number) ?? 0
        return run
    }

    /// A run as a table with the attributes it sets.
    static func push(_ L: OpaquePointer, _ r: TextRun, binding: LuaBinding) {
        lua_createtable(L, 0, 4)
        L.push(r.text); L.setField(-2, "text")
        if let f = r.font { L.push(f); L.setField(-2, "font") }
        if let s = r.fontSize { lua_pushnumber(L, s); L.setField(-2, "fontSize") }
        if let c = r.foregroundColor { LuaValues.push(L, .color(c), binding: binding); L.setField(-2, "foregroundColor") }
        if r.underline { lua_pushboolean(L, 1); L.setField(-2, "underline") }
        if r.strikethrough { lua_pushboolean(L, 1); L.setField(-2, "strikethrough") }
        if r.kern != 0 { lua_pushnumber(L, r.kern); L.setField(-2, "kern") }
    }
}
