#ifndef BENCH_PEERS_H
#define BENCH_PEERS_H

#include <stddef.h>

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

/* Bytes of the C heap in use: chunks handed out plus mmapped blocks (mallinfo2). */
size_t bench_heap_in_use(void);

/* The c-property row (c_property_peer.c): an engine and one layer made
 * through the C ABI; `count` caluna_layer_set calls of "opacity"; `count`
 * plain calls into the same library; the layer's opacity read back.
 * The int results are 1 on success. */
int bench_c_property_setup(void);
int bench_c_property_set(int count);
int bench_c_property_plain(int count);
double bench_c_property_opacity(void);

#ifdef __cplusplus
}
#endif

#endif
