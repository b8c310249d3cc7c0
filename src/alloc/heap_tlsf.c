/* SPDX-License-Identifier: Zlib */
/* heap_tlsf.c - Two-Level Segregated Fit from the published algorithm. */
#include "vramsim/alloc/heap_tlsf.h"

#define SL_COUNT HEAP_TLSF_SL_COUNT
#define SMALL (1u << HEAP_TLSF_FL_SHIFT)

void heap_tlsf_mapping(uint32_t size, uint32_t *fl, uint32_t *sl)
{
	if (size < SMALL) {
		*fl = 0;
		*sl = size / (SMALL / SL_COUNT);
	} else {
		uint32_t f = bits_top32(size);

		*sl = (size >> (f - HEAP_TLSF_SL_LOG2)) ^ SL_COUNT;
		*fl = f - (HEAP_TLSF_FL_SHIFT - 1u);
	}
}

/* Control structure words, in the region. */
static uint32_t sl_map_at(uint32_t fl) { return 4u + 4u * fl; }
static uint32_t head_at(const heap_tlsf *h, uint32_t fl, uint32_t sl)
{
	return 4u + 4u * h->fl_count + 4u * (fl * SL_COUNT + sl);
}

static void insert_free(heap_tlsf *h, uint8_t *m, uint32_t b)
{
	uint32_t fl, sl, at, n;

	heap_tlsf_mapping(ht_size(m, b), &fl, &sl);
	at = head_at(h, fl, sl);
	n = heap_ld32(m, at);
	ht_set_next(m, b, n);
	ht_set_prev(m, b, HEAP_NIL);
	if (n != HEAP_NIL)
		ht_set_prev(m, n, b);
	heap_st32(m, at, b);
	heap_st32(m, 0, heap_ld32(m, 0) | 1u << fl);
	heap_st32(m, sl_map_at(fl), heap_ld32(m, sl_map_at(fl)) | 1u << sl);
	h->free_bytes += ht_size(m, b);
}

static void remove_free(heap_tlsf *h, uint8_t *m, uint32_t b)
{
	uint32_t fl, sl, n = ht_next(m, b), p = ht_prev(m, b);

	heap_tlsf_mapping(ht_size(m, b), &fl, &sl);
	if (n != HEAP_NIL)
		ht_set_prev(m, n, p);
	if (p != HEAP_NIL) {
		ht_set_next(m, p, n);
	} else {
		heap_st32(m, head_at(h, fl, sl), n);
		if (n == HEAP_NIL) {
			uint32_t slm = heap_ld32(m, sl_map_at(fl)) & ~(1u << sl);

			heap_st32(m, sl_map_at(fl), slm);
			if (!slm)
				heap_st32(m, 0, heap_ld32(m, 0) & ~(1u << fl));
		}
	}
	h->free_bytes -= ht_size(m, b);
}

int heap_tlsf_init(heap_tlsf *h, uint8_t *m, uint32_t size)
{
	uint32_t fl, sl, i, first, epi;

	h->size = size;
	h->free_bytes = 0;
	h->objects = 0;
	h->high_water = 0;
	h->first = h->epi = 0;
	/* Enough first-level lists for a block as large as the region. */
	heap_tlsf_mapping(size, &fl, &sl);
	h->fl_count = fl + 1u;
	h->control = 4u + 4u * h->fl_count + 4u * SL_COUNT * h->fl_count;
	if (size < h->control || ht_layout(h->control, size - h->control, &first, &epi))
		return HEAP_NOSPACE;
	h->first = first;
	h->epi = epi;
	heap_st32(m, 0, 0);
	for (i = 0; i < h->fl_count; i++)
		heap_st32(m, sl_map_at(i), 0);
	for (i = 0; i < h->fl_count * SL_COUNT; i++)
		heap_st32(m, 4u + 4u * h->fl_count + 4u * i, HEAP_NIL);
	ht_set_head(m, first, epi - first, HT_PINUSE);
	ht_set_foot(m, first, epi - first);
	ht_set_head(m, epi, 0, HT_CINUSE);
	insert_free(h, m, first);
	return HEAP_OK;
}

/* A free block of at least size bytes, or HEAP_NIL: round up to the next
 * list boundary so any block in the list found is large enough. */
static uint32_t find_suitable(const heap_tlsf *h, const uint8_t *m, uint32_t size)
{
	uint32_t fl, sl, slm, flm;

	if (size >= SMALL) {
		uint32_t r = (1u << (bits_top32(size) - HEAP_TLSF_SL_LOG2)) - 1u;

		if (size + r < size)
			return HEAP_NIL;
		size += r;
	}
	heap_tlsf_mapping(size, &fl, &sl);
	if (fl >= h->fl_count)
		return HEAP_NIL;
	slm = heap_ld32(m, sl_map_at(fl)) & (~0u << sl);
	if (!slm) {
		flm = fl + 1u >= 32u ? 0 : heap_ld32(m, 0) & (~0u << (fl + 1u));
		if (!flm)
			return HEAP_NIL;
		fl = bits_ctz32(flm);
		slm = heap_ld32(m, sl_map_at(fl));
	}
	sl = bits_ctz32(slm);
	return heap_ld32(m, head_at(h, fl, sl));
}

int heap_tlsf_alloc(heap_tlsf *h, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t need = ht_need(size), search, b, S, g, pin, rest, asize;

	if (align <= 1)
		align = HT_ALIGN;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (need == 0 || h->epi == 0 || align > h->size)
		return HEAP_NOSPACE;
	/* An aligned request searches for room to move the payload forward. */
	search = align > HT_ALIGN ? need + align + HT_MIN : need;
	if (search < need)
		return HEAP_NOSPACE;
	b = find_suitable(h, m, search);
	if (b == HEAP_NIL)
		return HEAP_NOSPACE;
	S = ht_size(m, b);
	g = ht_fit_gap(b, S, need, align);
	if (g == HEAP_NIL)
		return HEAP_NOSPACE; /* cannot happen: the search asked for enough */
	remove_free(h, m, b);
	pin = ht_head(m, b) & HT_PINUSE;
	if (g) {
		ht_set_head(m, b, g, pin);
		ht_set_foot(m, b, g);
		insert_free(h, m, b);
		pin = 0;
		b += g;
		S -= g;
	}
	rest = S - need;
	if (rest >= HT_MIN) {
		ht_set_head(m, b + need, rest, HT_PINUSE);
		ht_set_foot(m, b + need, rest);
		insert_free(h, m, b + need);
		asize = need;
	} else {
		asize = S;
		ht_set_pinuse(m, b + S);
	}
	ht_grant(m, b, asize, pin, &h->objects, &h->high_water, out);
	return HEAP_OK;
}

int heap_tlsf_free(heap_tlsf *h, uint8_t *m, uint32_t payload)
{
	uint32_t b, S, nb, pin;

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
	if (!(ht_head(m, nb) & HT_CINUSE)) {
		remove_free(h, m, nb);
		S += ht_size(m, nb);
	} else {
		ht_clear_pinuse(m, nb);
	}
	if (!pin) {
		uint32_t pb = b - heap_ld32(m, b - 4u);

		remove_free(h, m, pb);
		S += ht_size(m, pb);
		pin = ht_head(m, pb) & HT_PINUSE;
		b = pb;
	}
	ht_set_head(m, b, S, pin);
	ht_set_foot(m, b, S);
	insert_free(h, m, b);
	return HEAP_OK;
}

void heap_tlsf_walk_free(const heap_tlsf *h, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	if (h->epi)
		ht_walk_free(m, h->first, h->epi, fn, ud);
}

void heap_tlsf_status(const heap_tlsf *h, const uint8_t *m, heap_status *st)
{
	uint32_t flm, largest = 0;

	/* The largest block is in the highest non-empty list. */
	flm = h->epi ? heap_ld32(m, 0) : 0;
	if (flm) {
		uint32_t fl = bits_top32(flm);
		uint32_t sl = bits_top32(heap_ld32(m, sl_map_at(fl)));
		uint32_t b;

		for (b = heap_ld32(m, head_at(h, fl, sl)); b != HEAP_NIL; b = ht_next(m, b))
			if (ht_size(m, b) > largest)
				largest = ht_size(m, b);
	}
	st->total_free = h->free_bytes;
	st->largest = largest;
	st->objects = h->objects;
	st->high_water = h->high_water;
}
