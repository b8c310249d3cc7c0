/* SPDX-License-Identifier: Zlib */
/* gba_obj_first_fit.c - first fit over a tile bitmap (pokeemerald, natu). */
#include "vramsim/alloc/gba_obj_first_fit.h"

#define BIT(t) (1u << ((t) & 31u))

static void set_range(uint32_t *w, uint32_t t, uint32_t n, int on)
{
	for (; n; n--, t++) {
		if (on)
			w[t >> 5] |= BIT(t);
		else
			w[t >> 5] &= ~BIT(t);
	}
}

void gba_obj_ff_init(gba_obj_ff *a, uint16_t first_tile)
{
	gba_obj_ff_init_span(a, first_tile, GBA_OBJ_FF_TILES);
}

void gba_obj_ff_init_span(gba_obj_ff *a, uint16_t first, uint16_t end)
{
	uint32_t i;

	if (end > GBA_OBJ_FF_TILES)
		end = GBA_OBJ_FF_TILES;
	if (first > end)
		first = end;
	a->first = first;
	for (i = 0; i < GBA_OBJ_FF_WORDS; i++) {
		a->used[i] = 0;
		a->start[i] = 0;
	}
	set_range(a->used, 0, first, 1);
	set_range(a->used, end, GBA_OBJ_FF_TILES - end, 1); /* taken for good, as below first */
}

int gba_obj_ff_is_free(const gba_obj_ff *a, uint16_t tile)
{
	return tile < GBA_OBJ_FF_TILES && !(a->used[tile >> 5] & BIT(tile));
}

uint16_t gba_obj_ff_alloc(gba_obj_ff *a, uint16_t n, uint16_t align)
{
	uint32_t t, run = 0, s = 0;

	if (n == 0 || n > GBA_OBJ_FF_TILES || align == 0 || (align & (align - 1)))
		return GBA_OBJ_FF_NONE;
	/* The plain tile walk the real code does: count free tiles in a row,
	 * a run may only begin on an aligned tile. */
	for (t = a->first; t < GBA_OBJ_FF_TILES; t++) {
		if (a->used[t >> 5] & BIT(t)) {
			run = 0;
			continue;
		}
		if (run == 0) {
			if (t & (align - 1u))
				continue;
			s = t;
		}
		if (++run == n) {
			set_range(a->used, s, n, 1);
			a->start[s >> 5] |= BIT(s);
			return (uint16_t)s;
		}
	}
	return GBA_OBJ_FF_NONE;
}

int gba_obj_ff_free(gba_obj_ff *a, uint16_t tile, uint16_t n)
{
	uint32_t t;

	if (n == 0 || (uint32_t)tile + n > GBA_OBJ_FF_TILES || !(a->start[tile >> 5] & BIT(tile)))
		return -1;
	for (t = tile; t < (uint32_t)tile + n; t++)
		if (!(a->used[t >> 5] & BIT(t)))
			return -1;
	a->start[tile >> 5] &= ~BIT(tile);
	set_range(a->used, tile, n, 0);
	return 0;
}
