/* gba_obj_snug.h - "snug fit": aligned best fit over an OBJ tile bitmap.
 *
 * vramsim's own OBJ VRAM allocator. One bit per tile says free; a second
 * bitmap marks allocation starts. Nothing else is kept: every size class
 * is read off the free bitmap with word-level bit tricks when asked.
 *
 * A request of n tiles (rounded up to 2^k) looks for a free block of 2^k
 * tiles aligned to its size, as the seed's map and a buddy allocator do,
 * but chooses the one whose enclosing free aligned block is smallest: for
 * j = k, k+1, ... it takes a free aligned 2^j block whose parent 2^(j+1)
 * block is partly used, and carves the request from the side facing the
 * used part. That fills holes first and leaves the rest of the block as
 * large aligned free blocks. Unlike a buddy allocator nothing is tied to a
 * split history: any aligned free block counts, wherever it came from.
 *
 * Small requests (under low_from tiles) pick the highest such block, large
 * ones the lowest, so small and large sprites gather at opposite ends.
 *
 * When no aligned free 2^k block exists, it falls back to the smallest run
 * of free tiles that holds n tiles at the required alignment, so it fails
 * only when no run could hold the request at all.
 *
 * Bounded: a call reads at most 11 levels x 32 words of the bitmap (plus
 * one pass over the free runs in the fallback); it never walks tile by tile.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_SNUG_H
#define VRAMSIM_ALLOC_GBA_OBJ_SNUG_H

#include <stdint.h>

#define GBA_OBJ_SNUG_TILES 1024u
#define GBA_OBJ_SNUG_WORDS 32u
#define GBA_OBJ_SNUG_NONE 0xFFFFu
#define GBA_OBJ_SNUG_LOW_FROM 16u /* default: 16 tiles (512 bytes) and up go low */

typedef struct gba_obj_snug {
	uint32_t freew[GBA_OBJ_SNUG_WORDS]; /* 1 = tile free */
	uint32_t start[GBA_OBJ_SNUG_WORDS]; /* 1 = an allocation starts here */
	uint16_t first;    /* first usable tile: 0, or 512 in bitmap modes */
	uint16_t low_from; /* requests of at least this many tiles go low */
} gba_obj_snug;

void gba_obj_snug_init(gba_obj_snug *a, uint16_t first_tile, uint16_t low_from);
/* n tiles at a multiple of align (a power of two). Returns the first tile
 * or GBA_OBJ_SNUG_NONE. */
uint16_t gba_obj_snug_alloc(gba_obj_snug *a, uint16_t n, uint16_t align);
/* Frees n tiles from tile: 0, or -1 if no allocation starts there or a tile
 * in the range is free. */
int gba_obj_snug_free(gba_obj_snug *a, uint16_t tile, uint16_t n);
int gba_obj_snug_is_free(const gba_obj_snug *a, uint16_t tile);

#endif
