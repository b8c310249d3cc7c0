/* SPDX-License-Identifier: Zlib */
/* heap_linear.c - the bump allocator of the blog post "Game From Zero: Part
 * 2. 'Memory'", with reset, marks and 0xAA fill. */
#include "vramsim/alloc/heap_linear.h"

int heap_linear_init(heap_linear *l, uint32_t size, uint32_t align, int fill)
{
	if (align <= 1u)
		align = 1u;
	l->size = size;
	l->top = 0;
	l->align = align;
	l->fill = fill ? 1u : 0u;
	l->objects = 0;
	l->high_water = 0;
	return heap_is_pow2(align) ? HEAP_OK : HEAP_INVALID;
}

int heap_linear_alloc(heap_linear *l, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t p, i;

	if (align <= 1u)
		align = l->align;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	p = heap_align_up(l->top, align);
	if (p == HEAP_NIL || p > l->size || l->size - p < size)
		return HEAP_NOSPACE;
	if (l->fill) {
		heap_watch_store(m + l->top, p + size - l->top);
		for (i = l->top; i < p + size; i++)
			m[i] = HEAP_LINEAR_FILL;
	}
	out->offset = p;
	out->granted = size;
	out->block_offset = l->top;
	out->block_size = p + size - l->top;
	l->top = p + size;
	l->objects++;
	if (l->top > l->high_water)
		l->high_water = l->top;
	return HEAP_OK;
}

void heap_linear_reset(heap_linear *l)
{
	l->top = 0;
	l->objects = 0;
}

heap_linear_mark heap_linear_mark_get(const heap_linear *l)
{
	heap_linear_mark mk;

	mk.top = l->top;
	mk.objects = l->objects;
	return mk;
}

int heap_linear_rollback(heap_linear *l, heap_linear_mark mk)
{
	if (mk.top > l->top || mk.objects > l->objects)
		return HEAP_INVALID;
	l->top = mk.top;
	l->objects = mk.objects;
	return HEAP_OK;
}

void heap_linear_walk_free(const heap_linear *l, heap_extent_fn fn, void *ud)
{
	if (l->top < l->size)
		fn(ud, l->top, l->size - l->top);
}

void heap_linear_status(const heap_linear *l, heap_status *st)
{
	st->total_free = st->largest = l->size - l->top;
	st->objects = l->objects;
	st->high_water = l->high_water;
}
