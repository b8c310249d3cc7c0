/* SPDX-License-Identifier: Zlib */
/* gba_obj_map.c - the OBJ VRAM allocation map of the article 'Gameboy
 * Advance Resource Management'. */
#include "vramsim/alloc/gba_obj_map.h"

void gba_obj_map_init(gba_obj_map *m, uint16_t first_block)
{
	uint16_t i;

	if (first_block > GBA_OBJ_MAP_BLOCKS)
		first_block = GBA_OBJ_MAP_BLOCKS;
	m->first = first_block;
	for (i = 0; i < GBA_OBJ_MAP_BLOCKS; i++)
		m->map[i] = i < first_block ? GBA_OBJ_RESERVED : GBA_OBJ_UNUSED;
}

uint16_t gba_obj_map_alloc(gba_obj_map *m, uint16_t n)
{
	uint32_t start, i;

	if (n == 0 || n > GBA_OBJ_MAP_BLOCKS)
		return GBA_OBJ_MAP_NONE;
	/* Candidates are multiples of n at or above the first usable block. */
	start = ((uint32_t)m->first + n - 1) / n * n;
	for (; start + n <= GBA_OBJ_MAP_BLOCKS; start += n) {
		for (i = 0; i < n; i++)
			if (m->map[start + i] != GBA_OBJ_UNUSED)
				break;
		if (i < n)
			continue;
		m->map[start] = GBA_OBJ_USED;
		for (i = 1; i < n; i++)
			m->map[start + i] = GBA_OBJ_CONTINUE;
		return (uint16_t)start;
	}
	return GBA_OBJ_MAP_NONE;
}

uint16_t gba_obj_map_length(const gba_obj_map *m, uint16_t block)
{
	uint32_t i;

	if (block >= GBA_OBJ_MAP_BLOCKS || m->map[block] != GBA_OBJ_USED)
		return 0;
	for (i = (uint32_t)block + 1; i < GBA_OBJ_MAP_BLOCKS && m->map[i] == GBA_OBJ_CONTINUE; i++)
		;
	return (uint16_t)(i - block);
}

uint16_t gba_obj_map_free(gba_obj_map *m, uint16_t block)
{
	uint16_t n = gba_obj_map_length(m, block), i;

	for (i = 0; i < n; i++)
		m->map[block + i] = GBA_OBJ_UNUSED;
	return n;
}
