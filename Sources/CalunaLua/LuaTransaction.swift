import CLua
import CalunaLuaShim
import Caluna

/// ca.Transaction (CATransaction's class methods), ca.null (NSNull) and the
/// Lua-written sugar ca.transaction, ca.animate and ca.ViewDelegate.
enum LuaTransaction {
    static let nullKey = "caluna.null"

    /// ca.null: one userdata per Lua state, distinct from nil (it stops an
    /// action search) and printed as "ca.null".
    static func registerNull(_ L: OpaquePointer) {
        _ = lua_newuserdatauv(L, 1, 0)
        calu_newtable(L)
        L.setFunction(-1, "__tostring", { L in protect(L) { L in L.push("ca.null"); return 1 } })
        L.push("ca.null"); L.setField(-2, "__name")
        L.setLockedMetatable(-2)
        lua_setfield(L, registryIndex, nullKey)
    }

    static func pushNull(_ L: OpaquePointer) { lua_getfield(L, registryIndex, nullKey) }

    static func isNull(_ L: OpaquePointer, _ idx: Int32) -> Bool {
        let i = lua_absindex(L, idx)
        guard lua_type(L, i) == LUA_TUSERDATA else { return false }
        pushNull(L)
        defer { L.pop() }
        return lua_rawequal(L, i, -1) != 0
    }

    static func stack(_ L: OpaquePointer) throws -> TransactionStack { try LuaBinding.of(L).engine.transaction }

    /// The ca.Transaction table.
    static func pushClass(_ L: OpaquePointer) {
        calu_newtable(L)
        L.setFunction(-1, "begin", { L in protect(L) { L in try LuaTransaction.stack(L).begin(); return 0 } })
        L.setFunction(-1, "commit", { L in protect(L) { L in try LuaTransaction.stack(L).commit(); return 0 } })
        L.setFunction(-1, "flush", { L in protect(L) { L in
            try LuaModule.runEngine(L) { try $0.flush() }
            return 0
        } })
        L.setFunction(-1, "depth", { L in protect(L) { L in
            lua_pushinteger(L, lua_Integer(try LuaTransaction.stack(L).depth)); return 1
        } })
        // Single-threaded engine: lock and unlock have nothing to guard.
        L.setFunction(-1, "lock", { L in protect(L) { _ in 0 } })
        L.setFunction(-1, "unlock", { L in protect(L) { _ in 0 } })
        L.setFunction(-1, "animationDuration", { L in protect(L) { L in
            lua_pushnumber(L, try LuaTransaction.stack(L).animationDuration); return 1
        } })
        L.setFunction(-1, "setAnimationDuration", { L in protect(L) { L in
            try LuaTransaction.set(L, TransactionStack.animationDurationKey, at: 1); return 0
        } })
        L.setFunction(-1, "disableActions", { L in protect(L) { L in
            lua_pushboolean(L, try LuaTransaction.stack(L).disableActions ? 1 : 0); return 1
        } })
        L.setFunction(-1, "setDisableActions", { L in protect(L) { L in
            try LuaTransaction.set(L, TransactionStack.disableActionsKey, at: 1); return 0
        } })
        L.setFunction(-1, "animationTimingFunction", { L in protect(L) { L in
            try LuaTransaction.push(L, TransactionStack.animationTimingFunctionKey); return 1
        } })
        L.setFunction(-1, "setAnimationTimingFunction", { L in protect(L) { L in
            try LuaTransaction.set(L, TransactionStack.animationTimingFunctionKey, at: 1); return 0
        } })
        L.setFunction(-1, "completionBlock", { L in protect(L) { L in
            try LuaTransaction.push(L, TransactionStack.completionBlockKey); return 1
        } })
        L.setFunction(-1, "setCompletionBlock", { L in protect(L) { L in
            try LuaTransaction.set(L, TransactionStack.completionBlockKey, at: 1); return 0
        } })
        L.setFunction(-1, "valueForKey", { L in protect(L) { L in
            try LuaTransaction.push(L, try Args(L: L, api: "Transaction.valueForKey").string(1)); return 1
        } })
        L.setFunction(-1, "setValue", { L in protect(L) { L in
            try LuaTransaction.set(L, try Args(L: L, api: "Transaction.setValue").string(2), at: 1); return 0
        } })
    }

    /// Converts the Lua value at `i` for transaction key `key` and sets it.
    static func set(_ L: OpaquePointer, _ key: String, at i: Int32) throws {
        let b = try LuaBinding.of(L)
        let stack = b.engine.transaction
        let api = "Transaction.\(key)"
        let a = Args(L: L, api: api)
        var value: Any? = nil
        switch key {
        case TransactionStack.animationDurationKey:
            value = try a.number(i)
        case TransactionStack.disableActionsKey:
            guard lua_type(L, i) == LUA_TBOOLEAN else { throw a.fail(i, "a boolean") }
            value = lua_toboolean(L, i) != 0
        case TransactionStack.animationTimingFunctionKey:
            if !a.isNil(i) { value = try LuaAnimation.timingFunction(L, i, what: api) }
        case TransactionStack.completionBlockKey:
            if !a.isNil(i) {
                guard lua_type(L, i) == LUA_TFUNCTION else { throw a.fail(i, "a function or nil") }
                let fn = LuaRef(L, i, binding: b)
                value = CompletionBlock(payload: fn) { [weak b] in
                    try b?.call(fn) { _ in 0 }
                }
            }
        default:
            switch lua_type(L, i) {
            case LUA_TNIL, LUA_TNONE: value = nil
            case LUA_TNUMBER: value = lua_tonumberx(L, i, nil)
            case LUA_TBOOLEAN: value = lua_toboolean(L, i) != 0
            case LUA_TSTRING: value = L.string(i)
            default: value = LuaRef(L, i, binding: b)
            }
        }
        try stack.setValue(value, forKey: key)
    }

    /// Pushes the innermost value of `key` (nil when none).
    static func push(_ L: OpaquePointer, _ key: String) throws {
        let b = try LuaBinding.of(L)
        switch b.engine.transaction.value(forKey: key) {
        case let d as Double: lua_pushnumber(L, d)
        case let flag as Bool: lua_pushboolean(L, flag ? 1 : 0)
        case let s as String: L.push(s)
        case let f as TimingFunction: LuaValues.push(L, f.value, binding: b)
        case let c as CompletionBlock:
            if let r = c.payload as? LuaRef { r.push(L) } else { lua_pushnil(L) }
        case let r as LuaRef: r.push(L)
        case let v as Value: LuaValues.push(L, v, binding: b)     // set from C
        default: lua_pushnil(L)
        }
    }

    /// Lua-written helpers over ca.Transaction (they must commit even when
    /// the body fails, so they are Lua: pcall, commit, re-raise).
    static let sugarSource = """
        local ca = ...
        local T = ca.Transaction
        local options = { duration = "setAnimationDuration", timingFunction = "setAnimationTimingFunction",
                          disableActions = "setDisableActions", completion = "setCompletionBlock" }

        local function run(body, ...)
          local ok, err = pcall(body, ...)
          T.commit()
          if not ok then error(err, 0) end
        end

        -- ca.transaction({duration=, timingFunction=, disableActions=, completion=}, fn)
        function ca.transaction(opts, body)
          if type(opts) ~= "table" then error("ca.transaction: argument 1 expects an options table", 2) end
          if type(body) ~= "function" then error("ca.transaction: argument 2 expects a function", 2) end
          for k in pairs(opts) do
            if not options[k] then error("ca.transaction: unknown option '" .. tostring(k) .. "'", 2) end
          end
          T.begin()
          local ok, err = pcall(function()
            for k, setter in pairs(options) do
              if opts[k] ~= nil then T[setter](opts[k]) end
            end
          end)
          if not ok then T.commit(); error(err, 2) end
          run(body)
        end

        -- The view-backed delegate (UIKit's): no actions outside ca.animate
        -- blocks, a basic animation inside them.
        local insideAnimate = "caluna.insideAnimateBlock"
        ca.ViewDelegate = {
          actionForLayer = function(self, layer, key)
            if T.valueForKey(insideAnimate) then return ca.Layer.defaultActionForKey(key) or ca.null end
            return ca.null
          end,
        }

        -- UIView.animate(withDuration:animations:completion:): easeInEaseOut,
        -- the completion gets finished = true.
        function ca.animate(duration, body, completion, opts)
          if type(duration) ~= "number" then error("ca.animate: argument 1 expects a duration in seconds", 2) end
          if type(body) ~= "function" then error("ca.animate: argument 2 expects a function", 2) end
          if completion ~= nil and type(completion) ~= "function" then
            error("ca.animate: argument 3 expects a function or nil", 2)
          end
          T.begin()
          local ok, err = pcall(function()
            T.setAnimationDuration(duration)
            T.setAnimationTimingFunction((opts and opts.timingFunction) or "easeInEaseOut")
            T.setValue(true, insideAnimate)
            if completion then T.setCompletionBlock(function() completion(true) end) end
          end)
          if not ok then T.commit(); error(err, 2) end
          run(body)
        end
        """

    static func installSugar(_ L: OpaquePointer, module m: Int32) throws {
        guard luaL_loadstring(L, sugarSource) == LUA_OK else { throw CalunaError.invalid("ca.transaction: \(L.string(-1) ?? "")") }
        lua_pushvalue(L, m)
        guard calu_pcall(L, 1, 0, 0) == LUA_OK else { throw CalunaError.invalid("ca.transaction: \(L.string(-1) ?? "")") }
    }
}
