/* What both fuzz targets check besides "no crash, no sanitizer report": every status is a
 * documented one and every failure explains itself (caluna.h, "Status"), and an input leaves
 * no thread, file descriptor, signal handler or signal mask behind (the sandbox's watchdog
 * thread and the engine's files must end with the engine). A broken rule aborts, which
 * libFuzzer reports as a crash with the input that broke it. */
#ifndef CALUNA_FUZZ_COMMON_H
#define CALUNA_FUZZ_COMMON_H

#include <caluna.h>
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A crash-class problem: abort, so libFuzzer reports it with the input. */
static inline void fz_fail(const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "\n==caluna-fuzz== RULE BROKEN: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

/* The input being run, for fz_rule. */
static const uint8_t *fz_input;
static size_t fz_input_size;

/* A broken API contract that is not memory-unsafe (a status without a message, an output
 * not cleared on failure). With CALUNA_FUZZ_STRICT=1 (scripts/fuzz's regression runs) it
 * aborts like fz_fail; otherwise the first occurrence of each `key` is printed and its input
 * saved to $CALUNA_FUZZ_FINDINGS/rule-<key>.bin, and fuzzing goes on, so one known contract
 * slip does not hide memory bugs behind it for the rest of a long run. */
static inline void fz_rule(const char *key, const char *fmt, ...) {
    enum { KEYS = 256 };
    static char seen[KEYS][96];
    static int nseen = 0;
    static int strict = -1;
    va_list ap;
    if (strict < 0) strict = getenv("CALUNA_FUZZ_STRICT") && strcmp(getenv("CALUNA_FUZZ_STRICT"), "1") == 0;
    for (int i = 0; i < nseen; i++) if (strncmp(seen[i], key, sizeof seen[i] - 1) == 0) { if (!strict) return; }
    fprintf(stderr, "\n==caluna-fuzz== RULE BROKEN [%s]: ", key);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (strict) abort();
    if (nseen < KEYS) { strncpy(seen[nseen], key, sizeof seen[nseen] - 1); nseen++; }
    const char *dir = getenv("CALUNA_FUZZ_FINDINGS");
    if (dir && fz_input) {
        char path[512];
        snprintf(path, sizeof path, "%s/rule-%s.bin", dir, key);
        FILE *f = fopen(path, "wb");
        if (f) { fwrite(fz_input, 1, fz_input_size, f); fclose(f); fprintf(stderr, "==caluna-fuzz== input saved to %s\n", path); }
    }
}

/* A status must be one of caluna_status; a failure must leave a message at
 * caluna_last_error(e) (e may be NULL or dead: then the calling thread's message). */
static inline void fz_check_status(const caluna_engine *e, caluna_status s, const char *call) {
    if ((int)s < CALUNA_OK || (int)s > CALUNA_ERR_LIMIT) fz_rule(call, "%s returned unknown status %d", call, (int)s);
    if (s == CALUNA_OK) return;
    const char *msg = caluna_last_error(e);
    if (msg == NULL || msg[0] == '\0') fz_rule(call, "%s failed with %s and no message", call, caluna_status_name(s));
}

/* Entries of a /proc/self directory ("task": threads, "fd": open descriptors). */
static inline int fz_count_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *ent; (ent = readdir(d)) != NULL;) if (ent->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* Resources an input may not keep. Threads and descriptors may linger briefly (a watchdog
 * thread ending, a pool warming up), so only growth beyond a margin counts: a real leak
 * grows with every input and passes it after a few hundred. Handlers and the mask must be
 * exactly as before. */
typedef struct {
    int threads, fds;
    void *handlers[32];
    sigset_t mask;
} fz_process_state;

static inline void fz_process_state_take(fz_process_state *p) {
    p->threads = fz_count_entries("/proc/self/task");
    p->fds = fz_count_entries("/proc/self/fd");
    for (int sig = 1; sig < 32; sig++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigaction(sig, NULL, &sa);
        p->handlers[sig] = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
    }
    sigprocmask(SIG_BLOCK, NULL, &p->mask);
}

/* Call after each input: the first calls set the baseline, later ones compare with it. */
static inline void fz_process_check(void) {
    static fz_process_state base;
    static unsigned long runs = 0;
    enum { WARMUP = 16, EVERY = 64, MARGIN = 16 };
    runs++;
    if (runs < WARMUP) return;
    if (runs == WARMUP) { fz_process_state_take(&base); return; }
    if (runs % EVERY != 0) return;
    fz_process_state now;
    fz_process_state_take(&now);
    if (now.threads > base.threads + MARGIN) fz_fail("threads grew from %d to %d", base.threads, now.threads);
    if (now.fds > base.fds + MARGIN) fz_fail("open descriptors grew from %d to %d", base.fds, now.fds);
    for (int sig = 1; sig < 32; sig++)
        if (now.handlers[sig] != base.handlers[sig]) fz_fail("the handler of signal %d (%s) changed", sig, strsignal(sig));
    for (int sig = 1; sig < 32; sig++)
        if (sigismember(&now.mask, sig) != sigismember(&base.mask, sig))
            fz_fail("signal %d (%s) was %s in the mask", sig, strsignal(sig), sigismember(&now.mask, sig) ? "left blocked" : "unblocked");
}

#endif
