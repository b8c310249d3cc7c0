/* SPDX-License-Identifier: Zlib */
/* gba_obj_compact.c - OBJ allocation that moves live sprites to keep the
 * free tiles in one piece (include/vramsim/alloc/gba_obj_compact.h). */
#include "vramsim/alloc/gba_obj_compact.h"

#define NONE GBA_OBJ_COMPACT_NONE
#define TILES GBA_OBJ_COMPACT_TILES
#define MAX GBA_OBJ_COMPACT_MAX

static uint16_t up(uint32_t t, uint32_t align)
{
	return (uint16_t)((t + align - 1u) / align * align);
}

/* Cycles of this frame's uploads and on-need moves, kept only up to the
 * most the frame's slide could spend. */
static void spend(gba_obj_compact *m, uint32_t tiles, uint32_t per_tile)
{
	uint32_t c = tiles * per_tile;

	m->spent = c >= GBA_OBJ_COMPACT_FRAME_CYCLES - m->spent ? GBA_OBJ_COMPACT_FRAME_CYCLES : m->spent + c;
}

void gba_obj_compact_init(gba_obj_compact *m, uint16_t first, uint16_t budget)
{
	uint32_t i;

	/* free slots are chained through next, from spare */
	for (i = 0; i < MAX; i++) {
		m->tiles[i] = 0;
		m->next[i] = (uint16_t)(i + 1u < MAX ? i + 1u : NONE);
	}
	m->spare = 0;
	m->head = m->tail = NONE;
	m->n = 0;
	m->used = 0;
	m->first = first;
	m->budget = budget;
	m->spent = 0;
	m->nmoves = 0;
}

static void unlink_slot(gba_obj_compact *m, uint16_t s)
{
	if (m->prev[s] == NONE)
		m->head = m->next[s];
	else
		m->next[m->prev[s]] = m->next[s];
	if (m->next[s] == NONE)
		m->tail = m->prev[s];
	else
		m->prev[m->next[s]] = m->prev[s];
}

/* Links s in before slot at (NONE: at the top). */
static void link_before(gba_obj_compact *m, uint16_t s, uint16_t at)
{
	uint16_t p = at == NONE ? m->tail : m->prev[at];

	m->prev[s] = p;
	m->next[s] = at;
	if (p == NONE)
		m->head = s;
	else
		m->next[p] = s;
	if (at == NONE)
		m->tail = s;
	else
		m->prev[at] = s;
}

static void move(gba_obj_compact *m, uint16_t s, uint16_t to)
{
	gba_obj_compact_move *mv = &m->moves[m->nmoves++];

	mv->slot = s;
	mv->from = m->start[s];
	mv->to = to;
	mv->tiles = m->tiles[s];
	m->start[s] = to;
}

/* The lowest gap that holds tiles on align: its start, and the slot it
 * lies below (*before, NONE: the top), or NONE. */
static uint16_t find_gap(const gba_obj_compact *m, uint16_t tiles, uint16_t align, uint16_t *before)
{
	uint16_t s = m->head;
	uint32_t at = m->first;

	for (;;) {
		uint32_t end = s != NONE ? m->start[s] : TILES, t = up(at, align);
		if (t + tiles <= end) {
			*before = s;
			return (uint16_t)t;
		}
		if (s == NONE)
			return NONE;
		at = (uint32_t)m->start[s] + m->tiles[s];
		s = m->next[s];
	}
}

/* The first slot from s on that holds one tile at any alignment (an 8x8
 * 4bpp sprite: the only odd size a sprite has), or NONE. */
static uint16_t find_single(const gba_obj_compact *m, uint16_t s)
{
	while (s != NONE && (m->tiles[s] != 1 || m->align[s] != 1))
		s = m->next[s];
	return s;
}

/* Slides sprites down over the gaps in address order, moving at most limit
 * tiles; every move lands on tiles below every sprite not yet moved. Where
 * a sprite's alignment would leave a hole under it, the next 1-tile sprite
 * above is pulled down into the hole first, so holes remain only when no
 * such sprite is left. With want non-zero it stops as soon as the room
 * below the next unmoved sprite holds want tiles on want_align and returns
 * where they go (*before: the slot above); else, or when the limit stops
 * it first, NONE. Candidates for a pull are searched forward only: the
 * whole slide is linear in the live sprites. */
static uint16_t slide(gba_obj_compact *m, uint32_t limit, uint16_t want, uint16_t want_align, uint16_t *before)
{
	uint16_t s = m->head, single = NONE;
	uint32_t at = m->first, moved = 0, t;
	int singles = 1; /* some 1-tile sprite may lie above */

	while (s != NONE) {
		uint16_t to;
		t = up(at, want_align);
		if (want && t + want <= m->start[s]) {
			*before = s;
			return (uint16_t)t;
		}
		to = up(at, m->align[s]);
		while (to > at && singles) {
			uint16_t after;
			if (single == NONE || m->start[single] <= m->start[s])
				single = find_single(m, m->next[s]);
			if (single == NONE) {
				singles = 0;
				break;
			}
			if (moved + 1u > limit)
				return NONE;
			after = m->next[single];
			unlink_slot(m, single);
			link_before(m, single, s);
			move(m, single, (uint16_t)at); /* tile at is free: below s, above all moved */
			moved++;
			at++;
			single = find_single(m, after);
			singles = single != NONE;
			to = up(at, m->align[s]);
		}
		if (to < m->start[s]) {
			if (moved + m->tiles[s] > limit)
				return NONE;
			moved += m->tiles[s];
			move(m, s, to);
		}
		at = (uint32_t)m->start[s] + m->tiles[s];
		s = m->next[s];
	}
	t = up(at, want_align);
	if (want && t + want <= TILES) {
		*before = NONE;
		return (uint16_t)t;
	}
	return NONE;
}

uint16_t gba_obj_compact_alloc(gba_obj_compact *m, uint16_t tiles, uint16_t align)
{
	uint16_t slot, before, s, i;

	m->nmoves = 0;
	if (align == 0)
		align = 1;
	if (tiles == 0 || m->n == MAX || (uint32_t)m->used + tiles > TILES - m->first)
		return NONE;
	s = find_gap(m, tiles, align, &before);
	if (s == NONE) {
		s = slide(m, TILES, tiles, align, &before);
		for (i = 0; i < m->nmoves; i++) /* moves this request needed: not optional */
			spend(m, m->moves[i].tiles, GBA_OBJ_COMPACT_MOVE_TILE_CYCLES);
		if (s == NONE)
			return NONE; /* holes only an odd-sized sprite larger than a tile can leave */
	}
	slot = m->spare;
	m->spare = m->next[slot];
	link_before(m, slot, before);
	m->n++;
	m->start[slot] = s;
	m->tiles[slot] = tiles;
	m->align[slot] = (uint8_t)align;
	m->used = (uint16_t)(m->used + tiles);
	spend(m, tiles, GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES);
	return slot;
}

int gba_obj_compact_free(gba_obj_compact *m, uint16_t slot)
{
	m->nmoves = 0;
	if (slot >= MAX || !m->tiles[slot])
		return -1;
	unlink_slot(m, slot);
	m->n--;
	m->used = (uint16_t)(m->used - m->tiles[slot]);
	m->tiles[slot] = 0;
	m->next[slot] = m->spare;
	m->spare = slot;
	return 0;
}

void gba_obj_compact_frame(gba_obj_compact *m)
{
	uint32_t limit = m->budget;
	uint16_t before;

	if (m->budget == GBA_OBJ_COMPACT_AUTO)
		limit = (GBA_OBJ_COMPACT_FRAME_CYCLES - m->spent) / GBA_OBJ_COMPACT_MOVE_TILE_CYCLES;
	m->nmoves = 0;
	m->spent = 0;
	slide(m, limit, 0, 1, &before);
}

uint16_t gba_obj_compact_start(const gba_obj_compact *m, uint16_t slot)
{
	return slot < MAX && m->tiles[slot] ? m->start[slot] : NONE;
}

const gba_obj_compact_move *gba_obj_compact_moves(const gba_obj_compact *m, uint16_t *n)
{
	*n = m->nmoves;
	return m->moves;
}

uint16_t gba_obj_compact_next(const gba_obj_compact *m, uint16_t slot)
{
	if (slot == NONE)
		return m->head;
	return slot < MAX && m->tiles[slot] ? m->next[slot] : NONE;
}
