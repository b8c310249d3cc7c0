/* SPDX-License-Identifier: Zlib */
/* gba_obj_best_fit.h - best fit over OBJ VRAM ranges, carved from the end
 * (the strategy gba-obj-best-fit-end).
 *
 * OBJ VRAM is covered by a list of ranges in address order, each free or
 * used, drawn from a fixed pool of 128 items. Free ranges are also threaded
 * on a list sorted by size, equal sizes by address. An allocation takes
 * the first (smallest) free range that can hold it and carves the tiles
 * from the END of that range, so the range's start stays where it was and
 * the leftover keeps its place. Freeing merges a range with free
 * neighbours at once. It borrows the shape of Butano's sprite tiles
 * manager but not its rules (ties, delayed removal, sharing, the version
 * that takes the start): those are butano_sprite_tiles.h.
 *
 * Running out of items is its own failure (GBA_OBJ_BF_NO_ITEMS): the
 * memory may be there but the bookkeeping is not.
 *
 * Freestanding: no host headers; item links are indices, so the state can
 * be copied with memcpy.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_BEST_FIT_H
#define VRAMSIM_ALLOC_GBA_OBJ_BEST_FIT_H

#include <stdint.h>

#define GBA_OBJ_BF_TILES 1024u
#define GBA_OBJ_BF_ITEMS 128u
#define GBA_OBJ_BF_NIL 0xFFu

enum { GBA_OBJ_BF_NO_SPACE = -1, GBA_OBJ_BF_NO_ITEMS = -2, GBA_OBJ_BF_BAD = -3 };

typedef struct gba_obj_bf_item {
	uint16_t start, count;
	uint8_t used;
	uint8_t prev, next;   /* address order (all ranges) */
	uint8_t fprev, fnext; /* size order (free ranges); next spare item when in the pool */
} gba_obj_bf_item;

typedef struct gba_obj_bf {
	gba_obj_bf_item items[GBA_OBJ_BF_ITEMS];
	uint8_t head;      /* lowest range */
	uint8_t free_head; /* smallest free range */
	uint8_t spare;     /* pool of unused items, linked by fnext */
	uint8_t nitems;    /* items in use */
	uint16_t first;    /* first usable tile */
} gba_obj_bf;

void gba_obj_bf_init(gba_obj_bf *a, uint16_t first_tile);
/* Only tiles [first, end) usable (the DS: the OBJ VRAM its banks map, in
 * units of the 1D boundary; end 0 is GBA_OBJ_BF_TILES); gba_obj_bf_init is
 * end GBA_OBJ_BF_TILES. */
void gba_obj_bf_init_span(gba_obj_bf *a, uint16_t first_tile, uint16_t end);
/* n tiles starting at a multiple of align (power of two). Returns the
 * item index (the handle to free with) and sets *tile, or a negative
 * GBA_OBJ_BF_* code. */
int gba_obj_bf_alloc(gba_obj_bf *a, uint16_t n, uint16_t align, uint16_t *tile);
/* Frees by item index. Returns the tiles freed, or GBA_OBJ_BF_BAD. */
int gba_obj_bf_free(gba_obj_bf *a, int item);

#endif
