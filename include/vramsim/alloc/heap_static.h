/* SPDX-License-Identifier: Zlib */
/* heap_static.h - The Simpsons: Hit & Run's StaticHeap: a bump allocator
 * that never frees.
 *
 * CreateHeap takes the whole region up front; GetMemory moves a pointer
 * through it; FreeMemory does nothing (m_FreeingAllowed is false): the bytes
 * stay held until the heap is destroyed. The game used it for the persistent
 * heap, where data lives as long as the game. Ignored frees are counted, and
 * requests that did not fit (m_Overflow) too.
 */
#ifndef VRAMSIM_ALLOC_HEAP_STATIC_H
#define VRAMSIM_ALLOC_HEAP_STATIC_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

typedef struct heap_static {
	uint32_t size;
	uint32_t top;
	uint32_t align;          /* alignment when a request gives none */
	uint32_t allocations;    /* m_TotalAllocations */
	uint32_t ignored_frees;
	uint32_t overflow;       /* requests that did not fit */
	uint32_t overflow_bytes; /* their bytes */
} heap_static;

int heap_static_init(heap_static *s, uint32_t size, uint32_t align);
int heap_static_alloc(heap_static *s, uint32_t size, uint32_t align, heap_block *out);
/* Always HEAP_RETAINED for an offset inside what was handed out (counted),
 * HEAP_INVALID for one outside. */
int heap_static_free(heap_static *s, uint32_t offset);
void heap_static_reset(heap_static *s);
void heap_static_walk_free(const heap_static *s, heap_extent_fn fn, void *ud);
void heap_static_status(const heap_static *s, heap_status *st);

#endif
