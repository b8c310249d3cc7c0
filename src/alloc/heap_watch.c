/* SPDX-License-Identifier: Zlib */
/* heap_watch.c - the watch a replay sets over the heaps' stores
 * (heap_watch_store in heap_common.h): nothing at all unless the build
 * defines HEAP_WATCH_STORES, as vramsim's does and a console's does not. */
#include "vramsim/alloc/heap_common.h"

#ifdef HEAP_WATCH_STORES
__thread heap_watch heap_watch_on;

/* The rest of heap_watch_store: off lies in the watched memory. */
void heap_watch_seen(uintptr_t off, uint32_t n)
{
	heap_watch *w = &heap_watch_on;
	uint32_t g = (uint32_t)off / HEAP_WATCH_GRANULE, last;

	if (!n)
		return;
	last = (uint32_t)(off + n - 1u < w->size ? off + n - 1u : w->size - 1u) / HEAP_WATCH_GRANULE;
	if (!heap_watch_live(w->live, g)) {
		/* a word's store is in one granule unless it straddles two */
		for (g++; g <= last && !heap_watch_live(w->live, g); g++)
			;
		if (g > last)
			return;
	}
	if (!w->hits++)
		w->first = g * HEAP_WATCH_GRANULE > off ? g * HEAP_WATCH_GRANULE : (uint32_t)off;
}
#else
/* ISO C wants something in a translation unit */
typedef int heap_watch_unused;
#endif
