/* SPDX-License-Identifier: Zlib */
/* heap_pools.c - power-of-two pools with free stacks, after the blog post
 * "Game From Zero: Part 2. 'Memory'". */
#include "vramsim/alloc/heap_pools.h"

static uint32_t class_bytes(uint32_t i) { return HEAP_POOLS_MIN << i; }

int heap_pools_class(uint32_t size, uint32_t align)
{
	uint32_t i;

	if (align > size)
		size = align;
	for (i = 0; i < HEAP_POOLS_CLASSES; i++)
		if (size <= class_bytes(i))
			return (int)i;
	return -1;
}

/* Slots of class c that fit in [o, o + share) after a stack of 4 bytes each
 * and the padding that aligns the slots to c. */
static uint32_t fit_count(uint32_t o, uint32_t share, uint32_t c)
{
	uint32_t n = share / (c + 4u), s;

	for (;;) {
		if (n == 0)
			return 0;
		s = heap_align_up(o + 4u * n, c);
		if (s != HEAP_NIL && s + n * c <= o + share && s + n * c >= s)
			return n;
		n--;
	}
}

int heap_pools_init(heap_pools *p, uint8_t *m, uint32_t size, const uint32_t *weights)
{
	uint32_t i, sum = 0, o = 0, unit;

	(void)m;
	p->size = size;
	p->objects = 0;
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		if (weights && weights[i] > 0xFFFFu)
			return HEAP_INVALID;
		sum += weights ? weights[i] : 0u;
	}
	unit = sum ? size / sum : size / HEAP_POOLS_CLASSES;
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		heap_pool *q = &p->pool[i];
		uint32_t c = class_bytes(i), share = sum ? unit * weights[i] : unit;

		/* The last pool takes what rounding left over. */
		if (i == HEAP_POOLS_CLASSES - 1u && share)
			share = size - o;
		q->stack = o;
		q->count = fit_count(o, share, c);
		q->slots = q->count ? heap_align_up(o + 4u * q->count, c) : o;
		q->bumped = q->depth = q->live = 0;
		o += share;
	}
	return HEAP_OK;
}

int heap_pools_alloc(heap_pools *p, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	int ci;
	heap_pool *q;
	uint32_t c, slot;

	if (align > 1u && !heap_is_pow2(align))
		return HEAP_INVALID;
	ci = heap_pools_class(size, align);
	if (ci < 0)
		return HEAP_UNSUPPORTED;
	q = &p->pool[ci];
	c = class_bytes((uint32_t)ci);
	if (q->depth) {
		q->depth--;
		slot = heap_ld32(m, q->stack + 4u * q->depth);
	} else if (q->bumped < q->count) {
		slot = q->slots + q->bumped * c;
		q->bumped++;
	} else {
		return HEAP_NOSPACE;
	}
	q->live++;
	p->objects++;
	out->offset = out->block_offset = slot;
	out->granted = out->block_size = c;
	return HEAP_OK;
}

int heap_pools_free(heap_pools *p, uint8_t *m, uint32_t off)
{
	uint32_t i, k;

	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		heap_pool *q = &p->pool[i];
		uint32_t c = class_bytes(i);

		if (off < q->slots || off - q->slots >= q->bumped * c)
			continue;
		if ((off - q->slots) % c)
			return HEAP_INVALID;
		/* A slot already on the stack is a double free; the stack would
		 * overflow its capacity otherwise. */
		for (k = 0; k < q->depth; k++)
			if (heap_ld32(m, q->stack + 4u * k) == off)
				return HEAP_INVALID;
		if (q->depth >= q->count)
			return HEAP_INVALID;
		heap_st32(m, q->stack + 4u * q->depth, off);
		q->depth++;
		q->live--;
		p->objects--;
		return HEAP_OK;
	}
	return HEAP_INVALID;
}

void heap_pools_walk_free(const heap_pools *p, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t i, k;

	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		const heap_pool *q = &p->pool[i];
		uint32_t c = class_bytes(i);

		for (k = 0; k < q->depth; k++)
			if (fn(ud, heap_ld32(m, q->stack + 4u * k), c))
				return;
		if (q->bumped < q->count && fn(ud, q->slots + q->bumped * c, (q->count - q->bumped) * c))
			return;
	}
}

void heap_pools_walk_held(const heap_pools *p, heap_extent_fn fn, void *ud)
{
	uint32_t i, at = 0;

	/* Pools lie in address order, each slot run inside its share. */
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		const heap_pool *q = &p->pool[i];

		if (!q->count)
			continue;
		if (q->slots > at && fn(ud, at, q->slots - at))
			return;
		at = q->slots + q->count * class_bytes(i);
	}
	if (at < p->size)
		fn(ud, at, p->size - at);
}

void heap_pools_status(const heap_pools *p, const uint8_t *m, heap_status *st)
{
	uint32_t i;

	(void)m;
	st->total_free = st->largest = st->high_water = 0;
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		const heap_pool *q = &p->pool[i];
		uint32_t c = class_bytes(i), nfree = q->depth + q->count - q->bumped;

		st->total_free += nfree * c;
		if (nfree)
			st->largest = c;
		st->high_water += q->bumped * c;
	}
	st->objects = p->objects;
}
