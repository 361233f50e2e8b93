import CLua
import CalunaLuaShim
import Caluna

/// CAScrollLayer's methods and CALayer's scrolling category in Lua:
///
///     scroll:scrollToPoint{x = 100, y = 100}      -- CAScrollLayer only
///     scroll:scrollToRect{x = 0, y = 0, w = 50, h = 50}
///     content:scrollPoint{50, 60}                  -- any layer: its nearest scroll ancestor
///     content:scrollRectToVisible{0, 400, 10, 10}
///     local r = content:visibleRect()              -- {x, y, w, h} in content's coordinates
///
/// scrollPoint and scrollRectToVisible return false when no ancestor is a scroll layer.
enum LuaScrollLayer {
    static func register(_ L: OpaquePointer) {
        lua_getfield(L, registryIndex, LuaLayer.methodsKey)
        L.setFunction(-1, "scrollToPoint", { L in protect(L) { L in
            let a = Args(L: L, api: "ScrollLayer:scrollToPoint")
            let layer = try LuaScrollLayer.scrollLayer(a), p = try LuaLayerMethods.point(a, 2)
            try LuaLayerMethods.changing(L) { try layer.scroll(toPoint: p) }
            return 0
        } })
        L.setFunction(-1, "scrollToRect", { L in protect(L) { L in
            let a = Args(L: L, api: "ScrollLayer:scrollToRect")
            let layer = try LuaScrollLayer.scrollLayer(a), r = try LuaLayerMethods.rect(a, 2)
            try LuaLayerMethods.changing(L) { try layer.scroll(toRect: r) }
            return 0
        } })
        L.setFunction(-1, "scrollPoint", { L in LuaScrollLayer.scrollAncestor(L, "Layer:scrollPoint", rect: false) })
        L.setFunction(-1, "scrollRectToVisible", { L in LuaScrollLayer.scrollAncestor(L, "Layer:scrollRectToVisible", rect: true) })
        L.setFunction(-1, "visibleRect", { L in protect(L) { L in
            let layer = try LuaLayerMethods.arg(Args(L: L, api: "Layer:visibleRect"), 1)
            LuaValues.push(L, .rect(try layer.visibleRect), binding: try LuaBinding.of(L))
            return 1
        } })
        L.pop()
    }

    /// scrollPoint / scrollRectToVisible: true when an ancestor scroll layer was found.
    static func scrollAncestor(_ L: OpaquePointer?, _ api: String, rect: Bool) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: api)
            let layer = try LuaLayerMethods.arg(a, 1)
            var found = false
            if rect {
                let r = try LuaLayerMethods.rect(a, 2)
                try LuaLayerMethods.changing(L) { found = try layer.scrollRectToVisible(r) }
            } else {
                let p = try LuaLayerMethods.point(a, 2)
                try LuaLayerMethods.changing(L) { found = try layer.scrollPoint(p) }
            }
            lua_pushboolean(L, found ? 1 : 0)
            return 1
        }
    }

    /// Argument 1 as a CAScrollLayer, or an error naming the layer's class.
    static func scrollLayer(_ a: Args) throws -> Layer {
        let layer = try LuaLayerMethods.arg(a, 1)
        guard layer.kind == .scrollLayer else {
            throw CalunaError.invalid("\(a.api): the layer is a \(layer.kind.className), not a CAScrollLayer")
        }
        return layer
    }
}
