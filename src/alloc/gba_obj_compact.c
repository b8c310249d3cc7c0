/* SPDX-License-Identifier: Zlib */
/* gba_obj_compact.c - OBJ allocation that moves live sprites to keep the
 * free tiles in one piece (include/vramsim/alloc/gba_obj_compact.h).
 *
 * Two rings link the slots: the live slots in address order (next, prev,
 * through TOP, the top of VRAM) and the gaps (gnext, gprev, through GAPS):
 * the live slots, and TOP, with free tiles below them, in address order.
 * low is where the free tiles below a slot start (the end of the slot under
 * it), so a slot is on the ring of gaps exactly when low < start. An
 * allocation walks the gaps, a free relinks a few slots, and a slide starts
 * at the lowest gap. */
#include "vramsim/alloc/gba_obj_compact.h"

#define NONE GBA_OBJ_COMPACT_NONE
#define TILES GBA_OBJ_COMPACT_TILES
#define MAX GBA_OBJ_COMPACT_MAX
#define TOP MAX           /* start TILES (or the span's end): above every sprite */
#define GAPS (MAX + 1u)   /* start 0xFFFF: above every gap */
#define UNLIMITED 0xFFFFFFFFu

typedef gba_obj_compact_slot slot_t;

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Adds c cycles to this frame's spending, kept only up to the most the
 * frame's slide could spend. */
static void spend(gba_obj_compact *m, uint32_t c)
{
	m->spent = c >= GBA_OBJ_COMPACT_FRAME_CYCLES - m->spent ? GBA_OBJ_COMPACT_FRAME_CYCLES : m->spent + c;
}

void gba_obj_compact_init(gba_obj_compact *m, uint16_t first, uint16_t budget)
{
	gba_obj_compact_init_span(m, first, TILES, budget);
}

void gba_obj_compact_init_span(gba_obj_compact *m, uint16_t first, uint16_t end, uint16_t budget)
{
	slot_t *sl = m->slot;
	uint32_t i;

	if (end > TILES)
		end = TILES;
	if (first > end)
		first = end;

	/* free slots are chained through next, from spare */
	for (i = 0; i < MAX; i++) {
		sl[i].tiles = 0;
		sl[i].next = (uint16_t)(i + 1u < MAX ? i + 1u : NONE);
	}
	m->spare = 0;
	sl[TOP].start = end; /* the top of the usable tiles: never moves */
	sl[TOP].tiles = 0;
	sl[GAPS].start = 0xFFFFu;
	sl[TOP].next = sl[TOP].prev = TOP;
	sl[TOP].low = first;
	if (first < end) { /* the free tiles: one gap, below the top */
		sl[GAPS].gnext = sl[GAPS].gprev = TOP;
		sl[TOP].gnext = sl[TOP].gprev = GAPS;
	} else {
		sl[GAPS].gnext = sl[GAPS].gprev = GAPS;
	}
	m->n = 0;
	m->used = 0;
	m->first = first;
	m->budget = budget;
	/* what a frame's slide counts against its budget: cycles by default,
	 * else tiles */
	m->tile_cost = budget == GBA_OBJ_COMPACT_AUTO ? GBA_OBJ_COMPACT_MOVE_TILE_CYCLES : 1u;
	m->move_cost = budget == GBA_OBJ_COMPACT_AUTO ? GBA_OBJ_COMPACT_MOVE_EACH_CYCLES : 0u;
	m->spent = 0;
	m->uploaded = 0;
	m->nmoves = 0;
}

/* ---- the ring of gaps ---- */

static void gap_out(slot_t *sl, uint16_t s)
{
	sl[sl[s].gprev].gnext = sl[s].gnext;
	sl[sl[s].gnext].gprev = sl[s].gprev;
}

static void gap_after(slot_t *sl, uint16_t s, uint16_t p)
{
	uint16_t n = sl[p].gnext;

	sl[s].gprev = p;
	sl[s].gnext = n;
	sl[p].gnext = s;
	sl[n].gprev = s;
}

/* q takes s's place on the ring. */
static void gap_swap(slot_t *sl, uint16_t s, uint16_t q)
{
	uint16_t p = sl[s].gprev, n = sl[s].gnext;

	sl[q].gprev = p;
	sl[q].gnext = n;
	sl[p].gnext = q;
	sl[n].gprev = q;
}

/* Slot s leaves its place in address order: its tiles join the free tiles
 * below the slot above it, q. When neither had free tiles below, q joins
 * the ring, searched forward from c (a gap below q, or the ring's first). */
static void vacate(slot_t *sl, uint16_t s, uint16_t c)
{
	uint16_t q = sl[s].next, p = sl[s].prev;
	int gap_s = sl[s].low < sl[s].start, gap_q = sl[q].low < sl[q].start;

	sl[p].next = q;
	sl[q].prev = p;
	sl[q].low = sl[s].low;
	if (gap_s) {
		if (gap_q)
			gap_out(sl, s);
		else
			gap_swap(sl, s, q);
	} else if (!gap_q) {
		while (sl[c].start < sl[q].start)
			c = sl[c].gnext;
		gap_after(sl, q, sl[c].gprev);
	}
}

/* Links s in before slot at (or TOP). */
static void link_before(slot_t *sl, uint16_t s, uint16_t at)
{
	uint16_t p = sl[at].prev;

	sl[s].prev = p;
	sl[s].next = at;
	sl[p].next = s;
	sl[at].prev = s;
}

/* The first slot from s on that holds one tile at any alignment (an 8x8
 * 4bpp sprite: the only odd size a sprite has), or TOP. */
static uint16_t find_single(const slot_t *sl, uint16_t s)
{
	while (s != TOP && (sl[s].tiles != 1 || sl[s].mask))
		s = sl[s].next;
	return s;
}

/* Slides sprites down over the gaps in address order, from the lowest gap,
 * within a budget of left: a move costs its tiles times tile_cost plus
 * move_cost (cycles by default, else tiles); every move lands on tiles below
 * every sprite not yet moved. Where a sprite's alignment would leave a hole
 * under it, the next 1-tile sprite above is pulled down into the hole first,
 * so holes remain only when no such sprite is left. With want non-zero it
 * stops as soon as the room below the next unmoved sprite holds want tiles
 * on want_mask and returns where they go (*before: the slot above, or TOP);
 * else, or when the budget stops it first, NONE. Candidates for a pull are
 * searched forward only: the whole slide is linear in the sprites it passes,
 * those above the lowest gap; where the sprites are packed it jumps to the
 * next gap. A frame's slide (want 0) stops as soon as its budget is spent:
 * the rest would only be walked. */
static uint16_t slide(gba_obj_compact *m, uint32_t left, uint16_t want, uint32_t want_mask, uint16_t *before)
{
	slot_t *sl = m->slot, *x;
	gba_obj_compact_move *mv = &m->moves[m->nmoves];
	uint16_t s = sl[GAPS].gnext, single = NONE, last = GAPS, found = NONE;
	uint32_t at, t, to, c, one = (uint32_t)m->tile_cost + m->move_cost; /* one's a 1-tile move */

	if (s == GAPS)
		return NONE; /* no free tile */
	at = sl[s].low;
	for (;;) {
		x = &sl[s];
		if (want) {
			t = (at + want_mask) & ~want_mask;
			if (t + want <= x->start) {
				found = (uint16_t)t;
				break;
			}
		} else if (left < one) {
			break;
		}
		if (s == TOP)
			break;
		to = (at + x->mask) & ~(uint32_t)x->mask;
		while (to > at && single != TOP) { /* pull a 1-tile sprite into the hole */
			uint16_t after;
			if (single == NONE || sl[single].start <= x->start)
				single = find_single(sl, x->next);
			if (single == TOP || left < one)
				break;
			after = sl[single].next;
			vacate(sl, single, sl[last].gnext);
			link_before(sl, single, s);
			mv->slot = single; /* tile at is free: below s, above all moved */
			mv->from = sl[single].start;
			mv->to = (uint16_t)at;
			mv->tiles = 1;
			mv++;
			sl[single].start = sl[single].low = (uint16_t)at; /* vacate took it off the ring of gaps */
			left -= one;
			at++;
			single = find_single(sl, after);
			to = (at + x->mask) & ~(uint32_t)x->mask;
		}
		if (to > at && single != TOP)
			break; /* the budget stopped a pull */
		if (to < x->start) {
			c = (uint32_t)x->tiles * m->tile_cost + m->move_cost;
			if (c > left)
				break;
			left -= c;
		} else {
			to = x->start;
		}
		/* s goes to to, with the free tiles below it from at */
		if (at < to) {
			if (x->low >= x->start)
				gap_after(sl, s, last);
			last = s;
		} else if (x->low < x->start) {
			gap_out(sl, s);
		}
		if (to != x->start) {
			mv->slot = s;
			mv->from = x->start;
			mv->to = (uint16_t)to;
			mv->tiles = x->tiles;
			mv++;
			x->start = (uint16_t)to;
		}
		x->low = (uint16_t)at;
		at = to + x->tiles;
		s = x->next;
		if (at == sl[s].start) {
			/* packed from s up to the next gap: nothing there to slide */
			s = sl[last].gnext;
			if (s == GAPS)
				s = TOP;
			at = sl[s].low;
		}
	}
	/* where it stopped, s keeps its place (TOP included) */
	if (at < x->start) {
		if (x->low >= x->start)
			gap_after(sl, s, last);
	} else if (x->low < x->start) {
		gap_out(sl, s);
	}
	x->low = (uint16_t)at;
	m->nmoves = (uint16_t)(mv - m->moves);
	*before = s;
	return found;
}

/* No gap holds the request: slides until one does (those moves are not
 * optional, so not capped; they count in the frame's spending). Returns
 * the slot above the room (or TOP) << 16 | where the request goes, or
 * NONE. Apart from alloc so that alloc's own path stays short. */
static NOINLINE uint32_t make_room(gba_obj_compact *m, uint32_t tiles, uint32_t mask)
{
	uint16_t g, i, t = slide(m, UNLIMITED, (uint16_t)tiles, mask, &g);

	for (i = 0; i < m->nmoves; i++)
		spend(m, m->moves[i].tiles * GBA_OBJ_COMPACT_MOVE_TILE_CYCLES + GBA_OBJ_COMPACT_MOVE_EACH_CYCLES);
	if (t == NONE)
		return NONE; /* holes only an odd-sized sprite larger than a tile can leave */
	return (uint32_t)g << 16 | t;
}

uint16_t gba_obj_compact_alloc(gba_obj_compact *m, uint16_t tiles, uint16_t align)
{
	slot_t *sl = m->slot, *h, *x;
	uint32_t g, t, s, lo, end, mask = align ? align - 1u : 0u;

	m->nmoves = 0;
	if (tiles == 0 || (align & mask) || m->n == MAX || (uint32_t)m->used + tiles > (uint32_t)sl[TOP].start - m->first)
		return NONE;
	/* first fit over the gaps: the lowest that holds it */
	for (g = sl[GAPS].gnext;; g = h->gnext) {
		if (g == GAPS) {
			g = make_room(m, tiles, mask);
			if (g == NONE)
				return NONE;
			t = g & 0xFFFFu;
			g >>= 16;
			h = &sl[g];
			break;
		}
		h = &sl[g];
		t = (h->low + mask) & ~mask;
		if (t + tiles <= h->start)
			break;
	}
	/* the spare slot takes it; the gap below g splits into [lo, t) below
	 * the new slot and [t + tiles, start) below g */
	s = m->spare;
	x = &sl[s];
	m->spare = x->next;
	m->n++;
	m->used = (uint16_t)(m->used + tiles);
	lo = h->low;
	end = t + tiles;
	x->start = (uint16_t)t;
	x->tiles = tiles;
	x->mask = (uint16_t)mask;
	x->low = (uint16_t)lo;
	x->next = (uint16_t)g;
	x->prev = h->prev;
	sl[h->prev].next = (uint16_t)s;
	h->prev = (uint16_t)s;
	h->low = (uint16_t)end;
	if (t > lo) {
		if (end == h->start)
			gap_swap(sl, (uint16_t)g, (uint16_t)s);
		else
			gap_after(sl, (uint16_t)s, h->gprev);
	} else if (end == h->start) {
		gap_out(sl, (uint16_t)g);
	}
	m->uploaded += tiles;
	return (uint16_t)s;
}

int gba_obj_compact_free(gba_obj_compact *m, uint16_t slot)
{
	slot_t *sl = m->slot;

	m->nmoves = 0;
	if (slot >= MAX || !sl[slot].tiles)
		return -1;
	vacate(sl, slot, sl[GAPS].gnext);
	m->n--;
	m->used = (uint16_t)(m->used - sl[slot].tiles);
	sl[slot].tiles = 0;
	sl[slot].next = m->spare;
	m->spare = slot;
	return 0;
}

void gba_obj_compact_frame(gba_obj_compact *m)
{
	uint32_t limit = m->budget;
	uint16_t before, g = m->slot[GAPS].gnext;

	if (m->budget == GBA_OBJ_COMPACT_AUTO) {
		spend(m, (m->uploaded < TILES ? m->uploaded : TILES) * GBA_OBJ_COMPACT_UPLOAD_TILE_CYCLES);
		limit = GBA_OBJ_COMPACT_FRAME_CYCLES - m->spent;
	}
	m->nmoves = 0;
	m->spent = 0;
	m->uploaded = 0;
	if (g != TOP && g != GAPS) /* else every sprite is packed from the first tile */
		slide(m, limit, 0, 0, &before);
}

uint16_t gba_obj_compact_start(const gba_obj_compact *m, uint16_t slot)
{
	return slot < MAX && m->slot[slot].tiles ? m->slot[slot].start : NONE;
}

uint16_t gba_obj_compact_tiles(const gba_obj_compact *m, uint16_t slot)
{
	return slot < MAX ? m->slot[slot].tiles : 0;
}

const gba_obj_compact_move *gba_obj_compact_moves(const gba_obj_compact *m, uint16_t *n)
{
	*n = m->nmoves;
	return m->moves;
}

uint16_t gba_obj_compact_end(const gba_obj_compact *m)
{
	return m->slot[TOP].start;
}

uint16_t gba_obj_compact_next(const gba_obj_compact *m, uint16_t slot)
{
	uint16_t s;

	if (slot == NONE)
		s = m->slot[TOP].next;
	else if (slot < MAX && m->slot[slot].tiles)
		s = m->slot[slot].next;
	else
		return NONE;
	return s == TOP ? NONE : s;
}
