/* scripts/sanitize's canary: each mode commits one error the sanitizers must report, so the
 * run proves its options (log files, exit code, halting) work before it trusts a clean run.
 *   canary heap | overflow | leak */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    /* volatile: the compiler may not fold the errors away. */
    volatile int index = 8, big = INT_MAX;
    if (strcmp(argv[1], "heap") == 0) {
        char *p = malloc(8);
        p[index] = 1; /* one past the end: heap-buffer-overflow */
        free(p);
    } else if (strcmp(argv[1], "overflow") == 0) {
        int v = big + index; /* signed overflow: UBSan */
        printf("%d\n", v);
    } else if (strcmp(argv[1], "leak") == 0) {
        void *volatile p = malloc(64);
        p = NULL; /* the only pointer is gone: LeakSanitizer at exit */
        (void)p;
    } else {
        return 2;
    }
    return 0;
}
