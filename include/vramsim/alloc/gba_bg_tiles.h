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
 * the other depth is refused (GBA_BG_TILES_BAD), as is an index past the
 * ROM tile set.
 *
 * Extension (not in the article): the layer's charblock. The article puts
 * every BG on charblock 0. A game whose layer draws from charblock c
 * (BGxCNT bits 2-3, base c * 16 KiB) needs that layer's tiles where its
 * map entries can name them: tile numbers count from the base, 0-1023 for a
 * text BG (so 4bpp tiles in [base, base + 32 KiB), 8bpp in [base, base +
 * 64 KiB)) and 0-255 of 8bpp for an affine BG ([base, base + 16 KiB)); a
 * tile below the base cannot be named at all. gba_bg_tiles_ref_cb takes
 * that reach as a window of blocks:
 *  - charblock not given (GBA_BG_TILES_CB_ANY): gba_bg_tiles_ref, the
 *    article's code, unchanged;
 *  - a load takes the first free entry inside the window, searching the
 *    lists in the article's order (8bpp: list-b, list-a; 4bpp: list-c,
 *    list-d, then a pair from list-a, list-b) and skipping entries outside
 *    it. For charblock 0 text layers the window holds every block the
 *    article's lists can hand out, so the head is taken: the article's
 *    placement and constant cost. Otherwise the walk costs up to the length
 *    of the lists it searches (at most 895 entries in all: each pair is on
 *    at most one list, whole or as a single), and fails
 *    (GBA_BG_TILES_NO_SPACE) when no free entry lies in reach;
 *  - 4bpp tiles of charblocks 1-3 may lie in the 8bpp-only region (for
 *    charblocks 2-3 nothing else is in reach); the single left over when
 *    such a pair is split goes on list-d, which only these requests use,
 *    so the article's 4bpp path never takes a block past its 32 KiB;
 *  - a hit is a loaded copy of the ROM tile, at the requested depth, inside
 *    the window. A tile loaded for one layer but out of another's reach is
 *    loaded again for that layer: a second copy (the game would have to copy
 *    it into that charblock too, so the cost is real). Copies of one ROM
 *    tile are chained through back[] of their first block (unused while a
 *    block is loaded), from rom2ram[rom]; each has its own count, and
 *    releasing one unlinks it;
 *  - ROM tile 0, the transparent tile, is blocks 0-1, in reach of charblock
 *    0 only; a layer on charblock 1-3 gets its own copy (loaded and counted
 *    like any tile, chained from block 0), as the game keeps its own
 *    transparent tile in that charblock.
 *
 * Freestanding: no host headers; links are indices, so memcpy snapshots.
 */
#ifndef VRAMSIM_ALLOC_GBA_BG_TILES_H
#define VRAMSIM_ALLOC_GBA_BG_TILES_H

#include <stdint.h>

/* The ROM tile set is sized at run time (gba_bg_tiles_init_rom), up to the
 * article's 16-bit indices: 65,535 tiles, 0xFFFF being the unused mark.
 * Each ROM tile costs 2 bytes of rom2ram, which is most of the manager's
 * RAM ("about 48k ... can be significantly reduced by reducing the size of
 * the largest allowable ROM tile set"). The table is laid out for the
 * largest set the program allows: a console build that knows its set
 * defines GBA_BG_TILES_ROM_MAX smaller. */
#ifndef GBA_BG_TILES_ROM_MAX
#define GBA_BG_TILES_ROM_MAX 65535u
#endif
#define GBA_BG_TILES_ROM_DEFAULT (GBA_BG_TILES_ROM_MAX < 4096u ? GBA_BG_TILES_ROM_MAX : 4096u)
#define GBA_BG_TILES_BLOCK_BYTES 32u
#define GBA_BG_TILES_SHARED 1024u   /* blocks in the shared 4/8bpp region */
#define GBA_BG_TILES_BLOCKS 1792u   /* blocks of tiles: 56 KiB */
#define GBA_BG_TILES_MAP_FIRST 28u  /* first map screenblock */
#define GBA_BG_TILES_MAPS 4u        /* 2 KiB map screenblocks */
#define GBA_BG_TILES_UNUSED 0xFFFFu
#define GBA_BG_TILES_CB_ANY 0xFFu   /* charblock not given: the article's manager */

/* list-d: single free blocks of the 8bpp-only region whose partner holds
 * a 4bpp tile of charblock 1-3 (the charblock extension). */
enum { GBA_BG_LIST_A = 0, GBA_BG_LIST_B = 1, GBA_BG_LIST_C = 2, GBA_BG_LIST_D = 3 };
enum { GBA_BG_TILES_NO_SPACE = -1, GBA_BG_TILES_BAD = -2, GBA_BG_TILES_REFS_FULL = -3 };

typedef struct gba_bg_tiles {
	uint16_t rom2ram[GBA_BG_TILES_ROM_MAX];
	uint16_t ram2rom[GBA_BG_TILES_BLOCKS];
	uint16_t ref[GBA_BG_TILES_BLOCKS];   /* count when loaded, next link when free */
	uint16_t back[GBA_BG_TILES_BLOCKS];  /* previous link when free; next copy when loaded */
	uint16_t is8[GBA_BG_TILES_BLOCKS / 16u]; /* bit: an 8bpp tile starts here */
	uint16_t head[4];                    /* list-a, list-b, list-c, list-d */
	uint16_t len[4];                     /* entries on each list */
	uint8_t maps;                        /* bit s: screenblock 28 + s taken */
	uint32_t rom_tiles;                  /* ROM indices 0..rom_tiles-1 are valid */
} gba_bg_tiles;

/* Sets up for a ROM tile set of rom_tiles tiles (1..GBA_BG_TILES_ROM_MAX).
 * Returns 0, or GBA_BG_TILES_BAD (nothing set up) for another count. */
int gba_bg_tiles_init_rom(gba_bg_tiles *m, uint32_t rom_tiles);
/* gba_bg_tiles_init_rom with GBA_BG_TILES_ROM_DEFAULT (4,096) tiles. */
void gba_bg_tiles_init(gba_bg_tiles *m);
/* The RAM the manager's tables take for its ROM tile set: what a game
 * that sized rom2ram for that set would hold. */
uint32_t gba_bg_tiles_ram_bytes(const gba_bg_tiles *m);
/* References ROM tile rom at bpp 4 or 8. Returns its RAM block (>= 0) and
 * sets *loaded to 1 when it was loaded now (the caller copies the tile) or
 * 0 when it was already there (or is tile 0); negative GBA_BG_TILES_* on
 * failure. */
int32_t gba_bg_tiles_ref(gba_bg_tiles *m, uint32_t rom, unsigned bpp, int *loaded);
/* As gba_bg_tiles_ref for a layer that draws from charblock cb (0-3, or
 * GBA_BG_TILES_CB_ANY), affine (tile numbers 0-255, 8bpp only) or text:
 * the block returned is one that layer's map entries can name (see the
 * extension above). GBA_BG_TILES_NO_SPACE when no free block is in reach;
 * GBA_BG_TILES_BAD for cb > 3 or a 4bpp affine tile. */
int32_t gba_bg_tiles_ref_cb(gba_bg_tiles *m, uint32_t rom, unsigned bpp, unsigned cb, int affine, int *loaded);
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
