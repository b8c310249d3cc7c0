/* SPDX-License-Identifier: Zlib */
/* gba_obj_ends.c - two-ended best fit over an OBJ tile bitmap (see header). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/gba_obj_ends.h"

#define TILES GBA_OBJ_ENDS_TILES
#define WORDS GBA_OBJ_ENDS_WORDS

/* Next tile at or after t whose free bit equals want, or TILES: whole
 * words at a time. */
static uint32_t next_with(const gba_obj_ends *a, uint32_t t, int want)
{
	return bits_next(a->freew, t, TILES, want);
}

/* The smallest free run [s, e) that holds n tiles at alignment al; a small
 * request takes the highest aligned start in it (highest run on ties), a
 * large one the lowest (lowest run on ties). -1 if no run holds it. */
static int32_t find(const gba_obj_ends *a, uint32_t n, uint32_t al)
{
	int small = n <= GBA_OBJ_ENDS_SMALL;
	uint32_t s, e, lo, hi, best_len = TILES + 1u;
	int32_t best = -1;

	for (s = next_with(a, a->first, 1); s < TILES; s = next_with(a, e, 1)) {
		e = next_with(a, s, 0);
		lo = (s + al - 1u) & ~(al - 1u);
		if (lo + n > e)
			continue;
		if (!small) {
			if (e - s < best_len) {
				best_len = e - s;
				best = (int32_t)lo;
				if (best_len == n)
					break; /* exact and lowest: nothing beats it */
			}
			continue;
		}
		hi = (e - n) & ~(al - 1u);
		if (e - s <= best_len) {
			best_len = e - s;
			best = (int32_t)hi;
		}
	}
	return best;
}

void gba_obj_ends_init(gba_obj_ends *a, uint16_t first_tile)
{
	unsigned i;

	if (first_tile > TILES)
		first_tile = TILES;
	a->first = first_tile;
	for (i = 0; i < WORDS; i++) {
		a->freew[i] = 0;
		a->start[i] = 0;
	}
	if (first_tile < TILES)
		bits_fill(a->freew, first_tile, TILES - first_tile, 1);
}

int gba_obj_ends_is_free(const gba_obj_ends *a, uint16_t tile)
{
	return tile < TILES && ((a->freew[tile >> 5] >> (tile & 31u)) & 1u);
}

int gba_obj_ends_is_start(const gba_obj_ends *a, uint16_t tile)
{
	return tile < TILES && ((a->start[tile >> 5] >> (tile & 31u)) & 1u);
}

uint16_t gba_obj_ends_alloc(gba_obj_ends *a, uint16_t n, uint16_t align)
{
	int32_t s;

	if (n == 0 || n > TILES || align == 0 || (align & (align - 1u)))
		return GBA_OBJ_ENDS_NONE;
	s = find(a, n, align);
	if (s < 0)
		return GBA_OBJ_ENDS_NONE;
	bits_fill(a->freew, (uint32_t)s, n, 0);
	a->start[(uint32_t)s >> 5] |= 1u << ((uint32_t)s & 31u);
	return (uint16_t)s;
}

int gba_obj_ends_free(gba_obj_ends *a, uint16_t tile, uint16_t n)
{
	uint32_t t = tile;

	if (n == 0 || t + n > TILES || !gba_obj_ends_is_start(a, tile))
		return -1;
	/* every tile of it must be taken: a free one means a bad free */
	if (!bits_all(a->freew, tile, n, 0))
		return -1;
	a->start[tile >> 5] &= ~(1u << (tile & 31u));
	bits_fill(a->freew, tile, n, 1);
	return 0;
}
