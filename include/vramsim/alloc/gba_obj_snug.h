/* SPDX-License-Identifier: Zlib */
/* gba_obj_snug.h - "snug fit": hole-first, address-ordered first fit over
 * an OBJ tile bitmap, searched a word at a time.
 *
 * vramsim's own OBJ VRAM allocator (see docs/gba.md for the design notes and
 * the measured comparison). One bit per tile says free; a second bitmap
 * marks where allocations start, so bad frees are refused. Nothing else is
 * kept, so the state is 258 bytes and a memcpy snapshot.
 *
 * Placement: walking the free runs in address order, the first run that
 * holds the request snugly (at most twice its size) wins; if none does, the
 * first run that holds it at all (address-ordered first fit, which
 * Johnstone and Wilson found among the least fragmenting policies). Taking
 * a snug hole first keeps holes left by dead sprites from staying as
 * slivers in front of the large free area, and keeps large runs whole for
 * large sprites. Starts honour the alignment (8bpp sprites: even tiles).
 *
 * Bounded: runs are found with a count-trailing-zeros over 32-bit words of
 * the bitmap, so a call costs at most 32 word reads plus one step per free
 * run; it never walks tile by tile.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_SNUG_H
#define VRAMSIM_ALLOC_GBA_OBJ_SNUG_H

#include <stdint.h>

#define GBA_OBJ_SNUG_TILES 1024u
#define GBA_OBJ_SNUG_WORDS 32u
#define GBA_OBJ_SNUG_NONE 0xFFFFu

typedef struct gba_obj_snug {
	uint32_t freew[GBA_OBJ_SNUG_WORDS]; /* 1 = tile free */
	uint32_t start[GBA_OBJ_SNUG_WORDS]; /* 1 = an allocation starts here */
	uint16_t first;                     /* first usable tile: 0, or 512 in bitmap modes */
} gba_obj_snug;

void gba_obj_snug_init(gba_obj_snug *a, uint16_t first_tile);
/* Only tiles [first, end) usable (the DS: the OBJ VRAM its banks map, in
 * units of the 1D boundary); gba_obj_snug_init is end GBA_OBJ_SNUG_TILES. */
void gba_obj_snug_init_span(gba_obj_snug *a, uint16_t first, uint16_t end);
/* n tiles at a multiple of align (a power of two). Returns the first tile
 * or GBA_OBJ_SNUG_NONE. */
uint16_t gba_obj_snug_alloc(gba_obj_snug *a, uint16_t n, uint16_t align);
/* Frees n tiles from tile: 0, or -1 if no allocation starts there or a tile
 * in the range is free. */
int gba_obj_snug_free(gba_obj_snug *a, uint16_t tile, uint16_t n);
int gba_obj_snug_is_free(const gba_obj_snug *a, uint16_t tile);

#endif
