#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>
#include <math.h>
#include <stdlib.h>

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

/* ---- The contact-pair guard (PhysicsLimits.swift) ----
 * Chipmunk keeps a record for every pair of shapes whose (fattened) bounding
 * boxes overlap, and an arbiter with contacts for every pair that touches;
 * it allocates them inside cpSpaceAddShape and cpSpaceStep and crashes when
 * malloc fails. The guard counts such pairs from outside before Chipmunk
 * makes them, with boxes that cover where each shape can be during the next
 * step (its "reach"). */

/* A shape's reach: its box, and whether it is in the space's moving index. */
typedef struct calu_Reach {
    cpBB box;
    int moving;
} calu_Reach;

/* The box `shape` can cover in a step of `dt`, as cpBBTree sees it: the
 * box at the body's transform now, grown by the step's motion (velocity and
 * bias velocity; a turn sweeps at most the box's distance from the body's
 * centre times the angle) and by the tree's own fattening (10% of the box,
 * or a tenth of the velocity ahead). Static and sleeping bodies' shapes sit in the
 * static index at their exact box. Recomputes the shape's cached box from
 * its body's transform (as cpSpaceStep and a reindex do first). `moving`
 * is 1 or 0 for the index the shape is about to join, < 0 for its body's. */
static inline calu_Reach calu_cpShapeReach(cpShape *shape, cpFloat dt, int moving) {
    calu_Reach r;
    const cpBody *b = shape->body;
    cpBB bb = cpShapeCacheBB(shape);
    r.moving = moving >= 0 ? moving : cpBodyGetType((cpBody *)b) != CP_BODY_TYPE_STATIC && !cpBodyIsSleeping(b);
    if (!r.moving) { r.box = bb; return r; }
    cpFloat w = bb.r - bb.l, h = bb.t - bb.b;
    cpVect c = cpv((bb.l + bb.r) / 2, (bb.b + bb.t) / 2);
    cpFloat radius = cpvlength(cpvsub(c, b->p)) + 0.5 * cpvlength(cpv(w, h));
    cpFloat turn = fmin(fabs(b->w + b->w_bias) * dt, 2.0);
    cpFloat move = cpvlength(cpvadd(b->v, b->v_bias)) * dt + radius * turn;
    /* cpBBTree's GetBB on the moved box (at most `move` larger each side):
     * 10% of its size each side, or a tenth of the velocity where that is more. */
    cpFloat fx = 0.1 * (w + 2 * move), fy = 0.1 * (h + 2 * move), vx = 0.1 * b->v.x, vy = 0.1 * b->v.y;
    cpFloat l = move + fmax(fx, -vx), rr = move + fmax(fx, vx), bo = move + fmax(fy, -vy), t = move + fmax(fy, vy);
    /* NaN or beyond ±1e15 (a body about to diverge): reaches everything. */
    if (!(l + rr + bo + t < 1e300)) l = rr = bo = t = INFINITY;
    r.box = cpBBNew(bb.l - l, bb.b - bo, bb.r + rr, bb.t + t);
    return r;
}

/* The reach of each of `n` shapes, into `out`. */
static inline void calu_cpShapesReach(cpShape *const *shapes, int n, cpFloat dt, calu_Reach *out) {
    for (int i = 0; i < n; i++) out[i] = calu_cpShapeReach(shapes[i], dt, -1);
}

static inline int calu_cpBoxesMeet(cpBB a, cpBB b) {
    return a.l <= b.r && b.l <= a.r && a.b <= b.t && b.b <= a.t;
}

static int calu_cpReachCompareX(const void *x, const void *y) {
    cpFloat a = ((const calu_Reach *)x)->box.l, b = ((const calu_Reach *)y)->box.l;
    return a < b ? -1 : a > b ? 1 : 0;
}

static int calu_cpReachCompareY(const void *x, const void *y) {
    cpFloat a = ((const calu_Reach *)x)->box.b, b = ((const calu_Reach *)y)->box.b;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* The pairs among `r` (sorted here, in place) whose boxes overlap and of
 * which at least one moves (Chipmunk never pairs two static-index shapes):
 * a sweep along the axis where the boxes spread most. Stops counting once
 * the count passes `cap` (it returns cap + 1 then). */
static inline long calu_cpReachPairs(calu_Reach *r, int n, long cap) {
    if (n < 2) return 0;
    cpFloat lo = INFINITY, hi = -INFINITY, bo = INFINITY, to = -INFINITY;
    for (int i = 0; i < n; i++) {
        cpFloat cx = (r[i].box.l + r[i].box.r) / 2, cy = (r[i].box.b + r[i].box.t) / 2;
        lo = fmin(lo, cx); hi = fmax(hi, cx); bo = fmin(bo, cy); to = fmax(to, cy);
    }
    int alongX = !(to - bo > hi - lo);
    qsort(r, (size_t)n, sizeof *r, alongX ? calu_cpReachCompareX : calu_cpReachCompareY);
    long count = 0;
    for (int i = 0; i < n; i++) {
        cpBB a = r[i].box;
        cpFloat end = alongX ? a.r : a.t;
        for (int j = i + 1; j < n && (alongX ? r[j].box.l : r[j].box.b) <= end; j++) {
            if ((r[i].moving || r[j].moving) && calu_cpBoxesMeet(a, r[j].box) && ++count > cap) return count;
        }
    }
    return count;
}

/* The entries of `r` (any order) that a moving `box` overlaps. */
static inline long calu_cpReachOverlaps(const calu_Reach *r, int n, cpBB box) {
    long count = 0;
    for (int i = 0; i < n; i++) count += calu_cpBoxesMeet(box, r[i].box);
    return count;
}

typedef struct calu_IndexCount { long count; const void *skip; } calu_IndexCount;

static cpCollisionID calu_cpIndexCountFunc(void *obj1, void *obj2, cpCollisionID id, void *data) {
    calu_IndexCount *c = (calu_IndexCount *)data;
    if (obj2 != c->skip) c->count++;
    (void)obj1;
    return id;
}

/* The leaves of the space's indexes whose (fattened) boxes `box` overlaps:
 * the pairs Chipmunk makes when a shape with that box joins an index
 * (cpBBTree pairs a new leaf at once). A static-index shape pairs only with
 * the moving index. `skip` (the shape itself, or NULL) is not counted. */
static inline long calu_cpIndexOverlaps(cpSpace *space, cpBB box, int moving, const cpShape *skip) {
    calu_IndexCount c = { 0, skip };
    cpSpatialIndexQuery(space->dynamicShapes, NULL, box, calu_cpIndexCountFunc, &c);
    if (moving) cpSpatialIndexQuery(space->staticShapes, NULL, box, calu_cpIndexCountFunc, &c);
    return c.count;
}

/* A body's pose before its position update ran (a script's positionUpdate),
 * to put back when the update moved it too far for the guard. */
typedef struct calu_Pose { cpVect p, v, v_bias; cpFloat a, w, w_bias; } calu_Pose;

static inline calu_Pose calu_cpBodyPose(const cpBody *b) {
    calu_Pose s = { b->p, b->v, b->v_bias, b->a, b->w, b->w_bias };
    return s;
}

/* Puts the pose back and runs Chipmunk's own position update from it. */
static inline void calu_cpBodyRestorePose(cpBody *b, calu_Pose s, cpFloat dt) {
    b->p = s.p; b->v = s.v; b->v_bias = s.v_bias; b->a = s.a; b->w = s.w; b->w_bias = s.w_bias;
    cpBodyUpdatePosition(b, dt);
}

/* From Chipmunk's private API (chipmunk_private.h, exported by libchipmunk). */
typedef cpBool (*calu_cpHashSetEqlFunc)(const void *ptr, const void *elt);
cpHashSet *cpHashSetNew(int size, calu_cpHashSetEqlFunc eqlFunc);
void cpHashSetFree(cpHashSet *set);
int cpHashSetCount(cpHashSet *set);

static cpBool calu_cpNeverEqual(const void *ptr, const void *elt) { (void)ptr; (void)elt; return 0; }

/* Before a world's teardown. Chipmunk's removal of a shape scans every
 * cached arbiter (every bin of their hash set, and the solver's list for
 * each one it drops), so taking S shapes out of a space holding A arbiters
 * costs S × A. A space about to be freed drops them all at once instead: its
 * bodies (`bodies`, every body in the space) forget their arbiter lists, the
 * solver's list empties and the cache is replaced by an empty set (nothing
 * looks arbiters up any more; the separate callbacks are off by then). The
 * arbiters' memory is the space's and goes with cpSpaceFree. */
static inline void calu_cpSpaceForgetArbiters(cpSpace *space, cpBody *const *bodies, int n) {
    for (int i = 0; i < n; i++) bodies[i]->arbiterList = NULL;
    if (space->staticBody) space->staticBody->arbiterList = NULL;
    space->arbiters->num = 0;
    cpHashSet *cached = space->cachedArbiters;
    space->cachedArbiters = cpHashSetNew(0, calu_cpNeverEqual);
    cpHashSetFree(cached);
}
