/* SPDX-License-Identifier: Zlib */
/* arena.h - the memories vramsim models, as a strategy is told of them.
 *
 * An arena is one hardware memory (GBA OBJ VRAM, GBA BG VRAM, DS texture
 * image space, DS texture-palette space) or a RAM region of any size. This
 * header is part of the plug-in interface (strategy.h): the kinds and the
 * declaration a strategy's init receives. The simulator's model of an
 * arena's bytes and owners is internal (src/vram/arena.h).
 */
#ifndef VRAMSIM_ARENA_H
#define VRAMSIM_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef enum vs_arena_kind {
	VS_ARENA_GBA_OBJ,  /* OBJ tile VRAM: 32 KiB, tiles 0-1023 (512-1023 in bitmap modes) */
	VS_ARENA_GBA_BG,   /* BG VRAM: 64 KiB of charblocks and screenblocks (80 KiB in bitmap modes) */
	VS_ARENA_DS_TEX,   /* DS texture image space: slots 0-3, 128 KiB each */
	VS_ARENA_DS_PLTT,  /* DS texture palette space: slots 0-5, 16 KiB each */
	VS_ARENA_RAM,      /* plain RAM: EWRAM, IWRAM, DS main RAM, or any size */
	VS_ARENA_KIND_COUNT
} vs_arena_kind;

#define VS_ARENA_BIT(k) (1u << (k))
#define VS_ARENA_ANY_VRAM (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_GBA_BG) | \
	VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT))

#define VS_NAME_MAX 32
#define VS_DS_BANKS 9 /* A-I */
#define VS_BANK_UNMAPPED 0xFF

/* What a trace's `arena` line declares. Everything here is plain data. */
typedef struct vs_arena_decl {
	char name[VS_NAME_MAX];
	vs_arena_kind kind;
	uint32_t size;      /* bytes held: the whole hardware memory */
	uint32_t base;      /* address of byte 0, as the game sees it */
	uint32_t unit;      /* ownership unit in bytes (a power of two) */
	uint8_t gba_mode;   /* GBA display mode 0-5 */
	/* DS: for each bank A-I the slot it is mapped to (VRAMCNT MST=3, OFS),
	 * or VS_BANK_UNMAPPED. Texture banks map to slots 0-3, palette banks
	 * E, F, G to palette slots as GBATEK describes. */
	uint8_t ds_bank_slot[VS_DS_BANKS];
	/* gba-obj: 2D OBJ tile mapping (DISPCNT bit 6 clear): a sprite takes a
	 * rectangle of the 32x32 tile matrix, each 8-pixel row 32 tiles after
	 * the one above. 0 is 1D: a sprite's tiles are consecutive. Last, so
	 * plug-ins built against the older layout read the rest unchanged. */
	uint8_t gba_obj_2d;
} vs_arena_decl;

#endif
