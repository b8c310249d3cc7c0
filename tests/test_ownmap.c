/* SPDX-License-Identifier: Zlib */
/* test_ownmap.c - the ownership map in both forms (a B+-tree of runs, one
 * owner and kind per tile) against a plain array of one owner and kind per
 * unit: random marks of every length, then every reader (runs, first taken
 * unit, free statistics, walks) compared with what the array says, reads
 * also made just before each mark and in address order (they leave the
 * hint the next look-up starts from); the tree's structure checked whole;
 * and a 256 MiB RAM arena whose map stays a few hundred bytes through a
 * replay. The random runs are longer with VRAMSIM_SOAK=1 (the soak target). */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vram/arena.h"
#include "vram/ownmap_int.h"
#include "strategies/registry.h"

typedef struct model {
	uint32_t n;
	uint32_t *owner;
	uint8_t *kind;
} model;

/* n units, all free */
static void model_init(model *md, uint32_t n)
{
	md->n = n;
	md->owner = calloc(n, sizeof *md->owner);
	md->kind = calloc(n, 1);
	ck_assert(md->owner && md->kind);
}

static void model_fini(model *md)
{
	free(md->owner);
	free(md->kind);
}

typedef struct walk_check {
	const model *md;
	uint32_t next;   /* where the next run must start */
	int free_only;
	int clipped;     /* runs may be cut at the ends of the walked range */
	uint32_t runs;
} walk_check;

/* The model's maximal run around u: [*lo, *hi). */
static void model_run(const model *md, uint32_t u, uint32_t *lo, uint32_t *hi)
{
	*lo = u;
	*hi = u + 1;
	while (*lo > 0 && md->owner[*lo - 1] == md->owner[u] && md->kind[*lo - 1] == md->kind[u])
		(*lo)--;
	while (*hi < md->n && md->owner[*hi] == md->owner[u] && md->kind[*hi] == md->kind[u])
		(*hi)++;
}

/* The model's free statistics: largest free run, free runs, free units. */
static void model_stats(const model *md, uint32_t *largest, uint32_t *fruns, uint32_t *nfree)
{
	uint32_t i, cur = 0;

	*largest = *fruns = *nfree = 0;
	for (i = 0; i < md->n; i++) {
		if (md->kind[i] != VS_UNIT_FREE) {
			cur = 0;
			continue;
		}
		*fruns += cur == 0;
		(*nfree)++;
		if (++cur > *largest)
			*largest = cur;
	}
}

static void model_set(model *md, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind)
{
	uint32_t i;

	for (i = first; i < md->n && i - first < count; i++) {
		md->owner[i] = kind == VS_UNIT_FREE ? VS_OWNER_NONE : owner;
		md->kind[i] = (uint8_t)kind;
	}
}

static int check_run(void *ud, const vs_own_run *run)
{
	walk_check *w = ud;
	uint32_t i, lo, hi;

	if (!w->free_only)
		HOT_CMP(run->first, ==, w->next);
	HOT_CMP(run->count, >, 0);
	for (i = run->first; i < run->first + run->count; i++) {
		HOT_CMP(w->md->owner[i], ==, run->owner);
		HOT_CMP(w->md->kind[i], ==, run->kind);
	}
	model_run(w->md, run->first, &lo, &hi);
	if (w->clipped) {
		HOT_CMP(lo, <=, run->first);
		HOT_CMP(hi, >=, run->first + run->count);
	} else {
		HOT_CMP(lo, ==, run->first);
		HOT_CMP(hi, ==, run->first + run->count);
	}
	if (w->free_only)
		HOT_CMP(run->kind, ==, VS_UNIT_FREE);
	w->next = run->first + run->count;
	w->runs++;
	return 0;
}

/* The run around unit u against the model's (nothing past the end). */
static void check_point(const vs_ownmap *m, const model *md, uint32_t u)
{
	vs_own_run run;
	uint32_t lo, hi;

	if (u >= md->n)
		return;
	HOT_CMP(vs_ownmap_run_at(m, u, &run), ==, 0);
	model_run(md, u, &lo, &hi);
	HOT_CMP(run.first, ==, lo);
	HOT_CMP(run.count, ==, hi - lo);
	HOT_CMP(run.owner, ==, md->owner[u]);
	HOT_CMP(run.kind, ==, md->kind[u]);
}

static void check_all(const vs_ownmap *m, const model *md, vs_rng *rng)
{
	uint32_t i, nfree, fruns, best, runs = 0, largest, r2, nf2;
	walk_check w = { md, 0, 0, 0, 0 };
	vs_own_run run;
	uint32_t o;
	vs_unit_kind kd;

	for (i = 0; i < md->n; i++)
		runs += i == 0 || md->owner[i] != md->owner[i - 1] || md->kind[i] != md->kind[i - 1];
	model_stats(md, &best, &fruns, &nfree);
	vs_ownmap_stats(m, &largest, &r2, &nf2);
	HOT_CMP(largest, ==, best);
	HOT_CMP(r2, ==, fruns);
	HOT_CMP(nf2, ==, nfree);
	HOT_CMP(vs_ownmap_runs(m), ==, runs);
	vs_ownmap_walk(m, 0, md->n, 0, check_run, &w);
	HOT_CMP(w.next, ==, md->n);
	HOT_CMP(w.runs, ==, runs);
	w.next = 0;
	w.runs = 0;
	w.free_only = 1;
	vs_ownmap_walk(m, 0, md->n, 1, check_run, &w);
	HOT_CMP(w.runs, ==, fruns);
	/* a few point and range reads */
	for (i = 0; i < 8; i++) {
		uint32_t u = vs_rng_below(rng, md->n), len = 1 + vs_rng_below(rng, md->n - u), k;
		int64_t want = -1, got;
		check_point(m, md, u);
		HOT_CMP(vs_ownmap_unit_at(m, u, &o, &kd), ==, 0);
		HOT_CMP(o, ==, md->owner[u]);
		HOT_CMP(kd, ==, md->kind[u]);
		for (k = u; k < u + len && want < 0; k++)
			if (md->kind[k] != VS_UNIT_FREE)
				want = k;
		got = vs_ownmap_first_taken(m, u, len);
		HOT_CMP(got, ==, want);
		/* a clipped walk starts at u and ends at u + len */
		w.next = u;
		w.runs = 0;
		w.free_only = 0;
		w.clipped = 1;
		vs_ownmap_walk(m, u, len, 0, check_run, &w);
		HOT_CMP(w.next, ==, u + len);
	}
	HOT_CMP(vs_ownmap_run_at(m, md->n, &run), ==, -1);
	HOT_CMP(vs_ownmap_unit_at(m, md->n, &o, &kd), ==, -1);
}

/* Reads as the replay makes them just before a mark (the placement
 * check's first taken unit, the runs at both ends): in the runs form the
 * run they find is the hint the mark then starts from. */
static void check_reads_at(const vs_ownmap *m, const model *md, uint32_t first, uint32_t count)
{
	uint32_t end = count > md->n - first ? md->n : first + count, k, lo, hi;
	int64_t want = -1;
	vs_own_run run;

	for (k = first; k < end && want < 0; k++)
		if (md->kind[k] != VS_UNIT_FREE)
			want = k;
	HOT_CMP(vs_ownmap_first_taken(m, first, count), ==, want);
	HOT_CMP(vs_ownmap_run_at(m, end - 1, &run), ==, 0);
	model_run(md, end - 1, &lo, &hi);
	HOT_CMP(run.first, ==, lo);
	HOT_CMP(run.count, ==, hi - lo);
	HOT_CMP(vs_ownmap_run_at(m, first, &run), ==, 0);
	model_run(md, first, &lo, &hi);
	HOT_CMP(run.first, ==, lo);
	HOT_CMP(run.owner, ==, md->owner[first]);
}

/* Point reads up the map, a few units past each run found, as the
 * heatmap's samples make them: each starts from the run read before. */
static void check_reads_up(const vs_ownmap *m, const model *md, vs_rng *rng)
{
	uint32_t u = vs_rng_below(rng, md->n), lo, hi;
	vs_own_run run;

	while (u < md->n) {
		HOT_CMP(vs_ownmap_run_at(m, u, &run), ==, 0);
		model_run(md, u, &lo, &hi);
		HOT_CMP(run.first, ==, lo);
		HOT_CMP(run.count, ==, hi - lo);
		HOT_CMP(run.kind, ==, md->kind[u]);
		u = run.first + run.count + vs_rng_below(rng, 3);
	}
}

static const uint32_t owners[] = { VS_OWNER_NONE, 1, 2, 3, 77, VS_OWNER_HW, VS_OWNER_ALLOC };

/* _i: 0 the runs, 1 the per-unit form */
START_TEST(runs_match_a_unit_array)
{
	static const uint32_t sizes[] = { 1, 2, 7, 64, 65, 333, 4096 };
	vs_rng rng = { 16 };
	unsigned steps = vs_test_soak(3000, 40000);
	size_t si;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		model md;
		vs_ownmap *m = _i ? vs_ownmap_new_units(sizes[si]) : vs_ownmap_new(sizes[si]), *copy;
		unsigned step;
		ck_assert_ptr_nonnull(m);
		model_init(&md, sizes[si]);
		for (step = 0; step < steps; step++) {
			/* mostly short marks (allocations), some long ones (clears) */
			uint32_t first = vs_rng_below(&rng, md.n);
			uint32_t count = vs_rng_below(&rng, 8) ? 1 + vs_rng_below(&rng, 16) : 1 + vs_rng_below(&rng, md.n);
			uint32_t owner = owners[vs_rng_below(&rng, sizeof owners / sizeof owners[0])];
			vs_unit_kind kind = (vs_unit_kind)vs_rng_below(&rng, VS_UNIT_RESERVED + 1);
			if (vs_rng_below(&rng, 3) == 0)
				kind = VS_UNIT_FREE; /* enough free space to merge */
			if (kind == VS_UNIT_FREE)
				owner = VS_OWNER_NONE;
			if (vs_rng_below(&rng, 2))
				check_reads_at(m, &md, first, count);
			ck_assert_int_eq(vs_ownmap_set(m, first, count, owner, kind), 0);
			model_set(&md, first, count, owner, kind);
			check_all(m, &md, &rng);
			check_reads_up(m, &md, &rng);
		}
		/* a copy reads the same; clearing leaves one free run */
		copy = vs_ownmap_copy(m);
		ck_assert_ptr_nonnull(copy);
		check_all(copy, &md, &rng);
		vs_ownmap_clear(m);
		memset(md.owner, 0, md.n * sizeof *md.owner);
		memset(md.kind, 0, md.n);
		check_all(m, &md, &rng);
		vs_ownmap_free(copy);
		vs_ownmap_free(m);
		model_fini(&md);
	}
}
END_TEST

/* Marking free units with an owner keeps them ownerless, so neighbouring
 * free runs are always one extent. */
START_TEST(free_units_have_no_owner)
{
	vs_ownmap *m = _i ? vs_ownmap_new_units(100) : vs_ownmap_new(100);
	vs_own_run run;
	uint32_t largest, runs, nfree;

	ck_assert_int_eq(vs_ownmap_set(m, 10, 10, 5, VS_UNIT_DATA), 0);
	ck_assert_int_eq(vs_ownmap_set(m, 10, 10, 5, VS_UNIT_FREE), 0);
	ck_assert_int_eq(vs_ownmap_run_at(m, 15, &run), 0);
	ck_assert_uint_eq(run.owner, VS_OWNER_NONE);
	ck_assert_uint_eq(run.first, 0);
	ck_assert_uint_eq(run.count, 100);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 100);
	ck_assert_uint_eq(runs, 1);
	ck_assert_uint_eq(nfree, 100);
	vs_ownmap_free(m);
}
END_TEST

/* A 256 MiB heap: the map is a handful of runs, not 256 Mi entries, and a
 * replay of a few allocations leaves it so. */
START_TEST(big_ram_arena_map_stays_small)
{
	static const char trace[] =
		"vramsim-trace 1\n"
		"arena heap ram size=268435456\n"
		"alloc 1 4096\n"
		"alloc 2 100000000\n"
		"alloc 3 64\n"
		"free 2\n"
		"alloc 4 1000\n";
	char err[256];
	vs_test_replay x;
	vs_replay_config cfg;
	const vs_arena *a;
	vs_free_stats fs;

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("heap-first-fit");
	ck_assert_ptr_nonnull(cfg.strategy[0]);
	ck_assert_msg(vs_test_replay_open(&x, trace, "big", &cfg, err, sizeof err) != NULL, "%s", err);
	a = vs_replay_arena(x.r, 0);
	ck_assert_uint_eq(a->nunits, 268435456u);
	ck_assert_uint_lt(vs_arena_meta_bytes(a), 4096);
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_lt(vs_arena_meta_bytes(a), 4096);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->live_bytes, 4096 + 64 + 1000);
	ck_assert_uint_eq(vs_arena_kind_at(a, 0), VS_UNIT_OVERHEAD); /* first fit's 4-byte head */
	vs_arena_free_stats(a, &fs);
	ck_assert_uint_gt(fs.largest, 100000000u);
	vs_test_replay_close(&x);
}
END_TEST

/* An arena of 32-byte tiles with every other tile its own allocation (the
 * side-scroller's single tiles at their worst: one run per tile) keeps
 * its map under half a byte per arena byte; a map of runs would not. */
START_TEST(tile_arena_map_stays_small)
{
	vs_arena_decl d;
	vs_arena a;
	vs_free_stats fs;
	vs_own_run run;
	char err[128];
	uint32_t u;

	vs_arena_decl_default(&d, VS_ARENA_GBA_BG);
	ck_assert_int_eq(vs_arena_init(&a, &d, err, sizeof err), 0);
	for (u = 0; u < a.nunits; u += 2)
		ck_assert_int_eq(vs_arena_mark(&a, u * 32, 32, 1 + u, VS_UNIT_DATA), 0);
	ck_assert_uint_eq(vs_ownmap_runs(a.own), a.nunits);
	ck_assert_uint_le(vs_arena_meta_bytes(&a), d.size / 2);
	vs_arena_free_stats(&a, &fs);
	ck_assert_uint_eq(fs.free_bytes, d.size / 2);
	ck_assert_uint_eq(fs.largest, 32);
	ck_assert_uint_eq(fs.extents, a.nunits / 2);
	ck_assert_int_eq(vs_arena_run_at(&a, 7, &run), 0);
	ck_assert_uint_eq(run.first, 7);
	ck_assert_uint_eq(run.count, 1);
	ck_assert_uint_eq(vs_arena_owner_at(&a, 6), 7);
	ck_assert_int_eq(vs_arena_first_taken(&a, 32, 64), 2);
	/* freeing them all leaves one free run again */
	for (u = 0; u < a.nunits; u += 2)
		ck_assert_int_eq(vs_arena_mark(&a, u * 32, 32, VS_OWNER_NONE, VS_UNIT_FREE), 0);
	vs_arena_free_stats(&a, &fs);
	ck_assert_uint_eq(fs.largest, d.size);
	ck_assert_uint_eq(vs_ownmap_runs(a.own), 1);
	vs_arena_fini(&a);
}
END_TEST

/* A free run of the model to allocate from: the longest (so marks cut it,
 * and the map must find the next longest) or the one around a random unit. */
static int pick_free(const model *md, vs_rng *rng, uint32_t *lo, uint32_t *hi)
{
	uint32_t u = vs_rng_below(rng, md->n), k, best = 0;

	if (vs_rng_below(rng, 3) == 0) {
		for (u = 0; u < md->n; u = *hi) {
			model_run(md, u, lo, hi);
			if (md->kind[u] == VS_UNIT_FREE && *hi - *lo > best) {
				best = *hi - *lo;
				k = *lo;
			}
		}
		if (!best)
			return 0;
		model_run(md, k, lo, hi);
		return 1;
	}
	for (k = 0; k < md->n; k++, u = u + 1 == md->n ? 0 : u + 1)
		if (md->kind[u] == VS_UNIT_FREE) {
			model_run(md, u, lo, hi);
			return 1;
		}
	return 0;
}

/* The per-unit form at the sizes it is made for (GBA OBJ 1024 tiles, BG
 * 2048 and 2560) and at odd sizes, under marks as a replay makes them:
 * allocations cut from free runs (often the longest, at either end or
 * inside), frees of whole allocations that merge with their neighbours,
 * changes of kind, and a few marks over anything. The free statistics are
 * asked only now and then, so several marks pass between two asks, and a
 * copy is made between them. */
START_TEST(units_match_a_model_at_tile_sizes)
{
	static const uint32_t sizes[] = { 1024, 2048, 2560, 1000, 2047, 2561, 63, 129 };
	vs_rng rng = { 2560 };
	unsigned steps = vs_test_soak(1500, 20000);
	size_t si;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		model md;
		vs_ownmap *m = vs_ownmap_new_units(sizes[si]), *copy;
		uint32_t largest, fruns, nfree, l2, r2, n2, owner = 1;
		unsigned step;
		ck_assert_ptr_nonnull(m);
		model_init(&md, sizes[si]);
		for (step = 0; step < steps; step++) {
			uint32_t lo, hi, first, count, r = vs_rng_below(&rng, 10);
			vs_unit_kind kind = (vs_unit_kind)(1 + vs_rng_below(&rng, VS_UNIT_RESERVED));
			if (r < 5 && pick_free(&md, &rng, &lo, &hi)) {
				/* an allocation: the front, the back or the middle of a free run */
				count = 1 + vs_rng_below(&rng, hi - lo < 64 ? hi - lo : 64);
				first = r == 0 ? lo : r == 1 ? hi - count : lo + vs_rng_below(&rng, hi - lo - count + 1);
				owner++;
			} else if (r < 8) {
				/* a free (or a change of kind) of the run around a unit */
				model_run(&md, vs_rng_below(&rng, md.n), &lo, &hi);
				first = lo;
				count = hi - lo;
				if (r < 7)
					kind = VS_UNIT_FREE;
			} else {
				first = vs_rng_below(&rng, md.n);
				count = 1 + vs_rng_below(&rng, r == 8 ? 130 : md.n);
				if (vs_rng_below(&rng, 2))
					kind = VS_UNIT_FREE;
				owner++;
			}
			ck_assert_int_eq(vs_ownmap_set(m, first, count, owner, kind), 0);
			model_set(&md, first, count, owner, kind);
			if (vs_rng_below(&rng, 4) == 0) {
				model_stats(&md, &largest, &fruns, &nfree);
				vs_ownmap_stats(m, &l2, &r2, &n2);
				HOT_CMP(l2, ==, largest);
				HOT_CMP(r2, ==, fruns);
				HOT_CMP(n2, ==, nfree);
			}
			if (vs_rng_below(&rng, 64) == 0) {
				/* a copy taken between asks answers as the map does */
				copy = vs_ownmap_copy(m);
				ck_assert_ptr_nonnull(copy);
				check_all(copy, &md, &rng);
				vs_ownmap_free(copy);
			}
			if (vs_rng_below(&rng, 16) == 0)
				check_all(m, &md, &rng);
		}
		check_all(m, &md, &rng);
		vs_ownmap_free(m);
		model_fini(&md);
	}
}
END_TEST

/* The runs form's tree (src/vram/ownmap.c) against the unit array, its
 * structure checked whole after every mark (vs_ownmap_check: runs in
 * order and maximal, every leaf's and inner node's summaries, counts):
 * a map filled with thousands of short runs (many leaves, three levels),
 * then marks of every length, short ones inside a leaf, ranges of tens to
 * thousands of units across leaf boundaries, and clears of most of the
 * map that leave few runs (leaves joined, the tree lower again), and
 * point reads at both ends of each mark. */
START_TEST(run_tree_matches_a_unit_array)
{
	static const uint32_t sizes[] = { 1, 3, 150, 20000 };
	vs_rng rng = { 61 };
	unsigned steps = vs_test_soak(1500, 30000);
	size_t si;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		model md;
		vs_ownmap *m = vs_ownmap_new(sizes[si]);
		uint32_t u, peak = 0;
		unsigned step;
		ck_assert_ptr_nonnull(m);
		model_init(&md, sizes[si]);
		ck_assert_int_eq(vs_ownmap_check(m), 0);
		/* many runs: one to four units each, owners taking turns */
		for (u = 0; u < md.n; u += 1 + vs_rng_below(&rng, 4)) {
			uint32_t owner = 1 + u % 5;
			ck_assert_int_eq(vs_ownmap_set(m, u, 4, owner, VS_UNIT_DATA), 0);
			model_set(&md, u, 4, owner, VS_UNIT_DATA);
			if (u % 61 == 0)
				HOT_CMP(vs_ownmap_check(m), ==, 0);
		}
		check_all(m, &md, &rng);
		for (step = 0; step < steps; step++) {
			uint32_t first = vs_rng_below(&rng, md.n), r = vs_rng_below(&rng, 100), count;
			uint32_t owner = owners[vs_rng_below(&rng, sizeof owners / sizeof owners[0])];
			vs_unit_kind kind = (vs_unit_kind)vs_rng_below(&rng, VS_UNIT_RESERVED + 1);
			if (r < 60)
				count = 1 + vs_rng_below(&rng, 6);       /* inside a leaf, mostly */
			else if (r < 90)
				count = 1 + vs_rng_below(&rng, 400);     /* across leaves */
			else if (r < 97)
				count = 1 + vs_rng_below(&rng, md.n);    /* anything up to a clear */
			else
				first = 0, count = md.n;                 /* one run again */
			if (r % 3 == 0)
				kind = VS_UNIT_FREE;
			check_point(m, &md, first);
			ck_assert_int_eq(vs_ownmap_set(m, first, count, owner, kind), 0);
			model_set(&md, first, count, owner, kind);
			HOT_CMP(vs_ownmap_check(m), ==, 0);
			check_point(m, &md, first);
			check_point(m, &md, first + count - 1);
			check_point(m, &md, first + count);
			if (first)
				check_point(m, &md, first - 1);
			if (vs_ownmap_runs(m) > peak)
				peak = vs_ownmap_runs(m);
			if (step % 64 == 0 || md.n < 1000)
				check_all(m, &md, &rng);
			/* after a clear, fragment the map again */
			if (vs_ownmap_runs(m) == 1 && md.n > 1) {
				for (u = vs_rng_below(&rng, 8); u < md.n; u += 2 + vs_rng_below(&rng, 3)) {
					ck_assert_int_eq(vs_ownmap_set(m, u, 1, 9, VS_UNIT_SLACK), 0);
					model_set(&md, u, 1, 9, VS_UNIT_SLACK);
				}
				HOT_CMP(vs_ownmap_check(m), ==, 0);
			}
		}
		check_all(m, &md, &rng);
		if (md.n >= 20000)
			ck_assert_uint_gt(peak, 5000); /* the tree was three levels deep */
		/* freeing everything leaves one run in one leaf */
		ck_assert_int_eq(vs_ownmap_set(m, 0, md.n, 0, VS_UNIT_FREE), 0);
		ck_assert_int_eq(vs_ownmap_check(m), 0);
		ck_assert_uint_eq(vs_ownmap_runs(m), 1);
		vs_ownmap_free(m);
		model_fini(&md);
	}
}
END_TEST

/* The model's first taken unit of [first, end), or -1. */
static int64_t model_first_taken(const model *md, uint32_t first, uint32_t end)
{
	uint32_t k;

	for (k = first; k < end; k++)
		if (md->kind[k] != VS_UNIT_FREE)
			return k;
	return -1;
}

/* vs_arena_take against the model, in both forms of the map, at unit
 * counts that fill their last bitmap word and that do not, and across
 * several leaves of the runs: takes of byte ranges (rounded out to whole
 * units, some not starting or ending on a unit, some past the arena's
 * end) cut from free runs at their front, back, middle, or whole, and
 * takes over anything; a take that meets a taken unit must name the
 * first one and leave the map as it was (the whole map is compared with
 * the model). Frees and marks between them keep free and taken runs
 * mixed. */
START_TEST(take_matches_a_model)
{
	static const struct { uint32_t unit, nunits; } cfg[] = {
		{ 32, 1024 }, { 32, 63 }, { 32, 129 }, { 32, 2561 }, { 32, 64 },
		{ 8, 1000 }, { 1, 777 }, { 8, 20000 }
	};
	vs_rng rng = { 1717 };
	unsigned steps = vs_test_soak(1500, 20000);
	size_t ci;

	for (ci = 0; ci < sizeof cfg / sizeof cfg[0]; ci++) {
		vs_arena_decl d;
		vs_arena a;
		model md;
		char err[128];
		uint32_t unit = cfg[ci].unit, owner = 10, takes = 0, refused = 0;
		unsigned step;

		vs_arena_decl_default(&d, VS_ARENA_RAM);
		d.unit = unit;
		d.size = unit * cfg[ci].nunits;
		ck_assert_int_eq(vs_arena_init(&a, &d, err, sizeof err), 0);
		model_init(&md, a.nunits);
		/* the per-unit form for tiles of small arenas, else the runs */
		ck_assert_int_eq(a.own->u != NULL, unit >= 32 && a.nunits <= 4096);
		for (step = 0; step < steps; step++) {
			uint32_t r = vs_rng_below(&rng, 20), lo, hi, first, count, off, len, end;
			vs_unit_kind kind = (vs_unit_kind)(1 + vs_rng_below(&rng, VS_UNIT_RESERVED));
			int64_t want, got;
			if (r < 12) {
				/* a take: mostly from a free run, else anywhere */
				if (r < 9 && pick_free(&md, &rng, &lo, &hi)) {
					count = 1 + vs_rng_below(&rng, hi - lo < 40 ? hi - lo : 40);
					first = r < 3 ? lo : r < 5 ? hi - count : r < 6 ? lo : lo + vs_rng_below(&rng, hi - lo - count + 1);
					if (r == 5)
						count = hi - lo; /* the whole run */
				} else {
					first = vs_rng_below(&rng, md.n);
					count = 1 + vs_rng_below(&rng, 3 * 64);
				}
				/* bytes: a unit's inside at either end, sometimes */
				off = first * unit + (unit > 1 && vs_rng_below(&rng, 3) == 0 ? vs_rng_below(&rng, unit) : 0);
				len = count * unit - (off - first * unit);
				if (unit > 1 && len > 1 && vs_rng_below(&rng, 3) == 0)
					len -= vs_rng_below(&rng, len < unit ? len : unit);
				end = first + count < md.n ? first + count : md.n;
				end = ((off + len - 1) / unit) + 1 < end ? ((off + len - 1) / unit) + 1 : end;
				if (vs_rng_below(&rng, 16) == 0)
					kind = VS_UNIT_FREE; /* marks nothing: free units stay free */
				want = model_first_taken(&md, first, end);
				got = vs_arena_take(&a, off, len, ++owner, kind);
				HOT_CMP(got, ==, want);
				if (want < 0)
					model_set(&md, first, end - first, owner, kind);
				takes += want < 0;
				refused += want >= 0;
			} else if (r < 17) {
				/* a free of the run around a unit, or of a range */
				model_run(&md, vs_rng_below(&rng, md.n), &lo, &hi);
				if (r == 16) {
					lo = vs_rng_below(&rng, md.n);
					hi = lo + 1 + vs_rng_below(&rng, md.n - lo);
				}
				ck_assert_int_eq(vs_arena_mark(&a, lo * unit, (hi - lo) * unit, 0, VS_UNIT_FREE), 0);
				model_set(&md, lo, hi - lo, 0, VS_UNIT_FREE);
			} else {
				first = vs_rng_below(&rng, md.n);
				count = 1 + vs_rng_below(&rng, 100);
				ck_assert_int_eq(vs_arena_mark(&a, first * unit, count * unit, ++owner, kind), 0);
				model_set(&md, first, count, owner, kind);
			}
			HOT_CMP(vs_ownmap_check(a.own), ==, 0);
			if (md.n <= 4096 || step % 32 == 0)
				check_all(a.own, &md, &rng);
		}
		/* nothing past the end, nothing empty */
		HOT_CMP(vs_arena_take(&a, d.size, 8, 1, VS_UNIT_DATA), ==, -1);
		HOT_CMP(vs_arena_take(&a, 0, 0, 1, VS_UNIT_DATA), ==, -1);
		check_all(a.own, &md, &rng);
		ck_assert_uint_gt(takes, steps / 8);
		ck_assert_uint_gt(refused, steps / 32);
		vs_arena_fini(&a);
		model_fini(&md);
	}
}
END_TEST

/* A take through the arena runs to the arena's last unit and stops there:
 * a range past the end is clipped, and the units it would have covered
 * are not read. */
START_TEST(take_clips_to_the_arena)
{
	vs_arena_decl d;
	vs_arena a;
	char err[128];
	vs_own_run run;

	vs_arena_decl_default(&d, VS_ARENA_GBA_OBJ);
	ck_assert_int_eq(vs_arena_init(&a, &d, err, sizeof err), 0);
	ck_assert_int_eq(vs_arena_take(&a, 1020 * 32, 64 * 32, 5, VS_UNIT_DATA), -1);
	ck_assert_int_eq(vs_arena_run_at(&a, 1020, &run), 0);
	ck_assert_uint_eq(run.first, 1020);
	ck_assert_uint_eq(run.count, 4);
	ck_assert_uint_eq(run.owner, 5);
	/* taken now: the first taken unit is named, nothing changes */
	ck_assert_int_eq(vs_arena_take(&a, 1000 * 32, 30 * 32, 6, VS_UNIT_DATA), 1020);
	ck_assert_int_eq(vs_arena_first_taken(&a, 0, 1020 * 32), -1);
	vs_arena_fini(&a);
}
END_TEST

/* The runs form's usual marks, made on purpose (vs_ownmap_check after
 * each): allocations cut from the front, back, middle or whole of a free
 * run, with the run before or after it of the same owner and kind (they
 * join) or not; frees of whole runs with no, one or two free neighbours;
 * kind changes of a whole run. Over thousands of runs, so many land on the
 * first or last entry of a leaf and join across leaves. */
START_TEST(run_tree_usual_marks)
{
	static const uint32_t sizes[] = { 5, 300, 30000 };
	vs_rng rng = { 4242 };
	unsigned steps = vs_test_soak(4000, 40000);
	size_t si;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		model md;
		vs_ownmap *m = vs_ownmap_new(sizes[si]);
		uint32_t u, owner = 100;
		unsigned step;
		ck_assert_ptr_nonnull(m);
		model_init(&md, sizes[si]);
		/* taken runs of one or two units with free ones between */
		for (u = 0; u < md.n; u += 2 + vs_rng_below(&rng, 4)) {
			uint32_t c = 1 + vs_rng_below(&rng, 2);
			ck_assert_int_eq(vs_ownmap_set(m, u, c, ++owner, VS_UNIT_DATA), 0);
			model_set(&md, u, c, owner, VS_UNIT_DATA);
		}
		HOT_CMP(vs_ownmap_check(m), ==, 0);
		check_all(m, &md, &rng);
		for (step = 0; step < steps; step++) {
			uint32_t r = vs_rng_below(&rng, 8), lo, hi, first, count, o = ++owner;
			vs_unit_kind kind = (vs_unit_kind)(1 + vs_rng_below(&rng, 3));
			model_run(&md, vs_rng_below(&rng, md.n), &lo, &hi);
			if (md.kind[lo] == VS_UNIT_FREE && r < 6) {
				/* a take from this free run; like a neighbour sometimes */
				count = 1 + vs_rng_below(&rng, hi - lo);
				first = r < 2 ? lo : r < 4 ? hi - count : lo + vs_rng_below(&rng, hi - lo - count + 1);
				if (r == 4)
					first = lo, count = hi - lo;
				if (vs_rng_below(&rng, 2) && first > 0 && first == lo) {
					o = md.owner[lo - 1];
					kind = (vs_unit_kind)md.kind[lo - 1];
				} else if (vs_rng_below(&rng, 2) && first + count < md.n && first + count == hi) {
					o = md.owner[hi];
					kind = (vs_unit_kind)md.kind[hi];
				}
			} else if (md.kind[lo] != VS_UNIT_FREE && r < 7) {
				/* a free of the whole run */
				first = lo;
				count = hi - lo;
				kind = VS_UNIT_FREE;
				o = VS_OWNER_NONE;
			} else {
				/* a whole run changes kind (or a free run is taken whole) */
				first = lo;
				count = hi - lo;
			}
			check_point(m, &md, first); /* leaves the hint there, as a placement check does */
			ck_assert_int_eq(vs_ownmap_set(m, first, count, o, kind), 0);
			model_set(&md, first, count, o, kind);
			HOT_CMP(vs_ownmap_check(m), ==, 0);
			check_point(m, &md, first);
			if (first)
				check_point(m, &md, first - 1);
			check_point(m, &md, first + count);
			if (step % 128 == 0 || md.n < 1000)
				check_all(m, &md, &rng);
		}
		check_all(m, &md, &rng);
		vs_ownmap_free(m);
		model_fini(&md);
	}
}
END_TEST

/* The per-unit form knows where one longest free run starts: a take that
 * cuts another run as long leaves the longest as it was, one that cuts
 * the known run makes it look again, and finds the other. */
START_TEST(tile_map_longest_of_equal_runs)
{
	vs_ownmap *m = vs_ownmap_new_units(300);
	uint32_t largest, runs, nfree;

	/* free runs [0, 100) and [200, 300): two of 100 */
	ck_assert_int_eq(vs_ownmap_set(m, 100, 100, 1, VS_UNIT_DATA), 0);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 100);
	ck_assert_uint_eq(runs, 2);
	ck_assert_int_eq(vs_ownmap_set(m, 0, 10, 2, VS_UNIT_DATA), 0);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 100);
	ck_assert_int_eq(vs_ownmap_set(m, 250, 1, 3, VS_UNIT_DATA), 0);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 90);
	ck_assert_uint_eq(runs, 3);
	ck_assert_uint_eq(nfree, 189);
	/* freed, the run between joins both sides: [10, 250) */
	ck_assert_int_eq(vs_ownmap_set(m, 100, 100, 0, VS_UNIT_FREE), 0);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 240);
	ck_assert_uint_eq(runs, 2);
	/* a take at the front of the longest run shortens it */
	ck_assert_int_eq(vs_ownmap_set(m, 10, 5, 4, VS_UNIT_DATA), 0);
	vs_ownmap_stats(m, &largest, &runs, &nfree);
	ck_assert_uint_eq(largest, 235);
	vs_ownmap_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ownmap");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, runs_match_a_unit_array, 0, 2);
	tcase_add_loop_test(tc, free_units_have_no_owner, 0, 2);
	tcase_add_test(tc, big_ram_arena_map_stays_small);
	tcase_add_test(tc, tile_arena_map_stays_small);
	tcase_add_test(tc, units_match_a_model_at_tile_sizes);
	tcase_add_test(tc, run_tree_matches_a_unit_array);
	tcase_add_test(tc, take_matches_a_model);
	tcase_add_test(tc, take_clips_to_the_arena);
	tcase_add_test(tc, run_tree_usual_marks);
	tcase_add_test(tc, tile_map_longest_of_equal_runs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
