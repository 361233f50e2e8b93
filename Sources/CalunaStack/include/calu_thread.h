#ifndef CALU_THREAD_H
#define CALU_THREAD_H

/* What the calling thread is inside of, one record per thread (zero when the
 * thread starts): ThreadContext.swift reads and writes it. Swift cannot
 * import a thread-local variable, so the inline function gives its address. */
struct calu_thread_record {
    void *_Nullable ledger; /* MemoryLedger.current, unretained; NULL: none */
    void *_Nullable call;   /* the binding call the thread is inside of, unretained; NULL: none */
};

extern __thread struct calu_thread_record calu_thread_storage;

static inline struct calu_thread_record *_Nonnull calu_thread_here(void) { return &calu_thread_storage; }

#endif
