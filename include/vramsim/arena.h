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
	/* The DS's 2D engines (ds_engine: A or B), sized by the engines' reach
	 * and given memory by the banks mapped to them (ds_bank_slot). */
	VS_ARENA_DS_OBJ,        /* OBJ VRAM: A 256 KiB at 0x06400000, B 128 KiB at 0x06600000 */
	VS_ARENA_DS_BG,         /* BG VRAM: A 512 KiB at 0x06000000, B 128 KiB at 0x06200000 */
	VS_ARENA_DS_BG_EXTPAL,  /* BG extended palettes: slots 0-3, 8 KiB each */
	VS_ARENA_DS_OBJ_EXTPAL, /* OBJ extended palettes: one 8 KiB slot */
	VS_ARENA_KIND_COUNT
} vs_arena_kind;

#define VS_ARENA_BIT(k) (1u << (k))
#define VS_ARENA_ANY_VRAM (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_GBA_BG) | \
	VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT) | VS_ARENA_ANY_DS_2D)
#define VS_ARENA_ANY_DS_2D (VS_ARENA_BIT(VS_ARENA_DS_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_BG) | \
	VS_ARENA_BIT(VS_ARENA_DS_BG_EXTPAL) | VS_ARENA_BIT(VS_ARENA_DS_OBJ_EXTPAL))

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
	/* DS: for each bank A-I its VRAMCNT offset (OFS) when the bank is
	 * mapped for this arena's use (the MST that use takes, GBATEK "DS
	 * Memory Control - VRAM"), or VS_BANK_UNMAPPED. ds-tex: A-D at texture
	 * slots 0-3; ds-pltt: E (slots 0-3, whatever is here), F and G: the
	 * palette slot 0, 1, 4 or 5 (OFS 0-3); the 2D kinds: OFS. */
	uint8_t ds_bank_slot[VS_DS_BANKS];
	/* gba-obj: 2D OBJ tile mapping (DISPCNT bit 6 clear): a sprite takes a
	 * rectangle of the 32x32 tile matrix, each 8-pixel row 32 tiles after
	 * the one above. 0 is 1D: a sprite's tiles are consecutive. Last, so
	 * plug-ins built against the older layout read the rest unchanged. */
	uint8_t gba_obj_2d;
	/* ---- DS 2D engines (ds-obj, ds-bg, the extended palettes) ----
	 * Appended: older plug-ins read the fields above unchanged. ds-obj
	 * uses gba_obj_2d for DISPCNT bit 4 clear (2D tile mapping) too. */
	uint8_t ds_engine;        /* VS_DS_ENGINE_A or VS_DS_ENGINE_B */
	uint8_t ds_obj_boundary;  /* ds-obj 1D tile boundary in bytes / 32: 1, 2, 4, 8 (DISPCNT bits 20-21) */
	uint8_t ds_obj_bmp;       /* ds-obj bitmap sprites: VS_DS_BMP_* (DISPCNT bits 5, 6, 22) */
	uint8_t ds_bg_char64k;    /* ds-bg engine A: DISPCNT character base, 64 KiB steps (0-7) */
	uint8_t ds_bg_screen64k;  /* ds-bg engine A: DISPCNT screen base, 64 KiB steps (0-7) */
} vs_arena_decl;

enum { VS_DS_ENGINE_A = 0, VS_DS_ENGINE_B = 1 };
/* Bitmap OBJ layouts: a 2D matrix 128 or 256 dots wide, or 1D with a
 * 128- or 256-byte boundary (engine A only). */
enum { VS_DS_BMP_2D_128 = 0, VS_DS_BMP_2D_256 = 1, VS_DS_BMP_1D_128 = 2, VS_DS_BMP_1D_256 = 3 };
/* VRAMCNT bits (GBATEK): MST in 0-2, OFS in 3-4, enable in 7. */
#define VS_VRAMCNT_ENABLE 0x80u
#define VS_VRAMCNT(mst, ofs) (VS_VRAMCNT_ENABLE | ((unsigned)(ofs) << 3) | (unsigned)(mst))

#endif
