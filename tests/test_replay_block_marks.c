/* SPDX-License-Identifier: Zlib */
/* test_replay_block_marks.c - a heap block's marks in the ownership map.
 *
 * The replay checks and marks a heap block in one look-up (its header,
 * data, slack and tail: vs_arena_take_block, held to the old three calls by
 * test_take_block); with a mark observer it then tells the observer each
 * piece. Both must leave the same map, run for run, and the observer must
 * hear of marks: the same trace of heap churn is replayed both ways
 * through several heaps, the maps compared at several points, and every live
 * block checked to be its header and padding as overhead, its requested
 * bytes as data and the rest of its grant as slack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vram/arena.h"

/* Heap churn in 64 KiB: sizes 1 to 3000, frees in any order. */
static char *churn_text(uint32_t events)
{
	size_t cap = 64 + (size_t)events * 32, len;
	char *t = malloc(cap);
	uint64_t live[512], next = 1;
	uint32_t nlive = 0, e;
	vs_rng r = { 11 };

	ck_assert_ptr_nonnull(t);
	len = (size_t)snprintf(t, cap, "vramsim-trace 1\narena heap ram size=65536\n");
	for (e = 0; e < events; e++) {
		if (nlive && (nlive == 512 || vs_rng_below(&r, 100) < 48)) {
			uint32_t i = vs_rng_below(&r, nlive);

			len += (size_t)snprintf(t + len, cap - len, "free %llu\n", (unsigned long long)live[i]);
			live[i] = live[--nlive];
		} else {
			uint32_t size = 1u + vs_rng_below(&r, vs_rng_below(&r, 4) ? 200u : 3000u);

			len += (size_t)snprintf(t + len, cap - len, "alloc %llu %u\n", (unsigned long long)next, size);
			live[nlive++] = next++;
		}
	}
	return t;
}

static void no_marks(void *ud, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	(void)arena;
	(void)off;
	(void)len;
	(void)owner;
	(void)kind;
	++*(uint64_t *)ud;
}

static vs_replay *open_replay(vs_test_replay *x, const char *text, const char *strategy, vs_mark_fn on_mark,
	uint64_t *marks)
{
	char err[512];
	vs_replay_config cfg;

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(strategy);
	ck_assert_msg(cfg.strategy[0] != NULL, "no strategy %s", strategy);
	cfg.on_mark = on_mark;
	cfg.mark_ud = marks;
	ck_assert_msg(vs_test_replay_open(x, text, "b.trace", &cfg, err, sizeof err) != NULL, "%s", err);
	return x->r;
}

/* The two arenas' maps hold the same runs. */
static void same_maps(const vs_arena *a, const vs_arena *b, uint64_t at)
{
	vs_own_run ra, rb;
	uint32_t u = 0, runs = 0;

	while (u < a->nunits) {
		ck_assert_int_eq(vs_arena_run_at(a, u, &ra), 0);
		ck_assert_int_eq(vs_arena_run_at(b, u, &rb), 0);
		HOT_ASSERT(ra.first == rb.first && ra.count == rb.count && ra.owner == rb.owner && ra.kind == rb.kind,
			"event %llu, unit %u: run [%u, +%u) owner %u kind %d, marked one by one [%u, +%u) owner %u kind %d",
			(unsigned long long)at, u, ra.first, ra.count, ra.owner, (int)ra.kind, rb.first, rb.count, rb.owner,
			(int)rb.kind);
		u = ra.first + ra.count;
		runs++;
	}
	ck_assert_uint_gt(runs, 1);
}

typedef struct block_check {
	const vs_arena *a;
	uint32_t pieces; /* blocks with overhead and slack both */
} block_check;

/* The kind of every unit of a live block: header and padding overhead, the
 * request data, the grant past it slack. */
static void check_block(void *ud, const vs_live *l)
{
	block_check *c = ud;
	const vs_placement *pl = &l->pl;
	uint32_t data = l->req.size < pl->granted ? l->req.size : pl->granted, u;
	vs_own_run run;

	if (l->retained)
		return;
	for (u = pl->block_offset; u < pl->block_offset + pl->block_size; u = run.first + run.count) {
		vs_unit_kind want = u < pl->offset || u >= pl->offset + pl->granted ? VS_UNIT_OVERHEAD :
			u < pl->offset + data ? VS_UNIT_DATA : VS_UNIT_SLACK;

		ck_assert_int_eq(vs_arena_run_at(c->a, u, &run), 0);
		HOT_ASSERT(run.kind == want, "id %llu: unit 0x%x is kind %d, not %d", (unsigned long long)l->id, u,
			(int)run.kind, (int)want);
	}
	if (pl->offset > pl->block_offset && pl->granted > data)
		c->pieces++;
}

static const char *const heaps[] = { "heap-dlmalloc", "heap-tlsf", "heap-first-fit", "heap-buddy" };

START_TEST(same_map_both_ways)
{
	char *text = churn_text(6000);
	vs_test_replay one, each;
	uint64_t marks = 0, at;
	vs_replay *r1 = open_replay(&one, text, heaps[_i], NULL, NULL);
	vs_replay *r2 = open_replay(&each, text, heaps[_i], no_marks, &marks);
	block_check c = { NULL, 0 };

	for (at = 500; at <= 6000; at += 500) {
		ck_assert_int_ge(vs_replay_run(r1, at), 0);
		ck_assert_int_ge(vs_replay_run(r2, at), 0);
		same_maps(vs_replay_arena(r1, 0), vs_replay_arena(r2, 0), at);
		c.a = vs_replay_arena(r1, 0);
		vs_replay_live_walk(r1, check_block, &c);
	}
	ck_assert_uint_eq(vs_replay_check_total(r1), 0);
	ck_assert_uint_gt(marks, 0);
	ck_assert_uint_gt(c.pieces, 0);
	vs_test_replay_close(&one);
	vs_test_replay_close(&each);
	free(text);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("replay_block_marks");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, same_map_both_ways, 0, (int)(sizeof heaps / sizeof heaps[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
