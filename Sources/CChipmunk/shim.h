#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>
#include <math.h>

/* The last resort when a body's state stopped being finite: Chipmunk's own
 * setters check the whole body and abort on any non-finite field, so the
 * repair writes the fields directly. Velocities, forces and bias velocities
 * become 0; a non-finite position becomes `fallback`; a non-finite angle 0.
 * Returns 1 if anything was repaired. */
static inline int calu_cpBodyRepairMotion(cpBody *body, cpVect fallback) {
    int fixed = 0;
#define CALU_FIX(field, value, ok) if (!(ok)) { body->field = value; fixed = 1; }
    CALU_FIX(p, fallback, isfinite(body->p.x) && isfinite(body->p.y))
    CALU_FIX(v, cpvzero, isfinite(body->v.x) && isfinite(body->v.y))
    CALU_FIX(f, cpvzero, isfinite(body->f.x) && isfinite(body->f.y))
    CALU_FIX(v_bias, cpvzero, isfinite(body->v_bias.x) && isfinite(body->v_bias.y))
    CALU_FIX(a, 0.0, isfinite(body->a))
    CALU_FIX(w, 0.0, isfinite(body->w))
    CALU_FIX(t, 0.0, isfinite(body->t))
    CALU_FIX(w_bias, 0.0, isfinite(body->w_bias))
#undef CALU_FIX
    return fixed;
}

/* Swift cannot see cpContactPointSet's array of anonymous structs: point i
 * (0 <= i < set->count) through plain out-parameters. */
static inline void calu_cpContactPoint(const cpContactPointSet *set, int i, cpVect *a, cpVect *b, cpFloat *distance) {
    *a = set->points[i].pointA;
    *b = set->points[i].pointB;
    *distance = set->points[i].distance;
}

/* The post-step scan: the index of the first body whose position, velocity,
 * angle or angular velocity is not finite or beyond ±limit, or -1. */
static inline int calu_cpBodiesFirstBeyond(cpBody **bodies, int count, double limit) {
    for (int i = 0; i < count; i++) {
        const cpBody *b = bodies[i];
        /* !(x <= limit) also catches NaN. */
        if (!(fabs(b->p.x) <= limit && fabs(b->p.y) <= limit && fabs(b->v.x) <= limit && fabs(b->v.y) <= limit
              && fabs(b->a) <= limit && fabs(b->w) <= limit)) return i;
    }
    return -1;
}
