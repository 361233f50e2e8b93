#include "CalunaLuaShim.h"
#include "calu_state.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *calu_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

calu_state *calu_state_of(lua_State *L) {
    void *ud = NULL;
    return lua_getallocf(L, &ud) == calu_alloc ? (calu_state *)ud : NULL;
}

static int calu_trampoline(lua_State *L) {
    calu_swift_fn fn = (calu_swift_fn)lua_touserdata(L, lua_upvalueindex(1));
    calu_state *st = calu_state_of(L);
    /* Saved and restored (not counted up and down): a Lua-level catch point
     * restores it too, so no exit path leaves the cap switched off. */
    int saved = st ? st->in_swift : 0;
    if (st) st->in_swift = saved + 1;
    int n = fn(L);
    if (st) st->in_swift = saved;
    /* What a binding made (engine objects, registry references, proxies) is
     * not refused inside Swift; once back in Lua, a state over its cap fails
     * the call, so no loop of binding calls can grow past it. */
    if (n >= 0 && st && saved == 0 && calu_over_cap(st, 0)) {
        lua_pushstring(L, "caluna: the sandbox's memory limit is reached");
        n = CALU_RAISE;
    }
    if (n >= 0) return n;
    if (n == CALU_RAISE_AS_IS) return lua_error(L);
    /* Swift has returned: it is now safe to raise. Prefix the caller's
     * position ("scene.lua:12: ") the way luaL_error does. */
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

void calu_push_function(lua_State *L, calu_swift_fn fn) {
    lua_pushlightuserdata(L, (void *)fn);
    lua_pushcclosure(L, calu_trampoline, 1);
}

void calu_push_function_with(lua_State *L, calu_swift_fn fn) {
    lua_pushlightuserdata(L, (void *)fn);
    lua_insert(L, -2);
    lua_pushcclosure(L, calu_trampoline, 2);
}

int calu_registryindex(void) { return LUA_REGISTRYINDEX; }
int calu_upvalueindex(int i) { return lua_upvalueindex(i); }
void calu_pop(lua_State *L, int n) { lua_pop(L, n); }
void calu_newtable(lua_State *L) { lua_newtable(L); }

/* Lua code called from Swift runs under the memory cap again, even when the
 * call comes from inside a binding (a layer callback during ca.step). Time
 * spent in the outermost call counts towards the time limit. A finished
 * script is not entered at all: the call fails with the stop message. */
int calu_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    calu_state *st = calu_state_of(L);
    if (!st) return lua_pcall(L, nargs, nresults, msgh);
    if (atomic_load_explicit(&st->stop, memory_order_relaxed)) {
        lua_pop(L, nargs + 1);
        lua_pushstring(L, calu_stop_message(atomic_load(&st->stop)));
        return LUA_ERRRUN;
    }
    int saved = st->in_swift;
    st->in_swift = 0;
    calu_time_enter(L);
    int status = lua_pcall(L, nargs, nresults, msgh);
    calu_time_leave(L);
    st->in_swift = saved;
    return status;
}

/* The clock is read only when a time limit needs it. */
void calu_time_enter(lua_State *L) {
    calu_state *st = calu_state_of(L);
    if (st && st->time_limit_ns > 0 && st->depth++ == 0) atomic_store(&st->entered_ns, calu_now_ns());
}

void calu_time_leave(lua_State *L) {
    calu_state *st = calu_state_of(L);
    if (st && st->time_limit_ns > 0 && --st->depth == 0) {
        long long entered = atomic_exchange(&st->entered_ns, 0);
        atomic_fetch_add(&st->spent_ns, calu_now_ns() - entered);
    }
}

const char *calu_tostring(lua_State *L, int idx) { return lua_tostring(L, idx); }
int calu_isinteger(lua_State *L, int idx) { return lua_isinteger(L, idx); }
void calu_insert(lua_State *L, int idx) { lua_insert(L, idx); }
void calu_remove(lua_State *L, int idx) { lua_remove(L, idx); }
void calu_replace(lua_State *L, int idx) { lua_replace(L, idx); }

int calu_traceback_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) return 1; /* non-string error objects pass through */
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* ---- allocator with an optional cap ---- */

/* Growth is refused past the cap (Lua heap plus the engine's bytes), past the
 * longest string allowed, and once the script is finished; it is charged to
 * the budget, so work that allocates (concatenation, string.rep, format …)
 * pays for the bytes it makes. Inside a Swift binding nothing is refused: a
 * failure there would raise through Swift frames. */
static void *calu_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    calu_state *st = (calu_state *)ud;
    size_t tag = ptr == NULL ? osize : 0;  /* a new object's Lua type */
    if (ptr == NULL) osize = 0;
    if (nsize == 0) {
        free(ptr);
        st->used -= osize;
        return NULL;
    }
    if (nsize > osize && !st->in_swift) {
        size_t grow = nsize - osize;
        if (atomic_load_explicit(&st->stop, memory_order_relaxed)) return NULL;
        if (calu_over_cap(st, grow)) return NULL;
        if (tag == LUA_TSTRING && st->string_limit && nsize > st->string_limit) return NULL;
        if (calu_spend(st, (long long)(grow / CALU_BYTES_PER_UNIT))) return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p) st->used = st->used - osize + nsize;
    return p;
}

lua_State *calu_newstate(size_t limit) {
    calu_state *st = (calu_state *)calloc(1, sizeof *st);
    if (!st) return NULL;
    st->limit = limit;
    st->budget = -1;
    /* Outside calu_pcall the state belongs to Swift (pushing callback
     * arguments, loading chunks): nothing may raise there. */
    st->in_swift = 1;
    lua_State *L = lua_newstate(calu_alloc, st);
    if (!L) free(st);
    return L;
}

size_t calu_memory_in_use(lua_State *L) {
    calu_state *st = calu_state_of(L);
    return st ? st->used : (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024;
}

void calu_set_external_memory(lua_State *L, size_t (*fn)(void *ctx), void *ctx) {
    calu_state *st = calu_state_of(L);
    if (!st) return;
    st->external = fn;
    st->external_ctx = ctx;
}

void calu_close(lua_State *L) {
    calu_state *st = calu_state_of(L);
    if (st) calu_unwatch(st);
    lua_close(L);
    free(st);
}

/* ---- module entry points for stock lua5.4 (`require "caluna"`) ----
 * They run the Swift openers behind the trampoline, so a failure raises only
 * after Swift has returned. */
extern int calu_swift_open(lua_State *L);
extern int calu_swift_open_test(lua_State *L);

int luaopen_caluna(lua_State *L) {
    calu_push_function(L, calu_swift_open);
    lua_call(L, 0, 1);
    return 1;
}

int luaopen_caluna_test(lua_State *L) {
    calu_push_function(L, calu_swift_open_test);
    lua_call(L, 0, 1);
    return 1;
}
