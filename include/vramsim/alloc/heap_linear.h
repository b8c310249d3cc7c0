/* SPDX-License-Identifier: Zlib */
/* heap_linear.h - the linear (scratch) allocator of the blog post "Game From
 * Zero: Part 2. 'Memory'".
 *
 * One pointer bumps through the region: an allocation aligns it, hands out
 * the bytes and moves it past them. Nothing is freed one by one (a free is
 * accepted and the memory stays held until a reset or a roll back); reset
 * moves the pointer back to the start, mark/rollback remember a pointer and
 * return to it, dropping everything allocated since. With fill set (the
 * post's debug build), fresh memory is painted 0xAA - the alignment padding
 * and the payload - so reads of uninitialised scratch memory stand out.
 */
#ifndef VRAMSIM_ALLOC_HEAP_LINEAR_H
#define VRAMSIM_ALLOC_HEAP_LINEAR_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"

#define HEAP_LINEAR_FILL 0xAAu

typedef struct heap_linear {
	uint32_t size;
	uint32_t top;        /* next free byte */
	uint32_t align;      /* alignment when a request gives none */
	uint32_t fill;       /* paint fresh memory 0xAA */
	uint32_t objects;    /* allocations since the last reset / roll back point */
	uint32_t high_water;
} heap_linear;

/* align: the default alignment (a power of two, 0 or 1 for none). */
int heap_linear_init(heap_linear *l, uint32_t size, uint32_t align, int fill);
int heap_linear_alloc(heap_linear *l, uint8_t *base, uint32_t size, uint32_t align, heap_block *out);
void heap_linear_reset(heap_linear *l);
/* A mark is the pointer; objects made after it are forgotten on roll back. */
typedef struct heap_linear_mark { uint32_t top, objects; } heap_linear_mark;
heap_linear_mark heap_linear_mark_get(const heap_linear *l);
/* HEAP_INVALID when the mark lies beyond the pointer (it was taken before a
 * reset or an earlier roll back). */
int heap_linear_rollback(heap_linear *l, heap_linear_mark mk);
void heap_linear_walk_free(const heap_linear *l, heap_extent_fn fn, void *ud);
void heap_linear_status(const heap_linear *l, heap_status *st);

#endif
