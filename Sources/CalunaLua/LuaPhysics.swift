import CLua
import CalunaLuaShim
import Caluna

/// `ca.physics` (docs/physics.md): Chipmunk worlds, bodies, shapes,
/// constraints, collision handlers and queries. Objects are userdata whose
/// properties come from the engine's physics property tables; the same Lua
/// object comes back for the same engine object, so `arb.bodyA == crate`.
enum LuaPhysics {
    static let worldMeta = "caluna.physics.World"
    static let bodyMeta = "caluna.physics.Body"
    static let shapeMeta = "caluna.physics.Shape"
    static let constraintMeta = "caluna.physics.Constraint"
    static let cacheKey = "caluna.physics.proxies"

    static func register(_ L: OpaquePointer) {
        registerClass(L, worldMeta, PhysicsWorld.self, methods: worldMethods, index: worldIndex, newIndex: worldNewIndex)
        registerClass(L, bodyMeta, PhysicsBody.self, methods: bodyMethods, index: bodyIndex, newIndex: bodyNewIndex)
        registerClass(L, shapeMeta, PhysicsShape.self, methods: shapeMethods, index: shapeIndex, newIndex: shapeNewIndex)
        registerClass(L, constraintMeta, PhysicsConstraint.self, methods: [], index: constraintIndex, newIndex: constraintNewIndex)
        LuaArbiter.register(L)
    }

    /// A metatable with __gc, __index/__newindex and __tostring; methods in
    /// the registry under "<meta>.methods".
    private static func registerClass<T: AnyObject>(_ L: OpaquePointer, _ meta: String, _ type: T.Type,
                                                    methods: [(String, LuaFunction)], index: LuaFunction, newIndex: LuaFunction) {
        calu_newtable(L)
        for (name, fn) in methods { L.setFunction(-1, name, fn) }
        lua_setfield(L, registryIndex, meta + ".methods")
        guard L.newMetatable(meta) else { L.pop(); return }
        L.push(meta); L.setField(-2, "__name")
        L.setFunction(-1, "__index", index)
        L.setFunction(-1, "__newindex", newIndex)
        switch meta {
        case worldMeta: L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPhysics.worldMeta), as: PhysicsWorld.self); return 0
        } })
        case bodyMeta: L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPhysics.bodyMeta), as: PhysicsBody.self); return 0
        } })
        case shapeMeta: L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPhysics.shapeMeta), as: PhysicsShape.self); return 0
        } })
        default: L.setFunction(-1, "__gc", { L in protect(L) { L in
            RetainedUserdata.release(luaL_testudata(L, 1, LuaPhysics.constraintMeta), as: PhysicsConstraint.self); return 0
        } })
        }
        L.setFunction(-1, "__tostring", { L in protect(L) { L in
            if let w = LuaPhysics.world(L, 1) { L.push("physics.World(\(w.allBodies.count) bodies\(w.isDestroyed ? ", destroyed" : ""))") }
            else if let b = LuaPhysics.body(L, 1) { L.push("physics.Body(\(b.label) at \(b.position))") }
            else if let s = LuaPhysics.shape(L, 1) { L.push("physics.Shape(\(s.geometry.name))") }
            else if let c = LuaPhysics.constraint(L, 1) { L.push("physics.\(c.kind.rawValue)") }
            else { L.push("physics object") }
            return 1
        } })
        L.pop()
    }

    // MARK: pushing and reading objects

    static func push(_ L: OpaquePointer, _ w: PhysicsWorld?) { pushObject(L, w, worldMeta) }
    static func push(_ L: OpaquePointer, _ b: PhysicsBody?) { pushObject(L, b, bodyMeta) }
    static func push(_ L: OpaquePointer, _ s: PhysicsShape?) { pushObject(L, s, shapeMeta) }
    static func push(_ L: OpaquePointer, _ c: PhysicsConstraint?) { pushObject(L, c, constraintMeta) }

    private static func pushObject<T: AnyObject>(_ L: OpaquePointer, _ o: T?, _ meta: String) {
        guard let o else { lua_pushnil(L); return }
        RetainedUserdata.pushCached(L, o, cacheKey: cacheKey, metatable: meta)
    }

    static func world(_ L: OpaquePointer, _ i: Int32) -> PhysicsWorld? {
        RetainedUserdata.object(luaL_testudata(L, i, worldMeta), as: PhysicsWorld.self)
    }
    static func body(_ L: OpaquePointer, _ i: Int32) -> PhysicsBody? {
        RetainedUserdata.object(luaL_testudata(L, i, bodyMeta), as: PhysicsBody.self)
    }
    static func shape(_ L: OpaquePointer, _ i: Int32) -> PhysicsShape? {
        RetainedUserdata.object(luaL_testudata(L, i, shapeMeta), as: PhysicsShape.self)
    }
    static func constraint(_ L: OpaquePointer, _ i: Int32) -> PhysicsConstraint? {
        RetainedUserdata.object(luaL_testudata(L, i, constraintMeta), as: PhysicsConstraint.self)
    }

    static func world(_ a: Args, _ i: Int32) throws -> PhysicsWorld {
        guard let w = world(a.L, i) else { throw a.fail(i, "a physics World") }
        return w
    }
    static func body(_ a: Args, _ i: Int32) throws -> PhysicsBody {
        guard let b = body(a.L, i) else { throw a.fail(i, "a physics Body") }
        return b
    }
    static func shape(_ a: Args, _ i: Int32) throws -> PhysicsShape {
        guard let s = shape(a.L, i) else { throw a.fail(i, "a physics Shape") }
        return s
    }

    // MARK: values

    /// The Lua value at idx as one of the kinds a property takes. Numbers
    /// pass through unchecked (∞ is meaningful for some); the engine checks.
    static func value(_ L: OpaquePointer, _ idx: Int32, kinds: [ValueKind], what: String) throws -> Value {
        let ty = lua_type(L, idx)
        for k in kinds {
            switch k {
            case .number where ty == LUA_TNUMBER: return .number(lua_tonumberx(L, idx, nil))
            case .string where ty == LUA_TSTRING: return .string(L.string(idx) ?? "")
            case .bool where ty == LUA_TBOOLEAN: return .bool(lua_toboolean(L, idx) != 0)
            case .point where ty == LUA_TTABLE:
                if let p = LuaValues.point(L, idx) { return .point(p) }
            case .rect where ty == LUA_TTABLE:
                if let r = LuaValues.rect(L, idx) { return .rect(r) }
            default: continue
            }
        }
        throw CalunaError(.typeMismatch, "\(what) expects \(kinds.map(\.expectation).joined(separator: " or ")), got \(LuaValues.describe(L, idx))")
    }

    static func point(_ a: Args, _ i: Int32, _ what: String) throws -> Point {
        guard let p = LuaValues.point(a.L, i) else { throw a.fail(i, "a point {x, y} (\(what))") }
        return p
    }

    static func optionalPoint(_ a: Args, _ i: Int32, _ what: String) throws -> Point? {
        a.isNil(i) ? nil : try point(a, i, what)
    }

    /// Reads a property with the table; nil if the object has no such property.
    static func pushProperty<T: PhysicsObject>(_ L: OpaquePointer, _ o: T, _ key: String) throws -> Bool {
        guard T.properties[key] != nil else { return false }
        LuaValues.push(L, try o.value(forKey: key), binding: try LuaBinding.of(L))
        return true
    }

    static func setProperty<T: PhysicsObject>(_ L: OpaquePointer, _ o: T, _ key: String, _ idx: Int32) throws -> Bool {
        guard let p = T.properties[key] else { return false }
        let what = "\(T.typeName.prefix(1).uppercased() + T.typeName.dropFirst()).\(key)"
        try prefixed(what) { try o.setValue(try value(L, idx, kinds: p.kinds, what: what), forKey: key) }
        return true
    }

    /// A method from the class's registry table.
    static func pushMethod(_ L: OpaquePointer, _ meta: String, _ key: String) -> Bool {
        lua_getfield(L, registryIndex, meta + ".methods")
        if L.rawField(-1, key) != LUA_TNIL { calu_remove(L, -2); return true }
        L.pop(2)
        return false
    }

    /// `userData`: any Lua value kept for the object.
    static func pushUserData(_ L: OpaquePointer, _ data: AnyObject?) {
        if let r = data as? LuaRef { r.push(L) } else { lua_pushnil(L) }
    }

    static func userData(_ L: OpaquePointer, _ idx: Int32) throws -> AnyObject? {
        lua_type(L, idx) <= LUA_TNIL ? nil : LuaRef(L, idx, binding: try LuaBinding.of(L))
    }

    static func noSuchKey(_ type: String, _ key: String) -> CalunaError {
        CalunaError(.unknownKey, "physics \(type) has no property or method '\(key)'")
    }

    /// Applies the fields of an options table `t` (keys other than `skip`)
    /// through the object's __newindex logic, in name order.
    static func applyOptions(_ L: OpaquePointer, _ t: Int32, _ api: String, skip: Set<String>,
                             _ set: (String, Int32) throws -> Void) throws {
        try L.applyFields(of: t, api, rank: { _ in 0 }) { key in
            guard !skip.contains(key) else { return }
            try set(key, lua_gettop(L))
        }
    }

    /// A number field of an options table (nil when absent).
    static func field(_ L: OpaquePointer, _ t: Int32, _ key: String, _ api: String) throws -> Double? {
        defer { L.pop() }
        switch L.rawField(t, key) {
        case LUA_TNIL: return nil
        case LUA_TNUMBER: return lua_tonumberx(L, -1, nil)
        default: throw CalunaError(.typeMismatch, "\(api): \(key) must be a number, got \(LuaValues.describe(L, -1))")
        }
    }

    static func pointField(_ L: OpaquePointer, _ t: Int32, _ key: String, _ api: String) throws -> Point? {
        defer { L.pop() }
        if L.rawField(t, key) == LUA_TNIL { return nil }
        guard let p = LuaValues.point(L, -1) else {
            throw CalunaError(.typeMismatch, "\(api): \(key) must be a point {x, y}, got \(LuaValues.describe(L, -1))")
        }
        return p
    }

    // MARK: the module table

    /// Pushes the `ca.physics` table.
    static func pushModule(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "World", newWorld)
        L.setFunction(-1, "Body", newBody)
        // Each constraint class is a callable table naming its kind:
        // ca.physics.PinJoint{a = …, b = …} calls newConstraint(class, options).
        calu_newtable(L)
        L.setFunction(-1, "__call", LuaPhysics.newConstraint)
        let classMeta = lua_gettop(L)
        for kind in PhysicsConstraint.Kind.allCases {
            calu_newtable(L)
            L.push(kind.rawValue); L.setField(-2, "kind")
            lua_pushvalue(L, classMeta)
            L.setLockedMetatable(-2)
            L.setField(-3, constraintClassName(kind))
        }
        L.pop()
        LuaPhysicsMath.add(to: L)
    }

    /// PinJoint, SlideJoint, PivotJoint, GrooveJoint, DampedSpring,
    /// DampedRotarySpring, RotaryLimitJoint, RatchetJoint, GearJoint, SimpleMotor.
    static func constraintClassName(_ k: PhysicsConstraint.Kind) -> String {
        switch k {
        case .dampedSpring: return "DampedSpring"
        case .dampedRotarySpring: return "DampedRotarySpring"
        case .simpleMotor: return "SimpleMotor"
        default: return k.rawValue.prefix(1).uppercased() + k.rawValue.dropFirst() + "Joint"
        }
    }

    /// ca.physics.World{gravity=…, step=…, …}: a world the engine steps.
    static let newWorld: LuaFunction = { L in protect(L) { L in
        let a = Args(L: L, api: "ca.physics.World")
        if !a.isNil(1) { try a.table(1) }
        let b = try LuaBinding.of(L)
        let w = try PhysicsWorld(engine: b.engine)
        do {
            if !a.isNil(1) {
                try applyOptions(L, 1, a.api, skip: []) { key, idx in
                    guard try setProperty(L, w, key, idx) else { throw noSuchKey("World", key) }
                }
            }
        } catch {
            try? w.destroy()
            throw error
        }
        push(L, w)
        return 1
    } }

    /// ca.physics.Body{type=, mass=, moment=, position=, …}: a body in no world.
    static let newBody: LuaFunction = { L in protect(L) { L in
        let b = try makeBody(L, Args(L: L, api: "ca.physics.Body"), 1)
        push(L, b)
        return 1
    } }

    static func makeBody(_ L: OpaquePointer, _ a: Args, _ t: Int32) throws -> PhysicsBody {
        if !a.isNil(t) { try a.table(t) }
        var kind = PhysicsBody.Kind.dynamic
        var mass: Double? = nil, moment: Double? = nil
        if !a.isNil(t) {
            if L.rawField(t, "type") != LUA_TNIL {
                guard let s = L.string(-1), let k = PhysicsBody.Kind(rawValue: s) else {
                    L.pop()
                    throw CalunaError.invalid("\(a.api): type must be \"dynamic\", \"kinematic\" or \"static\"")
                }
                kind = k
            }
            L.pop()
            mass = try field(L, t, "mass", a.api)
            moment = try field(L, t, "moment", a.api)
        }
        let body = try prefixed(a.api) { try PhysicsBody(kind: kind, mass: mass, moment: moment) }
        if !a.isNil(t) {
            try applyOptions(L, t, a.api, skip: ["type", "mass", "moment"]) { key, idx in
                try setBodyField(L, body, key, idx)
            }
        }
        return body
    }
}
