/* fastpath_test.c — caluna_layer_set's typed fast path against the general path.
 * A seeded sequence of sets (numbers with NaN and infinities, flags, points, sizes, rects,
 * strings, nil; known and unknown keys; before and after the layer is committed) is run
 * twice: in a child process with CALUNA_NO_FAST_PATHS=1 (every key through the general
 * path) and here. Each run writes a transcript — every status, error message and the value
 * of every key read back after each set — and the two must be byte for byte the same. */
#define _XOPEN_SOURCE 700
#include "check.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *keys[] = {
    "opacity", "zPosition", "anchorPointZ", "cornerRadius", "borderWidth", "shadowOpacity", "shadowRadius",
    "contentsScale", "rasterizationScale", "speed", "timeOffset", "repeatCount", "hidden", "masksToBounds",
    "doubleSided", "geometryFlipped", "position", "anchorPoint", "shadowOffset", "bounds", "frame",
    "contentsRect", "name", "backgroundColor", "position.x", "bounds.size", "nope",
};
#define KEY_COUNT ((int)(sizeof keys / sizeof keys[0]))
static const double numbers[] = { 0, 1, -1, 0.5, 2.5, 64, 65, 1e9, -1e9, NAN, INFINITY, -INFINITY, 3 };
#define NUMBER_COUNT ((int)(sizeof numbers / sizeof numbers[0]))

static unsigned long long state;
static int roll(int n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((state >> 33) % (unsigned long long)n);
}
static double number(void) { return numbers[roll(NUMBER_COUNT)]; }

static caluna_value random_value(void) {
    switch (roll(8)) {
    case 0: case 1: case 2: return caluna_number(number());
    case 3: return caluna_bool(roll(2));
    case 4: { double x = number(); return caluna_point(x, number()); }
    case 5: { double w = number(); return caluna_size(w, number()); }
    case 6: { double x = number(), y = number(), w = number(); return caluna_rect(x, y, w, number()); }
    default: return roll(2) ? caluna_string("red") : caluna_nil();
    }
}

static void print_value(FILE *f, const caluna_value *v) {
    fprintf(f, "type %d", (int)v->type);
    switch (v->type) {
    case CALUNA_TYPE_NUMBER: fprintf(f, " %.17g", v->u.number); break;
    case CALUNA_TYPE_BOOL: fprintf(f, " %d", v->u.boolean); break;
    case CALUNA_TYPE_STRING: fprintf(f, " %s", v->u.string ? v->u.string : "(null)"); break;
    case CALUNA_TYPE_POINT: fprintf(f, " %.17g %.17g", v->u.point.x, v->u.point.y); break;
    case CALUNA_TYPE_SIZE: fprintf(f, " %.17g %.17g", v->u.size.width, v->u.size.height); break;
    case CALUNA_TYPE_RECT: fprintf(f, " %.17g %.17g %.17g %.17g", v->u.rect.x, v->u.rect.y, v->u.rect.width, v->u.rect.height); break;
    case CALUNA_TYPE_COLOR: fprintf(f, " %.17g %.17g %.17g %.17g", v->u.color.r, v->u.color.g, v->u.color.b, v->u.color.a); break;
    default: break;
    }
}

/* The transcript of one seeded run. */
static void run(FILE *f, unsigned long long seed, int count) {
    state = seed;
    caluna_engine *e = NULL;
    if (caluna_engine_create(NULL, &e) != CALUNA_OK) { fprintf(f, "no engine\n"); return; }
    caluna_layer layer = 0, root = 0;
    caluna_layer_create(e, &layer);
    caluna_root_layer(e, &root);
    for (int i = 0; i < count; i++) {
        if (i == count / 3) { caluna_layer_add_sublayer(e, root, layer); caluna_engine_step(e, 0); }
        if (i % 50 == 49) caluna_engine_step(e, 1.0 / 60);
        const char *key = keys[roll(KEY_COUNT)];
        caluna_value v = random_value();
        caluna_status s = caluna_layer_set(e, layer, key, &v);
        fprintf(f, "%d set %s = ", i, key);
        print_value(f, &v);
        fprintf(f, ": %d %s\n", (int)s, s == CALUNA_OK ? "" : caluna_last_error(e));
        for (int k = 0; k < KEY_COUNT; k++) {
            caluna_value out;
            caluna_status g = caluna_layer_get(e, layer, keys[k], &out);
            fprintf(f, "  %s: %d ", keys[k], (int)g);
            if (g == CALUNA_OK) print_value(f, &out);
            fprintf(f, "\n");
        }
    }
    caluna_engine_destroy(e);
}

static char *slurp(FILE *f, long *n) {
    fflush(f);
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)*n + 1);
    if (buf && fread(buf, 1, (size_t)*n, f) != (size_t)*n) { free(buf); return NULL; }
    return buf;
}

int main(void) {
    const int seeds = 6, count = 400;
    for (int seed = 1; seed <= seeds; seed++) {
        FILE *general = tmpfile(), *fast = tmpfile();
        if (!general || !fast) { CHECK(0, "tmpfile"); return finish(); }
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            setenv("CALUNA_NO_FAST_PATHS", "1", 1);
            run(general, (unsigned long long)seed, count);
            fflush(general);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "seed %d: the general-path run finished", seed);
        run(fast, (unsigned long long)seed, count);
        long ng = 0, nf = 0;
        char *g = slurp(general, &ng), *fa = slurp(fast, &nf);
        long first = -1;
        for (long i = 0; g && fa && i < ng && i < nf; i++) if (g[i] != fa[i]) { first = i; break; }
        if (first < 0 && ng != nf) first = ng < nf ? ng : nf;
        CHECK(g && fa && ng > 1000 && first < 0, "seed %d: %ld-byte transcripts are identical%s%.80s", seed, nf,
              first < 0 ? "" : "; first difference at: ", first < 0 || !fa ? "" : fa + first);
        free(g);
        free(fa);
        fclose(general);
        fclose(fast);
    }
    return finish();
}
