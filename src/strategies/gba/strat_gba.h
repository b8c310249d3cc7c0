/* SPDX-License-Identifier: Zlib */
/* strat_gba.h - internal: helpers the GBA strategy adapters share. */
#ifndef VS_SIM_STRAT_GBA_H
#define VS_SIM_STRAT_GBA_H

#include <stdio.h>

#include "vramsim/strategy.h"

#define VS_GBA_TILE_BYTES 32u
#define VS_GBA_OBJ_TILES 1024u

/* Tiles and tile alignment an OBJ request needs: size rounded up to 32-byte
 * tiles; align= in tiles; 8bpp sprites (and 8bpp tiles) start on even tiles
 * (1D mapping). Returns VS_OK or a vs_status failure. */
static inline int vs_gba_obj_tiles(const vs_request *rq, unsigned *n, unsigned *align)
{
	*n = (rq->size + VS_GBA_TILE_BYTES - 1u) / VS_GBA_TILE_BYTES;
	*align = rq->align > VS_GBA_TILE_BYTES ? rq->align / VS_GBA_TILE_BYTES : 1u;
	if ((rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8) ||
		(rq->shape == VS_REQ_TILE && rq->u.tile.bpp == 8))
		if (*align < 2u)
			*align = 2u;
	if (*n == 0 || (*align & (*align - 1u)))
		return VS_ERR_INVALID;
	if (*n > VS_GBA_OBJ_TILES || *align > VS_GBA_OBJ_TILES)
		return VS_ERR_NOSPACE;
	return VS_OK;
}

/* Reports maximal runs of tiles for which is_free says yes, in address
 * order, as byte extents. */
static inline void vs_gba_walk_tiles(void *st, int (*is_free)(void *st, unsigned tile), unsigned ntiles,
	vs_extent_fn fn, void *ud)
{
	unsigned i = 0, j;

	while (i < ntiles) {
		if (!is_free(st, i)) {
			i++;
			continue;
		}
		for (j = i + 1; j < ntiles && is_free(st, j); j++)
			;
		if (fn(ud, i * VS_GBA_TILE_BYTES, (j - i) * VS_GBA_TILE_BYTES))
			return;
		i = j;
	}
}

/* Prints the OBJ tiles as a 32x32 matrix; sym(st, tile) gives each cell. */
static inline void vs_gba_dump_tiles(void *st, char (*sym)(void *st, unsigned tile), vs_print_fn print, void *ud)
{
	char line[48];
	unsigned row, col;

	for (row = 0; row < 32; row++) {
		int n = snprintf(line, sizeof line, "%4u ", row * 32u);
		for (col = 0; col < 32; col++)
			line[n + col] = sym(st, row * 32u + col);
		line[n + 32] = '\n';
		line[n + 33] = '\0';
		print(ud, line);
	}
}

/* ---- BG helpers: the tile managers of 'Gameboy Advance Resource Management' ---- */

/* Map placements carry this bit in their key (tile keys are blocks). */
#define VS_GBA_MAP_KEY 0x80000000u
#define VS_GBA_SB_BYTES 0x800u

static inline int vs_gba_bg_mode_ok(const vs_arena_decl *a, char *err, size_t errlen)
{
	if (a->gba_mode >= 3) {
		snprintf(err, errlen, "the BG tile manager needs a tile mode (0-2), not bitmap mode %u",
			(unsigned)a->gba_mode);
		return -1;
	}
	return 0;
}

/* Screenblocks a map request takes: 1, 2 or 4 (a 3-screenblock size is
 * rounded up so text maps keep SC0-SC3 order); 0 if over 8 KiB. */
static inline unsigned vs_gba_map_blocks(const vs_request *rq)
{
	unsigned n = (rq->size + VS_GBA_SB_BYTES - 1u) / VS_GBA_SB_BYTES;

	if (n == 0)
		n = 1;
	if (n == 3)
		n = 4;
	return n <= 4 ? n : 0;
}

static inline void vs_gba_map_placement(vs_placement *out, int sb, unsigned n)
{
	vs_placement_simple(out, (uint32_t)sb * VS_GBA_SB_BYTES, n * VS_GBA_SB_BYTES,
		VS_GBA_MAP_KEY | ((uint32_t)sb << 8) | n);
}

static inline void vs_gba_tile_placement(vs_placement *out, int32_t block, unsigned bpp, int loaded)
{
	vs_placement_simple(out, (uint32_t)block * VS_GBA_TILE_BYTES, bpp * 8u, (uint32_t)block);
	out->shared = !loaded;
}

/* Tile-manager failure codes (both managers use -1 no space, -2 bad,
 * -3 reference count full) as vs_status. */
static inline int vs_gba_tile_status(int32_t rc)
{
	if (rc == -1)
		return VS_ERR_NOSPACE;
	if (rc == -3)
		return VS_ERR_MANAGEMENT;
	return VS_ERR_INVALID;
}

#endif
