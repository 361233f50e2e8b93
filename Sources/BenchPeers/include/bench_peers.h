#ifndef BENCH_PEERS_H
#define BENCH_PEERS_H

/* Peers for caluna-bench: the same work done in plain C against the
 * libraries caluna wraps, so a benchmark can report caluna's overhead. */

#ifdef __cplusplus
extern "C" {
#endif

/* A static segment of the ground or a wall. */
typedef struct {
    double ax, ay, bx, by, radius, friction, elasticity;
} bench_segment;

/* A dynamic box centred on (x, y), its moment that of a solid box. */
typedef struct {
    double x, y, width, height, mass, friction, elasticity;
} bench_box;

typedef struct bench_chipmunk_scene bench_chipmunk_scene;

/* A cpSpace with gravity (gx, gy) and Chipmunk's defaults otherwise, the
 * segments on its static body, then one body per box, in array order.
 * NULL if out of memory. */
bench_chipmunk_scene *bench_chipmunk_create(double gx, double gy,
                                            const bench_segment *segments, int segment_count,
                                            const bench_box *boxes, int box_count);

/* `steps` calls of cpSpaceStep(space, dt). */
void bench_chipmunk_step(bench_chipmunk_scene *scene, double dt, int steps);

/* Writes x, y, angle of each box's body (creation order) into `out`, which
 * holds 3 * capacity doubles; returns the number of boxes. */
int bench_chipmunk_bodies(const bench_chipmunk_scene *scene, double *out, int capacity);

void bench_chipmunk_destroy(bench_chipmunk_scene *scene);

#ifdef __cplusplus
}
#endif

#endif
