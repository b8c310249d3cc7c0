/* SPDX-License-Identifier: Zlib */
/* gba_bg_tiles.h - the BG tile manager of 'Gameboy Advance Resource
 * Management' with the shared 4/8bpp scheme.
 *
 * A side-scroller copies into BG VRAM only the ROM tiles its visible map
 * cells use. Three arrays track them:
 *  - rom2ram[ROM index]: the RAM block holding that ROM tile, or 0xFFFF;
 *  - ram2rom[RAM block]: the ROM tile held there, or 0xFFFF;
 *  - ref[RAM block]: the reference count of a loaded tile; for a free entry
 *    the same slot holds the link to the next free entry, so the reference
 *    count array doubles as the free lists.
 * Referencing a loaded tile bumps its count; referencing a new one takes a
 * block off a free list. Releasing drops the count and relinks the block
 * at zero. Both are constant time.
 *
 * Tile 0 is the all-transparent tile, tile 0 in both maps: set up once,
 * never allocated, counted or freed.
 *
 * Layout of the 64 KiB BG area (modes 0-2), in 32-byte blocks:
 *   0x0000-0x7FFF  blocks    0-1023  shared by 4bpp and 8bpp tiles
 *   0x8000-0xDFFF  blocks 1024-1791  8bpp tiles only
 *   0xE000-0xFFFF  screenblocks 28-31: the four 2 KiB maps
 * Every BG uses charblock 0: a 4bpp tile's number is its block (0-1023,
 * within the 32 KiB a text BG's 10-bit tile number reaches), an 8bpp
 * tile's number is block / 2 (0-895, within the 64 KiB). The 8bpp
 * transparent tile needs blocks 0 and 1, so pair 0 is reserved.
 *
 * Free lists, threaded through ref[] with back-links in back[] so a block
 * can be taken off the middle of list-c in constant time:
 *   list-a: even blocks of free pairs in the shared region;
 *   list-b: even blocks of free pairs in the 8bpp-only region;
 *   list-c: single free blocks whose partner holds a 4bpp tile.
 * 8bpp takes list-b, then list-a. 4bpp takes list-c, else splits a pair
 * from list-a and puts the partner on list-c. Freeing a 4bpp block whose
 * partner is free re-joins the pair into list-a.
 *
 * A ROM index names one tile at one depth: referencing a loaded tile at
 * the other depth is refused (GBA_BG_TILES_BAD).
 *
 * Freestanding: no host headers; links are indices, so memcpy snapshots.
 */
#ifndef VRAMSIM_ALLOC_GBA_BG_TILES_H
#define VRAMSIM_ALLOC_GBA_BG_TILES_H

#include <stdint.h>

/* ROM tile set size; each ROM tile costs 2 bytes of rom2ram. */
#ifndef GBA_BG_TILES_ROM_MAX
#define GBA_BG_TILES_ROM_MAX 4096u
#endif
#define GBA_BG_TILES_BLOCK_BYTES 32u
#define GBA_BG_TILES_SHARED 1024u   /* blocks in the shared 4/8bpp region */
#define GBA_BG_TILES_BLOCKS 1792u   /* blocks of tiles: 56 KiB */
#define GBA_BG_TILES_MAP_FIRST 28u  /* first map screenblock */
#define GBA_BG_TILES_MAPS 4u        /* 2 KiB map screenblocks */
#define GBA_BG_TILES_UNUSED 0xFFFFu

enum { GBA_BG_LIST_A = 0, GBA_BG_LIST_B = 1, GBA_BG_LIST_C = 2 };
enum { GBA_BG_TILES_NO_SPACE = -1, GBA_BG_TILES_BAD = -2, GBA_BG_TILES_REFS_FULL = -3 };

typedef struct gba_bg_tiles {
	uint16_t rom2ram[GBA_BG_TILES_ROM_MAX];
	uint16_t ram2rom[GBA_BG_TILES_BLOCKS];
	uint16_t ref[GBA_BG_TILES_BLOCKS];   /* count when loaded, next link when free */
	uint16_t back[GBA_BG_TILES_BLOCKS];  /* previous link when free */
	uint16_t is8[GBA_BG_TILES_BLOCKS / 16u]; /* bit: an 8bpp tile starts here */
	uint16_t head[3];                    /* list-a, list-b, list-c */
	uint16_t len[3];                     /* entries on each list */
	uint8_t maps;                        /* bit s: screenblock 28 + s taken */
} gba_bg_tiles;

void gba_bg_tiles_init(gba_bg_tiles *m);
/* References ROM tile rom at bpp 4 or 8. Returns its RAM block (>= 0) and
 * sets *loaded to 1 when it was loaded now (the caller copies the tile) or
 * 0 when it was already there (or is tile 0); negative GBA_BG_TILES_* on
 * failure. */
int32_t gba_bg_tiles_ref(gba_bg_tiles *m, uint32_t rom, unsigned bpp, int *loaded);
/* Releases one reference to the tile at RAM block ram. Returns the
 * references left (0: the block is free again; tile 0 always answers 1),
 * or GBA_BG_TILES_BAD. */
int32_t gba_bg_tiles_release(gba_bg_tiles *m, uint32_t ram);
/* Reference count of the tile at block ram (0 when free). */
uint32_t gba_bg_tiles_refs(const gba_bg_tiles *m, uint32_t ram);
/* 1 when block ram is free (on list-a, -b or -c, or half of a free pair). */
int gba_bg_tiles_block_free(const gba_bg_tiles *m, uint32_t ram);
/* Takes n consecutive map screenblocks (1, 2 or 4). Returns the first
 * screenblock number (28-31) or -1. */
int gba_bg_tiles_map_alloc(gba_bg_tiles *m, unsigned n);
/* Gives back n screenblocks from sb. Returns 0, or -1 if any was free. */
int gba_bg_tiles_map_free(gba_bg_tiles *m, unsigned sb, unsigned n);

#endif
