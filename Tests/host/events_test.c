/* Input through the C ABI (1.6): sending pointer, key, tilt, resize and custom events;
 * handlers on layers and on the engine with caluna_event; bubbling and consumption; tap and
 * pan with setTranslation; capture; scripted JSON input; events reaching Lua handlers; and
 * hostile calls (NULL, NaN, bad types, stale handler ids, calls refused inside handlers). */
#include "check.h"
#include "scene.h"

#define MAX_LOG 64
typedef struct {
    int n;
    caluna_event ev[MAX_LOG];
    char name[MAX_LOG][32];
    char key[MAX_LOG][16];
    char text[MAX_LOG][16];
    char payload[MAX_LOG][128];
    int consume;        /* what the handler returns */
    const char *tag;    /* which handler recorded it */
    const char *tags[MAX_LOG];
} event_log;

static void copy_string(char *dst, size_t size, const char *src) {
    if (src == NULL) { dst[0] = '\0'; return; }
    snprintf(dst, size, "%s", src);
}

static int32_t record(caluna_engine *e, const caluna_event *ev, void *user) {
    (void)e;
    event_log *log = (event_log *)user;
    if (log->n < MAX_LOG) {
        log->ev[log->n] = *ev;
        copy_string(log->name[log->n], sizeof log->name[0], ev->name);
        copy_string(log->key[log->n], sizeof log->key[0], ev->key);
        copy_string(log->text[log->n], sizeof log->text[0], ev->text);
        copy_string(log->payload[log->n], sizeof log->payload[0], ev->payload_json);
        log->tags[log->n] = log->tag;
        log->n++;
    }
    return log->consume;
}

/* Records, then resets the pan's translation (listing 9.4's pattern). */
static int32_t record_and_reset(caluna_engine *e, const caluna_event *ev, void *user) {
    record(e, ev, user);
    caluna_pan_set_translation(e, ev->pointer_id, 0, 0);
    return 1;
}

static caluna_status step_result;
static int32_t try_to_step(caluna_engine *e, const caluna_event *ev, void *user) {
    (void)ev; (void)user;
    step_result = caluna_engine_step(e, 1);
    return 0;
}

static void set_frame(caluna_engine *e, caluna_layer l, double x, double y, double w, double h) {
    caluna_value f = caluna_rect(x, y, w, h);
    caluna_layer_set(e, l, "frame", &f);
}

int main(void) {
    caluna_engine *e = new_engine();
    EXPECT_OK(e, caluna_engine_set_size(e, 200, 200, 1));
    caluna_layer a = new_layer(e, 0), b = new_layer(e, a);
    set_frame(e, a, 0, 0, 100, 100);
    set_frame(e, b, 25, 25, 50, 50);
    EXPECT_OK(e, caluna_engine_step(e, 0));

    /* --- a tap bubbles from b; b consumes it, so a and the engine never see it --- */
    event_log lb = {0}, la = {0}, lg = {0};
    lb.consume = 1; lb.tag = "b"; la.tag = "a"; lg.tag = "engine";
    caluna_handler hb = 0, ha = 0, hg = 0;
    EXPECT_OK(e, caluna_layer_on(e, b, "tap", record, &lb, &hb));
    EXPECT_OK(e, caluna_layer_on(e, a, "tap", record, &la, &ha));
    EXPECT_OK(e, caluna_on(e, "tap", record, &lg, &hg));
    CHECK(hb != 0 && ha != 0 && hg != 0 && hb != ha, "handler ids");
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 7, 50, 50, CALUNA_BUTTON_PRIMARY, CALUNA_MOD_SHIFT, 0.5));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 7, 52, 50, 0, 0, 0.5));
    int32_t pending = 0;
    EXPECT_OK(e, caluna_pending_event_count(e, &pending));
    CHECK(pending == 2, "two events wait (%d)", pending);
    EXPECT_OK(e, caluna_engine_step(e, 0.25));
    CHECK(lb.n == 0, "nothing before its time");
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(lb.n == 1 && la.n == 0 && lg.n == 0, "b consumed the tap (b %d, a %d, engine %d)", lb.n, la.n, lg.n);
    if (lb.n == 1) {
        const caluna_event *t = &lb.ev[0];
        CHECK(t->type == CALUNA_EVENT_TAP && strcmp(lb.name[0], "tap") == 0, "type tap, name %s", lb.name[0]);
        CHECK(t->time == 0.5, "delivered at its own time 0.5 (%g)", t->time);
        CHECK(t->pointer_id == 7 && t->x == 52 && t->y == 50, "pointer 7 at the up (%g, %g)", t->x, t->y);
        CHECK(t->target == b && t->current_target == b, "target and current target are b");
    }
    /* b stops consuming: a, then the engine */
    lb.consume = 0; lb.n = 0;
    EXPECT_OK(e, caluna_send_json(e, "{\"type\": \"tap\", \"x\": 30, \"y\": 30}"));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(lb.n == 1 && la.n == 1 && lg.n == 1, "bubbled b → a → engine");
    CHECK(la.n == 1 && la.ev[0].target == b && la.ev[0].current_target == a, "a sees target b, current a");
    CHECK(lg.n == 1 && lg.ev[0].current_target == 0, "the engine handler has no current layer");
    /* removing a handler makes its id stale */
    EXPECT_OK(e, caluna_off(e, hb));
    EXPECT(e, caluna_off(e, hb), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_off(e, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_off(e, a), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_off(e, ha));
    EXPECT_OK(e, caluna_off(e, hg));

    /* --- pan: a drag of −100 in five moves, the translation reset by each handler --- */
    event_log lp = {0};
    caluna_handler hp = 0;
    EXPECT_OK(e, caluna_layer_on(e, a, "pan", record_and_reset, &lp, &hp));
    EXPECT_OK(e, caluna_send_json(e, "{\"type\": \"drag\", \"from\": [150, 50], \"to\": [50, 50], \"duration\": 0.5, \"steps\": 5, \"time\": 2}"));
    EXPECT_OK(e, caluna_engine_advance(e, 3));
    CHECK(lp.n == 0, "the drag began outside a: its pan never reaches a (%d)", lp.n);
    EXPECT_OK(e, caluna_send_json(e, "{\"type\": \"drag\", \"from\": [90, 50], \"to\": [-10, 50], \"duration\": 0.5, \"steps\": 5, \"time\": 3}"));
    EXPECT_OK(e, caluna_engine_advance(e, 4));
    CHECK(lp.n == 6, "began, 4 changed, ended (%d)", lp.n);
    double sum = 0;
    for (int i = 0; i < lp.n; i++) sum += lp.ev[i].translation_x;
    CHECK(lp.n == 6 && lp.ev[0].phase == CALUNA_PAN_BEGAN && lp.ev[4].phase == CALUNA_PAN_CHANGED &&
          lp.ev[5].phase == CALUNA_PAN_ENDED, "phases");
    CHECK(near(sum, -100, 1e-9), "the translations sum to −100 (%g)", sum);
    CHECK(lp.n == 6 && near(lp.ev[2].velocity_x, -200, 1e-6) && lp.ev[2].velocity_y == 0, "velocity −200 pt/s");
    CHECK(lp.n == 6 && lp.ev[3].target == a, "captured by a after leaving it (x = %g)", lp.ev[3].x);
    EXPECT(e, caluna_pan_set_translation(e, 1, 0, 0), CALUNA_ERR_INVALID_ARGUMENT);

    /* --- key, tilt, custom and resize reach the engine's handlers --- */
    event_log lk = {0}, lt = {0}, lc = {0}, lr = {0};
    caluna_handler h = 0;
    EXPECT_OK(e, caluna_on(e, "keydown", record, &lk, &h));
    EXPECT_OK(e, caluna_on(e, "tilt", record, &lt, &h));
    EXPECT_OK(e, caluna_on(e, "score", record, &lc, &h));
    EXPECT_OK(e, caluna_on(e, "resize", record, &lr, &h));
    EXPECT_OK(e, caluna_send_key(e, CALUNA_EVENT_KEY_DOWN, "a", "A", CALUNA_MOD_SHIFT, CALUNA_NOW));
    EXPECT_OK(e, caluna_send_tilt(e, 0.4, 0.92, -0.1, CALUNA_NOW));
    EXPECT_OK(e, caluna_send_custom(e, "score", "{\"points\": 3, \"tags\": [\"x\", true]}", CALUNA_NOW));
    EXPECT_OK(e, caluna_send_resize(e, 300, 150, 2, CALUNA_NOW));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(lk.n == 1 && strcmp(lk.key[0], "a") == 0 && strcmp(lk.text[0], "A") == 0 && lk.ev[0].modifiers == CALUNA_MOD_SHIFT,
          "key a / A with shift");
    CHECK(lt.n == 1 && lt.ev[0].tilt_x == 0.4 && lt.ev[0].tilt_y == 0.92 && lt.ev[0].tilt_z == -0.1, "tilt vector");
    CHECK(lc.n == 1 && strcmp(lc.payload[0], "{\"points\":3,\"tags\":[\"x\",true]}") == 0 && lc.ev[0].type == CALUNA_EVENT_CUSTOM,
          "custom payload %s", lc.n ? lc.payload[0] : "");
    CHECK(lr.n == 1 && lr.ev[0].width == 300 && lr.ev[0].height == 150 && lr.ev[0].scale == 2, "resize event");
    int32_t pw = 0, ph = 0;
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 600 && ph == 300, "the output was resized (%d×%d)", pw, ph);

    /* --- hit testing: presentation vs model tree --- */
    caluna_layer hit = 0;
    EXPECT_OK(e, caluna_hit_layer(e, 50, 50, &hit));
    CHECK(hit == b, "b is hit at (50, 50)");
    EXPECT_OK(e, caluna_set_hit_test_tree(e, 0));
    EXPECT_OK(e, caluna_hit_layer(e, 10, 10, &hit));
    CHECK(hit == a, "a is hit at (10, 10) in the model tree");
    EXPECT(e, caluna_set_hit_test_tree(e, 2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_set_hit_test_tree(e, 1));

    /* --- capture: pointer 3 goes down on the root, is moved to b --- */
    event_log lm = {0};
    EXPECT_OK(e, caluna_layer_on(e, b, "pointermove", record, &lm, &h));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 3, 150, 120, 1, 0, CALUNA_NOW));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_pointer_capture(e, 3, b));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_MOVE, 3, 160, 120, 1, 0, CALUNA_NOW));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 3, 160, 120, 0, 0, CALUNA_NOW));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(lm.n == 1 && lm.ev[0].target == b && lm.ev[0].x == 160, "the captured move reached b");
    EXPECT(e, caluna_pointer_capture(e, 3, b), CALUNA_ERR_INVALID_ARGUMENT);

    /* --- Lua handlers receive C events --- */
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "ca.on('tap', function(e) ca.root.name = string.format('tap %g %g', e.x, e.y) end)\n"
        "ca.on('score', function(e) ca.root.name = 'score ' .. e.data.points end)\n", "handlers.lua"));
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 12, 34, 1, 0, CALUNA_NOW));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 1, 12, 34, 0, 0, CALUNA_NOW));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    caluna_value v = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, root, "name", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "tap 12 34") == 0, "a Lua handler saw the C tap (%s)",
          v.type == CALUNA_TYPE_STRING ? v.u.string : "?");
    EXPECT_OK(e, caluna_send_custom(e, "score", "{\"points\": 9}", CALUNA_NOW));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_layer_get(e, root, "name", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "score 9") == 0, "Lua got the custom payload");

    /* --- hostile calls --- */
    EXPECT(NULL, caluna_send_pointer(NULL, CALUNA_EVENT_POINTER_DOWN, 1, 0, 0, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, 99, 1, 0, 0, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_KEY_DOWN, 1, 0, 0, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, NAN, 0, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 0, INFINITY, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 0, 0, -1, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 0, 0, 0, 0x100, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 0, 0, 0, 0, -2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 0, 0, 0, 0, NAN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_key(e, CALUNA_EVENT_KEY_DOWN, NULL, NULL, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_key(e, CALUNA_EVENT_KEY_DOWN, "", NULL, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_key(e, CALUNA_EVENT_KEY_DOWN, "\xff\xfe", NULL, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_tilt(e, NAN, 0, 0, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_resize(e, 0, 10, 1, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_resize(e, 1e9, 1e9, 1, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_resize(e, 10, 10, NAN, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_custom(e, "tap", NULL, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_custom(e, NULL, NULL, CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_custom(e, "x", "{\"a\": ", CALUNA_NOW), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_json(e, "{\"type\": \"warp\"}"), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_send_json(e, "{\"type\": \"tap\", \"x\": 1}"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_send_json(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    int32_t n = -1;
    EXPECT(e, caluna_load_events(e, "/nonexistent/input.jsonl", &n), CALUNA_ERR_IO);
    CHECK(n == 0, "count is 0 after a failed load");
    EXPECT(e, caluna_load_events(e, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_pending_event_count(e, &pending));
    CHECK(pending == 0, "nothing was queued by the bad calls (%d)", pending);
    EXPECT(e, caluna_pending_event_count(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_on(e, "tap", NULL, NULL, &h), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_on(e, "tap", record, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_on(e, NULL, record, NULL, &h), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_on(e, "Tap", record, NULL, &h), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_on(e, a, "keydown", record, NULL, &h), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_on(e, 12345, "tap", record, NULL, &h), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_hit_layer(e, NAN, 0, &hit), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_hit_layer(e, 0, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pan_set_translation(e, 42, 0, 0), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pointer_capture(e, 42, 0), CALUNA_ERR_INVALID_ARGUMENT);

    /* a handler may not step; the step that ran it goes on */
    caluna_handler hs = 0;
    EXPECT_OK(e, caluna_on(e, "nested", try_to_step, NULL, &hs));
    EXPECT_OK(e, caluna_send_custom(e, "nested", NULL, CALUNA_NOW));
    step_result = CALUNA_OK;
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(step_result == CALUNA_ERR_INVALID_ARGUMENT, "step from a handler is refused (%s)", caluna_status_name(step_result));

    /* handlers of a destroyed layer go stale with it */
    caluna_layer c = 0;
    EXPECT_OK(e, caluna_layer_create(e, &c));
    caluna_handler hc = 0;
    EXPECT_OK(e, caluna_layer_on(e, c, "tap", record, &la, &hc));
    EXPECT_OK(e, caluna_layer_release(e, c));
    EXPECT(e, caluna_off(e, hc), CALUNA_ERR_STALE_HANDLE);

    /* the engine still works */
    uint8_t px[600 * 300 * 4];
    EXPECT_OK(e, caluna_render(e, px, sizeof px, 600, 300, 600 * 4, CALUNA_RGBA8_STRAIGHT));
    EXPECT_OK(e, caluna_engine_destroy(e));
    return finish();
}
