/* SPDX-License-Identifier: Zlib */
/* ds_pltt_split.c - vramsim's own DS palette manager (see ds_pltt_split.h). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/ds_pltt_split.h"

#define SLOT_UNITS (0x4000u / DS_PLTT_UNIT)
#define FOUR_UNITS (0x10000u / DS_PLTT_UNIT)

/* Sets (v = 1) or clears units [u, u + n), keeping the word summary in step. */
static void fill(ds_pltt_split *m, uint32_t u, uint32_t n, int v)
{
	uint32_t w, last = (u + n - 1u) >> 5;

	bits_fill(m->free, u, n, v);
	for (w = u >> 5; w <= last; w++) {
		if (m->free[w])
			m->any[w >> 5] |= 1u << (w & 31u);
		else
			m->any[w >> 5] &= ~(1u << (w & 31u));
	}
}

/* Highest free unit below i, or i when there is none; words with nothing
 * free are passed over through the summary. */
static uint32_t prev_free(const ds_pltt_split *m, uint32_t i)
{
	uint32_t end = i;

	while (i > 0) {
		uint32_t w = (i - 1u) >> 5, x = m->free[w] & (0xFFFFFFFFu >> (31u - ((i - 1u) & 31u))), q;

		if (x)
			return w * 32u + bits_top32(x);
		q = bits_prev(m->any, 0, w, 1);
		if (q == w)
			break;
		i = (q + 1u) * 32u;
	}
	return end;
}

/* Highest 16-byte aligned start of n free units: free runs from the top
 * down, the first that holds it wins (every run above it could not). */
static uint32_t find_high(const ds_pltt_split *m, uint32_t n)
{
	uint32_t top = DS_PLTT_UNITS;

	while (top > 0) {
		uint32_t e = prev_free(m, top), t;

		if (e == top)
			break;
		e++;
		if (e >= n) {
			t = (e - n) & ~1u;
			if (bits_all(m->free, t, e - t, 1))
				return t;
		}
		top = bits_prev(m->free, 0, e, 0);
		if (top == e)
			break;
	}
	return DS_PLTT_UNITS;
}

void ds_pltt_split_reset(ds_pltt_split *m)
{
	unsigned s;

	for (s = 0; s < 6; s++)
		fill(m, s * SLOT_UNITS, SLOT_UNITS, (m->mapped >> s) & 1);
}

void ds_pltt_split_init(ds_pltt_split *m, uint8_t mapped_slots)
{
	m->mapped = mapped_slots & 63u;
	ds_pltt_split_reset(m);
}

uint32_t ds_pltt_split_size(uint32_t bytes)
{
	if (bytes == 0 || bytes > DS_PLTT_BYTES)
		return 0;
	return (bytes + 7u) & ~7u;
}

uint32_t ds_pltt_split_alloc(ds_pltt_split *m, uint32_t bytes, bool four)
{
	uint32_t n = ds_pltt_split_size(bytes) / DS_PLTT_UNIT, u;

	if (!n)
		return DS_PLTT_NONE;
	if (four)
		u = bits_find_low(m->free, 0, FOUR_UNITS, n, 1);
	else
		u = find_high(m, n);
	if (u >= (four ? FOUR_UNITS : DS_PLTT_UNITS))
		return DS_PLTT_NONE;
	fill(m, u, n, 0);
	return u * DS_PLTT_UNIT;
}

int ds_pltt_split_free(ds_pltt_split *m, uint32_t addr, uint32_t bytes)
{
	uint32_t n = ds_pltt_split_size(bytes) / DS_PLTT_UNIT, u = addr / DS_PLTT_UNIT;

	if (!n || addr % DS_PLTT_UNIT || u + n > DS_PLTT_UNITS || !bits_all(m->free, u, n, 0))
		return -1;
	fill(m, u, n, 1);
	return 0;
}

uint32_t ds_pltt_split_free_bytes(const ds_pltt_split *m)
{
	uint32_t i, n = 0;

	for (i = 0; i < DS_PLTT_UNITS / 32u; i++)
		n += bits_popcount32(m->free[i]);
	return n * DS_PLTT_UNIT;
}
