/* SPDX-License-Identifier: Zlib */
/* heap_tracking.h - The Simpsons: Hit & Run's TrackingHeap.
 *
 * The real one gets its bytes from malloc and keeps, in its own storage, only
 * a table of what it handed out so the allocations can be freed (and listed)
 * later. Here the heap owns a region: its storage - the record table - sits
 * at the start of it and counts as overhead, and the bytes it hands out come
 * from the rest, placed first fit in the gaps between the records. Records
 * are kept sorted by address (offset, size: 8 bytes each), so the gaps are
 * read straight off the table and a free finds its record by binary search.
 * There are no headers in the data: the table is all the bookkeeping, which
 * is the point of the design. A full table fails the request with
 * HEAP_MANAGEMENT even when bytes are free.
 */
#ifndef VRAMSIM_ALLOC_HEAP_TRACKING_H
#define VRAMSIM_ALLOC_HEAP_TRACKING_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_TRACKING_RECORD 8u

typedef struct heap_tracking {
	uint32_t size;
	uint32_t capacity;  /* records the table holds */
	uint32_t data;      /* first data byte: after the table, aligned */
	uint32_t align;     /* alignment when a request gives none */
	uint32_t count;     /* live records */
	uint32_t live_bytes;
	uint32_t high_water;
} heap_tracking;

/* records: table capacity (0: one record per 256 bytes of region, at least
 * 16). align: default alignment (0/1: 8). */
int heap_tracking_init(heap_tracking *t, uint8_t *base, uint32_t size, uint32_t records, uint32_t align);
int heap_tracking_alloc(heap_tracking *t, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_tracking_free(heap_tracking *t, uint8_t *base, uint32_t offset);
void heap_tracking_walk_free(const heap_tracking *t, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_tracking_status(const heap_tracking *t, const uint8_t *base, heap_status *st);

#endif
