#ifndef CALU_PREFETCH_H
#define CALU_PREFETCH_H

/* Asks the CPU to bring the cache line holding `p` into its caches, to be
 * written soon: a loop over many objects asks a few iterations ahead, so
 * their memory arrives while earlier ones are worked on. A hint only: any
 * address is allowed (it is never dereferenced). Swift has no such builtin;
 * static inline, so the call compiles to the single instruction. */
static inline void calu_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

#endif
