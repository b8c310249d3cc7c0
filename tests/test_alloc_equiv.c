/* SPDX-License-Identifier: Zlib */
/* test_alloc_equiv.c - the faster searches of vramsim's own allocators
 * (gba_obj_ends, ds_tex_pair, ds_pltt_split) place every allocation where
 * the earlier whole-bitmap searches did. Each earlier search is kept here as
 * a reference model over a plain bitmap; long random sequences of
 * allocations, frees and bad frees run through both, and every result and
 * the free bitmap must agree; the run classes and per-word summaries the
 * faster searches keep must match the bitmap they summarise. */
#include <string.h>

#include "support.h"
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/ds_pltt_split.h"
#include "vramsim/alloc/ds_tex_pair.h"
#include "vramsim/alloc/gba_obj_ends.h"

/* The earlier top-down search: every free run in [lo, hi) visited from the
 * bottom, the highest aligned fit kept. Returns hi when none. */
static uint32_t ref_find_high(const uint32_t *w, uint32_t lo, uint32_t hi, uint32_t n,
	uint32_t align)
{
	uint32_t p = lo, best = hi;

	while (p < hi) {
		uint32_t s = bits_next(w, p, hi, 1), e, t;
		if (s >= hi)
			break;
		e = bits_next(w, s, hi, 0);
		if (e - s >= n) {
			t = (e - n) & ~(align - 1u);
			if (t >= s)
				best = t;
		}
		p = e;
	}
	return best;
}

/* ---- reference: gba_obj_ends, every free run visited per call ---------- */

typedef struct ref_ends {
	uint32_t freew[32], start[32];
} ref_ends;

static int32_t ref_ends_find(const ref_ends *a, uint32_t first, uint32_t n, uint32_t al)
{
	int small = n <= GBA_OBJ_ENDS_SMALL;
	uint32_t s, e, lo, hi, best_len = 1025u;
	int32_t best = -1;

	for (s = bits_next(a->freew, first, 1024, 1); s < 1024; s = bits_next(a->freew, e, 1024, 1)) {
		e = bits_next(a->freew, s, 1024, 0);
		lo = (s + al - 1u) & ~(al - 1u);
		if (lo + n > e)
			continue;
		if (!small) {
			if (e - s < best_len) {
				best_len = e - s;
				best = (int32_t)lo;
				if (best_len == n)
					break;
			}
			continue;
		}
		hi = (e - n) & ~(al - 1u);
		if (e - s <= best_len) {
			best_len = e - s;
			best = (int32_t)hi;
		}
	}
	return best;
}

static uint32_t ref_ends_alloc(ref_ends *a, uint32_t first, uint32_t n, uint32_t al)
{
	int32_t s = ref_ends_find(a, first, n, al);

	if (s < 0)
		return GBA_OBJ_ENDS_NONE;
	bits_fill(a->freew, (uint32_t)s, n, 0);
	a->start[s >> 5] |= 1u << (s & 31);
	return (uint32_t)s;
}

static int ref_ends_free(ref_ends *a, uint32_t t, uint32_t n)
{
	if (n == 0 || t + n > 1024 || !bits_get(a->start, t) || !bits_all(a->freew, t, n, 0))
		return -1;
	a->start[t >> 5] &= ~(1u << (t & 31));
	bits_fill(a->freew, t, n, 1);
	return 0;
}

/* Sprite-like sizes most of the time (the classes' edges: 1, 2, 3, 4, 8,
 * 16, 32, 64, 128), any length up to 200 otherwise. */
static uint32_t rand_tiles(vs_rng *r)
{
	static const uint16_t common[] = { 1, 2, 3, 4, 4, 8, 16, 32, 64, 128, 5, 7, 63, 65 };

	if (vs_rng_below(r, 4))
		return common[vs_rng_below(r, sizeof common / sizeof common[0])];
	return 1 + vs_rng_below(r, 200);
}

/* The run classes and summaries, rebuilt from the free bitmap, must be what
 * the allocator keeps. */
static void ends_check_runs(const gba_obj_ends *a, uint32_t step)
{
	static gba_obj_ends want;
	uint32_t t = 0, c;

	memset(&want, 0, sizeof want);
	while ((t = bits_next(a->freew, t, 1024, 1)) < 1024) {
		uint32_t e = bits_next(a->freew, t, 1024, 0);
		for (c = 0; c + 1u < GBA_OBJ_ENDS_CLASSES && ((e - t) >> (c + 1u)); c++)
			;
		want.runs[c][t >> 5] |= 1u << (t & 31);
		want.words[c] |= 1u << (t >> 5);
		t = e;
	}
	HOT_ASSERT(memcmp(a->runs, want.runs, sizeof want.runs) == 0, "step %u: run classes differ", step);
	HOT_ASSERT(memcmp(a->words, want.words, sizeof want.words) == 0, "step %u: class summaries differ", step);
	for (t = 0; t < 32; t++)
		HOT_ASSERT(bits_get(&a->fullw, t) == (a->freew[t] == 0xFFFFFFFFu), "step %u: word %u: all-free bit wrong",
			step, t);
}

START_TEST(ends_random)
{
	static gba_obj_ends a;
	static ref_ends ref;
	static uint32_t at[1024], len[1024];
	vs_rng r = { 0x0E4Du + (uint64_t)_i * 7919u };
	uint32_t first = (_i & 1) ? 512 : 0, nlive = 0, steps = vs_test_soak(60000, 1000000), i, t;
	/* fill level target moves so runs are both sparse and packed */
	uint32_t target = 0;

	gba_obj_ends_init(&a, (uint16_t)first);
	memset(&ref, 0, sizeof ref);
	bits_fill(ref.freew, first, 1024 - first, 1);
	for (i = 0; i < steps; i++) {
		if (i % 5000 == 0)
			target = 20 + vs_rng_below(&r, 200);
		if (nlive && (nlive >= target || vs_rng_below(&r, 100) < 45)) {
			uint32_t k = vs_rng_below(&r, nlive), got, want;

			if (len[k] > 1 && vs_rng_below(&r, 16) == 0) /* a bad free: one tile in */
				HOT_CMP(gba_obj_ends_free(&a, (uint16_t)(at[k] + 1), 1), ==,
					ref_ends_free(&ref, at[k] + 1, 1));
			got = (uint32_t)gba_obj_ends_free(&a, (uint16_t)at[k], (uint16_t)len[k]);
			want = (uint32_t)ref_ends_free(&ref, at[k], len[k]);
			HOT_CMP(got, ==, want);
			HOT_CMP(got, ==, 0);
			at[k] = at[--nlive];
			len[k] = len[nlive];
		} else {
			uint32_t n = rand_tiles(&r), al = vs_rng_below(&r, 4) ? 1 : 2;

			if (vs_rng_below(&r, 50) == 0)
				al = 1u << vs_rng_below(&r, 6);
			t = gba_obj_ends_alloc(&a, (uint16_t)n, (uint16_t)al);
			HOT_CMP(t, ==, ref_ends_alloc(&ref, first, n, al));
			if (t != GBA_OBJ_ENDS_NONE) {
				at[nlive] = t;
				len[nlive++] = n;
			}
		}
		if (i % 97 == 0) {
			HOT_ASSERT(memcmp(a.freew, ref.freew, sizeof ref.freew) == 0, "step %u: free bitmaps differ", i);
			HOT_ASSERT(memcmp(a.start, ref.start, sizeof ref.start) == 0, "step %u: start bitmaps differ", i);
			ends_check_runs(&a, i);
		}
		if (i % 20011 == 20010) { /* a reset now and then, as replay does */
			gba_obj_ends_init(&a, (uint16_t)first);
			memset(&ref, 0, sizeof ref);
			bits_fill(ref.freew, first, 1024 - first, 1);
			nlive = 0;
		}
	}
}
END_TEST

/* ---- reference: ds_tex_pair, whole-slot scans and a rebuilt 4x4 map ---- */

#define TEX_SLOT_UNITS (0x20000u / 8u)

typedef struct ref_tex {
	uint32_t free[DS_TEX_UNITS / 32];
} ref_tex;

static uint32_t ref_even_bits(uint32_t x)
{
	x &= 0x55555555u;
	x = (x | (x >> 1)) & 0x33333333u;
	x = (x | (x >> 2)) & 0x0F0F0F0Fu;
	x = (x | (x >> 4)) & 0x00FF00FFu;
	return (x | (x >> 8)) & 0x0000FFFFu;
}

static uint32_t ref_tex_4x4(ref_tex *m, unsigned s, uint32_t n16)
{
	uint32_t comb[256], tw = s * TEX_SLOT_UNITS / 32u, iw = ds_tex_pair_index_addr(s * 0x20000u) / 8u / 32u;
	uint32_t j, k, addr;

	for (j = 0; j < 256; j++) {
		uint32_t a = m->free[tw + 2 * j], b = m->free[tw + 2 * j + 1];
		comb[j] = (ref_even_bits(a & (a >> 1)) | (ref_even_bits(b & (b >> 1)) << 16)) & m->free[iw + j];
	}
	k = bits_find_low(comb, 0, 8192u, n16, 1);
	if (k >= 8192u)
		return DS_TEX_NONE;
	addr = s * 0x20000u + k * 16u;
	bits_fill(m->free, addr / 8u, n16 * 2u, 0);
	bits_fill(m->free, ds_tex_pair_index_addr(addr) / 8u, n16, 0);
	return addr;
}

static uint32_t ref_tex_high(ref_tex *m, uint32_t lo, uint32_t hi, uint32_t n)
{
	uint32_t u = ref_find_high(m->free, lo, hi, n, 1);

	if (u >= hi)
		return DS_TEX_NONE;
	bits_fill(m->free, u, n, 0);
	return u * 8u;
}

static uint32_t ref_tex_alloc(ref_tex *m, uint32_t bytes, bool is4x4)
{
	static const uint8_t order[4] = { 3, 2, 0, 1 };
	uint32_t size = ds_tex_pair_size(bytes, is4x4), n = size / 8u, a;
	unsigned i;

	if (!size)
		return DS_TEX_NONE;
	if (is4x4) {
		if (size > 0x20000u)
			return DS_TEX_NONE;
		a = ref_tex_4x4(m, 0, size / 16u);
		return a != DS_TEX_NONE ? a : ref_tex_4x4(m, 2, size / 16u);
	}
	if (n <= TEX_SLOT_UNITS)
		for (i = 0; i < 4; i++) {
			a = ref_tex_high(m, order[i] * TEX_SLOT_UNITS, (order[i] + 1u) * TEX_SLOT_UNITS, n);
			if (a != DS_TEX_NONE)
				return a;
		}
	return ref_tex_high(m, 0, DS_TEX_UNITS, n);
}

static void ref_tex_free(ref_tex *m, uint32_t addr, uint32_t bytes, bool is4x4)
{
	uint32_t size = ds_tex_pair_size(bytes, is4x4);

	if (is4x4)
		bits_fill(m->free, ds_tex_pair_index_addr(addr) / 8u, size / 16u, 1);
	bits_fill(m->free, addr / 8u, size / 8u, 1);
}

static uint32_t rand_tex(vs_rng *r, bool *c4)
{
	static const uint32_t side[] = { 8, 16, 32, 64, 128, 256 };
	uint32_t w = side[vs_rng_below(r, 6)], h = side[vs_rng_below(r, 6)];

	*c4 = vs_rng_below(r, 4) == 0;
	if (*c4)
		return w * h / 4u + (vs_rng_below(r, 8) == 0 ? vs_rng_below(r, 100) : 0);
	if (vs_rng_below(r, 10) == 0)
		return 1 + vs_rng_below(r, 0x30000); /* odd sizes, some past a slot */
	return w * h * (1u + vs_rng_below(r, 2));
}

/* Per-word summaries rebuilt from a free bitmap of nw words. */
static void check_summary(const uint32_t *free, uint32_t nw, const uint32_t *any, const uint32_t *full,
	uint32_t step)
{
	uint32_t w;

	for (w = 0; w < nw; w++) {
		HOT_ASSERT(bits_get(any, w) == (free[w] != 0), "step %u: word %u: has-free bit wrong", step, w);
		if (full)
			HOT_ASSERT(bits_get(full, w) == (free[w] == 0xFFFFFFFFu), "step %u: word %u: all-free bit wrong",
				step, w);
	}
}

START_TEST(tex_random)
{
	static ds_tex_pair m;
	static ref_tex ref;
	static uint32_t addr[2048], bytes[2048];
	static bool c4[2048];
	static const uint8_t masks[] = { 15, 15, 1 | 4 | 8, 5, 12 };
	vs_rng r = { 0x7E11u + (uint64_t)_i * 104729u };
	uint8_t mapped = masks[_i % 5];
	uint32_t nlive = 0, steps = vs_test_soak(12000, 200000), i, s, target = 40;

	ds_tex_pair_init(&m, mapped);
	memset(&ref, 0, sizeof ref);
	for (s = 0; s < 4; s++)
		bits_fill(ref.free, s * TEX_SLOT_UNITS, TEX_SLOT_UNITS, (mapped >> s) & 1);
	for (i = 0; i < steps; i++) {
		if (i % 1500 == 0)
			target = 5 + vs_rng_below(&r, 150);
		if (nlive && (nlive >= target || vs_rng_below(&r, 100) < 45)) {
			uint32_t k = vs_rng_below(&r, nlive);

			HOT_CMP(ds_tex_pair_free(&m, addr[k], bytes[k], c4[k]), ==, 0);
			ref_tex_free(&ref, addr[k], bytes[k], c4[k]);
			HOT_CMP(ds_tex_pair_free(&m, addr[k], bytes[k], c4[k]), ==, -1);
			nlive--;
			addr[k] = addr[nlive];
			bytes[k] = bytes[nlive];
			c4[k] = c4[nlive];
		} else {
			bool q;
			uint32_t b = rand_tex(&r, &q), got = ds_tex_pair_alloc(&m, b, q);

			HOT_CMP(got, ==, ref_tex_alloc(&ref, b, q));
			if (got != DS_TEX_NONE) {
				addr[nlive] = got;
				bytes[nlive] = b;
				c4[nlive++] = q;
			}
		}
		if (i % 61 == 0) {
			HOT_ASSERT(memcmp(m.free, ref.free, sizeof ref.free) == 0, "step %u: free bitmaps differ", i);
			check_summary(m.free, DS_TEX_UNITS / 32, m.any, m.full, i);
		}
	}
	HOT_ASSERT(memcmp(m.free, ref.free, sizeof ref.free) == 0, "free bitmaps differ at the end");
}
END_TEST

/* ---- reference: ds_pltt_split, the whole space scanned upwards -------- */

typedef struct ref_pltt {
	uint32_t free[DS_PLTT_UNITS / 32];
} ref_pltt;

static uint32_t ref_pltt_alloc(ref_pltt *m, uint32_t bytes, bool four)
{
	uint32_t n = ds_pltt_split_size(bytes) / 8u, u;

	if (!n)
		return DS_PLTT_NONE;
	if (four)
		u = bits_find_low(m->free, 0, 0x10000u / 8u, n, 1);
	else
		u = ref_find_high(m->free, 0, DS_PLTT_UNITS, n, 2);
	if (u >= (four ? 0x10000u / 8u : DS_PLTT_UNITS))
		return DS_PLTT_NONE;
	bits_fill(m->free, u, n, 0);
	return u * 8u;
}

START_TEST(pltt_random)
{
	static ds_pltt_split m;
	static ref_pltt ref;
	static uint32_t addr[4096], bytes[4096];
	static const uint8_t masks[] = { 63, 15, 1 | 2 | 16 | 32, 48 };
	vs_rng r = { 0x9A77u + (uint64_t)_i * 15485863u };
	uint8_t mapped = masks[_i % 4];
	uint32_t nlive = 0, steps = vs_test_soak(40000, 600000), i, s, target = 100;

	ds_pltt_split_init(&m, mapped);
	memset(&ref, 0, sizeof ref);
	for (s = 0; s < 6; s++)
		bits_fill(ref.free, s * 0x800u, 0x800u, (mapped >> s) & 1);
	for (i = 0; i < steps; i++) {
		if (i % 3000 == 0)
			target = 10 + vs_rng_below(&r, 600);
		if (nlive && (nlive >= target || vs_rng_below(&r, 100) < 45)) {
			uint32_t k = vs_rng_below(&r, nlive);

			HOT_CMP(ds_pltt_split_free(&m, addr[k], bytes[k]), ==, 0);
			bits_fill(ref.free, addr[k] / 8u, ds_pltt_split_size(bytes[k]) / 8u, 1);
			HOT_CMP(ds_pltt_split_free(&m, addr[k], bytes[k]), ==, -1);
			nlive--;
			addr[k] = addr[nlive];
			bytes[k] = bytes[nlive];
		} else {
			bool four = vs_rng_below(&r, 3) == 0;
			uint32_t b = four ? 8u * (1u + vs_rng_below(&r, 4)) : 2u * (1u + vs_rng_below(&r, 256));
			uint32_t got;

			if (vs_rng_below(&r, 40) == 0)
				b = 1 + vs_rng_below(&r, 0x8000);
			got = ds_pltt_split_alloc(&m, b, four);
			HOT_CMP(got, ==, ref_pltt_alloc(&ref, b, four));
			if (got != DS_PLTT_NONE) {
				addr[nlive] = got;
				bytes[nlive++] = b;
			}
		}
		if (i % 53 == 0) {
			HOT_ASSERT(memcmp(m.free, ref.free, sizeof ref.free) == 0, "step %u: free bitmaps differ", i);
			check_summary(m.free, DS_PLTT_UNITS / 32, m.any, NULL, i);
		}
	}
}
END_TEST

static Suite *equiv_suite(void)
{
	Suite *s = suite_create("alloc_equiv");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, ends_random, 0, 4);
	tcase_add_loop_test(tc, tex_random, 0, 5);
	tcase_add_loop_test(tc, pltt_random, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(equiv_suite());
}
