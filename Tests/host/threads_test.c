/* threads_test.c — separate engines on separate threads, concurrently.
 * Two pthreads each create their own engine (different sizes, colours and scales), build a
 * small scene, then step and render many frames while the other thread does the same,
 * checking pixels every frame. Odd frames move the square through each engine's own Lua
 * state, so the Lua host runs on both threads at once too. The last line is
 * "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <caluna.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 60

typedef struct job {
    int index;
    double width, height, scale;
    uint32_t background, square;
    pthread_barrier_t *start;
    /* results */
    int frames_ok, frames_bad, setup_ok;
    char first_error[256];
} job;

static void note(job *j, const char *what, caluna_engine *e, caluna_status s) {
    if (j->first_error[0] == '\0')
        snprintf(j->first_error, sizeof j->first_error, "%s -> %s: %s", what, caluna_status_name(s),
                 caluna_last_error(e));
}

static int channel_near(int a, int b) { return abs(a - b) <= 2; }

static int pixel_is(const uint8_t *buf, int32_t stride, int x, int y, uint32_t rgb) {
    const uint8_t *p = buf + (size_t)y * (size_t)stride + (size_t)x * 4;
    return channel_near(p[0], (int)((rgb >> 16) & 255)) && channel_near(p[1], (int)((rgb >> 8) & 255)) &&
           channel_near(p[2], (int)(rgb & 255)) && p[3] == 255;
}

static void *run(void *arg) {
    job *j = (job *)arg;
    caluna_engine_options o = caluna_engine_options_default();
    caluna_engine *e = NULL;
    caluna_layer root = 0, sq = 0;
    caluna_value v;
    caluna_status s;
    int32_t w = 0, h = 0, stride, f;
    uint8_t *buf;

    o.width = j->width;
    o.height = j->height;
    o.scale = j->scale;
    pthread_barrier_wait(j->start); /* create the engines at the same time too */
    if ((s = caluna_engine_create(&o, &e)) != CALUNA_OK) { note(j, "create", NULL, s); return NULL; }
    v = caluna_color_rgb(j->background, 1);
    if ((s = caluna_root_layer(e, &root)) != CALUNA_OK ||
        (s = caluna_layer_set(e, root, "backgroundColor", &v)) != CALUNA_OK ||
        (s = caluna_layer_create(e, &sq)) != CALUNA_OK) {
        note(j, "setup", e, s);
        caluna_engine_destroy(e);
        return NULL;
    }
    v = caluna_rect(10, 10, 20, 20);
    if ((s = caluna_layer_set(e, sq, "frame", &v)) != CALUNA_OK) note(j, "frame", e, s);
    v = caluna_color_rgb(j->square, 1);
    if ((s = caluna_layer_set(e, sq, "backgroundColor", &v)) != CALUNA_OK) note(j, "colour", e, s);
    if ((s = caluna_layer_add_sublayer(e, root, sq)) != CALUNA_OK) note(j, "add", e, s);
    if ((s = caluna_layer_release(e, sq)) != CALUNA_OK) note(j, "release", e, s);
    if ((s = caluna_engine_pixel_size(e, &w, &h)) != CALUNA_OK) note(j, "pixel size", e, s);
    stride = w * 4 + 8 * j->index;
    buf = (uint8_t *)malloc((size_t)stride * (size_t)h);
    j->setup_ok = buf != NULL && j->first_error[0] == '\0';
    for (f = 0; buf && f < FRAMES; f++) {
        double x = 20 + f; /* the square moves one point per frame */
        int px, ok;
        /* the square is committed: it jumps to each position instead of animating there */
        if ((s = caluna_transaction_set_disable_actions(e, 1)) != CALUNA_OK) note(j, "disable actions", e, s);
        if (f % 2 == 0) { /* even frames move the square from C, odd frames from Lua */
            v = caluna_number(x);
            s = caluna_layer_set(e, sq, "position.x", &v);
        } else {
            char script[128];
            snprintf(script, sizeof script, "require('caluna').root.sublayers[1].position = {%d, 20}", 20 + f);
            s = caluna_engine_load_string(e, script, "move");
        }
        if (s != CALUNA_OK) { note(j, "move", e, s); j->frames_bad++; continue; }
        if ((s = caluna_engine_step(e, 1.0 / 60)) != CALUNA_OK) { note(j, "step", e, s); j->frames_bad++; continue; }
        if ((s = caluna_render(e, buf, (size_t)stride * (size_t)h, w, h, stride, CALUNA_RGBA8_STRAIGHT)) != CALUNA_OK) {
            note(j, "render", e, s);
            j->frames_bad++;
            continue;
        }
        /* inside the square (its centre) and outside it (above) */
        px = (int)(x * j->scale);
        ok = pixel_is(buf, stride, px, (int)(20 * j->scale), j->square) &&
             pixel_is(buf, stride, px, (int)(5 * j->scale), j->background);
        if (ok) j->frames_ok++; else {
            j->frames_bad++;
            if (j->first_error[0] == '\0')
                snprintf(j->first_error, sizeof j->first_error, "frame %d: wrong pixels", f);
        }
    }
    free(buf);
    if ((s = caluna_engine_destroy(e)) != CALUNA_OK) note(j, "destroy", NULL, s);
    return NULL;
}

int main(void) {
    pthread_t threads[2];
    pthread_barrier_t start;
    job jobs[2];
    int passed = 0, failed = 0, i;
    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(jobs, 0, sizeof jobs);
    jobs[0].index = 0; jobs[0].width = 200; jobs[0].height = 120; jobs[0].scale = 1;
    jobs[0].background = 0x336699; jobs[0].square = 0xff8800;
    jobs[1].index = 1; jobs[1].width = 150; jobs[1].height = 100; jobs[1].scale = 2;
    jobs[1].background = 0x204020; jobs[1].square = 0xeeeeee;
    pthread_barrier_init(&start, NULL, 2);
    for (i = 0; i < 2; i++) {
        jobs[i].start = &start;
        if (pthread_create(&threads[i], NULL, run, &jobs[i]) != 0) {
            printf("FAIL: pthread_create\n");
            return 1;
        }
    }
    for (i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    for (i = 0; i < 2; i++) {
        int ok = jobs[i].setup_ok && jobs[i].frames_ok == FRAMES && jobs[i].frames_bad == 0 &&
                 jobs[i].first_error[0] == '\0';
        printf("%s thread %d: %d/%d frames right%s%s\n", ok ? "ok  " : "FAIL", i, jobs[i].frames_ok, FRAMES,
               jobs[i].first_error[0] ? "; first problem: " : "", jobs[i].first_error);
        if (ok) passed++; else failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
