/* The C side of caluna's Lua binding.
 *
 * A Lua error is a longjmp. No Swift frame may be live when one is raised, so
 * binding functions are written in Swift with the signature `calu_swift_fn`:
 * they never raise; they return the number of results, or CALU_RAISE after
 * pushing an error message. The C trampoline below raises it once Swift has
 * returned. Calls from Swift into Lua go through lua_pcall. */
#ifndef CALUNA_LUA_SHIM_H
#define CALUNA_LUA_SHIM_H
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

#define CALU_RAISE (-1)        /* raise the string on top, prefixed with the caller's position */
#define CALU_RAISE_AS_IS (-2)  /* raise the value on top unchanged (already located) */

typedef int (*calu_swift_fn)(lua_State *L);

/* Push a Lua function that runs `fn` behind the raising trampoline. */
void calu_push_function(lua_State *L, calu_swift_fn fn);

/* Macros of lua.h that Swift cannot import. */
int calu_registryindex(void);
int calu_upvalueindex(int i);
void calu_pop(lua_State *L, int n);
void calu_newtable(lua_State *L);
int calu_pcall(lua_State *L, int nargs, int nresults, int msgh);
const char *calu_tostring(lua_State *L, int idx);
int calu_isinteger(lua_State *L, int idx);
void calu_insert(lua_State *L, int idx);
void calu_remove(lua_State *L, int idx);
void calu_replace(lua_State *L, int idx);

/* Message handler for calu_pcall: appends a traceback to string errors. */
int calu_traceback_handler(lua_State *L);

/* A Lua state whose allocator counts bytes. `limit` 0 means no cap. The cap
 * is enforced only while Lua code runs, never inside a Swift binding call
 * (an allocation failure there would raise through Swift frames). */
lua_State *calu_newstate(size_t limit);
size_t calu_memory_in_use(lua_State *L);
/* Close a state made by calu_newstate (frees the allocator state too). */
void calu_close(lua_State *L);
/* Instruction budget for a state made by calu_newstate: after about `count`
 * VM instructions in all (every coroutine included; counted in steps of
 * 1000) Lua code errors with "instruction budget exhausted", and keeps
 * erroring. 0 removes the budget. Set it on the main thread before running
 * scripts, so coroutines inherit the hook. */
void calu_set_instruction_budget(lua_State *L, long long count);

int luaopen_caluna(lua_State *L);
int luaopen_caluna_test(lua_State *L);

#endif
