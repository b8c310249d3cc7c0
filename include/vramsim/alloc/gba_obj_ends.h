/* SPDX-License-Identifier: Zlib */
/* gba_obj_ends.h - "two-ended best fit" over an OBJ tile bitmap, searched a
 * word at a time: vramsim's own OBJ VRAM allocator.
 *
 * Sprite sizes say something about lifetimes: bullets, sparks and debris
 * (1-4 tiles) come and go within a second, while enemies, bosses, the
 * player and level graphics (8-128 tiles) stay for seconds or the whole
 * level. So small and large requests are kept apart, each packed against
 * its own end of OBJ VRAM, and the free space between them stays in one
 * piece:
 *
 * - every request takes the smallest free run that holds it at its
 *   alignment (best fit: large runs are left whole for large sprites);
 * - a small request (at most GBA_OBJ_ENDS_SMALL tiles) is placed at the
 *   high end of that run, and among runs of equal length the highest wins;
 * - a large request is placed at the low end, the lowest run winning ties.
 *
 * State: a free bit and a start bit per tile, the start of every free run
 * filed by its length class (1, 2-3, 4-7, ... 32-63, 64 and more tiles)
 * with a word-summary per class, and a bit per word that is wholly free:
 * 1,188 bytes (258 before the classes), a memcpy snapshot, bad frees
 * refused. A call reads the classes from the request's own upwards and
 * stops at the first that holds a fit, so it visits only runs of about the
 * request's length (a class of length 2^c holds at most 1024 / 2^c runs),
 * never every free run nor a tile-by-tile walk. Allocating splits one run
 * and freeing merges at most three; run ends are found a word, or 32 free
 * words, at a time. See docs/gba.md for the measured comparison.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_ENDS_H
#define VRAMSIM_ALLOC_GBA_OBJ_ENDS_H

#include <stdint.h>

#define GBA_OBJ_ENDS_TILES 1024u
#define GBA_OBJ_ENDS_WORDS 32u
#define GBA_OBJ_ENDS_NONE 0xFFFFu
/* Requests of at most this many tiles (a 16x16 4bpp sprite) are small. */
#define GBA_OBJ_ENDS_SMALL 4u
/* Free-run length classes: 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64+ tiles. */
#define GBA_OBJ_ENDS_CLASSES 7u

typedef struct gba_obj_ends {
	uint32_t freew[GBA_OBJ_ENDS_WORDS]; /* 1 = tile free */
	uint32_t start[GBA_OBJ_ENDS_WORDS]; /* 1 = an allocation starts here */
	uint32_t runs[GBA_OBJ_ENDS_CLASSES][GBA_OBJ_ENDS_WORDS]; /* 1 = a free run of that class starts here */
	uint32_t words[GBA_OBJ_ENDS_CLASSES]; /* bit w: runs[c][w] is not 0 */
	uint32_t fullw;                       /* bit w: freew[w] is all free */
	uint16_t first;                     /* first usable tile: 0, or 512 in bitmap modes */
} gba_obj_ends;

void gba_obj_ends_init(gba_obj_ends *a, uint16_t first_tile);
/* Only tiles [first, end) usable (the DS: the OBJ VRAM its banks map, in
 * units of the 1D boundary); gba_obj_ends_init is end GBA_OBJ_ENDS_TILES. */
void gba_obj_ends_init_span(gba_obj_ends *a, uint16_t first, uint16_t end);
/* n tiles at a multiple of align (a power of two). Returns the first tile
 * or GBA_OBJ_ENDS_NONE. */
uint16_t gba_obj_ends_alloc(gba_obj_ends *a, uint16_t n, uint16_t align);
/* Frees n tiles from tile: 0, or -1 if no allocation starts there or a tile
 * in the range is free. */
int gba_obj_ends_free(gba_obj_ends *a, uint16_t tile, uint16_t n);
int gba_obj_ends_is_free(const gba_obj_ends *a, uint16_t tile);
/* Whether an allocation starts at tile. */
int gba_obj_ends_is_start(const gba_obj_ends *a, uint16_t tile);

#endif
