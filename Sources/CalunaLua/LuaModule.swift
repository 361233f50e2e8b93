import CLua
import CalunaLuaShim
import Caluna
import CalunaBridge

/// The `caluna` module table (documented in docs/lua.md).
enum LuaModule {
    /// Builds the module table for the binding installed in L and pushes it.
    static func push(_ L: OpaquePointer) throws {
        _ = try LuaBinding.of(L)
        LuaTransform.register(L)
        LuaImage.register(L)
        LuaLayer.register(L)
        LuaAnimation.register(L)
        LuaTiming.register(L)
        LuaPath.register(L)
        LuaDrawingContext.register(L)
        LuaFrameCallbacks.register(L)
        LuaTransaction.registerNull(L)
        LuaPhysics.register(L)
        LuaEvents.register(L)

        calu_newtable(L)
        L.push(calunaVersion); L.setField(-2, "version")
        LuaModule.pushLayerClass(L); L.setField(-2, "Layer")
        for kind in LayerKind.allCases where kind != .layer {   // ca.TransformLayer, ca.ShapeLayer, …
            LuaModule.pushLayerClass(L, kind: kind); L.setField(-2, kind.luaName)
        }
        LuaSpecialisedLayers.register(L)
        LuaTransform.pushClass(L); L.setField(-2, "Transform3D")
        LuaTransform.pushAffineClass(L); L.setField(-2, "AffineTransform")
        LuaImage.pushClass(L); L.setField(-2, "Image")
        for name in LuaAnimation.classes { LuaAnimation.pushClass(L, name); L.setField(-2, name) }
        LuaTiming.pushClass(L); L.setField(-2, "MediaTimingFunction")
        LuaTransaction.pushClass(L); L.setField(-2, "Transaction")
        LuaTransaction.pushNull(L); L.setField(-2, "null")
        try LuaTiming.pushEasing(L); L.setField(-2, "easing")
        L.setFunction(-1, "interpolate", LuaTiming.interpolate)
        L.setFunction(-1, "Path", LuaPath.new)
        LuaPhysics.pushModule(L); L.setField(-2, "physics")
        L.setFunction(-1, "displayLink", LuaFrameCallbacks.displayLink)
        L.setFunction(-1, "after", { L in LuaFrameCallbacks.timer(L, "ca.after", repeats: false) })
        L.setFunction(-1, "every", { L in LuaFrameCallbacks.timer(L, "ca.every", repeats: true) })
        L.setFunction(-1, "on", LuaEvents.on)
        L.setFunction(-1, "send", LuaEvents.send)
        L.setFunction(-1, "loadEvents", LuaEvents.loadEvents)
        L.setFunction(-1, "pendingEvents", { L in protect(L) { L in
            lua_pushinteger(L, lua_Integer(try LuaBinding.of(L).engine.input.pendingCount)); return 1
        } })
        L.setFunction(-1, "hitLayer", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.hitLayer")
            let b = try LuaBinding.of(L)
            LuaLayer.pushOptional(L, b.engine.hitLayer(at: try LuaLayerMethods.point(a, 1)), binding: b)
            return 1
        } })
        L.setFunction(-1, "hitTestTree", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.hitTestTree")
            let e = try LuaBinding.of(L).engine
            if !a.isNil(1) {
                switch try a.string(1) {
                case "presentation": e.hitTestsPresentation = true
                case "model": e.hitTestsPresentation = false
                case let s: throw CalunaError.invalid("ca.hitTestTree: \"presentation\" or \"model\" (got \"\(s)\")")
                }
            }
            L.push(e.hitTestsPresentation ? "presentation" : "model")
            return 1
        } })
        L.setFunction(-1, "flush", { L in protect(L) { L in
            try LuaModule.runEngine(L) { try $0.flush() }
            return 0
        } })
        L.setFunction(-1, "setup", LuaModule.setup)
        L.setFunction(-1, "reset", LuaModule.reset)
        L.setFunction(-1, "step", { L in protect(L) { L in
            let a = Args(L: L, api: "ca.step")
            let dt = try a.number(1)
            try LuaModule.runEngine(L) { try $0.step(dt) }
            return 0
        } })
        L.setFunction(-1, "advance", { L in protect(L) { L in
            let t = try Args(L: L, api: "ca.advance").number(1)
            try LuaModule.runEngine(L) { try $0.advance(to: t) }
            return 0
        } })
        let mediaTime: LuaFunction = { L in protect(L) { L in
            lua_pushnumber(L, try LuaBinding.of(L).engine.mediaTime); return 1
        } }
        L.setFunction(-1, "mediaTime", mediaTime)
        L.setFunction(-1, "currentMediaTime", mediaTime)
        L.setFunction(-1, "render", LuaModule.render)
        L.setFunction(-1, "damage", LuaModule.damage)
        L.setFunction(-1, "size", { L in protect(L) { L in
            let e = try LuaBinding.of(L).engine
            lua_pushnumber(L, e.size.width); lua_pushnumber(L, e.size.height); return 2
        } })
        L.setFunction(-1, "scale", { L in protect(L) { L in
            lua_pushnumber(L, try LuaBinding.of(L).engine.scale); return 1
        } })
        L.setFunction(-1, "pixelSize", { L in protect(L) { L in
            let (w, h) = try LuaBinding.of(L).engine.pixelSize
            lua_pushinteger(L, lua_Integer(w)); lua_pushinteger(L, lua_Integer(h)); return 2
        } })
        L.setFunction(-1, "stats", { L in protect(L) { L in
            let b = try LuaBinding.of(L)
            let s = b.engine.stats
            calu_newtable(L)
            for (k, v) in s.fields + [("liveLayers", b.session.handles.liveCount)] {
                lua_pushinteger(L, lua_Integer(v)); L.setField(-2, k)
            }
            return 1
        } })
        L.setFunction(-1, "color", { L in protect(L) { L in
            guard case .color(let c) = try LuaValues.value(L, 1, kind: .color, nullable: false, what: "ca.color") else { return 0 }
            for v in [c.red, c.green, c.blue, c.alpha] { lua_pushinteger(L, lua_Integer((min(max(v, 0), 1) * 255).rounded())) }
            return 4
        } })
        L.setFunction(-1, "properties", { L in protect(L) { L in
            let b = try LuaBinding.of(L)
            // ca.properties([className]): CALayer's, or a specialised kind's (all of them).
            var kind = LayerKind.layer
            if lua_type(L, 1) > LUA_TNIL {
                let name = try Args(L: L, api: "ca.properties").string(1)
                guard let k = LayerKind(luaName: name) else {
                    throw CalunaError(.invalidArgument, "ca.properties: unknown layer class \"\(name)\" (known: \(LayerKind.allCases.map(\.luaName).joined(separator: ", ")))")
                }
                kind = k
            }
            let props = LayerProperties.all(of: kind)
            lua_createtable(L, Int32(props.count), 0)
            for (i, p) in props.enumerated() {
                calu_newtable(L)
                L.push(p.key); L.setField(-2, "key")
                L.push(p.kind.rawValue); L.setField(-2, "kind")
                lua_pushboolean(L, p.animatable ? 1 : 0); L.setField(-2, "animatable")
                lua_pushboolean(L, p.derived ? 1 : 0); L.setField(-2, "derived")
                LuaValues.push(L, p.defaultValue, binding: b); L.setField(-2, "default")
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
            return 1
        } })
        // ca.root reads the engine's current root (it changes on ca.reset).
        calu_newtable(L)
        L.setFunction(-1, "__index", { L in protect(L) { L in
            guard L.string(2) == "root" else { return 0 }
            let b = try LuaBinding.of(L)
            LuaLayer.push(L, b.engine.root, binding: b)
            return 1
        } })
        L.setFunction(-1, "__newindex", { L in protect(L) { L in
            if L.string(2) == "root" { throw CalunaError.invalid("ca.root is read-only (resize it with ca.setup)") }
            // lua_rawset raises on these (and reads a non-table as a table): refuse them first.
            guard lua_type(L, 1) == LUA_TTABLE else { throw Args(L: L, api: "ca").fail(1, "the module table") }
            if lua_type(L, 2) == LUA_TNIL || (lua_type(L, 2) == LUA_TNUMBER && L.number(2)?.isNaN == true) {
                throw CalunaError(.invalidArgument, "ca: a key must not be nil or NaN, got \(LuaValues.describe(L, 2))")
            }
            lua_settop(L, 3)
            lua_rawset(L, 1)
            return 0
        } })
        L.setLockedMetatable(-2)
        try LuaTransaction.installSugar(L, module: lua_gettop(L))
    }

    /// Engine work that can run Lua callbacks; pins are swept afterwards.
    static func runEngine(_ L: OpaquePointer, _ body: (Engine) throws -> Void) throws {
        let b = try LuaBinding.of(L)
        defer { LuaLayer.sweepPins(L, binding: b) }
        try b.withCallState(L) { try body(b.engine) }
    }

    /// {size = {w, h}, scale = s}: both optional.
    static func outputOptions(_ L: OpaquePointer, _ api: String, at i: Int32) throws -> (Size?, Double?) {
        let a = Args(L: L, api: api)
        if a.isNil(i) { return (nil, nil) }
        try a.table(i)
        var size: Size? = nil, scale: Double? = nil
        if L.rawField(i, "size") != LUA_TNIL {
            if case .size(let s) = try LuaValues.value(L, -1, kind: .size, nullable: false, what: "\(api) size") { size = s }
        }
        L.pop()
        if L.rawField(i, "scale") != LUA_TNIL {
            guard let s = L.number(-1) else { L.pop(); throw CalunaError(.typeMismatch, "\(api): scale expects a number") }
            scale = s
        }
        L.pop()
        return (size, scale)
    }

    static let setup: LuaFunction = { L in protect(L) { L in
        let (size, scale) = try LuaModule.outputOptions(L, "ca.setup", at: 1)
        var threads: Int? = nil
        if lua_type(L, 1) == LUA_TTABLE {
            defer { L.pop() }
            if L.rawField(1, "threads") != LUA_TNIL {
                guard let n = L.number(-1), n == n.rounded(), abs(n) < 1e9 else {
                    throw CalunaError(.typeMismatch, "ca.setup: threads expects a whole number (0 for one per core)")
                }
                threads = Int(n)
            }
        }
        let b = try LuaBinding.of(L)
        try b.engine.setup(size: size, scale: scale)
        if let threads { try b.session.setRenderThreads(threads) }
        return 0
    } }

    static let reset: LuaFunction = { L in protect(L) { L in
        let (size, scale) = try LuaModule.outputOptions(L, "ca.reset", at: 1)
        let b = try LuaBinding.of(L)
        b.engine.invalidateFrameCallbacks()
        b.engine.destroyPhysicsWorlds()
        try b.session.reset(size: size ?? Engine.defaultSize, scale: scale ?? 1)
        calu_newtable(L)
        lua_setfield(L, registryIndex, LuaLayer.pinKey)
        return 0
    } }

    /// ca.render() → Image: draws into the engine's retained frame (only what
    /// changed since the last render) and returns a copy of it.
    /// ca.render{full = true} redraws everything. ca.render(path) or
    /// ca.render{path = …} writes the frame as a PNG and returns nothing.
    static let render: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.render")
        var path: String? = nil, full = false
        if lua_type(L, 1) == LUA_TSTRING {
            path = L.string(1)
        } else if lua_type(L, 1) == LUA_TTABLE {
            let pt = L.rawField(1, "path")
            defer { L.pop() }
            if pt == LUA_TSTRING { path = L.string(-1) } else if pt != LUA_TNIL { throw a.fail(1, "{path = a string}") }
            let ft = L.rawField(1, "full")
            defer { L.pop() }
            if ft == LUA_TBOOLEAN { full = lua_toboolean(L, -1) != 0 } else if ft != LUA_TNIL { throw a.fail(1, "{full = a boolean}") }
        } else if !a.isNil(1) {
            throw a.fail(1, "nil, a PNG path or {path = …, full = …}")
        }
        let b = try LuaBinding.of(L)
        var drawn: Image? = nil
        try LuaModule.runEngine(L) { drawn = try $0.renderRetained(full: full) }
        guard let frame = drawn else { return 0 }
        if let path {
            try frame.writePNG(to: path, access: b.session.fileAccess, api: a.api)
            return 0
        }
        LuaImage.push(L, try frame.duplicate())
        return 1
    } }

    /// ca.damage() → {{x, y, width, height}, …}: the pixel rectangles the
    /// last ca.render redrew (the whole frame after a full redraw, none when
    /// nothing changed).
    static let damage: LuaFunction = { L in protect(L) { L in
        let rects = try LuaBinding.of(L).engine.frameTarget.damage
        lua_createtable(L, Int32(rects.count), 0)
        for (i, r) in rects.enumerated() {
            lua_createtable(L, 4, 0)
            for (k, v) in [r.x, r.y, r.width, r.height].enumerated() {
                lua_pushinteger(L, lua_Integer(v))
                lua_rawseti(L, -2, lua_Integer(k + 1))
            }
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
        return 1
    } }

    /// `ca.Layer` (or `ca.TransformLayer` …): callable with initial properties.
    static func pushLayerClass(_ L: OpaquePointer, kind: LayerKind = .layer) {
        calu_newtable(L)
        // ca.Layer.defaultActionForKey(key): +[CALayer defaultActionForKey:].
        L.setFunction(-1, "defaultActionForKey", { L in protect(L) { L in
            let key = try Args(L: L, api: "Layer.defaultActionForKey").string(1)
            let b = try LuaBinding.of(L)
            LuaActions.push(L, Layer.defaultAction(forKey: key, transaction: b.engine.transaction, kind: nil), binding: b)
            return 1
        } })
        L.push(kind.className)
        L.setField(-2, "className")
        calu_newtable(L)
        L.setFunction(-1, "__call", { L in protect(L) { L in
            let b = try LuaBinding.of(L)
            lua_settop(L, 2)                        // class, props (maybe nil)
            let kind = LayerKind(rawValue: try LuaModule.className(L, "ca.Layer", expects: "a layer class (call it as ca.Layer{…})")) ?? .layer
            let layer = try b.engine.createLayer(kind: kind)
            LuaLayer.push(L, layer, binding: b)
            let proxy = lua_gettop(L)
            if lua_type(L, 2) > LUA_TNIL {
                try Args(L: L, api: "ca.Layer").table(2)
                try LuaModule.applyInitialProperties(L, table: 2, layer: layer, proxy: proxy, binding: b)
            }
            lua_settop(L, proxy)
            return 1
        } })
        L.setLockedMetatable(-2)
    }

    /// The className of the class table a constructor was called on
    /// (argument 1, read raw): `ca.Layer{…}` is `__call(ca.Layer, {…})`.
    static func className(_ L: OpaquePointer, _ api: String, expects: String) throws -> String {
        guard L.rawField(1, "className") == LUA_TSTRING, let name = L.string(-1) else {
            throw Args(L: L, api: api).fail(1, expects)
        }
        L.pop()
        return name
    }

    /// ca.Layer{…}: keys are applied in a fixed order — anchorPoint, bounds,
    /// frame, position first (so a frame is placed with the given anchor), then
    /// the property table's order, callbacks, sublayers.
    static func applyInitialProperties(_ L: OpaquePointer, table t: Int32, layer: Layer, proxy: Int32,
                                       binding: LuaBinding) throws {
        let first = ["anchorPoint", "anchorPointZ", "bounds", "frame", "position"]
        func rank(_ k: String) -> Int {
            if let i = first.firstIndex(of: k) { return i }
            if let i = LayerProperties.all(of: layer.kind).firstIndex(where: { $0.key == k }) { return 10 + i }
            return k == "sublayers" ? 2000 : 1000
        }
        try L.applyFields(of: t, "ca.Layer", rank: rank) { k in
            try LuaLayer.assign(L, layer: layer, proxy: proxy, key: k, valueAt: -1, binding: binding)
        }
    }
}

public let calunaVersion = "0.1.0"
