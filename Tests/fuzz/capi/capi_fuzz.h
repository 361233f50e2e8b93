/* The C ABI target's shared state (capi_main.c) and argument decoders (capi_args.c); the
 * ops_*.c files hold one op per exported function of include/caluna.h.
 *
 * An input is a byte stream: each op takes two bytes to pick the function, then its
 * arguments from the bytes that follow (ids from the pools of ids made so far or stale,
 * foreign, 0 or garbage ids; numbers with NaN, ∞, huge and negative ones; key strings from
 * the engine's own property names plus garbage; buffers whose stated size never exceeds
 * their real one — a host that lies about a buffer is beyond any library's help).
 * Callbacks run further ops from the same stream, so re-entrant calls are fuzzed too.
 * When the stream ends every read gives 0. CALUNA_FUZZ_TRACE=1 prints each op and its status
 * to stderr (to read a reproducer). */
#ifndef CALUNA_CAPI_FUZZ_H
#define CALUNA_CAPI_FUZZ_H

#include "../common/fuzz_common.h"
#include <math.h>
#include <stdint.h>

/* One op: the exported function it calls, and the call with decoded arguments. */
typedef struct {
    const char *name;
    caluna_status (*run)(void);
} fz_op;

#define OP(fn) static caluna_status op_##fn(void)
#define ENTRY(fn) { #fn, op_##fn }
/* A keyed getter: fn(e, id of `kind`, key, &value), the value read back. */
#define GET_OP(fn, kind, key_expr)                          \
    OP(fn) {                                                \
        caluna_value v;                                     \
        caluna_engine *e = E();                             \
        uint64_t id = ID(kind);                             \
        const char *k = (key_expr);                         \
        caluna_status s = fn(e, id, k, OUTV(&v));           \
        READ_VALUE(s, &v);                                  \
        return fz_done(s);                                  \
    }

/* One table per ops_*.c file. */
extern const fz_op fz_ops_engine[], fz_ops_anim[], fz_ops_content[], fz_ops_misc[], fz_ops_physics[];
extern const size_t fz_ops_engine_count, fz_ops_anim_count, fz_ops_content_count, fz_ops_misc_count,
    fz_ops_physics_count;
#define TABLE(name) const size_t fz_ops_##name##_count = LEN(fz_ops_##name)

/* Pools of ids, per kind. Slot 0 of layers is the root. */
enum { POOL = 8 };
typedef struct {
    caluna_layer layers[POOL];
    caluna_animation anims[POOL];
    caluna_image images[POOL];
    uint64_t links[POOL];          /* display links and timers together */
    caluna_handler handlers[POOL];
    caluna_world worlds[POOL];
    caluna_body bodies[POOL];
    caluna_shape shapes[POOL];
    caluna_constraint constraints[POOL];
    caluna_emitter_cell cells[POOL];
    caluna_render_target targets[POOL];
    caluna_context contexts[2];    /* [0] the context of the draw callback running now, [1] a stale one */
    caluna_arbiter arbiters[2];    /* the same for collision callbacks */
} fz_pools;

enum fz_kind { K_LAYER, K_ANIM, K_IMAGE, K_LINK, K_HANDLER, K_WORLD, K_BODY, K_SHAPE, K_CONSTRAINT, K_CELL,
               K_TARGET, K_CONTEXT, K_ARBITER, K_KINDS };

extern fz_pools P;          /* the main engine's ids */
extern fz_pools FOREIGN;    /* ids of a second engine that lives for the whole run */
extern int fz_sandboxed;    /* the main engine runs scripts in a sandbox (loops are safe) */

/* The stream. */
uint8_t u8(void);
uint16_t u16(void);
uint32_t u32(void);
uint64_t u64(void);
int chance(int n);                      /* 1 in n, from one byte */

/* Arguments. */
caluna_engine *E(void);                 /* usually the main engine; NULL, dead, foreign or fake */
caluna_engine *fz_main_engine(void);    /* the main engine (live or destroyed), for comparisons */
void fz_engine_less(void);              /* the op's call takes no engine: errors at last_error(NULL) */
const char *LAYER_KEY(void);             /* a layer key, mostly from a fixed list */
uint64_t ID(enum fz_kind kind);         /* an id of that kind, or a wrong one */
uint64_t *SLOT(enum fz_kind kind);      /* where a new id of that kind goes */
double NUM(void);                       /* any number, specials included */
double SMALL(void);                     /* a number that keeps work small (geometry, counts) */
int32_t INT(int32_t typical_max);       /* mostly 0…typical_max, sometimes negative or huge */
const char *KEY(void);                  /* a property key of the engine, or garbage */
const char *NAME(const char *const *names, size_t count); /* from a table, or garbage */
const char *STR(void);                  /* a string from the input (UTF-8 or not), or garbage */
const char *PATH_R(void);               /* a path to read: granted, refused, missing, special */
const char *PATH_W(void);               /* a path to write: granted, refused, missing */
caluna_value VALUE(void);               /* any value, with honest pointers */
caluna_pixel_format FORMAT(void);
/* Pointers: IN(p) is p or sometimes NULL. OUT(p) too, and a non-NULL output is filled with
 * 0xA5 first: when the call fails without having run a callback, it must have cleared it
 * ("on failure outputs are set to a neutral value", caluna.h). OUTV: a caluna_value output,
 * of which only the type (NIL) is checked. */
void *fz_maybe_null(void *p);
void *fz_out(void *p, size_t checked_bytes);
#define IN(p) ((__typeof__(p))fz_maybe_null(p))
#define OUT(p) ((__typeof__(p))fz_out((p), sizeof *(p)))
#define OUTV(p) ((caluna_value *)fz_out((p), sizeof (p)->type))
extern unsigned long fz_callbacks;      /* callbacks run so far (capi_callbacks.c) */
caluna_status fz_done(caluna_status s);  /* every op returns through it (checks the outputs) */
size_t COUNT(size_t cap, int *with_null); /* a count; when *with_null is set, the array is NULL */

/* Scratch arrays ops fill and pass (honest capacities: FZ_*_CAP elements). */
enum { FZ_DOUBLES_CAP = 8192, FZ_PATH_CAP = 64, FZ_VALUES_CAP = 16, FZ_BYTES_CAP = 1 << 16 };
double *DOUBLES(size_t n);              /* n fuzzed doubles (n ≤ FZ_DOUBLES_CAP) */
caluna_path_element *PATH_ELEMENTS(size_t n); /* n ≤ FZ_PATH_CAP */
caluna_value *VALUES(size_t n);         /* n ≤ FZ_VALUES_CAP */
uint8_t *BYTES(size_t n);               /* n ≤ FZ_BYTES_CAP bytes, some of them a PNG's */

/* Callbacks: each runs a few ops of its own from the stream (depth-limited), validates its
 * `user`, and returns what the stream says. */
void *USER(int owned);                  /* a user pointer: a heap token when the engine will own it */
void user_free_if_unowned(void *user, int taken); /* frees a token the call did not take over */
extern void (*const REL)(void *);       /* the release callback (frees a token, checks it) */
caluna_release_callback RELEASE(void);  /* REL or NULL */
void run_nested(const char *who);       /* ops from inside a callback */
caluna_animation_callback CB_ANIM(void);
caluna_display_link_callback CB_LINK(void);
caluna_timer_callback CB_TIMER(void);
caluna_completion_callback CB_COMPLETION(void);
caluna_action_callback CB_ACTION(void);
caluna_action_delegate_callback CB_ACTION_DELEGATE(void);
caluna_draw_callback CB_DRAW(void);
caluna_velocity_update_callback CB_VELOCITY(void);
caluna_position_update_callback CB_POSITION(void);
caluna_event_callback CB_EVENT(void);
caluna_pixel_buffer_callback CB_PIXELS(void);
caluna_collision_callbacks *COLLISION_CALLBACKS(void);

/* Engines made and destroyed by ops (capi_main.c). */
void fz_engine_created(caluna_engine *e);
void fz_engine_destroyed(caluna_engine *e);
void fz_ops_engine_reset(void);         /* per-input counters of ops_engine.c */
const char *fz_path(int i);             /* the run's files (capi_args.c) */
void fz_make_files(void);

/* Checks what a call returned through pointers: strings readable, PATH and ARRAY values'
 * elements readable for their count. */
void READ_VALUE(caluna_status s, const caluna_value *v);
void READ_STRING(caluna_status s, const char *const *str);

/* Cost guards: a host asks for what it can afford. */
int layer_pixels_ok(caluna_engine *e, caluna_layer layer, double scale); /* bounds × scale small */
int engine_pixels_ok(caluna_engine *e);                                  /* output ≤ 128 × 128 */

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
