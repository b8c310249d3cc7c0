/* SPDX-License-Identifier: Zlib */
/* test_heap_trace.c - seed 004's heap manager from a trace: a call's own
 * search list (search=), the no-heap-route switch (heaps route=off), Pop
 * removing the top; reading, writing back, bad input and replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

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

	vs_test_reformat(in, a, sizeof a);
	ck_assert_str_eq(a, "vramsim-trace 1\narena main ram size=65536 strategy=heap-dlmalloc\n"
		"arena lvl ram size=8192 strategy=heap-dlmalloc\narena zone ram size=32768 strategy=heap-tracking\n"
		"arena tiny ram size=4096 strategy=heap-dlmalloc\n"
		"heaps small=tiny default=main route=off\nsearch any lvl zone\n"
		"alloc 1 300 tag=x search=zone,lvl\nalloc 2 any 300\npush lvl\npop lvl\n");
	vs_test_reformat(a, b, sizeof b);
	ck_assert_str_eq(a, b);
	/* route=on is the default and is left out */
	vs_test_reformat(HEAD "heaps route=on\nalloc 1 10\n", a, sizeof a);
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

typedef vs_test_replay run;

static void start(run *x, const char *text)
{
	char err[1024];
	vs_replay_config cfg;

	vs_replay_config_default(&cfg);
	ck_assert_msg(vs_test_replay_open(x, text, "t", &cfg, err, sizeof err) != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(x->r, 0), 0);
}

static void finish(run *x)
{
	vs_test_replay_close(x);
}

static int arena_of(run *x, uint64_t id)
{
	return vs_test_arena_of(x->r, id);
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

/* ---- the manager's own heaps: strategy heap-manager ----------------------- */

typedef struct at_of { uint64_t id; uint32_t off, granted; int found; } at_of;

static void find_off(void *ud, const vs_live *l)
{
	at_of *w = ud;

	if (l->id == w->id) {
		w->off = l->pl.offset;
		w->granted = l->pl.granted;
		w->found = 1;
	}
}

static uint32_t offset_of(run *x, uint64_t id)
{
	at_of w = { id, 0, 0, 0 };

	vs_replay_live_walk(x->r, find_off, &w);
	ck_assert_msg(w.found, "id %llu is not live", (unsigned long long)id);
	return w.off;
}

/* CreateHeap's heaps carved from one region, in id order: default 16K at 0,
 * persistent 8K at 16K, level 16K at 24K, zone 4K at 40K, small alloc 8K at
 * 44K; 12K of the 64K arena is carved by none. */
#define CARVED "vramsim-trace 1\narena ram ram size=64K strategy=heap-manager " \
	"options=setup:shar;h0:doug-lea/16K;h3:static/8K;h4:tracking/16K;h7:tracking/4K;h16:doug-lea/8K\n"

START_TEST(carved_heaps)
{
	run x;
	uint32_t o;

	start(&x, CARVED
		"alloc 1 4000 opt=4\n"    /* GMA_LEVEL: the level heap */
		"alloc 2 100 opt=4\n"     /* under 201 bytes: small alloc */
		"alloc 3 100 opt=3\n"     /* persistent keeps its small ones */
		"alloc 4 3000 opt=25\n"   /* anywhere in level: temp has no heap (default), zone */
		"alloc 5 3000\n"          /* no opt=: GMA_DEFAULT */
		"alloc 6 3000 opt=5\n"    /* level movie has no heap: default */
		"alloc 7 10 opt=40\n"     /* no such allocator */
		"alloc 8 20000 opt=4\n"   /* bigger than the level heap */
		"free 3\n"                /* the static heap keeps it */
		"free 1\n");
	o = offset_of(&x, 2);
	ck_assert_msg(o >= 45056 && o < 53248, "small at %u", o);
	o = offset_of(&x, 3);
	ck_assert_msg(o >= 16384 && o < 24576, "persistent at %u", o);
	o = offset_of(&x, 4);
	ck_assert_msg(o < 16384, "anywhere in level at %u", o);
	o = offset_of(&x, 5);
	ck_assert_msg(o < 16384, "default at %u", o);
	o = offset_of(&x, 6);
	ck_assert_msg(o < 16384, "movie at %u", o);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->failures, 2);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->retained_bytes, 100);
	/* what no request can take: the uncarved 12K, the Doug Lea control
	 * blocks and the tracking tables */
	ck_assert_uint_ge(vs_replay_metrics(x.r, 0)->management_bytes, 12288);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	finish(&x);

	/* the level heap's first allocation, on its own, sits in the level heap */
	start(&x, CARVED "alloc 1 4000 opt=4\n");
	o = offset_of(&x, 1);
	ck_assert_msg(o >= 24576 && o < 40960, "level at %u", o);
	finish(&x);
}
END_TEST

/* Options the strategy refuses, each by name. */
START_TEST(carved_heaps_bad_options)
{
	static const struct { const char *options, *msg; } bad[] = {
		{ "h0=doug-lea/70K", "heap h0 (doug-lea, 71680 bytes) does not fit: 0 of the 65536-byte arena are "
			"carved before it" },
		{ "h0=doug-lea/40K,h1=static/30K", "heap h1 (static, 30720 bytes) does not fit: 40960 of the 65536-byte "
			"arena are carved before it" },
		{ "h0=buddy/4K", "option h0=buddy/4K: expected KIND/SIZE, KIND static, tracking or doug-lea" },
		{ "h0=static/4Q", "option h0=static/4Q: the size is not a number of bytes" },
		{ "h40=static/4K", "unknown option 'h40'" },
		{ "setup=gta", "option setup=gta: expected shar or none" },
		{ "small=32", "option small=32: want a number from 0 to 31" },
		{ "default=none", "no heap declared (h0=doug-lea/64K ...) and no default heap to make" },
	};
	const vs_strategy *s = vs_strategy_find("heap-manager");
	vs_arena_decl d;
	uint8_t *mem = calloc(65536, 1);
	void *st;
	char err[256];
	size_t i;

	ck_assert_ptr_nonnull(s);
	st = calloc(1, s->state_size);
	memset(&d, 0, sizeof d);
	d.kind = VS_ARENA_RAM;
	d.size = 65536;
	d.unit = 1;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		ck_assert_int_ne(s->init(st, &d, bad[i].options, mem, err, sizeof err), 0);
		ck_assert_msg(strncmp(err, bad[i].msg, strlen(bad[i].msg)) == 0, "%s: %s", bad[i].options, err);
	}
	ck_assert_int_eq(s->init(st, &d, "h4=tracking/16K,default=4", mem, err, sizeof err), 0);
	s->fini(st);
	free(st);
	free(mem);
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
	tcase_add_test(tc, carved_heaps);
	tcase_add_test(tc, carved_heaps_bad_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
