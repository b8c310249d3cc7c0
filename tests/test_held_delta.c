/* SPDX-License-Identifier: Zlib */
/* test_held_delta.c - what strategies keep for themselves, applied as
 * deltas, leaves the map a full recount would: after every event of heap
 * churn the management bytes are the units the allocator owns, each of
 * them overhead. (Extents let go of are covered step by step by
 * test_heap_held's bank_segments_follow.) */
#include <stdlib.h>

#include "support.h"
#include "gen/gen_heap.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vram/arena.h"

static const char *const strategies[] = { "heap-bank", "heap-pow2-pools", "heap-tracking", "heap-dlmalloc",
	"heap-tlsf" };

static uint64_t checked;

static void recount(void *ud, vs_replay *r, const vs_outcome *o)
{
	const vs_arena *a = vs_replay_arena(r, 0);
	uint64_t n = 0;
	uint32_t u;
	vs_own_run run;

	(void)ud;
	(void)o;
	for (u = 0; vs_arena_run_at(a, u, &run) == 0; u = run.first + run.count) {
		if (run.owner == VS_OWNER_ALLOC) {
			HOT_ASSERT(run.kind == VS_UNIT_OVERHEAD, "unit %u: the allocator's, kind %u", u, run.kind);
			n += run.count;
		}
	}
	HOT_CMP(vs_replay_metrics(r, 0)->management_bytes, ==, n * a->decl.unit);
	checked += n;
}

START_TEST(held_deltas_match_a_recount)
{
	char err[256];
	vs_gen_opts o;
	vs_gen_heap_opts h;
	FILE *fp = tmpfile();
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 60;
	h.arena_size = 64u << 10;
	h.sizes.hi = 512;
	h.lifetime.lo = 40;
	h.allocs = 8;
	if (_i == 0) {
		/* 32-byte cells, 64 a segment: segments added as the churn grows */
		h.sizes.kind = VS_DIST_UNIFORM;
		h.sizes.lo = 1;
		h.sizes.hi = 32;
	}
	ck_assert_int_eq(vs_gen_heap_churn_with(fp, &o, &h, err, sizeof err), 0);
	/* a reset lets go of what the strategy kept, then the churn again
	 * (its header left out): extents go as well as come */
	{
		FILE *again = tmpfile();
		char line[256];
		int n = 0;
		o.seed = 2;
		ck_assert_int_eq(vs_gen_heap_churn_with(again, &o, &h, err, sizeof err), 0);
		rewind(again);
		fputs("reset\n", fp);
		while (fgets(line, sizeof line, again))
			if (n++ >= 2)
				fputs(line, fp);
		fclose(again);
	}
	rewind(fp);
	rd = vs_trace_open_stream(fp, "heap-churn", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(strategies[_i]);
	ck_assert_ptr_nonnull(cfg.strategy[0]);
	cfg.options[0] = _i == 0 ? "cell=32,per=64" : NULL;
	cfg.observer = recount;
	checked = 0;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_gt(checked, 0); /* the strategy did keep some */
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("held_delta");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, held_deltas_match_a_recount, 0, (int)(sizeof strategies / sizeof strategies[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
