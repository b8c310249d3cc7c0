/* SPDX-License-Identifier: Zlib */
/* heap_tlsf.h - Two-Level Segregated Fit (Masmano, Ripoll, Crespo, Real
 * 2004), written from the published algorithm.
 *
 * Free blocks sit in segregated lists indexed by two levels: the first level
 * is the power of two of the size, the second splits each power of two into
 * 32 linear subclasses (below 256 bytes the classes are 8 bytes apart). A
 * bitmap per level says which lists are non-empty, so finding a list that
 * holds a block at least as large as the request is two find-first-set
 * operations: O(1). The request is rounded up to the next subclass boundary
 * before the search ("good fit"), the block found is split and the remainder
 * filed; a freed block merges immediately with free physical neighbours.
 *
 * As in the published design, the control structure (the two bitmaps and
 * the list heads) sits at the start of the region it manages and counts as
 * overhead; its first-level count is sized to the region. Blocks use the
 * boundary tags of heap_common.h (a 4-byte head; the previous-physical-block
 * link is the foot of a free block).
 */
#ifndef VRAMSIM_ALLOC_HEAP_TLSF_H
#define VRAMSIM_ALLOC_HEAP_TLSF_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_TLSF_SL_LOG2 5u
#define HEAP_TLSF_SL_COUNT (1u << HEAP_TLSF_SL_LOG2)
/* Sizes below 1 << FL_SHIFT (256) share first-level list 0. */
#define HEAP_TLSF_FL_SHIFT (HEAP_TLSF_SL_LOG2 + 3u)

typedef struct heap_tlsf {
	uint32_t size;
	uint32_t fl_count;   /* first-level lists in the control structure */
	uint32_t control;    /* control bytes at offset 0: fl bitmap, sl bitmaps, heads */
	uint32_t first, epi; /* first block head, epilogue head */
	uint32_t free_bytes;
	uint32_t objects;
	uint32_t high_water;
} heap_tlsf;

int heap_tlsf_init(heap_tlsf *h, uint8_t *base, uint32_t size);
int heap_tlsf_alloc(heap_tlsf *h, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
int heap_tlsf_free(heap_tlsf *h, uint8_t *base, uint32_t payload);
/* Free blocks in address order (a physical walk). */
void heap_tlsf_walk_free(const heap_tlsf *h, const uint8_t *base, heap_extent_fn fn, void *ud);
void heap_tlsf_status(const heap_tlsf *h, const uint8_t *base, heap_status *st);
/* The list a block of size bytes is filed in (exposed for tests). */
void heap_tlsf_mapping(uint32_t size, uint32_t *fl, uint32_t *sl);

#endif
