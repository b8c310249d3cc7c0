/* SPDX-License-Identifier: Zlib */
/* gba_obj_compact.c - OBJ allocation that moves live sprites to keep the
 * free tiles in one piece (include/vramsim/alloc/gba_obj_compact.h).
 *
 * Two rings index the slots: the live slots in address order (next, prev,
 * through TOP, the top of VRAM) and the gaps (gnext, gprev, through GAPS):
 * the live slots, and TOP, with free tiles below them, in address order.
 * low[s] is where the free tiles below s start (the end of the slot under
 * it), so s is on the ring of gaps exactly when low[s] < start[s]. An
 * allocation walks the gaps, a free updates at most three links, and a
 * slide starts at the lowest gap. */
#include "vramsim/alloc/gba_obj_compact.h"

#define NONE GBA_OBJ_COMPACT_NONE
#define TILES GBA_OBJ_COMPACT_TILES
#define MAX GBA_OBJ_COMPACT_MAX
#define TOP MAX           /* start TILES: above every sprite */
#define GAPS (MAX + 1u)   /* start 0xFFFF: above every gap */
#define UNLIMITED 0xFFFFFFFFu

static uint32_t up(uint32_t t, uint32_t shift)
{
	uint32_t mask = (1u << shift) - 1u;

	return (t + mask) & ~mask;
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
	m->start[TOP] = TILES;
	m->start[GAPS] = 0xFFFFu;
	m->next[TOP] = m->prev[TOP] = TOP;
	m->low[TOP] = first;
	if (first < TILES) { /* the free tiles: one gap, below the top */
		m->gnext[GAPS] = m->gprev[GAPS] = TOP;
		m->gnext[TOP] = m->gprev[TOP] = GAPS;
	} else {
		m->gnext[GAPS] = m->gprev[GAPS] = GAPS;
	}
	m->n = 0;
	m->used = 0;
	m->first = first;
	m->budget = budget;
	m->spent = 0;
	m->nmoves = 0;
}

/* ---- the ring of gaps ---- */

static void gap_out(gba_obj_compact *m, uint16_t s)
{
	m->gnext[m->gprev[s]] = m->gnext[s];
	m->gprev[m->gnext[s]] = m->gprev[s];
}

static void gap_after(gba_obj_compact *m, uint16_t s, uint16_t p)
{
	uint16_t n = m->gnext[p];

	m->gprev[s] = p;
	m->gnext[s] = n;
	m->gnext[p] = s;
	m->gprev[n] = s;
}

/* q takes s's place on the ring. */
static void gap_swap(gba_obj_compact *m, uint16_t s, uint16_t q)
{
	uint16_t p = m->gprev[s], n = m->gnext[s];

	m->gprev[q] = p;
	m->gnext[q] = n;
	m->gnext[p] = q;
	m->gprev[n] = q;
}

/* Slot s leaves its place in address order: its tiles join the free tiles
 * below the slot above it, q. When neither had free tiles below, q joins
 * the ring, searched forward from c (a gap below q, or the ring's first). */
static void vacate(gba_obj_compact *m, uint16_t s, uint16_t c)
{
	uint16_t q = m->next[s], p = m->prev[s];
	int gap_s = m->low[s] < m->start[s], gap_q = m->low[q] < m->start[q];

	m->next[p] = q;
	m->prev[q] = p;
	m->low[q] = m->low[s];
	if (gap_s) {
		if (gap_q)
			gap_out(m, s);
		else
			gap_swap(m, s, q);
	} else if (!gap_q) {
		while (m->start[c] < m->start[q])
			c = m->gnext[c];
		gap_after(m, q, m->gprev[c]);
	}
}

/* Links s in before slot at (or TOP). */
static void link_before(gba_obj_compact *m, uint16_t s, uint16_t at)
{
	uint16_t p = m->prev[at];

	m->prev[s] = p;
	m->next[s] = at;
	m->next[p] = s;
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

/* The free tiles below s now start at at (s has its final place): s joins
 * or leaves the ring of gaps (was: it was on it), whose last entry below s
 * is *last. */
static void settle(gba_obj_compact *m, uint16_t s, int was, uint32_t at, uint16_t *last)
{
	int is = at < m->start[s];

	m->low[s] = (uint16_t)at;
	if (is) {
		if (!was)
			gap_after(m, s, *last);
		*last = s;
	} else if (was) {
		gap_out(m, s);
	}
}

/* The first slot from s on that holds one tile at any alignment (an 8x8
 * 4bpp sprite: the only odd size a sprite has), or TOP. */
static uint16_t find_single(const gba_obj_compact *m, uint16_t s)
{
	while (s != TOP && (m->tiles[s] != 1 || m->shift[s]))
		s = m->next[s];
	return s;
}

/* Slides sprites down over the gaps in address order, from the lowest gap,
 * moving at most limit tiles; every move lands on tiles below every sprite
 * not yet moved. Where a sprite's alignment would leave a hole under it,
 * the next 1-tile sprite above is pulled down into the hole first, so holes
 * remain only when no such sprite is left. With want non-zero it stops as
 * soon as the room below the next unmoved sprite holds want tiles on
 * 1 << want_shift and returns where they go (*before: the slot above, or
 * TOP); else, or when the limit stops it first, NONE. Candidates for a pull
 * are searched forward only: the whole slide is linear in the sprites it
 * passes, which are those above the lowest gap. A frame's slide (want 0)
 * stops as soon as nothing more fits its limit. */
static uint16_t slide(gba_obj_compact *m, uint32_t limit, uint16_t want, uint32_t want_shift, uint16_t *before)
{
	uint16_t s = m->gnext[GAPS], single = NONE, last = GAPS;
	uint32_t at, moved = 0, t;
	int singles = 1, /* some 1-tile sprite may lie above */
		was = 1;     /* s is on the ring of gaps */

	if (s == GAPS)
		return NONE; /* no free tile */
	at = m->low[s];
	while (s != TOP) {
		uint16_t to;
		t = up(at, want_shift);
		if (want && t + want <= m->start[s]) {
			settle(m, s, was, at, &last);
			*before = s;
			return (uint16_t)t;
		}
		if (!want && moved >= limit)
			break; /* no move fits: the rest would only be walked */
		to = (uint16_t)up(at, m->shift[s]);
		while (to > at && singles) {
			uint16_t after;
			if (single == NONE || m->start[single] <= m->start[s])
				single = find_single(m, m->next[s]);
			if (single == TOP) {
				singles = 0;
				break;
			}
			if (moved + 1u > limit)
				break;
			after = m->next[single];
			vacate(m, single, m->gnext[last]);
			link_before(m, single, s);
			move(m, single, (uint16_t)at); /* tile at is free: below s, above all moved */
			m->low[single] = (uint16_t)at; /* vacate took it off the ring of gaps */
			moved++;
			at++;
			single = find_single(m, after);
			singles = single != TOP;
			to = (uint16_t)up(at, m->shift[s]);
		}
		if (to > at && singles)
			break; /* the limit stopped a pull */
		if (to < m->start[s]) {
			if (moved + m->tiles[s] > limit)
				break;
			moved += m->tiles[s];
			move(m, s, to);
		}
		settle(m, s, was, at, &last);
		at = (uint32_t)m->start[s] + m->tiles[s];
		s = m->next[s];
		was = m->low[s] < m->start[s];
	}
	settle(m, s, was, at, &last);
	if (s != TOP)
		return NONE;
	t = up(at, want_shift);
	if (want && t + want <= TILES) {
		*before = TOP;
		return (uint16_t)t;
	}
	return NONE;
}

uint16_t gba_obj_compact_alloc(gba_obj_compact *m, uint16_t tiles, uint16_t align)
{
	uint16_t slot, g, lo, i;
	uint32_t t, shift = 0, mask;

	m->nmoves = 0;
	while ((1u << shift) < align)
		shift++;
	mask = (1u << shift) - 1u;
	if (tiles == 0 || (align & mask) || m->n == MAX || (uint32_t)m->used + tiles > TILES - m->first)
		return NONE;
	/* first fit over the gaps: the lowest that holds it */
	for (g = m->gnext[GAPS]; g != GAPS; g = m->gnext[g]) {
		t = (m->low[g] + mask) & ~mask;
		if (t + tiles <= m->start[g])
			break;
	}
	if (g == GAPS) {
		t = slide(m, UNLIMITED, tiles, shift, &g);
		for (i = 0; i < m->nmoves; i++) /* moves this request needed: not optional */
			spend(m, m->moves[i].tiles, GBA_OBJ_COMPACT_MOVE_TILE_CYCLES);
		if (t == NONE)
			return NONE; /* holes only an odd-sized sprite larger than a tile can leave */
	}
	slot = m->spare;
	m->spare = m->next[slot];
	link_before(m, slot, g);
	m->n++;
	m->start[slot] = (uint16_t)t;
	m->tiles[slot] = tiles;
	m->shift[slot] = (uint8_t)shift;
	m->used = (uint16_t)(m->used + tiles);
	/* the gap below g splits: [lo, t) below slot, [t + tiles, start) below g */
	lo = m->low[g];
	m->low[slot] = lo;
	m->low[g] = (uint16_t)(t + tiles);
	if (t > lo) {
		if (m->low[g] == m->start[g])
			gap_swap(m, g, slot);
		else
			gap_after(m, slot, m->gprev[g]);
	} else if (m->low[g] == m->start[g]) {
		gap_out(m, g);
	}
	spend(m, tiles, GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES);
	return slot;
}

int gba_obj_compact_free(gba_obj_compact *m, uint16_t slot)
{
	m->nmoves = 0;
	if (slot >= MAX || !m->tiles[slot])
		return -1;
	vacate(m, slot, m->gnext[GAPS]);
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
	slide(m, limit, 0, 0, &before);
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
	uint16_t s;

	if (slot == NONE)
		s = m->next[TOP];
	else if (slot < MAX && m->tiles[slot])
		s = m->next[slot];
	else
		return NONE;
	return s == TOP ? NONE : s;
}
