import CLua
import CalunaLuaShim
import Caluna

/// `layer.key` and `layer.key = value` for CALayer's stored numbers, flags,
/// points, sizes and rects (LayerProperty.TypedAccess), without making a
/// Swift String or a Value: the key is looked up by the Lua string itself in
/// a registry table, and the value goes straight to the typed accessor.
/// Anything else — another key or kind of value, an invalid value, a
/// specialised kind's property — takes the general path (LuaLayer.generalIndex,
/// LuaLayer.generalNewIndex), which gives every error, so both paths behave alike
/// (Tests/CalunaTests/LuaFastPathTests.swift compares them).
enum LuaLayerFastPath {
    /// Makes the table the fast paths look keys up in — property name →
    /// index in `LayerProperties.all`, and [0] the layer metatable (the
    /// identity check of argument 1) — and sets `__index` and `__newindex` of
    /// the metatable on top of the stack, with the table as their second
    /// upvalue (no registry lookup per access).
    static func install(_ L: OpaquePointer, index: LuaFunction, newIndex: LuaFunction) {
        let mt = lua_gettop(L)
        calu_newtable(L)
        for (i, p) in LayerProperties.all.enumerated() where p.typed != nil {
            L.push(p.key)
            lua_pushinteger(L, lua_Integer(i))
            lua_rawset(L, -3)
        }
        lua_pushvalue(L, mt)
        lua_rawseti(L, -2, 0)
        let table = lua_gettop(L)
        lua_pushvalue(L, table)
        calu_push_function_with(L, index)
        L.setField(mt, "__index")
        lua_pushvalue(L, table)
        calu_push_function_with(L, newIndex)
        L.setField(mt, "__newindex")
        lua_settop(L, mt)
    }

    /// The layer at 1 and the typed property named by the string at 2, or
    /// nil. Unretained: the layer's proxy is on the stack for the whole call,
    /// and the property table lives as long as the process.
    @inline(__always)
    private static func lookup(_ L: OpaquePointer) -> (Unmanaged<Layer>, Unmanaged<LayerProperty>)? {
        guard LayerProperty.fastPathsEnabled, lua_type(L, 2) == LUA_TSTRING else { return nil }
        let table = calu_upvalueindex(2), top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_getmetatable(L, 1) != 0 else { return nil }
        lua_rawgeti(L, table, 0)
        guard lua_rawequal(L, -1, -2) != 0 else { return nil }
        lua_pushvalue(L, 2)
        guard lua_rawget(L, table) == LUA_TNUMBER,
              let layer = RetainedUserdata.unretained(lua_touserdata(L, 1), as: Layer.self) else { return nil }
        return (layer, properties[Int(lua_tointegerx(L, -1, nil))])
    }

    /// `LayerProperties.all`, unretained (the table's index is the key's value).
    private static let properties = LayerProperties.all.map { Unmanaged.passUnretained($0) }

    /// Pushes layer[key] and returns 1, or nil for the general path.
    static func index(_ L: OpaquePointer) -> Int32? {
        guard let (l, p) = lookup(L) else { return nil }
        return l._withUnsafeGuaranteedRef { layer in p._withUnsafeGuaranteedRef { prop in
            switch prop.typed {
            case nil: return nil
            case .number(let get, _)?: lua_pushnumber(L, get(layer))
            case .bool(let get, _)?: lua_pushboolean(L, get(layer) ? 1 : 0)
            case .point(let get, _)?:
                let p = get(layer)
                LuaValues.push(L, p)
            case .size(let get, _)?:
                let s = get(layer)
                LuaValues.push(L, s)
            case .rect(let get, _)?:
                let r = get(layer)
                LuaValues.push(L, r)
            }
            return 1
        } }
    }

    /// layer[key] = value (at 3) and returns 0, or nil for the general path.
    /// A committed layer runs its action, which may call Lua: the binding is
    /// told which Lua thread calls (as the general path does).
    static func newIndex(_ L: OpaquePointer) -> Int32? {
        guard let (l, p) = lookup(L) else { return nil }
        return l._withUnsafeGuaranteedRef { layer in p._withUnsafeGuaranteedRef { prop in
            guard let typed = prop.typedKind else { return nil }
            // The value's shape, checked before anything changes.
            var n = (0.0, 0.0, 0.0, 0.0)
            switch typed {
            case .number:
                guard lua_type(L, 3) == LUA_TNUMBER else { return nil }
                n.0 = lua_tonumberx(L, 3, nil)
            case .bool:
                guard lua_type(L, 3) == LUA_TBOOLEAN else { return nil }
                n.0 = lua_toboolean(L, 3) != 0 ? 1 : 0
            case .point, .size:
                guard let a = positional(L, 2) else { return nil }
                (n.0, n.1) = a
            case .rect:
                guard let a = positional(L, 4, from: 1), let b = positional(L, 4, from: 3) else { return nil }
                n = (a.0, a.1, b.0, b.1)
            default:
                return nil   // typed access is one of the five kinds above
            }
            // A NaN or an infinity gets the general path's error.
            guard n.0.isFinite, n.1.isFinite, n.2.isFinite, n.3.isFinite else { return nil }
            func assign() throws {
                switch typed {
                case .number: try prop.setNumber(layer, n.0)
                case .bool: try prop.setBool(layer, n.0 != 0)
                case .point: try prop.setPoint(layer, Point(n.0, n.1))
                case .size: try prop.setSize(layer, Size(n.0, n.1))
                case .rect: try prop.setRect(layer, Rect(n.0, n.1, n.2, n.3))
                default: break   // not reached: the shape check returned
                }
            }
            return protect(L) { L in
                if layer.presentationLayer == nil {
                    try assign()
                } else {
                    try LuaBinding.of(L).withCallState(L, assign)
                }
                return 0
            }
        } }
    }

    /// Two numbers of the value at 3 when it is a table of exactly `count`
    /// positional numbers starting at [`from`] (`{x, y}`, `{x, y, w, h}`);
    /// nil for any other shape (the general path reads named fields and
    /// reports errors).
    @inline(__always)
    private static func positional(_ L: OpaquePointer, _ count: Int, from: Int = 1) -> (Double, Double)? {
        guard lua_type(L, 3) == LUA_TTABLE, lua_rawlen(L, 3) == count else { return nil }
        defer { L.pop(2) }
        guard lua_rawgeti(L, 3, lua_Integer(from)) == LUA_TNUMBER,
              lua_rawgeti(L, 3, lua_Integer(from + 1)) == LUA_TNUMBER else { return nil }
        return (lua_tonumberx(L, -2, nil), lua_tonumberx(L, -1, nil))
    }
}
