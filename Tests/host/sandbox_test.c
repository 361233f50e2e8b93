/* The untrusted-script sandbox through the C ABI: hostile scripts (endless
 * loops, memory bombs, file access, binary chunks) fail with a status, and the
 * engine keeps working afterwards. */
#include "check.h"
#include <stdlib.h>

static caluna_engine *sandboxed(uint64_t memory, int64_t instructions) {
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(e, caluna_engine_set_sandbox(e, memory, instructions));
    return e;
}

/* The engine still renders after whatever went wrong. */
static void still_renders(caluna_engine *e, const char *after) {
    int32_t w = 0, h = 0;
    caluna_engine_pixel_size(e, &w, &h);
    size_t size = (size_t)w * (size_t)h * 4;
    unsigned char *buf = malloc(size);
    CHECK(buf != NULL && caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT) == CALUNA_OK,
          "the engine still renders after %s", after);
    free(buf);
}

static void message_has(caluna_engine *e, const char *text) {
    CHECK(strstr(caluna_last_error(e), text) != NULL, "message mentions \"%s\": %s", text, caluna_last_error(e));
}

int main(void) {
    caluna_engine *e = sandboxed(16u << 20, 1000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "assert(io == nil and os == nil and package == nil and debug == nil)\n"
        "assert(dofile == nil and loadfile == nil)\n"
        "local ca = require 'caluna'\n"
        "ca.root.backgroundColor = 'red'\n", "libs"));
    caluna_layer root = 0;
    caluna_value v;
    EXPECT_OK(e, caluna_root_layer(e, &root));
    EXPECT_OK(e, caluna_layer_get(e, root, "backgroundColor", &v));
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 1 && v.u.color.g == 0, "the sandboxed script drove the engine");
    EXPECT(e, caluna_engine_load_string(e, "require 'os'", "require"), CALUNA_ERR_SCRIPT);
    message_has(e, "not available in the sandbox");
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local f, err = load(string.dump(function() end))\n"
        "assert(f == nil and err:find('binary'), err)\n"
        "assert(load('return 1 + 1')() == 2)\n", "binary chunks"));
    EXPECT(e, caluna_engine_load_string(e, "while true do end", "spin"), CALUNA_ERR_SCRIPT);
    message_has(e, "instruction budget exhausted");
    still_renders(e, "an endless loop");
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);

    /* A memory bomb hits the cap; the engine carries on. */
    e = sandboxed(8u << 20, 1000000000);
    EXPECT(e, caluna_engine_load_string(e, "local t = {} for i = 1, 1e8 do t[i] = {i} end", "bomb"), CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    EXPECT(e, caluna_engine_load_string(e, "local s = string.rep('x', 1 << 30)", "rep"), CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    EXPECT_OK(e, caluna_engine_load_string(e, "collectgarbage() local t = {} for i = 1, 1000 do t[i] = i end", "small"));
    still_renders(e, "a memory bomb");
    caluna_engine_destroy(e);

    /* Limits also hold inside callbacks that the engine runs later. */
    e = sandboxed(8u << 20, 1000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.Layer{ bounds = {0, 0, 10, 10} }\n"
        "ca.root:addSublayer(l)\n"
        "l.layoutSublayers = function() while true do end end\n", "callback"));
    EXPECT(e, caluna_engine_step(e, 1.0 / 60), CALUNA_ERR_SCRIPT);
    message_has(e, "instruction budget exhausted");
    caluna_engine_destroy(e);
    e = sandboxed(8u << 20, 1000000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.Layer{ bounds = {0, 0, 10, 10} }\n"
        "ca.root:addSublayer(l)\n"
        "l.layoutSublayers = function() local t = {} for i = 1, 1e8 do t[i] = {i} end end\n", "callback"));
    EXPECT(e, caluna_engine_step(e, 1.0 / 60), CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    caluna_engine_destroy(e);

    /* Bad limits. */
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT(e, caluna_engine_set_sandbox(e, 1000, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, 10), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, -5), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_engine_set_sandbox(NULL, 16u << 20, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(io ~= nil)", "unsandboxed"));
    caluna_engine_destroy(e);
    return finish();
}
