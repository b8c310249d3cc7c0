/* SPDX-License-Identifier: Zlib */
/* test_heap_trace.c - seed 004's heap manager from a trace: a call's own
 * search list (search=), the no-heap-route switch (heaps route=off), Pop
 * removing the top; reading, writing back, bad input and replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/replay.h"
#include "vramsim/trace.h"

/* Reads text and writes it back in canonical form into out. */
static void reformat(const char *text, char *out, size_t cap)
{
	char err[1024];
	FILE *in = fmemopen((void *)text, strlen(text), "rb");
	FILE *o = fmemopen(out, cap, "wb");
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(o);
	rd = vs_trace_open_stream(in, "t", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_write_header(o, vs_trace_header_of(rd)), 0);
	while ((rc = vs_trace_next(rd, &ev)) == 1)
		ck_assert_int_eq(vs_trace_write_event(o, vs_trace_header_of(rd), &ev), 0);
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(in);
	fclose(o);
}

/* The error reading text gives ("" when it reads whole). */
static const char *read_error(const char *text)
{
	static char err[1024];
	FILE *in = fmemopen((void *)text, strlen(text), "rb");
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(in);
	err[0] = '\0';
	rd = vs_trace_open_stream(in, "t", err, sizeof err);
	if (rd) {
		while ((rc = vs_trace_next(rd, &ev)) == 1)
			;
		if (rc < 0)
			snprintf(err, sizeof err, "%s", vs_trace_error(rd));
		vs_trace_close(rd);
	}
	fclose(in);
	return err;
}

#define HEAD "vramsim-trace 1\narena main ram size=64K strategy=heap-dlmalloc\n" \
	"arena lvl ram size=8K strategy=heap-dlmalloc\narena zone ram size=32K strategy=heap-tracking\n" \
	"arena tiny ram size=4K strategy=heap-dlmalloc\n"

START_TEST(canonical_round_trip)
{
	static char a[4096], b[4096];
	const char *in = HEAD
		"heaps route=off default=main small=tiny\nsearch any lvl zone\n"
		"alloc 1 300 search=zone,lvl tag=x\nalloc 2 any 300\npush lvl\npop lvl\n";

	reformat(in, a, sizeof a);
	ck_assert_str_eq(a, "vramsim-trace 1\narena main ram size=65536 strategy=heap-dlmalloc\n"
		"arena lvl ram size=8192 strategy=heap-dlmalloc\narena zone ram size=32768 strategy=heap-tracking\n"
		"arena tiny ram size=4096 strategy=heap-dlmalloc\n"
		"heaps small=tiny default=main route=off\nsearch any lvl zone\n"
		"alloc 1 300 tag=x search=zone,lvl\nalloc 2 any 300\npush lvl\npop lvl\n");
	reformat(a, b, sizeof b);
	ck_assert_str_eq(a, b);
	/* route=on is the default and is left out */
	reformat(HEAD "heaps route=on\nalloc 1 10\n", a, sizeof a);
	ck_assert_ptr_nonnull(strstr(a, "\nheaps\nalloc 1 10\n"));
}
END_TEST

START_TEST(bad_input)
{
	ck_assert_str_eq(read_error(HEAD "heaps route=maybe\n"),
		"t:6:13: error: heaps: route must be on or off, not 'maybe'");
	ck_assert_str_eq(read_error(HEAD "heaps rout=off\n"),
		"t:6:7: error: heaps: unknown key 'rout' (small, default, keep-small, route)");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 300 search=lvl,nope\n"),
		"t:7:24: error: unknown arena 'nope'");
	ck_assert_str_eq(read_error(HEAD "heaps\nsearch any lvl zone\nalloc 1 300 search=any\n"),
		"t:8:20: error: unknown arena 'any'");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 300 search=lvl,\n"),
		"t:7:24: error: unknown arena ''");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 lvl 300 search=zone\n"),
		"t:7:17: error: search= is the list of heaps this call tries: name no heap or search list before the "
		"request as well");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 300 search=main,main,main,main,main,main,main,main,lvl\n"),
		"t:7:60: error: search=: at most 8 heaps");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 300 search=lvl search=zone\n"),
		"t:7:24: error: search= given twice");
	/* without heaps there is no search= */
	ck_assert_str_eq(read_error(HEAD "alloc 1 lvl 300 search=zone\n"),
		"t:6:17: error: unknown key 'search' (tag, align, dir, opt, at, data, cb)");
	ck_assert_str_eq(read_error(HEAD "heaps\nalloc 1 300 search=lvl,zone\n"), "");
}
END_TEST

/* ---- replay -------------------------------------------------------------- */

typedef struct run {
	vs_replay *r;
	FILE *in;
	char msgs[8192];
	size_t mlen;
} run;

static void collect(void *ud, const char *line)
{
	run *x = ud;
	int n = snprintf(x->msgs + x->mlen, sizeof x->msgs - x->mlen, "%s\n", line);

	if (n > 0 && x->mlen + (size_t)n < sizeof x->msgs)
		x->mlen += (size_t)n;
}

static void start(run *x, const char *text)
{
	char err[1024];
	vs_trace_reader *rd;
	vs_replay_config cfg;

	memset(x, 0, sizeof *x);
	x->in = fmemopen((void *)text, strlen(text), "rb");
	ck_assert_ptr_nonnull(x->in);
	rd = vs_trace_open_stream(x->in, "t", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.message = collect;
	cfg.message_ud = x;
	x->r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(x->r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(x->r, 0), 0);
}

static void finish(run *x)
{
	vs_replay_free(x->r);
	fclose(x->in);
}

typedef struct where { uint64_t id; int arena; } where;

static void find_arena(void *ud, const vs_live *l)
{
	where *w = ud;

	if (l->id == w->id)
		w->arena = (int)l->arena;
}

static int arena_of(run *x, uint64_t id)
{
	where w = { id, -1 };

	vs_replay_live_walk(x->r, find_arena, &w);
	return w.arena;
}

enum { MAIN, LVL, ZONE, TINY };

START_TEST(replay_per_call_search)
{
	run x;

	start(&x, HEAD "heaps small=tiny\n"
		"push main\n"
		"alloc 1 3000 search=lvl,zone\n"   /* lvl first */
		"alloc 2 3000 search=lvl,zone\n"
		"alloc 3 3000 search=lvl,zone\n"   /* lvl (8K) is full: zone */
		"alloc 4 3000 search=zone,lvl\n"   /* another call, another order */
		"alloc 5 100 search=lvl,zone\n"    /* the small rule first */
		"alloc 6 3000\n"                   /* no list: the stack */
		"alloc 7 20000 search=lvl\n");     /* every heap fails: counted in the last */
	ck_assert_int_eq(arena_of(&x, 1), LVL);
	ck_assert_int_eq(arena_of(&x, 2), LVL);
	ck_assert_int_eq(arena_of(&x, 3), ZONE);
	ck_assert_int_eq(arena_of(&x, 4), ZONE);
	ck_assert_int_eq(arena_of(&x, 5), TINY);
	ck_assert_int_eq(arena_of(&x, 6), MAIN);
	ck_assert_int_eq(arena_of(&x, 7), -1);
	ck_assert_uint_eq(vs_replay_metrics(x.r, LVL)->routed_search, 2);
	ck_assert_uint_eq(vs_replay_metrics(x.r, ZONE)->routed_search, 2);
	ck_assert_uint_eq(vs_replay_metrics(x.r, TINY)->routed_small, 1);
	ck_assert_uint_eq(vs_replay_metrics(x.r, LVL)->failures, 1);
	finish(&x);
}
END_TEST

START_TEST(replay_no_route)
{
	run x;

	start(&x, HEAD "heaps default=main small=tiny route=off\nsearch any lvl zone\n"
		"push lvl\n"
		"alloc 1 3000\n"            /* the stack is not asked */
		"alloc 2 zone 3000\n"       /* nor the heap named */
		"alloc 3 any 3000\n"        /* nor a search list */
		"alloc 4 3000 search=zone\n"
		"alloc 5 100\n"             /* radMemoryAlloc's own small check */
		"pop lvl\n");
	ck_assert_int_eq(arena_of(&x, 1), MAIN);
	ck_assert_int_eq(arena_of(&x, 2), MAIN);
	ck_assert_int_eq(arena_of(&x, 3), MAIN);
	ck_assert_int_eq(arena_of(&x, 4), MAIN);
	ck_assert_int_eq(arena_of(&x, 5), TINY);
	ck_assert_uint_eq(vs_replay_metrics(x.r, MAIN)->routed_search, 0);
	ck_assert_uint_eq(vs_replay_metrics(x.r, MAIN)->live_count, 4);
	ck_assert_uint_eq(vs_replay_diag_count(x.r, VS_DIAG_HEAP_STACK), 0);
	finish(&x);
	/* the same trace routed */
	start(&x, HEAD "heaps default=main small=tiny\nsearch any lvl zone\n"
		"push lvl\nalloc 1 3000\nalloc 2 zone 3000\n");
	ck_assert_int_eq(arena_of(&x, 1), LVL);
	ck_assert_int_eq(arena_of(&x, 2), ZONE);
	finish(&x);
}
END_TEST

START_TEST(replay_pop_removes_top)
{
	run x;

	start(&x, HEAD "heaps default=main\n"
		"push lvl\npush zone\n"
		"pop lvl\n"            /* zone is on top: it goes, with a warning */
		"alloc 1 3000\n"       /* lvl is on top now */
		"pop lvl\n"
		"alloc 2 3000\n"       /* empty: the default */
		"pop lvl\n");          /* nothing to remove */
	ck_assert_int_eq(arena_of(&x, 1), LVL);
	ck_assert_int_eq(arena_of(&x, 2), MAIN);
	ck_assert_uint_eq(vs_replay_diag_count(x.r, VS_DIAG_HEAP_STACK), 2);
	ck_assert_msg(strstr(x.msgs, "t:9: warning: heap stack: pop of 'lvl', but 'zone' was on top (removed)") != NULL,
		"%s", x.msgs);
	ck_assert_msg(strstr(x.msgs, "t:13: warning: heap stack: pop of 'lvl' from an empty heap stack") != NULL,
		"%s", x.msgs);
	finish(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_trace");
	TCase *tc = tcase_create("seed004");

	tcase_add_test(tc, canonical_round_trip);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, replay_per_call_search);
	tcase_add_test(tc, replay_no_route);
	tcase_add_test(tc, replay_pop_removes_top);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
