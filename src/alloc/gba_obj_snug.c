/* gba_obj_snug.c - hole-first first fit over an OBJ tile bitmap (see header). */
#include "vramsim/alloc/gba_obj_snug.h"

#define WORDS GBA_OBJ_SNUG_WORDS
#define FULL 0xFFFFFFFFu

/* Count trailing zeros of x != 0 (de Bruijn multiply: the ARM7TDMI has no
 * CLZ instruction). */
static unsigned ctz32(uint32_t x)
{
	static const uint8_t tab[32] = {
		0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
		31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9
	};
	return tab[((x & (~x + 1u)) * 0x077CB531u) >> 27];
}

/* Mask of bits [lo, lo + n) of a word, 0 < n, lo + n <= 32. */
static uint32_t span(unsigned lo, unsigned n)
{
	return (n >= 32u ? FULL : ((1u << n) - 1u)) << lo;
}

static void set_free(uint32_t *w, uint32_t t, uint32_t n, int on)
{
	while (n) {
		unsigned lo = t & 31u, k = 32u - lo < n ? 32u - lo : n;
		if (on)
			w[t >> 5] |= span(lo, k);
		else
			w[t >> 5] &= ~span(lo, k);
		t += k;
		n -= k;
	}
}

/* Next tile at or after t whose free bit equals want, or TILES. */
static uint32_t next_with(const gba_obj_snug *a, uint32_t t, int want)
{
	while (t < GBA_OBJ_SNUG_TILES) {
		uint32_t w = a->freew[t >> 5];
		if (!want)
			w = ~w;
		w &= FULL << (t & 31u);
		if (w)
			return (t & ~31u) + ctz32(w);
		t = (t & ~31u) + 32u;
	}
	return GBA_OBJ_SNUG_TILES;
}

/* The first run that holds n tiles at alignment al snugly (at most twice
 * n), else the first run that holds them at all; -1 if none. Runs are
 * found a word at a time: O(32 + runs), never tile by tile. */
static int32_t find_run(const gba_obj_snug *a, uint32_t n, uint32_t al)
{
	uint32_t s, e, lo;
	int32_t first = -1;

	for (s = next_with(a, a->first, 1); s < GBA_OBJ_SNUG_TILES; s = next_with(a, e, 1)) {
		e = next_with(a, s, 0);
		lo = (s + al - 1u) & ~(al - 1u);
		if (lo + n > e)
			continue;
		if (e - s <= 2u * n)
			return (int32_t)lo;
		if (first < 0)
			first = (int32_t)lo;
	}
	return first;
}

void gba_obj_snug_init(gba_obj_snug *a, uint16_t first_tile)
{
	unsigned i;

	if (first_tile > GBA_OBJ_SNUG_TILES)
		first_tile = GBA_OBJ_SNUG_TILES;
	a->first = first_tile;
	for (i = 0; i < WORDS; i++) {
		a->freew[i] = 0;
		a->start[i] = 0;
	}
	set_free(a->freew, first_tile, GBA_OBJ_SNUG_TILES - first_tile, 1);
}

int gba_obj_snug_is_free(const gba_obj_snug *a, uint16_t tile)
{
	return tile < GBA_OBJ_SNUG_TILES && ((a->freew[tile >> 5] >> (tile & 31u)) & 1u);
}

uint16_t gba_obj_snug_alloc(gba_obj_snug *a, uint16_t n, uint16_t align)
{
	int32_t s;

	if (n == 0 || n > GBA_OBJ_SNUG_TILES || align == 0 || (align & (align - 1u)))
		return GBA_OBJ_SNUG_NONE;
	s = find_run(a, n, align);
	if (s < 0)
		return GBA_OBJ_SNUG_NONE;
	set_free(a->freew, (uint32_t)s, n, 0);
	a->start[(uint32_t)s >> 5] |= 1u << ((uint32_t)s & 31u);
	return (uint16_t)s;
}

int gba_obj_snug_free(gba_obj_snug *a, uint16_t tile, uint16_t n)
{
	uint32_t t = tile, left = n;

	if (n == 0 || t + n > GBA_OBJ_SNUG_TILES || !((a->start[t >> 5] >> (t & 31u)) & 1u))
		return -1;
	while (left) {
		unsigned lo = t & 31u, k = 32u - lo < left ? 32u - lo : left;
		if (a->freew[t >> 5] & span(lo, k))
			return -1;
		t += k;
		left -= k;
	}
	a->start[tile >> 5] &= ~(1u << (tile & 31u));
	set_free(a->freew, tile, n, 1);
	return 0;
}
