#ifndef CALU_STACK_H
#define CALU_STACK_H
#include <stddef.h>

/* Bytes of native stack left below the caller's frame on the calling thread
 * (stacks grow down on every platform caluna builds for). The thread's stack
 * bounds are read once per thread with pthread_getattr_np and cached; when
 * they cannot be read, returns SIZE_MAX (no check is possible). */
size_t calu_stack_remaining(void);

/* The calling thread's whole stack size in bytes (0 when unknown). */
size_t calu_stack_size(void);

#endif
