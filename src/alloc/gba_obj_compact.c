/* SPDX-License-Identifier: Zlib */
/* gba_obj_compact.c - OBJ allocation that moves live sprites to keep the
 * free tiles in one piece (include/vramsim/alloc/gba_obj_compact.h). */
#include "vramsim/alloc/gba_obj_compact.h"

#define NONE GBA_OBJ_COMPACT_NONE

/* t rounded up to a multiple of align. The ARM7TDMI has no divide
 * instruction (a division is a libgcc call of some 50-100 cycles, once per
 * gap and per sprite slid), and alignments are 1 or 2: mask those. */
static uint16_t up(uint16_t t, uint16_t align)
{
	if (!(align & (align - 1u)))
		return (uint16_t)((t + align - 1u) & ~(align - 1u));
	return (uint16_t)((t + align - 1u) / align * align);
}

void gba_obj_compact_init(gba_obj_compact *m, uint16_t first, uint16_t budget)
{
	uint32_t i;

	for (i = 0; i < GBA_OBJ_COMPACT_MAX; i++)
		m->tiles[i] = 0;
	m->n = 0;
	m->used = 0;
	m->first = first;
	m->budget = budget;
	m->nmoves = 0;
}

/* 1 when no gap lies below the highest sprite (the usual state after a
 * slide): the live tiles fill everything from first to its end. */
static int packed(const gba_obj_compact *m)
{
	uint16_t last;

	if (!m->n)
		return 0;
	last = m->order[m->n - 1];
	return m->start[last] + m->tiles[last] - m->first == m->used;
}

/* The lowest gap that holds tiles on align: its start and the order
 * position it goes at, or NONE. Packed, only the top can: no walk. */
static uint16_t find_gap(const gba_obj_compact *m, uint16_t tiles, uint16_t align, uint16_t *pos)
{
	uint16_t at = m->first, i = 0;

	if (packed(m)) {
		i = m->n;
		at = (uint16_t)(m->first + m->used);
	}
	for (; i <= m->n; i++) {
		uint16_t end = i < m->n ? m->start[m->order[i]] : (uint16_t)GBA_OBJ_COMPACT_TILES;
		uint16_t s = up(at, align);
		if (s + (uint32_t)tiles <= end) {
			*pos = i;
			return s;
		}
		if (i < m->n)
			at = (uint16_t)(end + m->tiles[m->order[i]]);
	}
	return NONE;
}

/* Slides sprites down in address order while the tiles moved stay within
 * limit; every move goes to a lower address, below any sprite not moved. */
static void slide(gba_obj_compact *m, uint32_t limit)
{
	uint16_t at = m->first, i;
	uint32_t moved = 0;

	for (i = 0; i < m->n; i++) {
		uint16_t s = m->order[i], to = up(at, m->align[s]);
		if (to < m->start[s]) {
			if (moved + m->tiles[s] > limit)
				return;
			moved += m->tiles[s];
			m->moves[m->nmoves].slot = s;
			m->moves[m->nmoves].from = m->start[s];
			m->moves[m->nmoves].to = to;
			m->moves[m->nmoves].tiles = m->tiles[s];
			m->nmoves++;
			m->start[s] = to;
		}
		at = (uint16_t)(m->start[s] + m->tiles[s]);
	}
}

uint16_t gba_obj_compact_alloc(gba_obj_compact *m, uint16_t tiles, uint16_t align)
{
	uint16_t slot, pos, s, i;

	m->nmoves = 0;
	if (align == 0)
		align = 1;
	if (tiles == 0 || m->n == GBA_OBJ_COMPACT_MAX ||
		(uint32_t)m->used + tiles > GBA_OBJ_COMPACT_TILES - m->first)
		return NONE;
	s = find_gap(m, tiles, align, &pos);
	if (s == NONE) {
		slide(m, GBA_OBJ_COMPACT_TILES); /* every sprite, as far as it goes */
		s = find_gap(m, tiles, align, &pos);
		if (s == NONE)
			return NONE; /* alignment gaps: the slide keeps each sprite's */
	}
	for (slot = 0; m->tiles[slot]; slot++)
		;
	for (i = m->n; i > pos; i--)
		m->order[i] = m->order[i - 1];
	m->order[pos] = slot;
	m->n++;
	m->start[slot] = s;
	m->tiles[slot] = tiles;
	m->align[slot] = (uint8_t)align;
	m->used = (uint16_t)(m->used + tiles);
	return slot;
}

int gba_obj_compact_free(gba_obj_compact *m, uint16_t slot)
{
	uint16_t i = 0, hi;

	m->nmoves = 0;
	if (slot >= GBA_OBJ_COMPACT_MAX || !m->tiles[slot])
		return -1;
	/* its place in address order: starts are distinct, search them */
	for (hi = (uint16_t)(m->n - 1u); i < hi;) {
		uint16_t mid = (uint16_t)((i + hi) >> 1);
		if (m->start[m->order[mid]] < m->start[slot])
			i = (uint16_t)(mid + 1u);
		else
			hi = mid;
	}
	for (; i + 1u < m->n; i++)
		m->order[i] = m->order[i + 1];
	m->n--;
	m->used = (uint16_t)(m->used - m->tiles[slot]);
	m->tiles[slot] = 0;
	return 0;
}

void gba_obj_compact_frame(gba_obj_compact *m)
{
	m->nmoves = 0;
	slide(m, m->budget);
}

uint16_t gba_obj_compact_start(const gba_obj_compact *m, uint16_t slot)
{
	return slot < GBA_OBJ_COMPACT_MAX && m->tiles[slot] ? m->start[slot] : NONE;
}

const gba_obj_compact_move *gba_obj_compact_moves(const gba_obj_compact *m, uint16_t *n)
{
	*n = m->nmoves;
	return m->moves;
}
