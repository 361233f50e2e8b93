/* libFuzzer target: the input is a Lua chunk, run as an untrusted scene in a fresh sandboxed
 * engine (64 MiB, 200,000 instructions, 50 ms, no file grants), then stepped and rendered by
 * the host at 64 × 64 points as a real host would. Any status is fine; a crash, a sanitizer
 * report, an undocumented status, a failure without a message, or a thread, descriptor or
 * signal handler left behind is a bug (common/fuzz_common.h).
 * Built by scripts/fuzz with lua_mutator.c (token-level mutations). */
#include "../common/fuzz_common.h"
#include <stdint.h>

enum { SIZE = 64, MAX_PIXELS = 128 * 128 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t pixels[MAX_PIXELS * 4];
    fz_input = data;
    fz_input_size = size;
    /* load_string takes a C string: a NUL ends the chunk, as it would for any host. */
    char *source = malloc(size + 1);
    if (!source) return 0;
    memcpy(source, data, size);
    source[size] = '\0';

    caluna_engine_options opts = caluna_engine_options_default();
    opts.width = SIZE;
    opts.height = SIZE;
    caluna_engine *e = NULL;
    caluna_status s = caluna_engine_create(&opts, &e);
    fz_check_status(NULL, s, "caluna_engine_create");
    if (s != CALUNA_OK) fz_fail("caluna_engine_create failed: %s", caluna_last_error(NULL));

    /* Small limits keep one input short: the median input takes about a millisecond, and
     * those that run to the time limit took most of the run's time at 0.25 s. print goes
     * nowhere useful: a little output is allowed so the limit's own path runs. */
    caluna_sandbox_options sb;
    memset(&sb, 0, sizeof sb);
    sb.struct_size = sizeof sb;
    sb.memory_limit = 64u << 20;
    sb.instruction_limit = 200000;
    sb.time_limit = 0.05;
    sb.output_limit = 256;
    s = caluna_engine_set_sandbox_options(e, &sb);
    fz_check_status(e, s, "caluna_engine_set_sandbox_options");
    if (s != CALUNA_OK) fz_fail("the sandbox was refused: %s", caluna_last_error(e));

    s = caluna_engine_load_string(e, source, "fuzz");
    fz_check_status(e, s, "caluna_engine_load_string");

    /* The host's frames: steps (which run the script's callbacks) and renders, as
     * examples/hosts/sandboxed.c does them: only for a scene that loaded (a script stopped by
     * its limits may have left work half done, such as a world half-way to a far time). A
     * script may have resized the output; a host renders what fits its buffer. */
    for (int frame = 0; frame < 3 && s == CALUNA_OK; frame++) {
        s = caluna_engine_step(e, 1.0 / 30);
        fz_check_status(e, s, "caluna_engine_step");
        int32_t w = 0, h = 0;
        s = caluna_engine_pixel_size(e, &w, &h);
        fz_check_status(e, s, "caluna_engine_pixel_size");
        if (s == CALUNA_OK && frame == 2 && (int64_t)w * h <= MAX_PIXELS) {
            s = caluna_render(e, pixels, sizeof pixels, w, h, w * 4, CALUNA_RGBA8_PREMULTIPLIED);
            fz_check_status(e, s, "caluna_render");
        }
    }
    s = caluna_engine_destroy(e);
    fz_check_status(NULL, s, "caluna_engine_destroy");
    if (s != CALUNA_OK) fz_fail("caluna_engine_destroy failed: %s", caluna_last_error(NULL));
    free(source);
    fz_process_check();
    return 0;
}
