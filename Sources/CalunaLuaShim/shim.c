#include "CalunaLuaShim.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t used, limit;       /* bytes in use; cap (0 = none) */
    int in_swift;             /* > 0 while a Swift binding runs: the cap is not enforced */
    long long budget;         /* VM instructions left (checked every CALU_BUDGET_STEP); < 0 = none */
} calu_alloc_state;
#define CALU_BUDGET_STEP 1000
static void *calu_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

static calu_alloc_state *calu_state_of(lua_State *L) {
    void *ud = NULL;
    return lua_getallocf(L, &ud) == calu_alloc ? (calu_alloc_state *)ud : NULL;
}

static int calu_trampoline(lua_State *L) {
    calu_swift_fn fn = (calu_swift_fn)lua_touserdata(L, lua_upvalueindex(1));
    calu_alloc_state *st = calu_state_of(L);
    if (st) st->in_swift++;
    int n = fn(L);
    if (st) st->in_swift--;
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

int calu_registryindex(void) { return LUA_REGISTRYINDEX; }
int calu_upvalueindex(int i) { return lua_upvalueindex(i); }
void calu_pop(lua_State *L, int n) { lua_pop(L, n); }
void calu_newtable(lua_State *L) { lua_newtable(L); }
/* Lua code called from Swift runs under the memory cap again, even when the
 * call comes from inside a binding (a layer callback during ca.step). */
int calu_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    calu_alloc_state *st = calu_state_of(L);
    int saved = st ? st->in_swift : 0;
    if (st) st->in_swift = 0;
    int status = lua_pcall(L, nargs, nresults, msgh);
    if (st) st->in_swift = saved;
    return status;
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

static void *calu_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    calu_alloc_state *st = (calu_alloc_state *)ud;
    if (ptr == NULL) osize = 0;
    if (nsize == 0) {
        free(ptr);
        st->used -= osize;
        return NULL;
    }
    if (st->limit && !st->in_swift && nsize > osize && st->used + (nsize - osize) > st->limit)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (p) st->used = st->used - osize + nsize;
    return p;
}

lua_State *calu_newstate(size_t limit) {
    calu_alloc_state *st = (calu_alloc_state *)calloc(1, sizeof *st);
    if (!st) return NULL;
    st->limit = limit;
    st->budget = -1;
    lua_State *L = lua_newstate(calu_alloc, st);
    if (!L) free(st);
    return L;
}

size_t calu_memory_in_use(lua_State *L) {
    calu_alloc_state *st = calu_state_of(L);
    return st ? st->used : (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024;
}

void calu_close(lua_State *L) {
    calu_alloc_state *st = calu_state_of(L);
    lua_close(L);
    free(st);
}

/* The budget is shared by every coroutine of the state (they inherit the hook
 * from the thread that creates them), so spawning threads does not reset it. */
static void calu_budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    calu_alloc_state *st = calu_state_of(L);
    if (!st || st->budget < 0) return;
    st->budget -= CALU_BUDGET_STEP;
    if (st->budget <= 0) {
        st->budget = 0;
        luaL_error(L, "caluna: instruction budget exhausted");
    }
}

void calu_set_instruction_budget(lua_State *L, long long count) {
    calu_alloc_state *st = calu_state_of(L);
    if (!st) return;
    if (count <= 0) {
        st->budget = -1;
        lua_sethook(L, NULL, 0, 0);
        return;
    }
    st->budget = count;
    lua_sethook(L, calu_budget_hook, LUA_MASKCOUNT, CALU_BUDGET_STEP);
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
