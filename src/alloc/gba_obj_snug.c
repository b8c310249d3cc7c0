/* SPDX-License-Identifier: Zlib */
/* gba_obj_snug.c - hole-first first fit over an OBJ tile bitmap (see header). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/gba_obj_snug.h"

#define WORDS GBA_OBJ_SNUG_WORDS

/* Next tile at or after t whose free bit equals want, or GBA_OBJ_SNUG_TILES: whole
 * words at a time. */
static uint32_t next_with(const gba_obj_snug *a, uint32_t t, int want)
{
	return bits_next(a->freew, t, GBA_OBJ_SNUG_TILES, want);
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
	gba_obj_snug_init_span(a, first_tile, GBA_OBJ_SNUG_TILES);
}

void gba_obj_snug_init_span(gba_obj_snug *a, uint16_t first, uint16_t end)
{
	unsigned i;

	if (end > GBA_OBJ_SNUG_TILES)
		end = GBA_OBJ_SNUG_TILES;
	if (first > end)
		first = end;
	a->first = first;
	for (i = 0; i < WORDS; i++) {
		a->freew[i] = 0;
		a->start[i] = 0;
	}
	bits_fill(a->freew, first, end - first, 1);
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
	bits_fill(a->freew, (uint32_t)s, n, 0);
	a->start[(uint32_t)s >> 5] |= 1u << ((uint32_t)s & 31u);
	return (uint16_t)s;
}

int gba_obj_snug_free(gba_obj_snug *a, uint16_t tile, uint16_t n)
{
	uint32_t t = tile;

	if (n == 0 || t + n > GBA_OBJ_SNUG_TILES || !((a->start[t >> 5] >> (t & 31u)) & 1u))
		return -1;
	/* every tile of it must be taken: a free one means a bad free */
	if (!bits_all(a->freew, tile, n, 0))
		return -1;
	a->start[tile >> 5] &= ~(1u << (tile & 31u));
	bits_fill(a->freew, tile, n, 1);
	return 0;
}
