/* SPDX-License-Identifier: Zlib */
/* game.c - the example of docs/embedding.md: a GBA sprite loader that places
 * sprites in OBJ VRAM with the allocation map and records each call with
 * vramsim/record.h. install_game_xcompile compiles it for the ARM7TDMI and
 * the DS's ARM9 against the installed headers. */
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/record.h"

#define OBJ_VRAM 0x06010000u

static gba_obj_map obj; /* all of the allocator's state */

void sprites_init(void);
uint16_t sprite_load(uint32_t id, const char *tag, uint32_t w, uint32_t h);
void sprite_unload(uint32_t id, uint16_t tile);
void frame_end(void);

void sprites_init(void)
{
	gba_obj_map_init(&obj, 0); /* 0 in tile modes 0-2, 512 in bitmap modes 3-5 */
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "gba-obj", "mode=0");
}

/* A 4bpp sprite of w x h pixels takes one 32-byte block per 8x8 tile.
 * Returns its first tile (the OAM tile number), or GBA_OBJ_MAP_NONE. */
uint16_t sprite_load(uint32_t id, const char *tag, uint32_t w, uint32_t h)
{
	uint16_t tile = gba_obj_map_alloc(&obj, (uint16_t)(w / 8u * (h / 8u)));

	VS_REC_SPRITE(id, "obj", tag, w, h, 4,
		tile == GBA_OBJ_MAP_NONE ? VS_REC_FAILED : OBJ_VRAM + tile * GBA_OBJ_MAP_BLOCK_BYTES);
	return tile;
}

void sprite_unload(uint32_t id, uint16_t tile)
{
	gba_obj_map_free(&obj, tile);
	VS_REC_FREE(id);
}

void frame_end(void)
{
	VS_REC_FRAME();
}
