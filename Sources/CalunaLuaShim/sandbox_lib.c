/* The base library as a sandboxed script sees it.
 *
 * - Catch points (pcall, xpcall, coroutine.resume, coroutine.close) restore
 *   the allocator's state and raise again once the script is finished.
 * - xpcall's message handler is skipped once the script is finished (Lua runs
 *   a handler of a hook's error with hooks off: it could spin for ever).
 * - setmetatable refuses __gc (finalizers run with hooks off).
 * - print charges its bytes and stops writing at the output cap.
 * - C functions whose work is not paid by allocation get a cost function
 *   (charged before the call, by the elements or bytes they will touch); the
 *   Lua prelude in LuaHost.swift wraps each in a tail call.
 * The originals stay reachable only from the registry's LOADED table (so
 * argument errors still name "string.rep", "table.insert" …). */
#include "CalunaLuaShim.h"
#include "calu_state.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static calu_state *live_state(lua_State *L) {
    calu_state *st = calu_state_of(L);
    if (st && atomic_load_explicit(&st->stop, memory_order_relaxed)) calu_raise_stop(L);
    return st;
}

/* ---- catch points ---- */

static int guard_finish(lua_State *L, int status, lua_KContext saved) {
    (void)status;
    calu_state *st = calu_state_of(L);
    if (st) st->in_swift = (int)saved;
    live_state(L);
    return lua_gettop(L);
}

/* Calls the original (upvalue 1) with every argument; yields pass through. */
static int guard_call(lua_State *L) {
    calu_state *st = live_state(L);
    lua_KContext saved = st ? st->in_swift : 0;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, saved, guard_finish);
    return guard_finish(L, LUA_OK, saved);
}

static int guard_handler(lua_State *L) {
    calu_state *st = calu_state_of(L);
    if (st && atomic_load(&st->stop)) return 1;  /* the error as it is */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int guard_xpcall(lua_State *L) {
    live_state(L);
    if (lua_type(L, 2) == LUA_TFUNCTION) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, guard_handler, 1);
        lua_replace(L, 2);
    }
    return guard_call(L);
}

/* ---- setmetatable and print ---- */

static int sandbox_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed in the sandbox");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static void capped_write(calu_state *st, const char *s, size_t n) {
    if (st && st->output_limit) {
        if (st->output_cut) return;
        if (st->output_used + n > st->output_limit) {
            fwrite(s, 1, st->output_limit - st->output_used, stdout);
            st->output_used = st->output_limit;
            st->output_cut = 1;
            fflush(stdout);
            fprintf(stderr, "\ncaluna: the sandbox's output limit (%zu bytes) is reached; print writes no more\n",
                    st->output_limit);
            return;
        }
        st->output_used += n;
    }
    fwrite(s, 1, n, stdout);
}

static int sandbox_print(lua_State *L) {
    calu_state *st = live_state(L);
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_tolstring(L, i, &len);
        calu_charge(L, (long long)(len / CALU_BYTES_PER_UNIT) + 1);
        if (i > 1) capped_write(st, "\t", 1);
        capped_write(st, s, len);
        lua_pop(L, 1);
    }
    capped_write(st, "\n", 1);
    fflush(stdout);
    return 0;
}

/* ---- cost functions: same arguments as the function they price; never raise
 * on bad arguments (the original reports those) ---- */

static long long clamp_units(double u) { return u < 1 ? 1 : u > 4e18 ? (long long)4e18 : (long long)u; }

static lua_Integer table_length(lua_State *L, int idx) {
    return lua_type(L, idx) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, idx) : 0;
}

static lua_Integer opt_integer(lua_State *L, int idx, lua_Integer fallback) {
    int ok = 0;
    lua_Integer v = lua_tointegerx(L, idx, &ok);
    return ok ? v : fallback;
}

/* The byte length of a string argument; 0 for anything else. */
static size_t string_length(lua_State *L, int idx) {
    return lua_type(L, idx) == LUA_TSTRING ? lua_rawlen(L, idx) : 0;
}

/* Elements in i..j (0 when empty), in double to survive any integers. */
static double span(lua_Integer i, lua_Integer j) { return j < i ? 0 : (double)j - (double)i + 1; }

static int cost_insert(lua_State *L) {
    lua_Integer n = table_length(L, 1);
    double u = lua_gettop(L) >= 3 ? span(opt_integer(L, 2, n + 1), n) : 1;
    calu_charge(L, clamp_units(u));
    return 0;
}

static int cost_remove(lua_State *L) {
    lua_Integer n = table_length(L, 1);
    calu_charge(L, clamp_units(span(opt_integer(L, 2, n), n)));
    return 0;
}

static int cost_move(lua_State *L) {
    calu_charge(L, clamp_units(span(opt_integer(L, 2, 1), opt_integer(L, 3, 0))));
    return 0;
}

/* n log n comparisons, each as dear as the longest string compared (one
 * string held n times would otherwise sort for minutes at no charge). */
static int cost_sort(lua_State *L) {
    lua_Integer n = table_length(L, 1);
    size_t longest = 0;
    calu_charge(L, clamp_units((double)n));  /* the scan below */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        size_t len = string_length(L, -1);
        if (len > longest) longest = len;
        lua_pop(L, 1);
    }
    double per = 1 + (double)longest / CALU_BYTES_PER_UNIT;
    calu_charge(L, clamp_units((double)n * log2((double)n + 2) * per));
    return 0;
}

/* concat and unpack: elements i..j, j defaulting to the length. */
static int cost_range(lua_State *L) {
    int first = lua_gettop(L) >= 3 && lua_type(L, 2) != LUA_TNUMBER ? 3 : 2;  /* concat has a separator first */
    lua_Integer n = table_length(L, 1);
    calu_charge(L, clamp_units(span(opt_integer(L, first, 1), opt_integer(L, first + 1, n))));
    return 0;
}

/* Functions that scan their first argument's bytes (utf8.*, tonumber). */
static int cost_scan(lua_State *L) {
    calu_charge(L, clamp_units((double)string_length(L, 1) / CALU_BYTES_PER_UNIT));
    return 0;
}

/* rawequal of two long strings compares their bytes. */
static int cost_compare(lua_State *L) {
    size_t a = string_length(L, 1), b = string_length(L, 2);  /* 0 unless both are strings */
    calu_charge(L, clamp_units((double)(a < b ? a : b) / CALU_BYTES_PER_UNIT));
    return 0;
}

/* Parsing a chunk: one unit per byte. */
static int cost_load(lua_State *L) {
    calu_charge(L, clamp_units((double)string_length(L, 1)));
    return 0;
}

/* A full collection walks the whole heap. */
static int cost_collect(lua_State *L) {
    const char *opt = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : "collect";
    if (strcmp(opt, "collect") == 0 || strcmp(opt, "step") == 0) {
        calu_state *st = calu_state_of(L);
        calu_charge(L, clamp_units(st ? (double)st->used / CALU_BYTES_PER_UNIT : 1));
    }
    return 0;
}

/* string.rep: refuse a result longer than the longest string allowed before
 * building it (the buffer would be made first, up to the memory cap). */
static int cost_rep(lua_State *L) {
    size_t len = string_length(L, 1), seplen = string_length(L, 3);
    double n = (double)opt_integer(L, 2, 0);
    double total = n > 0 ? n * (double)len + (n - 1) * (double)seplen : 0;
    calu_state *st = calu_state_of(L);
    if (st && st->string_limit && total > (double)st->string_limit) {
        luaL_where(L, 2);  /* the script's line (level 1 is the charging wrapper) */
        lua_pushfstring(L, "string.rep would make %I bytes, over the sandbox's string limit (%I bytes)",
                        (lua_Integer)total, (lua_Integer)st->string_limit);
        lua_concat(L, 2);
        return lua_error(L);
    }
    calu_charge(L, clamp_units(total / CALU_BYTES_PER_UNIT));
    return 0;
}

/* ---- installation ---- */

/* LOADED[name] = a copy of the library as it is now (the originals). */
static void keep_originals(lua_State *L, const char *global, const char *name) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_newtable(L);
    if (lua_getglobal(L, global) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -5);
        }
    }
    lua_pop(L, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

static void guard(lua_State *L, const char *lib, const char *name, lua_CFunction g) {
    if (lib) lua_getglobal(L, lib); else lua_pushglobaltable(L);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, g, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

/* Installs the guarded library in a state with the base, coroutine, table,
 * string, math and utf8 libraries open; returns the table of cost functions
 * for the Lua prelude. Run it in protected mode. */
int calu_open_sandbox(lua_State *L) {
    lua_pushglobaltable(L);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "_G");
    lua_pop(L, 1);
    calu_install_bounded_patterns(L);  /* first: the kept copy must not hold Lua's unbounded matcher */
    keep_originals(L, "_G", "_G");
    keep_originals(L, "string", "string");
    keep_originals(L, "table", "table");
    keep_originals(L, "utf8", "utf8");
    keep_originals(L, "coroutine", "coroutine");
    guard(L, NULL, "pcall", guard_call);
    guard(L, NULL, "xpcall", guard_xpcall);
    guard(L, "coroutine", "resume", guard_call);
    guard(L, "coroutine", "close", guard_call);
    lua_pushcfunction(L, sandbox_setmetatable);
    lua_setglobal(L, "setmetatable");
    lua_pushcfunction(L, sandbox_print);
    lua_setglobal(L, "print");
    static const luaL_Reg costs[] = {
        {"insert", cost_insert}, {"remove", cost_remove}, {"move", cost_move}, {"sort", cost_sort},
        {"range", cost_range}, {"scan", cost_scan}, {"compare", cost_compare}, {"load", cost_load},
        {"collect", cost_collect}, {"rep", cost_rep}, {NULL, NULL},
    };
    luaL_newlib(L, costs);
    return 1;
}
