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
/* The same with the value on top of the stack (popped) as the function's
 * second upvalue, lua_upvalueindex(2) inside `fn`. */
void calu_push_function_with(lua_State *L, calu_swift_fn fn);

/* Macros of lua.h that Swift cannot import. */
int calu_registryindex(void);
int calu_upvalueindex(int i);
void calu_pop(lua_State *L, int n);
void calu_newtable(lua_State *L);
int calu_pcall(lua_State *L, int nargs, int nresults, int msgh);
/* Brackets a whole callback (pushing its arguments, the call, reading its
 * results): the time between counts towards the time limit like time in
 * Lua, so a script cannot make the engine call it more cheaply than it pays
 * for. Nests with calu_pcall (only the outermost entry is timed). */
void calu_time_enter(lua_State *L);
void calu_time_leave(lua_State *L);
const char *calu_tostring(lua_State *L, int idx);
int calu_isinteger(lua_State *L, int idx);
void calu_insert(lua_State *L, int idx);
void calu_remove(lua_State *L, int idx);
void calu_replace(lua_State *L, int idx);

/* Message handler for calu_pcall: appends a traceback to string errors. */
int calu_traceback_handler(lua_State *L);

/* A Lua state whose allocator counts bytes. `limit` 0 means no cap; with a
 * cap, growth is refused once the Lua heap plus the external bytes (see
 * calu_set_external_memory) would pass it. The cap is enforced only while Lua
 * code runs (inside calu_pcall), never while Swift holds the state — in a
 * binding call, or pushing a callback's arguments before calu_pcall — since
 * an allocation failure there would raise through Swift frames. The
 * trampoline, calu_pcall and every Lua-level catch point save and restore
 * that state, so no exit path leaves the cap switched off. */
lua_State *calu_newstate(size_t limit);
size_t calu_memory_in_use(lua_State *L);
/* Bytes made outside the Lua heap on the script's behalf (the engine's),
 * counted against the same cap. `fn` is called on allocations that grow. */
void calu_set_external_memory(lua_State *L, size_t (*fn)(void *ctx), void *ctx);
/* Close a state made by calu_newstate (frees the allocator state too). */
void calu_close(lua_State *L);

/* Why a sandboxed script was finished (calu_stop_reason). */
#define CALU_STOP_NONE 0
#define CALU_STOP_BUDGET 1
#define CALU_STOP_TIME 2

/* Sets a sandboxed state's limits: `instructions` VM instructions (C library
 * work charged as instructions by the bytes and elements it touches; ≤ 0:
 * none), `time_limit` seconds spent inside Lua in all (checked by a watchdog
 * thread; ≤ 0: none), `output_limit` bytes print may write (0: none),
 * `string_limit` bytes in the longest string Lua may make (0: none). Call it
 * on the main thread before running scripts. */
int calu_configure_sandbox(lua_State *L, long long instructions, double time_limit,
                           size_t output_limit, size_t string_limit);
/* Installs the guarded base library (a lua_CFunction: call it in protected
 * mode); returns the table of cost functions LuaHost's prelude wraps. */
int calu_open_sandbox(lua_State *L);
/* CALU_STOP_*: once not NONE, the script is finished for good. */
int calu_stop_reason(lua_State *L);
const char *calu_stop_message(int reason);
/* Charges `units` instructions of C work; raises the stop error when the
 * budget is spent or the time is up. Only from C functions Lua called. */
void calu_charge(lua_State *L, long long units);
/* A full garbage collection (lua_gc is variadic: Swift cannot call it). */
void calu_full_gc(lua_State *L);
/* Nonzero when the state has a budget or a time limit (a sandbox). */
int calu_has_limits(lua_State *L);
/* string.find/match/gmatch/gsub with every matching step charged (calu_pattern.c). */
void calu_install_bounded_patterns(lua_State *L);

int luaopen_caluna(lua_State *L);
int luaopen_caluna_test(lua_State *L);

#endif
