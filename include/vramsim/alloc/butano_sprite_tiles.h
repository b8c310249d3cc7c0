/* SPDX-License-Identifier: Zlib */
/* butano_sprite_tiles.h - Butano's sprite tiles manager
 * (butano/src/bn_sprite_tiles_manager.cpp, GValiente/butano), rule for rule.
 *
 * OBJ VRAM's 1024 tiles are covered by a list of items in address order,
 * each free, used or waiting "to remove", drawn from a pool of at most
 * max_items (BN_CFG_SPRITE_TILES_MAX_ITEMS, 128 by default). Free items
 * are also kept in an array sorted by size, equal sizes in the order they
 * were inserted (an upper_bound insert); waiting items in another.
 *
 * - create: graphics already used or waiting are handed out again (a use
 *   more, or taken back from waiting); else a waiting item of exactly the
 *   requested size is reused; else best fit: the first free item at least
 *   as big (a lower_bound), split. Version 21 (21.0.0 on) keeps the free
 *   rest at the start of the item and takes the END; before 21 the START.
 *   When nothing fits, every waiting item is freed at once (update) and
 *   the request tried again; raw allocations are refused until the next
 *   frame's update after that (delay_commit).
 * - allocate: raw tiles without graphics; no waiting item is reused or
 *   freed for them.
 * - decrease_usages: the last use makes the item wait until update.
 *
 * Graphics are named by an opaque 32-bit word (Butano: the tiles' ROM
 * pointer) with their tile count. Failures leave the state as it was
 * before the failing step; Butano stops the game there (BN_ERROR or
 * BN_BASIC_ASSERT).
 *
 * Freestanding: no host headers; links are indices, so the state can be
 * copied with memcpy.
 */
#ifndef VRAMSIM_ALLOC_BUTANO_SPRITE_TILES_H
#define VRAMSIM_ALLOC_BUTANO_SPRITE_TILES_H

#include <stdint.h>

#define BUTANO_ST_TILES 1024u
/* BN_CFG_SPRITE_TILES_MAX_ITEMS: Butano's default and its bound (the tiles
 * count, static_assert in bn_sprite_tiles_manager.cpp) */
#define BUTANO_ST_ITEMS_DEFAULT 128u
#define BUTANO_ST_ITEMS_MAX 1024u

/* the major versions whose rules this follows (docs/butano.md) */
#define BUTANO_ST_VERSION_OLDEST 7u
#define BUTANO_ST_VERSION_NEWEST 21u

enum { BUTANO_ST_FREE = 0, BUTANO_ST_USED = 1, BUTANO_ST_TO_REMOVE = 2 };
enum { BUTANO_ST_NO_SPACE = -1, BUTANO_ST_NO_ITEMS = -2, BUTANO_ST_BAD = -3 };

typedef struct butano_st_item {
	uint32_t data;        /* graphics; 0: none (a raw allocation, or graphics never shared) */
	uint16_t prev, next;  /* address order; index 0 heads the list, max_items + 1 ends it */
	uint16_t start, count;
	uint16_t usages;
	uint8_t status;       /* BUTANO_ST_FREE, _USED, _TO_REMOVE */
	uint8_t compressed;
} butano_st_item;

typedef struct butano_st {
	butano_st_item items[BUTANO_ST_ITEMS_MAX + 2];
	uint16_t spare[BUTANO_ST_ITEMS_MAX];      /* unused item indices, taken from the top */
	uint16_t free_items[BUTANO_ST_ITEMS_MAX]; /* free items by size, equal sizes oldest first */
	uint16_t to_remove[BUTANO_ST_ITEMS_MAX];  /* waiting items, the same order */
	uint16_t released[BUTANO_ST_ITEMS_MAX];   /* start tiles of the waiting items the last call let go */
	uint16_t nspare, nfree, nto_remove, nreleased;
	uint16_t max_items;
	uint16_t free_tiles, to_remove_tiles;
	uint8_t version;      /* Butano's major version */
	uint8_t delay_commit; /* set by a flush inside create, cleared by update */
} butano_st;

/* Empty, as bn::sprite_tiles_manager::init. version from
 * BUTANO_ST_VERSION_OLDEST to _NEWEST; max_items 1 to BUTANO_ST_ITEMS_MAX
 * (out of range: the nearest). */
void butano_st_init(butano_st *a, unsigned version, unsigned max_items);
/* create(tiles_ref, compression): n tiles of graphics data (0: graphics
 * never shared). Returns the item (the handle), *found 1 when the graphics
 * were loaded already, or a negative BUTANO_ST_* code. */
int butano_st_create(butano_st *a, uint32_t data, uint16_t n, int compressed, int *found);
/* allocate(tiles_count): raw tiles. The item, or a negative code. */
int butano_st_allocate(butano_st *a, uint16_t n);
/* allocate_first_half (21 on; a bitmap BG's): tiles 0-511, when the first
 * item is free and holds them. The item, or BUTANO_ST_NO_SPACE. */
int butano_st_allocate_first_half(butano_st *a);
/* decrease_usages: the uses left (0: the item waits), or BUTANO_ST_BAD. */
int butano_st_decrease_usages(butano_st *a, int id);
/* update(): the frame's; frees every waiting item. */
void butano_st_update(butano_st *a);

#endif
