/* SPDX-License-Identifier: Zlib */
/* heap_watch.c - the watch a replay sets over the heaps' stores
 * (heap_watch_store in heap_common.h): nothing at all unless the build
 * defines HEAP_WATCH_STORES, as vramsim's does and a console's does not. */
#include "vramsim/alloc/heap_common.h"

#ifdef HEAP_WATCH_STORES
__thread heap_watch heap_watch_on;

/* The rest of heap_watch_store: off lies in the watched memory. The store
 * counts when a byte it writes is live data: in a live granule, all of it,
 * or one of the bytes part names. */
void heap_watch_seen(uintptr_t off, uint32_t n)
{
	heap_watch *w = &heap_watch_on;
	uint64_t end = (uint64_t)off + n < w->size ? (uint64_t)off + n : w->size;
	uint32_t g = (uint32_t)off / HEAP_WATCH_GRANULE;

	for (; (uint64_t)g * HEAP_WATCH_GRANULE < end; g++) {
		uint32_t at = g * HEAP_WATCH_GRANULE, lo, hi, b;
		uint64_t hit;
		if (!heap_watch_live(w->live, g))
			continue;
		lo = at > off ? 0u : (uint32_t)off - at;
		hi = end - at < HEAP_WATCH_GRANULE ? (uint32_t)(end - at) : HEAP_WATCH_GRANULE;
		hit = heap_watch_bytes(lo, hi);
		if (w->part[g])
			hit &= w->part[g];
		if (!hit)
			continue;
		b = (uint32_t)hit ? bits_ctz32((uint32_t)hit) : 32u + bits_ctz32((uint32_t)(hit >> 32));
		if (!w->hits++)
			w->first = at + b;
		return;
	}
}
#else
/* ISO C wants something in a translation unit */
typedef int heap_watch_unused;
#endif
