import CLua
import CalunaLuaShim
import Caluna

/// Body and shape userdata: properties from the tables, shapes made on a
/// body, forces, sleeping, update hooks and layer binding.
extension LuaPhysics {
    static let bodyIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.Body")
        let b = try body(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property or method name") }
        if pushMethod(L, bodyMeta, key) { return 1 }
        switch key {
        case "world": push(L, b.world)
        case "shapes": pushList(L, b.shapes) { push(L, $0) }
        case "userData": pushUserData(L, b.userData)
        case "velocityUpdate": pushUserData(L, b.velocityUpdateSource)
        case "positionUpdate": pushUserData(L, b.positionUpdateSource)
        default:
            if try pushProperty(L, b, key) { return 1 }
            throw noSuchKey("Body", key)
        }
        return 1
    } }

    static let bodyNewIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.Body")
        let b = try body(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        try setBodyField(L, b, key, 3)
        return 0
    } }

    /// body[key] = value at idx (also the options of addBody and Body{…}).
    static func setBodyField(_ L: OpaquePointer, _ b: PhysicsBody, _ key: String, _ idx: Int32) throws {
        switch key {
        case "userData": b.userData = try userData(L, idx)
        case "velocityUpdate":
            let ref = try hook(L, idx, "Body.velocityUpdate")
            b.velocityUpdateSource = ref
            b.velocityUpdate = ref.map { ref in
                { [weak binding = ref.binding] body, g, damping, dt in
                    try binding?.call(ref) { L in
                        push(L, body)
                        lua_createtable(L, 0, 2)
                        lua_pushnumber(L, g.x); L.setField(-2, "x")
                        lua_pushnumber(L, g.y); L.setField(-2, "y")
                        lua_pushnumber(L, damping); lua_pushnumber(L, dt)
                        return 4
                    }
                }
            }
        case "positionUpdate":
            let ref = try hook(L, idx, "Body.positionUpdate")
            b.positionUpdateSource = ref
            b.positionUpdate = ref.map { ref in
                { [weak binding = ref.binding] body, dt in
                    try binding?.call(ref) { L in push(L, body); lua_pushnumber(L, dt); return 2 }
                }
            }
        default:
            guard try setProperty(L, b, key, idx) else { throw noSuchKey("Body", key) }
        }
    }

    private static func hook(_ L: OpaquePointer, _ idx: Int32, _ what: String) throws -> LuaRef? {
        switch lua_type(L, idx) {
        case LUA_TNIL, LUA_TNONE: return nil
        case LUA_TFUNCTION: return LuaRef(L, idx, binding: try LuaBinding.of(L))
        default: throw CalunaError(.typeMismatch, "\(what) must be a function or nil, got \(LuaValues.describe(L, idx))")
        }
    }

    /// body:addCircle{radius, offset}, addBox{width, height, radius, center},
    /// addPolygon{points, radius}, addSegment{a, b, radius}; any shape
    /// property (friction, elasticity, …) may be given too.
    private static func addShape(_ L: OpaquePointer, _ api: String, _ make: (Args) throws -> (PhysicsShape.Geometry, Set<String>)) throws -> Int32 {
        let a = Args(L: L, api: api)
        let b = try body(a, 1)
        try a.table(2)
        let (geometry, used) = try make(a)
        let s = try prefixed(api) { try b.addShape(geometry) }
        do {
            try applyOptions(L, 2, api, skip: used) { key, idx in try setShapeField(L, s, key, idx) }
        } catch {
            try? b.removeShape(s)
            throw error
        }
        push(L, s)
        return 1
    }

    private static func number(_ L: OpaquePointer, _ key: String, _ api: String, _ fallback: Double? = nil) throws -> Double {
        if let v = try field(L, 2, key, api) { return v }
        guard let fallback else { throw CalunaError.invalid("\(api): \(key) is required") }
        return fallback
    }

    static let bodyMethods: [(String, LuaFunction)] = [
        ("addCircle", { L in protect(L) { L in try addShape(L, "Body:addCircle") { a in
            (.circle(radius: try number(L, "radius", a.api), offset: try pointField(L, 2, "offset", a.api) ?? .zero),
             ["radius", "offset"])
        } } }),
        ("addBox", { L in protect(L) { L in try addShape(L, "Body:addBox") { a in
            (.box(width: try number(L, "width", a.api), height: try number(L, "height", a.api),
                  radius: try number(L, "radius", a.api, 0), center: try pointField(L, 2, "center", a.api) ?? .zero),
             ["width", "height", "radius", "center"])
        } } }),
        ("addPolygon", { L in protect(L) { L in try addShape(L, "Body:addPolygon") { a in
            guard L.rawField(2, "points") == LUA_TTABLE else {
                L.pop()
                throw CalunaError.invalid("\(a.api): points must be a list of points {{x, y}, …}")
            }
            var pts: [Point] = []
            let n = lua_rawlen(L, -1)
            guard n <= UInt64(PhysicsShape.maximumVertices) else {
                L.pop()
                throw CalunaError.invalid("\(a.api): a polygon has at most \(PhysicsShape.maximumVertices) points (got \(n))")
            }
            for i in 0..<n {
                lua_rawgeti(L, -1, lua_Integer(i + 1))
                defer { L.pop() }
                guard let p = LuaValues.point(L, -1) else {
                    L.pop(2)
                    throw CalunaError(.typeMismatch, "\(a.api): points[\(i + 1)] must be a point {x, y}")
                }
                pts.append(p)
            }
            L.pop()
            return (.polygon(points: pts, radius: try number(L, "radius", a.api, 0)), ["points", "radius"])
        } } }),
        ("addSegment", { L in protect(L) { L in try addShape(L, "Body:addSegment") { a in
            guard let pa = try pointField(L, 2, "a", a.api), let pb = try pointField(L, 2, "b", a.api) else {
                throw CalunaError.invalid("\(a.api): a and b (the segment's ends) are required")
            }
            return (.segment(a: pa, b: pb, radius: try number(L, "radius", a.api, 0)), ["a", "b", "radius"])
        } } }),
        ("removeShape", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:removeShape")
            let b = try body(a, 1)
            try prefixed(a.api) { try b.removeShape(try shape(a, 2)) }
            return 0
        } }),
        ("applyForce", { L in protect(L) { L in try applyAt(L, "Body:applyForce") { b, v, p in try b.applyForce(v, atWorldPoint: p) } } }),
        ("applyForceAtLocalPoint", { L in protect(L) { L in
            try applyAt(L, "Body:applyForceAtLocalPoint", local: true) { b, v, p in try b.applyForce(v, atLocalPoint: p) }
        } }),
        ("applyImpulse", { L in protect(L) { L in try applyAt(L, "Body:applyImpulse") { b, v, p in try b.applyImpulse(v, atWorldPoint: p) } } }),
        ("applyImpulseAtLocalPoint", { L in protect(L) { L in
            try applyAt(L, "Body:applyImpulseAtLocalPoint", local: true) { b, v, p in try b.applyImpulse(v, atLocalPoint: p) }
        } }),
        ("localToWorld", { L in protect(L) { L in try convert(L, "Body:localToWorld") { try $0.localToWorld($1) } } }),
        ("worldToLocal", { L in protect(L) { L in try convert(L, "Body:worldToLocal") { try $0.worldToLocal($1) } } }),
        ("velocityAtWorldPoint", { L in protect(L) { L in try convert(L, "Body:velocityAtWorldPoint") { try $0.velocity(atWorldPoint: $1) } } }),
        ("sleep", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:sleep")
            try prefixed(a.api) { try body(a, 1).sleep() }
            return 0
        } }),
        ("activate", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:activate")
            try prefixed(a.api) { try body(a, 1).activate() }
            return 0
        } }),
        ("updateVelocity", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:updateVelocity")
            try prefixed(a.api) {
                try body(a, 1).updateVelocity(gravity: try point(a, 2, "gravity"), damping: try a.number(3), dt: try a.number(4))
            }
            return 0
        } }),
        ("updatePosition", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:updatePosition")
            try prefixed(a.api) { try body(a, 1).updatePosition(dt: try a.number(2)) }
            return 0
        } }),
        ("bind", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:bind")
            let b = try body(a, 1)
            let layer = try LuaLayer.arg(a, 2)
            var m = LayerMapping()
            if !a.isNil(3) {
                try a.table(3)
                m.origin = try pointField(L, 3, "origin", a.api) ?? .zero
                m.scale = try field(L, 3, "scale", a.api) ?? 1
                if L.rawField(3, "flipY") != LUA_TNIL { m.flipY = lua_toboolean(L, -1) != 0 }
                L.pop()
                if L.rawField(3, "rotates") != LUA_TNIL { m.rotates = lua_toboolean(L, -1) != 0 }
                L.pop()
            }
            try prefixed(a.api) { try b.bind(layer, mapping: m) }
            return 0
        } }),
        ("unbind", { L in protect(L) { L in
            let a = Args(L: L, api: "Body:unbind")
            let b = try body(a, 1)
            b.unbind(a.isNil(2) ? nil : try LuaLayer.arg(a, 2))
            return 0
        } }),
        ("boundLayers", { L in protect(L) { L in
            let b = try body(Args(L: L, api: "Body:boundLayers"), 1)
            let binding = try LuaBinding.of(L)
            pushList(L, b.boundLayers) { LuaLayer.push(L, $0, binding: binding) }
            return 1
        } }),
    ]

    /// body:applyX(vector[, point]): the point defaults to the centre of
    /// gravity (in world coordinates for the world-point forms).
    private static func applyAt(_ L: OpaquePointer, _ api: String, local: Bool = false,
                                _ apply: (PhysicsBody, Point, Point) throws -> Void) throws -> Int32 {
        let a = Args(L: L, api: api)
        let b = try body(a, 1)
        let v = try point(a, 2, "vector")
        let cog = b.centerOfGravity
        let p = try optionalPoint(a, 3, "point") ?? (local ? cog : try b.localToWorld(cog))
        try prefixed(api) { try apply(b, v, p) }
        return 0
    }

    private static func convert(_ L: OpaquePointer, _ api: String, _ f: (PhysicsBody, Point) throws -> Point) throws -> Int32 {
        let a = Args(L: L, api: api)
        let p = try prefixed(api) { try f(try body(a, 1), try point(a, 2, "point")) }
        LuaValues.push(L, .point(p), binding: try LuaBinding.of(L))
        return 1
    }

    // MARK: shapes

    static let shapeIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.Shape")
        let s = try shape(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property or method name") }
        if pushMethod(L, shapeMeta, key) { return 1 }
        switch key {
        case "body": push(L, s.body)
        case "userData": pushUserData(L, s.userData)
        case "filter":
            let f = s.filter
            lua_createtable(L, 0, 3)
            lua_pushinteger(L, lua_Integer(bitPattern: UInt64(f.group))); L.setField(-2, "group")
            lua_pushinteger(L, lua_Integer(f.categories)); L.setField(-2, "categories")
            lua_pushinteger(L, lua_Integer(f.mask)); L.setField(-2, "mask")
        default:
            if try pushProperty(L, s, key) { return 1 }
            throw noSuchKey("Shape", key)
        }
        return 1
    } }

    static let shapeNewIndex: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "physics.Shape")
        let s = try shape(a, 1)
        guard let key = L.string(2) else { throw a.fail(2, "a property name") }
        try setShapeField(L, s, key, 3)
        return 0
    } }

    static func setShapeField(_ L: OpaquePointer, _ s: PhysicsShape, _ key: String, _ idx: Int32) throws {
        switch key {
        case "userData": s.userData = try userData(L, idx)
        case "filter": try s.setFilter(try filter(L, idx, "Shape.filter"))
        default:
            guard try setProperty(L, s, key, idx) else { throw noSuchKey("Shape", key) }
        }
    }

    /// {group = n, categories = bits, mask = bits}; absent fields keep the
    /// defaults (no group, every category, every mask bit).
    static func filter(_ L: OpaquePointer, _ idx: Int32, _ what: String) throws -> ShapeFilter {
        guard lua_type(L, idx) == LUA_TTABLE else {
            throw CalunaError(.typeMismatch, "\(what) must be a table {group, categories, mask}, got \(LuaValues.describe(L, idx))")
        }
        var f = ShapeFilter()
        func bits(_ key: String, _ max: Double) throws -> Double? {
            guard let v = try field(L, idx, key, what) else { return nil }
            guard v >= 0, v <= max, v == v.rounded() else { throw CalunaError.invalid("\(what).\(key) must be a whole number from 0 to \(Int64(max)) (got \(v))") }
            return v
        }
        if let g = try bits("group", 9_007_199_254_740_991) { f.group = UInt(g) }
        if let c = try bits("categories", 4_294_967_295) { f.categories = UInt32(c) }
        if let m = try bits("mask", 4_294_967_295) { f.mask = UInt32(m) }
        return f
    }

    static let shapeMethods: [(String, LuaFunction)] = []
}
