import CLua
import CalunaLuaShim
import Caluna

/// Layer methods, with Core Animation's names. Sublayer indices are 1-based,
/// like `layer.sublayers` in Lua.
enum LuaLayerMethods {
    static func add(to L: OpaquePointer) {
        LuaLayerAnimations.add(to: L)
        LuaLayerDisplay.add(to: L)
        L.setFunction(-1, "on", LuaEvents.layerOn)
        L.setFunction(-1, "off", LuaEvents.layerOff)
        L.setFunction(-1, "addSublayer", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:addSublayer")
            let parent = try LuaLayerMethods.arg(a, 1), child = try LuaLayerMethods.arg(a, 2)
            try LuaLayerMethods.changing(L) { try parent.addSublayer(child) }
            try LuaLayerMethods.pinIfNeeded(L, 2)
            return 0
        } })
        L.setFunction(-1, "insertSublayer", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:insertSublayer")
            let index = try a.number(3)
            guard index == index.rounded(), abs(index) < 1e9 else {
                throw CalunaError.invalid("Layer:insertSublayer: the index must be a whole number (got \(index))")
            }
            let parent = try LuaLayerMethods.arg(a, 1), child = try LuaLayerMethods.arg(a, 2)
            // Lua counts from 1: say so in the error, not in Swift's 0-based terms.
            let last = parent.sublayers.count - (child.superlayer === parent ? 1 : 0) + 1
            guard index >= 1, index <= Double(last) else {
                throw CalunaError.invalid("Layer:insertSublayer: index \(Int(index)) is out of range 1…\(last)")
            }
            try LuaLayerMethods.changing(L) { try parent.insertSublayer(child, at: Int(index) - 1) }
            try LuaLayerMethods.pinIfNeeded(L, 2)
            return 0
        } })
        L.setFunction(-1, "insertSublayerAbove", { L in
            LuaLayerMethods.insertRelative(L, "Layer:insertSublayerAbove", above: true)
        })
        L.setFunction(-1, "insertSublayerBelow", { L in
            LuaLayerMethods.insertRelative(L, "Layer:insertSublayerBelow", above: false)
        })
        L.setFunction(-1, "replaceSublayer", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:replaceSublayer")
            let parent = try LuaLayerMethods.arg(a, 1), old = try LuaLayerMethods.arg(a, 2), new = try LuaLayerMethods.arg(a, 3)
            try LuaLayerMethods.changing(L) { try parent.replaceSublayer(old, with: new) }
            try LuaLayerMethods.pinIfNeeded(L, 3)
            return 0
        } })
        L.setFunction(-1, "removeFromSuperlayer", { L in protect(L) { L in
            let layer = try LuaLayerMethods.arg(Args(L: L, api: "Layer:removeFromSuperlayer"), 1)
            try LuaLayerMethods.changing(L) {
                layer.removeFromSuperlayer()
                try layer.engine?.takeActionError()   // from its onOrderOut action
            }
            return 0
        } })
        L.setFunction(-1, "convertPointFromLayer", { L in
            LuaLayerMethods.convert(L, "Layer:convertPointFromLayer", from: true, rect: false)
        })
        L.setFunction(-1, "convertPointToLayer", { L in
            LuaLayerMethods.convert(L, "Layer:convertPointToLayer", from: false, rect: false)
        })
        L.setFunction(-1, "convertRectFromLayer", { L in
            LuaLayerMethods.convert(L, "Layer:convertRectFromLayer", from: true, rect: true)
        })
        L.setFunction(-1, "convertRectToLayer", { L in
            LuaLayerMethods.convert(L, "Layer:convertRectToLayer", from: false, rect: true)
        })
        L.setFunction(-1, "containsPoint", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:containsPoint")
            lua_pushboolean(L, try LuaLayerMethods.arg(a, 1).contains(try LuaLayerMethods.point(a, 2)) ? 1 : 0)
            return 1
        } })
        L.setFunction(-1, "hitTest", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:hitTest")
            LuaLayer.pushOptional(L, try LuaLayerMethods.arg(a, 1).hitTest(try LuaLayerMethods.point(a, 2)), binding: try LuaBinding.of(L))
            return 1
        } })
        L.setFunction(-1, "setNeedsLayout", { L in protect(L) { L in
            try LuaLayerMethods.arg(Args(L: L, api: "Layer:setNeedsLayout"), 1).setNeedsLayout()
            return 0
        } })
        L.setFunction(-1, "needsLayout", { L in protect(L) { L in
            lua_pushboolean(L, try LuaLayerMethods.arg(Args(L: L, api: "Layer:needsLayout"), 1).needsLayout ? 1 : 0)
            return 1
        } })
        L.setFunction(-1, "layoutIfNeeded", { L in protect(L) { L in
            let layer = try LuaLayerMethods.arg(Args(L: L, api: "Layer:layoutIfNeeded"), 1)
            let b = try LuaBinding.of(L)
            try b.withCallState(L) { try layer.layoutIfNeeded() }
            return 0
        } })
        L.setFunction(-1, "valueForKeyPath", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:valueForKeyPath")
            LuaValues.push(L, try LuaLayerMethods.arg(a, 1).value(forKeyPath: try a.string(2)), binding: try LuaBinding.of(L))
            return 1
        } })
        L.setFunction(-1, "setValueForKeyPath", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:setValueForKeyPath")
            let layer = try LuaLayerMethods.arg(a, 1)
            let path = try a.string(3)
            let (kind, nullable) = try Layer.kind(forKeyPath: path, of: layer.kind)
            let value = try LuaValues.value(L, 2, kind: kind, nullable: nullable, what: path,
                                            element: Layer.elementKind(forKeyPath: path, of: layer.kind))
            try LuaLayerMethods.changing(L) { try layer.setValue(value, forKeyPath: path) }
            return 0
        } })
        L.setFunction(-1, "actionForKey", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:actionForKey")
            let layer = try LuaLayerMethods.arg(a, 1)
            let key = try a.string(2)
            let b = try LuaBinding.of(L)
            let action = try b.withCallState(L) { try layer.action(forKey: key) }
            LuaActions.push(L, action, binding: b)
            return 1
        } })
    }

    static func arg(_ a: Args, _ i: Int32) throws -> Layer { try LuaLayer.arg(a, i) }

    /// A change that may run actions, which call Lua on this thread.
    static func changing(_ L: OpaquePointer, _ body: () throws -> Void) throws {
        try LuaBinding.of(L).withCallState(L, body)
    }

    static func point(_ a: Args, _ i: Int32) throws -> Point {
        guard case .point(let p) = try LuaValues.value(a.L, i, kind: .point, nullable: false, what: "\(a.api) argument \(i)") else {
            throw a.fail(i, ValueKind.point.expectation)
        }
        return p
    }

    static func rect(_ a: Args, _ i: Int32) throws -> Rect {
        guard case .rect(let r) = try LuaValues.value(a.L, i, kind: .rect, nullable: false, what: "\(a.api) argument \(i)") else {
            throw a.fail(i, ValueKind.rect.expectation)
        }
        return r
    }

    static func convert(_ L: OpaquePointer?, _ api: String, from: Bool, rect isRect: Bool) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: api)
            let layer = try LuaLayerMethods.arg(a, 1)
            let other = try LuaLayer.optionalArg(a, 3)
            let b = try LuaBinding.of(L)
            if isRect {
                let r = try LuaLayerMethods.rect(a, 2)
                LuaValues.push(L, .rect(from ? try layer.convert(r, from: other) : try layer.convert(r, to: other)), binding: b)
            } else {
                let p = try LuaLayerMethods.point(a, 2)
                LuaValues.push(L, .point(from ? try layer.convert(p, from: other) : try layer.convert(p, to: other)), binding: b)
            }
            return 1
        }
    }

    /// insertSublayer:above: / below: — a nil sibling means the front / the back.
    static func insertRelative(_ L: OpaquePointer?, _ api: String, above: Bool) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: api)
            let parent = try arg(a, 1), child = try arg(a, 2), sibling = try LuaLayer.optionalArg(a, 3)
            try changing(L) {
                if above { try parent.insertSublayer(child, above: sibling) } else { try parent.insertSublayer(child, below: sibling) }
            }
            try pinIfNeeded(L, 2)
            return 0
        }
    }

    /// A proxy with callbacks that joins the tree is pinned at once.
    static func pinIfNeeded(_ L: OpaquePointer, _ idx: Int32) throws {
        guard let layer = LuaLayer.get(L, idx) else { return }
        let hasData = lua_getiuservalue(L, idx, 1) == LUA_TTABLE
        L.pop()
        if hasData { LuaLayer.pin(L, lua_absindex(L, idx), layer, binding: try LuaBinding.of(L)) }
    }
}
