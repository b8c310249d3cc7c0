/* SPDX-License-Identifier: Zlib */
/* game.c - the game side: a GBA sprite loader that places tiles with the
 * allocation map and records each call with vramsim/record.h. Compiled
 * for the ARM7TDMI against the installed headers; only compiled, never run. */
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/record.h"

#define OBJ_VRAM 0x06010000u

static gba_obj_map obj;

void sprites_init(void);
uint16_t sprite_load(uint32_t id, uint32_t w, uint32_t h);
void sprite_unload(uint32_t id, uint16_t block);

void sprites_init(void)
{
	gba_obj_map_init(&obj, 0);
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "gba-obj", "mode=0");
}

/* A 4bpp sprite of w x h pixels: one 32-byte block per 8x8 tile. */
uint16_t sprite_load(uint32_t id, uint32_t w, uint32_t h)
{
	uint16_t block = gba_obj_map_alloc(&obj, (uint16_t)(w / 8u * (h / 8u)));

	VS_REC_SPRITE(id, "obj", "enemy", w, h, 4,
		block == GBA_OBJ_MAP_NONE ? VS_REC_FAILED : OBJ_VRAM + block * GBA_OBJ_MAP_BLOCK_BYTES);
	return block;
}

void sprite_unload(uint32_t id, uint16_t block)
{
	gba_obj_map_free(&obj, block);
	VS_REC_FREE(id);
}
