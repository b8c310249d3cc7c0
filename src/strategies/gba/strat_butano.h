/* SPDX-License-Identifier: Zlib */
/* strat_butano.h - the states of the Butano strategy adapters
 * (strat_butano_sprite_tiles.c, strat_butano_bg_blocks.c): their options
 * beside the allocator, which `vramsim cycles` reads to set the GBA's
 * allocator up the same way (console/gba/gba_cycles_list.c). */
#ifndef VS_STRAT_BUTANO_H
#define VS_STRAT_BUTANO_H

#include <stdint.h>

#include "vramsim/alloc/butano_bg_blocks.h"
#include "vramsim/alloc/butano_sprite_tiles.h"

/* What a request's data is: named by its tag (the same tag and size: the
 * same data), its own every time, or none (an allocate). */
enum { VS_BUTANO_GRAPHICS_TAG = 0, VS_BUTANO_GRAPHICS_EACH = 1, VS_BUTANO_GRAPHICS_RAW = 2 };

typedef struct vs_butano_st_state {
	butano_st a;
	uint8_t version, graphics, compressed, bitmap;
	uint16_t max_items;
	uint8_t found; /* the last alloc handed out graphics already loaded */
} vs_butano_st_state;

typedef struct vs_butano_bgb_state {
	butano_bgb a;
	uint8_t version, graphics, compressed, offset;
	uint8_t max_items;
	uint8_t found; /* the last alloc handed out data already loaded */
} vs_butano_bgb_state;

#endif
