/* SPDX-License-Identifier: Zlib */
/* gba_obj_buddy.h - binary buddy allocator over the 1024 OBJ tiles.
 *
 * As gba-modern does: blocks of 2^k tiles (k = 0..10) aligned to their own
 * size. A request is rounded up to the next power of two; a larger free
 * block is split in halves until one of the right order remains; a freed
 * block joins its buddy while the buddy is free. Free blocks of each order
 * are bits in one bitmap per order (2047 bits in all), and one byte per
 * tile records the order of the block allocated there.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_BUDDY_H
#define VRAMSIM_ALLOC_GBA_OBJ_BUDDY_H

#include <stdint.h>

#define GBA_OBJ_BUDDY_TILES 1024u
#define GBA_OBJ_BUDDY_ORDERS 11u  /* 1 .. 1024 tiles */
#define GBA_OBJ_BUDDY_NONE 0xFFFFu
#define GBA_OBJ_BUDDY_NO_BLOCK 0xFFu

typedef struct gba_obj_buddy {
	uint32_t free[64];                    /* order k's bits start at bit 2048 - (2048 >> k) */
	uint8_t order[GBA_OBJ_BUDDY_TILES];   /* order of the block allocated at a tile, or NO_BLOCK */
	uint16_t first;
} gba_obj_buddy;

void gba_obj_buddy_init(gba_obj_buddy *b, uint16_t first_tile);
/* Smallest order whose block holds n tiles at alignment align, or -1. */
int gba_obj_buddy_order(uint16_t n, uint16_t align);
/* Allocates a block of 2^order tiles; returns its first tile or NONE. */
uint16_t gba_obj_buddy_alloc(gba_obj_buddy *b, unsigned order);
/* Frees the block at tile; returns its order, or -1 if none starts there. */
int gba_obj_buddy_free(gba_obj_buddy *b, uint16_t tile);
/* 1 when the block of 2^order tiles at tile is on a free list. */
int gba_obj_buddy_is_free(const gba_obj_buddy *b, unsigned order, uint16_t tile);

#endif
