/* SPDX-License-Identifier: Zlib */
/* heap_static.c - The Simpsons: Hit & Run's StaticHeap: bump, frees ignored
 * and counted. */
#include "vramsim/alloc/heap_static.h"

int heap_static_init(heap_static *s, uint32_t size, uint32_t align)
{
	if (align <= 1u)
		align = 1u;
	s->size = size;
	s->align = align;
	heap_static_reset(s);
	return heap_is_pow2(align) ? HEAP_OK : HEAP_INVALID;
}

void heap_static_reset(heap_static *s)
{
	s->top = 0;
	s->allocations = 0;
	s->ignored_frees = 0;
	s->overflow = 0;
	s->overflow_bytes = 0;
}

int heap_static_alloc(heap_static *s, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t p, len = size ? size : 1u; /* a byte even for 0, so addresses stay distinct */

	if (align <= 1u)
		align = s->align;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	p = heap_align_up(s->top, align);
	if (p == HEAP_NIL || p > s->size || s->size - p < len) {
		s->overflow++;
		s->overflow_bytes += size;
		return HEAP_NOSPACE;
	}
	out->offset = p;
	out->granted = size;
	out->block_offset = s->top;
	out->block_size = p + len - s->top;
	s->top = p + len;
	s->allocations++;
	return HEAP_OK;
}

int heap_static_free(heap_static *s, uint32_t offset)
{
	if (offset >= s->top)
		return HEAP_INVALID;
	s->ignored_frees++;
	return HEAP_RETAINED;
}

void heap_static_walk_free(const heap_static *s, heap_extent_fn fn, void *ud)
{
	if (s->top < s->size)
		fn(ud, s->top, s->size - s->top);
}

void heap_static_status(const heap_static *s, heap_status *st)
{
	st->total_free = st->largest = s->size - s->top;
	st->objects = s->allocations;
	st->high_water = s->top;
}
