#define _GNU_SOURCE
#include "calu_stack.h"
#include <pthread.h>
#include <stdint.h>

/* Per thread: the lowest usable address of the stack and its size; 0 = not read yet. */
static __thread uintptr_t stack_low;
static __thread size_t stack_size;
static __thread int stack_known;   /* 1: read, -1: unreadable */

static void read_bounds(void) {
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0, guard = 0;
    stack_known = -1;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != NULL && size > 0) {
        /* The guard page(s) sit at the low end of a thread's mapping. */
        pthread_attr_getguardsize(&attr, &guard);
        stack_low = (uintptr_t)addr + guard;
        stack_size = size > guard ? size - guard : size;
        stack_known = 1;
    }
    pthread_attr_destroy(&attr);
}

size_t calu_stack_remaining(void) {
    if (stack_known == 0) read_bounds();
    if (stack_known < 0) return SIZE_MAX;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    return here > stack_low ? (size_t)(here - stack_low) : 0;
}

size_t calu_stack_size(void) {
    if (stack_known == 0) read_bounds();
    return stack_known > 0 ? stack_size : 0;
}
