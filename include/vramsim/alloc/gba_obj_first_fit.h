/* SPDX-License-Identifier: Zlib */
/* gba_obj_first_fit.h - first fit over a one-bit-per-tile OBJ VRAM bitmap.
 *
 * The scheme pokeemerald uses (a bit per 32-byte tile, scanned from the
 * first usable tile for n free tiles in a row) and natu's byte map behaves
 * the same way. A second bitmap marks where each allocation starts, so a
 * free of something never allocated, or freed twice, is refused.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_FIRST_FIT_H
#define VRAMSIM_ALLOC_GBA_OBJ_FIRST_FIT_H

#include <stdint.h>

#define GBA_OBJ_FF_TILES 1024u
#define GBA_OBJ_FF_WORDS (GBA_OBJ_FF_TILES / 32u)
#define GBA_OBJ_FF_NONE 0xFFFFu

typedef struct gba_obj_ff {
	uint32_t used[GBA_OBJ_FF_WORDS];  /* 1 = tile taken (or below first) */
	uint32_t start[GBA_OBJ_FF_WORDS]; /* 1 = an allocation starts here */
	uint16_t first;                   /* first usable tile: 0, or 512 in bitmap modes */
} gba_obj_ff;

void gba_obj_ff_init(gba_obj_ff *a, uint16_t first_tile);
/* Only tiles [first, end) usable (the DS: the OBJ VRAM its banks map, in
 * units of the 1D boundary); gba_obj_ff_init is end GBA_OBJ_FF_TILES. */
void gba_obj_ff_init_span(gba_obj_ff *a, uint16_t first, uint16_t end);
/* n tiles starting at a multiple of align (a power of two: 1, or 2 for
 * 8bpp sprites). Returns the first tile or GBA_OBJ_FF_NONE. */
uint16_t gba_obj_ff_alloc(gba_obj_ff *a, uint16_t n, uint16_t align);
/* Frees n tiles from tile. Returns 0, or -1 when no allocation starts there
 * or a tile in the range is already free. */
int gba_obj_ff_free(gba_obj_ff *a, uint16_t tile, uint16_t n);
/* 1 when tile is free. */
int gba_obj_ff_is_free(const gba_obj_ff *a, uint16_t tile);

#endif
