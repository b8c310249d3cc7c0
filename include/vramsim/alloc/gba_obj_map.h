/* SPDX-License-Identifier: Zlib */
/* gba_obj_map.h - the OBJ VRAM allocation map of the article 'Gameboy
 * Advance Resource Management'.
 *
 * OBJ VRAM is 1024 blocks of 32 bytes. One byte per block says UNUSED,
 * USED (first block of an allocation) or CONTINUE (a later block). A request
 * of n blocks is placed only at a multiple of n, so small allocations do not
 * cut holes that larger ones could have used. Freeing clears the USED block
 * and the CONTINUE blocks after it; neighbouring free blocks join by
 * themselves because free space is just UNUSED bytes.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_GBA_OBJ_MAP_H
#define VRAMSIM_ALLOC_GBA_OBJ_MAP_H

#include <stdint.h>

#define GBA_OBJ_MAP_BLOCKS 1024u
#define GBA_OBJ_MAP_BLOCK_BYTES 32u
#define GBA_OBJ_MAP_NONE 0xFFFFu

enum { GBA_OBJ_UNUSED = 0, GBA_OBJ_USED = 1, GBA_OBJ_CONTINUE = 2, GBA_OBJ_RESERVED = 3 };

typedef struct gba_obj_map {
	uint8_t map[GBA_OBJ_MAP_BLOCKS];
	uint16_t first; /* first usable block: 0, or 512 in bitmap modes */
} gba_obj_map;

/* first_block: 0 in tile modes 0-2, 512 in bitmap modes 3-5 (blocks below it
 * are marked reserved and never handed out). */
void gba_obj_map_init(gba_obj_map *m, uint16_t first_block);
/* Returns the first block of n contiguous blocks placed at a multiple of n,
 * or GBA_OBJ_MAP_NONE. n = 0 or n > 1024 fails. */
uint16_t gba_obj_map_alloc(gba_obj_map *m, uint16_t n);
/* Frees the allocation starting at block. Returns the number of blocks
 * freed, 0 if block is not the USED block of an allocation. */
uint16_t gba_obj_map_free(gba_obj_map *m, uint16_t block);
/* Number of blocks of the allocation starting at block (0 if none). */
uint16_t gba_obj_map_length(const gba_obj_map *m, uint16_t block);

#endif
