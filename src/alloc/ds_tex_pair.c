/* SPDX-License-Identifier: Zlib */
/* ds_tex_pair.c - vramsim's own DS texture manager (see ds_tex_pair.h). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/ds_tex_pair.h"

#define SLOT_UNITS (0x20000u / DS_TEX_UNIT)

uint32_t ds_tex_pair_index_addr(uint32_t addr)
{
	return addr < 0x20000u ? 0x20000u + addr / 2u : 0x30000u + (addr - 0x40000u) / 2u;
}

/* Brings word w's summary bits (has a free unit, all free) up to date. */
static void summarise(ds_tex_pair *m, uint32_t w)
{
	uint32_t x = m->free[w], b = 1u << (w & 31u);

	if (x)
		m->any[w >> 5] |= b;
	else
		m->any[w >> 5] &= ~b;
	if (x == 0xFFFFFFFFu)
		m->full[w >> 5] |= b;
	else
		m->full[w >> 5] &= ~b;
}

/* Masks of the first and last word of units [u, e), e > u. */
static uint32_t head_mask(uint32_t u) { return 0xFFFFFFFFu << (u & 31u); }
static uint32_t tail_mask(uint32_t e) { return 0xFFFFFFFFu >> (31u - ((e - 1u) & 31u)); }

/* Sets (v = 1) or clears units [u, u + n), n > 0. The words wholly inside
 * are stored outright and their summary bits set as a range, so the cost
 * is a store per word of the request and a few operations besides. */
static void fill(ds_tex_pair *m, uint32_t u, uint32_t n, int v)
{
	uint32_t e = u + n, w0 = u >> 5, w1 = (e - 1u) >> 5, w, x = v ? 0xFFFFFFFFu : 0u;

	if (w0 == w1) {
		uint32_t k = head_mask(u) & tail_mask(e);
		m->free[w0] = v ? m->free[w0] | k : m->free[w0] & ~k;
		summarise(m, w0);
		return;
	}
	m->free[w0] = v ? m->free[w0] | head_mask(u) : m->free[w0] & ~head_mask(u);
	m->free[w1] = v ? m->free[w1] | tail_mask(e) : m->free[w1] & ~tail_mask(e);
	summarise(m, w0);
	summarise(m, w1);
	if (w1 - w0 > 1u) {
		for (w = w0 + 1u; w < w1; w++)
			m->free[w] = x;
		bits_fill(m->any, w0 + 1u, w1 - w0 - 1u, v);
		bits_fill(m->full, w0 + 1u, w1 - w0 - 1u, v);
	}
}

/* Whether every unit of [u, u + n) is free (v = 1) or in use (v = 0): the
 * words wholly inside are read from the summary, 32 at a time. */
static int all_are(const ds_tex_pair *m, uint32_t u, uint32_t n, int v)
{
	uint32_t e = u + n, w0 = u >> 5, w1 = (e - 1u) >> 5, k;

	if (w0 == w1) {
		k = head_mask(u) & tail_mask(e);
		return (m->free[w0] & k) == (v ? k : 0u);
	}
	k = head_mask(u);
	if ((m->free[w0] & k) != (v ? k : 0u))
		return 0;
	k = tail_mask(e);
	if ((m->free[w1] & k) != (v ? k : 0u))
		return 0;
	if (w1 - w0 > 1u)
		return v ? bits_all(m->full, w0 + 1u, w1 - w0 - 1u, 1) : bits_all(m->any, w0 + 1u, w1 - w0 - 1u, 0);
	return 1;
}

/* Highest unit in [lo, i) that is free (v = 1) or in use (v = 0), or i when
 * there is none: words that cannot hold one (nothing free, or all free) are
 * passed over through the summary, 32 at a time. */
static uint32_t prev_is(const ds_tex_pair *m, uint32_t lo, uint32_t i, int v)
{
	const uint32_t *sum = v ? m->any : m->full;
	uint32_t end = i;

	while (i > lo) {
		uint32_t w = (i - 1u) >> 5, x = v ? m->free[w] : ~m->free[w], q;

		x &= tail_mask(i);
		if (x) {
			x = w * 32u + bits_top32(x);
			return x >= lo ? x : end;
		}
		if (w * 32u <= lo)
			break;
		/* the next word below worth reading: one with a free unit (v = 1),
		 * or one not all free (v = 0) */
		q = bits_prev(sum, lo >> 5, w, v);
		if (q == w)
			break;
		i = (q + 1u) * 32u;
	}
	return end;
}

void ds_tex_pair_reset(ds_tex_pair *m)
{
	unsigned s;

	for (s = 0; s < 4; s++)
		fill(m, s * SLOT_UNITS, SLOT_UNITS, (m->mapped >> s) & 1);
}

void ds_tex_pair_init(ds_tex_pair *m, uint8_t mapped_slots)
{
	m->mapped = mapped_slots & 15u;
	ds_tex_pair_reset(m);
}

uint32_t ds_tex_pair_size(uint32_t bytes, bool is4x4)
{
	uint32_t a = is4x4 ? 16u : 8u;

	if (bytes == 0 || bytes > DS_TEX_BYTES)
		return 0;
	return (bytes + a - 1u) & ~(a - 1u);
}

/* Squeezes the even bits of x (pair ANDs) into the low 16 bits. */
static uint32_t even_bits(uint32_t x)
{
	x &= 0x55555555u;
	x = (x | (x >> 1)) & 0x33333333u;
	x = (x | (x >> 2)) & 0x0F0F0F0Fu;
	x = (x | (x >> 4)) & 0x00FF00FFu;
	return (x | (x >> 8)) & 0x0000FFFFu;
}

/* Bit k of word j of the 4x4 map of the slot whose texel words start at
 * tw: the 16 texel bytes at 16k and the 8 index bytes they pair with are all
 * free. */
static uint32_t pair_word(const ds_tex_pair *m, uint32_t tw, uint32_t iw, uint32_t j)
{
	uint32_t a = m->free[tw + 2u * j], b = m->free[tw + 2u * j + 1u], x = m->free[iw + j];

	if (!x || !(a | b))
		return 0;
	return (even_bits(a & (a >> 1)) | (even_bits(b & (b >> 1)) << 16)) & x;
}

/* 4x4 in texture slot s (0 or 2): the lowest run of n16 set bits in the
 * 4x4 map, built a word at a time as the search goes and left as soon as
 * the run is long enough. */
static uint32_t alloc_4x4(ds_tex_pair *m, unsigned s, uint32_t n16)
{
	uint32_t tw = s * SLOT_UNITS / 32u, iw = ds_tex_pair_index_addr(s * 0x20000u) / DS_TEX_UNIT / 32u;
	uint32_t j, start = 0, run = 0, addr;

	for (j = 0; j < 256u; j++) {
		uint32_t c = pair_word(m, tw, iw, j), b = 0;

		if (c == 0xFFFFFFFFu) {
			if (!run)
				start = j * 32u;
			run += 32u;
			if (run >= n16)
				goto found;
			continue;
		}
		while (b < 32u) {
			uint32_t x;
			if (run) {
				/* in a run: it goes on to the next clear bit */
				x = ~c & (0xFFFFFFFFu << b);
				x = x ? bits_ctz32(x) : 32u;
				run += x - b;
				if (run >= n16)
					goto found;
				if (x == 32u)
					break;
				run = 0;
				b = x;
			} else {
				x = c & (0xFFFFFFFFu << b);
				if (!x)
					break;
				b = bits_ctz32(x);
				start = j * 32u + b;
				run = 0;
				x = ~c & (0xFFFFFFFFu << b);
				x = x ? bits_ctz32(x) : 32u;
				run = x - b;
				if (run >= n16)
					goto found;
				if (x == 32u)
					break;
				run = 0;
				b = x;
			}
		}
	}
	return DS_TEX_NONE;
found:
	addr = s * 0x20000u + start * 16u;
	fill(m, addr / DS_TEX_UNIT, n16 * 2u, 0);
	fill(m, ds_tex_pair_index_addr(addr) / DS_TEX_UNIT, n16, 0);
	return addr;
}

/* The highest n free units in [lo, hi) (slot borders: whole words): free
 * runs are read from the top down, and the first whose top n units are
 * free is the answer (every run above it was too short), so the search
 * stops there. */
static uint32_t alloc_high(ds_tex_pair *m, uint32_t lo, uint32_t hi, uint32_t n)
{
	uint32_t top = hi, e, s, t, q;

	if (n >= 64u) {
		/* a run of 64 units or more holds a whole free word, and one
		 * without such a word is too short: only runs through the free
		 * words the summary names are read, the highest first */
		while (top > lo) {
			q = bits_prev(m->full, lo >> 5, top >> 5, 1);
			if (q == top >> 5)
				return DS_TEX_NONE;
			/* word q + 1 is not all free (or holds top), so the run's
			 * end is found within it */
			e = bits_next(m->free, (q + 1u) * 32u, top, 0);
			s = prev_is(m, lo, q * 32u, 0);
			s = s == q * 32u ? lo : s + 1u;
			if (e - s >= n) {
				t = e - n;
				fill(m, t, n, 0);
				return t * DS_TEX_UNIT;
			}
			if (s == lo)
				return DS_TEX_NONE;
			top = s - 1u; /* a unit in use */
		}
		return DS_TEX_NONE;
	}
	while (top > lo) {
		e = prev_is(m, lo, top, 1);
		if (e == top)
			return DS_TEX_NONE;
		e++;
		if (e - lo >= n) {
			t = e - n;
			if (all_are(m, t, n, 1)) {
				fill(m, t, n, 0);
				return t * DS_TEX_UNIT;
			}
		}
		/* too short: go on below its start */
		top = prev_is(m, lo, e, 0);
		if (top == e)
			return DS_TEX_NONE;
	}
	return DS_TEX_NONE;
}

uint32_t ds_tex_pair_alloc(ds_tex_pair *m, uint32_t bytes, bool is4x4)
{
	static const uint8_t order[4] = { 3, 2, 0, 1 };
	uint32_t size = ds_tex_pair_size(bytes, is4x4), n = size / DS_TEX_UNIT, a;
	unsigned i;

	if (!size)
		return DS_TEX_NONE;
	if (is4x4) {
		if (size > 0x20000u)
			return DS_TEX_NONE;
		a = alloc_4x4(m, 0, size / 16u);
		return a != DS_TEX_NONE ? a : alloc_4x4(m, 2, size / 16u);
	}
	if (n <= SLOT_UNITS)
		for (i = 0; i < 4; i++) {
			a = alloc_high(m, order[i] * SLOT_UNITS, (order[i] + 1u) * SLOT_UNITS, n);
			if (a != DS_TEX_NONE)
				return a;
		}
	/* larger than a slot, or only a run across a slot border fits */
	return alloc_high(m, 0, DS_TEX_UNITS, n);
}

int ds_tex_pair_free(ds_tex_pair *m, uint32_t addr, uint32_t bytes, bool is4x4)
{
	uint32_t size = ds_tex_pair_size(bytes, is4x4), u = addr / DS_TEX_UNIT, n = size / DS_TEX_UNIT;

	if (!size || addr % DS_TEX_UNIT || u + n > DS_TEX_UNITS || !all_are(m, u, n, 0))
		return -1;
	if (is4x4) {
		uint32_t iu;
		if (addr % 16u || !((addr + size <= 0x20000u) || (addr >= 0x40000u && addr + size <= 0x60000u)))
			return -1;
		iu = ds_tex_pair_index_addr(addr) / DS_TEX_UNIT;
		if (!all_are(m, iu, n / 2u, 0))
			return -1;
		fill(m, iu, n / 2u, 1);
	}
	fill(m, u, n, 1);
	return 0;
}

uint32_t ds_tex_pair_free_bytes(const ds_tex_pair *m)
{
	uint32_t i, n = 0;

	for (i = 0; i < DS_TEX_UNITS / 32u; i++)
		n += bits_popcount32(m->free[i]);
	return n * DS_TEX_UNIT;
}
