/* SPDX-License-Identifier: Zlib */
/* heap_dlmalloc.c - binned best-fit heap with boundary tags and a top block. */
#include "vramsim/alloc/heap_dlmalloc.h"

/* Control block words. */
#define C_SMALLMAP 0u
#define C_LARGEMAP 4u /* two words */
#define C_TOP 12u
#define C_SMALL(i) (16u + 4u * (i))
#define C_LARGE(j) (16u + 4u * HEAP_DL_SMALL_BINS + 4u * (j))
#define SMALL_LIMIT (HEAP_DL_SMALL_BINS * 8u) /* 256: sizes below are small */

static uint32_t top_of(const uint8_t *m) { return heap_ld32(m, C_TOP); }
static void set_top(uint8_t *m, uint32_t t) { heap_st32(m, C_TOP, t); }

static uint32_t large_index(uint32_t s)
{
	uint32_t f = bits_top32(s);

	return (f - 8u) * 2u + ((s >> (f - 1u)) & 1u);
}

static void map_set(uint8_t *m, uint32_t word, uint32_t bit, int on)
{
	uint32_t v = heap_ld32(m, word);

	heap_st32(m, word, on ? v | 1u << bit : v & ~(1u << bit));
}

/* Head slot and bitmap place of the bin for size s. */
static void bin_of(uint32_t s, uint32_t *head, uint32_t *word, uint32_t *bit)
{
	if (s < SMALL_LIMIT) {
		*head = C_SMALL(s >> 3);
		*word = C_SMALLMAP;
		*bit = s >> 3;
	} else {
		uint32_t j = large_index(s);
		*head = C_LARGE(j);
		*word = C_LARGEMAP + 4u * (j >> 5);
		*bit = j & 31u;
	}
}

static void bin_insert(heap_dlmalloc *h, uint8_t *m, uint32_t b)
{
	uint32_t s = ht_size(m, b), head, word, bit, p = HEAP_NIL, q;

	bin_of(s, &head, &word, &bit);
	q = heap_ld32(m, head);
	/* Large bins stay sorted by size so the first fit in a bin is the best. */
	if (s >= SMALL_LIMIT)
		for (; q != HEAP_NIL && ht_size(m, q) <= s; q = ht_next(m, q))
			p = q;
	ht_set_next(m, b, q);
	ht_set_prev(m, b, p);
	if (q != HEAP_NIL)
		ht_set_prev(m, q, b);
	if (p == HEAP_NIL)
		heap_st32(m, head, b);
	else
		ht_set_next(m, p, b);
	map_set(m, word, bit, 1);
	h->free_bytes += s;
}

static void bin_remove(heap_dlmalloc *h, uint8_t *m, uint32_t b)
{
	uint32_t s = ht_size(m, b), head, word, bit, n = ht_next(m, b), p = ht_prev(m, b);

	bin_of(s, &head, &word, &bit);
	if (n != HEAP_NIL)
		ht_set_prev(m, n, p);
	if (p != HEAP_NIL) {
		ht_set_next(m, p, n);
	} else {
		heap_st32(m, head, n);
		if (n == HEAP_NIL)
			map_set(m, word, bit, 0);
	}
	h->free_bytes -= s;
}

int heap_dlmalloc_init(heap_dlmalloc *h, uint8_t *m, uint32_t size)
{
	uint32_t i, first, epi;

	h->size = size;
	h->first = h->epi = 0;
	h->free_bytes = 0;
	h->objects = 0;
	h->high_water = 0;
	if (size < HEAP_DL_CONTROL || ht_layout(HEAP_DL_CONTROL, size - HEAP_DL_CONTROL, &first, &epi))
		return HEAP_NOSPACE;
	h->first = first;
	h->epi = epi;
	for (i = 0; i < 16u; i += 4u)
		heap_st32(m, i, 0);
	for (i = 0; i < HEAP_DL_SMALL_BINS + HEAP_DL_LARGE_BINS; i++)
		heap_st32(m, C_SMALL(i), HEAP_NIL);
	/* Everything starts as top. */
	ht_set_head(m, first, epi - first, HT_PINUSE);
	ht_set_foot(m, first, epi - first);
	ht_set_head(m, epi, 0, HT_CINUSE);
	set_top(m, first);
	h->free_bytes = epi - first;
	return HEAP_OK;
}

uint32_t heap_dlmalloc_top(const heap_dlmalloc *h, const uint8_t *m)
{
	return h->epi ? top_of(m) : 0;
}

/* Smallest binned block of at least need bytes, or HEAP_NIL. */
static uint32_t best_binned(const uint8_t *m, uint32_t need)
{
	uint32_t j, w, b;

	if (need < SMALL_LIMIT) {
		uint32_t map = heap_ld32(m, C_SMALLMAP) & (~0u << (need >> 3));

		if (map)
			return heap_ld32(m, C_SMALL(bits_ctz32(map)));
		j = 0;
	} else {
		j = large_index(need);
		/* Within the request's own bin, walk to the first that fits. */
		for (b = heap_ld32(m, C_LARGE(j)); b != HEAP_NIL; b = ht_next(m, b))
			if (ht_size(m, b) >= need)
				return b;
		j++;
	}
	/* Any later bin's first block is its smallest and fits. */
	for (w = j >> 5; w < 2u && j < HEAP_DL_LARGE_BINS; w++, j = w * 32u) {
		uint32_t map = heap_ld32(m, C_LARGEMAP + 4u * w) & (~0u << (j & 31u));

		if (map)
			return heap_ld32(m, C_LARGE(w * 32u + bits_ctz32(map)));
	}
	return HEAP_NIL;
}

/* Files a free block b of S bytes (head and foot written): top if it ends at
 * the epilogue, else its bin. */
static void file_free(heap_dlmalloc *h, uint8_t *m, uint32_t b, uint32_t S, uint32_t pin)
{
	ht_set_head(m, b, S, pin);
	ht_set_foot(m, b, S);
	if (b + S == h->epi) {
		set_top(m, b);
		h->free_bytes += S;
	} else {
		bin_insert(h, m, b);
	}
}

int heap_dlmalloc_alloc(heap_dlmalloc *h, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t need = ht_need(size), search, b, S, g, pin, rest, asize, top;

	if (align <= 1u)
		align = HT_ALIGN;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (need == 0 || h->epi == 0 || align > h->size)
		return HEAP_NOSPACE;
	search = align > HT_ALIGN ? need + align + HT_MIN : need;
	if (search < need)
		return HEAP_NOSPACE;
	top = top_of(m);
	b = best_binned(m, search);
	if (b != HEAP_NIL) {
		bin_remove(h, m, b);
	} else if (top != h->epi && ht_size(m, top) >= search) {
		b = top;
		set_top(m, h->epi);
		h->free_bytes -= ht_size(m, b);
	} else {
		return HEAP_NOSPACE;
	}
	S = ht_size(m, b);
	pin = ht_head(m, b) & HT_PINUSE;
	g = ht_fit_gap(b, S, need, align);
	if (g) {
		file_free(h, m, b, g, pin); /* never top: the rest follows it */
		pin = 0;
		b += g;
		S -= g;
	}
	rest = S - need;
	if (rest >= HT_MIN) {
		file_free(h, m, b + need, rest, HT_PINUSE);
		asize = need;
	} else {
		asize = S;
		ht_set_pinuse(m, b + S);
	}
	ht_grant(m, b, asize, pin, &h->objects, &h->high_water, out);
	return HEAP_OK;
}

int heap_dlmalloc_free(heap_dlmalloc *h, uint8_t *m, uint32_t payload)
{
	uint32_t b, S, pin, nb;

	if (h->epi == 0)
		return HEAP_INVALID;
	b = ht_check_live(m, h->first, h->epi, payload);
	if (b == HEAP_NIL)
		return HEAP_INVALID;
	S = ht_size(m, b);
	pin = ht_head(m, b) & HT_PINUSE;
	nb = b + S;
	h->objects--;
	ht_set_head(m, b, S, pin); /* a second free of this payload is caught */
	if (nb != h->epi && nb == top_of(m)) {
		h->free_bytes -= ht_size(m, nb);
		S += ht_size(m, nb);
		set_top(m, h->epi);
	} else if (!(ht_head(m, nb) & HT_CINUSE)) {
		bin_remove(h, m, nb);
		S += ht_size(m, nb);
	} else {
		ht_clear_pinuse(m, nb);
	}
	if (!pin) {
		uint32_t pb = b - heap_ld32(m, b - 4u);

		bin_remove(h, m, pb);
		S += ht_size(m, pb);
		pin = ht_head(m, pb) & HT_PINUSE;
		b = pb;
	}
	file_free(h, m, b, S, pin);
	return HEAP_OK;
}

void heap_dlmalloc_walk_free(const heap_dlmalloc *h, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	if (h->epi)
		ht_walk_free(m, h->first, h->epi, fn, ud);
}

void heap_dlmalloc_status(const heap_dlmalloc *h, const uint8_t *m, heap_status *st)
{
	uint32_t largest = 0, top, j;

	if (h->epi) {
		top = top_of(m);
		if (top != h->epi)
			largest = ht_size(m, top);
		/* The largest binned block ends the highest non-empty large bin
		 * (lists are sorted), else heads the highest small bin. */
		for (j = HEAP_DL_LARGE_BINS; j-- > 0;) {
			uint32_t b = heap_ld32(m, C_LARGE(j)), last = HEAP_NIL;

			for (; b != HEAP_NIL; b = ht_next(m, b))
				last = b;
			if (last != HEAP_NIL) {
				if (ht_size(m, last) > largest)
					largest = ht_size(m, last);
				break;
			}
		}
		if (j == (uint32_t)-1 && heap_ld32(m, C_SMALLMAP)) {
			uint32_t s = bits_top32(heap_ld32(m, C_SMALLMAP)) * 8u;
			if (s > largest)
				largest = s;
		}
	}
	st->total_free = h->free_bytes;
	st->largest = largest;
	st->objects = h->objects;
	st->high_water = h->high_water;
}
