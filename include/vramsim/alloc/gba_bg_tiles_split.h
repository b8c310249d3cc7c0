/* SPDX-License-Identifier: Zlib */
/* gba_bg_tiles_split.h - the simpler scheme of 'Gameboy Advance Resource
 * Management': two tile regions.
 *
 * The article names it before the shared scheme: one region for 4bpp tiles and
 * another for 8bpp tiles, each with its own copy of the tile manager
 * (rom2ram, ram2rom, and a reference-count array doubling as a singly
 * linked free list, exactly as the article describes). Its cost: a region
 * cannot lend free space to the other.
 *
 * Layout of the 64 KiB BG area: the 4bpp region from 0 (bytes4 bytes, at
 * most 32 KiB so every block is a 10-bit tile number of charblock 0), the
 * 8bpp region after it up to 0xE000, and the four 2 KiB maps in
 * screenblocks 28-31. Tile 0 (all transparent, 64 bytes so 8bpp layers
 * share it) is reserved at the start of the 4bpp region.
 *
 * Extension (not in the article): the layer's charblock, as in
 * gba_bg_tiles.h. A layer drawing from charblock c names tiles by number
 * from its base c * 16 KiB: 0-1023 for text (4bpp in [base, base + 32 KiB),
 * 8bpp in [base, base + 64 KiB)), 0-255 of 8bpp for affine ([base, base +
 * 16 KiB)). gba_bg_tiles_split_ref_cb keeps each depth in its own region
 * and places a tile only where the layer reaches:
 *  - charblock not given: gba_bg_tiles_split_ref, the article's code;
 *  - when the window covers the whole region of that depth (charblock 0
 *    text layers always; charblock 1 8bpp text with bytes4 >= 16 KiB) the
 *    article's free-list head is taken, at its constant cost; otherwise the
 *    free list is walked for the first tile in the window (up to the
 *    region's free tiles, at most 1024), and the request fails
 *    (GBA_BG_SPLIT_NO_SPACE) when none is free there. The regions still
 *    lend nothing: with the 4bpp region below 32 KiB, 4bpp tiles of
 *    charblocks 2-3 always fail, and so do affine tiles of a charblock the
 *    8bpp region does not reach (charblock 0 unless bytes4 < 16 KiB);
 *  - a hit is a loaded copy of the ROM tile inside the window; a tile out
 *    of the layer's reach is loaded again for it (a second copy, as the
 *    game would have to copy it into that charblock). Copies are chained
 *    through copy[] from rom2ram[rom], each with its own count;
 *  - ROM tile 0 (the reserved 64 bytes at 0) is in reach of charblock 0
 *    only; a layer on charblock 1-3 gets its own copy, loaded and counted
 *    like any tile.
 *
 * Freestanding: no host headers; links are indices, so memcpy snapshots.
 */
#ifndef VRAMSIM_ALLOC_GBA_BG_TILES_SPLIT_H
#define VRAMSIM_ALLOC_GBA_BG_TILES_SPLIT_H

#include <stdint.h>

/* The ROM tile set is sized at run time, up to 65,535 tiles; tables are
 * laid out for GBA_BG_SPLIT_ROM_MAX (see gba_bg_tiles.h). */
#ifndef GBA_BG_SPLIT_ROM_MAX
#define GBA_BG_SPLIT_ROM_MAX 65535u
#endif
#define GBA_BG_SPLIT_ROM_DEFAULT (GBA_BG_SPLIT_ROM_MAX < 4096u ? GBA_BG_SPLIT_ROM_MAX : 4096u)
#define GBA_BG_SPLIT_TILE_BYTES 0xE000u  /* bytes for tiles: 56 KiB */
#define GBA_BG_SPLIT_MAX_TILES 1024u     /* per region */
#define GBA_BG_SPLIT_MAP_FIRST 28u
#define GBA_BG_SPLIT_MAPS 4u
#define GBA_BG_SPLIT_UNUSED 0xFFFFu
#define GBA_BG_SPLIT_DEFAULT_BYTES4 0x7000u /* 28 KiB for 4bpp, 28 KiB for 8bpp */
#define GBA_BG_SPLIT_CB_ANY 0xFFu            /* charblock not given: the article's manager */

enum { GBA_BG_SPLIT_NO_SPACE = -1, GBA_BG_SPLIT_BAD = -2, GBA_BG_SPLIT_REFS_FULL = -3 };

/* One region: tiles of one size, indexed from the region's start. */
typedef struct gba_bg_split_region {
	uint16_t rom2ram[GBA_BG_SPLIT_ROM_MAX];
	uint16_t ram2rom[GBA_BG_SPLIT_MAX_TILES];
	uint16_t ref[GBA_BG_SPLIT_MAX_TILES]; /* count when loaded, next free tile when free */
	uint16_t copy[GBA_BG_SPLIT_MAX_TILES];/* next copy of the same ROM tile (charblock extension) */
	uint16_t head;                        /* first free tile */
	uint16_t tiles;                       /* tiles in the region */
	uint16_t base;                        /* region start in 32-byte blocks */
	uint16_t used;                        /* tiles loaded */
} gba_bg_split_region;

typedef struct gba_bg_tiles_split {
	gba_bg_split_region r4, r8;
	uint16_t bytes4;
	uint8_t maps;
	uint32_t rom_tiles;                   /* ROM indices 0..rom_tiles-1 are valid */
} gba_bg_tiles_split;

/* bytes4: bytes of the 4bpp region, a multiple of 64 from 64 to 32 KiB
 * (clamped). The 8bpp region takes the rest of the 56 KiB. rom_tiles: the
 * ROM tile set (1..GBA_BG_SPLIT_ROM_MAX). Returns 0, or GBA_BG_SPLIT_BAD
 * (nothing set up) for another count. */
int gba_bg_tiles_split_init_rom(gba_bg_tiles_split *m, uint32_t bytes4, uint32_t rom_tiles);
/* gba_bg_tiles_split_init_rom with GBA_BG_SPLIT_ROM_DEFAULT (4,096) tiles. */
void gba_bg_tiles_split_init(gba_bg_tiles_split *m, uint32_t bytes4);
/* The RAM both regions' tables take for the ROM tile set. */
uint32_t gba_bg_tiles_split_ram_bytes(const gba_bg_tiles_split *m);
/* As gba_bg_tiles_ref, but the result is the tile's first 32-byte block
 * counted from the start of BG VRAM. */
int32_t gba_bg_tiles_split_ref(gba_bg_tiles_split *m, uint32_t rom, unsigned bpp, int *loaded);
/* As gba_bg_tiles_split_ref for a layer that draws from charblock cb (0-3,
 * or GBA_BG_SPLIT_CB_ANY), affine (0-255, 8bpp only) or text: the block
 * returned is one that layer's map entries can name (see above).
 * GBA_BG_SPLIT_NO_SPACE when no free tile of the region is in reach;
 * GBA_BG_SPLIT_BAD for cb > 3 or a 4bpp affine tile. */
int32_t gba_bg_tiles_split_ref_cb(gba_bg_tiles_split *m, uint32_t rom, unsigned bpp, unsigned cb, int affine,
	int *loaded);
/* Releases one reference to the tile at block (as returned by ref). */
int32_t gba_bg_tiles_split_release(gba_bg_tiles_split *m, uint32_t block);
/* 1 when the 32-byte block is inside a region and free. */
int gba_bg_tiles_split_block_free(const gba_bg_tiles_split *m, uint32_t block);
int gba_bg_tiles_split_map_alloc(gba_bg_tiles_split *m, unsigned n);
int gba_bg_tiles_split_map_free(gba_bg_tiles_split *m, unsigned sb, unsigned n);

#endif
