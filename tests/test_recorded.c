/* SPDX-License-Identifier: Zlib */
/* test_recorded.c - the `recorded` strategy: the game's own placement.
 *
 * The strongest check: replay a trace under some strategy, write down where
 * it put every allocation as at= (at=none where it failed), and replay that
 * under `recorded`: the metrics must come out the same, since `recorded`
 * places exactly as the first strategy did. Then the game bugs it must show
 * as the integrity errors they are, and the input it must refuse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vram/arena.h"

static const vs_strategy *must_find(const char *name)
{
	const vs_strategy *s = vs_strategy_find(name);

	ck_assert_msg(s != NULL, "no strategy %s", name);
	return s;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* ---- the game's answer to every alloc event, by event number ----------- */

typedef struct answers {
	uint8_t *kind;  /* VS_AT_* per event */
	uint32_t *addr;
	uint64_t n, cap;
} answers;

static void on_outcome(void *ud, vs_replay *r, const vs_outcome *o)
{
	answers *a = ud;
	const vs_arena *ar;

	if (o->event >= a->cap) {
		uint64_t cap = (o->event + 1) * 2;
		a->kind = realloc(a->kind, cap);
		a->addr = realloc(a->addr, cap * sizeof *a->addr);
		ck_assert(a->kind && a->addr);
		memset(a->kind + a->cap, 0, cap - a->cap);
		a->cap = cap;
	}
	if (o->ev->type != VS_EV_ALLOC)
		return;
	if (o->failed) {
		a->kind[o->event] = VS_AT_FAILED;
	} else if (o->live) {
		ar = vs_replay_arena(r, (int)o->live->arena);
		a->kind[o->event] = VS_AT_ADDR;
		a->addr[o->event] = ar->decl.base + o->live->pl.offset;
	}
}

static vs_replay *open_replay(const char *path, FILE *fp, const vs_strategy *s, answers *obs, char *err)
{
	vs_trace_reader *rd = fp ? vs_trace_open_stream(fp, path, err, 1024) : vs_trace_open(path, err, 1024);
	vs_replay_config cfg;
	vs_replay *r;
	int i;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	for (i = 0; i < vs_trace_header_of(rd)->narenas; i++)
		if (vs_strategy_manages(s, vs_trace_header_of(rd)->arenas[i].kind))
			cfg.strategy[i] = s;
	cfg.message = quiet;
	if (obs) {
		cfg.observer = on_outcome;
		cfg.observer_ud = obs;
	}
	r = vs_replay_new(rd, &cfg, err, 1024);
	ck_assert_msg(r != NULL, "%s", err);
	return r;
}

/* The trace at path again, every alloc carrying the answer in a. */
static char *with_answers(const char *path, const answers *a, size_t *len)
{
	char err[1024], *text = NULL;
	FILE *out = open_memstream(&text, len);
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_event ev;
	uint64_t n = 0;
	int rc;

	ck_assert_msg(rd != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_write_header(out, vs_trace_header_of(rd)), 0);
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		n++;
		if (ev.type == VS_EV_ALLOC) {
			ck_assert_uint_lt(n, a->cap);
			ev.req.has_at = a->kind[n];
			ev.req.at = a->addr[n];
			ck_assert_msg(ev.req.has_at, "event %llu got no answer", (unsigned long long)n);
		}
		ck_assert_int_eq(vs_trace_write_event(out, vs_trace_header_of(rd), &ev), 0);
	}
	ck_assert_int_eq(rc, 0);
	vs_trace_close(rd);
	fclose(out);
	return text;
}

/* Replays path under s, then under recorded at s's addresses; returns both. */
static void same_as(const char *trace, const char *name, vs_metrics *orig, vs_metrics *rec, int arena)
{
	char path[512], err[1024], *text;
	const vs_strategy *s = must_find(name);
	answers a = { NULL, NULL, 0, 0 };
	vs_replay *r;
	size_t len;
	FILE *fp;

	snprintf(path, sizeof path, "%s/traces/%s", VS_SOURCE_DIR, trace);
	r = open_replay(path, NULL, s, &a, err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	*orig = *vs_replay_metrics(r, arena);
	vs_replay_free(r);

	text = with_answers(path, &a, &len);
	fp = fmemopen(text, len, "rb");
	r = open_replay(trace, fp, must_find("recorded"), NULL, err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s", vs_replay_error(r));
	ck_assert_msg(vs_replay_check_total(r) == 0, "%s under recorded: %llu integrity errors", trace,
		(unsigned long long)vs_replay_check_total(r));
	ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DIVERGENCE), 0);
	*rec = *vs_replay_metrics(r, arena);
	vs_replay_free(r);
	fclose(fp);
	free(text);
	free(a.kind);
	free(a.addr);
}

static void assert_same_books(const vs_metrics *a, const vs_metrics *b)
{
	int k;

	ck_assert_uint_eq(a->allocs, b->allocs);
	ck_assert_uint_eq(a->frees, b->frees);
	ck_assert_uint_eq(a->failures, b->failures);
	for (k = 0; k < VS_FAIL_KINDS; k++)
		ck_assert_uint_eq(a->fail[k], b->fail[k]);
	ck_assert_uint_eq(a->peak_live, b->peak_live);
}

/* Arena 0 of trace under name, then under recorded: the same books and
 * the same peak fragmentation (no headers the trace cannot show). */
static void same_placement(const char *trace, const char *name, vs_metrics *o, vs_metrics *r)
{
	same_as(trace, name, o, r, 0);
	assert_same_books(o, r);
	ck_assert_double_eq_tol(o->peak_frag, r->peak_frag, 1e-12);
}

START_TEST(obj_placement_reproduced_exactly)
{
	static const char *const names[] = { "gba-obj-map", "gba-obj-first-fit", "gba-obj-buddy", "gba-obj-ends" };
	vs_metrics o, r;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		same_placement("gba-sprite-churn-1.trace", names[i], &o, &r);
		ck_assert_uint_gt(o.failures, 0); /* the trace tests failures too */
		/* no headers in OBJ VRAM: free space is the same to the byte */
		ck_assert_uint_eq(o.high_water, r.high_water);
		ck_assert_double_eq_tol(o.frag_sum, r.frag_sum, 1e-6);
	}
}
END_TEST

START_TEST(bitmap_mode_and_level_changes_reproduced)
{
	vs_metrics o, r;

	same_placement("gba-bitmap-racer-1.trace", "gba-obj-best-fit-end", &o, &r);
	same_placement("gba-level-change-1.trace", "gba-obj-snug", &o, &r);
}
END_TEST

START_TEST(bg_tile_hits_reproduced)
{
	vs_metrics o, r;

	/* the split manager keeps no tile of its own loaded, so every hit is
	 * a hit on a live allocation and the books agree exactly */
	same_as("gba-side-scroller-1.trace", "gba-bg-tiles-split", &o, &r, 0);
	ck_assert_uint_gt(o.shared_hits, 1000);
	assert_same_books(&o, &r);
	ck_assert_uint_eq(o.shared_hits, r.shared_hits);
	ck_assert_uint_eq(o.peak_granted, r.peak_granted);
}
END_TEST

START_TEST(ds_and_ram_reproduced)
{
	vs_metrics o, r;

	same_placement("ds-levels.trace", "ds-tex-pair", &o, &r);
	/* heaps keep headers the trace cannot show: requests and failures agree */
	same_as("heap-malloclab-mix.trace", "heap-first-fit", &o, &r, 0);
	assert_same_books(&o, &r);
}
END_TEST

/* ---- hand-made traces -------------------------------------------------- */

static vs_replay *replay_text(const char *text, FILE **fp, int *rc)
{
	char err[1024];
	vs_replay *r;

	*fp = fmemopen((void *)text, strlen(text), "rb");
	r = open_replay("t", *fp, must_find("recorded"), NULL, err);
	*rc = vs_replay_run(r, 0);
	return r;
}

START_TEST(game_bugs_are_integrity_errors)
{
	FILE *fp;
	int rc;
	vs_replay *r = replay_text("vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 32x32 4bpp at=0x06010000\n"
		"alloc 2 sprite 16x16 4bpp at=0x06010040\n" /* inside sprite 1 */
		"alloc 3 sprite 8x8 8bpp at=0x06010410\n",  /* 8bpp off its 32-byte tile */
		&fp, &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_OVERLAP), 1);
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_RULE), 1);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(recorded_failures_replay_as_failures)
{
	FILE *fp;
	int rc;
	vs_replay *r = replay_text("vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 64x64 4bpp at=0x06010000\n"
		"alloc 2 sprite 64x64 4bpp at=none\n"
		"free 1\n",
		&fp, &rc);
	const vs_metrics *m = vs_replay_metrics(r, 0);

	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(m->allocs, 1);
	ck_assert_uint_eq(m->failures, 1);
	ck_assert_uint_eq(m->fail[VS_FAIL_FRAGMENTED], 1); /* room enough: the game failed anyway */
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(bg_hits_share_the_ram_tile)
{
	FILE *fp;
	int rc;
	vs_replay *r = replay_text("vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tile 7 4bpp at=0x06000020\n"
		"alloc 2 tile 7 4bpp at=0x06000020\n"
		"alloc 3 tile 9 4bpp at=0x06000040\n"
		"free 1\n"
		"alloc 4 tile 9 4bpp at=0x06000020\n", /* tile 7 still live there (id 2) */
		&fp, &rc);
	const vs_metrics *m = vs_replay_metrics(r, 0);

	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(m->shared_hits, 1);
	/* ids 2 and 3, and id 4, which overwrote id 2's tile: a broken placement */
	ck_assert_uint_eq(m->live_count, 3);
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_OVERLAP), 1);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(alloc_without_address_is_an_input_error)
{
	FILE *fp;
	int rc;
	vs_replay *r = replay_text("vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 8x8 4bpp at=0x06010000\n"
		"alloc 2 sprite 8x8 4bpp\n",
		&fp, &rc);

	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(vs_replay_error(r), "t:4: error: recorded places") != NULL, "%s", vs_replay_error(r));
	ck_assert_msg(strstr(vs_replay_error(r), "id 2 has no at=") != NULL, "%s", vs_replay_error(r));
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(other_strategies_report_where_the_game_differed)
{
	char err[1024];
	const char *text = "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 8x8 4bpp at=0x06010100\n"
		"alloc 2 sprite 8x8 4bpp at=none\n";
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");
	vs_replay *r = open_replay("t", fp, must_find("gba-obj-first-fit"), NULL, err);

	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DIVERGENCE), 2);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(heap_routing_finds_the_heap_that_holds_the_address)
{
	FILE *fp;
	int rc;
	vs_replay *r = replay_text("vramsim-trace 1\n"
		"arena a ram size=4096 base=0x02000000\n"
		"arena b ram size=4096 base=0x02001000\n"
		"heaps\n"
		"search both a b\n"
		"alloc 1 both 100 at=0x02001010\n"
		"alloc 2 both 100 at=0x02000000\n",
		&fp, &rc);

	ck_assert_msg(rc == 0, "%s", vs_replay_error(r));
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->allocs, 1);
	ck_assert_uint_eq(vs_replay_metrics(r, 1)->allocs, 1);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

/* Random requests at random addresses, with random frees: overlaps, odd
 * tiles, addresses in reserved memory and runs past the end must each be a
 * check or a failure, never a crash (the suite runs under ASan too). */
START_TEST(hostile_addresses_never_crash)
{
	static const char *const arenas[] = {
		"arena a gba-obj mode=4", "arena a gba-bg", "arena a ds-tex banks=A0C2", "arena a ds-pltt",
		"arena a ram size=4096 base=0x02000000 unit=4",
	};
	static const uint32_t base[] = { 0x06010000, 0x06000000, 0, 0, 0x02000000 };
	static const uint32_t span[] = { 0x8000, 0x10000, 0x80000, 0x18000, 4096 };
	static const char *const reqs[] = {
		"sprite 32x32 8bpp", "tile %u 4bpp", "tex 32x32 4x4", "pltt 16", "%u",
	};
	size_t k;

	for (k = 0; k < sizeof arenas / sizeof arenas[0]; k++) {
		vs_rng rng = { 77 + k };
		size_t cap = 1 << 16, n = 0;
		char *text = malloc(cap), req[64];
		uint32_t i, live = 0;
		FILE *fp;
		int rc;
		vs_replay *r;

		n += (size_t)snprintf(text + n, cap - n, "vramsim-trace 1\n%s\n", arenas[k]);
		for (i = 1; i <= 400; i++) {
			uint32_t at = base[k] + (vs_rng_below(&rng, span[k] / 4) * 4);
			snprintf(req, sizeof req, reqs[k], 1 + vs_rng_below(&rng, 40));
			if (live && vs_rng_below(&rng, 3) == 0)
				n += (size_t)snprintf(text + n, cap - n, "free %u\n", 1 + vs_rng_below(&rng, i - 1));
			else if (vs_rng_below(&rng, 10) == 0)
				n += (size_t)snprintf(text + n, cap - n, "alloc %u %s at=none\n", i, req);
			else
				n += (size_t)snprintf(text + n, cap - n, "alloc %u %s at=0x%x\n", i, req, (unsigned)at);
			live++;
		}
		r = replay_text(text, &fp, &rc);
		ck_assert_msg(rc == 0, "%s: %s", arenas[k], vs_replay_error(r));
		vs_replay_free(r);
		fclose(fp);
		free(text);
	}
}
END_TEST

/* ---- the command line --------------------------------------------------- */

START_TEST(compare_shows_what_the_game_did)
{
	char out[16384], err[4096], args[1024];
	const char *with = vs_test_file(0, "addressed.trace", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 32x32 4bpp at=0x06010200 tag=player\n"
		"alloc 2 sprite 16x16 4bpp at=0x06010000\n"
		"free 2\nframe\n");
	const char *without = vs_test_file(1, "bare.trace", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 32x32 4bpp\n");
	int rc;

	snprintf(args, sizeof args, "compare --no-timing '%s'", with);
	rc = vs_test_run_cli(args, out, sizeof out, err, sizeof err);
	ck_assert_msg(rc == 0, "%d %s", rc, err);
	ck_assert_msg(strstr(out, " recorded ") != NULL, "%s", out);
	snprintf(args, sizeof args, "compare --no-timing '%s'", without);
	rc = vs_test_run_cli(args, out, sizeof out, err, sizeof err);
	ck_assert_msg(rc == 0, "%d %s", rc, err);
	ck_assert_msg(strstr(out, "recorded") == NULL, "%s", out);
	snprintf(args, sizeof args, "replay '%s' --strategy recorded", without);
	rc = vs_test_run_cli(args, out, sizeof out, err, sizeof err);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "bare.trace:3: error: recorded places") != NULL, "%s", err);
}
END_TEST

/* A 2D obj arena with no strategy named gets one that takes it (recorded),
 * and the other arenas their defaults: a captured 2D game replays and
 * compares with no option; naming a 1D-only strategy is refused. */
START_TEST(default_strategy_takes_a_2d_arena)
{
	const char *trace = vs_test_file(5, "recorded-2d-default.trace",
		"vramsim-trace 1\narena obj gba-obj map=2d\narena bg gba-bg\n"
		"alloc 1 obj sprite 16x16 4bpp at=0x06010000\nalloc 2 bg tile 3 4bpp at=0x06000020\n"
		"alloc 3 bg tile 4 4bpp at=0x06000040\nframe\nfree 1\nframe\n");
	char args[1024], out[8192], err[4096];

	snprintf(args, sizeof args, "replay '%s'", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(out, "arena obj: gba-obj, 32768 bytes at 0x06010000 (32768 usable), strategy recorded"));
	ck_assert_ptr_nonnull(strstr(out, "strategy gba-bg-tiles"));
	snprintf(args, sizeof args, "compare '%s' --no-timing", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_null(strstr(out, "refused"));
	ck_assert_ptr_nonnull(strstr(out, "gba-bg-tiles-split"));
	snprintf(args, sizeof args, "replay '%s' -s gba-obj-map", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "for 1D OBJ mapping only"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("recorded");
	TCase *tc = tcase_create("recorded");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, obj_placement_reproduced_exactly);
	tcase_add_test(tc, bitmap_mode_and_level_changes_reproduced);
	tcase_add_test(tc, bg_tile_hits_reproduced);
	tcase_add_test(tc, ds_and_ram_reproduced);
	tcase_add_test(tc, game_bugs_are_integrity_errors);
	tcase_add_test(tc, recorded_failures_replay_as_failures);
	tcase_add_test(tc, bg_hits_share_the_ram_tile);
	tcase_add_test(tc, alloc_without_address_is_an_input_error);
	tcase_add_test(tc, other_strategies_report_where_the_game_differed);
	tcase_add_test(tc, heap_routing_finds_the_heap_that_holds_the_address);
	tcase_add_test(tc, hostile_addresses_never_crash);
	tcase_add_test(tc, compare_shows_what_the_game_did);
	tcase_add_test(tc, default_strategy_takes_a_2d_arena);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
