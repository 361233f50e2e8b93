import CLua
import CalunaLuaShim
import Caluna

/// World userdata: settings by property, staticBody, adding and removing,
/// stepping, collision handlers (queries are in LuaPhysicsQueries).
extension LuaPhysics {
    static let worldIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.World")
        let w = try world(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property or method name") }
        if pushMethod(L, worldMeta, key) { return 1 }
        if key == "staticBody" { try prefixed(a.api) { try w.checkAlive() }; push(L, w.staticBody); return 1 }
        if key == "destroyed" { lua_pushboolean(L, w.isDestroyed ? 1 : 0); return 1 }
        if try pushProperty(L, w, key) { return 1 }
        throw noSuchKey("World", key)
    } }

    static let worldNewIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.World")
        let w = try world(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        guard try setProperty(L, w, key, 3) else { throw noSuchKey("World", key) }
        return 0
    } }

    static let worldMethods: [(String, LuaFunction)] = [
        ("addBody", { L in protect(L) { L in
            let a = Args(L: L, api: "World:addBody")
            let w = try world(a, 1)
            let b = try makeBody(L, a, 2)
            try prefixed(a.api) { try w.add(b) }
            push(L, b)
            return 1
        } }),
        ("add", { L in protect(L) { L in
            let a = Args(L: L, api: "World:add")
            let w = try world(a, 1)
            if let b = body(L, 2) { try prefixed(a.api) { try w.add(b) } }
            else if let c = constraint(L, 2) { try prefixed(a.api) { try w.add(c) } }
            else { throw a.fail(2, "a physics Body or constraint") }
            lua_pushvalue(L, 2)
            return 1
        } }),
        ("remove", { L in protect(L) { L in
            let a = Args(L: L, api: "World:remove")
            let w = try world(a, 1)
            try LuaModule.runEngine(L) { _ in
                if let b = body(L, 2) { try prefixed(a.api) { try w.remove(b) } }
                else if let c = constraint(L, 2) { try prefixed(a.api) { try w.remove(c) } }
                else { throw a.fail(2, "a physics Body or constraint") }
            }
            return 0
        } }),
        ("step", { L in protect(L) { L in
            let a = Args(L: L, api: "World:step")
            let w = try world(a, 1)
            let dt = try a.optionalNumber(2, w.stepDuration)
            try LuaModule.runEngine(L) { _ in try prefixed(a.api) { try w.step(dt) } }
            return 0
        } }),
        ("destroy", { L in protect(L) { L in
            let a = Args(L: L, api: "World:destroy")
            try prefixed(a.api) { try world(a, 1).destroy() }
            return 0
        } }),
        ("bodies", { L in protect(L) { L in
            let w = try world(Args(L: L, api: "World:bodies"), 1)
            pushList(L, w.allBodies) { push(L, $0) }
            return 1
        } }),
        ("constraints", { L in protect(L) { L in
            let w = try world(Args(L: L, api: "World:constraints"), 1)
            pushList(L, w.allConstraints) { push(L, $0) }
            return 1
        } }),
        ("addCollisionHandler", LuaPhysics.addCollisionHandler),
        ("nearestPoint", LuaPhysicsQueries.nearestPoint),
        ("pointQuery", LuaPhysicsQueries.pointQuery),
        ("segmentQueryFirst", LuaPhysicsQueries.segmentQueryFirst),
        ("segmentQuery", LuaPhysicsQueries.segmentQuery),
        ("boundingBoxQuery", LuaPhysicsQueries.boundingBoxQuery),
        ("shapeQuery", LuaPhysicsQueries.shapeQuery),
    ]

    /// Contact points as a list of {pointA, pointB, distance}.
    static func pushContactPoints(_ L: OpaquePointer, _ points: [Arbiter.ContactPoint], _ b: LuaBinding) {
        pushList(L, points) { p in
            lua_createtable(L, 0, 3)
            LuaValues.push(L, .point(p.pointA), binding: b); L.setField(-2, "pointA")
            LuaValues.push(L, .point(p.pointB), binding: b); L.setField(-2, "pointB")
            lua_pushnumber(L, p.distance); L.setField(-2, "distance")
        }
    }

    static func pushList<T>(_ L: OpaquePointer, _ items: [T], _ push: (T) -> Void) {
        lua_createtable(L, Int32(items.count), 0)
        for (i, x) in items.enumerated() { push(x); lua_rawseti(L, -2, lua_Integer(i + 1)) }
    }

    /// A collision type from Lua: a whole number or a name.
    static func collisionType(_ L: OpaquePointer, _ idx: Int32, _ what: String) throws -> CollisionType {
        try prefixed(what) { try CollisionType(try value(L, idx, kinds: [.number, .string], what: what)) }
    }

    /// world:addCollisionHandler{typeA = …, typeB = …, begin = f, preSolve = f,
    /// postSolve = f, separate = f}. No typeB (or "*"): a wildcard handler for
    /// typeA; no typeA either: the default handler. Callbacks get an arbiter;
    /// begin and preSolve ignore the contact when they return false.
    static let addCollisionHandler: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "World:addCollisionHandler")
        let w = try world(a, 1)
        try a.table(2)
        let binding = try LuaBinding.of(L)
        func type(_ key: String) throws -> CollisionType? {
            defer { L.pop() }
            if L.rawField(2, key) == LUA_TNIL || L.string(-1) == "*" { return nil }
            return try collisionType(L, -1, "\(a.api): \(key)")
        }
        let ta = try type("typeA"), tb = try type("typeB")
        let selector: CollisionHandler.Selector
        switch (ta, tb) {
        case let (x?, y?): selector = .pair(x, y)
        case let (x?, nil): selector = .wildcard(x)
        case (nil, nil): selector = .any
        case (nil, _?): throw CalunaError.invalid("\(a.api): give typeA for a wildcard handler (typeB is the \"*\")")
        }
        let h = try prefixed(a.api) { try w.collisionHandler(selector) }
        try L.applyFields(of: 2, a.api, rank: { _ in 0 }) { key in
            switch key {
            case "typeA", "typeB": return
            case "begin", "preSolve", "postSolve", "separate": break
            default: throw CalunaError(.unknownKey, "\(a.api): no option '\(key)' (typeA, typeB, begin, preSolve, postSolve, separate)")
            }
            let top = lua_gettop(L)
            let fn: LuaRef?
            switch lua_type(L, top) {
            case LUA_TFUNCTION: fn = LuaRef(L, top, binding: binding)
            case LUA_TBOOLEAN where lua_toboolean(L, top) == 0: fn = nil
            default: throw CalunaError(.typeMismatch, "\(a.api): \(key) must be a function (or false to clear it)")
            }
            guard let fn else {
                switch key {
                case "begin": h.begin = nil
                case "preSolve": h.preSolve = nil
                case "postSolve": h.postSolve = nil
                default: h.separate = nil
                }
                return
            }
            let call: (Arbiter) throws -> Bool = { [weak binding] arb in
                guard let binding else { return true }
                return try LuaArbiter.call(binding, fn, arb)
            }
            switch key {
            case "begin": h.begin = call
            case "preSolve": h.preSolve = call
            case "postSolve": h.postSolve = { _ = try call($0) }
            default: h.separate = { _ = try call($0) }
            }
        }
        return 0
    } }
}
