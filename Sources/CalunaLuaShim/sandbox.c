/* The limits of a sandboxed script: the instruction budget, the time limit
 * and its watchdog, the stop verdict, and the guarded base library.
 *
 * Once a limit is spent the script is finished: the hook raises at every
 * instruction, every catch point (pcall, xpcall, coroutine.resume/close)
 * raises again instead of returning, message handlers are skipped, the
 * allocator refuses growth and calu_pcall refuses to enter Lua. */
#include "CalunaLuaShim.h"
#include "calu_state.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const stop_messages[] = {
    "",
    "caluna: instruction budget exhausted",
    "caluna: time limit exhausted",
};
/* Registry keys anchoring the messages, so pushing one never allocates. */
static const char *const stop_keys[] = { "", "caluna.stop.budget", "caluna.stop.time" };

const char *calu_stop_message(int reason) {
    return reason > 0 && reason < (int)(sizeof stop_messages / sizeof *stop_messages) ? stop_messages[reason] : "";
}

int calu_stop_reason(lua_State *L) {
    calu_state *st = calu_state_of(L);
    return st ? atomic_load(&st->stop) : CALU_STOP_NONE;
}

long long calu_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void calu_stop(calu_state *st, int reason) {
    int none = CALU_STOP_NONE;
    atomic_compare_exchange_strong(&st->stop, &none, reason);
}

static void budget_hook(lua_State *L, lua_Debug *ar);

int calu_raise_stop(lua_State *L) {
    calu_state *st = calu_state_of(L);
    int reason = st ? atomic_load(&st->stop) : CALU_STOP_BUDGET;
    /* From now on this thread stops at its next instruction, not 1000 later. */
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    lua_pushstring(L, calu_stop_message(reason));
    return lua_error(L);
}

/* Hooks run with hooks off, so this is where a spin is interrupted: it
 * spends the budget and notices the watchdog's verdict. */
static void budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    calu_state *st = calu_state_of(L);
    if (!st) return;
    calu_spend(st, CALU_BUDGET_STEP);
    if (atomic_load_explicit(&st->stop, memory_order_relaxed)) calu_raise_stop(L);
}

void calu_charge(lua_State *L, long long units) {
    calu_state *st = calu_state_of(L);
    if (!st) return;
    calu_spend(st, units);
    if (atomic_load_explicit(&st->stop, memory_order_relaxed)) calu_raise_stop(L);
}

void calu_full_gc(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

int calu_has_limits(lua_State *L) {
    calu_state *st = calu_state_of(L);
    return st && (st->budget >= 0 || st->time_limit_ns > 0 || atomic_load(&st->stop));
}

/* ---- the watchdog ---- */

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_wake = PTHREAD_COND_INITIALIZER;
static calu_state *wd_list;
static int wd_running;
#define WD_PERIOD_NS 5000000LL  /* how often running scripts are looked at */

/* Stops every watched state whose time in Lua has passed its limit. The list
 * is only walked under the lock, so a state unwatched is never touched again. */
static void *watchdog(void *arg) {
    (void)arg;
    pthread_mutex_lock(&wd_lock);
    for (;;) {
        while (!wd_list) pthread_cond_wait(&wd_wake, &wd_lock);
        long long now = calu_now_ns();
        for (calu_state *st = wd_list; st; st = st->next_watched) {
            long long entered = atomic_load(&st->entered_ns);
            long long spent = atomic_load(&st->spent_ns) + (entered ? now - entered : 0);
            if (spent > st->time_limit_ns) calu_stop(st, CALU_STOP_TIME);
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WD_PERIOD_NS;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&wd_wake, &wd_lock, &until);
    }
    return NULL;
}

void calu_watch(calu_state *st) {
    pthread_mutex_lock(&wd_lock);
    if (!wd_running) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, 64 << 10);
        wd_running = pthread_create(&t, &attr, watchdog, NULL) == 0;
        pthread_attr_destroy(&attr);
    }
    st->next_watched = wd_list;
    wd_list = st;
    pthread_cond_signal(&wd_wake);
    pthread_mutex_unlock(&wd_lock);
}

void calu_unwatch(calu_state *st) {
    pthread_mutex_lock(&wd_lock);
    for (calu_state **p = &wd_list; *p; p = &(*p)->next_watched) {
        if (*p == st) { *p = st->next_watched; break; }
    }
    st->next_watched = NULL;
    pthread_mutex_unlock(&wd_lock);
}

/* ---- configuration ---- */

int calu_configure_sandbox(lua_State *L, long long instructions, double time_limit,
                           size_t output_limit, size_t string_limit) {
    calu_state *st = calu_state_of(L);
    if (!st) return 0;
    for (int r = CALU_STOP_BUDGET; r <= CALU_STOP_TIME; r++) {
        lua_pushstring(L, stop_messages[r]);
        lua_setfield(L, LUA_REGISTRYINDEX, stop_keys[r]);
    }
    st->budget = instructions > 0 ? instructions : -1;
    st->output_limit = output_limit;
    st->string_limit = string_limit;
    if (time_limit > 0 && time_limit < 1e9) {
        st->time_limit_ns = (long long)(time_limit * 1e9);
        calu_watch(st);
    }
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, CALU_BUDGET_STEP);
    return 1;
}
