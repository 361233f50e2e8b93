/* actions_test.c — the C ABI of layer actions (issue #4): the actions dictionary (NSNull,
 * animations, C callbacks), the style chain, the action delegate, the whole lookup, the
 * default action, a Transition as an action, release callbacks (exactly once), callback
 * errors and bad input.
 *
 * Layers start blue and turn red; a linear animation shows (f, 0, 1 − f) at progress f.
 * Each check prints one line; the last line is "N passed, N failed". */
#include <caluna.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "scene.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

/* What the callbacks saw and how they answer. */
typedef struct {
    int calls, released, layer_ok;
    char last_event[64];
    caluna_layer layer;
    int32_t status;            /* what the callback returns */
    caluna_action answer;      /* what the delegate answers */
    caluna_status nested;      /* a call made from inside */
    caluna_engine *engine;     /* set: the release calls back in (a call that fails) */
    caluna_status release_nested;
} host;

static int32_t on_action(caluna_engine *e, caluna_layer layer, const char *event, void *user) {
    host *h = (host *)user;
    caluna_layer root = 0;
    h->calls++;
    h->layer_ok += layer == h->layer;
    snprintf(h->last_event, sizeof h->last_event, "%s", event);
    h->nested = caluna_root_layer(e, &root);
    return h->status;
}

static int32_t on_delegate(caluna_engine *e, caluna_layer layer, const char *key, void *user, caluna_action *out) {
    host *h = (host *)user;
    (void)e;
    h->calls++;
    h->layer_ok += layer == h->layer && out->kind == CALUNA_ACTION_CONTINUE && out->animation == 0;
    snprintf(h->last_event, sizeof h->last_event, "%s", key);
    *out = h->answer;
    return h->status;
}

static void on_release(void *user) {
    host *h = (host *)user;
    h->released++;
    if (h->engine) h->release_nested = caluna_transaction_commit(h->engine);
}

static void host_init(host *h, caluna_layer layer) {
    memset(h, 0, sizeof *h);
    h->layer = layer;
}

static caluna_action kind_action(caluna_action_kind kind) {
    caluna_action a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    return a;
}

static caluna_action anim_action(caluna_animation anim) {
    caluna_action a = kind_action(CALUNA_ACTION_ANIMATION);
    a.animation = anim;
    return a;
}

static caluna_action callback_action(host *h) {
    caluna_action a = kind_action(CALUNA_ACTION_CALLBACK);
    a.callback = on_action;
    a.user = h;
    a.release = on_release;
    return a;
}

static caluna_status set_action(caluna_engine *e, caluna_layer l, const char *key, caluna_action a) {
    return caluna_layer_set_action(e, l, key, &a);
}

static caluna_status turn(caluna_engine *e, caluna_layer l, int red) {
    return lset(e, l, "backgroundColor", red ? caluna_color(1, 0, 0, 1) : caluna_color(0, 0, 1, 1));
}

static double red_now(caluna_engine *e, caluna_layer l) {
    caluna_value c = pget(e, l, "backgroundColor");
    return c.type == CALUNA_TYPE_COLOR ? c.u.color.r : NAN;
}

/* A BasicAnimation without keyPath or values (the action fills them in). */
static caluna_animation plain(caluna_engine *e, double duration) {
    caluna_animation a = anim_new(e, "BasicAnimation");
    aset(e, a, "duration", caluna_number(duration));
    return a;
}

/* ---------------------------------------------------------------------------------------- */

static void test_dictionary(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    caluna_animation slow = plain(e, 2);
    caluna_action got;
    caluna_value v;

    /* NSNull stops the default animation */
    EXPECT_OK(e, set_action(e, l, "backgroundColor", kind_action(CALUNA_ACTION_NULL)));
    EXPECT_OK(e, caluna_layer_action(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_NULL, "the entry reads back NULL");
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(key_count(e, l) == 0, "NULL entry: no animation");
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(red_now(e, l) == 1, "the change shows at once");

    /* an animation entry with its own duration 2 (linear: explicit animations' default) */
    EXPECT_OK(e, set_action(e, l, "backgroundColor", anim_action(slow)));
    EXPECT_OK(e, caluna_animation_release(e, slow)); /* the entry holds it */
    EXPECT_OK(e, caluna_layer_action(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_ANIMATION && got.animation == slow && got.release == NULL,
          "the entry reads back the same animation, borrowed");
    EXPECT_OK(e, caluna_animation_get(e, got.animation, "duration", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 2, "its duration 2");
    EXPECT_OK(e, turn(e, l, 0));
    EXPECT_OK(e, caluna_engine_step(e, 1));
    CHECK(near(red_now(e, l), 0.5, 1e-12), "the 2 s animation is halfway at 1 s (%g)", red_now(e, l));
    EXPECT_OK(e, caluna_engine_step(e, 0.9));
    CHECK(near(red_now(e, l), 0.05, 1e-12), "and at 1.9 s (%g)", red_now(e, l));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(red_now(e, l) == 0, "done at 2 s");

    /* CONTINUE or NULL pointer removes the entry: the default animation is back */
    EXPECT_OK(e, set_action(e, l, "backgroundColor", kind_action(CALUNA_ACTION_CONTINUE)));
    EXPECT_OK(e, caluna_layer_action(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "removed");
    EXPECT(e, caluna_animation_get(e, slow, "duration", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_set_action(e, l, "opacity", NULL));
    EXPECT_OK(e, turn(e, l, 1));
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    CHECK(near(red_now(e, l), 0.802403, 1e-6), "the default action again (%g)", red_now(e, l));
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_callbacks(void) {
    caluna_layer l, root = 0, child = 0;
    caluna_engine *e = committed_scene(&l);
    host h, order, dies, dies_with_engine, quiet;
    caluna_action got;

    caluna_root_layer(e, &root);
    host_init(&h, l);
    EXPECT_OK(e, set_action(e, l, "backgroundColor", callback_action(&h)));
    EXPECT_OK(e, caluna_layer_action(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CALLBACK && got.callback == on_action && got.user == &h && got.release == NULL,
          "the entry reads back callback and user, release NULL");
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(h.calls == 1 && h.layer_ok == 1 && strcmp(h.last_event, "backgroundColor") == 0,
          "called once with the layer and \"backgroundColor\" (%d, %s)", h.calls, h.last_event);
    CHECK(h.nested == CALUNA_OK, "it may call back into the engine");
    CHECK(key_count(e, l) == 0, "a callback action adds no animation");
    EXPECT_OK(e, set_action(e, l, "backgroundColor", kind_action(CALUNA_ACTION_NULL)));
    CHECK(h.released == 1, "replacing the entry released its user once");
    EXPECT_OK(e, caluna_layer_clear_actions(e, l));
    CHECK(h.released == 1, "and never again");

    /* onOrderIn when a layer enters the committed tree */
    host_init(&order, 0);
    EXPECT_OK(e, caluna_layer_create(e, &child));
    order.layer = child;
    EXPECT_OK(e, set_action(e, child, "onOrderIn", callback_action(&order)));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, child));
    CHECK(order.calls == 1 && order.layer_ok == 1 && strcmp(order.last_event, "onOrderIn") == 0,
          "adding a sublayer to the root runs \"onOrderIn\" (%d, %s)", order.calls, order.last_event);
    EXPECT_OK(e, caluna_layer_clear_actions(e, child));
    CHECK(order.released == 1, "clearing the actions released it");
    EXPECT_OK(e, caluna_layer_release(e, child));

    /* the layer dies: its entries are released */
    host_init(&dies, 0);
    dies.layer = new_layer(e, 0);
    EXPECT_OK(e, set_action(e, dies.layer, "opacity", callback_action(&dies)));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, dies.layer));
    CHECK(dies.released == 1, "the layer died: released once (%d)", dies.released);

    /* a release callback may call back in; a call failing there leaves the last error alone */
    host_init(&quiet, l);
    quiet.engine = e;
    EXPECT_OK(e, set_action(e, l, "opacity", callback_action(&quiet)));
    EXPECT(e, caluna_layer_set(e, l, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_clear_actions(e, l));
    CHECK(quiet.released == 1 && quiet.release_nested == CALUNA_ERR_INVALID_ARGUMENT,
          "released once; its own call into the engine ran (and failed: %s)", caluna_status_name(quiet.release_nested));
    CHECK(strstr(caluna_last_error(e), "caluna_layer_set") != NULL, "last error unchanged: %s", caluna_last_error(e));

    /* the engine goes: what it holds is released */
    host_init(&dies_with_engine, l);
    EXPECT_OK(e, set_action(e, l, "opacity", callback_action(&dies_with_engine)));
    EXPECT_OK(e, caluna_layer_set_style_action(e, l, 3, "opacity", &(caluna_action){CALUNA_ACTION_CALLBACK, 0, on_action, &dies_with_engine, on_release}));
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, on_delegate, &dies_with_engine, on_release));
    EXPECT_OK(e, caluna_engine_destroy(e));
    CHECK(dies_with_engine.released == 3, "destroy released the entry, the style entry and the delegate (%d)",
          dies_with_engine.released);
}

static void test_delegate(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    caluna_animation slow = plain(e, 2);
    host d;

    host_init(&d, l);
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, on_delegate, &d, on_release));
    EXPECT_OK(e, set_action(e, l, "backgroundColor", kind_action(CALUNA_ACTION_NULL)));

    /* CONTINUE falls through to the dictionary (NULL: no animation) */
    d.answer = kind_action(CALUNA_ACTION_CONTINUE);
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(d.calls == 1 && d.layer_ok == 1 && strcmp(d.last_event, "backgroundColor") == 0,
          "the delegate is asked first, with the layer and key (out preset to CONTINUE)");
    CHECK(key_count(e, l) == 0, "it continued: the dictionary's NULL applies");
    EXPECT_OK(e, caluna_engine_step(e, 0)); /* red on screen */

    /* ANIMATION wins over the dictionary */
    d.answer = anim_action(slow);
    EXPECT_OK(e, turn(e, l, 0));
    CHECK(key_count(e, l) == 1, "the delegate's animation runs");
    EXPECT_OK(e, caluna_engine_step(e, 1));
    CHECK(near(red_now(e, l), 0.5, 1e-12), "its 2 s at 1 s: halfway (%g)", red_now(e, l));
    EXPECT_OK(e, caluna_engine_step(e, 1));

    /* NULL stops the search, before the dictionary's animation */
    EXPECT_OK(e, set_action(e, l, "backgroundColor", anim_action(slow)));
    d.answer = kind_action(CALUNA_ACTION_NULL);
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(key_count(e, l) == 0, "delegate NULL: no animation although the dictionary has one");

    /* removing the delegate: released once, the dictionary answers again */
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, NULL, NULL, NULL));
    CHECK(d.released == 1, "removed: released once");
    EXPECT_OK(e, turn(e, l, 0));
    CHECK(key_count(e, l) == 1, "without the delegate the dictionary's animation runs");
    EXPECT_OK(e, caluna_engine_step(e, 2));

    /* replacing it releases the old one; the layer's death releases the new one */
    host_init(&d, l);
    {
        host d2;
        caluna_layer gone = new_layer(e, 0);
        EXPECT_OK(e, caluna_engine_step(e, 0)); /* committed: its changes run actions */
        host_init(&d2, gone);
        d2.answer = kind_action(CALUNA_ACTION_NULL); /* no animation holds the layer */
        EXPECT_OK(e, caluna_layer_set_action_delegate(e, gone, on_delegate, &d, on_release));
        EXPECT_OK(e, caluna_layer_set_action_delegate(e, gone, on_delegate, &d2, on_release));
        CHECK(d.released == 1 && d2.released == 0, "replaced: the old one released");
        EXPECT_OK(e, lset(e, gone, "opacity", caluna_number(0.5)));
        CHECK(d2.calls == 1 && d.calls == 0, "only the new one is asked (the engine keeps it alive)");
        EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, gone));
        CHECK(d2.released == 1, "the layer died: released once (%d)", d2.released);
    }
    EXPECT_OK(e, caluna_animation_release(e, slow));
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_lookup_and_style(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    caluna_animation slow = plain(e, 2);
    caluna_action got;
    caluna_value v;
    host cb, d;
    const char *cls = NULL;

    /* the default action: a new owned BasicAnimation of the key */
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_ANIMATION && got.animation != 0, "no entries: the default animation");
    EXPECT_OK(e, caluna_animation_class_name(e, got.animation, &cls));
    CHECK(cls && strcmp(cls, "BasicAnimation") == 0, "a BasicAnimation");
    EXPECT_OK(e, caluna_animation_get(e, got.animation, "keyPath", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "backgroundColor") == 0, "of backgroundColor");
    EXPECT_OK(e, caluna_animation_get(e, got.animation, "timingFunction", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "default") == 0, "on the default curve");
    EXPECT_OK(e, caluna_animation_release(e, got.animation)); /* owned */
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "notAProperty", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "an unknown key has no action");
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 3));
    EXPECT_OK(e, caluna_default_action_for_key(e, "opacity", &got));
    EXPECT_OK(e, caluna_animation_get(e, got.animation, "duration", &v));
    CHECK(got.kind == CALUNA_ACTION_ANIMATION && v.u.number == 3, "defaultActionForKey takes the transaction's duration");
    EXPECT_OK(e, caluna_animation_release(e, got.animation));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_default_action_for_key(e, "contents", &got));
    EXPECT_OK(e, caluna_animation_class_name(e, got.animation, &cls));
    CHECK(cls && strcmp(cls, "Transition") == 0, "contents: a Transition");
    EXPECT_OK(e, caluna_animation_release(e, got.animation));
    EXPECT_OK(e, caluna_default_action_for_key(e, "name", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "a property that does not animate: none");

    /* style level 1, then level 0 in front of it */
    host_init(&cb, l);
    EXPECT_OK(e, caluna_layer_set_style_action(e, l, 1, "backgroundColor", &(caluna_action){CALUNA_ACTION_CALLBACK, 0, on_action, &cb, on_release}));
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CALLBACK && got.user == &cb, "style.style.actions answers");
    EXPECT_OK(e, caluna_layer_style_action(e, l, 1, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CALLBACK, "level 1 reads back");
    EXPECT_OK(e, caluna_layer_style_action(e, l, 0, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "level 0 (created on the way) is empty");
    EXPECT_OK(e, caluna_layer_style_action(e, l, 5, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "a level that does not exist reads CONTINUE");
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(cb.calls == 1, "the level 1 callback ran");
    EXPECT_OK(e, caluna_engine_step(e, 0)); /* red on screen */
    EXPECT_OK(e, caluna_layer_set_style_action(e, l, 0, "backgroundColor", &(caluna_action){CALUNA_ACTION_ANIMATION, slow, NULL, NULL, NULL}));
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_ANIMATION && got.animation == slow, "level 0 comes before level 1 (an owned ref to it)");
    EXPECT_OK(e, caluna_animation_release(e, got.animation));
    EXPECT_OK(e, turn(e, l, 0));
    EXPECT_OK(e, caluna_engine_step(e, 1));
    CHECK(cb.calls == 1 && near(red_now(e, l), 0.5, 1e-12), "the style's 2 s animation ran (%g)", red_now(e, l));
    EXPECT_OK(e, caluna_engine_step(e, 1));

    /* the dictionary comes before the style, the delegate before both */
    EXPECT_OK(e, set_action(e, l, "backgroundColor", kind_action(CALUNA_ACTION_NULL)));
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CONTINUE, "dictionary NULL before the style: no action");
    host_init(&d, l);
    d.answer = callback_action(&cb); /* a delegate's callback is not released by the engine */
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, on_delegate, &d, NULL));
    EXPECT_OK(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got));
    CHECK(got.kind == CALUNA_ACTION_CALLBACK && got.callback == on_action && d.calls == 1, "the delegate first");
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(cb.calls == 2, "the delegate's callback ran");
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, NULL, NULL, NULL));
    CHECK(cb.released == 0, "a delegate's answer is never released");
    EXPECT_OK(e, caluna_layer_clear_style(e, l));
    CHECK(cb.released == 1, "clearing the style released its entry");
    EXPECT_OK(e, caluna_animation_release(e, slow));
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_transition(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    caluna_animation t = anim_new(e, "Transition"), attached = 0;
    caluna_value v;
    const char *key = NULL, *cls = NULL;

    EXPECT_OK(e, aset(e, t, "type", caluna_string("push")));
    EXPECT_OK(e, aset(e, t, "subtype", caluna_string("fromLeft")));
    EXPECT_OK(e, caluna_animation_get(e, t, "type", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "push") == 0, "type reads back push");
    v = caluna_string("dissolve");
    EXPECT(e, caluna_animation_set(e, t, "type", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, set_action(e, l, "backgroundColor", anim_action(t)));
    EXPECT_OK(e, turn(e, l, 1));
    CHECK(key_count(e, l) == 1, "one animation");
    EXPECT_OK(e, caluna_layer_animation_key_at(e, l, 0, &key));
    CHECK(key && strcmp(key, "transition") == 0, "under the key \"transition\" (%s)", key ? key : "NULL");
    EXPECT_OK(e, caluna_layer_animation_for_key(e, l, "transition", &attached));
    EXPECT_OK(e, caluna_animation_class_name(e, attached, &cls));
    CHECK(cls && strcmp(cls, "Transition") == 0, "a Transition");
    EXPECT_OK(e, caluna_animation_get(e, attached, "subtype", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "fromLeft") == 0, "subtype fromLeft");
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    EXPECT_OK(e, caluna_animation_release(e, t));
    EXPECT_OK(e, caluna_engine_destroy(e));
}

/* A Lua script's delegate on the same layer stays behind the C one. */
static void test_lua_delegate(void) {
    caluna_layer blue, root = 0;
    caluna_engine *e = committed_scene(&blue);
    host d;

    caluna_root_layer(e, &root);
    host_init(&d, root);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "laid = 0\n"
        "ca.root.layoutSublayers = function(l) laid = laid + 1 end\n"
        "ca.root.delegate = { actionForLayer = function(self, layer, key)\n"
        "  if key == 'opacity' then return ca.null end end }\n", "delegate"));
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, root, on_delegate, &d, on_release));
    EXPECT_OK(e, lset(e, root, "opacity", caluna_number(0.5)));
    CHECK(d.calls == 1 && key_count(e, root) == 0, "C continued; the script's delegate answered ca.null");
    EXPECT_OK(e, lset(e, root, "backgroundColor", caluna_color(1, 0, 0, 1)));
    CHECK(key_count(e, root) == 1, "for other keys the script continues too: the default animation");
    EXPECT_OK(e, caluna_layer_set_needs_layout(e, root));
    EXPECT_OK(e, caluna_layer_layout_if_needed(e, root));
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(laid == 1, 'laid ' .. laid)", "check"));
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, root, NULL, NULL, NULL));
    CHECK(d.released == 1, "removed: released");
    EXPECT_OK(e, caluna_layer_set_needs_layout(e, root));
    EXPECT_OK(e, caluna_layer_layout_if_needed(e, root));
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(laid == 2, 'laid ' .. laid)", "check"));
    EXPECT_OK(e, lset(e, root, "opacity", caluna_number(1)));
    CHECK(d.calls == 2 && key_count(e, root) == 1, "the C delegate is no longer asked (%d calls); the script's answers again (only the colour animates)", d.calls);
    EXPECT_OK(e, caluna_engine_destroy(e));
}

/* ---------------------------------------------------------------------------------------- */

static void test_callback_errors(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    caluna_value v;
    caluna_action got;
    host h, d;

    host_init(&h, l);
    h.status = -1;
    EXPECT_OK(e, set_action(e, l, "backgroundColor", callback_action(&h)));
    EXPECT(e, turn(e, l, 1), CALUNA_ERR_SCRIPT);
    CHECK(strstr(caluna_last_error(e), "backgroundColor") != NULL, "the message names the event");
    EXPECT_OK(e, caluna_layer_get(e, l, "backgroundColor", &v));
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 1, "the change itself stays made");
    h.status = CALUNA_ERR_TREE;
    EXPECT(e, turn(e, l, 0), CALUNA_ERR_TREE);
    h.status = 0;
    EXPECT_OK(e, turn(e, l, 1));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));

    /* the delegate's errors and bad answers */
    host_init(&d, l);
    d.status = CALUNA_ERR_UNKNOWN_KEY;
    EXPECT_OK(e, caluna_layer_set_action_delegate(e, l, on_delegate, &d, on_release));
    EXPECT(e, turn(e, l, 0), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_action_for_key(e, l, "backgroundColor", &got), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(got.kind == CALUNA_ACTION_CONTINUE && got.animation == 0, "a failed lookup leaves CONTINUE");
    d.status = 0;
    d.answer = kind_action((caluna_action_kind)7);
    EXPECT(e, turn(e, l, 1), CALUNA_ERR_INVALID_ARGUMENT);
    d.answer = anim_action(l); /* a layer id is not an animation id */
    EXPECT(e, turn(e, l, 0), CALUNA_ERR_STALE_HANDLE);
    d.answer = kind_action(CALUNA_ACTION_CALLBACK);
    EXPECT(e, turn(e, l, 1), CALUNA_ERR_INVALID_ARGUMENT);
    d.answer = kind_action(CALUNA_ACTION_CONTINUE);
    EXPECT_OK(e, turn(e, l, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(red_now(e, l) == 0, "the engine carries on");
    EXPECT_OK(e, caluna_engine_destroy(e));
    CHECK(h.released == 1 && d.released == 1, "everything released once at destroy (%d, %d)", h.released, d.released);
}

/* Every action call with a NULL or destroyed engine: the status, neutral outputs. */
static void every_function(caluna_engine *x, caluna_status want) {
    caluna_action a = kind_action(CALUNA_ACTION_NULL), o1 = anim_action(9), o2 = anim_action(9), o3 = anim_action(9),
                  o4 = anim_action(9);
    EXPECT(x, caluna_layer_set_action(x, 1, "k", &a), want);
    EXPECT(x, caluna_layer_action(x, 1, "k", &o1), want);
    EXPECT(x, caluna_layer_clear_actions(x, 1), want);
    EXPECT(x, caluna_layer_set_style_action(x, 1, 0, "k", &a), want);
    EXPECT(x, caluna_layer_style_action(x, 1, 0, "k", &o2), want);
    EXPECT(x, caluna_layer_clear_style(x, 1), want);
    EXPECT(x, caluna_layer_set_action_delegate(x, 1, NULL, NULL, NULL), want);
    EXPECT(x, caluna_layer_action_for_key(x, 1, "k", &o3), want);
    EXPECT(x, caluna_default_action_for_key(x, "opacity", &o4), want);
    CHECK(o1.kind == CALUNA_ACTION_CONTINUE && o1.animation == 0 && o2.animation == 0 && o3.animation == 0 &&
          o4.animation == 0, "failed reads leave CONTINUE");
}

static void test_bad_input(void) {
    caluna_layer l, dead = 0, pres = 0;
    caluna_engine *e = committed_scene(&l);
    caluna_action got, a = kind_action(CALUNA_ACTION_NULL);
    host h;

    host_init(&h, l);
    caluna_layer_create(e, &dead);
    caluna_layer_release(e, dead);
    caluna_layer_presentation(e, l, &pres);
    every_function(NULL, CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_action(e, l, NULL, &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_action(e, l, "\xff\xfe", &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set_action(e, dead, "k", callback_action(&h)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set_action(e, 0, "k", a), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set_action(e, pres, "k", callback_action(&h)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set_action(e, l, "k", kind_action((caluna_action_kind)4)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set_action(e, l, "k", kind_action((caluna_action_kind)-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set_action(e, l, "k", anim_action(0)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set_action(e, l, "k", anim_action(l)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set_action(e, l, "k", anim_action(0x0123456789abcdefULL)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set_action(e, l, "k", kind_action(CALUNA_ACTION_CALLBACK)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_style_action(e, l, 1000, "k", &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_style_action(e, l, 32, "k", &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_style_action(e, l, -1, "k", &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_set_style_action(e, l, 31, "k", &a));
    EXPECT(e, caluna_layer_style_action(e, l, 1000, "k", &got), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_style_action(e, l, 0, "k", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_action(e, l, "k", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_action(e, l, NULL, &got), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_action(e, dead, "k", &got), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_action_for_key(e, l, NULL, &got), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_action_for_key(e, l, "k", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_action_for_key(e, dead, "k", &got), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_default_action_for_key(e, "\xc3", &got), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_default_action_for_key(e, "opacity", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_clear_actions(e, dead), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_clear_style(e, pres), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_action_delegate(e, dead, on_delegate, &h, on_release), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_set_action_delegate(e, pres, on_delegate, &h, on_release), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(h.released == 0 && h.calls == 0, "failed calls took nothing over (no release ran)");
    EXPECT_OK(e, caluna_engine_destroy(e));
    CHECK(h.released == 0, "nor at destroy");
    every_function(e, CALUNA_ERR_STALE_HANDLE);
}

int main(void) {
    test_dictionary();
    test_callbacks();
    test_delegate();
    test_lookup_and_style();
    test_transition();
    test_lua_delegate();
    test_callback_errors();
    test_bad_input();
    return finish();
}
