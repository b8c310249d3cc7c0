/* SPDX-License-Identifier: Zlib */
/* test_ds_hw.c - the DS texture and palette placement rules (hw_ds.c,
 * ds-vram.md): one test per rule, the 4x4 index extents, reserved slots,
 * and the replay engine catching index data that overlaps other data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vram/hw.h"
#include "engine/replay.h"
#include "trace/trace.h"
#include "strategies/registry.h"
#include "vram/arena.h"

enum { A = 0, B, C, D, E, F, G };

static int tex_ok(const vs_arena_decl *d, unsigned fmt, uint32_t off, uint32_t len, const char *why_has)
{
	char why[256] = "";
	vs_request rq = vs_test_tex_rq(fmt, 64, 64);
	int rc = vs_hw_check(d, &rq, off, len, why, sizeof why);

	if (rc == 0)
		return 1;
	if (why_has && !strstr(why, why_has))
		ck_abort_msg("reason '%s' lacks '%s'", why, why_has);
	return 0;
}

static int pltt_ok(const vs_arena_decl *d, int four, uint32_t off, uint32_t len, const char *why_has)
{
	char why[256] = "";
	vs_request rq = vs_test_pltt_rq(four ? 4 : 16, four);
	int rc = vs_hw_check(d, &rq, off, len, why, sizeof why);

	if (rc == 0)
		return 1;
	if (why_has && !strstr(why, why_has))
		ck_abort_msg("reason '%s' lacks '%s'", why, why_has);
	return 0;
}

START_TEST(tex_alignment)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	ck_assert(tex_ok(&d, VS_TEX_16C, 0x100, 0x800, NULL));
	ck_assert(tex_ok(&d, VS_TEX_16C, 0x108, 0x800, NULL));
	ck_assert(!tex_ok(&d, VS_TEX_16C, 0x104, 0x800, "8-byte aligned"));
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x1001, 0x400, "8-byte aligned"));
	ck_assert(!tex_ok(&d, VS_TEX_DIRECT, 0x7FFF8, 0x10, "outside"));
}
END_TEST

START_TEST(tex_unmapped_slot)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	d.ds_bank_slot[C] = 0xFF; /* slot 2 has no bank */
	ck_assert(tex_ok(&d, VS_TEX_256C, 0x3F000, 0x1000, NULL));
	ck_assert(!tex_ok(&d, VS_TEX_256C, 0x40000, 0x1000, "slot 2"));
	ck_assert(!tex_ok(&d, VS_TEX_256C, 0x3F000, 0x1008, "slot 2"));
	ck_assert(tex_ok(&d, VS_TEX_256C, 0x60000, 0x1000, NULL));
	/* banks can serve any slot: A as slot 2 */
	d.ds_bank_slot[A] = 2;
	ck_assert(tex_ok(&d, VS_TEX_256C, 0x40000, 0x1000, NULL));
	ck_assert(!tex_ok(&d, VS_TEX_256C, 0x0, 0x1000, "slot 0"));
}
END_TEST

START_TEST(tex_4x4_slots)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	ck_assert(tex_ok(&d, VS_TEX_4X4, 0x0, 0x20000, NULL));
	ck_assert(tex_ok(&d, VS_TEX_4X4, 0x40000, 0x20000, NULL));
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x20000, 0x400, "outside slots 0 and 2"));
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x60000, 0x400, "outside slots 0 and 2"));
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x1FC00, 0x800, "outside slots 0 and 2"));
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x5FC00, 0x800, "outside slots 0 and 2"));
	/* other formats may use slots 1 and 3 */
	ck_assert(tex_ok(&d, VS_TEX_16C, 0x20000, 0x400, NULL));
	ck_assert(tex_ok(&d, VS_TEX_A3I5, 0x60000, 0x400, NULL));
	/* the index data needs slot 1 mapped */
	d.ds_bank_slot[B] = 0xFF;
	ck_assert(!tex_ok(&d, VS_TEX_4X4, 0x0, 0x400, "slot 1"));
	ck_assert(tex_ok(&d, VS_TEX_16C, 0x0, 0x400, NULL));
}
END_TEST

START_TEST(index_extents)
{
	vs_arena_decl d;
	vs_request rq = vs_test_tex_rq(VS_TEX_4X4, 64, 64);
	uint32_t off[2], len[2];

	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	ck_assert_int_eq(vs_hw_tied(&d, &rq, 0x1000, 0x800, off, len, 2), 1);
	ck_assert_uint_eq(off[0], 0x20800);
	ck_assert_uint_eq(len[0], 0x400);
	ck_assert_int_eq(vs_hw_tied(&d, &rq, 0x42000, 0x4000, off, len, 2), 1);
	ck_assert_uint_eq(off[0], 0x31000);
	ck_assert_uint_eq(len[0], 0x2000);
	ck_assert_int_eq(vs_hw_tied(&d, &rq, 0x1E000, 0x2000, off, len, 2), 1);
	ck_assert_uint_eq(off[0] + len[0], 0x30000);
	rq = vs_test_tex_rq(VS_TEX_16C, 64, 64);
	ck_assert_int_eq(vs_hw_tied(&d, &rq, 0x1000, 0x800, off, len, 2), 0);
}
END_TEST

START_TEST(pltt_alignment)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	ck_assert(pltt_ok(&d, 0, 0x10, 32, NULL));
	ck_assert(!pltt_ok(&d, 0, 0x18, 32, "16-byte aligned"));
	ck_assert(pltt_ok(&d, 1, 0x18, 8, NULL));
	ck_assert(!pltt_ok(&d, 1, 0x1C, 8, "8-byte aligned"));
}
END_TEST

START_TEST(pltt_four_colour_limit)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	d.ds_bank_slot[F] = 4;
	d.ds_bank_slot[G] = 5;
	ck_assert(pltt_ok(&d, 1, 0xFFF8, 8, NULL));
	ck_assert(!pltt_ok(&d, 1, 0xFFF8, 16, "past 0x10000"));
	ck_assert(!pltt_ok(&d, 1, 0x10000, 8, "past 0x10000"));
	ck_assert(pltt_ok(&d, 0, 0x10000, 32, NULL));
}
END_TEST

START_TEST(pltt_unmapped_slot)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	/* default: E covers slots 0-3 only */
	ck_assert(pltt_ok(&d, 0, 0xFFE0, 32, NULL));
	ck_assert(!pltt_ok(&d, 0, 0x10000, 32, "slot 4"));
	ck_assert(!pltt_ok(&d, 0, 0xFFF0, 32, "slot 4"));
	d.ds_bank_slot[F] = 4;
	ck_assert(pltt_ok(&d, 0, 0x10000, 32, NULL));
	ck_assert(!pltt_ok(&d, 0, 0x14000, 32, "slot 5"));
	d.ds_bank_slot[G] = 5;
	ck_assert(pltt_ok(&d, 0, 0x17FE0, 32, NULL));
	/* no E: F and G at slots 0 and 1 only */
	d.ds_bank_slot[E] = 0xFF;
	d.ds_bank_slot[F] = 0;
	d.ds_bank_slot[G] = 1;
	ck_assert(pltt_ok(&d, 0, 0x7FE0, 32, NULL));
	ck_assert(!pltt_ok(&d, 0, 0x8000, 32, "slot 2"));
}
END_TEST

typedef struct marks { uint32_t off[8], len[8]; int n; } marks;

static void mark(void *ud, uint32_t off, uint32_t len)
{
	marks *m = ud;

	if (m->n < 8) {
		m->off[m->n] = off;
		m->len[m->n] = len;
	}
	m->n++;
}

START_TEST(reserved_slots)
{
	vs_arena_decl d;
	marks m;

	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	m.n = 0;
	vs_hw_reserved(&d, mark, &m);
	ck_assert_int_eq(m.n, 0);
	d.ds_bank_slot[D] = 0xFF;
	vs_hw_reserved(&d, mark, &m);
	ck_assert_int_eq(m.n, 1);
	ck_assert_uint_eq(m.off[0], 0x60000);
	ck_assert_uint_eq(m.len[0], 0x20000);
	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	m.n = 0;
	vs_hw_reserved(&d, mark, &m);
	/* slots 4 and 5: one range */
	ck_assert_int_eq(m.n, 1);
	ck_assert_uint_eq(m.off[0], 0x10000);
	ck_assert_uint_eq(m.len[0], 0x8000);
}
END_TEST

/* A strategy that puts each request where the trace's opt= says: lets a
 * test place data anywhere and watch the replay engine judge it. */
static int at_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *mem, char *err, size_t errlen)
{
	(void)st; (void)a; (void)o; (void)mem; (void)err; (void)errlen;
	return 0;
}

static int at_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	(void)st;
	memset(out, 0, sizeof *out);
	out->offset = rq->opt;
	out->granted = (rq->size + 7u) & ~7u;
	return VS_OK;
}

static int at_free(void *st, const vs_placement *p) { (void)st; (void)p; return VS_OK; }
static void at_reset(void *st) { (void)st; }
static void at_walk(void *st, vs_extent_fn fn, void *ud) { (void)st; (void)fn; (void)ud; }

static const vs_strategy at_strategy = {
	.abi = VS_STRATEGY_ABI,
	.name = "test-ds-at",
	.summary = "places at opt=",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE,
	.state_size = 8,
	.init = at_init,
	.alloc = at_alloc,
	.free = at_free,
	.reset = at_reset,
	.walk_free = at_walk
};

static void quiet(void *ud, const char *line) { (void)ud; (void)line; }

static vs_replay *run(const char *text)
{
	char err[256];
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;

	if (!vs_strategy_find("test-ds-at"))
		ck_assert_int_eq(vs_strategy_register(&at_strategy, err, sizeof err), 0);
	rd = vs_trace_open(vs_test_file(1, "hw.trace", text), err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = &at_strategy;
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	return r;
}

START_TEST(replay_index_overlap)
{
	vs_replay *r;

	/* 64x64 4x4 at 0: texel [0, 0x400), index [0x20000, 0x20200) */
	r = run("vramsim-trace 1\narena t ds-tex\n"
		"alloc 1 tex 64x64 4x4 opt=0\n"
		"alloc 2 tex 16x16 16c opt=0x20100\n"   /* inside the index data */
		"alloc 3 tex 16x16 16c opt=0x20200\n"); /* just after: fine */
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_OVERLAP), 1);
	ck_assert_uint_eq(vs_replay_check_total(r), 1);
	vs_replay_free(r);
	/* the other order: the index data lands on a texture already there */
	r = run("vramsim-trace 1\narena t ds-tex\n"
		"alloc 1 tex 16x16 16c opt=0x31000\n"
		"alloc 2 tex 64x64 4x4 opt=0x42000\n"   /* index [0x31000, 0x31200) */
		"alloc 3 tex 64x64 4x4 opt=0x42400\n"); /* index [0x31200, ...): fine */
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_OVERLAP), 1);
	ck_assert_uint_eq(vs_replay_check_total(r), 1);
	vs_replay_free(r);
	/* two 4x4 textures whose index data would collide cannot both be
	 * placed without their texels colliding first; freeing releases both */
	r = run("vramsim-trace 1\narena t ds-tex\n"
		"alloc 1 tex 64x64 4x4 opt=0\n"
		"free 1\n"
		"alloc 2 tex 16x16 16c opt=0x20000\n"
		"alloc 3 tex 64x64 4x4 opt=0x400\n");
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
}
END_TEST

START_TEST(replay_rules)
{
	vs_replay *r;

	r = run("vramsim-trace 1\narena t ds-tex banks=A0B1C2\n"
		"alloc 1 tex 64x64 4x4 opt=0x20000\n"   /* texel data in slot 1 */
		"alloc 2 tex 64x64 16c opt=0x104\n"     /* not 8-byte aligned */
		"alloc 3 tex 64x64 16c opt=0x60000\n"   /* slot 3 unmapped */
		"alloc 4 tex 64x64 16c opt=0x1000\n");  /* fine */
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 3);
	ck_assert_uint_eq(vs_replay_check_total(r), 3);
	vs_replay_free(r);
	r = run("vramsim-trace 1\narena p ds-pltt\n"
		"alloc 1 pltt 4 opt=0xFFE8\n"           /* fine */
		"alloc 2 pltt 8 4c opt=0xFFF8\n"        /* 16 bytes: ends past 0x10000 */
		"alloc 3 pltt 16 opt=0x108\n"           /* not 16-byte aligned */
		"alloc 4 pltt 4 opt=0x104\n"            /* not 8-byte aligned */
		"alloc 5 pltt 16 opt=0x10000\n");       /* slot 4 unmapped */
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 4);
	ck_assert_uint_eq(vs_replay_check_total(r), 4);
	vs_replay_free(r);
}
END_TEST

static Suite *ds_hw_suite(void)
{
	Suite *s = suite_create("ds_hw");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, tex_alignment);
	tcase_add_test(tc, tex_unmapped_slot);
	tcase_add_test(tc, tex_4x4_slots);
	tcase_add_test(tc, index_extents);
	tcase_add_test(tc, pltt_alignment);
	tcase_add_test(tc, pltt_four_colour_limit);
	tcase_add_test(tc, pltt_unmapped_slot);
	tcase_add_test(tc, reserved_slots);
	tcase_add_test(tc, replay_index_overlap);
	tcase_add_test(tc, replay_rules);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(ds_hw_suite());
}
