/* SPDX-License-Identifier: Zlib */
/* test_ds_own_banks.c - the DS libraries that map their texture banks
 * themselves (NightFox's Lib's 3D sprites: bank B as slot 1; Nitro Engine:
 * the banks it is given, bank X as slot X) on a trace whose arena maps
 * other banks: they fail what they cannot place, or keep to the
 * banks the arena has, and never place into a slot no bank maps.
 *  - the bundled capture of the DS demo (bank A alone for textures, bank
 *    B engine A's OBJ VRAM) compares clean under every strategy;
 *  - nflib-sprite3d without bank B at slot 1: every texture fails;
 *    `vramcnt B 0x8b` gives it its bank, and another value takes it away;
 *  - nitro-engine-tex: the default banks are the arena's own (A alone:
 *    every texture in slot 0); banks= still says what the game passed.
 */
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"

#define V "vramsim-trace 1\n"
#define BUNDLED VS_SOURCE_DIR "/traces/captured/ds-demo-capture.trace"

static char out[1 << 17], err[1 << 16];

START_TEST(demo_capture_compares_clean)
{
	int rc = vs_test_cli(out, sizeof out, err, sizeof err, "compare %s --no-timing", BUNDLED);

	ck_assert_msg(rc == 0, "exit %d: %s%s", rc, out, err);
	ck_assert_ptr_null(strstr(out, "INTEGRITY"));
	ck_assert_ptr_nonnull(strstr(out, "nflib-sprite3d"));
	ck_assert_ptr_nonnull(strstr(out, "nitro-engine-tex"));
	ck_assert_ptr_nonnull(strstr(out, "result: ok"));
}
END_TEST

static vs_replay *run(vs_test_replay *x, const char *strategy, const char *text, const char *options)
{
	return vs_test_replay_run(x, strategy, text, options);
}

START_TEST(nflib_sprite3d_needs_bank_b)
{
	vs_test_replay x;
	vs_replay *r = run(&x, "nflib-sprite3d", V "arena tex ds-tex banks=A0\n"
		"alloc 1 tex 64x64 256c\nalloc 2 tex 32x32 256c\n"
		"vramcnt B 0x8b\nalloc 3 tex 32x32 256c\nfree 3\n"
		"vramcnt B 0x83\nalloc 4 tex 32x32 256c\n", "");
	const vs_metrics *m = vs_replay_metrics(r, 0);

	/* counted as the replay counts a failure where free memory the rules
	 * allow is left (slot 0): fragmented for this strategy */
	ck_assert_uint_eq(m->failures, 3);
	ck_assert_uint_eq(m->fail[VS_FAIL_FRAGMENTED], 3);
	ck_assert_uint_eq(m->allocs, 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->frees, 1); /* id 3 placed (in bank B), then freed */
	vs_test_replay_close(&x);
	/* with bank B as slot 1 from the start, as NF_Init3dSpriteSys maps it */
	r = run(&x, "nflib-sprite3d", V "arena tex ds-tex banks=A0B1\nalloc 1 tex 64x64 256c\n", "");
	ck_assert_int_eq(vs_test_offset_of(r, 1), 0x20000);
	vs_test_replay_close(&x);
}
END_TEST

START_TEST(nitro_engine_keeps_to_the_arena)
{
	vs_test_replay x;
	vs_replay *r = run(&x, "nitro-engine-tex", V "arena tex ds-tex banks=A0\n"
		"alloc 1 tex 64x32 16c\nalloc 2 tex 128x128 256c\n", "");
	long a = vs_test_offset_of(r, 1), b = vs_test_offset_of(r, 2);

	/* from the end of slot 0, bank A's, not of the banks NE_Init3D would map */
	ck_assert_int_eq(a, 0x20000 - 0x400);
	ck_assert_int_eq(b, 0x20000 - 0x400 - 0x4000);
	vs_test_replay_close(&x);
	/* the default arena maps A-D: NE_Init3D's banks, of which its own reset
	 * keeps A and B (docs/ds-homebrew.md): the end of slot 1 */
	r = run(&x, "nitro-engine-tex", V "arena tex ds-tex\nalloc 1 tex 64x32 16c\n", "");
	ck_assert_int_eq(vs_test_offset_of(r, 1), 0x40000 - 0x400);
	vs_test_replay_close(&x);
}
END_TEST

/* banks= given is what the game passed: a bank the arena does not map is
 * the game's mistake, and the replay says so. */
START_TEST(nitro_engine_banks_option_still_binds)
{
	vs_test_replay x;
	vs_replay_config cfg;
	char e[512];

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("nitro-engine-tex");
	cfg.options[0] = "banks=ab";
	ck_assert_ptr_nonnull(vs_test_replay_open(&x, V "arena tex ds-tex banks=A0\nalloc 1 tex 64x32 16c\n", "b.trace",
		&cfg, e, sizeof e));
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_RULE), 1);
	ck_assert_ptr_nonnull(strstr(x.msgs, "uses texture slot 1, which no bank maps"));
	vs_test_replay_close(&x);
}
END_TEST

static Suite *own_banks_suite(void)
{
	Suite *s = suite_create("ds_own_banks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, demo_capture_compares_clean);
	tcase_add_test(tc, nflib_sprite3d_needs_bank_b);
	tcase_add_test(tc, nitro_engine_keeps_to_the_arena);
	tcase_add_test(tc, nitro_engine_banks_option_still_binds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(own_banks_suite());
}
