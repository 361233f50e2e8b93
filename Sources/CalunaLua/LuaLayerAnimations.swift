import CLua
import CalunaLuaShim
import Caluna

/// Layer methods for animations, the presentation tree and layer time.
enum LuaLayerAnimations {
    static func add(to L: OpaquePointer) {
        L.setFunction(-1, "addAnimation", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:addAnimation")
            let layer = try LuaLayer.arg(a, 1)
            let anim = try LuaAnimation.arg(a, 2)
            let key = a.isNil(3) ? nil : try a.string(3)
            try layer.addAnimation(anim, forKey: key)
            return 0
        } })
        L.setFunction(-1, "animationForKey", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:animationForKey")
            let layer = try LuaLayer.arg(a, 1)
            if let anim = layer.animation(forKey: try a.string(2)) {
                LuaAnimation.push(L, anim, binding: try LuaBinding.of(L))
            } else {
                lua_pushnil(L)
            }
            return 1
        } })
        L.setFunction(-1, "animationKeys", { L in protect(L) { L in
            let keys = try LuaLayer.arg(Args(L: L, api: "Layer:animationKeys"), 1).animationKeys
            lua_createtable(L, Int32(keys.count), 0)
            for (i, k) in keys.enumerated() { L.push(k); lua_rawseti(L, -2, lua_Integer(i + 1)) }
            return 1
        } })
        L.setFunction(-1, "removeAnimationForKey", { L in protect(L) { L in
            let a = Args(L: L, api: "Layer:removeAnimationForKey")
            let layer = try LuaLayer.arg(a, 1)
            try layer.checkModel("Layer:removeAnimationForKey")
            layer.removeAnimation(forKey: try a.string(2))
            return 0
        } })
        L.setFunction(-1, "removeAllAnimations", { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:removeAllAnimations"), 1)
            try layer.checkModel("Layer:removeAllAnimations")
            layer.removeAllAnimations()
            return 0
        } })
        let presentation: LuaFunction = { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:presentation"), 1)
            LuaLayer.pushOptional(L, layer.presentation(), binding: try LuaBinding.of(L))
            return 1
        } }
        L.setFunction(-1, "presentation", presentation)
        L.setFunction(-1, "presentationLayer", presentation)
        L.setFunction(-1, "modelLayer", { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:modelLayer"), 1)
            LuaLayer.push(L, layer.modelLayer, binding: try LuaBinding.of(L))
            return 1
        } })
        L.setFunction(-1, "isPresentation", { L in protect(L) { L in
            lua_pushboolean(L, try LuaLayer.arg(Args(L: L, api: "Layer:isPresentation"), 1).isPresentation ? 1 : 0)
            return 1
        } })
        L.setFunction(-1, "convertTime", { L in LuaLayerAnimations.convertTime(L, "Layer:convertTime", from: true) })
        L.setFunction(-1, "convertTimeFromLayer", { L in LuaLayerAnimations.convertTime(L, "Layer:convertTimeFromLayer", from: true) })
        L.setFunction(-1, "convertTimeToLayer", { L in LuaLayerAnimations.convertTime(L, "Layer:convertTimeToLayer", from: false) })
        L.setFunction(-1, "localTime", { L in protect(L) { L in
            let layer = try LuaLayer.arg(Args(L: L, api: "Layer:localTime"), 1)
            lua_pushnumber(L, layer.localTime(atMediaTime: try LuaBinding.of(L).engine.mediaTime))
            return 1
        } })
    }

    /// layer:convertTime(t, other) — `other` nil means media time.
    static func convertTime(_ L: OpaquePointer?, _ api: String, from: Bool) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: api)
            let layer = try LuaLayer.arg(a, 1)
            let t = try a.number(2)
            try MediaTiming.checkTime(t, "\(api): argument 2")
            let other = try LuaLayer.optionalArg(a, 3)
            if let other, other.engine !== layer.engine {
                throw CalunaError(.treeError, "\(api): the layers belong to different engines")
            }
            lua_pushnumber(L, from ? layer.convertTime(t, from: other) : layer.convertTime(t, to: other))
            return 1
        }
    }
}

/// ca.displayLink(fn), ca.after(s, fn), ca.every(s, fn): callbacks on the
/// virtual clock, run inside ca.step / ca.advance.
enum LuaFrameCallbacks {
    static let linkMetatable = "caluna.DisplayLink"
    static let timerMetatable = "caluna.Timer"

    static func register(_ L: OpaquePointer) {
        for (name, isLink) in [(linkMetatable, true), (timerMetatable, false)] {
            guard L.newMetatable(name) else { L.pop(); continue }
            L.setFunction(-1, "__gc", { L in protect(L) { L in
                RetainedUserdata.release(LuaFrameCallbacks.block(L, 1), as: FrameCallback.self); return 0
            } })
            L.setFunction(-1, "__index", isLink ? linkIndex : timerIndex)
            if isLink { L.setFunction(-1, "__newindex", linkNewIndex) }
            L.pop()
        }
    }

    /// The userdata block at i if it is a display link or a timer.
    static func block(_ L: OpaquePointer, _ i: Int32) -> UnsafeMutableRawPointer? {
        luaL_testudata(L, i, linkMetatable) ?? luaL_testudata(L, i, timerMetatable)
    }

    static func object<T: FrameCallback>(_ L: OpaquePointer, _ i: Int32, _ meta: String, _ api: String) throws -> T {
        guard let o = RetainedUserdata.object(luaL_testudata(L, i, meta), as: FrameCallback.self) as? T else {
            throw Args(L: L, api: api).fail(i, meta == linkMetatable ? "a DisplayLink" : "a Timer")
        }
        return o
    }

    static func function(_ a: Args, _ i: Int32) throws -> LuaRef {
        guard lua_type(a.L, i) == LUA_TFUNCTION else { throw a.fail(i, "a function") }
        return LuaRef(a.L, i, binding: try LuaBinding.of(a.L))
    }

    /// ca.displayLink(fn) → link; fn(link) runs once per frame.
    static let displayLink: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.displayLink")
        let fn = try function(a, 1)
        let b = try LuaBinding.of(L)
        let link = DisplayLink(engine: b.engine) { [weak b] link in
            guard let b else { return }
            try b.call(fn) { L in push(L, link, linkMetatable); return 1 }
        }
        push(L, link, linkMetatable)
        return 1
    } }

    static func timer(_ L: OpaquePointer?, _ api: String, repeats: Bool) -> Int32 {
        protect(L) { L in
            let a = Args(L: L, api: api)
            let interval = try a.number(1)
            let fn = try function(a, 2)
            let b = try LuaBinding.of(L)
            let timer = try prefixed(api) { try FrameTimer(engine: b.engine, interval: interval, repeats: repeats) { [weak b] t in
                guard let b else { return }
                try b.call(fn) { L in push(L, t, timerMetatable); return 1 }
            } }
            push(L, timer, timerMetatable)
            return 1
        }
    }

    static let cacheKey = "caluna.FrameCallback.proxies"

    static func push(_ L: OpaquePointer, _ o: FrameCallback, _ meta: String) {
        RetainedUserdata.pushCached(L, o, cacheKey: cacheKey, metatable: meta)
    }

    static let invalidate: LuaFunction = { L in protect(L) { L in
        // The block is read only once it is known to hold a FrameCallback.
        guard let o = RetainedUserdata.object(LuaFrameCallbacks.block(L, 1), as: FrameCallback.self) else {
            throw Args(L: L, api: "invalidate").fail(1, "a DisplayLink or Timer")
        }
        o.invalidate()
        return 0
    } }

    static let linkIndex: LuaFunction = { L in protect(L) { L in
        let link: DisplayLink = try object(L, 1, linkMetatable, "DisplayLink")
        switch L.string(2) ?? "" {
        case "timestamp": lua_pushnumber(L, link.timestamp)
        case "targetTimestamp": lua_pushnumber(L, link.targetTimestamp)
        case "duration": lua_pushnumber(L, link.duration)
        case "paused": lua_pushboolean(L, link.isPaused ? 1 : 0)
        case "preferredFramesPerSecond": lua_pushinteger(L, lua_Integer(link.preferredFramesPerSecond))
        case "frameInterval": lua_pushinteger(L, lua_Integer(link.frameInterval))
        case "valid": lua_pushboolean(L, link.isValid ? 1 : 0)
        case "invalidate": calu_push_function(L, invalidate)
        case let k: throw CalunaError(.unknownKey, "DisplayLink has no field '\(k)'")
        }
        return 1
    } }

    static let linkNewIndex: LuaFunction = { L in protect(L) { L in
        let link: DisplayLink = try object(L, 1, linkMetatable, "DisplayLink")
        let a = Args(L: L, api: "DisplayLink")
        switch L.string(2) ?? "" {
        case "paused":
            guard lua_type(L, 3) == LUA_TBOOLEAN else { throw a.fail(3, "a boolean") }
            link.isPaused = lua_toboolean(L, 3) != 0
        case "preferredFramesPerSecond", "frameInterval":
            let n = try a.number(3)
            let isRate = L.string(2) == "preferredFramesPerSecond"
            guard n == n.rounded(), n >= (isRate ? 0 : 1), n <= 10_000 else {
                throw CalunaError.invalid("DisplayLink.\(L.string(2) ?? ""): expects a whole number \(isRate ? "0 (every frame) …10000" : "1…10000") (got \(n))")
            }
            if isRate { link.preferredFramesPerSecond = Int(n) } else { link.frameInterval = Int(n) }
        case let k: throw CalunaError(.unknownKey, "DisplayLink.\(k) cannot be set (paused, preferredFramesPerSecond, frameInterval can)")
        }
        return 0
    } }

    static let timerIndex: LuaFunction = { L in protect(L) { L in
        let t: FrameTimer = try object(L, 1, timerMetatable, "Timer")
        switch L.string(2) ?? "" {
        case "interval": lua_pushnumber(L, t.interval)
        case "repeats": lua_pushboolean(L, t.repeats ? 1 : 0)
        case "fireDate": lua_pushnumber(L, t.fireDate)
        case "valid": lua_pushboolean(L, t.isValid ? 1 : 0)
        case "invalidate": calu_push_function(L, invalidate)
        case let k: throw CalunaError(.unknownKey, "Timer has no field '\(k)'")
        }
        return 1
    } }
}
