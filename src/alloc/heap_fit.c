/* SPDX-License-Identifier: Zlib */
/* heap_fit.c - address-ordered free list heap: first, next or best fit. */
#include "vramsim/alloc/heap_fit.h"

static void unlink_free(heap_fit *h, uint8_t *m, uint32_t b)
{
	uint32_t n = ht_next(m, b), p = ht_prev(m, b);

	if (p == HEAP_NIL)
		h->head = n;
	else
		ht_set_next(m, p, n);
	if (n != HEAP_NIL)
		ht_set_prev(m, n, p);
	/* The rover moves on rather than pointing at a block that left the list. */
	if (h->rover == b)
		h->rover = n;
}

/* Links b after pos (HEAP_NIL: at the head). */
static void link_after(heap_fit *h, uint8_t *m, uint32_t pos, uint32_t b)
{
	uint32_t n = pos == HEAP_NIL ? h->head : ht_next(m, pos);

	ht_set_prev(m, b, pos);
	ht_set_next(m, b, n);
	if (pos == HEAP_NIL)
		h->head = b;
	else
		ht_set_next(m, pos, b);
	if (n != HEAP_NIL)
		ht_set_prev(m, n, b);
}

int heap_fit_init(heap_fit *h, uint8_t *m, uint32_t size, heap_fit_policy policy)
{
	uint32_t first, epi;

	h->size = size;
	h->policy = (uint32_t)policy;
	h->objects = 0;
	h->high_water = 0;
	if (ht_layout(0, size, &first, &epi)) {
		h->first = h->epi = 0;
		h->head = h->rover = HEAP_NIL;
		h->free_bytes = 0;
		return HEAP_NOSPACE;
	}
	h->first = first;
	h->epi = epi;
	ht_set_head(m, first, epi - first, HT_PINUSE);
	ht_set_foot(m, first, epi - first);
	ht_set_next(m, first, HEAP_NIL);
	ht_set_prev(m, first, HEAP_NIL);
	ht_set_head(m, epi, 0, HT_CINUSE);
	h->head = h->rover = first;
	h->free_bytes = epi - first;
	return HEAP_OK;
}

/* The free block to use and the lead gap in it, by policy. */
static uint32_t search(const heap_fit *h, const uint8_t *m, uint32_t need, uint32_t align, uint32_t *gap)
{
	uint32_t b, g, best = HEAP_NIL, best_gap = 0, best_size = 0, start;

	if (h->policy == HEAP_FIT_NEXT) {
		start = h->rover == HEAP_NIL ? h->head : h->rover;
		for (b = start; b != HEAP_NIL; b = ht_next(m, b))
			if ((g = ht_fit_gap(b, ht_size(m, b), need, align)) != HEAP_NIL)
				goto found;
		for (b = h->head; b != start; b = ht_next(m, b))
			if ((g = ht_fit_gap(b, ht_size(m, b), need, align)) != HEAP_NIL)
				goto found;
		return HEAP_NIL;
found:
		*gap = g;
		return b;
	}
	for (b = h->head; b != HEAP_NIL; b = ht_next(m, b)) {
		uint32_t s = ht_size(m, b);

		if ((g = ht_fit_gap(b, s, need, align)) == HEAP_NIL)
			continue;
		if (h->policy == HEAP_FIT_FIRST) {
			*gap = g;
			return b;
		}
		if (best == HEAP_NIL || s < best_size) {
			best = b;
			best_size = s;
			best_gap = g;
			if (s == need && g == 0)
				break; /* exact fit: nothing is better */
		}
	}
	*gap = best_gap;
	return best;
}

int heap_fit_alloc(heap_fit *h, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t need = ht_need(size), b, g = 0, S, pin, pos, a, rest, asize, after;

	if (align <= 1)
		align = HT_ALIGN;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (need == 0 || h->head == HEAP_NIL || need > h->free_bytes || align > h->size)
		return HEAP_NOSPACE;
	b = search(h, m, need, align, &g);
	if (b == HEAP_NIL)
		return HEAP_NOSPACE;

	S = ht_size(m, b);
	pin = ht_head(m, b) & HT_PINUSE;
	pos = ht_prev(m, b);
	unlink_free(h, m, b);
	h->free_bytes -= S;
	a = b + g;
	rest = S - g;
	if (g) {
		/* The lead gap stays a free block where b was. */
		ht_set_head(m, b, g, pin);
		ht_set_foot(m, b, g);
		link_after(h, m, pos, b);
		h->free_bytes += g;
		pos = b;
		pin = 0;
	}
	if (rest - need >= HT_MIN) {
		uint32_t r = a + need;

		ht_set_head(m, r, rest - need, HT_PINUSE);
		ht_set_foot(m, r, rest - need);
		link_after(h, m, pos, r);
		h->free_bytes += rest - need;
		asize = need;
		after = r;
	} else {
		asize = rest;
		ht_set_pinuse(m, a + rest);
		after = pos == HEAP_NIL ? h->head : ht_next(m, pos);
	}
	h->rover = after;
	ht_grant(m, a, asize, pin, &h->objects, &h->high_water, out);
	return HEAP_OK;
}

int heap_fit_free(heap_fit *h, uint8_t *m, uint32_t payload)
{
	uint32_t b = ht_check_live(m, h->first, h->epi, payload), S, pin, nb, pos = HEAP_NIL;
	int merged_next = 0;

	if (b == HEAP_NIL)
		return HEAP_INVALID;
	S = ht_size(m, b);
	pin = ht_head(m, b) & HT_PINUSE;
	nb = b + S;
	h->objects--;
	h->free_bytes += S;
	/* b's own head says free even when b melts into the block before, so a
	 * second free of the same payload is caught. */
	ht_set_head(m, b, S, pin);
	ht_clear_pinuse(m, nb);
	if (!(ht_head(m, nb) & HT_CINUSE)) {
		/* b takes the next block's place in the list. */
		pos = ht_prev(m, nb);
		unlink_free(h, m, nb);
		S += ht_size(m, nb);
		merged_next = 1;
	}
	if (!pin) {
		/* Coalesce into the free block before; it keeps its list place. */
		uint32_t pb = b - heap_ld32(m, b - 4u);
		uint32_t ps = ht_size(m, pb) + S;

		ht_set_head(m, pb, ps, ht_head(m, pb) & HT_PINUSE);
		ht_set_foot(m, pb, ps);
		if (h->rover == HEAP_NIL)
			h->rover = pb;
		return HEAP_OK;
	}
	ht_set_head(m, b, S, HT_PINUSE);
	ht_set_foot(m, b, S);
	if (!merged_next) {
		uint32_t q;

		for (q = h->head; q != HEAP_NIL && q < b; q = ht_next(m, q))
			pos = q;
	}
	link_after(h, m, pos, b);
	if (h->rover == HEAP_NIL)
		h->rover = b;
	return HEAP_OK;
}

void heap_fit_walk_free(const heap_fit *h, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t b;

	for (b = h->head; b != HEAP_NIL; b = ht_next(m, b))
		if (fn(ud, b, ht_size(m, b)))
			return;
}

void heap_fit_status(const heap_fit *h, const uint8_t *m, heap_status *st)
{
	uint32_t b, largest = 0;

	for (b = h->head; b != HEAP_NIL; b = ht_next(m, b))
		if (ht_size(m, b) > largest)
			largest = ht_size(m, b);
	st->total_free = h->free_bytes;
	st->largest = largest;
	st->objects = h->objects;
	st->high_water = h->high_water;
}
