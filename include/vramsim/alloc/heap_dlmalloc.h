/* SPDX-License-Identifier: Zlib */
/* heap_dlmalloc.h - a coalescing best-fit heap in the spirit of Doug Lea's
 * malloc (the "Doug Lea Heap" of The Simpsons: Hit & Run).
 *
 * What it shares with dlmalloc: boundary tags (a 4-byte head with
 * this-in-use and previous-in-use bits; a free block repeats its size in its
 * foot), 8-byte alignment, 16-byte minimum blocks, binned free lists - 32
 * small bins of one exact size each (16 to 248 bytes, in 8-byte steps) and
 * large bins covering half a power of two each, kept sorted by size - with a
 * bitmap of non-empty bins, immediate coalescing with both neighbours on
 * free, and a "top" block: the free space at the end, split last, into which
 * freed blocks at the end melt back. The search is best fit: the smallest
 * small bin at or above the request, else the first large block that fits
 * (lists sorted ascending), else top. Like an mspace made with
 * create_mspace_with_base, the control block (bitmaps, top, bin heads: 336
 * bytes) sits at the start of the region and counts as overhead.
 *
 * Left out of dlmalloc: the designated victim (last remainder) preference,
 * tree bins (sorted lists stand in for them), mmap'd chunks and trimming.
 */
#ifndef VRAMSIM_ALLOC_HEAP_DLMALLOC_H
#define VRAMSIM_ALLOC_HEAP_DLMALLOC_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_DL_SMALL_BINS 32u
#define HEAP_DL_LARGE_BINS 48u
#define HEAP_DL_CONTROL (16u + 4u * (HEAP_DL_SMALL_BINS + HEAP_DL_LARGE_BINS))

typedef struct heap_dlmalloc {
	uint32_t size;
	uint32_t first, epi;
	uint32_t free_bytes;  /* binned blocks and top */
	uint32_t objects;
	uint32_t high_water;
} heap_dlmalloc;

int heap_dlmalloc_init(heap_dlmalloc *h, uint8_t *base, uint32_t size);
int heap_dlmalloc_alloc(heap_dlmalloc *h, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_dlmalloc_free(heap_dlmalloc *h, uint8_t *base, uint32_t payload);
/* Free blocks (top included) in address order. */
void heap_dlmalloc_walk_free(const heap_dlmalloc *h, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_dlmalloc_status(const heap_dlmalloc *h, const uint8_t *base, heap_status *st);
/* The top block's offset (the epilogue's when none is free). */
uint32_t heap_dlmalloc_top(const heap_dlmalloc *h, const uint8_t *base);

#endif
