/* SPDX-License-Identifier: Zlib */
/* gba_obj_best_fit.c - best fit from a size-sorted free list, carved from
 * the end of the chosen range (the strategy gba-obj-best-fit-end). */
#include "vramsim/alloc/gba_obj_best_fit.h"

#define NIL GBA_OBJ_BF_NIL

static uint8_t take_item(gba_obj_bf *a)
{
	uint8_t i = a->spare;

	if (i != NIL) {
		a->spare = a->items[i].fnext;
		a->nitems++;
	}
	return i;
}

static void give_item(gba_obj_bf *a, uint8_t i)
{
	a->items[i].used = 0;
	a->items[i].fnext = a->spare;
	a->spare = i;
	a->nitems--;
}

static void free_unlink(gba_obj_bf *a, uint8_t i)
{
	gba_obj_bf_item *it = &a->items[i];

	if (it->fprev != NIL)
		a->items[it->fprev].fnext = it->fnext;
	else
		a->free_head = it->fnext;
	if (it->fnext != NIL)
		a->items[it->fnext].fprev = it->fprev;
}

/* Keeps the free list sorted by count, ties by address so runs repeat. */
static void free_insert(gba_obj_bf *a, uint8_t i)
{
	gba_obj_bf_item *it = &a->items[i];
	uint8_t p = NIL, c = a->free_head;

	while (c != NIL && (a->items[c].count < it->count ||
		(a->items[c].count == it->count && a->items[c].start < it->start))) {
		p = c;
		c = a->items[c].fnext;
	}
	it->fprev = p;
	it->fnext = c;
	if (p != NIL)
		a->items[p].fnext = i;
	else
		a->free_head = i;
	if (c != NIL)
		a->items[c].fprev = i;
}

/* Inserts item n into the address list after item p. */
static void addr_insert_after(gba_obj_bf *a, uint8_t p, uint8_t n)
{
	gba_obj_bf_item *it = &a->items[n];

	it->prev = p;
	it->next = a->items[p].next;
	if (it->next != NIL)
		a->items[it->next].prev = n;
	a->items[p].next = n;
}

static void addr_unlink(gba_obj_bf *a, uint8_t i)
{
	gba_obj_bf_item *it = &a->items[i];

	if (it->prev != NIL)
		a->items[it->prev].next = it->next;
	else
		a->head = it->next;
	if (it->next != NIL)
		a->items[it->next].prev = it->prev;
}

void gba_obj_bf_init(gba_obj_bf *a, uint16_t first_tile)
{
	gba_obj_bf_init_span(a, first_tile, GBA_OBJ_BF_TILES);
}

void gba_obj_bf_init_span(gba_obj_bf *a, uint16_t first_tile, uint16_t end)
{
	uint32_t i;

	/* the free list starts as one range: at least a tile */
	if (end > GBA_OBJ_BF_TILES || end == 0)
		end = GBA_OBJ_BF_TILES;
	if (first_tile >= end)
		first_tile = (uint16_t)(end - 1u);
	a->first = first_tile;
	for (i = 0; i < GBA_OBJ_BF_ITEMS; i++) {
		a->items[i].start = a->items[i].count = 0;
		a->items[i].used = 0;
		a->items[i].prev = a->items[i].next = a->items[i].fprev = NIL;
		a->items[i].fnext = i + 1u < GBA_OBJ_BF_ITEMS ? (uint8_t)(i + 1u) : NIL;
	}
	a->spare = 0;
	a->nitems = 0;
	a->head = take_item(a);
	a->items[a->head].start = first_tile;
	a->items[a->head].count = (uint16_t)(end - first_tile);
	a->items[a->head].next = a->items[a->head].prev = NIL;
	a->free_head = NIL;
	free_insert(a, a->head);
}

int gba_obj_bf_alloc(gba_obj_bf *a, uint16_t n, uint16_t align, uint16_t *tile)
{
	uint8_t c, u, t;
	uint32_t end, s;
	gba_obj_bf_item *r;

	if (n == 0 || n > GBA_OBJ_BF_TILES || align == 0 || (align & (align - 1)))
		return GBA_OBJ_BF_NO_SPACE;
	for (c = a->free_head; c != NIL; c = a->items[c].fnext) {
		r = &a->items[c];
		if (r->count < n)
			continue;
		end = (uint32_t)r->start + r->count;
		s = (end - n) & ~(uint32_t)(align - 1u);
		if (s >= r->start)
			break;
	}
	if (c == NIL)
		return GBA_OBJ_BF_NO_SPACE;
	r = &a->items[c];
	/* Pieces: [start, s) stays free in c, [s, s+n) used, [s+n, end) a
	 * small free tail when alignment moved s down. */
	if (s == r->start && s + n == end) {
		free_unlink(a, c);
		r->used = 1;
		*tile = (uint16_t)s;
		return c;
	}
	if ((s > r->start) + (s + n < end) > (int)(GBA_OBJ_BF_ITEMS - a->nitems))
		return GBA_OBJ_BF_NO_ITEMS;
	free_unlink(a, c);
	if (s + n < end) {
		t = take_item(a);
		a->items[t].start = (uint16_t)(s + n);
		a->items[t].count = (uint16_t)(end - s - n);
		a->items[t].used = 0;
		addr_insert_after(a, c, t);
		free_insert(a, t);
	}
	if (s > r->start) {
		u = take_item(a);
		a->items[u].start = (uint16_t)s;
		a->items[u].count = n;
		a->items[u].used = 1;
		addr_insert_after(a, c, u);
		r->count = (uint16_t)(s - r->start);
		free_insert(a, c);
	} else {
		u = c;
		r->count = n;
		r->used = 1;
	}
	*tile = (uint16_t)s;
	return u;
}

int gba_obj_bf_free(gba_obj_bf *a, int item)
{
	uint8_t i, p, n;
	int freed;

	if (item < 0 || item >= (int)GBA_OBJ_BF_ITEMS || !a->items[item].used)
		return GBA_OBJ_BF_BAD;
	i = (uint8_t)item;
	freed = a->items[i].count;
	a->items[i].used = 0;
	p = a->items[i].prev;
	n = a->items[i].next;
	if (n != NIL && !a->items[n].used) {
		free_unlink(a, n);
		a->items[i].count = (uint16_t)(a->items[i].count + a->items[n].count);
		addr_unlink(a, n);
		give_item(a, n);
	}
	if (p != NIL && !a->items[p].used) {
		free_unlink(a, p);
		a->items[p].count = (uint16_t)(a->items[p].count + a->items[i].count);
		addr_unlink(a, i);
		give_item(a, i);
		i = p;
	}
	free_insert(a, i);
	return freed;
}
