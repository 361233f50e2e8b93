import CLua
import CalunaLuaShim
import Caluna

/// Animation userdata (ca.BasicAnimation, ca.KeyframeAnimation,
/// ca.SpringAnimation, ca.AnimationGroup). Properties go through the
/// animation property table; the attached copy a layer holds (what
/// animationForKey and delegates give you) is read-only. One proxy per
/// animation object, cached weakly.
enum LuaAnimation {
    static let metatable = "caluna.Animation"
    static let cacheKey = "caluna.Animation.proxies"
    static let methodsKey = "caluna.Animation.methods"
    static let classes = ["BasicAnimation", "KeyframeAnimation", "SpringAnimation", "AnimationGroup", "Transition"]

    static func get(_ L: OpaquePointer, _ idx: Int32) -> Animation? {
        RetainedUserdata.object(luaL_testudata(L, idx, metatable), as: Animation.self)
    }

    static func arg(_ a: Args, _ i: Int32) throws -> Animation {
        guard let anim = get(a.L, i) else { throw a.fail(i, "an animation") }
        return anim
    }

    static func push(_ L: OpaquePointer, _ anim: Animation, binding: LuaBinding) {
        RetainedUserdata.pushCached(L, anim, cacheKey: cacheKey, metatable: metatable)
    }

    static func register(_ L: OpaquePointer) {
        calu_newtable(L)
        addMethods(L)
        lua_setfield(L, registryIndex, methodsKey)
        guard L.newMetatable(metatable) else { L.pop(); return }
        L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaAnimation.metatable), as: Animation.self); return 0
        } })
        L.setFunction(-1, "__index", index)
        L.setFunction(-1, "__newindex", { L in protect(L) { L in
            let a = Args(L: L, api: "Animation")
            let anim = try LuaAnimation.arg(a, 1)
            guard let key = L.string(2) else { throw a.fail(2, "a property name") }
            try LuaAnimation.assign(L, anim, key: key, valueAt: 3, binding: try LuaBinding.of(L))
            return 0
        } })
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            let anim = try LuaAnimation.arg(Args(L: L, api: "Animation"), 1)
            let kp = (anim as? PropertyAnimation)?.keyPath.map { " \"\($0)\"" } ?? ""
            L.push("\(anim.className)(\(kp)\(anim.isFrozen ? " attached" : ""))"); return 1
        } })
        L.pop()
    }

    /// ca.BasicAnimation{…} and friends: callable class tables.
    static func pushClass(_ L: OpaquePointer, _ name: String) {
        calu_newtable(L)
        L.push(name); L.setField(-2, "className")
        calu_newtable(L)
        L.setFunction(-1, "__call", { L in protect(L) { L in
            let b = try LuaBinding.of(L)
            let name = try LuaModule.className(L, "ca.Animation", expects: "an animation class (call it as ca.BasicAnimation{…})")
            lua_settop(L, 2)
            let anim = try AnimationProperties.make(name)
            LuaAnimation.push(L, anim, binding: b)
            let proxy = lua_gettop(L)
            if lua_type(L, 2) > LUA_TNIL {
                try Args(L: L, api: "ca.\(name)").table(2)
                try LuaAnimation.applyInitial(L, table: 2, anim: anim, binding: b)
            }
            lua_settop(L, proxy)
            return 1
        } })
        L.setLockedMetatable(-2)
    }

    /// Constructor keys in a fixed order: keyPath and valueFunction first
    /// (they type the values), then the property table's order.
    static func applyInitial(_ L: OpaquePointer, table t: Int32, anim: Animation, binding: LuaBinding) throws {
        func rank(_ k: String) -> Int {
            if k == "keyPath" { return 0 }
            if k == "valueFunction" { return 1 }
            return 10 + (AnimationProperties.all.firstIndex { $0.key == k } ?? 1000)
        }
        try L.applyFields(of: t, "ca.\(anim.className)", rank: rank) { k in
            try LuaAnimation.assign(L, anim, key: k, valueAt: -1, binding: binding)
        }
    }

    static let index: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "Animation")
        let anim = try LuaAnimation.arg(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property or method name") }
        let b = try LuaBinding.of(L)
        lua_getfield(L, registryIndex, methodsKey)
        if L.rawField(-1, key) != LUA_TNIL { return 1 }
        L.pop(2)
        switch key {
        case "className": L.push(anim.className); return 1
        case "isAttached": lua_pushboolean(L, anim.isFrozen ? 1 : 0); return 1
        case "delegate":
            if let d = anim.delegate as? LuaAnimationDelegate { d.object.push(L) } else { lua_pushnil(L) }
            return 1
        case "animations":
            guard let g = anim as? AnimationGroup else { break }
            lua_createtable(L, Int32(g.animations?.count ?? 0), 0)
            for (i, c) in (g.animations ?? []).enumerated() { LuaAnimation.push(L, c, binding: b); lua_rawseti(L, -2, lua_Integer(i + 1)) }
            return 1
        default: break
        }
        let p = try AnimationProperties.resolve(key, for: anim)
        LuaAnimation.pushValue(L, p.get(anim), p, binding: b)
        return 1
    } }

    static func pushValue(_ L: OpaquePointer, _ v: Value, _ p: AnimationProperty, binding: LuaBinding) {
        if case .path(let path) = v { LuaPath.push(L, path); return }
        LuaValues.push(L, v, binding: binding)
    }

    /// anim[key] = value at `v`.
    static func assign(_ L: OpaquePointer, _ anim: Animation, key: String, valueAt v: Int32, binding: LuaBinding) throws {
        let v = lua_absindex(L, v)
        let what = "\(anim.className).\(key)"
        switch key {
        case "delegate":
            try anim.checkMutable()
            switch lua_type(L, v) {
            case LUA_TNIL, LUA_TNONE: anim.delegate = nil
            case LUA_TTABLE, LUA_TUSERDATA: anim.delegate = LuaAnimationDelegate(LuaRef(L, v, binding: binding))
            default: throw CalunaError(.typeMismatch, "\(what) expects a table with animationDidStart/animationDidStop methods, got \(LuaValues.describe(L, v))")
            }
            return
        case "animations" where anim is AnimationGroup:
            try anim.checkMutable()
            guard let g = anim as? AnimationGroup else { return }
            if lua_type(L, v) <= LUA_TNIL { g.animations = nil; return }
            guard lua_type(L, v) == LUA_TTABLE else { throw CalunaError(.typeMismatch, "\(what) expects an array of animations") }
            var children: [Animation] = []
            for i in 0..<lua_rawlen(L, v) {
                lua_rawgeti(L, v, lua_Integer(i + 1))
                defer { L.pop() }
                guard let c = LuaAnimation.get(L, -1) else {
                    throw CalunaError(.typeMismatch, "\(what)[\(i + 1)] expects an animation, got \(LuaValues.describe(L, -1))")
                }
                children.append(c)
            }
            try g.setAnimations(children, what)
            return
        default: break
        }
        let p = try AnimationProperties.resolve(key, for: anim)
        try anim.checkMutable()
        try p.set(anim, try value(L, v, p, anim, what: what))
    }

    /// Converts a Lua value for an animation property.
    static func value(_ L: OpaquePointer, _ v: Int32, _ p: AnimationProperty, _ anim: Animation, what: String) throws -> Value {
        if lua_type(L, v) <= LUA_TNIL { return .null }
        switch p.kind {
        case .value(.path):
            guard let path = LuaPath.get(L, v) else { throw CalunaError(.typeMismatch, "\(what) expects a ca.Path, got \(LuaValues.describe(L, v))") }
            return .path(path)
        case .value(let k):
            return try LuaValues.value(L, v, kind: k, nullable: p.nullable, what: what, allowsInfinity: p.allowsInfinity)
        case .keyPathValue:
            return try keyPathValue(L, v, anim, what: what)
        case .keyPathValues:
            return .array(try array(L, v, what: what) { i in try keyPathValue(L, -1, anim, what: "\(what)[\(i)]") })
        case .numbers:
            return .array(try array(L, v, what: what) { i in
                guard let n = L.number(-1) else { throw CalunaError(.typeMismatch, "\(what)[\(i)] expects a number, got \(LuaValues.describe(L, -1))") }
                return .number(n)
            })
        case .timingFunction:
            return try timingFunction(L, v, what: what).value
        case .timingFunctions:
            return .array(try array(L, v, what: what) { i in try timingFunction(L, -1, what: "\(what)[\(i)]").value })
        }
    }

    static func keyPathValue(_ L: OpaquePointer, _ v: Int32, _ anim: Animation, what: String) throws -> Value {
        guard let pa = anim as? PropertyAnimation else { throw CalunaError.invalid("\(what): not a property animation") }
        let kind = try pa.valueKind()
        if kind == .array, pa.valueFunction == nil, let keyPath = pa.keyPath,
           let element = Layer.elementKind(forKeyPath: keyPath) {
            return try LuaValues.value(L, v, kind: kind, nullable: false, what: what, element: element)
        }
        if kind == .array {
            // scale / translate value functions: a number means all three axes.
            if let n = L.number(v) { return .number(n) }
            return .array(try array(L, v, what: what) { i in try LuaValues.value(L, -1, kind: .number, nullable: false, what: "\(what)[\(i)]") })
        }
        return try LuaValues.value(L, v, kind: kind, nullable: kind == .color, what: what)
    }

    static func array(_ L: OpaquePointer, _ v: Int32, what: String, _ element: (Int) throws -> Value) throws -> [Value] {
        let t = lua_absindex(L, v)
        guard lua_type(L, t) == LUA_TTABLE else { throw CalunaError(.typeMismatch, "\(what) expects an array, got \(LuaValues.describe(L, t))") }
        var out: [Value] = []
        for i in 0..<lua_rawlen(L, t) {
            lua_rawgeti(L, t, lua_Integer(i + 1))
            defer { L.pop() }
            out.append(try element(Int(i) + 1))
        }
        return out
    }

    /// A timing function from a name, a ca.MediaTimingFunction or {c1x, c1y, c2x, c2y}.
    static func timingFunction(_ L: OpaquePointer, _ v: Int32, what: String) throws -> TimingFunction {
        if let f = LuaTiming.get(L, v) { return f }
        if let s = L.string(v) { return try TimingFunction.named(s) }
        if let n = LuaValues.numbers(L, v, [["c1x"], ["c1y"], ["c2x"], ["c2y"]]) { return try TimingFunction(n[0], n[1], n[2], n[3]) }
        throw CalunaError(.typeMismatch, "\(what) expects a timing function (a name such as \"easeIn\", ca.MediaTimingFunction or {c1x, c1y, c2x, c2y}), got \(LuaValues.describe(L, v))")
    }

    static func addMethods(_ L: OpaquePointer) {
        L.setFunction(-1, "setValue", { L in protect(L) { L in
            let a = Args(L: L, api: "Animation:setValue")
            let anim = try LuaAnimation.arg(a, 1)
            let key = try a.string(3)
            try anim.checkMutable()
            anim.tags[key] = a.isNil(2) ? nil : LuaRef(L, 2, binding: try LuaBinding.of(L))
            return 0
        } })
        L.setFunction(-1, "valueForKey", { L in protect(L) { L in
            let a = Args(L: L, api: "Animation:valueForKey")
            let anim = try LuaAnimation.arg(a, 1)
            let key = try a.string(2)
            let b = try LuaBinding.of(L)
            switch anim.tags[key] {
            case let r as LuaRef: r.push(L)
            case let v as Value: LuaValues.push(L, v, binding: b)
            default:
                // Declared properties answer too (KVC).
                if let p = try? AnimationProperties.resolve(key, for: anim) { LuaAnimation.pushValue(L, p.get(anim), p, binding: b) } else { lua_pushnil(L) }
            }
            return 1
        } })
        L.setFunction(-1, "copy", { L in protect(L) { L in
            let anim = try LuaAnimation.arg(Args(L: L, api: "Animation:copy"), 1)
            LuaAnimation.push(L, anim.copy(), binding: try LuaBinding.of(L))
            return 1
        } })
    }
}
