/* SPDX-License-Identifier: Zlib */
/* butano_sprite_tiles.c - Butano's sprite tiles manager, step for step.
 *
 * Written from butano/src/bn_sprite_tiles_manager.cpp (GValiente/butano);
 * "L123" below is a line of that file at tag 21.7.1, "20:L123" at tag
 * 20.3.2. docs/butano.md lists every rule with its line. */
#include "vramsim/alloc/butano_sprite_tiles.h"

#define HEAD 0u
#define TAIL(a) ((uint16_t)((a)->max_items + 1u))
#define FIRST_HALF (BUTANO_ST_TILES / 2u)

/* ---- items_list (L115-262): a pool of items linked in address order --- */

/* insert(position, value) (L216): the index on top of the spare stack
 * goes before position. */
static uint16_t list_insert(butano_st *a, uint16_t position, uint16_t start, uint16_t count)
{
	uint16_t i = a->spare[--a->nspare], prev = a->items[position].prev;
	butano_st_item *it = &a->items[i];

	/* a default item_type (L76): free, no data, no uses */
	it->data = 0;
	it->start = start;
	it->count = count;
	it->usages = 0;
	it->status = BUTANO_ST_FREE;
	it->compressed = 0;
	it->prev = prev;
	it->next = position;
	a->items[prev].next = i;
	a->items[position].prev = i;
	return i;
}

/* erase(index) (L226): back on the spare stack. */
static void list_erase(butano_st *a, uint16_t i)
{
	uint16_t p = a->items[i].prev, n = a->items[i].next;

	a->spare[a->nspare++] = i;
	a->items[p].next = n;
	a->items[n].prev = p;
}

/* ---- the sorted index arrays (free_items, to_remove_items) ------------ */

/* lower_bound by tiles count (L438): the first at least n. */
static uint16_t lower_bound(const butano_st *a, const uint16_t *v, uint16_t len, uint16_t n)
{
	uint16_t lo = 0, hi = len, mid;

	while (lo < hi) {
		mid = (uint16_t)((lo + hi) / 2u);
		if (a->items[v[mid]].count < n)
			lo = (uint16_t)(mid + 1u);
		else
			hi = mid;
	}
	return lo;
}

/* upper_bound by tiles count (L443) over v[0, last): the first bigger. */
static uint16_t upper_bound(const butano_st *a, const uint16_t *v, uint16_t last, uint16_t n)
{
	uint16_t lo = 0, hi = last, mid;

	while (lo < hi) {
		mid = (uint16_t)((lo + hi) / 2u);
		if (n < a->items[v[mid]].count)
			hi = mid;
		else
			lo = (uint16_t)(mid + 1u);
	}
	return lo;
}

static void vec_insert_at(uint16_t *v, uint16_t *len, uint16_t at, uint16_t id)
{
	uint16_t k;

	for (k = *len; k > at; k--)
		v[k] = v[k - 1u];
	v[at] = id;
	(*len)++;
}

static void vec_erase_at(uint16_t *v, uint16_t *len, uint16_t at)
{
	uint16_t k;

	for (k = at; k + 1u < *len; k++)
		v[k] = v[k + 1u];
	(*len)--;
}

/* _insert_free_item (L448; 20:L438 with a last bound): after every free
 * item of the same size. */
static void insert_free_before(butano_st *a, uint16_t id, uint16_t last)
{
	vec_insert_at(a->free_items, &a->nfree, upper_bound(a, a->free_items, last, a->items[id].count), id);
}

static void insert_free(butano_st *a, uint16_t id)
{
	insert_free_before(a, id, a->nfree);
}

/* _erase_free_item / _erase_to_remove_item (L457, L481): lower_bound,
 * then on to the id. */
static void erase_sorted(butano_st *a, uint16_t *v, uint16_t *len, uint16_t id)
{
	uint16_t at = lower_bound(a, v, *len, a->items[id].count);

	while (at < *len && v[at] != id)
		at++;
	if (at < *len)
		vec_erase_at(v, len, at);
}

/* ---- the manager ------------------------------------------------------ */

void butano_st_init(butano_st *a, unsigned version, unsigned max_items)
{
	uint16_t i, first;

	if (version < BUTANO_ST_VERSION_OLDEST)
		version = BUTANO_ST_VERSION_OLDEST;
	if (version > BUTANO_ST_VERSION_NEWEST)
		version = BUTANO_ST_VERSION_NEWEST;
	if (max_items < 1u)
		max_items = 1u;
	if (max_items > BUTANO_ST_ITEMS_MAX)
		max_items = BUTANO_ST_ITEMS_MAX;
	a->version = (uint8_t)version;
	a->max_items = (uint16_t)max_items;
	/* items_list() (L165): spare indices max_items down to 1, so the
	 * first insert takes index 1; 0 and max_items + 1 bound the list */
	for (i = 0; i < a->max_items; i++)
		a->spare[i] = (uint16_t)(a->max_items - i);
	a->nspare = a->max_items;
	a->items[HEAD].next = TAIL(a);
	a->items[HEAD].prev = TAIL(a);
	a->items[HEAD].status = BUTANO_ST_FREE;
	a->items[TAIL(a)].prev = HEAD;
	a->items[TAIL(a)].next = TAIL(a);
	a->nfree = a->nto_remove = a->nreleased = 0;
	a->to_remove_tiles = 0;
	a->delay_commit = 0;
	/* init() (L783): one free item of every tile */
	first = list_insert(a, a->items[HEAD].next, 0, BUTANO_ST_TILES);
	a->free_items[a->nfree++] = first;
	a->free_tiles = BUTANO_ST_TILES;
}

/* update() (L1205), without the public entry's bookkeeping: every waiting
 * item, in to_remove order (by size), becomes free and merges with a free
 * next, then a free previous item. */
static void update_impl(butano_st *a)
{
	uint16_t k, id, nb, pv;
	butano_st_item *it;

	if (a->to_remove_tiles) {
		a->to_remove_tiles = 0;
		for (k = 0; k < a->nto_remove; k++) {
			id = a->to_remove[k];
			it = &a->items[id];
			a->released[a->nreleased++] = it->start;
			it->data = 0;
			it->status = BUTANO_ST_FREE;
			a->free_tiles = (uint16_t)(a->free_tiles + it->count);
			nb = it->next;
			if (nb != TAIL(a) && a->items[nb].status == BUTANO_ST_FREE) {
				it->count = (uint16_t)(it->count + a->items[nb].count);
				erase_sorted(a, a->free_items, &a->nfree, nb);
				list_erase(a, nb);
			}
			/* L1250 compares with begin() taken before the loop: an
			 * item is first then exactly when nothing precedes it now */
			pv = it->prev;
			if (pv != HEAD && a->items[pv].status == BUTANO_ST_FREE) {
				it->start = a->items[pv].start;
				it->count = (uint16_t)(it->count + a->items[pv].count);
				erase_sorted(a, a->free_items, &a->nfree, pv);
				list_erase(a, pv);
			}
			insert_free(a, id);
		}
		a->nto_remove = 0;
	}
	a->delay_commit = 0;
}

void butano_st_update(butano_st *a)
{
	a->nreleased = 0;
	update_impl(a);
}

/* Whether giving n tiles of item id needs a new item the pool lacks:
 * _create_item's BN_BASIC_ASSERT (L660; 20:L675). */
static int split_impossible(const butano_st *a, uint16_t id, uint16_t n)
{
	return a->items[id].count != n && a->nspare == 0;
}

/* _create_item (L629; 20:L624): item id (free or waiting) gets n tiles of
 * data. 21: a rest stays in id, the tiles are a new item after it, at the
 * END. Before 21: id takes the START and a new free item after it the
 * rest, returned in *rest (else NIL). Returns the used item. */
static uint16_t create_item(butano_st *a, uint16_t id, uint32_t data, uint16_t n, int compressed, uint16_t *rest)
{
	butano_st_item *it = &a->items[id];
	uint16_t left = (uint16_t)(it->count - n), u = id;

	*rest = 0xFFFFu;
	if (it->status == BUTANO_ST_FREE) {
		a->free_tiles = (uint16_t)(a->free_tiles - n);
	} else {
		/* a waiting item taken for other data: its old data is gone */
		a->released[a->nreleased++] = it->start;
		a->to_remove_tiles = (uint16_t)(a->to_remove_tiles - n);
	}
	if (left && a->version >= 21u) {
		/* L663: new_item.start_tile = item->start_tile + rest */
		it->count = left;
		u = list_insert(a, it->next, (uint16_t)(it->start + left), n);
	} else if (left) {
		/* 20:L678: new_item.start_tile = item.start_tile + tiles_count */
		*rest = list_insert(a, it->next, (uint16_t)(it->start + n), left);
	}
	it = &a->items[u];
	it->data = data;
	it->compressed = (uint8_t)(compressed != 0);
	it->count = n;
	it->usages = 1;
	it->status = BUTANO_ST_USED;
	return u;
}

/* The free path of _create_impl and _allocate_impl (L718-737, L758-777;
 * 20:L728-747): the first free item of at least n tiles, or none. */
static int take_free(butano_st *a, uint32_t data, uint16_t n, int compressed)
{
	uint16_t at, id, u, rest;

	if (n > a->free_tiles)
		return BUTANO_ST_NO_SPACE;
	at = lower_bound(a, a->free_items, a->nfree, n);
	if (at >= a->nfree)
		return BUTANO_ST_NO_SPACE;
	id = a->free_items[at];
	if (split_impossible(a, id, n))
		return BUTANO_ST_NO_ITEMS;
	u = create_item(a, id, data, n, compressed, &rest);
	if (a->version >= 21u) {
		/* L728: erased, and the smaller rest inserted anew */
		vec_erase_at(a->free_items, &a->nfree, at);
		if (u != id)
			insert_free(a, id);
	} else {
		/* 20:L739: the rest inserted before the chosen one, then the
		 * chosen one (one further on) erased */
		if (rest != 0xFFFFu) {
			insert_free_before(a, rest, at);
			at++;
		}
		vec_erase_at(a->free_items, &a->nfree, at);
	}
	return u;
}

/* _find_impl (L542): graphics used or waiting are handed out again. */
static int find(butano_st *a, uint32_t data, uint16_t n)
{
	uint16_t i;
	butano_st_item *it;

	if (!data)
		return -1;
	for (i = a->items[HEAD].next; i != TAIL(a); i = a->items[i].next) {
		it = &a->items[i];
		if (it->status == BUTANO_ST_FREE || it->data != data || it->count != n)
			continue;
		if (it->status == BUTANO_ST_USED) {
			it->usages++;
		} else {
			/* L572: back from waiting, one use */
			it->usages = 1;
			it->status = BUTANO_ST_USED;
			erase_sorted(a, a->to_remove, &a->nto_remove, i);
			a->to_remove_tiles = (uint16_t)(a->to_remove_tiles - it->count);
		}
		return i;
	}
	return -1;
}

/* _create_impl (L692) */
static int create_impl(butano_st *a, uint32_t data, uint16_t n, int compressed)
{
	uint16_t at, id, rest;
	int rc;

	/* L697: a waiting item of exactly n tiles first; compressed data only
	 * after a flush (10.4.0 on: bacb9d31, decompress outside VBlank) */
	if (n <= a->to_remove_tiles && (a->version < 10u || a->delay_commit || !compressed)) {
		at = lower_bound(a, a->to_remove, a->nto_remove, n);
		if (at < a->nto_remove && a->items[a->to_remove[at]].count == n) {
			id = a->to_remove[at];
			vec_erase_at(a->to_remove, &a->nto_remove, at);
			return create_item(a, id, data, n, compressed, &rest);
		}
	}
	rc = take_free(a, data, n, compressed);
	if (rc != BUTANO_ST_NO_SPACE)
		return rc;
	/* L739: nothing fits: every waiting item freed at once, tried again */
	if (a->to_remove_tiles) {
		update_impl(a);
		a->delay_commit = 1;
		return create_impl(a, data, n, compressed);
	}
	return BUTANO_ST_NO_SPACE;
}

int butano_st_create(butano_st *a, uint32_t data, uint16_t n, int compressed, int *found)
{
	int id;

	a->nreleased = 0;
	*found = 0;
	if (n == 0 || n > BUTANO_ST_TILES)
		return BUTANO_ST_BAD;
	id = find(a, data, n);
	if (id >= 0) {
		*found = 1;
		return id;
	}
	return create_impl(a, data, n, compressed);
}

int butano_st_allocate(butano_st *a, uint16_t n)
{
	a->nreleased = 0;
	if (n == 0 || n > BUTANO_ST_TILES)
		return BUTANO_ST_BAD;
	/* _allocate_impl (L749): nothing after a flush until update */
	if (a->delay_commit)
		return BUTANO_ST_NO_SPACE;
	return take_free(a, 0, n, 0);
}

int butano_st_allocate_first_half(butano_st *a)
{
	uint16_t id = a->items[HEAD].next, left, k, nb;
	butano_st_item *it = &a->items[id];

	a->nreleased = 0;
	/* L997-1007: the first item, free, with at least 512 tiles */
	if (a->version < 21u || a->delay_commit || id == TAIL(a) || it->status != BUTANO_ST_FREE ||
		it->count < FIRST_HALF)
		return BUTANO_ST_NO_SPACE;
	left = (uint16_t)(it->count - FIRST_HALF);
	if (left && a->nspare == 0)
		return BUTANO_ST_NO_ITEMS;
	for (k = 0; k < a->nfree; k++)
		if (a->free_items[k] == id) {
			vec_erase_at(a->free_items, &a->nfree, k);
			break;
		}
	a->free_tiles = (uint16_t)(a->free_tiles - FIRST_HALF);
	it->data = 0;
	it->compressed = 0;
	it->count = FIRST_HALF;
	it->usages = 1;
	it->status = BUTANO_ST_USED;
	if (left) {
		/* L1032: the rest starts at the item's count (the first item
		 * starts at tile 0) */
		nb = list_insert(a, a->items[id].next, FIRST_HALF, left);
		insert_free(a, nb);
	}
	return id;
}

int butano_st_decrease_usages(butano_st *a, int id)
{
	butano_st_item *it;

	if (id <= 0 || id > (int)a->max_items || a->items[id].status != BUTANO_ST_USED)
		return BUTANO_ST_BAD;
	it = &a->items[id];
	/* L1077: the last use makes it wait, sorted by size among the waiting */
	if (--it->usages == 0) {
		it->status = BUTANO_ST_TO_REMOVE;
		vec_insert_at(a->to_remove, &a->nto_remove, upper_bound(a, a->to_remove, a->nto_remove, it->count),
			(uint16_t)id);
		a->to_remove_tiles = (uint16_t)(a->to_remove_tiles + it->count);
	}
	return it->usages;
}
