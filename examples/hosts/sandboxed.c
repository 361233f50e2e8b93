/* Run a scene you do not trust: no files but one output directory, 64 MiB for the
 * script's Lua heap and engine memory together, 10 million instructions, 2 s of script
 * time. Whatever the scene does, this host gets a status and carries on
 * (docs/sandbox.md).
 *
 *   cc sandboxed.c $(pkg-config --cflags --libs caluna) -o sandboxed
 *   ./sandboxed untrusted.lua out/       # out/ must exist; the scene may write only there
 */
#include <caluna.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s scene.lua output-directory\n", argv[0]);
        return 2;
    }
    caluna_engine *e = NULL;
    if (caluna_engine_create(NULL, &e) != CALUNA_OK) return 1;
    const char *const writable[] = { argv[2], NULL };
    caluna_sandbox_options sb = { sizeof sb, 64u << 20, 10000000, 2.0, 0, NULL, writable };
    caluna_status s = caluna_engine_set_sandbox_options(e, &sb);
    if (s == CALUNA_OK) s = caluna_engine_load_file(e, argv[1]);
    for (int frame = 0; s == CALUNA_OK && frame < 60; frame++) s = caluna_engine_step(e, 1.0 / 60);
    if (s == CALUNA_ERR_LIMIT) {
        printf("the sandbox stopped the scene: %s\n", caluna_last_error(e));
    } else if (s != CALUNA_OK) {
        printf("the scene failed (%s): %s\n", caluna_status_name(s), caluna_last_error(e));
    } else {
        printf("the scene ran 60 frames\n");
    }
    caluna_engine_destroy(e);
    return s == CALUNA_OK ? 0 : 1;
}
