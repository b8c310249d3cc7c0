/* SPDX-License-Identifier: Zlib */
/* butano_bg_blocks.h - Butano's BG blocks manager
 * (butano/src/bn_bg_blocks_manager.cpp, GValiente/butano), rule for rule.
 *
 * BG VRAM's 32 blocks of 2 KiB hold tile sets and maps alike, covered by
 * one list of items in address order, each free, used or waiting "to
 * remove", drawn from a pool of at most max_items
 * (BN_CFG_BG_BLOCKS_MAX_ITEMS, 16 by default). There is no sorted list.
 *
 * - create: data already used or waiting is handed out again (a use more,
 *   or taken back from waiting); else the first waiting item (address
 *   order) whose size is exactly the request plus its padding; else, over
 *   the free items in address order, the first of exactly that size, or
 *   the smallest larger one. Tiles take the start of the range, after a
 *   free padding item when the charblock rules want one; a map takes the
 *   back when the range starts on a charblock or the map would cross one.
 *   When nothing fits, every waiting item is freed (update) and the
 *   request tried again; allocate then fails until the next update.
 * - allocate: no data: only free items, never a waiting one.
 * - decrease_usages: the last use makes the item wait until update, which
 *   frees it and merges it with the unused items after it and then the
 *   one before.
 *
 * Data is named by an opaque 32-bit word (Butano: the ROM pointer) with
 * its kind and dimensions; 0 is data never shared. Failures leave the
 * state as it was before the failing step; Butano stops the game there.
 *
 * Freestanding: no host headers; links are indices, so the state can be
 * copied with memcpy.
 */
#ifndef VRAMSIM_ALLOC_BUTANO_BG_BLOCKS_H
#define VRAMSIM_ALLOC_BUTANO_BG_BLOCKS_H

#include <stdint.h>

#define BUTANO_BGB_BLOCKS 32u         /* hw::bg_blocks::max_blocks */
#define BUTANO_BGB_BLOCK_BYTES 2048u
#define BUTANO_BGB_CHARBLOCK 8u       /* tiles_alignment_blocks_count: 16 KiB */
/* BN_CFG_BG_BLOCKS_MAX_ITEMS: Butano's default and its bound (a
 * static_assert wants at most the blocks count) */
#define BUTANO_BGB_ITEMS_DEFAULT 16u
#define BUTANO_BGB_ITEMS_MAX 32u

/* the major versions whose rules this follows, each as of its last release
 * (docs/butano.md) */
#define BUTANO_BGB_VERSION_OLDEST 10u
#define BUTANO_BGB_VERSION_NEWEST 21u

enum { BUTANO_BGB_FREE = 0, BUTANO_BGB_USED = 1, BUTANO_BGB_TO_REMOVE = 2 };
enum { BUTANO_BGB_NO_SPACE = -1, BUTANO_BGB_NO_ITEMS = -2, BUTANO_BGB_BAD = -3 };

/* What a request is (create_type with the map kind). */
enum {
	BUTANO_BGB_REGULAR_TILES_OFFSET = 0, /* regular tiles, offset allowed */
	BUTANO_BGB_AFFINE_TILES_OFFSET = 1,  /* affine tiles, offset allowed */
	BUTANO_BGB_TILES_NO_OFFSET = 2,      /* tiles on a charblock */
	BUTANO_BGB_MAP = 3
};

typedef struct butano_bgb_req {
	uint32_t data;        /* 0: never shared */
	uint16_t width;       /* tiles: half words; maps: cells across */
	uint16_t height;      /* tiles: 1; maps: cells down */
	uint8_t blocks;       /* 1-32 */
	uint8_t kind;         /* BUTANO_BGB_* above */
	uint8_t bpp8, affine, compressed, big;
} butano_bgb_req;

typedef struct butano_bgb_item {
	uint32_t data;
	uint16_t width, height, usages;
	uint8_t start, blocks, next; /* address order; 0 heads, max_items + 1 ends */
	uint8_t status;
	uint8_t is_tiles, bpp8, affine, compressed, big;
	uint8_t kept;                /* waiting since its last release, not yet told */
} butano_bgb_item;

typedef struct butano_bgb {
	butano_bgb_item items[BUTANO_BGB_ITEMS_MAX + 2];
	uint8_t spare[BUTANO_BGB_ITEMS_MAX];    /* unused item indices, taken from the top */
	uint8_t released[BUTANO_BGB_ITEMS_MAX]; /* start blocks of waiting items the last call let go */
	uint8_t nspare, nreleased, max_items;
	uint8_t version;                        /* Butano's major version */
	uint8_t delay_commit;                   /* set by a flush inside create, cleared by update */
	/* Butano's counters, as it keeps them: before 18.4.0 they drift
	 * (below zero too), so they are not sums of the items */
	int16_t free_blocks, to_remove_blocks;
} butano_bgb;

/* Empty, as bn::bg_blocks_manager::init. version from
 * BUTANO_BGB_VERSION_OLDEST to _NEWEST; max_items 1 to BUTANO_BGB_ITEMS_MAX
 * (out of range: the nearest). */
void butano_bgb_init(butano_bgb *a, unsigned version, unsigned max_items);
/* Blocks for a request, Butano's arithmetic: tiles of 32 bytes (an 8bpp
 * tile is two), maps of width x height cells (big maps: the canvas). */
unsigned butano_bgb_tiles_blocks(unsigned tiles32);
unsigned butano_bgb_map_blocks(unsigned width, unsigned height, int affine, int big);
/* The request for a tile set of t32 tiles of 32 bytes (an 8bpp tile is
 * two), with an offset allowed or not, its data word 0: 0, or -1 when
 * valid_tiles_count refuses the count (Butano asserts). */
int butano_bgb_tiles_req(butano_bgb_req *r, unsigned t32, int bpp8, int affine, int offset);
/* The request for a map of w x h cells: 0; -1 for sizes Butano asserts on;
 * -2 for a big map (larger than the hardware's), whose VRAM canvas is
 * smaller than its cells. */
int butano_bgb_map_req(butano_bgb_req *r, unsigned w, unsigned h, int affine);
/* create_*_tiles / create_*_map: the item (the handle), *found 1 when the
 * data was loaded already, or a negative BUTANO_BGB_* code. */
int butano_bgb_create(butano_bgb *a, const butano_bgb_req *rq, int *found);
/* allocate_*: no data; the item or a negative code. */
int butano_bgb_allocate(butano_bgb *a, const butano_bgb_req *rq);
/* Uses left after one release, or BUTANO_BGB_BAD for an item not in use. */
int butano_bgb_decrease_usages(butano_bgb *a, int id);
/* Frees every waiting item (bn::bg_blocks_manager::update, once a frame). */
void butano_bgb_update(butano_bgb *a);

#endif
