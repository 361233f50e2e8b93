/* A plain C Chipmunk program: what caluna's physics world is measured
 * against. It builds the scene the way a C programmer would and steps it
 * with cpSpaceStep; nothing of caluna is involved. */

#include "bench_peers.h"

#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct bench_chipmunk_scene {
    cpSpace *space;
    cpShape **statics;
    int static_count;
    cpBody **bodies;
    cpShape **shapes;
    int count;
};

/* Debian's Chipmunk prints a banner to stdout when the process makes its
 * first space. caluna has usually made one already (and hidden the banner);
 * if not, this space is made with stdout pointed at /dev/null so the banner
 * cannot land in the benchmark table. Buffered output is flushed first. */
static cpSpace *quiet_space_new(void) {
    static int silenced = 0;
    if (silenced) return cpSpaceNew();
    silenced = 1;
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) dup2(null, 1);
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (saved >= 0) { dup2(saved, 1); close(saved); }
    if (null >= 0) close(null);
    return space;
}

bench_chipmunk_scene *bench_chipmunk_create(double gx, double gy,
                                            const bench_segment *segments, int segment_count,
                                            const bench_box *boxes, int box_count) {
    bench_chipmunk_scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->statics = calloc((size_t)(segment_count > 0 ? segment_count : 1), sizeof *s->statics);
    s->bodies = calloc((size_t)(box_count > 0 ? box_count : 1), sizeof *s->bodies);
    s->shapes = calloc((size_t)(box_count > 0 ? box_count : 1), sizeof *s->shapes);
    s->space = quiet_space_new();
    if (!s->statics || !s->bodies || !s->shapes || !s->space) {
        bench_chipmunk_destroy(s);
        return NULL;
    }
    cpSpaceSetGravity(s->space, cpv(gx, gy));

    cpBody *ground = cpSpaceGetStaticBody(s->space);
    for (int i = 0; i < segment_count; i++) {
        const bench_segment *g = &segments[i];
        cpShape *shape = cpSegmentShapeNew(ground, cpv(g->ax, g->ay), cpv(g->bx, g->by), g->radius);
        cpShapeSetFriction(shape, g->friction);
        cpShapeSetElasticity(shape, g->elasticity);
        s->statics[s->static_count++] = cpSpaceAddShape(s->space, shape);
    }

    /* The body is placed before it joins the space, then its shape is
     * added: the order caluna's addBody{position} and addBox follow. */
    for (int i = 0; i < box_count; i++) {
        const bench_box *b = &boxes[i];
        cpBody *body = cpBodyNew(b->mass, cpMomentForBox(b->mass, b->width, b->height));
        cpBodySetPosition(body, cpv(b->x, b->y));
        cpSpaceAddBody(s->space, body);
        cpShape *shape = cpSpaceAddShape(s->space, cpBoxShapeNew(body, b->width, b->height, 0));
        cpShapeSetFriction(shape, b->friction);
        cpShapeSetElasticity(shape, b->elasticity);
        s->bodies[s->count] = body;
        s->shapes[s->count] = shape;
        s->count++;
    }
    return s;
}

void bench_chipmunk_step(bench_chipmunk_scene *s, double dt, int steps) {
    for (int i = 0; i < steps; i++) cpSpaceStep(s->space, dt);
}

int bench_chipmunk_bodies(const bench_chipmunk_scene *s, double *out, int capacity) {
    for (int i = 0; i < s->count && i < capacity; i++) {
        cpVect p = cpBodyGetPosition(s->bodies[i]);
        out[3 * i] = p.x;
        out[3 * i + 1] = p.y;
        out[3 * i + 2] = cpBodyGetAngle(s->bodies[i]);
    }
    return s->count;
}

void bench_chipmunk_destroy(bench_chipmunk_scene *s) {
    if (!s) return;
    if (s->space) {
        for (int i = 0; i < s->count; i++) {
            cpSpaceRemoveShape(s->space, s->shapes[i]);
            cpSpaceRemoveBody(s->space, s->bodies[i]);
            cpShapeFree(s->shapes[i]);
            cpBodyFree(s->bodies[i]);
        }
        for (int i = 0; i < s->static_count; i++) {
            cpSpaceRemoveShape(s->space, s->statics[i]);
            cpShapeFree(s->statics[i]);
        }
        cpSpaceFree(s->space);
    }
    free(s->statics);
    free(s->bodies);
    free(s->shapes);
    free(s);
}
