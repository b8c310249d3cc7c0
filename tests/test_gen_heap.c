/* SPDX-License-Identifier: Zlib */
/* test_gen_heap.c - `vramsim gen heap-churn`: sizes and lifetimes drawn as
 * asked, live requests within the fill, frees of live ids only, a trace
 * that replays clean, and the options' errors. */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "gen/gen_heap.h"
#include "engine/replay.h"
#include "trace/trace.h"

#define MAX_IDS 200000

typedef struct churn {
	uint64_t allocs, frees, frames, lines;
	uint64_t size_sum, peak_live;
	uint32_t size_min, size_max, life_min, life_max;
	uint64_t small;            /* sizes below 64 */
	uint32_t arena_size;
} churn;

static char *gen(const vs_gen_opts *o, const vs_gen_heap_opts *h, size_t *len)
{
	char err[256], *buf;
	FILE *fp = tmpfile();

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(vs_gen_heap_churn_with(fp, o, h, err, sizeof err), 0);
	buf = vs_test_slurp_stream(fp, len);
	fclose(fp);
	return buf;
}

/* Walks the trace text: every free names a live id, live requests never
 * pass the fill; sizes and lifetimes (in allocations) are gathered. */
static void walk(char *text, uint32_t fill, churn *c)
{
	static uint32_t size[MAX_IDS];
	static uint64_t born[MAX_IDS];
	char *line, *save = NULL;
	uint64_t live = 0, budget = 0;
	unsigned long long id;
	unsigned sz;

	memset(c, 0, sizeof *c);
	memset(size, 0, sizeof size);
	c->size_min = c->life_min = UINT32_MAX;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		c->lines++;
		if (sscanf(line, "arena heap ram size=%u", &sz) == 1) {
			c->arena_size = sz;
			budget = (uint64_t)sz * fill / 100;
		} else if (strcmp(line, "frame") == 0) {
			c->frames++;
		} else if (sscanf(line, "alloc %llu %u tag=", &id, &sz) == 2) {
			HOT_ASSERT(id < MAX_IDS && size[id] == 0, "alloc of id %llu twice", id);
			size[id] = sz;
			born[id] = ++c->allocs;
			live += sz;
			HOT_ASSERT(live <= budget, "live %llu past the fill %llu", (unsigned long long)live,
				(unsigned long long)budget);
			c->size_sum += sz;
			c->small += sz < 64;
			if (sz < c->size_min)
				c->size_min = sz;
			if (sz > c->size_max)
				c->size_max = sz;
			if (live > c->peak_live)
				c->peak_live = live;
		} else if (sscanf(line, "free %llu", &id) == 1) {
			uint32_t life;
			HOT_ASSERT(id < MAX_IDS && size[id], "free of %llu, not live", id);
			live -= size[id];
			size[id] = 0;
			c->frees++;
			/* the allocation count when it went, less the one it was born at */
			life = (uint32_t)(c->allocs + 1 - born[id]);
			if (life < c->life_min)
				c->life_min = life;
			if (life > c->life_max)
				c->life_max = life;
		} else {
			HOT_ASSERT(line == text && strcmp(line, "vramsim-trace 1") == 0, "unexpected line '%s'", line);
		}
	}
}

START_TEST(defaults_deterministic_and_within_fill)
{
	vs_gen_opts o;
	vs_gen_heap_opts h;
	size_t l1, l2;
	char *a, *b;
	churn c;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 300;
	a = gen(&o, &h, &l1);
	b = gen(&o, &h, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert(memcmp(a, b, l1) == 0);
	free(b);
	o.seed = 2;
	b = gen(&o, &h, &l2);
	ck_assert(l1 != l2 || memcmp(a, b, l1) != 0);
	walk(a, h.fill, &c);
	ck_assert_uint_eq(c.arena_size, 1u << 20);
	ck_assert_uint_eq(c.frames, 300);
	ck_assert_uint_eq(c.allocs, 300 * 32);
	ck_assert_uint_ge(c.size_min, 8);
	ck_assert_uint_le(c.size_max, 4096);
	ck_assert_uint_gt(c.frees, c.allocs / 2);
	free(a);
	free(b);
}
END_TEST

/* uniform: every size inside; log: many more small ones than uniform
 * draws; exp: mean near MEAN, never above MAX. */
START_TEST(size_distributions)
{
	vs_gen_opts o;
	vs_gen_heap_opts h;
	size_t len;
	char *t;
	churn u, lg, ex;
	double mean;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 200;
	h.arena_size = 64u << 20;
	h.sizes.kind = VS_DIST_UNIFORM;
	h.sizes.lo = 16;
	h.sizes.hi = 8192;
	t = gen(&o, &h, &len);
	walk(t, h.fill, &u);
	free(t);
	ck_assert_uint_ge(u.size_min, 16);
	ck_assert_uint_le(u.size_max, 8192);
	ck_assert_uint_lt(u.size_min, 200);
	ck_assert_uint_gt(u.size_max, 8000);
	h.sizes.kind = VS_DIST_LOG;
	t = gen(&o, &h, &len);
	walk(t, h.fill, &lg);
	free(t);
	ck_assert_uint_ge(lg.size_min, 16);
	ck_assert_uint_le(lg.size_max, 8192);
	/* 2 of 10 doublings lie below 64: ~20%, against under 1% uniform */
	ck_assert_uint_gt(lg.small * 100, lg.allocs * 12);
	ck_assert_uint_lt(u.small * 100, u.allocs * 2);
	h.sizes.kind = VS_DIST_EXP;
	h.sizes.lo = 500;
	h.sizes.hi = 100000;
	t = gen(&o, &h, &len);
	walk(t, h.fill, &ex);
	free(t);
	mean = (double)ex.size_sum / (double)ex.allocs;
	ck_assert_msg(mean > 450 && mean < 550, "exp:500 gave a mean of %.1f", mean);
	ck_assert_uint_le(ex.size_max, 100000);
	ck_assert_uint_gt(ex.size_max, 2500);
}
END_TEST

/* With room to spare, each allocation lives as long as drawn: freed 10 to
 * 20 allocations after its own. */
START_TEST(lifetimes_as_drawn)
{
	vs_gen_opts o;
	vs_gen_heap_opts h;
	size_t len;
	char *t;
	churn c;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 100;
	h.lifetime.kind = VS_DIST_UNIFORM;
	h.lifetime.lo = 10;
	h.lifetime.hi = 20;
	t = gen(&o, &h, &len);
	walk(t, h.fill, &c);
	free(t);
	ck_assert_uint_eq(c.life_min, 10);
	ck_assert_uint_eq(c.life_max, 20);
	ck_assert_uint_ge(c.frees, c.allocs - 20);
}
END_TEST

/* A small fill: the allocations due soonest go early to keep it. */
START_TEST(fill_forces_early_frees)
{
	vs_gen_opts o;
	vs_gen_heap_opts h;
	size_t len;
	char *t;
	churn c;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 100;
	h.arena_size = 64u << 10;
	h.fill = 10;
	t = gen(&o, &h, &len);
	walk(t, h.fill, &c); /* asserts live <= 10% throughout */
	free(t);
	ck_assert_uint_gt(c.peak_live, (64u << 10) / 20);
	ck_assert_uint_lt(c.life_min, 500); /* shorter than any exp:500 draw would mostly be */
}
END_TEST

START_TEST(replays_clean)
{
	char err[256];
	vs_gen_opts o;
	vs_gen_heap_opts h;
	FILE *fp = tmpfile();
	vs_trace_reader *rd;
	vs_replay *r;
	const vs_metrics *m;

	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 200;
	ck_assert_int_eq(vs_gen_heap_churn_with(fp, &o, &h, err, sizeof err), 0);
	rewind(fp);
	rd = vs_trace_open_stream(fp, "heap-churn", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	r = vs_replay_new(rd, NULL, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	m = vs_replay_metrics(r, 0);
	ck_assert_uint_eq(m->allocs, 200 * 32);
	ck_assert_uint_eq(m->failures, 0);
	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(r), 0);
	vs_replay_free(r);
	fclose(fp);
}
END_TEST

START_TEST(dist_parse)
{
	static const char *const bad[] = { "uniform", "uniform:", "gauss:1-2", "log:0-5", "log:9-5", "exp:5-",
		"exp:5-x", "uniform:1-2x", "uniform:-1-2", "log:1-4294967297", "uniform:1-1001" };
	vs_gen_dist d;
	char err[256];
	size_t i;

	ck_assert_int_eq(vs_gen_dist_parse("log:8-4096", 1000000, &d, err, sizeof err), 0);
	ck_assert_int_eq(d.kind, VS_DIST_LOG);
	ck_assert_uint_eq(d.lo, 8);
	ck_assert_uint_eq(d.hi, 4096);
	ck_assert_int_eq(vs_gen_dist_parse("exp:7-7", 1000, &d, err, sizeof err), 0);
	ck_assert_int_eq(d.kind, VS_DIST_EXP);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		ck_assert_msg(vs_gen_dist_parse(bad[i], 1000, &d, err, sizeof err) == -1, "'%s' taken", bad[i]);
		ck_assert_msg(strstr(err, bad[i]) != NULL, "'%s': message '%s'", bad[i], err);
	}
}
END_TEST

START_TEST(cli)
{
	static char out[1 << 16], err[1024];
	vs_gen_opts o;
	vs_gen_heap_opts h;
	size_t len;
	char *t;

	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --frames 5 --arena-size 64K --sizes uniform:10-20 "
		"--lifetime uniform:3-3 --allocs 4 --fill 50 --seed 9", out, sizeof out, err, sizeof err), 0);
	vs_gen_opts_default(&o);
	vs_gen_heap_opts_default(&h);
	o.frames = 5;
	o.seed = 9;
	h.arena_size = 64u << 10;
	h.sizes.kind = h.lifetime.kind = VS_DIST_UNIFORM;
	h.sizes.lo = 10;
	h.sizes.hi = 20;
	h.lifetime.lo = h.lifetime.hi = 3;
	h.allocs = 4;
	h.fill = 50;
	t = gen(&o, &h, &len);
	ck_assert_str_eq(out, t);
	ck_assert(strstr(out, "arena heap ram size=65536\n") != NULL);
	free(t);
	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --sizes log:10-5", out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "--sizes 'log:10-5'") != NULL, "%s", err);
	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --arena-size 512M", out, sizeof out, err, sizeof err), 2);
	/* an arena the trace's own heap refuses made a trace that did not replay */
	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --arena-size 256", out, sizeof out, err, sizeof err), 2);
	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --arena-size 512 --frames 20 -o " VS_BINARY_DIR
		"/tests/gen-heap-512.trace", out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(vs_test_run_cli("replay " VS_BINARY_DIR "/tests/gen-heap-512.trace", out, sizeof out, err,
		sizeof err) == 0, "%s", err);
	remove(VS_BINARY_DIR "/tests/gen-heap-512.trace");
	ck_assert_int_eq(vs_test_run_cli("gen heap-churn --fill 0", out, sizeof out, err, sizeof err), 2);
	ck_assert_int_eq(vs_test_run_cli("gen sprite-churn --sizes log:8-16", out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "heap-churn only") != NULL, "%s", err);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gen_heap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, defaults_deterministic_and_within_fill);
	tcase_add_test(tc, size_distributions);
	tcase_add_test(tc, lifetimes_as_drawn);
	tcase_add_test(tc, fill_forces_early_frees);
	tcase_add_test(tc, replays_clean);
	tcase_add_test(tc, dist_parse);
	tcase_add_test(tc, cli);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
