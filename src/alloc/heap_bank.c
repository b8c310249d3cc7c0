/* SPDX-License-Identifier: Zlib */
/* heap_bank.c - orx's memory bank: cells in segments with bit maps. */
#include "vramsim/alloc/heap_bank.h"

/* Segment header fields, as orxBANK_SEGMENT lays them out on a 32-bit target. */
#define SEG_MAP 0u
#define SEG_DATA 4u
#define SEG_NEXT 8u
#define SEG_NBFREE 12u

static uint32_t seg_next(const uint8_t *m, uint32_t s) { return heap_ld32(m, s + SEG_NEXT); }
static uint32_t seg_data(const uint8_t *m, uint32_t s) { return heap_ld32(m, s + SEG_DATA); }
static uint32_t seg_map(const uint8_t *m, uint32_t s) { return heap_ld32(m, s + SEG_MAP); }
static uint32_t seg_nbfree(const uint8_t *m, uint32_t s) { return heap_ld32(m, s + SEG_NBFREE) & 0xFFFFu; }
static void seg_set_nbfree(uint8_t *m, uint32_t s, uint32_t n) { heap_st32(m, s + SEG_NBFREE, n); }

static uint32_t new_segment(heap_bank *b, uint8_t *m);

int heap_bank_init(heap_bank *b, uint8_t *m, uint32_t size, uint32_t cell, uint32_t per, uint32_t grow)
{
	uint32_t data_off;

	b->size = size;
	b->first_seg = b->last_seg = b->free_segs = HEAP_NIL;
	b->top = 0;
	b->segments = 0;
	b->objects = 0;
	b->high_water = 0;
	b->grow = grow != 0;
	if (cell == 0 || cell > 0x01000000u || per == 0 || per > 0xFFFFu)
		return HEAP_INVALID;
	b->cell = (cell + 3u) & ~3u;
	b->per = per;
	b->map_words = (per + 31u) / 32u;
	data_off = HEAP_BANK_SEG_HEADER + 4u * b->map_words;
	if (per > (0xFFFFFFFFu - data_off) / b->cell)
		return HEAP_INVALID;
	b->seg_bytes = data_off + b->cell * per;
	if (b->seg_bytes > size)
		return HEAP_NOSPACE;
	/* orxBank_Create makes the first segment at once. */
	new_segment(b, m);
	return HEAP_OK;
}

/* Largest power of two every cell start is a multiple of: what the data
 * offset, the cell size and the segment size share. */
static uint32_t cell_align(const heap_bank *b)
{
	uint32_t data_off = HEAP_BANK_SEG_HEADER + 4u * b->map_words, a;

	for (a = 4u; a < 0x80000000u && !(data_off % (a * 2u)) && !(b->cell % (a * 2u)) &&
	     !(b->seg_bytes % (a * 2u)); a *= 2u)
		;
	return a;
}

static uint32_t new_segment(heap_bank *b, uint8_t *m)
{
	uint32_t s, i;

	if (!b->grow && b->segments)
		return HEAP_NIL; /* a bank that does not grow has its first segment only */
	if (b->free_segs != HEAP_NIL) {
		s = b->free_segs;
		b->free_segs = seg_next(m, s);
	} else if (b->size - b->top >= b->seg_bytes) {
		s = b->top;
		b->top += b->seg_bytes;
		if (b->top > b->high_water)
			b->high_water = b->top;
	} else {
		return HEAP_NIL;
	}
	heap_st32(m, s + SEG_MAP, s + HEAP_BANK_SEG_HEADER);
	heap_st32(m, s + SEG_DATA, s + HEAP_BANK_SEG_HEADER + 4u * b->map_words);
	heap_st32(m, s + SEG_NEXT, HEAP_NIL);
	seg_set_nbfree(m, s, b->per);
	for (i = 0; i < b->map_words; i++)
		heap_st32(m, s + HEAP_BANK_SEG_HEADER + 4u * i, 0);
	if (b->last_seg == HEAP_NIL)
		b->first_seg = s;
	else
		heap_st32(m, b->last_seg + SEG_NEXT, s);
	b->last_seg = s;
	b->segments++;
	return s;
}

int heap_bank_alloc(heap_bank *b, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t s, w, word, bit, i, map;

	if (b->per == 0)
		return HEAP_NOSPACE;
	if (size > b->cell || (align > 4u && align > cell_align(b)))
		return HEAP_UNSUPPORTED;
	for (s = b->first_seg; s != HEAP_NIL && seg_nbfree(m, s) == 0; s = seg_next(m, s))
		;
	if (s == HEAP_NIL && (s = new_segment(b, m)) == HEAP_NIL)
		return HEAP_NOSPACE;
	map = seg_map(m, s);
	for (w = 0; w < b->map_words; w++) {
		word = heap_ld32(m, map + 4u * w);
		if (word != 0xFFFFFFFFu)
			break;
	}
	if (w == b->map_words)
		return HEAP_NOSPACE; /* nbfree disagrees with the map: corrupted segment */
	bit = bits_ctz32(~word);
	i = w * 32u + bit;
	if (i >= b->per)
		return HEAP_NOSPACE; /* nbfree disagrees with the map: corrupted segment */
	heap_st32(m, map + 4u * w, word | 1u << bit);
	seg_set_nbfree(m, s, seg_nbfree(m, s) - 1u);
	b->objects++;
	out->offset = out->block_offset = seg_data(m, s) + i * b->cell;
	out->granted = out->block_size = b->cell;
	return HEAP_OK;
}

int heap_bank_free(heap_bank *b, uint8_t *m, uint32_t off)
{
	uint32_t s, prev = HEAP_NIL, d, i, map, word;

	for (s = b->first_seg; s != HEAP_NIL; prev = s, s = seg_next(m, s)) {
		d = seg_data(m, s);
		if (off >= d && off - d < b->per * b->cell)
			break;
	}
	if (s == HEAP_NIL || (off - d) % b->cell)
		return HEAP_INVALID;
	i = (off - d) / b->cell;
	map = seg_map(m, s);
	word = heap_ld32(m, map + 4u * (i / 32u));
	if (!(word & 1u << (i % 32u)))
		return HEAP_INVALID;
	heap_st32(m, map + 4u * (i / 32u), word & ~(1u << (i % 32u)));
	seg_set_nbfree(m, s, seg_nbfree(m, s) + 1u);
	b->objects--;
	if (seg_nbfree(m, s) == b->per && s != b->first_seg) {
		/* An empty segment goes back; the first one stays, as in orx. */
		heap_st32(m, prev + SEG_NEXT, seg_next(m, s));
		if (b->last_seg == s)
			b->last_seg = prev;
		heap_st32(m, s + SEG_NEXT, b->free_segs);
		b->free_segs = s;
		b->segments--;
	}
	return HEAP_OK;
}

void heap_bank_walk_free(const heap_bank *b, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t s, i, j, d, map;

	for (s = b->first_seg; s != HEAP_NIL; s = seg_next(m, s)) {
		d = seg_data(m, s);
		map = seg_map(m, s);
		for (i = 0; i < b->per;) {
			if (heap_ld32(m, map + 4u * (i / 32u)) & 1u << (i % 32u)) {
				i++;
				continue;
			}
			for (j = i; j < b->per && !(heap_ld32(m, map + 4u * (j / 32u)) & 1u << (j % 32u)); j++)
				;
			if (fn(ud, d + i * b->cell, (j - i) * b->cell))
				return;
			i = j;
		}
	}
	for (s = b->free_segs; s != HEAP_NIL; s = seg_next(m, s))
		if (fn(ud, s, b->seg_bytes))
			return;
	if (b->grow && b->top < b->size)
		fn(ud, b->top, b->size - b->top);
}

void heap_bank_walk_held(const heap_bank *b, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t s;

	for (s = b->first_seg; s != HEAP_NIL; s = seg_next(m, s))
		if (fn(ud, s, HEAP_BANK_SEG_HEADER + 4u * b->map_words))
			return;
	if (!b->grow && b->segments && b->top < b->size)
		fn(ud, b->top, b->size - b->top);
}

void heap_bank_status(const heap_bank *b, const uint8_t *m, heap_status *st)
{
	uint32_t s, free_cells = 0, nfree_segs = 0;

	for (s = b->first_seg; s != HEAP_NIL; s = seg_next(m, s))
		free_cells += seg_nbfree(m, s);
	for (s = b->free_segs; s != HEAP_NIL; s = seg_next(m, s))
		nfree_segs++;
	if (!b->grow) {
		/* one segment: its free cells are all a request can have */
		st->total_free = free_cells * b->cell;
		st->largest = free_cells ? b->cell : 0;
		st->objects = b->objects;
		st->high_water = b->high_water;
		return;
	}
	st->total_free = free_cells * b->cell + nfree_segs * b->seg_bytes + (b->size - b->top);
	st->largest = b->size - b->top;
	if (nfree_segs && b->seg_bytes > st->largest)
		st->largest = b->seg_bytes;
	if (free_cells && b->cell > st->largest)
		st->largest = b->cell;
	st->objects = b->objects;
	st->high_water = b->high_water;
}
