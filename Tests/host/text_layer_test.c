/* CATextLayer through the C ABI: listing 6.3 (a red underlined "ipsum" in an attributed
 * string), the text properties through caluna_layer_set/get, the run accessors, the layout
 * counter, and hostile input (invalid UTF-8, NULLs, bad counts, wrong kinds, stale ids).
 * Spec: shared/spec/book-ch05-06.md §2.5, listings 6.2–6.4 (T6.3, T6.4). */
#include "check.h"
#include "pixels.h"
#include "scene.h"

#define LOREM_REST " dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius " \
    "in, facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque."

static caluna_text_run run(const char *text, uint32_t rgb, int underline) {
    caluna_text_run r;
    memset(&r, 0, sizeof r);
    r.text = text;
    r.font = "DejaVu Sans";
    r.font_size = 15;
    r.has_color = 1;
    r.color[0] = (double)((rgb >> 16) & 255) / 255.0;
    r.color[1] = (double)((rgb >> 8) & 255) / 255.0;
    r.color[2] = (double)(rgb & 255) / 255.0;
    r.color[3] = 1;
    r.underline = underline;
    return r;
}

static int is_red(const uint8_t *p) { return p[0] > 120 && p[0] - p[1] > 60 && p[0] - p[2] > 60; }

static int64_t layouts(caluna_engine *e) {
    caluna_stats s = caluna_stats_default();
    caluna_engine_stats(e, &s);
    return s.text_layouts;
}

int main(void) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 300;
    o.height = 200;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    caluna_layer root = 0, t = 0, plain = 0;
    caluna_root_layer(e, &root);
    lset(e, root, "backgroundColor", caluna_color(1, 1, 1, 1));

    /* T6.4: a text layer made by class name; defaults (T6.2). */
    EXPECT_OK(e, caluna_layer_create_class(e, "CATextLayer", &t));
    const char *cls = NULL;
    EXPECT_OK(e, caluna_layer_class_name(e, t, &cls));
    CHECK(cls && strcmp(cls, "CATextLayer") == 0, "class name CATextLayer");
    caluna_value v = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, t, "fontSize", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 36, "fontSize defaults to 36");
    EXPECT_OK(e, caluna_layer_get(e, t, "foregroundColor", &v));
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 1 && v.u.color.g == 1 && v.u.color.b == 1 && v.u.color.a == 1,
          "foregroundColor defaults to opaque white");
    EXPECT_OK(e, caluna_layer_get(e, t, "string", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "string defaults to NIL");
    EXPECT_OK(e, caluna_layer_get(e, t, "alignmentMode", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "natural") == 0, "alignmentMode natural");
    EXPECT_OK(e, caluna_layer_get(e, t, "truncationMode", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "none") == 0, "truncationMode none");
    EXPECT_OK(e, caluna_layer_get(e, t, "wrapped", &v));
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 0, "wrapped NO");
    EXPECT_OK(e, caluna_layer_get(e, t, "font", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "Helvetica") == 0, "font Helvetica");
    int32_t n = 7;
    EXPECT_OK(e, caluna_text_layer_get_run_count(e, t, &n));
    CHECK(n == -1, "no attributed string: run count -1 (got %d)", n);

    /* Listing 6.3: whole string black 15 pt; "ipsum" red, underlined; justified, wrapped. */
    EXPECT_OK(e, lset(e, t, "frame", caluna_rect(0, 0, 300, 200)));
    EXPECT_OK(e, lset(e, t, "alignmentMode", caluna_string("justified")));
    EXPECT_OK(e, lset(e, t, "wrapped", caluna_bool(1)));
    EXPECT_OK(e, lset(e, t, "foregroundColor", caluna_color(0, 1, 0, 1)));   /* ignored */
    caluna_text_run runs[3] = { run("Lorem ", 0x000000, 0), run("ipsum", 0xff0000, 1), run(LOREM_REST, 0x000000, 0) };
    EXPECT_OK(e, caluna_text_layer_set_attributed_string(e, t, runs, 3));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, t));
    EXPECT_OK(e, caluna_text_layer_get_run_count(e, t, &n));
    CHECK(n == 3, "3 runs (got %d)", n);
    caluna_text_run got;
    EXPECT_OK(e, caluna_text_layer_get_run(e, t, 1, &got));
    CHECK(got.text && strcmp(got.text, "ipsum") == 0 && got.font && strcmp(got.font, "DejaVu Sans") == 0,
          "run 1 reads back: text \"ipsum\", font DejaVu Sans");
    CHECK(got.font_size == 15 && got.has_color == 1 && got.color[0] == 1 && got.color[1] == 0 && got.underline == 1
          && got.strikethrough == 0 && got.kern == 0, "run 1 attributes read back");
    EXPECT_OK(e, caluna_layer_get(e, t, "string", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strncmp(v.u.string, "Lorem ipsum dolor", 17) == 0,
          "string reads the runs' text");

    EXPECT_OK(e, render(e));
    CHECK(layouts(e) == 1, "the first render lays the text out once");
    /* Red only inside "ipsum" on line 1; an underline row of red below the glyphs. */
    int minx = 1000, maxx = -1, maxy = -1, longest = 0, green = 0;
    for (int y = 0; y < ph; y++) {
        int runlen = 0;
        for (int x = 0; x < pw; x++) {
            const uint8_t *p = px(x, y);
            if (is_red(p)) {
                if (x < minx) minx = x;
                if (x > maxx) maxx = x;
                if (y > maxy) maxy = y;
                if (++runlen > longest) longest = runlen;
            } else {
                runlen = 0;
            }
            if (p[1] > 100 && p[1] - p[0] > 60 && p[1] - p[2] > 60) green++;
        }
    }
    CHECK(minx > 30 && maxx < 160 && maxx - minx > 30, "red spans one word near the start of line 1 (%d…%d)", minx, maxx);
    CHECK(maxy >= 0 && maxy < 20, "red stays on line 1 (lowest red row %d)", maxy);
    CHECK(longest >= (int)(0.9 * (maxx - minx + 1)), "an underline run of %d px across the word (%d px)", longest,
          maxx - minx + 1);
    CHECK(green == 0, "the layer's foregroundColor (green) is ignored with an attributed string");
    CHECK(is_rgb(299, 199, 0xffffff, 0), "the background shows below the text");

    /* Moving must not lay out again; a string change lays out once. */
    EXPECT_OK(e, lset(e, t, "position", caluna_point(160, 100)));
    EXPECT_OK(e, render(e));
    CHECK(layouts(e) == 0, "a move reuses the layout (%lld)", (long long)layouts(e));
    EXPECT_OK(e, lset(e, t, "string", caluna_string("Plain now")));
    EXPECT_OK(e, caluna_text_layer_get_run_count(e, t, &n));
    CHECK(n == -1, "a plain string replaces the attributed one");
    EXPECT_OK(e, render(e));
    CHECK(layouts(e) == 1, "a string change lays out once");

    /* Hostile input. */
    caluna_text_run bad = run("ok", 0, 0);
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, NULL, 2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, runs, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, runs, 5000), CALUNA_ERR_INVALID_ARGUMENT);
    bad.text = "\xff\xfe";
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(e), "not valid UTF-8") != NULL, "invalid UTF-8 is named: %s", caluna_last_error(e));
    bad.text = NULL;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.text = "ok";
    bad.font_size = NAN;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.font_size = -3;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.font_size = 15;
    bad.color[0] = INFINITY;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.color[0] = 0;
    bad.underline = 2;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.underline = 0;
    bad.reserved = 1;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.reserved = 0;
    bad.kern = NAN;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    bad.kern = 0;
    bad.font = "";
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_get(e, t, "string", &v), CALUNA_OK);
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "Plain now") == 0, "failed calls change nothing");
    EXPECT(e, caluna_text_layer_get_run(e, t, 0, &got), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(got.text == NULL, "a failed get zeroes the run");
    EXPECT(e, caluna_text_layer_get_run(e, t, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_text_layer_get_run_count(e, t, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "string", caluna_string("\xc3\x28")), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "fontSize", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "fontSize", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "alignmentMode", caluna_string("middle")), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "truncationMode", caluna_string("both")), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, t, "wrapped", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    /* Huge strings: the limit is 65536 bytes. */
    char *huge = (char *)malloc(65538);
    memset(huge, 'x', 65537);
    huge[65537] = 0;
    EXPECT(e, lset(e, t, "string", caluna_string(huge)), CALUNA_ERR_INVALID_ARGUMENT);
    bad.font = NULL;
    bad.text = huge;
    EXPECT(e, caluna_text_layer_set_attributed_string(e, t, &bad, 1), CALUNA_ERR_INVALID_ARGUMENT);
    huge[65536] = 0;
    EXPECT_OK(e, lset(e, t, "string", caluna_string(huge)));
    free(huge);
    /* Wrong kinds and stale ids. */
    EXPECT_OK(e, caluna_layer_create(e, &plain));
    EXPECT(e, caluna_text_layer_set_attributed_string(e, plain, runs, 3), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_text_layer_get_run_count(e, plain, &n), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, lset(e, plain, "fontSize", caluna_number(12)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT_OK(e, caluna_layer_release(e, plain));
    n = 7;
    EXPECT(e, caluna_text_layer_get_run_count(e, plain, &n), CALUNA_ERR_STALE_HANDLE);
    CHECK(n == 0, "a failed run count is 0, not the plain string's -1 (got %d)", n);
    EXPECT(e, caluna_text_layer_set_attributed_string(e, 0, runs, 3), CALUNA_ERR_STALE_HANDLE);
    EXPECT(NULL, caluna_text_layer_set_attributed_string(NULL, t, runs, 3), CALUNA_ERR_INVALID_ARGUMENT);
    /* Clearing. */
    EXPECT_OK(e, caluna_text_layer_set_attributed_string(e, t, runs, 3));
    EXPECT_OK(e, caluna_text_layer_set_attributed_string(e, t, NULL, 0));
    EXPECT_OK(e, caluna_layer_get(e, t, "string", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "NULL, 0 clears the string");
    EXPECT_OK(e, render(e));

    caluna_layer_release(e, t);
    caluna_engine_destroy(e);
    free(pixels);
    return finish();
}
