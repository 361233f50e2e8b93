import CLua
import CalunaLuaShim
import Caluna

/// Custom drawing from Lua: `layer.draw = function(layer, ctx) … end` (what
/// a subclass's drawInContext: does) and the delegate's displayLayer(layer),
/// drawLayer(layer, ctx) and layerWillDraw(layer) methods; plus the layer's
/// display methods.
extension LuaBinding {
    static let methodCheckerKey = "caluna.hasMethod"
    static let methodCheckerSource = "return function(object, name) return object[name] ~= nil end"

    /// Whether the object at `object` answers `name` (looked up in Lua, so a
    /// failing __index raises inside lua_pcall).
    func hasMethod(_ L: OpaquePointer, _ object: Int32, _ name: String) throws -> Bool {
        guard lua_getfield(L, registryIndex, LuaBinding.methodCheckerKey) == LUA_TFUNCTION else { L.pop(); return false }
        lua_pushvalue(L, object)
        L.push(name)
        try pcall(L, nargs: 2, results: 1)
        defer { L.pop() }
        return lua_toboolean(L, -1) != 0
    }

    func display(_ layer: Layer) throws -> Bool {
        try withLayerValue(layer, "delegate") { L, object in
            guard try hasMethod(L, object, "displayLayer") else { return false }
            try invokeMethod(L, "displayLayer", object: { lua_pushvalue($0, object) }) { L in
                LuaLayer.push(L, layer, binding: self); return 1
            }
            return true
        } ?? false
    }

    func drawsContent(of layer: Layer) throws -> Bool {
        if try withLayerValue(layer, "draw", { L, fn in lua_type(L, fn) == LUA_TFUNCTION }) == true { return true }
        return try withLayerValue(layer, "delegate") { L, object in try hasMethod(L, object, "drawLayer") } ?? false
    }

    func draw(_ layer: Layer, in ctx: DrawingContext) throws {
        let drawn = try withLayerValue(layer, "draw") { L, fn in
            guard lua_type(L, fn) == LUA_TFUNCTION else { return false }
            lua_pushvalue(L, fn)
            LuaLayer.push(L, layer, binding: self)
            LuaDrawingContext.push(L, ctx)
            try pcall(L, nargs: 2)
            return true
        } ?? false
        if drawn { return }
        _ = try withLayerValue(layer, "delegate") { L, object in
            try invokeMethod(L, "drawLayer", object: { lua_pushvalue($0, object) }) { L in
                LuaLayer.push(L, layer, binding: self)
                LuaDrawingContext.push(L, ctx)
                return 2
            }
        }
    }

    func willDraw(_ layer: Layer) throws {
        _ = try withLayerValue(layer, "delegate") { L, object in
            try invokeMethod(L, "layerWillDraw", object: { lua_pushvalue($0, object) }) { L in
                LuaLayer.push(L, layer, binding: self); return 1
            }
        }
    }
}

enum LuaLayerDisplay {
    static func add(to L: OpaquePointer) {
        L.setFunction(-1, "setNeedsDisplay", { L in protect(L) { L in
            try LuaLayerMethods.arg(Args(L: L, api: "Layer:setNeedsDisplay"), 1).setNeedsDisplay()
            return 0
        } })
        L.setFunction(-1, "setNeedsDisplayInRect", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:setNeedsDisplayInRect")
            let layer = try LuaLayerMethods.arg(a, 1)
            let r = try LuaLayerMethods.rect(a, 2)
            try LayerProperty.checkRect("Layer:setNeedsDisplayInRect", r.standardized)
            layer.setNeedsDisplay(in: r)
            return 0
        } })
        L.setFunction(-1, "needsDisplay", { L in protect(L) { L in
            lua_pushboolean(L, try LuaLayerMethods.arg(Args(L: L, api: "Layer:needsDisplay"), 1).needsDisplay ? 1 : 0)
            return 1
        } })
        L.setFunction(-1, "display", { L in protect(L) { L in
            let layer = try LuaLayerMethods.arg(Args(L: L, api: "Layer:display"), 1)
            try LuaLayerMethods.changing(L) { try layer.display(); try layer.engine?.takeActionError() }
            return 0
        } })
        L.setFunction(-1, "displayIfNeeded", { L in protect(L) { L in
            let layer = try LuaLayerMethods.arg(Args(L: L, api: "Layer:displayIfNeeded"), 1)
            try LuaLayerMethods.changing(L) { try layer.displayIfNeeded(); try layer.engine?.takeActionError() }
            return 0
        } })
        L.setFunction(-1, "renderInContext", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:renderInContext")
            let layer = try LuaLayerMethods.arg(a, 1)
            guard let ctx = LuaDrawingContext.get(L, 2) else { throw a.fail(2, "a DrawingContext") }
            try layer.render(in: ctx)
            return 0
        } })
        L.setFunction(-1, "snapshot", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:snapshot")
            let layer = try LuaLayerMethods.arg(a, 1)
            let scale = try a.optionalNumber(2, try LuaBinding.of(L).engine.scale)
            LuaImage.push(L, try layer.snapshot(scale: scale))
            return 1
        } })
    }
}
