/* The per-state bookkeeping behind caluna's Lua states (private to the shim).
 *
 * One struct per state made by calu_newstate, reached through the allocator's
 * userdata. It carries the memory cap, the instruction budget, the time limit,
 * the output cap and the "stopped" verdict that ends a sandboxed script. */
#ifndef CALU_STATE_H
#define CALU_STATE_H
#include <stdatomic.h>
#include <stddef.h>
#include "CalunaLuaShim.h"

/* A hook call every this many VM instructions (the budget's granularity). */
#define CALU_BUDGET_STEP 1000
/* Bytes of C library or allocation work charged as one instruction. */
#define CALU_BYTES_PER_UNIT 16

typedef struct calu_state {
    size_t used;              /* bytes of Lua heap in use */
    size_t limit;             /* cap on Lua heap + external bytes (0 = none) */
    size_t string_limit;      /* longest string Lua may make (0 = none) */
    int in_swift;             /* > 0 while a Swift binding runs: the cap is not enforced */
    long long budget;         /* units left; < 0 = no budget */
    atomic_int stop;          /* CALU_STOP_*: once set, the script is finished */
    size_t (*external)(void *ctx);  /* engine bytes sharing the cap (may be NULL) */
    void *external_ctx;
    /* Time spent running Lua, for the time limit (the watchdog reads these). */
    long long time_limit_ns;  /* 0 = none */
    atomic_llong spent_ns;    /* time in Lua before the current entry */
    atomic_llong entered_ns;  /* monotonic time of the outermost entry; 0 = outside Lua */
    int depth;                /* nesting of calu_pcall entries */
    /* print's output cap. */
    size_t output_limit, output_used;  /* output_limit 0 = none */
    int output_cut;
    struct calu_state *next_watched;   /* the watchdog's list */
} calu_state;

calu_state *calu_state_of(lua_State *L);
/* Monotonic clock in nanoseconds. */
long long calu_now_ns(void);
/* Marks the script finished (first reason wins). */
void calu_stop(calu_state *st, int reason);
/* Spends `units` of the budget (nothing without one); true once it is spent,
 * which finishes the script. The hook, charged C work and the allocator all
 * spend through here. */
static inline int calu_spend(calu_state *st, long long units) {
    if (st->budget < 0 || units <= 0) return 0;
    st->budget = units >= st->budget ? 0 : st->budget - units;
    if (st->budget > 0) return 0;
    calu_stop(st, CALU_STOP_BUDGET);
    return 1;
}

/* True when `grow` more bytes would pass the cap on Lua heap + engine bytes. */
static inline int calu_over_cap(calu_state *st, size_t grow) {
    if (!st->limit) return 0;
    size_t external = st->external ? st->external(st->external_ctx) : 0;
    return external > st->limit || st->used + external + grow > st->limit;
}

/* Raises the stop error (an interned message: raising it allocates nothing). */
int calu_raise_stop(lua_State *L);
/* The watchdog: states with a time limit are checked every few milliseconds. */
void calu_watch(calu_state *st);
void calu_unwatch(calu_state *st);

#endif
