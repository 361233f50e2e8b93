/* Heap accounting for the memory rows (mallinfo2 is not visible to Swift's Glibc module). */
#include <malloc.h>
#include "bench_peers.h"

size_t bench_heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
