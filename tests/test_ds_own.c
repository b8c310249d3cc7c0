/* SPDX-License-Identifier: Zlib */
/* test_ds_own.c - vramsim's own DS managers (ds_tex_pair, ds_pltt_split)
 * against a byte-level model: long random sequences with no overlap (texel
 * and index data both), hardware rules held, free space accounted to the
 * byte, and the promise that matters: an allocation fails only when the
 * model finds no legal place at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/ds_pltt_split.h"
#include "vramsim/alloc/ds_tex_pair.h"

#define TEX 0x80000u
#define PLT 0x18000u

/* owner per 8-byte unit: 0 free, 0xFFFF unmapped, else allocation id */
typedef struct tmodel {
	uint16_t own[TEX / 8];
	uint32_t addr[4096], size[4096];
	uint8_t c4[4096];
	int live[4096], nlive;
} tmodel;

static uint16_t new_id(uint8_t *used)
{
	uint16_t i;

	for (i = 1; used[i]; i++)
		;
	used[i] = 1;
	return i;
}

static int unit_free(const uint16_t *own, uint32_t u) { return own[u] == 0; }

static int legal_normal(const tmodel *m, uint32_t n)
{
	uint32_t u, run = 0;

	for (u = 0; u < TEX / 8; u++) {
		run = unit_free(m->own, u) ? run + 1 : 0;
		if (run >= n)
			return 1;
	}
	return 0;
}

static int fits_4x4(const tmodel *m, uint32_t a, uint32_t size)
{
	uint32_t i, idx = a < 0x20000 ? 0x20000 + a / 2 : 0x30000 + (a - 0x40000) / 2;

	for (i = 0; i < size / 8; i++)
		if (!unit_free(m->own, a / 8 + i))
			return 0;
	for (i = 0; i < size / 16; i++)
		if (!unit_free(m->own, idx / 8 + i))
			return 0;
	return 1;
}

static int legal_4x4(const tmodel *m, uint32_t size)
{
	uint32_t a;

	for (a = 0; a + size <= 0x20000; a += 16)
		if (fits_4x4(m, a, size))
			return 1;
	for (a = 0x40000; a + size <= 0x60000; a += 16)
		if (fits_4x4(m, a, size))
			return 1;
	return 0;
}

static void take(uint16_t *own, uint32_t off, uint32_t len, uint16_t id)
{
	uint32_t u;

	for (u = off / 8; u < (off + len) / 8; u++) {
		if (own[u] != 0)
			ck_abort_msg("unit 0x%x taken twice (by %u and %u)", u * 8, own[u], id);
		own[u] = id;
	}
}

static void give(uint16_t *own, uint32_t off, uint32_t len, uint16_t id)
{
	uint32_t u;

	for (u = off / 8; u < (off + len) / 8; u++) {
		if (own[u] != id)
			ck_abort_msg("unit 0x%x owned by %u, not %u", u * 8, own[u], id);
		own[u] = 0;
	}
}

static uint32_t model_free(const uint16_t *own, uint32_t units)
{
	uint32_t u, n = 0;

	for (u = 0; u < units; u++)
		n += own[u] == 0;
	return n * 8;
}

static uint32_t rand_tex_bytes(vs_rng *r, int *c4)
{
	unsigned w = 8u << vs_rng_below(r, 7), h = 8u << vs_rng_below(r, 7);
	static const unsigned bpp[] = { 2, 4, 8, 8, 16 };

	*c4 = vs_rng_below(r, 3) == 0;
	if (*c4)
		return w * h * 2 / 8;
	return w * h * bpp[vs_rng_below(r, 5)] / 8;
}

START_TEST(tex_pair_random)
{
	static tmodel m;
	static ds_tex_pair t;
	vs_rng r = { 0xD5000u + (uint64_t)_i };
	uint8_t mapped = _i == 0 ? 15 : (uint8_t)(1 + vs_rng_below(&r, 15));
	int step, fails = 0, fails4 = 0;
	static uint8_t used[4096];

	memset(used, 0, sizeof used);
	memset(&m, 0, sizeof m);
	ds_tex_pair_init(&t, mapped);
	for (uint32_t s = 0; s < 4; s++)
		if (!((mapped >> s) & 1))
			for (uint32_t u = s * 0x4000; u < (s + 1) * 0x4000; u++)
				m.own[u] = 0xFFFF;
	for (step = 0; step < 6000; step++) {
		if (m.nlive && (vs_rng_below(&r, 100) < 45 || m.nlive >= 4000)) {
			int i = (int)vs_rng_below(&r, (uint32_t)m.nlive), id = m.live[i];
			uint32_t a = m.addr[id], sz = m.size[id];
			if (ds_tex_pair_free(&t, a, sz, m.c4[id]))
				ck_abort_msg("step %d: free of live %u failed", step, id);
			give(m.own, a, sz, (uint16_t)id);
			if (m.c4[id])
				give(m.own, ds_tex_pair_index_addr(a), sz / 2, (uint16_t)id);
			m.live[i] = m.live[--m.nlive];
			used[id] = 0;
			/* a second free of the same is refused */
			if (ds_tex_pair_free(&t, a, sz, m.c4[id]) == 0 && m.own[a / 8] == 0)
				ck_abort_msg("step %d: double free accepted", step);
		} else {
			int c4;
			uint32_t bytes = rand_tex_bytes(&r, &c4), size = ds_tex_pair_size(bytes, c4);
			uint32_t a = ds_tex_pair_alloc(&t, bytes, c4);
			uint16_t id = new_id(used);
			if (a == DS_TEX_NONE) {
				int legal = c4 ? legal_4x4(&m, size) : legal_normal(&m, size / 8);
				if (legal)
					ck_abort_msg("step %d: %s of %u bytes failed with a legal place free", step,
						c4 ? "4x4" : "texture", size);
				fails++;
				fails4 += c4;
				used[id] = 0;
				continue;
			}
			if (a % 8 || a + size > TEX)
				ck_abort_msg("step %d: bad placement 0x%x", step, a);
			if (c4 && (a % 16 || !(a + size <= 0x20000 || (a >= 0x40000 && a + size <= 0x60000))))
				ck_abort_msg("step %d: 4x4 texel data at 0x%x+0x%x outside slots 0/2", step, a, size);
			take(m.own, a, size, id);
			if (c4)
				take(m.own, ds_tex_pair_index_addr(a), size / 2, id);
			m.addr[id] = a;
			m.size[id] = size;
			m.c4[id] = (uint8_t)c4;
			m.live[m.nlive++] = id;
		}
		if (step % 64 == 0 && model_free(m.own, TEX / 8) != ds_tex_pair_free_bytes(&t))
			ck_abort_msg("step %d: free bytes %u, model %u", step, ds_tex_pair_free_bytes(&t),
				model_free(m.own, TEX / 8));
	}
	ck_assert_int_gt(fails, 0); /* the sequence does fill the space */
	(void)fails4;
}
END_TEST

START_TEST(tex_pair_hand)
{
	static ds_tex_pair t;
	uint32_t a, b;

	ds_tex_pair_init(&t, 15);
	/* normal textures top-down in slot 3, then slot 2, 0, 1 */
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x20000, false), 0x60000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x1000, false), 0x5F000);
	/* 4x4 bottom-up in slot 0 with its index at 0x20000 */
	a = ds_tex_pair_alloc(&t, 0x4000, true);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(ds_tex_pair_index_addr(a), 0x20000);
	b = ds_tex_pair_alloc(&t, 0x4000, true);
	ck_assert_uint_eq(b, 0x4000);
	/* slot 1 bytes under live index data are never given to textures:
	 * fill slots 2 and 0, then slot 1 starts at 0x24000 */
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x1F000, false), 0x40000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x18000, false), 0x8000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x1C000, false), 0x24000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 16, false), DS_TEX_NONE);
	/* the 4x4 at 0x4000 freed: texel and index free again together */
	ck_assert_int_eq(ds_tex_pair_free(&t, b, 0x4000, true), 0);
	ck_assert_int_eq(ds_tex_pair_free(&t, b, 0x4000, true), -1);
	ck_assert_uint_eq(ds_tex_pair_free_bytes(&t), 0x6000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x4000, true), 0x4000);
	/* 4x4 needs slot 1: without it, none */
	ds_tex_pair_init(&t, 1 | 4 | 8);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 16, true), DS_TEX_NONE);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x20000, false), 0x60000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x20000, false), 0x40000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x20000, false), 0);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 16, false), DS_TEX_NONE);
	/* a texture larger than a slot spans slots */
	ds_tex_pair_init(&t, 15);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x40000, false), 0x40000);
	ck_assert_uint_eq(ds_tex_pair_alloc(&t, 0x40000, false), 0);
}
END_TEST

typedef struct pmodel {
	uint16_t own[PLT / 8];
	uint32_t addr[4096], size[4096];
	int live[4096], nlive;
} pmodel;

static int legal_pltt(const pmodel *m, uint32_t size, int four)
{
	uint32_t a, step = four ? 8 : 16, end = four ? 0x10000 : PLT, i;

	for (a = 0; a + size <= end; a += step) {
		for (i = 0; i < size / 8 && m->own[a / 8 + i] == 0; i++)
			;
		if (i == size / 8)
			return 1;
	}
	return 0;
}

START_TEST(pltt_split_random)
{
	static pmodel m;
	static ds_pltt_split p;
	vs_rng r = { 0xD6000u + (uint64_t)_i };
	uint8_t mapped = _i == 0 ? 63 : (uint8_t)(1 + vs_rng_below(&r, 63));
	int step, fails = 0;
	static uint8_t used[4096];

	memset(used, 0, sizeof used);
	memset(&m, 0, sizeof m);
	ds_pltt_split_init(&p, mapped);
	for (uint32_t s = 0; s < 6; s++)
		if (!((mapped >> s) & 1))
			for (uint32_t u = s * 0x800; u < (s + 1) * 0x800; u++)
				m.own[u] = 0xFFFF;
	for (step = 0; step < 8000; step++) {
		if (m.nlive && (vs_rng_below(&r, 100) < 45 || m.nlive >= 4000)) {
			int i = (int)vs_rng_below(&r, (uint32_t)m.nlive), id = m.live[i];
			ck_assert_int_eq(ds_pltt_split_free(&p, m.addr[id], m.size[id]), 0);
			give(m.own, m.addr[id], m.size[id], (uint16_t)id);
			m.live[i] = m.live[--m.nlive];
			used[id] = 0;
		} else {
			int four = vs_rng_below(&r, 3) == 0;
			uint32_t colours = four ? 4u : vs_rng_below(&r, 4) ? 16u : 8u + 8u * vs_rng_below(&r, 64);
			uint32_t bytes = colours * 2, size = ds_pltt_split_size(bytes);
			uint32_t a = ds_pltt_split_alloc(&p, bytes, four);
			uint16_t id = new_id(used);
			if (a == DS_PLTT_NONE) {
				if (legal_pltt(&m, size, four))
					ck_abort_msg("step %d: %u-byte palette failed with a legal place free", step, size);
				fails++;
				used[id] = 0;
				continue;
			}
			if (a % (four ? 8 : 16) || (four && a + size > 0x10000) || a + size > PLT)
				ck_abort_msg("step %d: palette at 0x%x+0x%x breaks a rule", step, a, size);
			take(m.own, a, size, id);
			m.addr[id] = a;
			m.size[id] = size;
			m.live[m.nlive++] = id;
		}
		if (step % 64 == 0 && model_free(m.own, PLT / 8) != ds_pltt_split_free_bytes(&p))
			ck_abort_msg("step %d: free bytes differ", step);
	}
	ck_assert_int_gt(fails, 0);
}
END_TEST

START_TEST(pltt_split_hand)
{
	static ds_pltt_split p;

	ds_pltt_split_init(&p, 15); /* bank E only */
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 8, true), 0);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 32, false), 0x10000 - 32);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 8, true), 8);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 8, false), 0x10000 - 48);
	ck_assert_int_eq(ds_pltt_split_free(&p, 0x10000 - 48, 8), 0);
	ck_assert_int_eq(ds_pltt_split_free(&p, 0x10000 - 48, 8), -1);
	ds_pltt_split_init(&p, 63);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 512, false), 0x18000 - 512);
	/* 4-colour palettes never past 0x10000 */
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 0x10000, true), 0);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 8, true), DS_PLTT_NONE);
	ck_assert_uint_eq(ds_pltt_split_alloc(&p, 8, false), 0x18000 - 528);
}
END_TEST

static Suite *ds_own_suite(void)
{
	Suite *s = suite_create("ds_own");
	TCase *tc = tcase_create("own");

	tcase_add_test(tc, tex_pair_hand);
	tcase_add_test(tc, pltt_split_hand);
	tcase_add_loop_test(tc, tex_pair_random, 0, 4);
	tcase_add_loop_test(tc, pltt_split_random, 0, 4);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(ds_own_suite());
}
