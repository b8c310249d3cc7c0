/* SPDX-License-Identifier: Zlib */
/* gba_obj_slots.c - fixed per-class OBJ slots ('Gameboy Advance Resource
 * Management', the approach before the allocation map). */
#include "vramsim/alloc/gba_obj_slots.h"

#define BIT(s) (1u << ((s) & 31u))

void gba_obj_slots_clear(gba_obj_slots *a)
{
	unsigned i;

	for (i = 0; i < GBA_OBJ_SLOTS_TILES / 32u; i++)
		a->used[i] = 0;
}

int gba_obj_slots_init(gba_obj_slots *a, uint16_t first_tile, const uint16_t *count, const uint16_t *tiles,
	unsigned nclass)
{
	uint32_t t = first_tile, slots = 0;
	unsigned i;

	a->nclass = 0;
	a->first = first_tile;
	a->end = first_tile;
	gba_obj_slots_clear(a);
	if (nclass == 0 || nclass > GBA_OBJ_SLOTS_CLASSES)
		return GBA_OBJ_SLOTS_BAD_CLASS;
	for (i = 0; i < nclass; i++)
		if (count[i] == 0 || tiles[i] == 0)
			return GBA_OBJ_SLOTS_BAD_CLASS;
	for (i = 0; i < nclass; i++) {
		/* Each slot is at least a tile, so a table that fits the area
		 * never has more slots than used[] has bits. */
		if ((uint32_t)count[i] * tiles[i] > GBA_OBJ_SLOTS_TILES - t)
			return GBA_OBJ_SLOTS_TOO_BIG;
		a->cls[i].tiles = tiles[i];
		a->cls[i].count = count[i];
		a->cls[i].base = (uint16_t)t;
		a->cls[i].slot0 = (uint16_t)slots;
		t += (uint32_t)count[i] * tiles[i];
		slots += count[i];
	}
	a->nclass = (uint16_t)nclass;
	a->end = (uint16_t)t;
	return GBA_OBJ_SLOTS_OK;
}

uint16_t gba_obj_slots_alloc(gba_obj_slots *a, uint16_t n, uint16_t align)
{
	const gba_obj_slot_class *c = 0;
	unsigned i, s;

	if (n == 0 || align == 0 || (align & (align - 1u)))
		return GBA_OBJ_SLOTS_NONE;
	/* The request's class: the smallest slots that hold it. */
	for (i = 0; i < a->nclass; i++)
		if (a->cls[i].tiles >= n && (!c || a->cls[i].tiles < c->tiles))
			c = &a->cls[i];
	if (!c)
		return GBA_OBJ_SLOTS_NONE;
	for (s = 0; s < c->count; s++) {
		unsigned bit = c->slot0 + s, tile = c->base + s * c->tiles;
		if (a->used[bit >> 5] & BIT(bit) || tile & (align - 1u))
			continue;
		a->used[bit >> 5] |= BIT(bit);
		return (uint16_t)tile;
	}
	return GBA_OBJ_SLOTS_NONE;
}

/* The slot starting at tile: its class and its bit, or 0. */
static const gba_obj_slot_class *slot_at(const gba_obj_slots *a, uint16_t tile, unsigned *bit)
{
	unsigned i;

	for (i = 0; i < a->nclass; i++) {
		const gba_obj_slot_class *c = &a->cls[i];
		uint32_t off;
		if (tile < c->base || tile >= c->base + (uint32_t)c->count * c->tiles)
			continue;
		off = tile - c->base;
		if (off % c->tiles)
			return 0;
		*bit = c->slot0 + off / c->tiles;
		return c;
	}
	return 0;
}

uint16_t gba_obj_slots_size(const gba_obj_slots *a, uint16_t tile)
{
	unsigned bit;
	const gba_obj_slot_class *c = slot_at(a, tile, &bit);

	return c ? c->tiles : 0;
}

int gba_obj_slots_starts(const gba_obj_slots *a, uint16_t tile)
{
	unsigned bit;

	return slot_at(a, tile, &bit) && (a->used[bit >> 5] & BIT(bit));
}

int gba_obj_slots_free(gba_obj_slots *a, uint16_t tile)
{
	unsigned bit;

	if (!slot_at(a, tile, &bit) || !(a->used[bit >> 5] & BIT(bit)))
		return -1;
	a->used[bit >> 5] &= ~BIT(bit);
	return 0;
}

int gba_obj_slots_is_free(const gba_obj_slots *a, uint16_t tile)
{
	unsigned i, bit;

	for (i = 0; i < a->nclass; i++) {
		const gba_obj_slot_class *c = &a->cls[i];
		if (tile < c->base || tile >= c->base + (uint32_t)c->count * c->tiles)
			continue;
		bit = c->slot0 + (tile - c->base) / c->tiles;
		return !(a->used[bit >> 5] & BIT(bit));
	}
	return 0;
}
