/* child.h — runs a group of host-test checks in a child process with a watchdog
 * (alarm): a call that hangs or crashes fails its group, and the other groups still
 * run. Include after check.h; needs _XOPEN_SOURCE 700 (or _POSIX_C_SOURCE) for fork. */
#ifndef CALUNA_HOST_CHILD_H
#define CALUNA_HOST_CHILD_H
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Under valgrind (CALUNA_VALGRIND=1) every time bound is multiplied by `slow`. */
static const char *watchdog_what = "start";
static double slow = 1;

static void watchdog(int sig) {
    (void)sig;
    static const char msg[] = "FAIL the watchdog fired (a call did not return in time) during: ";
    ssize_t r = write(1, msg, sizeof msg - 1);
    r = write(1, watchdog_what, strlen(watchdog_what));
    r = write(1, "\n", 1);
    (void)r;
    _exit(1);
}

/* Names the step the watchdog reports and re-arms it. */
static void guard(const char *what, unsigned seconds) {
    watchdog_what = what;
    alarm((unsigned)(seconds * slow));
}

/* Runs fn(arg) in a child process; its checks count here. A child that dies (a signal, the
 * watchdog) counts as one failed check. */
static void in_child(const char *what, unsigned seconds, void (*fn)(const void *), const void *arg) {
    int fds[2];
    fflush(stdout);
    if (pipe(fds) != 0) { perror("pipe"); checks_failed++; return; }
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); checks_failed++; return; }
    if (pid == 0) {
        close(fds[0]);
        checks_passed = checks_failed = 0;
        signal(SIGALRM, watchdog);
        guard(what, seconds);
        fn(arg);
        alarm(0);
        fflush(stdout);
        int counts[2] = { checks_passed, checks_failed };
        ssize_t r = write(fds[1], counts, sizeof counts);
        (void)r;
        _exit(0);
    }
    close(fds[1]);
    int counts[2] = { 0, 0 };
    ssize_t got = read(fds[0], counts, sizeof counts);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got == (ssize_t)sizeof counts && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        checks_passed += counts[0];
        checks_failed += counts[1];
    } else {
        checks_passed += got == (ssize_t)sizeof counts ? counts[0] : 0;
        checks_failed += (got == (ssize_t)sizeof counts ? counts[1] : 0) + 1;
        if (WIFSIGNALED(status)) printf("FAIL %s: the child died of signal %d\n", what, WTERMSIG(status));
        else printf("FAIL %s: the child did not finish its checks (exit %d)\n", what, WEXITSTATUS(status));
    }
}

#endif
