/* libFuzzer target over the whole C ABI: the input is decoded into a sequence of calls (see
 * capi_fuzz.h). This file holds the driver, the engines, the ids and the output checks;
 * capi_args.c the argument decoders; capi_callbacks.c the callbacks; ops_*.c one op per
 * exported function. */
#include "capi_fuzz.h"

/* ---- The stream ---- */

static const uint8_t *in;
static size_t in_n, in_pos;
static int ops_left;

uint8_t u8(void) { return in_pos < in_n ? in[in_pos++] : 0; }
uint16_t u16(void) { return (uint16_t)(u8() | u8() << 8); }
uint32_t u32(void) { return (uint32_t)u16() | (uint32_t)u16() << 16; }
uint64_t u64(void) { return (uint64_t)u32() | (uint64_t)u32() << 32; }
int chance(int n) { return u8() % n == 0; }

/* ---- Engines ---- */

fz_pools P, FOREIGN;
int fz_sandboxed;
static caluna_engine *main_engine, *other_engine;
static int main_alive;
enum { EXTRAS = 2, DEAD = 4 };
static caluna_engine *extra[EXTRAS];
static caluna_engine *dead[DEAD];   /* destroyed pointers, forgotten once an address is reused */
static uint64_t fake_engine[32];    /* memory we own that never was an engine */
static caluna_engine *last_engine;
static int engine_less;

/* NULL once destroyed: a later engine may get the same address, and it is not sandboxed. */
caluna_engine *fz_main_engine(void) { return main_alive ? main_engine : NULL; }
void fz_engine_less(void) { engine_less = 1; }

caluna_engine *E(void) {
    uint8_t b = u8();
    if (b < 208) return last_engine = main_engine;
    switch (b % 6) {
    case 0: return last_engine = NULL;
    case 1: return last_engine = dead[b % DEAD];
    case 2: return last_engine = (caluna_engine *)fake_engine;
    default: return last_engine = extra[b % EXTRAS] ? extra[b % EXTRAS] : main_engine;
    }
}

/* After caluna_engine_create / _destroy ops (ops_engine.c). */
void fz_engine_created(caluna_engine *e) {
    for (int i = 0; i < DEAD; i++) if (dead[i] == e) dead[i] = NULL;
    for (int i = 0; i < EXTRAS; i++) if (!extra[i]) { extra[i] = e; return; }
    caluna_status s = caluna_engine_destroy(e);   /* no room: it lives one call */
    fz_check_status(NULL, s, "caluna_engine_destroy");
}
void fz_engine_destroyed(caluna_engine *e) {
    if (e == main_engine) main_alive = 0;
    for (int i = 0; i < EXTRAS; i++) if (extra[i] == e) extra[i] = NULL;
    for (int i = 0; i < DEAD; i++) if (!dead[i]) { dead[i] = e; return; }
    dead[0] = e;
}

/* ---- Ids ---- */

static uint64_t *pool_of(fz_pools *p, enum fz_kind k, size_t *n) {
    *n = POOL;
    switch (k) {
    case K_LAYER: return p->layers;
    case K_ANIM: return p->anims;
    case K_IMAGE: return p->images;
    case K_LINK: return p->links;
    case K_HANDLER: return p->handlers;
    case K_WORLD: return p->worlds;
    case K_BODY: return p->bodies;
    case K_SHAPE: return p->shapes;
    case K_CONSTRAINT: return p->constraints;
    case K_CELL: return p->cells;
    case K_TARGET: return p->targets;
    case K_CONTEXT: *n = 2; return p->contexts;
    default: *n = 2; return p->arbiters;
    }
}

uint64_t ID(enum fz_kind kind) {
    size_t n;
    uint8_t b = u8();
    if (b < 176) {
        /* Mostly an id that was made (a slot holding one), so calls get past the id check. */
        uint64_t *pool = pool_of(&P, kind, &n), made[POOL];
        size_t m = 0;
        for (size_t i = 0; i < n; i++) if (pool[i]) made[m++] = pool[i];
        return m && b < 144 ? made[b % m] : pool[b % n];
    }
    if (b < 192) return 0;
    if (b < 208) return pool_of(&FOREIGN, kind, &n)[b % n];
    if (b < 224) return pool_of(&P, (enum fz_kind)(b % K_KINDS), &n)[u8() % n];    /* another kind */
    if (b < 240) return pool_of(&P, kind, &n)[u8() % n] ^ (1ull << (u8() % 64));   /* a bit off */
    return u64();
}

uint64_t *SLOT(enum fz_kind kind) {
    size_t n;
    uint64_t *pool = pool_of(&P, kind, &n);
    return &pool[u8() % n];
}

void *fz_maybe_null(void *p) { return u8() < 8 ? NULL : p; }

/* The outputs of the op being run, checked by fz_run_one when its call fails. */
enum { OUTS = 8 };
static struct { uint8_t *p; size_t n; } outs[OUTS];
static int nouts;

void *fz_out(void *p, size_t checked_bytes) {
    if (u8() < 8) return NULL;
    memset(p, 0xA5, checked_bytes);
    if (nouts < OUTS) { outs[nouts].p = p; outs[nouts].n = checked_bytes; nouts++; }
    return p;
}

static const fz_op *current_op;
static unsigned long callbacks_at_start;

static void check_outputs_cleared(const char *name);

/* Every op returns through this while its outputs (often its locals) are still alive. A
 * callback may have run ops that wrote the same pools: then the outputs prove nothing. */
caluna_status fz_done(caluna_status s) {
    if (s != CALUNA_OK && current_op && callbacks_at_start == fz_callbacks) check_outputs_cleared(current_op->name);
    return s;
}

/* Broken rules already reported and not fixed yet: still checked, never reported again. */
static const char *const known_open[] = {
    NULL,   /* none at present; entries are "caluna_…-out" */
};

static void check_outputs_cleared(const char *name) {
    char key[96];
    snprintf(key, sizeof key, "%s-out", name);
    for (size_t i = 0; i < LEN(known_open); i++) if (known_open[i] && strcmp(key, known_open[i]) == 0) return;
    for (int i = 0; i < nouts; i++)
        for (size_t k = 0; k < outs[i].n; k++)
            if (outs[i].p[k] != 0) {
                fz_rule(key, "%s failed but left output %d as it was (byte %zu = 0x%02x)", name, i, k, outs[i].p[k]);
                return;
            }
}

/* ---- Cost guards ---- */

int engine_pixels_ok(caluna_engine *e) {
    int32_t w = 0, h = 0;
    if (caluna_engine_pixel_size(e, &w, &h) != CALUNA_OK) return 1;   /* the call will fail cheaply */
    return (int64_t)w * h <= 128 * 128;
}

int layer_pixels_ok(caluna_engine *e, caluna_layer layer, double scale) {
    caluna_value b;
    if (caluna_layer_get(e, layer, "bounds", &b) != CALUNA_OK || b.type != CALUNA_TYPE_RECT) return 1;
    if (!isfinite(scale) || scale <= 0) return 1;
    double w = fabs(b.u.rect.width) * scale, h = fabs(b.u.rect.height) * scale;
    return w <= 256 && h <= 256;
}

/* ---- The driver ---- */

static fz_op *ops;
static size_t nops;

static void add_ops(const fz_op *table, size_t count) {
    for (size_t i = 0; i < count; i++) {
        for (size_t j = 0; j < nops; j++)
            if (strcmp(ops[j].name, table[i].name) == 0) fz_fail("%s has two ops", table[i].name);
        ops[nops++] = table[i];
    }
}

static void run_op(const fz_op *op);

void fz_run_one(void) {
    if (ops_left <= 0 || in_pos >= in_n) return;
    ops_left--;
    run_op(&ops[u16() % nops]);
}

/* An op whose function starts with `prefix` (most of the time): a draw callback mostly draws,
 * a collision callback mostly asks its arbiter. */
void fz_run_one_prefixed(const char *prefix) {
    if (ops_left <= 0 || in_pos >= in_n) return;
    uint8_t b = u8();
    size_t matching = 0, len = strlen(prefix);
    for (size_t i = 0; i < nops; i++) matching += strncmp(ops[i].name, prefix, len) == 0;
    if (b < 64 || matching == 0) { fz_run_one(); return; }
    ops_left--;
    size_t pick = u8() % matching;
    for (size_t i = 0; i < nops; i++)
        if (strncmp(ops[i].name, prefix, len) == 0 && pick-- == 0) { run_op(&ops[i]); return; }
}

static void run_op(const fz_op *op) {
    caluna_engine *saved = last_engine;
    int saved_less = engine_less;
    last_engine = NULL;
    engine_less = 0;
    const fz_op *saved_op = current_op;
    unsigned long saved_callbacks = callbacks_at_start;
    nouts = 0;
    current_op = op;
    callbacks_at_start = fz_callbacks;
    static int trace = -1, nesting;
    if (trace < 0) trace = getenv("CALUNA_FUZZ_TRACE") && *getenv("CALUNA_FUZZ_TRACE");
    if (trace) fprintf(stderr, "%*s%s …\n", 2 * nesting, "", op->name);
    nesting++;
    caluna_status s = op->run();
    nesting--;
    if (trace) fprintf(stderr, "%*s%s -> %s\n", 2 * nesting, "", op->name, caluna_status_name(s));
    fz_check_status(engine_less ? NULL : last_engine, s, op->name);
    current_op = saved_op;
    callbacks_at_start = saved_callbacks;
    last_engine = saved;
    engine_less = saved_less;
}

void fz_foreign_init(caluna_engine *o);   /* capi_callbacks.c */
void fz_main_init(caluna_engine *e, uint8_t config);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    ops = calloc(fz_ops_engine_count + fz_ops_anim_count + fz_ops_content_count + fz_ops_misc_count +
                 fz_ops_physics_count, sizeof *ops);
    add_ops(fz_ops_engine, fz_ops_engine_count);
    add_ops(fz_ops_anim, fz_ops_anim_count);
    add_ops(fz_ops_content, fz_ops_content_count);
    add_ops(fz_ops_misc, fz_ops_misc_count);
    add_ops(fz_ops_physics, fz_ops_physics_count);
    fz_make_files();
    if (caluna_engine_create(NULL, &other_engine) != CALUNA_OK) fz_fail("cannot create the foreign engine");
    fz_foreign_init(other_engine);
    /* scripts/fuzz checks the table against include/caluna.h; this lists it for that. */
    if (getenv("CALUNA_FUZZ_LIST_OPS")) { for (size_t i = 0; i < nops; i++) printf("%s\n", ops[i].name); exit(0); }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input = data;
    fz_input_size = size;
    in = data; in_n = size; in_pos = 0;
    ops_left = 256;
    fz_ops_engine_reset();
    memset(&P, 0, sizeof P);
    memset(dead, 0, sizeof dead);
    for (size_t i = 0; i < LEN(fake_engine); i++) fake_engine[i] = 0x5A5A5A5A5A5A5A5Aull * (i + 1);
    caluna_engine_options opts = caluna_engine_options_default();
    uint8_t config = u8();
    opts.width = 8 << (config % 4);
    opts.height = 8 << ((config >> 2) % 4);
    opts.scale = (config & 16) ? 2 : 1;
    if (caluna_engine_create(&opts, &main_engine) != CALUNA_OK) fz_fail("cannot create the engine: %s", caluna_last_error(NULL));
    main_alive = 1;
    fz_main_init(main_engine, config);
    while (in_pos < in_n && ops_left > 0) fz_run_one();
    if (main_alive) fz_check_status(NULL, caluna_engine_destroy(main_engine), "caluna_engine_destroy");
    for (int i = 0; i < EXTRAS; i++) {
        if (extra[i]) fz_check_status(NULL, caluna_engine_destroy(extra[i]), "caluna_engine_destroy");
        extra[i] = NULL;
    }
    main_engine = NULL;
    main_alive = 0;
    fz_process_check();
    return 0;
}
