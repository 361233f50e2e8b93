/* The transform math of ABI 1.5 (caluna_transform3d_*, caluna_affine_*): every function,
 * the chapter-5 numbers of shared/spec/book-ch05-06.md (T5.1, T5.2, listing 5.3, §1.3,
 * §1.6, F13, F16), NULL / NaN / ∞ refusal, out == in aliasing and singular inversion. */
#include "check.h"

static const double PI = 3.14159265358979323846;

static int all_near(const double *a, const double *b, int n, double tol) {
    int i;
    for (i = 0; i < n; i++) if (!near(a[i], b[i], tol)) return 0;
    return 1;
}

static int all_zero(const double *a, int n) {
    int i;
    for (i = 0; i < n; i++) if (a[i] != 0) return 0;
    return 1;
}

static void fill(double *a, int n, double v) {
    int i;
    for (i = 0; i < n; i++) a[i] = v;
}

static void transform3d_builders(void) {
    double m[16], r[16], p[3];
    int32_t yes = -1;
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    EXPECT_OK(NULL, caluna_transform3d_identity(m));
    CHECK(all_near(m, identity, 16, 0), "CATransform3DIdentity");
    CHECK(m[11] == 0, "F16: identity m34 = 0");
    EXPECT_OK(NULL, caluna_transform3d_is_identity(m, &yes));
    CHECK(yes == 1, "is_identity(identity) = 1");
    EXPECT_OK(NULL, caluna_transform3d_is_affine(m, &yes));
    CHECK(yes == 1, "identity is affine");

    EXPECT_OK(NULL, caluna_transform3d_make_translation(1, 2, 3, m));
    CHECK(m[12] == 1 && m[13] == 2 && m[14] == 3 && m[15] == 1 && m[0] == 1, "translation sits in m41 m42 m43");
    EXPECT_OK(NULL, caluna_transform3d_make_scale(2, 3, 4, m));
    CHECK(m[0] == 2 && m[5] == 3 && m[10] == 4 && m[15] == 1 && m[1] == 0, "scale is diag(sx, sy, sz, 1)");

    /* About y: m11 = c, m13 = −s, m31 = s, m33 = c; (x, 0, 0) → (x·c, 0, −x·s). */
    EXPECT_OK(NULL, caluna_transform3d_make_rotation(PI / 4, 0, 1, 0, m));
    CHECK(near(m[0], cos(PI / 4), 1e-15) && near(m[2], -sin(PI / 4), 1e-15) && near(m[8], sin(PI / 4), 1e-15)
          && near(m[10], cos(PI / 4), 1e-15), "rotation about y: m11 m13 m31 m33");
    EXPECT_OK(NULL, caluna_transform3d_apply(m, 100, 0, 0, p));
    CHECK(near(p[0], 70.710678, 1e-6) && near(p[1], 0, 1e-12) && near(p[2], -70.710678, 1e-6),
          "(100, 0, 0) → (70.71, 0, −70.71): the right edge moves away");
    /* The axis is normalised; a zero axis gives the identity. */
    EXPECT_OK(NULL, caluna_transform3d_make_rotation(0.7, 0, 9, 0, r));
    EXPECT_OK(NULL, caluna_transform3d_make_rotation(0.7, 0, 1, 0, m));
    CHECK(all_near(m, r, 16, 1e-15), "the axis is normalised");
    EXPECT_OK(NULL, caluna_transform3d_make_rotation(0.7, 0, 0, 0, m));
    CHECK(all_near(m, identity, 16, 0), "a zero axis gives the identity");

    /* F13: rotation about z = MakeAffineTransform(MakeRotation). */
    {
        double a[6];
        EXPECT_OK(NULL, caluna_affine_make_rotation(PI / 6, a));
        EXPECT_OK(NULL, caluna_transform3d_make_affine(a, r));
        EXPECT_OK(NULL, caluna_transform3d_make_rotation(PI / 6, 0, 0, 1, m));
        CHECK(all_near(m, r, 16, 1e-15), "F13: rotation about z equals the affine rotation");
    }
}

static void transform3d_composition(void) {
    double t[16], u[16], s[16], p[3];
    int32_t same = -1;

    /* translate/scale/rotate: the operation first, then t. */
    EXPECT_OK(NULL, caluna_transform3d_make_scale(2, 2, 2, s));
    EXPECT_OK(NULL, caluna_transform3d_translate(s, 5, 0, 0, t));
    EXPECT_OK(NULL, caluna_transform3d_apply(t, 0, 0, 0, p));
    CHECK(near(p[0], 10, 1e-12), "Translate(S, 5): translate by 5 first, then scale by 2 → x = 10");
    EXPECT_OK(NULL, caluna_transform3d_make_translation(5, 0, 0, u));
    EXPECT_OK(NULL, caluna_transform3d_concat(u, s, u));
    EXPECT_OK(NULL, caluna_transform3d_equal(t, u, &same));
    CHECK(same == 1, "Translate(t, …) = Translation·t");
    EXPECT_OK(NULL, caluna_transform3d_scale(s, 1, 3, 1, t));
    CHECK(t[0] == 2 && t[5] == 6 && t[10] == 2, "Scale(t, 1, 3, 1)");
    EXPECT_OK(NULL, caluna_transform3d_rotate(s, 0.5, 0, 0, 0, t));
    EXPECT_OK(NULL, caluna_transform3d_equal(s, t, &same));
    CHECK(same == 1, "Rotate with a zero axis keeps t");

    /* T5.2 through 3D: Translate(Rotate(Scale(I, .5, .5), 30°), 200, 0). */
    {
        double a[6];
        static const double want[6] = {0.43301, 0.25, -0.25, 0.43301, 86.603, 50.0};
        EXPECT_OK(NULL, caluna_transform3d_identity(t));
        EXPECT_OK(NULL, caluna_transform3d_scale(t, 0.5, 0.5, 1, t));
        EXPECT_OK(NULL, caluna_transform3d_rotate(t, PI / 6, 0, 0, 1, t));
        EXPECT_OK(NULL, caluna_transform3d_translate(t, 200, 0, 0, t));
        EXPECT_OK(NULL, caluna_transform3d_get_affine(t, a));
        CHECK(all_near(a, want, 6, 5e-4), "T5.2 affine (0.43301, 0.25, −0.25, 0.43301, 86.603, 50.0): got (%g, %g, %g, %g, %g, %g)",
              a[0], a[1], a[2], a[3], a[4], a[5]);
    }

    /* Concat(T, R) maps the anchor to (173.2, 100); Concat(R, T) to (200, 0). */
    EXPECT_OK(NULL, caluna_transform3d_make_translation(200, 0, 0, t));
    EXPECT_OK(NULL, caluna_transform3d_make_rotation(PI / 6, 0, 0, 1, u));
    EXPECT_OK(NULL, caluna_transform3d_concat(t, u, s));
    EXPECT_OK(NULL, caluna_transform3d_apply(s, 0, 0, 0, p));
    CHECK(near(p[0], 173.205, 1e-3) && near(p[1], 100, 1e-9), "Concat(T, R): (173.2, 100)");
    EXPECT_OK(NULL, caluna_transform3d_concat(u, t, s));
    EXPECT_OK(NULL, caluna_transform3d_apply(s, 0, 0, 0, p));
    CHECK(near(p[0], 200, 1e-12) && near(p[1], 0, 1e-12), "Concat(R, T): (200, 0)");
}

/* Spec §1.6: the 200-pt square at (200, 200) rotated 45° about y with m34 = −1/d. */
static void perspective_sweep(void) {
    static const double ds[6] = {100, 250, 500, 1000, 5000, 1e6};
    static const double ratios[6] = {5.83, 1.79, 1.329, 1.152, 1.029, 1.0001};
    static const double tols[6] = {0.005, 0.005, 0.0005, 0.0005, 0.0005, 0.00005};
    int i;
    for (i = 0; i < 6; i++) {
        double t[16], m[16], tl[3], tr[3], br[3], bl[3], left, right;
        caluna_transform3d_identity(t);
        t[11] = -1 / ds[i];
        EXPECT_OK(NULL, caluna_transform3d_rotate(t, PI / 4, 0, 1, 0, t));   /* listing 5.5: R·P */
        caluna_transform3d_make_translation(-100, -100, 0, m);
        caluna_transform3d_concat(m, t, m);
        caluna_transform3d_make_translation(200, 200, 0, t);
        caluna_transform3d_concat(m, t, m);
        EXPECT_OK(NULL, caluna_transform3d_apply(m, 0, 0, 0, tl));
        EXPECT_OK(NULL, caluna_transform3d_apply(m, 200, 0, 0, tr));
        EXPECT_OK(NULL, caluna_transform3d_apply(m, 200, 200, 0, br));
        EXPECT_OK(NULL, caluna_transform3d_apply(m, 0, 200, 0, bl));
        left = bl[1] - tl[1];
        right = br[1] - tr[1];
        CHECK(near(left / right, ratios[i], tols[i]), "d = %g: near/far ratio %.5f (spec %g)", ds[i], left / right, ratios[i]);
        if (ds[i] == 500) {
            CHECK(near(left, 232.94, 0.005) && near(right, 175.22, 0.005), "d = 500: edges 232.94 and 175.22 (got %.3f, %.3f)",
                  left, right);
            CHECK(near(tl[0], 117.64, 0.005) && near(tl[1], 83.53, 0.005), "T5.5 top-left corner (117.64, 83.53)");
        }
    }
}

static void transform3d_queries_and_inverse(void) {
    double t[16], inv[16], prod[16], keep[16], a[6], p[3];
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int32_t yes = -1;

    EXPECT_OK(NULL, caluna_transform3d_make_rotation(0.6, 1, 2, 3, t));
    EXPECT_OK(NULL, caluna_transform3d_translate(t, 5, -7, 2, t));
    t[11] = -1.0 / 500;
    EXPECT_OK(NULL, caluna_transform3d_invert(t, inv));
    EXPECT_OK(NULL, caluna_transform3d_concat(t, inv, prod));
    CHECK(all_near(prod, identity, 16, 1e-12), "t · t⁻¹ = identity");
    EXPECT_OK(NULL, caluna_transform3d_is_affine(t, &yes));
    CHECK(yes == 0, "perspective is not affine");
    EXPECT_OK(NULL, caluna_transform3d_is_identity(t, &yes));
    CHECK(yes == 0, "not the identity");
    EXPECT_OK(NULL, caluna_transform3d_equal(t, inv, &yes));
    CHECK(yes == 0, "t ≠ t⁻¹");

    /* Singular: INVALID_ARGUMENT, out = t unchanged (Core Animation returns its argument). */
    EXPECT_OK(NULL, caluna_transform3d_make_scale(1, 0, 1, t));
    memcpy(keep, t, sizeof t);
    fill(inv, 16, 42);
    EXPECT(NULL, caluna_transform3d_invert(t, inv), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "not invertible") != NULL, "message: %s", caluna_last_error(NULL));
    CHECK(all_near(inv, keep, 16, 0), "singular: out = t");
    EXPECT(NULL, caluna_transform3d_invert(t, t), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(all_near(t, keep, 16, 0), "singular in place: t unchanged");

    /* get_affine / make_affine. */
    {
        static const double six[6] = {1, 2, 3, 4, 5, 6};
        static const double want[16] = {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1};
        EXPECT_OK(NULL, caluna_transform3d_make_affine(six, t));
        CHECK(all_near(t, want, 16, 0), "MakeAffineTransform: a→m11, b→m12, c→m21, d→m22, tx→m41, ty→m42");
        t[14] = 7;   /* z translation and perspective are dropped */
        t[11] = -0.002;
        EXPECT_OK(NULL, caluna_transform3d_get_affine(t, a));
        CHECK(all_near(a, six, 6, 0), "GetAffineTransform");
    }

    /* apply: the perspective divide; w <= 0 is refused. */
    caluna_transform3d_identity(t);
    t[11] = -1.0 / 500;
    EXPECT_OK(NULL, caluna_transform3d_apply(t, 10, 20, 250, p));
    CHECK(near(p[0], 20, 1e-12) && near(p[1], 40, 1e-12) && near(p[2], 500, 1e-9), "z = d/2 doubles x and y");
    fill(p, 3, 42);
    EXPECT(NULL, caluna_transform3d_apply(t, 10, 20, 500, p), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(all_zero(p, 3), "w = 0: out zeroed");
    EXPECT(NULL, caluna_transform3d_apply(t, 10, 20, 900, p), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "behind the viewer") != NULL, "message: %s", caluna_last_error(NULL));
}

static void affine_family(void) {
    double t[6], u[6], r[6], pt[2], rect[4];
    int32_t yes = -1;

    EXPECT_OK(NULL, caluna_affine_identity(t));
    CHECK(t[0] == 1 && t[1] == 0 && t[2] == 0 && t[3] == 1 && t[4] == 0 && t[5] == 0, "CGAffineTransformIdentity");
    EXPECT_OK(NULL, caluna_affine_is_identity(t, &yes));
    CHECK(yes == 1, "is_identity");
    EXPECT_OK(NULL, caluna_affine_make_translation(3, 4, t));
    CHECK(t[4] == 3 && t[5] == 4 && t[0] == 1 && t[3] == 1, "MakeTranslation");
    EXPECT_OK(NULL, caluna_affine_make_scale(2, 3, t));
    CHECK(t[0] == 2 && t[3] == 3 && t[4] == 0, "MakeScale");

    /* T5.1 */
    {
        static const double want[6] = {0.70711, 0.70711, -0.70711, 0.70711, 0, 0};
        EXPECT_OK(NULL, caluna_affine_make_rotation(PI / 4, t));
        CHECK(all_near(t, want, 6, 5e-6), "T5.1 rotation(π/4) = (0.70711, 0.70711, −0.70711, 0.70711, 0, 0)");
        EXPECT_OK(NULL, caluna_affine_apply_point(t, 1, 0, pt));
        CHECK(pt[1] > 0, "clockwise on a y-down screen");
    }

    /* T5.2 and its order variant */
    {
        static const double want[6] = {0.43301, 0.25, -0.25, 0.43301, 86.603, 50.0};
        EXPECT_OK(NULL, caluna_affine_identity(t));
        EXPECT_OK(NULL, caluna_affine_scale(t, 0.5, 0.5, t));
        EXPECT_OK(NULL, caluna_affine_rotate(t, PI / 6, t));
        EXPECT_OK(NULL, caluna_affine_translate(t, 200, 0, t));
        CHECK(all_near(t, want, 6, 5e-4), "T5.2 (0.43301, 0.25, −0.25, 0.43301, 86.603, 50.0)");
        EXPECT_OK(NULL, caluna_affine_identity(u));
        EXPECT_OK(NULL, caluna_affine_translate(u, 200, 0, u));
        EXPECT_OK(NULL, caluna_affine_rotate(u, PI / 6, u));
        EXPECT_OK(NULL, caluna_affine_scale(u, 0.5, 0.5, u));
        CHECK(near(u[4], 200, 1e-9) && near(u[5], 0, 1e-9), "order variant keeps the translation (200, 0)");
        EXPECT_OK(NULL, caluna_affine_equal(t, u, &yes));
        CHECK(yes == 0, "order matters");
    }

    /* Concat(T, R) vs Concat(R, T) on the anchor. */
    EXPECT_OK(NULL, caluna_affine_make_translation(200, 0, t));
    EXPECT_OK(NULL, caluna_affine_make_rotation(PI / 6, u));
    EXPECT_OK(NULL, caluna_affine_concat(t, u, r));
    EXPECT_OK(NULL, caluna_affine_apply_point(r, 0, 0, pt));
    CHECK(near(pt[0], 173.205, 1e-3) && near(pt[1], 100, 1e-9), "Concat(T, R): (173.2, 100)");
    EXPECT_OK(NULL, caluna_affine_concat(u, t, r));
    EXPECT_OK(NULL, caluna_affine_apply_point(r, 0, 0, pt));
    CHECK(near(pt[0], 200, 1e-12) && near(pt[1], 0, 1e-12), "Concat(R, T): (200, 0)");

    /* Shear (listing 5.3, not in the spec text): MakeShear(1, 0) = (1, 0, −1, 1, 0, 0), made by hand. */
    {
        static const double shear[6] = {1, 0, -1, 1, 0, 0};
        double top[2], bottom[2];
        EXPECT_OK(NULL, caluna_affine_apply_point(shear, 0, -50, top));
        EXPECT_OK(NULL, caluna_affine_apply_point(shear, 0, 50, bottom));
        CHECK(top[0] - bottom[0] == 100, "shear: the top edge shifts +x by the height");
    }

    /* Invert, including singular. */
    EXPECT_OK(NULL, caluna_affine_make_rotation(0.3, t));
    EXPECT_OK(NULL, caluna_affine_translate(t, 4, 5, t));
    EXPECT_OK(NULL, caluna_affine_invert(t, u));
    EXPECT_OK(NULL, caluna_affine_concat(t, u, r));
    EXPECT_OK(NULL, caluna_affine_is_identity(r, &yes));
    {
        double id[6];
        caluna_affine_identity(id);
        CHECK(all_near(r, id, 6, 1e-12), "t · t⁻¹ ≈ identity");
    }
    {
        double sing[6] = {1, 2, 2, 4, 7, 8}, keep[6];
        memcpy(keep, sing, sizeof sing);
        fill(u, 6, 42);
        EXPECT(NULL, caluna_affine_invert(sing, u), CALUNA_ERR_INVALID_ARGUMENT);
        CHECK(all_near(u, keep, 6, 0), "singular: out = t");
    }

    /* apply_rect: the bounding box. */
    {
        static const double r0[4] = {-100, -100, 200, 200};
        double side = 200 * sqrt(2.0);
        double want[4];
        want[0] = -side / 2; want[1] = -side / 2; want[2] = side; want[3] = side;
        EXPECT_OK(NULL, caluna_affine_make_rotation(PI / 4, t));
        EXPECT_OK(NULL, caluna_affine_apply_rect(t, r0, rect));
        CHECK(all_near(rect, want, 4, 1e-9), "CGRectApplyAffineTransform: (%g, %g, %g, %g)", rect[0], rect[1], rect[2], rect[3]);
        rect[0] = 10; rect[1] = 0; rect[2] = 5; rect[3] = 5;
        EXPECT_OK(NULL, caluna_affine_make_scale(-1, 1, t));
        EXPECT_OK(NULL, caluna_affine_apply_rect(t, rect, rect));
        CHECK(rect[0] == -15 && rect[1] == 0 && rect[2] == 5 && rect[3] == 5, "mirrored, in place");
    }
}

static void aliasing(void) {
    double t[16], copy[16], want[16], a[6], b[6];
    /* out == in for every family member that takes a matrix. */
    caluna_transform3d_make_rotation(0.4, 1, 1, 0, t);
    memcpy(copy, t, sizeof t);
    caluna_transform3d_rotate(copy, 0.9, 0, 1, 0, want);
    EXPECT_OK(NULL, caluna_transform3d_rotate(t, 0.9, 0, 1, 0, t));
    CHECK(all_near(t, want, 16, 0), "rotate in place");
    memcpy(copy, t, sizeof t);
    caluna_transform3d_concat(copy, copy, want);
    EXPECT_OK(NULL, caluna_transform3d_concat(t, t, t));
    CHECK(all_near(t, want, 16, 0), "concat(t, t, t)");
    memcpy(copy, t, sizeof t);
    caluna_transform3d_invert(copy, want);
    EXPECT_OK(NULL, caluna_transform3d_invert(t, t));
    CHECK(all_near(t, want, 16, 0), "invert in place");
    caluna_transform3d_translate(copy, 1, 2, 3, want);
    EXPECT_OK(NULL, caluna_transform3d_translate(copy, 1, 2, 3, copy));
    CHECK(all_near(copy, want, 16, 0), "translate in place");
    caluna_transform3d_scale(copy, 2, 3, 4, want);
    EXPECT_OK(NULL, caluna_transform3d_scale(copy, 2, 3, 4, copy));
    CHECK(all_near(copy, want, 16, 0), "scale in place");

    caluna_affine_make_rotation(0.3, a);
    memcpy(b, a, sizeof a);
    caluna_affine_concat(b, b, b);
    EXPECT_OK(NULL, caluna_affine_concat(a, a, a));
    CHECK(all_near(a, b, 6, 0), "affine concat(a, a, a)");
    {
        double w[6];
        caluna_affine_translate(a, 5, 6, w);
        EXPECT_OK(NULL, caluna_affine_translate(a, 5, 6, a));
        CHECK(all_near(a, w, 6, 0), "affine translate in place");
        caluna_affine_scale(a, 2, 3, w);
        EXPECT_OK(NULL, caluna_affine_scale(a, 2, 3, a));
        CHECK(all_near(a, w, 6, 0), "affine scale in place");
        caluna_affine_rotate(a, 0.2, w);
        EXPECT_OK(NULL, caluna_affine_rotate(a, 0.2, a));
        CHECK(all_near(a, w, 6, 0), "affine rotate in place");
        caluna_affine_invert(a, w);
        EXPECT_OK(NULL, caluna_affine_invert(a, a));
        CHECK(all_near(a, w, 6, 0), "affine invert in place");
    }
    /* get_affine / apply writing over their input. */
    {
        double m[16];
        caluna_transform3d_make_translation(3, 4, 0, m);
        EXPECT_OK(NULL, caluna_transform3d_get_affine(m, m));
        CHECK(m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 1 && m[4] == 3 && m[5] == 4, "get_affine over its input");
        caluna_transform3d_make_translation(3, 4, 0, m);
        EXPECT_OK(NULL, caluna_transform3d_apply(m, 1, 1, 0, m));
        CHECK(m[0] == 4 && m[1] == 5 && m[2] == 0, "apply over its input");
    }
}

static void hostile(void) {
    double t[16], out[16], a[6], o6[6], p[4] = {0, 0, 0, 0};
    int32_t yes = 7;
    double nan = NAN, inf = INFINITY;

    caluna_transform3d_identity(t);
    caluna_affine_identity(a);

    /* NULL out */
    EXPECT(NULL, caluna_transform3d_identity(NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_make_translation(1, 2, 3, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_concat(t, t, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_is_identity(t, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_identity(NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_apply_point(a, 1, 2, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_equal(a, a, NULL), CALUNA_ERR_INVALID_ARGUMENT);

    /* NULL inputs: out is zeroed. */
    fill(out, 16, 42);
    EXPECT(NULL, caluna_transform3d_translate(NULL, 1, 2, 3, out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(all_zero(out, 16), "failure zeroes out");
    CHECK(strstr(caluna_last_error(NULL), "t is NULL") != NULL, "message: %s", caluna_last_error(NULL));
    EXPECT(NULL, caluna_transform3d_concat(t, NULL, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_invert(NULL, out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(all_zero(out, 16), "invert(NULL) zeroes out");
    EXPECT(NULL, caluna_transform3d_equal(NULL, t, &yes), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(yes == 0, "failure sets *out = 0");
    EXPECT(NULL, caluna_transform3d_is_affine(NULL, &yes), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_get_affine(NULL, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_make_affine(NULL, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_apply(NULL, 0, 0, 0, p), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_concat(NULL, a, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_invert(NULL, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_is_identity(NULL, &yes), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_apply_rect(a, NULL, p), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_apply_rect(NULL, p, p), CALUNA_ERR_INVALID_ARGUMENT);

    /* NaN and ∞ arguments and elements */
    EXPECT(NULL, caluna_transform3d_make_translation(nan, 0, 0, out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "tx must be finite") != NULL, "message: %s", caluna_last_error(NULL));
    EXPECT(NULL, caluna_transform3d_make_scale(1, inf, 1, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_make_rotation(-inf, 0, 0, 1, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_make_rotation(1, 0, nan, 1, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_rotate(t, 1, 0, 0, inf, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_scale(t, nan, 1, 1, out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transform3d_apply(t, 0, nan, 0, p), CALUNA_ERR_INVALID_ARGUMENT);
    t[11] = nan;
    EXPECT(NULL, caluna_transform3d_is_identity(t, &yes), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "t[11] (m34) must be finite") != NULL, "message names the element: %s",
          caluna_last_error(NULL));
    fill(out, 16, 42);
    EXPECT(NULL, caluna_transform3d_invert(t, out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(all_zero(out, 16), "a NaN input is not 'singular': out zeroed");
    t[11] = 0;
    a[4] = inf;
    EXPECT(NULL, caluna_affine_apply_point(a, 0, 0, p), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "t[4] (tx) must be finite") != NULL, "message: %s", caluna_last_error(NULL));
    EXPECT(NULL, caluna_transform3d_make_affine(a, out), CALUNA_ERR_INVALID_ARGUMENT);
    a[4] = 0;
    EXPECT(NULL, caluna_affine_make_rotation(nan, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_make_translation(0, inf, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_make_scale(nan, 1, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_translate(a, nan, 0, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_scale(a, 1, -inf, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_rotate(a, inf, o6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_affine_apply_point(a, nan, 0, p), CALUNA_ERR_INVALID_ARGUMENT);
    p[0] = 0; p[1] = 0; p[2] = nan; p[3] = 1;
    EXPECT(NULL, caluna_affine_apply_rect(a, p, p), CALUNA_ERR_INVALID_ARGUMENT);

    /* Overflow is an error, never an ∞ result. */
    caluna_transform3d_make_scale(1e300, 1e300, 1, t);
    EXPECT(NULL, caluna_transform3d_concat(t, t, out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "not finite") != NULL, "message: %s", caluna_last_error(NULL));
    caluna_affine_make_scale(1e300, 1, a);
    EXPECT(NULL, caluna_affine_apply_point(a, 1e300, 0, p), CALUNA_ERR_INVALID_ARGUMENT);

    /* The library still works afterwards. */
    EXPECT_OK(NULL, caluna_transform3d_identity(out));
    EXPECT_OK(NULL, caluna_transform3d_is_identity(out, &yes));
    CHECK(yes == 1, "still healthy");
}

int main(void) {
    transform3d_builders();
    transform3d_composition();
    perspective_sweep();
    transform3d_queries_and_inverse();
    affine_family();
    aliasing();
    hostile();
    return finish();
}
