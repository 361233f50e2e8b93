/* Random calls through the whole C ABI with random ids (live, released,
 * foreign, 0, garbage), keys, value types and payloads (NaN, infinities,
 * huge, negative). Deterministic (fixed seed). Every call must return a known
 * status, every failure must explain itself, and afterwards the engine must
 * still render a known picture. Nothing may crash. */
#include "check.h"
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng = 0x2026112220261122ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static int below(int n) { return (int)(next() % (uint64_t)n); }

static double number(void) {
    static const double specials[] = { 0.0, -1.0, 0.5, 1e300, -1e300, 1e9, 2.0, 100.0 };
    switch (below(6)) {
    case 0: return NAN;
    case 1: return below(2) ? INFINITY : -INFINITY;
    case 2: return specials[below(8)];
    default: return (double)below(400) - 100.0;
    }
}

static caluna_value value(void) {
    caluna_value v;
    memset(&v, 0, sizeof v);
    v.type = (caluna_value_type)below(12);          /* 11 is not a type at all */
    switch (v.type) {
    case CALUNA_TYPE_NUMBER: v.u.number = number(); break;
    case CALUNA_TYPE_BOOL: v.u.boolean = below(3) - 1; break;
    case CALUNA_TYPE_STRING: {
        static const char *strings[] = { "red", "", "layer", "\xff\xfe not utf-8", NULL };
        v.u.string = strings[below(5)];
        break;
    }
    case CALUNA_TYPE_POINT: v.u.point.x = number(); v.u.point.y = number(); break;
    case CALUNA_TYPE_SIZE: v.u.size.width = number(); v.u.size.height = number(); break;
    case CALUNA_TYPE_RECT:
        v.u.rect.x = number(); v.u.rect.y = number(); v.u.rect.width = number(); v.u.rect.height = number();
        break;
    case CALUNA_TYPE_COLOR: v.u.color.r = number(); v.u.color.g = 0.5; v.u.color.b = 0.5; v.u.color.a = 1; break;
    case CALUNA_TYPE_TRANSFORM:
        for (int i = 0; i < 16; i++) v.u.transform[i] = (i % 5 == 0) ? 1.0 : 0.0;
        v.u.transform[below(16)] = number();
        break;
    default: break;
    }
    return v;
}

static const char *keys[] = { "position", "position.x", "bounds", "bounds.size.width", "frame", "anchorPoint",
    "zPosition", "transform", "affineTransform", "hidden", "opacity", "backgroundColor", "masksToBounds",
    "geometryFlipped", "name", "cornerRadius", "nope", "", ".", "position.", "bounds.origin.z", NULL };

int main(void) {
    caluna_engine *e = NULL, *other = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(NULL, caluna_engine_create(NULL, &other));
    caluna_layer foreign = 0, root = 0;
    EXPECT_OK(other, caluna_layer_create(other, &foreign));
    EXPECT_OK(e, caluna_root_layer(e, &root));

    enum { POOL = 12 };
    caluna_layer ids[POOL] = { 0 };
    ids[0] = root;
    int unknown_status = 0, silent_failure = 0, ok = 0, failed = 0;
    for (int i = 0; i < 50000; i++) {
        /* Keep the pool stocked with live, released and odd ids. */
        int slot = below(POOL);
        if (below(20) == 0 && slot != 0) {
            switch (below(4)) {
            case 0: caluna_layer_create(e, &ids[slot]); break;
            case 1: caluna_layer_release(e, ids[slot]); break;           /* may leave it stale */
            case 2: ids[slot] = foreign; break;
            default: ids[slot] = next(); break;                            /* garbage */
            }
        }
        caluna_layer a = ids[below(POOL)], b = ids[below(POOL)], c = ids[below(POOL)];
        caluna_value v = value(), out;
        const char *key = keys[below((int)(sizeof keys / sizeof keys[0]))];
        double d1 = 0, d2 = 0, d3 = 0, d4 = 0;
        int32_t n = 0;
        caluna_layer l = 0;
        caluna_status s;
        switch (below(20)) {
        case 0: s = caluna_layer_set(e, a, key, &v); break;
        case 1: s = caluna_layer_set(e, a, key, &v); break;
        case 2: s = caluna_layer_get(e, a, key, &out); break;
        case 3: s = caluna_layer_add_sublayer(e, a, b); break;
        case 4: s = caluna_layer_insert_sublayer(e, a, b, below(6) - 2); break;
        case 5: s = caluna_layer_insert_sublayer_above(e, a, b, c); break;
        case 6: s = caluna_layer_insert_sublayer_below(e, a, b, c); break;
        case 7: s = caluna_layer_replace_sublayer(e, a, b, c); break;
        case 8: s = caluna_layer_remove_from_superlayer(e, a); break;
        case 9: s = caluna_layer_convert_point(e, a, b, number(), number(), &d1, &d2); break;
        case 10: s = caluna_layer_convert_rect(e, a, b, number(), number(), number(), number(), &d1, &d2, &d3, &d4); break;
        case 11: s = caluna_layer_hit_test(e, a, number(), number(), &l); break;
        case 12: s = caluna_layer_contains_point(e, a, number(), number(), &n); break;
        case 13: s = caluna_layer_sublayer_at(e, a, below(5) - 1, &l); break;
        case 14: s = caluna_layer_set_needs_layout(e, a); break;
        case 15: s = caluna_engine_step(e, below(4) ? 1.0 / 60 : number()); break;
        case 16: s = caluna_engine_set_size(e, number(), number(), below(2) ? 1.0 : number()); break;
        case 17: {
            int32_t w = 0, h = 0;
            caluna_engine_pixel_size(e, &w, &h);
            static uint8_t buf[64 * 64 * 4];
            size_t need = (size_t)w * (size_t)h * 4;
            /* Honest sizes only: a host that lies about its buffer is beyond any library's help. */
            s = need <= sizeof buf ? caluna_render(e, buf, sizeof buf, w, h, w * 4, (caluna_pixel_format)below(5))
                                   : caluna_render(e, buf, sizeof buf, 64, 64, 256, CALUNA_RGBA8_STRAIGHT);
            break;
        }
        case 18: s = caluna_layer_layout_if_needed(e, a); break;
        default: s = caluna_layer_find(e, key, &l); break;
        }
        if (s == CALUNA_OK) {
            ok++;
        } else {
            failed++;
            if ((int)s < 1 || (int)s > 9) unknown_status++;
            const char *msg = caluna_last_error(e);
            if (msg == NULL || msg[0] == '\0') silent_failure++;
        }
    }
    CHECK(unknown_status == 0, "every status is a documented one (%d unknown)", unknown_status);
    CHECK(silent_failure == 0, "every failure has a message (%d silent)", silent_failure);
    CHECK(ok > 5000 && failed > 5000, "both paths exercised: %d ok, %d failed", ok, failed);

    /* A clean state still renders a known picture. */
    EXPECT_OK(e, caluna_engine_set_size(e, 8, 8, 1));
    int32_t count = 0;
    caluna_layer_sublayer_count(e, root, &count);
    while (count > 0) {
        caluna_layer sub = 0;
        caluna_layer_sublayer_at(e, root, 0, &sub);
        caluna_layer_remove_from_superlayer(e, sub);
        caluna_layer_sublayer_count(e, root, &count);
    }
    caluna_value t = caluna_transform_identity();
    EXPECT_OK(e, caluna_layer_set(e, root, "transform", &t));
    caluna_value f = caluna_rect(0, 0, 8, 8), yes = caluna_bool(0), one = caluna_number(1), red = caluna_color(1, 0, 0, 1);
    EXPECT_OK(e, caluna_layer_set(e, root, "frame", &f));
    EXPECT_OK(e, caluna_layer_set(e, root, "hidden", &yes));
    EXPECT_OK(e, caluna_layer_set(e, root, "opacity", &one));
    EXPECT_OK(e, caluna_layer_set(e, root, "backgroundColor", &red));
    uint8_t px[8 * 8 * 4];
    EXPECT_OK(e, caluna_render(e, px, sizeof px, 8, 8, 32, CALUNA_RGBA8_STRAIGHT));
    CHECK(px[4 * 36] == 255 && px[4 * 36 + 1] == 0 && px[4 * 36 + 3] == 255, "the engine renders red after the storm");
    caluna_engine_destroy(other);
    caluna_engine_destroy(e);
    return finish();
}
