/* engine_calls_test.c — the per-call protocol of the C ABI (Registry.swift): which engine a
 * call enters, and who may enter it. Calls made from inside a callback (into the same
 * engine, into another engine, from another thread, calls refused there), whose memory
 * charges go to the engine called; two engines used in turn; keys in a buffer the host
 * rewrites between calls; pointers of destroyed engines whose registry slots later engines
 * took over; ids after ca.reset replaced the id table. The last line is "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "check.h"
#include "scene.h"

#define SIDE 1024 /* a render target of SIDE² pixels needs 4 MiB */

static double number_of(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v;
    if (caluna_layer_get(e, l, key, &v) != CALUNA_OK || v.type != CALUNA_TYPE_NUMBER) return NAN;
    return v.u.number;
}

/* What the onOrderIn callback did from inside caluna_layer_add_sublayer. */
typedef struct {
    caluna_engine *engine, *other;
    caluna_layer layer, other_layer;
    int calls;
    caluna_status same, other_set, other_target, own_target, step, own_after, from_thread;
    char thread_error[256];
} inside;

static void *call_from_thread(void *arg) {
    inside *in = (inside *)arg;
    caluna_value v = caluna_number(0.5);
    in->from_thread = caluna_layer_set(in->engine, in->layer, "opacity", &v);
    snprintf(in->thread_error, sizeof in->thread_error, "%s", caluna_last_error(NULL));
    return NULL;
}

static caluna_status make_target(caluna_engine *e) {
    caluna_render_target t = 0;
    caluna_status s = caluna_render_target_create(e, NULL, 0, SIDE, SIDE, 0, CALUNA_RGBA8_STRAIGHT, &t);
    if (s == CALUNA_OK) caluna_render_target_destroy(e, t);
    return s;
}

static int32_t on_order_in(caluna_engine *e, caluna_layer layer, const char *event, void *user) {
    inside *in = (inside *)user;
    caluna_value v = caluna_number(0.25);
    pthread_t t;
    (void)event;
    in->calls++;
    in->same = caluna_layer_set(e, layer, "opacity", &v);
    v = caluna_number(3);
    in->other_set = caluna_layer_set(in->other, in->other_layer, "zPosition", &v);
    /* 4 MiB: within the other engine's (unlimited) memory, over this engine's 1 MiB */
    in->other_target = make_target(in->other);
    in->own_target = make_target(e);
    in->step = caluna_engine_step(e, 0.1);
    v = caluna_number(4);
    in->own_after = caluna_layer_set(e, layer, "zPosition", &v);
    if (pthread_create(&t, NULL, call_from_thread, in) == 0) pthread_join(t, NULL);
    return 0;
}

static void test_calls_from_a_callback(void) {
    inside in;
    caluna_engine *e = new_engine_sized(SIDE, SIDE, 1), *other = new_engine_sized(SIDE, SIDE, 1);
    caluna_layer root = 0, l = 0;
    caluna_action a;
    memset(&in, 0, sizeof in);
    printf("-- calls from inside a callback\n");
    EXPECT_OK(e, caluna_engine_set_sandbox(e, 1 << 20, 1000000));
    EXPECT(e, make_target(e), CALUNA_ERR_OUT_OF_MEMORY);
    EXPECT_OK(e, caluna_root_layer(e, &root));
    EXPECT_OK(e, caluna_layer_create(e, &l));
    EXPECT_OK(other, caluna_layer_create(other, &in.other_layer));
    in.engine = e;
    in.other = other;
    in.layer = l;
    memset(&a, 0, sizeof a);
    a.kind = CALUNA_ACTION_CALLBACK;
    a.callback = on_order_in;
    a.user = &in;
    EXPECT_OK(e, caluna_layer_set_action(e, l, "onOrderIn", &a));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, l));
    CHECK(in.calls == 1, "the callback ran once (%d)", in.calls);
    CHECK(in.same == CALUNA_OK && number_of(e, l, "opacity") == 0.25, "a call into the same engine runs");
    CHECK(in.other_set == CALUNA_OK && number_of(other, in.other_layer, "zPosition") == 3,
          "a call into another engine runs there");
    CHECK(in.other_target == CALUNA_OK, "its memory is charged to that engine (%s)", caluna_status_name(in.other_target));
    CHECK(in.own_target == CALUNA_ERR_OUT_OF_MEMORY,
          "back in the first engine, its own limit applies again (%s)", caluna_status_name(in.own_target));
    CHECK(in.step == CALUNA_ERR_INVALID_ARGUMENT, "caluna_engine_step is refused there (%s)", caluna_status_name(in.step));
    CHECK(in.own_after == CALUNA_OK && number_of(e, l, "zPosition") == 4, "and a later call of the same engine runs");
    CHECK(in.from_thread == CALUNA_ERR_INVALID_ARGUMENT && strstr(in.thread_error, "in use by another call") != NULL,
          "another thread is refused while the engine is held: %s", in.thread_error);
    CHECK(number_of(e, l, "opacity") == 0.25, "the refused call changed nothing");
    /* the engine is free again: the other thread may use it now */
    in.from_thread = -1;
    {
        pthread_t t;
        if (pthread_create(&t, NULL, call_from_thread, &in) == 0) pthread_join(t, NULL);
    }
    CHECK(in.from_thread == CALUNA_OK && number_of(e, l, "opacity") == 0.5,
          "once the call returned, another thread may enter (%s)", caluna_status_name(in.from_thread));
    EXPECT(e, make_target(e), CALUNA_ERR_OUT_OF_MEMORY);
    EXPECT_OK(other, make_target(other));
    EXPECT_OK(NULL, caluna_engine_destroy(other));
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

/* Two engines in turn, the same literal key: each call goes to its own engine. */
static void test_engines_in_turn(void) {
    caluna_engine *e[2] = { new_engine(), new_engine() };
    caluna_layer l[2] = { 0, 0 };
    int i, ok = 1;
    printf("-- two engines in turn\n");
    EXPECT_OK(e[0], caluna_layer_create(e[0], &l[0]));
    EXPECT_OK(e[1], caluna_layer_create(e[1], &l[1]));
    for (i = 0; i < 200; i++) {
        caluna_value v = caluna_number((double)i / 256);
        ok &= caluna_layer_set(e[i & 1], l[i & 1], "opacity", &v) == CALUNA_OK;
        ok &= number_of(e[i & 1], l[i & 1], "opacity") == (double)i / 256;
        if (i > 0) ok &= number_of(e[~i & 1], l[~i & 1], "opacity") == (double)(i - 1) / 256;
    }
    CHECK(ok, "200 sets alternating between two engines, each read back from its own");
    EXPECT(e[0], caluna_layer_set(e[0], l[1], "opacity", &(caluna_value){ .type = CALUNA_TYPE_NUMBER }),
           CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(NULL, caluna_engine_destroy(e[0]));
    EXPECT_OK(NULL, caluna_engine_destroy(e[1]));
}

/* The key cache finds keys by address: a buffer rewritten between calls is a new key. */
static void test_reused_key_buffer(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = 0;
    char key[32];
    caluna_value v = caluna_number(0.75);
    printf("-- keys in a reused buffer\n");
    EXPECT_OK(e, caluna_layer_create(e, &l));
    strcpy(key, "opacity");
    EXPECT_OK(e, caluna_layer_set(e, l, key, &v));
    strcpy(key, "zPosition");
    v = caluna_number(9);
    EXPECT_OK(e, caluna_layer_set(e, l, key, &v));
    CHECK(number_of(e, l, "opacity") == 0.75 && number_of(e, l, "zPosition") == 9,
          "the second set went to zPosition, not opacity");
    strcpy(key, "hidden");
    EXPECT(e, caluna_layer_set(e, l, key, &v), CALUNA_ERR_TYPE_MISMATCH);
    strcpy(key, "opacit");
    EXPECT(e, caluna_layer_set(e, l, key, &v), CALUNA_ERR_UNKNOWN_KEY);
    strcpy(key, "opacity");
    v = caluna_number(0.5);
    EXPECT_OK(e, caluna_layer_set(e, l, key, &v));
    CHECK(number_of(e, l, "opacity") == 0.5 && number_of(e, l, "zPosition") == 9, "and back to opacity");
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

/* Destroyed engines stay refused while later engines reuse their registry slots (the
 * first eight are scanned without a lock, the rest found under it). */
static void test_slots_reused(void) {
    enum { N = 12 };
    caluna_engine *live[N], *dead[N];
    caluna_layer l = 0;
    int i, round, stale_ok = 1, live_ok = 1;
    caluna_value v = caluna_number(0.5);
    printf("-- destroyed engines while their slots are reused\n");
    for (i = 0; i < N; i++) live[i] = new_engine();
    for (round = 0; round < 3; round++) {
        for (i = 0; i < N; i++) {
            dead[i] = live[i];
            EXPECT_OK(NULL, caluna_engine_destroy(live[i]));
            live[i] = new_engine();
        }
        for (i = 0; i < N; i++) {
            int reused = 0, j;
            for (j = 0; j < N; j++) reused |= dead[i] == live[j]; /* malloc gave the address back */
            if (!reused) stale_ok &= caluna_layer_create(dead[i], &l) == CALUNA_ERR_STALE_HANDLE;
            if (!reused) stale_ok &= caluna_layer_set(dead[i], 1, "opacity", &v) == CALUNA_ERR_STALE_HANDLE;
            live_ok &= caluna_layer_create(live[i], &l) == CALUNA_OK;
            live_ok &= caluna_layer_set(live[i], l, "opacity", &v) == CALUNA_OK && number_of(live[i], l, "opacity") == 0.5;
            live_ok &= caluna_layer_release(live[i], l) == CALUNA_OK;
        }
    }
    CHECK(stale_ok, "every destroyed engine is refused as stale");
    CHECK(live_ok, "every live engine answers");
    for (i = 0; i < N; i++) EXPECT_OK(NULL, caluna_engine_destroy(live[i]));
}

/* ca.reset replaces the engine's id table (the C calls read it without counting a
 * reference): ids of the old table are refused, the new table answers. */
static void test_ids_after_reset(void) {
    caluna_engine *e = new_engine();
    caluna_layer old = 0, fresh = 0;
    caluna_value v = caluna_number(0.25);
    printf("-- ids after ca.reset\n");
    EXPECT_OK(e, caluna_layer_create(e, &old));
    EXPECT_OK(e, caluna_layer_set(e, old, "opacity", &v));
    EXPECT_OK(e, caluna_engine_load_string(e, "require(\"caluna\").reset()", "reset"));
    EXPECT(e, caluna_layer_set(e, old, "opacity", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_release(e, old), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_create(e, &fresh));
    CHECK(fresh != old, "the new table gives a new id");
    EXPECT_OK(e, caluna_layer_set(e, fresh, "opacity", &v));
    CHECK(number_of(e, fresh, "opacity") == 0.25, "and its layer takes the set");
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_calls_from_a_callback();
    test_engines_in_turn();
    test_reused_key_buffer();
    test_slots_reused();
    test_ids_after_reset();
    return finish();
}
