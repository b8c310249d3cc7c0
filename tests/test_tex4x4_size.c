/* SPDX-License-Identifier: Zlib */
/* test_tex4x4_size.c - a 4x4 texture asked for by its texel bytes, `tex N
 * 4x4` (NNS_GfdAllocTexVram(N, TRUE, opt): a model's 4x4 textures at once):
 *  - the reader takes N as any number (0x, K), refuses other formats by
 *    size, 0 and more than a slot, at file:line:col; `vramsim fmt` writes
 *    it back, one arena named `tex` included;
 *  - the texel data ties its index data, half as large, in slot 1: a game's
 *    placement over it is an integrity error;
 *  - nns-lnk-tex and nns-frm-tex give the keys the managers give for
 *    (N, is4x4comp TRUE); ds-tex-pair and nitro-engine-tex (multiples of
 *    16) place it, libnds-tex and nflib-sprite3d refuse it unsupported.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vramsim/alloc/nns_gfd.h"

#define V "vramsim-trace 1\n"

static char out[1 << 16], err[1 << 16];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* validate of one alloc line: its exit, err holding want when want is set */
static void validate(const char *line, int rc, const char *want)
{
	char text[256];

	snprintf(text, sizeof text, V "arena tex ds-tex\narena pal ds-pltt\n%s\n", line);
	ck_assert_int_eq(cli("validate %s", vs_test_file(0, "t.trace", text)), rc);
	if (want)
		ck_assert_msg(strstr(err, want) != NULL, "%s: %s", line, err);
}

START_TEST(reader)
{
	validate("alloc 1 tex tex 3072 4x4", 0, NULL);
	validate("alloc 1 tex tex 0xc00 4x4 opt=1", 0, NULL);
	validate("alloc 1 tex tex 3K 4x4 tag=level", 0, NULL);
	validate("alloc 1 tex tex 128K 4x4", 0, NULL);
	validate("alloc 1 tex tex 3072 16c", 2, "t.trace:4:17: error: tex: a size in bytes is for 4x4 textures");
	validate("alloc 1 tex tex 0 4x4", 2, "t.trace:4:17: error: tex: 0 bytes of 4x4 texel data");
	validate("alloc 1 tex tex 131073 4x4", 2, "t.trace:4:17: error: tex: 131073 bytes of 4x4 texel data do not fit");
	validate("alloc 1 tex tex 3072 4x5", 2, "t.trace:4:22: error: tex: unknown format '4x5'");
	validate("alloc 1 tex tex 12ab 4x4", 2, "t.trace:4:17: error:");
	validate("alloc 1 tex tex 3072", 2, "t.trace:4:");
}
END_TEST

/* fmt writes it back, and reading that gives the same */
START_TEST(canonical)
{
	const char *one = vs_test_file(0, "one.trace", V "arena tex ds-tex\nalloc 1 tex 0xc00 4x4 dir=low\n"
		"alloc 2 tex tex 1K 4x4\nalloc 3 tex 16 4x4 tag=a\n");
	const char *two = vs_test_file(1, "two.trace", V "arena tex ds-tex\narena pal ds-pltt\n"
		"alloc 1 tex tex 3072 4x4 at=0x200\n");

	ck_assert_int_eq(cli("fmt %s", one), 0);
	ck_assert_str_eq(out, V "arena tex ds-tex\nalloc 1 tex 3072 4x4 dir=low\nalloc 2 tex 1024 4x4\n"
		"alloc 3 tex 16 4x4 tag=a\n");
	ck_assert_int_eq(cli("fmt %s", vs_test_file(2, "again.trace", out)), 0);
	ck_assert_str_eq(out, V "arena tex ds-tex\nalloc 1 tex 3072 4x4 dir=low\nalloc 2 tex 1024 4x4\n"
		"alloc 3 tex 16 4x4 tag=a\n");
	ck_assert_int_eq(cli("fmt %s", two), 0);
	ck_assert_msg(strstr(out, "alloc 1 tex tex 3072 4x4 at=0x200\n") != NULL, "%s", out);
}
END_TEST

/* The index data is the texel data's tie: slot 1 at 0x20000 + off / 2. */
START_TEST(index_data_is_tied)
{
	vs_test_replay x;
	vs_replay_config cfg;
	char e[512];

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("recorded");
	ck_assert_ptr_nonnull(vs_test_replay_open(&x, V "arena tex ds-tex\nalloc 1 tex 3072 4x4 at=0x800\n"
		"alloc 2 tex 64x64 16c at=0x20400\n", "b.trace", &cfg, e, sizeof e));
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_OVERLAP), 1); /* [0x20400, 0x20a00) is id 1's index */
	vs_test_replay_close(&x);
	/* texel data outside slots 0 and 2 */
	ck_assert_ptr_nonnull(vs_test_replay_open(&x, V "arena tex ds-tex\nalloc 1 tex 3072 4x4 at=0x20000\n",
		"b.trace", &cfg, e, sizeof e));
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_RULE), 1);
	vs_test_replay_close(&x);
}
END_TEST

/* The NITRO-System managers: the keys of NNS_GfdAllocTexVram(N, TRUE, 0),
 * with normal textures between, against the manager called directly. */
START_TEST(nns_keys)
{
	static const uint32_t sizes[] = { 3072, 24, 0x2a10, 16, 5000, 0x1800, 7 };
	const char *names[2] = { "nns-lnk-tex", "nns-frm-tex" };
	nns_gfd_ctx *g = malloc(NNS_GFD_CTX_BYTES(64));
	vs_test_text t = { NULL, 0, 0 };
	unsigned k, i;

	ck_assert_ptr_nonnull(g);
	vs_test_put(&t, V "arena tex ds-tex\n");
	for (i = 0; i < 7; i++)
		vs_test_put(&t, "alloc %u tex %u 4x4\nalloc %u tex 64x64 256c\n", 2 * i + 1, (unsigned)sizes[i], 2 * i + 2);
	for (k = 0; k < 2; k++) {
		vs_test_replay x;
		vs_replay *r = vs_test_replay_run(&x, names[k], t.s, "");
		nns_tex_key want;

		nns_gfd_init(g, k ? 0 : 64);
		ck_assert(k ? nns_frm_tex_init(g, 4, true) : nns_lnk_tex_init(g, 0x80000u, 0x20000u, 0, 64, true));
		for (i = 0; i < 7; i++) {
			want = nns_gfd_alloc_tex(g, sizes[i], true, 0);
			ck_assert_msg(want != 0, "%s: %u", names[k], i);
			ck_assert_int_eq(vs_test_offset_of(r, 2 * i + 1), (long)nns_tex_key_addr(want));
			want = nns_gfd_alloc_tex(g, 64 * 64, false, 0);
			ck_assert_int_eq(vs_test_offset_of(r, 2 * i + 2), (long)nns_tex_key_addr(want));
		}
		vs_test_replay_close(&x);
	}
	free(t.s);
	free(g);
}
END_TEST

/* The other strategies of a texture arena: as their libraries can. */
START_TEST(other_strategies)
{
	static const struct { const char *name; unsigned placed; } s[] = {
		{ "ds-tex-pair", 3 }, { "nitro-engine-tex", 2 }, { "libnds-tex", 0 }, { "nflib-sprite3d", 0 },
	};
	const char *text = V "arena tex ds-tex\nalloc 1 tex 3072 4x4\nalloc 2 tex 4096 4x4\nalloc 3 tex 24 4x4\n";
	unsigned k;

	for (k = 0; k < 4; k++) {
		vs_test_replay x;
		vs_replay *r = vs_test_replay_run(&x, s[k].name, text, "");
		const vs_metrics *m = vs_replay_metrics(r, 0);

		ck_assert_msg(m->allocs == s[k].placed, "%s: %llu placed", s[k].name, (unsigned long long)m->allocs);
		ck_assert_uint_eq(m->fail[VS_FAIL_UNSUPPORTED], 3 - s[k].placed);
		vs_test_replay_close(&x);
	}
}
END_TEST

static Suite *tex4x4_suite(void)
{
	Suite *s = suite_create("tex4x4_size");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reader);
	tcase_add_test(tc, canonical);
	tcase_add_test(tc, index_data_is_tied);
	tcase_add_test(tc, nns_keys);
	tcase_add_test(tc, other_strategies);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(tex4x4_suite());
}
