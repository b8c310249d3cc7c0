/* SPDX-License-Identifier: Zlib */
/* test_ds_cycles.c - `vramsim cycles` of DS traces: the cycles program
 * (src/console/ds/rom/ds_cycles9.c) run in DeSmuME.
 *  - every DS strategy with a DS build, on a short trace of its arena
 *    with allocations, frees, failures, reallocs, a reset and an init: the DS's
 *    placement after every call equals the host replay's, every call is
 *    timed, and a changed answer is found where it is;
 *  - the command, routed to the ds module by its trace: the tables and
 *    the comparison;
 *  - a list of more requests than a chunk goes over in several chunks;
 *  - the errors: a DS strategy without a DS build, no core (exit 2,
 *    naming the package).
 * Skipped without the cycles ROM (arm-none-eabi-gcc); without the core
 * (Debian: libretro-desmume) only the errors run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "ds_test_rom.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_cycles_host.h"
#include "strategies/registry.h"

static char out[1 << 16], err[1 << 16];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

#define TEX_TRACE "vramsim-trace 1\narena tex ds-tex banks=A0B1C2\n" \
	"alloc 1 tex tex 64x64 256c\nalloc 2 tex tex 32x32 4x4\nalloc 3 tex tex 128x128 16c\nfree 2\n" \
	"alloc 4 tex tex 16x16 4c dir=low\nframe\nrealloc 3 tex tex 64x64 16c\nrealloc 30 tex tex 16x16 16c\n" \
	"free 1\nalloc 5 tex tex 64x32 256c\n" \
	"alloc 6 tex tex 1024x1024 256c\nreset tex\nalloc 7 tex tex 32x32 16c\nalloc 8 tex tex 8x8 4x4\n" \
	"frame\nfree 7\nalloc 9 tex tex 256x256 256c\n"
#define PLTT_TRACE "vramsim-trace 1\narena pal ds-pltt banks=E0\n" \
	"alloc 1 pal pltt 256\nalloc 2 pal pltt 4\nalloc 3 pal pltt 16 dir=low\nalloc 4 pal pltt 16\nfree 2\n" \
	"frame\nalloc 5 pal pltt 8 4c\nrealloc 1 pal pltt 16\nfree 3\nalloc 6 pal pltt 40000\nreset pal\n" \
	"alloc 7 pal pltt 256\n" \
	"alloc 8 pal pltt 4 dir=low\nfree 7\nalloc 9 pal pltt 64\n"
#define OBJ_TRACE "vramsim-trace 1\narena obj ds-obj banks=A0 boundary=128\n" \
	"alloc 1 obj sprite 32x32 8bpp\nalloc 2 obj sprite 8x16 4bpp\nalloc 3 obj sprite 64x64 4bpp\n" \
	"free 2\nframe\nrealloc 3 obj sprite 32x32 4bpp\nalloc 4 obj sprite 16x16 8bpp\nalloc 5 obj sprite 8x8 4bpp\n" \
	"free 1\n" \
	"alloc 6 obj sprite 64x64 8bpp\nreset obj\nalloc 7 obj sprite 32x16 4bpp\nfree 7\nalloc 8 obj sprite 16x8 8bpp\n"

/* NightFox's Lib, mode 64: the free of id 2 leaves 8 KiB fragmented
 * against 15 KiB in a row, and NF compacts (moves) inside it. */
#define NF_TRACE "vramsim-trace 1\narena obj ds-obj banks=B0 boundary=64\n" \
	"alloc 1 obj 8192\nalloc 2 obj 8192\nalloc 3 obj sprite 32x32 8bpp\nalloc 4 obj 8192\nalloc 5 obj 8192\n" \
	"alloc 6 obj 8192\nalloc 7 obj 8192\nfree 2\nframe\nalloc 8 obj sprite 16x16 8bpp\nfree 4\n" \
	"alloc 9 obj sprite 8x8 4bpp\nrealloc 5 obj 4096\nfree 1\nalloc 10 obj 65536\nreset obj\n" \
	"alloc 11 obj 2048\nalloc 12 obj sprite 64x64 8bpp\n"
/* libnds: reallocs taken whole (in place, moved, failed: the name goes),
 * a lock, and bank D leaving and coming back, each a bank request. */
#define LGL_TEX_TRACE "vramsim-trace 1\narena tex ds-tex\n" \
	"alloc 1 tex tex 64x64 256c\nalloc 2 tex tex 32x32 4x4\nalloc 3 tex tex 128x128 16c\nfree 2\n" \
	"alloc 4 tex 3000\nframe\nrealloc 3 tex tex 64x64 16c\nrealloc 3 tex tex 256x256 256c\n" \
	"realloc 30 tex tex 16x16 16c\nlock A\nalloc 5 tex tex 64x32 256c\nunlock A\nfree 1\n" \
	"vramcnt D 0x80\nalloc 6 tex tex 1024x512 256c\nvramcnt D 0x9b\nrealloc 4 tex tex 1024x1024 256c\n" \
	"reset tex\nalloc 7 tex tex 32x32 16c\nalloc 8 tex tex 8x8 4x4\nframe\nfree 7\nalloc 9 tex tex 256x256 256c\n"
#define LGL_PLTT_TRACE "vramsim-trace 1\narena pal ds-pltt banks=E0\n" \
	"alloc 1 pal pltt 256\nalloc 2 pal pltt 4\nalloc 3 pal pltt 16\nfree 2\nframe\nalloc 5 pal pltt 8 4c\n" \
	"realloc 1 pal pltt 16\nrealloc 1 pal pltt 4\nlock E\nalloc 6 pal pltt 16\nunlock E\n" \
	"alloc 11 pal pltt 40000\nfree 3\nreset pal\nalloc 7 pal pltt 256\nalloc 8 pal pltt 4\nfree 7\n" \
	"alloc 9 pal pltt 64\n"

/* Each strategy with its trace, an init line for it, the request of the
 * calls after it, and the calls the list must hold. */
static const struct {
	const char *strategy, *trace, *init, *more;
	unsigned calls;
} runs[] = {
	{ "nns-lnk-tex", TEX_TRACE, "init tex size=0x40000 size4x4=0 blocks=8\n", "tex tex 32x32 16c", 20 },
	{ "nns-frm-tex", TEX_TRACE, "init tex slots=2\n", "tex tex 32x32 16c", 20 },
	{ "ds-tex-pair", TEX_TRACE, "init tex\n", "tex tex 32x32 16c", 20 },
	{ "nns-lnk-pltt", PLTT_TRACE, "init pal size=0x8000 blocks=4\n", "pal pltt 16", 19 },
	{ "nns-frm-pltt", PLTT_TRACE, "init pal size=0x4000\n", "pal pltt 16", 19 },
	{ "ds-pltt-split", PLTT_TRACE, "init pal\n", "pal pltt 16", 19 },
	{ "libnds-sprite", OBJ_TRACE, "init obj mapping=1d-64\n", "obj sprite 16x16 4bpp", 18 },
	{ "nitro-engine-tex", TEX_TRACE, "init tex banks=ab textures=4\n", "tex tex 32x32 16c", 20 },
	{ "nitro-engine-pltt", PLTT_TRACE, "init pal palettes=3\n", "pal pltt 16", 19 },
	{ "nflib-sprite", NF_TRACE, "init obj mode=128\n", "obj 1024", 21 },
	{ "nflib-sprite3d", TEX_TRACE, "init tex fixed=yes\n", "tex tex 32x32 256c", 17 },
	{ "libnds-tex", LGL_TEX_TRACE, "init tex variant=blocksds\n", "tex tex 32x32 16c", 25 },
	{ "libnds-pltt", LGL_PLTT_TRACE, "init pal fixed=yes\n", "pal pltt 16", 21 },
};

#define NRUNS (sizeof runs / sizeof runs[0])

/* The trace text of run i: its trace, its init and a few calls after it. */
static const char *text_of(size_t i)
{
	static char text[2048];

	snprintf(text, sizeof text, "%s%salloc 20 %s\nalloc 21 %s\nfree 20\n", runs[i].trace, runs[i].init,
		runs[i].more, runs[i].more);
	return text;
}

/* The command: routed to the ds module by the trace, its tables, the
 * comparison. */
START_TEST(test_command)
{
	const char *trace = vs_test_file(0, "ds-cycles.trace", text_of(0));
	int rc;

	ds_demo_sanitizer_env();
	rc = cli("cycles %s", trace);
	ck_assert_msg(rc == 0, "exit %d\n%s%s", rc, out, err);
	ck_assert_msg(strstr(out, "arena tex (ds-tex), strategy nns-lnk-tex, 20 calls measured") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "placements: the DS's equal the host replay's (20 calls)") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "ARM946E-S") && strstr(out, "\nalloc ") && strstr(out, "\nfree ") &&
		strstr(out, "\nreset ") && strstr(out, "worst frame: after marker"), "%s", out);
}
END_TEST

/* The list of run i, built by the host replay. */
static vs_cycles_list *host_list(size_t i, const char *text, vs_test_replay *x)
{
	vs_replay_config cfg;
	char e[512];
	vs_cycles_list *l = vs_ds_cycles_list_new();
	const vs_cycles_target *t;
	size_t nt;

	ck_assert_ptr_nonnull(l);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(runs[i].strategy);
	ck_assert_ptr_nonnull(cfg.strategy[0]);
	cfg.observer = vs_cycles_observe;
	cfg.observer_ud = l;
	ck_assert_msg(vs_test_replay_open(x, text, "ds-cycles.trace", &cfg, e, sizeof e) != NULL, "%s", e);
	t = vs_ds_cycles_targets(&nt);
	ck_assert_int_eq(vs_cycles_list_aim(l, x->r, NULL, t, nt), 0);
	ck_assert_int_eq(vs_replay_run(x->r, 0), 0);
	ck_assert_msg(!l->failed, "%s", l->err);
	return l;
}

/* Every strategy in one process (the core loads once): the DS's answer
 * to every request equals the host's, every call is timed, and an answer
 * changed is found where it is. */
START_TEST(test_each_strategy)
{
	/* the sanitizer tree, where each run takes several times longer, runs
	 * every few strategies (vs_test_soak) */
	size_t k, step = (NRUNS + vs_test_soak(NRUNS, NRUNS) - 1) / vs_test_soak(NRUNS, NRUNS);

	for (k = 0; k < NRUNS; k += step) {
		vs_test_replay x;
		vs_cycles_list *l = host_list(k, text_of(k), &x);
		vs_cycles_result *res;
		vs_ds_cycles_info info;
		uint32_t i, got, first_ok = l->n, first_free = l->n, resets = 0, banks = 0, reallocs = 0;
		int hit;

		ck_assert_msg(l->n == runs[k].calls, "%s: %u calls", runs[k].strategy, l->n);
		ck_assert_msg(vs_ds_cycles_measure(l, 0, &res, &info, err, sizeof err) == 0, "%s: %s",
			runs[k].strategy, err);
		ck_assert_msg(vs_cycles_next_diff(l, res, 0, &got, &hit) == l->n, "%s: request %u differs",
			runs[k].strategy, vs_cycles_next_diff(l, res, 0, &got, &hit));
		for (i = 0; i < l->n; i++) {
			if (l->rq[i].op == VS_CYCLES_OP_RESET) {
				ck_assert_uint_gt(res[i].cycles, 0);
				resets++;
			}
			if (l->rq[i].op == VS_CYCLES_OP_BANK) {
				ck_assert_uint_eq(res[i].cycles, 0); /* a register write: untimed */
				banks++;
			}
			if (l->rq[i].op == VS_CYCLES_OP_FREE && first_free == l->n)
				first_free = i;
			reallocs += l->rq[i].op == VS_CYCLES_OP_ALLOC && (l->rq[i].flags & VS_CYCLES_F_REALLOC);
			if (l->rq[i].op != VS_CYCLES_OP_ALLOC || l->calls[i].expect == VS_CYCLES_NONE)
				continue;
			/* every allocation costs something, and less than a frame */
			ck_assert_msg(res[i].cycles > 0 && res[i].cycles < VS_DS_FRAME_TICKS, "%s: request %u: %u ticks",
				runs[k].strategy, i, res[i].cycles);
			if (first_ok == l->n)
				first_ok = i;
		}
		ck_assert_uint_eq(resets, 2); /* the reset and the init */
		/* libnds: the lock, the unlock and two VRAMCNT writes (or one lock
		 * and unlock) reach the DS; its reallocs of live ids are taken whole
		 * (textures 3, the last failing; palettes 2) */
		ck_assert_uint_eq(banks, l->t->banks ? (strstr(runs[k].trace, "vramcnt") ? 4u : 2u) : 0u);
		ck_assert_uint_eq(reallocs, l->t->banks ? (strstr(runs[k].trace, "vramcnt") ? 3u : 2u) : 0u);
		/* NightFox's Lib: where its graphics sit after a free (its
		 * compaction), the DS's digest equal to the host's, and a change
		 * found there */
		if (l->t->free_digest) {
			ck_assert_uint_lt(first_free, l->n);
			res[first_free].value ^= 1;
			ck_assert_uint_eq(vs_cycles_next_diff(l, res, 0, &got, &hit), first_free);
			res[first_free].value ^= 1;
		}
		ck_assert(info.overhead2 > 0 && info.overhead4 >= info.overhead2);
		ck_assert_uint_eq(info.chunks, 1);
		/* an answer changed is found at its request */
		res[first_ok].value ^= 0x8;
		ck_assert_uint_eq(vs_cycles_next_diff(l, res, 0, &got, &hit), first_ok);
		free(res);
		vs_cycles_list_free(l);
		vs_test_replay_close(&x);
	}
}
END_TEST

/* More requests than one chunk holds: they go over in two. */
START_TEST(test_chunks)
{
	vs_test_text t = { NULL, 0, 0 };
	vs_test_replay x;
	vs_cycles_list *l;
	vs_cycles_result *res;
	vs_ds_cycles_info info;
	uint32_t i, got;
	int hit;

	vs_test_put(&t, "vramsim-trace 1\narena pal ds-pltt banks=E0\n");
	for (i = 0; i < VS_DS_CYC_CHUNK + 100; i++)
		vs_test_put(&t, "alloc %u pal pltt 16\nfree %u\n", i + 1, i + 1);
	l = host_list(4, t.s, &x); /* nns-frm-pltt: the cheapest calls (the last find it full) */
	ck_assert_uint_gt(l->n, VS_DS_CYC_CHUNK);
	ck_assert_msg(vs_ds_cycles_measure(l, 0, &res, &info, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(info.chunks, 2);
	ck_assert_uint_eq(vs_cycles_next_diff(l, res, 0, &got, &hit), l->n);
	free(res);
	vs_cycles_list_free(l);
	vs_test_replay_close(&x);
	free(t.s);
}
END_TEST

START_TEST(test_errors)
{
	const char *trace = vs_test_file(0, "ds-cycles.trace", text_of(0));

	ds_demo_sanitizer_env();
	/* an arena whose strategy the program does not carry */
	ck_assert_int_eq(cli("cycles %s", vs_test_file(1, "ds-cycles-bg.trace", "vramsim-trace 1\narena bg ds-bg\n"
		"alloc 1 bg tile 1 4bpp\n")), 2);
	ck_assert_msg(strstr(err, "uses a strategy with a DS build (nns-lnk-tex,") && strstr(err, "libnds-pltt)"),
		"%s", err);
	ck_assert_int_eq(cli("cycles %s --arena nope", trace), 2);
	ck_assert_ptr_nonnull(strstr(err, "no arena 'nope'"));
	/* DS help */
	ck_assert_int_eq(cli("cycles %s --help", trace), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: vramsim cycles DS.trace"));
	ck_assert_ptr_nonnull(strstr(out, "strategies with a DS build: nns-lnk-tex"));
	/* no core: the package named, exit 2 */
	setenv("VRAMSIM_DESMUME_CORE", "/nonexistent/desmume_libretro.so", 1);
	ck_assert_int_eq(cli("cycles %s", trace), 2);
	ck_assert_msg(strstr(err, VS_DS_CORE_PACKAGE) != NULL, "%s", err);
	unsetenv("VRAMSIM_DESMUME_CORE");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_cycles");
	TCase *tc = tcase_create("core");
	const char *no_core = ds_test_core_missing();

	/* said before the emulator starts: they need the ROM, not the core */
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	tc = vs_test_tcase_apart(s, "command", no_core);
	tcase_add_test(tc, test_command);
	tc = vs_test_tcase_apart(s, "chunks", no_core);
	tcase_add_test(tc, test_chunks);
	tc = vs_test_tcase_apart(s, "strategies", no_core);
	tcase_add_test(tc, test_each_strategy);
	return s;
}

int main(void)
{
	static char why[1200];
	char e[512];

	if (!vs_ds_cycles_rom(why, sizeof why, e, sizeof e))
		vs_test_require(e);
	else if (!vs_test_exists(why)) {
		snprintf(e, sizeof e, "no DS cycles ROM at %s (build vs_ds_rom_cycles; needs gcc-arm-none-eabi)", why);
		vs_test_require(e);
	}
	return vs_test_main(suite());
}
