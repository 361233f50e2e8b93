/* A tiny check harness shared by the C host tests (C99; also valid C++).
 * Each check prints one line ("ok" or "FAIL") and is counted; finish() prints the plain
 * summary line "N passed, N failed" and gives the exit status. */
#ifndef CALUNA_HOST_CHECK_H
#define CALUNA_HOST_CHECK_H

#include <caluna.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int checks_passed = 0;
static int checks_failed = 0;

static inline void report(int ok, int line, const char *fmt, ...) {
    va_list ap;
    printf("%s line %d: ", ok ? "ok  " : "FAIL", line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (ok) checks_passed++; else checks_failed++;
}

#define CHECK(cond, ...) report((cond) ? 1 : 0, __LINE__, __VA_ARGS__)

/* Checks a status; for an error also that caluna_last_error(e) explains it. */
static inline int expect_status(const caluna_engine *e, caluna_status got, caluna_status want, const char *call, int line) {
    int ok = got == want;
    const char *msg = "";
    if (got != CALUNA_OK) {
        msg = caluna_last_error(e);
        if (msg == NULL || msg[0] == '\0') { ok = 0; msg = "(no message)"; }
    }
    report(ok, line, "%s -> %s%s%s", call, caluna_status_name(got), got != CALUNA_OK ? ": " : "",
           got != CALUNA_OK ? msg : "");
    if (!ok && got != want) printf("      expected %s\n", caluna_status_name(want));
    return ok;
}

#define EXPECT(e, call, want) expect_status((e), (call), (want), #call, __LINE__)
#define EXPECT_OK(e, call) expect_status((e), (call), CALUNA_OK, #call, __LINE__)

static inline int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static inline int finish(void) {
    printf("%d passed, %d failed\n", checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
