/* SPDX-License-Identifier: Zlib */
/* gba_obj_buddy.c - binary buddy over OBJ tiles (gba-modern's scheme). */
#include "vramsim/alloc/gba_obj_buddy.h"

#define TOP (GBA_OBJ_BUDDY_ORDERS - 1u)

static uint32_t bitpos(unsigned order, uint32_t index)
{
	return 2048u - (2048u >> order) + index;
}

static int get(const gba_obj_buddy *b, unsigned order, uint32_t index)
{
	uint32_t p = bitpos(order, index);

	return (b->free[p >> 5] >> (p & 31u)) & 1u;
}

static void put(gba_obj_buddy *b, unsigned order, uint32_t index, int on)
{
	uint32_t p = bitpos(order, index);

	if (on)
		b->free[p >> 5] |= 1u << (p & 31u);
	else
		b->free[p >> 5] &= ~(1u << (p & 31u));
}

/* Lowest free block of an order, or -1. Order k has 1024 >> k bits. */
static int32_t find(const gba_obj_buddy *b, unsigned order)
{
	uint32_t p = bitpos(order, 0), end = p + (GBA_OBJ_BUDDY_TILES >> order);

	while (p < end) {
		uint32_t w = b->free[p >> 5] >> (p & 31u);
		uint32_t left = 32u - (p & 31u);

		if (end - p < left) {
			left = end - p;
			w &= (1u << left) - 1u;
		}
		if (w) {
			uint32_t i = 0;
			while (!(w & 1u)) {
				w >>= 1;
				i++;
			}
			return (int32_t)(p + i - bitpos(order, 0));
		}
		p += left;
	}
	return -1;
}

void gba_obj_buddy_init(gba_obj_buddy *b, uint16_t first_tile)
{
	uint32_t i, t;
	unsigned k;

	if (first_tile > GBA_OBJ_BUDDY_TILES)
		first_tile = GBA_OBJ_BUDDY_TILES;
	b->first = first_tile;
	for (i = 0; i < 64; i++)
		b->free[i] = 0;
	for (i = 0; i < GBA_OBJ_BUDDY_TILES; i++)
		b->order[i] = GBA_OBJ_BUDDY_NO_BLOCK;
	/* Cover [first, 1024) with the largest aligned blocks. */
	for (t = first_tile; t < GBA_OBJ_BUDDY_TILES; t += 1u << k) {
		for (k = TOP; k > 0; k--)
			if (!(t & ((1u << k) - 1u)) && t + (1u << k) <= GBA_OBJ_BUDDY_TILES)
				break;
		put(b, k, t >> k, 1);
	}
}

int gba_obj_buddy_order(uint16_t n, uint16_t align)
{
	unsigned k = 0;
	uint32_t need = n > align ? n : align;

	if (n == 0 || need > GBA_OBJ_BUDDY_TILES)
		return -1;
	while ((1u << k) < need)
		k++;
	return (int)k;
}

uint16_t gba_obj_buddy_alloc(gba_obj_buddy *b, unsigned order)
{
	unsigned k;
	int32_t idx = -1;

	if (order > TOP)
		return GBA_OBJ_BUDDY_NONE;
	for (k = order; k <= TOP; k++)
		if ((idx = find(b, k)) >= 0)
			break;
	if (idx < 0)
		return GBA_OBJ_BUDDY_NONE;
	put(b, k, (uint32_t)idx, 0);
	/* Split down: keep the lower half, free the upper one. */
	while (k > order) {
		k--;
		idx <<= 1;
		put(b, k, (uint32_t)idx + 1u, 1);
	}
	b->order[(uint32_t)idx << order] = (uint8_t)order;
	return (uint16_t)((uint32_t)idx << order);
}

int gba_obj_buddy_free(gba_obj_buddy *b, uint16_t tile)
{
	unsigned k, order;
	uint32_t idx;

	if (tile >= GBA_OBJ_BUDDY_TILES || b->order[tile] == GBA_OBJ_BUDDY_NO_BLOCK)
		return -1;
	order = k = b->order[tile];
	b->order[tile] = GBA_OBJ_BUDDY_NO_BLOCK;
	idx = (uint32_t)tile >> k;
	while (k < TOP && get(b, k, idx ^ 1u)) {
		put(b, k, idx ^ 1u, 0);
		idx >>= 1;
		k++;
	}
	put(b, k, idx, 1);
	return (int)order;
}

int gba_obj_buddy_is_free(const gba_obj_buddy *b, unsigned order, uint16_t tile)
{
	if (order > TOP || (tile & ((1u << order) - 1u)))
		return 0;
	return get(b, order, (uint32_t)tile >> order);
}
