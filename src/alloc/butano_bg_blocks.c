/* SPDX-License-Identifier: Zlib */
/* butano_bg_blocks.c - Butano's BG blocks manager, written from its source
 * (GValiente/butano, butano/src/bn_bg_blocks_manager.cpp at tag 21.7.1,
 * commit 112a1827); the line numbers below are that file's. The rules and
 * their quirks are listed in docs/butano.md. */
#include "vramsim/alloc/butano_bg_blocks.h"

#define HALF_WORDS_PER_BLOCK 1024u /* 32 * 1024 cells over 32 blocks */

static unsigned end_of(const butano_bgb *a)
{
	return a->max_items + 1u;
}

void butano_bgb_init(butano_bgb *a, unsigned version, unsigned max_items)
{
	unsigned i;
	uint8_t first;

	if (max_items < 1u)
		max_items = 1u;
	if (max_items > BUTANO_BGB_ITEMS_MAX)
		max_items = BUTANO_BGB_ITEMS_MAX;
	for (i = 0; i < sizeof *a; i++)
		((uint8_t *)a)[i] = 0;
	a->max_items = (uint8_t)max_items;
	a->version = (uint8_t)(version < BUTANO_BGB_VERSION_OLDEST ? BUTANO_BGB_VERSION_OLDEST :
		version > BUTANO_BGB_VERSION_NEWEST ? BUTANO_BGB_VERSION_NEWEST : version);
	/* items_list(): the spare stack holds 1..max_items, popped from the top (L335-341) */
	for (i = 0; i < max_items; i++)
		a->spare[i] = (uint8_t)(i + 1u);
	a->nspare = (uint8_t)max_items;
	/* init(): one free item over every block (L1354-1368) */
	first = a->spare[--a->nspare];
	a->items[first].blocks = BUTANO_BGB_BLOCKS;
	a->items[first].next = (uint8_t)end_of(a);
	a->items[0].next = first;
	a->free_blocks = BUTANO_BGB_BLOCKS;
}

static unsigned ceil_blocks(unsigned half_words)
{
	return (half_words + HALF_WORDS_PER_BLOCK - 1u) / HALF_WORDS_PER_BLOCK;
}

unsigned butano_bgb_tiles_blocks(unsigned tiles32)
{
	return ceil_blocks(tiles32 * 16u); /* _ceil_half_words_to_blocks (L73) */
}

unsigned butano_bgb_map_blocks(unsigned width, unsigned height, int affine, int big)
{
	/* L517-535: a big map holds a 32x32 canvas (affine: the default canvas) */
	if (big)
		return affine ? ceil_blocks(32u * 32u / 2u) : ceil_blocks(32u * 32u);
	return affine ? ceil_blocks(width * height / 2u) : ceil_blocks(width * height);
}

static void clear_req(butano_bgb_req *r)
{
	unsigned i;

	for (i = 0; i < sizeof *r; i++)
		((uint8_t *)r)[i] = 0;
}

/* regular_bg_tiles_item::valid_tiles_count (bn_regular_bg_tiles_item.h
 * L49: 1-1024 at 4bpp, an even 2-2048 at 8bpp) and
 * affine_bg_tiles_item::valid_tiles_count (L48: an even 2-512);
 * create_data::from_regular_tiles and from_affine_tiles (L554-576) */
int butano_bgb_tiles_req(butano_bgb_req *r, unsigned t32, int bpp8, int affine, int offset)
{
	clear_req(r);
	if (t32 == 0 || ((bpp8 || affine) && t32 % 2u) || t32 > (affine ? 512u : bpp8 ? 2048u : 1024u))
		return -1;
	r->kind = !offset ? BUTANO_BGB_TILES_NO_OFFSET :
		affine ? BUTANO_BGB_AFFINE_TILES_OFFSET : BUTANO_BGB_REGULAR_TILES_OFFSET;
	r->width = (uint16_t)(t32 * 16u);
	r->height = 1;
	r->bpp8 = (uint8_t)(bpp8 || affine);
	r->affine = (uint8_t)(affine != 0);
	r->blocks = (uint8_t)butano_bgb_tiles_blocks(t32);
	return 0;
}

/* regular_bg_map_item (bn_regular_bg_map_item.h L96-98: 32-2048 cells,
 * multiples of 32, big above 64, L491) and affine_bg_map_item
 * (bn_affine_bg_map_item.h L96-99; big unless square 16, 32, 64 or 128,
 * L480); from_regular_map and from_affine_map (L588-610) */
int butano_bgb_map_req(butano_bgb_req *r, unsigned w, unsigned h, int affine)
{
	int sides = w >= 32 && w <= 2048 && w % 32 == 0 && h >= 32 && h <= 2048 && h % 32 == 0, big;

	clear_req(r);
	if (affine) {
		if (!sides && (w != 16 || h != 16))
			return -1;
		big = w != h || (w != 16 && w != 32 && w != 64 && w != 128);
	} else {
		if (!sides)
			return -1;
		big = w > 64 || h > 64;
	}
	if (big)
		return -2;
	r->kind = BUTANO_BGB_MAP;
	r->width = (uint16_t)w;
	r->height = (uint16_t)h;
	r->affine = (uint8_t)(affine != 0);
	r->bpp8 = r->affine;
	r->blocks = (uint8_t)butano_bgb_map_blocks(w, h, affine, 0);
	return 0;
}

/* create_data::padding_blocks_count (L612-652): tiles without an offset
 * start on a charblock; tiles with one only when they would run past what
 * the BG can reach from the charblock below. Maps are never padded. */
static unsigned padding(const butano_bgb_req *rq, unsigned start)
{
	unsigned extra = start % BUTANO_BGB_CHARBLOCK, max;

	if (rq->kind == BUTANO_BGB_MAP)
		return 0;
	if (rq->kind == BUTANO_BGB_TILES_NO_OFFSET)
		return extra ? BUTANO_BGB_CHARBLOCK - extra : 0u;
	max = rq->kind == BUTANO_BGB_AFFINE_TILES_OFFSET ? 8u : rq->bpp8 ? 32u : 16u;
	return rq->blocks + extra > max ? BUTANO_BGB_CHARBLOCK - extra : 0u;
}

static void tell_released(butano_bgb *a, butano_bgb_item *it)
{
	if (it->kept) {
		it->kept = 0;
		a->released[a->nreleased++] = it->start;
	}
}

/* items_list::insert_after (L378-386): a free item from the spare stack */
static unsigned insert_after(butano_bgb *a, unsigned id, unsigned start, unsigned blocks)
{
	unsigned n = a->spare[--a->nspare];
	butano_bgb_item *it = &a->items[n];
	unsigned i;

	for (i = 0; i < sizeof *it; i++)
		((uint8_t *)it)[i] = 0;
	it->start = (uint8_t)start;
	it->blocks = (uint8_t)blocks;
	it->next = a->items[id].next;
	a->items[id].next = (uint8_t)n;
	return n;
}

/* items_list::erase_after (L388-392, L411-419): the index back on the stack */
static void erase_after(butano_bgb *a, unsigned id)
{
	unsigned n = a->items[id].next;

	a->spare[a->nspare++] = (uint8_t)n;
	a->items[id].next = a->items[n].next;
}

/* _fix_blocks_count (L1051-1074): blocks cut off a waiting item are free.
 * Before 18.4.0 (commit 0b7816c7) nothing moved them: the counters drift. */
static void fix_blocks(butano_bgb *a, const butano_bgb_item *it, unsigned moved)
{
	if (it->status == BUTANO_BGB_TO_REMOVE && a->version >= 18u) {
		a->free_blocks = (int16_t)(a->free_blocks + (int)moved);
		a->to_remove_blocks = (int16_t)(a->to_remove_blocks - (int)moved);
	}
}

/* _create_item (L1076-1187): item id (free or waiting, large enough with
 * its padding) takes the request. Each split needs an item from the pool
 * (the asserts at L1084 and L1103); without enough, nothing changes. */
static int create_item(butano_bgb *a, unsigned id, unsigned pad, const butano_bgb_req *rq)
{
	butano_bgb_item *it = &a->items[id];
	unsigned need = (pad ? 1u : 0u) + (it->blocks - pad > rq->blocks ? 1u : 0u), rest, start;
	int is_tiles = rq->kind != BUTANO_BGB_MAP;

	if (a->nspare < need)
		return BUTANO_BGB_NO_ITEMS;
	/* waiting data written over, in whole or in part: let go */
	if (it->status == BUTANO_BGB_TO_REMOVE)
		tell_released(a, it);
	if (pad) {
		/* L1082-1097: the item keeps the padding, status and data
		 * included; the rest is a new free item */
		rest = it->blocks - pad;
		it->blocks = (uint8_t)pad;
		fix_blocks(a, it, rest);
		id = insert_after(a, id, it->start + pad, rest);
		it = &a->items[id];
	}
	if ((rest = it->blocks - rq->blocks) != 0) {
		start = it->start;
		/* L1107-1109: a map goes to the back of a range that starts on a
		 * charblock or that it would cross one in from the start */
		if (!is_tiles && (start % BUTANO_BGB_CHARBLOCK == 0 ||
			start / BUTANO_BGB_CHARBLOCK != (start + rq->blocks - 1u) / BUTANO_BGB_CHARBLOCK)) {
			it->blocks = (uint8_t)rest;
			fix_blocks(a, it, rest);
			id = insert_after(a, id, start + rest, 0);
			it = &a->items[id];
		} else {
			(void)insert_after(a, id, start + rq->blocks, rest);
		}
	}
	if (it->status == BUTANO_BGB_TO_REMOVE)
		a->to_remove_blocks = (int16_t)(a->to_remove_blocks - (int)rq->blocks);
	else
		a->free_blocks = (int16_t)(a->free_blocks - (int)rq->blocks);
	it->data = rq->data;
	it->blocks = rq->blocks;
	it->width = rq->width;
	it->height = rq->height;
	it->usages = 1;
	it->status = BUTANO_BGB_USED;
	it->is_tiles = (uint8_t)is_tiles;
	it->bpp8 = rq->bpp8;
	it->affine = rq->affine;
	it->compressed = rq->compressed;
	it->big = rq->big;
	it->kept = 0;
	return (int)id;
}

/* The free search of _create_impl and _allocate_impl (L1216-1252,
 * L1275-1311): in address order, the first free item of exactly the
 * request and its padding, else the smallest larger one (the first of
 * equal sizes). Returns 1 when it placed or failed for items (*rc). */
static int place_free(butano_bgb *a, const butano_bgb_req *rq, int *rc)
{
	unsigned i, best = 0, best_blocks = 0x100u, best_pad = 0, pad, want;

	if ((int)rq->blocks > a->free_blocks)
		return 0;
	for (i = a->items[0].next; i != end_of(a); i = a->items[i].next) {
		if (a->items[i].status != BUTANO_BGB_FREE)
			continue;
		pad = padding(rq, a->items[i].start);
		want = rq->blocks + pad;
		if (a->items[i].blocks > want) {
			if (a->items[i].blocks < best_blocks) {
				best = i;
				best_blocks = a->items[i].blocks;
				best_pad = pad;
			}
		} else if (a->items[i].blocks == want) {
			*rc = create_item(a, i, pad, rq);
			return 1;
		}
	}
	if (!best)
		return 0;
	*rc = create_item(a, best, best_pad, rq);
	return 1;
}

/* _find_tiles_impl, _find_regular_map_impl, _find_affine_map_impl
 * (L791-972): the first item in address order with the same data. A
 * used one gets a use more; a waiting one is taken back, used once. */
static int find(butano_bgb *a, const butano_bgb_req *rq)
{
	int is_tiles = rq->kind != BUTANO_BGB_MAP;
	unsigned i;

	if (!rq->data)
		return -1;
	for (i = a->items[0].next; i != end_of(a); i = a->items[i].next) {
		butano_bgb_item *it = &a->items[i];
		if (it->status == BUTANO_BGB_FREE || it->data != rq->data || it->is_tiles != is_tiles ||
			it->compressed != rq->compressed || it->width != rq->width || it->affine != rq->affine)
			continue;
		/* tiles of another depth are other data from 21.3.0 (commit 2be8a8d7) */
		if (is_tiles ? a->version >= 21u && it->bpp8 != rq->bpp8 :
			(it->height != rq->height || it->big != rq->big))
			continue;
		if (it->status == BUTANO_BGB_USED) {
			it->usages++;
		} else {
			it->usages = 1;
			it->status = BUTANO_BGB_USED;
			it->kept = 0;
			a->to_remove_blocks = (int16_t)(a->to_remove_blocks - it->blocks);
		}
		return (int)i;
	}
	return -1;
}

/* _create_impl (L1189-1262). */
static int create_impl(butano_bgb *a, const butano_bgb_req *rq)
{
	unsigned i, pad, pass;
	int rc, to_remove;

	for (pass = 0; pass < 2; pass++) {
		to_remove = a->to_remove_blocks;
		/* L1197: compressed data reuses a waiting item only after a flush */
		if ((int)rq->blocks <= to_remove && (a->delay_commit || !rq->compressed))
			for (i = a->items[0].next; i != end_of(a); i = a->items[i].next)
				if (a->items[i].status == BUTANO_BGB_TO_REMOVE) {
					pad = padding(rq, a->items[i].start);
					if (a->items[i].blocks == rq->blocks + pad)
						return create_item(a, i, pad, rq);
				}
		if (place_free(a, rq, &rc))
			return rc;
		if (!to_remove)
			break;
		/* L1254-1259: flush every waiting item, then once more */
		butano_bgb_update(a);
		a->delay_commit = 1;
	}
	return BUTANO_BGB_NO_SPACE;
}

int butano_bgb_create(butano_bgb *a, const butano_bgb_req *rq, int *found)
{
	int id;

	a->nreleased = 0;
	*found = 0;
	if (rq->blocks < 1u || rq->blocks > BUTANO_BGB_BLOCKS)
		return BUTANO_BGB_BAD;
	if ((id = find(a, rq)) >= 0) {
		*found = 1;
		return id;
	}
	return create_impl(a, rq);
}

int butano_bgb_allocate(butano_bgb *a, const butano_bgb_req *rq)
{
	butano_bgb_req raw = *rq;
	int rc;

	a->nreleased = 0;
	if (rq->blocks < 1u || rq->blocks > BUTANO_BGB_BLOCKS)
		return BUTANO_BGB_BAD;
	/* L1268: after a flush inside create, nothing until the next update */
	if (a->delay_commit)
		return BUTANO_BGB_NO_SPACE;
	raw.data = 0;
	raw.compressed = 0;
	return place_free(a, &raw, &rc) ? rc : BUTANO_BGB_NO_SPACE;
}

int butano_bgb_decrease_usages(butano_bgb *a, int id)
{
	butano_bgb_item *it;

	if (id < 1 || id > (int)a->max_items || a->items[id].status != BUTANO_BGB_USED)
		return BUTANO_BGB_BAD;
	it = &a->items[id];
	/* L1990-2033: the last use makes it wait; a map lets its tiles and
	 * palette go here (L2004-2006), which a trace says with their own frees */
	if (--it->usages == 0) {
		it->status = BUTANO_BGB_TO_REMOVE;
		it->kept = 1;
		a->to_remove_blocks = (int16_t)(a->to_remove_blocks + it->blocks);
	}
	return it->usages;
}

/* _remove_adjacent_item (L1316-1334): an item not in use joins cur */
static int absorb(butano_bgb *a, butano_bgb_item *cur, unsigned adj)
{
	butano_bgb_item *it = &a->items[adj];

	if (it->status == BUTANO_BGB_USED)
		return 0;
	cur->blocks = (uint8_t)(cur->blocks + it->blocks);
	if (it->status == BUTANO_BGB_TO_REMOVE) {
		tell_released(a, it);
		a->free_blocks = (int16_t)(a->free_blocks + it->blocks);
	}
	return 1;
}

/* update (L3046-3131): in address order, each waiting item is freed and
 * merged with every unused item after it, then with the one before. */
void butano_bgb_update(butano_bgb *a)
{
	unsigned end = end_of(a), before_prev = end, prev = 0, i;

	a->nreleased = 0;
	a->delay_commit = 0;
	/* L3050: nothing waits, nothing to walk (check_commit is for uploads) */
	if (!a->to_remove_blocks)
		return;
	a->to_remove_blocks = 0;
	for (i = a->items[0].next; i != end; i = a->items[i].next) {
		butano_bgb_item *it = &a->items[i];
		if (it->status == BUTANO_BGB_TO_REMOVE) {
			tell_released(a, it);
			it->data = 0;
			it->width = it->height = 0;
			it->status = BUTANO_BGB_FREE;
			a->free_blocks = (int16_t)(a->free_blocks + it->blocks);
			while (it->next != end && absorb(a, it, it->next))
				erase_after(a, i);
			if (before_prev != end && absorb(a, it, prev)) {
				it->start = a->items[prev].start;
				erase_after(a, before_prev);
				prev = before_prev;
			}
		}
		before_prev = prev;
		prev = i;
	}
}
