/* SPDX-License-Identifier: Zlib */
/* test_heap_held.c - what the RAM heaps keep for themselves (strategy->held),
 * seen through the replay engine.
 *
 * Long random traces run through vs_replay; a shadow instance of the same
 * strategy, driven by the test, says which allocations succeed so that frees
 * only name live ids. Every few events the arena is accounted to the byte:
 * the simulator's free bytes plus its management bytes plus the blocks of
 * live and retained allocations make the arena, the free bytes are exactly
 * what the allocator walks as free and what its own status says, every byte
 * it walks as free is free in the map, every byte it holds is management
 * overhead in the map, and no integrity check ever fails. Hand-made cases pin
 * the figures each layout implies.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/heap_pools.h"
#include "vram/arena.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"


typedef struct held_case {
	const char *name;
	const char *options;
	uint32_t size;
	uint32_t max_req;
	int aligns;      /* takes align= above 8 */
} held_case;

static const held_case cases[] = {
	{ "heap-first-fit", "", 64 * 1024 + 12, 3000, 1 },
	{ "heap-next-fit", "", 64 * 1024, 3000, 1 },
	{ "heap-best-fit", "", 50003, 3000, 1 },
	{ "heap-tlsf", "", 64 * 1024, 3000, 1 },
	{ "heap-tlsf", "", 32 * 1024 + 12, 2000, 1 },
	{ "heap-dlmalloc", "", 64 * 1024, 3000, 1 },
	{ "heap-dlmalloc", "", 20001, 2000, 1 },
	{ "heap-tracking", "", 64 * 1024, 3000, 1 },
	{ "heap-tracking", "records=40", 64 * 1024, 4000, 1 },
	{ "heap-buddy", "", 96 * 1024 + 40, 3000, 1 },
	{ "heap-pow2-pools", "", 100000, 1024, 1 },
	{ "heap-pow2-pools", "split=4/4/2/2/1/1/1/0", 100003, 1024, 1 },
	{ "heap-bank", "cell=32,per=64", 64 * 1024, 32, 0 },
	{ "heap-bank", "cell=20,per=33", 50000, 20, 0 },
	{ "heap-linear", "", 256 * 1024, 600, 1 },
	{ "heap-static", "", 256 * 1024, 600, 1 },
};

/* ---- a replay over a trace held in memory ------------------------------ */

typedef struct run {
	vs_replay *r;
	FILE *in;
	char *text;
} run;

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void start(run *x, char *text, const char *name, const char *options)
{
	char err[1024];
	vs_trace_reader *rd;
	vs_replay_config cfg;

	x->text = text;
	x->in = fmemopen(text, strlen(text), "rb");
	ck_assert_ptr_nonnull(x->in);
	rd = vs_trace_open_stream(x->in, "t", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(name);
	ck_assert_ptr_nonnull(cfg.strategy[0]);
	cfg.options[0] = options;
	cfg.message = quiet;
	x->r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(x->r != NULL, "%s", err);
}

static void finish(run *x)
{
	vs_replay_free(x->r);
	fclose(x->in);
	free(x->text);
}

/* ---- accounting -------------------------------------------------------- */

typedef struct tally {
	const vs_arena *a;
	uint64_t bytes;
	uint32_t largest;
	int held;         /* extents are held ones (else free ones) */
} tally;

static int on_extent(void *ud, uint32_t off, uint32_t size)
{
	tally *t = ud;
	uint32_t i;
	vs_own_run own;

	HOT_ASSERT((uint64_t)off + size <= t->a->decl.size, "extent [%u, +%u) outside the arena", off, size);
	/* every run of the map over the extent (units are bytes here) */
	for (i = off; i < off + size && vs_arena_run_at(t->a, i, &own) == 0; i = own.first + own.count) {
		if (t->held)
			HOT_ASSERT(own.owner == VS_OWNER_ALLOC && own.kind == VS_UNIT_OVERHEAD,
				"held byte %u: owner 0x%x kind %u", i, own.owner, own.kind);
		else
			HOT_ASSERT(own.owner == VS_OWNER_NONE, "free byte %u: owner 0x%x", i, own.owner);
	}
	t->bytes += size;
	if (size > t->largest)
		t->largest = size;
	return 0;
}

static void on_live(void *ud, const vs_live *l)
{
	uint64_t *sum = ud;

	*sum += l->pl.block_size;
}

typedef struct text_buf { char s[4096]; size_t n; } text_buf;

static void on_print(void *ud, const char *text)
{
	text_buf *b = ud;
	size_t k = strlen(text);

	if (b->n + k < sizeof b->s) {
		memcpy(b->s + b->n, text, k + 1);
		b->n += k;
	}
}

/* The allocator's own total free, read off its status line. */
static uint64_t status_free(const vs_strategy *s, void *st)
{
	text_buf b = { "", 0 };
	const char *p;

	s->dump(st, on_print, &b);
	p = strstr(b.s, "status: free ");
	ck_assert_msg(p != NULL, "%s", b.s);
	return strtoull(p + 13, NULL, 10);
}

static uint64_t held_total(run *x)
{
	const vs_strategy *s = vs_replay_strategy(x->r, 0);
	tally t = { vs_replay_arena(x->r, 0), 0, 0, 1 };

	if (s->held)
		s->held(vs_replay_strategy_state(x->r, 0), on_extent, &t);
	return t.bytes;
}

static void check_accounting(run *x, const char *where)
{
	const vs_metrics *m = vs_replay_metrics(x->r, 0);
	const vs_arena *a = vs_replay_arena(x->r, 0);
	const vs_strategy *s = vs_replay_strategy(x->r, 0);
	void *st = vs_replay_strategy_state(x->r, 0);
	tally f = { a, 0, 0, 0 };
	uint64_t blocks = 0, held;
	vs_free_stats fs;

	ck_assert_uint_eq(vs_replay_check_total(x->r), 0);
	vs_replay_live_walk(x->r, on_live, &blocks);
	s->walk_free(st, on_extent, &f);
	held = held_total(x);
	vs_arena_free_stats(a, &fs);
	ck_assert_msg(m->free_bytes + m->management_bytes + blocks == a->decl.size,
		"%s %s: free %llu + management %llu + blocks %llu != %u", s->name, where,
		(unsigned long long)m->free_bytes, (unsigned long long)m->management_bytes,
		(unsigned long long)blocks, (unsigned)a->decl.size);
	ck_assert_uint_eq(fs.free_bytes, m->free_bytes);
	ck_assert_msg(m->free_bytes == f.bytes, "%s %s: simulator free %llu, allocator walks %llu", s->name,
		where, (unsigned long long)m->free_bytes, (unsigned long long)f.bytes);
	ck_assert_uint_eq(f.bytes, status_free(s, st));
	/* held extents may touch each other but never overlap: each byte once */
	ck_assert_uint_eq(held, m->management_bytes);
	ck_assert_uint_ge(m->largest_free, f.largest);
}

/* ---- random traces ------------------------------------------------------ */

static uint32_t rand_size(vs_rng *r, uint32_t max)
{
	uint32_t k = vs_rng_below(r, 100), v;

	if (k < 55)
		v = 1 + vs_rng_below(r, 64);
	else if (k < 85)
		v = 1 + vs_rng_below(r, 512);
	else
		v = 1 + vs_rng_below(r, max);
	return v > max ? max : v;
}

/* The extents held reports, folded into one number in the order given. */
static int fold_extent(void *ud, uint32_t off, uint32_t size)
{
	uint64_t *h = ud;

	*h = (*h ^ off) * 0x100000001b3ull;
	*h = (*h ^ size) * 0x100000001b3ull;
	return 0;
}

static uint64_t held_sig(const vs_strategy *s, void *st)
{
	uint64_t h = 0xcbf29ce484222325ull;

	if (s->held)
		s->held(st, fold_extent, &h);
	return h;
}

/* Writes a trace of about steps events and a shadow replay of it: frees name
 * only ids whose allocation succeeded in the shadow. A strategy that says
 * alloc and free never change its held extents (VS_STRAT_HELD_FIXED, so the
 * replay stops asking after them) is held to it after every call. */
static char *make_trace(const held_case *hc, uint32_t seed, int steps)
{
	const vs_strategy *s = vs_strategy_find(hc->name);
	vs_arena_decl d;
	vs_rng rng = { 0x9e3779b97f4a7c15ull * (seed + 1u) };
	uint8_t *mem = calloc(1, hc->size);
	void *st = calloc(1, s->state_size);
	struct { uint32_t id; vs_placement pl; } *lv = calloc((size_t)steps + 1u, sizeof *lv);
	char err[256], *text = NULL;
	size_t len = 0, n = 0;
	uint32_t next_id = 1;
	uint64_t fixed;
	FILE *out = open_memstream(&text, &len);
	int i;

	ck_assert_ptr_nonnull(out);
	vs_arena_decl_default(&d, VS_ARENA_RAM);
	d.size = hc->size;
	ck_assert_msg(s->init(st, &d, hc->options, mem, err, sizeof err) == 0, "%s", err);
	fixed = held_sig(s, st);
	fprintf(out, "vramsim-trace 1\narena heap ram size=%u\n", (unsigned)hc->size);
	for (i = 0; i < steps; i++) {
		uint32_t k = vs_rng_below(&rng, 1000);

		if ((s->flags & VS_STRAT_HELD_FIXED) && k)
			ck_assert_msg(held_sig(s, st) == fixed, "%s: held extents changed by an alloc or free "
				"(step %d), and it says they never do (VS_STRAT_HELD_FIXED)", s->name, i);

		if (k == 0) {
			/* now and then everything goes */
			fprintf(out, "reset\n");
			s->reset(st);
			fixed = held_sig(s, st);
			n = 0;
		} else if (n && k < 480) {
			size_t j = vs_rng_below(&rng, (uint32_t)n);
			int rc = s->free(st, &lv[j].pl);

			ck_assert_int_ge(rc, 0);
			fprintf(out, "free %u\n", (unsigned)lv[j].id);
			lv[j] = lv[--n];
		} else {
			vs_request rq;
			vs_placement pl;
			uint32_t align = hc->aligns && vs_rng_below(&rng, 10) == 0 ? 16u << vs_rng_below(&rng, 4) : 0;

			memset(&rq, 0, sizeof rq);
			rq.size = rand_size(&rng, hc->max_req);
			rq.align = align;
			memset(&pl, 0, sizeof pl);
			if (align)
				fprintf(out, "alloc %u %u align=%u\n", (unsigned)next_id, (unsigned)rq.size, (unsigned)align);
			else
				fprintf(out, "alloc %u %u\n", (unsigned)next_id, (unsigned)rq.size);
			if (s->alloc(st, &rq, &pl) >= 0) {
				lv[n].id = next_id;
				lv[n].pl = pl;
				n++;
			}
			next_id++;
		}
	}
	/* free what is left, half of it, to end on a mixed heap */
	while (n > 1) {
		fprintf(out, "free %u\n", (unsigned)lv[n - 1].id);
		n -= 2;
	}
	fclose(out);
	if (s->fini)
		s->fini(st);
	free(mem);
	free(st);
	free(lv);
	return text;
}

static void run_case(const held_case *hc, uint32_t seed, int steps)
{
	run x;
	int rc, ev = 0;

	start(&x, make_trace(hc, seed, steps), hc->name, hc->options);
	check_accounting(&x, "at start");
	while ((rc = vs_replay_step(x.r)) == 1) {
		if (++ev % 37 == 0)
			check_accounting(&x, "during the run");
	}
	ck_assert_msg(rc == 0, "%s", vs_replay_error(x.r));
	check_accounting(&x, "at the end");
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_diag_total(x.r), 0);
	finish(&x);
}

START_TEST(random_traces_account_every_byte)
{
	run_case(&cases[_i], 1u + (uint32_t)_i, 6000);
	run_case(&cases[_i], 101u + (uint32_t)_i, 3000);
}
END_TEST

/* Every strategy that says its held extents are fixed is held to it: a
 * heap by its case above, where make_trace checks it after every call, a
 * BG tile strategy by bg_held_fixed_same_as_asked below. */
START_TEST(held_fixed_strategies_are_checked)
{
	size_t i, j;

	for (i = 0; i < vs_strategy_count(); i++) {
		const vs_strategy *s = vs_strategy_at(i);
		int found = (s->arenas & VS_ARENA_BIT(VS_ARENA_GBA_BG)) != 0;

		if (!(s->flags & VS_STRAT_HELD_FIXED))
			continue;
		for (j = 0; j < sizeof cases / sizeof cases[0]; j++)
			found |= strcmp(cases[j].name, s->name) == 0;
		ck_assert_msg(found, "%s sets VS_STRAT_HELD_FIXED and has no case in test_heap_held", s->name);
	}
}
END_TEST

/* A BG tile strategy that says its held extents are fixed: the bundled BG
 * traces give the same metrics, checks and events through it as through a
 * copy without the flag, which the replay asks after every call. */
START_TEST(bg_held_fixed_same_as_asked)
{
	static const char *const traces[] = { "gba-side-scroller-1", "gba-side-scroller-2", "gba-demo-capture" };
	size_t i, t;
	int checked = 0;

	for (i = 0; i < vs_strategy_count(); i++) {
		const vs_strategy *s = vs_strategy_at(i);
		vs_strategy asked;

		if (!(s->flags & VS_STRAT_HELD_FIXED) || !(s->arenas & VS_ARENA_BIT(VS_ARENA_GBA_BG)))
			continue;
		asked = *s;
		asked.flags &= ~(uint32_t)VS_STRAT_HELD_FIXED;
		for (t = 0; t < sizeof traces / sizeof traces[0]; t++) {
			char path[1024], *text;
			vs_test_replay x[2];
			int k, a, n;

			snprintf(path, sizeof path, "%s/traces/%s.trace", VS_SOURCE_DIR, traces[t]);
			text = vs_test_slurp(path);
			for (k = 0; k < 2; k++) {
				vs_replay_config cfg;
				char err[512];

				vs_replay_config_default(&cfg);
				/* the BG arenas' kinds from a first open, then the strategy on each */
				ck_assert_msg(vs_test_replay_open(&x[k], text, traces[t], &cfg, err, sizeof err) != NULL, "%s", err);
				n = vs_replay_arena_count(x[k].r);
				for (a = 0; a < n; a++)
					if (vs_replay_arena(x[k].r, a)->decl.kind == VS_ARENA_GBA_BG)
						cfg.strategy[a] = k ? &asked : s;
				vs_test_replay_close(&x[k]);
				ck_assert_msg(vs_test_replay_open(&x[k], text, traces[t], &cfg, err, sizeof err) != NULL, "%s", err);
				ck_assert_int_eq(vs_replay_run(x[k].r, 0), 0);
			}
			for (a = 0; a < n; a++)
				ck_assert_msg(memcmp(vs_replay_metrics(x[0].r, a), vs_replay_metrics(x[1].r, a),
					sizeof(vs_metrics)) == 0, "%s on %s: arena %d's metrics differ", s->name, traces[t], a);
			ck_assert_uint_eq(vs_replay_check_total(x[0].r), vs_replay_check_total(x[1].r));
			ck_assert_uint_eq(vs_replay_diag_total(x[0].r), vs_replay_diag_total(x[1].r));
			ck_assert_uint_eq(vs_replay_events(x[0].r), vs_replay_events(x[1].r));
			vs_test_replay_close(&x[0]);
			vs_test_replay_close(&x[1]);
			free(text);
			checked++;
		}
	}
	ck_assert_int_ge(checked, 6); /* gba-bg-tiles and gba-bg-tiles-split, three traces each */
}
END_TEST

/* ---- hand-made figures --------------------------------------------------- */

static const vs_metrics *replay_text(run *x, const char *text, const char *name, const char *options)
{
	char *t = strdup(text);

	ck_assert_ptr_nonnull(t);
	start(x, t, name, options);
	ck_assert_int_eq(vs_replay_run(x->r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(x->r), 0);
	return vs_replay_metrics(x->r, 0);
}

static uint64_t management_of(const char *name, const char *options, uint32_t size)
{
	char text[128];
	run x;
	uint64_t v;

	snprintf(text, sizeof text, "vramsim-trace 1\narena heap ram size=%u\nalloc 1 100\nfree 1\n", (unsigned)size);
	v = replay_text(&x, text, name, options)->management_bytes;
	check_accounting(&x, "fixed figures");
	finish(&x);
	return v;
}

/* What each layout keeps, computed from its description in docs/heaps.md. */
START_TEST(fixed_overheads)
{
	heap_pools p;
	uint32_t i, slots = 0;
	static const uint32_t w[8] = { 4, 4, 2, 2, 1, 1, 1, 0 };

	/* boundary tags over 256 KiB: a 4-byte pad before the first block (which
	 * starts at 4 mod 8) and the 4-byte epilogue head */
	ck_assert_uint_eq(management_of("heap-first-fit", "", 256 * 1024), 8);
	ck_assert_uint_eq(management_of("heap-next-fit", "", 256 * 1024), 8);
	ck_assert_uint_eq(management_of("heap-best-fit", "", 256 * 1024), 8);
	/* 12 bytes more: the blocks grow by 8, the 4 past the last multiple of
	 * 8 after the epilogue are unusable */
	ck_assert_uint_eq(management_of("heap-first-fit", "", 256 * 1024 + 12), 8 + 4);
	/* Doug Lea: the 336-byte control block, a 4-byte pad, the epilogue */
	ck_assert_uint_eq(management_of("heap-dlmalloc", "", 256 * 1024), 336 + 4 + 4);
	/* TLSF over 256 KiB: a 1,588-byte control block (docs/heaps.md), the
	 * first block at 1588 (4 mod 8), the epilogue */
	ck_assert_uint_eq(management_of("heap-tlsf", "", 256 * 1024), 1588 + 4);
	/* tracking: the record table, 8 bytes a record, size/256 records */
	ck_assert_uint_eq(management_of("heap-tracking", "", 256 * 1024), 8 * 1024);
	ck_assert_uint_eq(management_of("heap-tracking", "records=40", 64 * 1024), 8 * 40);
	/* buddy: headers are in the blocks; only the 8 bytes past 96K+32 */
	ck_assert_uint_eq(management_of("heap-buddy", "", 96 * 1024 + 40), 8);
	ck_assert_uint_eq(management_of("heap-buddy", "", 64 * 1024), 0);
	/* bank, cell=32 per=64: one segment, its 16-byte header and 2-word map */
	ck_assert_uint_eq(management_of("heap-bank", "cell=32,per=64", 64 * 1024), 16 + 8);
	ck_assert_uint_eq(management_of("heap-bank", "cell=20,per=33", 50000), 16 + 8);
	/* bump allocators keep nothing */
	ck_assert_uint_eq(management_of("heap-linear", "", 64 * 1024), 0);
	ck_assert_uint_eq(management_of("heap-static", "", 64 * 1024), 0);
	/* pools: everything but the slots (stacks, pads, leftovers) */
	ck_assert_int_eq(heap_pools_init(&p, NULL, 100003, w), 0);
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		slots += p.pool[i].count * (HEAP_POOLS_MIN << i);
		ck_assert_uint_ge(p.pool[i].slots - p.pool[i].stack, 4u * p.pool[i].count);
	}
	ck_assert_uint_eq(p.pool[7].count, 0);
	ck_assert_uint_eq(management_of("heap-pow2-pools", "split=4/4/2/2/1/1/1/0", 100003), 100003 - slots);
	ck_assert_uint_ge(100003 - slots, 100003 / 11 * 1); /* the last share (1/11) is nobody's */
}
END_TEST

/* Bank segments come and go: their headers and maps follow, through
 * allocation, free, restore (which frees what came after the save) and
 * reset. Events are numbered in the comments. */
START_TEST(bank_segments_follow)
{
	char text[16384];
	size_t n = 0;
	run x;
	const vs_metrics *m;
	int i;

	n += (size_t)snprintf(text + n, sizeof text - n, "vramsim-trace 1\narena heap ram size=65536\nsave empty\n");
	for (i = 1; i <= 130; i++) /* 2-131; 64 cells a segment: three segments */
		n += (size_t)snprintf(text + n, sizeof text - n, "alloc %d 32\n", i);
	/* 132-133: the third segment empties; 134 */
	n += (size_t)snprintf(text + n, sizeof text - n, "free 129\nfree 130\nsave full\n");
	for (i = 131; i <= 196; i++) /* 135-200: the third segment again, and a fourth */
		n += (size_t)snprintf(text + n, sizeof text - n, "alloc %d 32\n", i);
	/* 201-204 */
	n += (size_t)snprintf(text + n, sizeof text - n, "restore full\nrestore empty\nalloc 500 32\nreset\n");
	start(&x, strdup(text), "heap-bank", "cell=32,per=64");
	m = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(m->management_bytes, 24);
	ck_assert_int_eq(vs_replay_run(x.r, 65), 1);
	ck_assert_uint_eq(m->management_bytes, 24);
	ck_assert_int_eq(vs_replay_run(x.r, 66), 1);
	ck_assert_uint_eq(m->management_bytes, 48);
	check_accounting(&x, "two segments");
	ck_assert_int_eq(vs_replay_run(x.r, 131), 1);
	ck_assert_uint_eq(m->management_bytes, 72);
	ck_assert_int_eq(vs_replay_run(x.r, 132), 1);
	ck_assert_uint_eq(m->management_bytes, 72);
	ck_assert_int_eq(vs_replay_run(x.r, 133), 1);
	/* the empty third segment is free again, header and all */
	ck_assert_uint_eq(m->management_bytes, 48);
	check_accounting(&x, "a released segment");
	ck_assert_int_eq(vs_replay_run(x.r, 200), 1);
	ck_assert_uint_eq(m->management_bytes, 96);
	check_accounting(&x, "four segments");
	ck_assert_int_eq(vs_replay_run(x.r, 201), 1);
	ck_assert_uint_eq(m->management_bytes, 48);
	check_accounting(&x, "restore full");
	ck_assert_int_eq(vs_replay_run(x.r, 202), 1);
	ck_assert_uint_eq(m->management_bytes, 24);
	ck_assert_uint_eq(m->free_bytes, 65536 - 24);
	check_accounting(&x, "restore empty");
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(m->management_bytes, 24);
	check_accounting(&x, "reset");
	ck_assert_uint_eq(vs_replay_diag_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	finish(&x);
}
END_TEST

/* ---- when the replay asks ------------------------------------------------ */

static unsigned held_asked;
static void (*dl_held_fn)(void *st, vs_extent_fn fn, void *ud);

static void counting_held(void *st, vs_extent_fn fn, void *ud)
{
	held_asked++;
	dl_held_fn(st, fn, ud);
}

/* heap-dlmalloc's table registered again with a held that counts its
 * calls, with and without VS_STRAT_HELD_FIXED: without it held is asked
 * after every alloc and free, with it only at init, reset and restore. */
START_TEST(held_fixed_is_asked_only_when_it_can_change)
{
	static vs_strategy asked, fixed;
	static const char text[] = "vramsim-trace 1\narena heap ram size=65536\nsave s\n"
		"alloc 1 100\nalloc 2 200\nfree 1\nalloc 3 50\nrestore s\nalloc 4 10\nfree 4\nreset\n";
	const vs_strategy *dl = vs_strategy_find("heap-dlmalloc");
	char err[256];
	unsigned i, count[2];

	ck_assert_ptr_nonnull(dl);
	ck_assert(dl->flags & VS_STRAT_HELD_FIXED);
	dl_held_fn = dl->held;
	asked = *dl;
	asked.name = "test-dl-asked";
	asked.flags &= ~(uint32_t)(VS_STRAT_STORES_SEEN | VS_STRAT_HELD_FIXED); /* a plug-in's table */
	asked.held = counting_held;
	fixed = asked;
	fixed.name = "test-dl-fixed";
	fixed.flags |= VS_STRAT_HELD_FIXED;
	ck_assert_msg(vs_strategy_register(&asked, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(vs_strategy_register(&fixed, err, sizeof err) == 0, "%s", err);
	for (i = 0; i < 2; i++) {
		run x;

		held_asked = 0;
		replay_text(&x, text, i ? "test-dl-fixed" : "test-dl-asked", "");
		count[i] = held_asked;
		check_accounting(&x, "counted");
		finish(&x);
	}
	/* both at init, restore and reset; without the flag after each of
	 * the six allocs and frees too */
	ck_assert_uint_ge(count[1], 3);
	ck_assert_uint_eq(count[0], count[1] + 6);
}
END_TEST

/* The bundled heap traces replay clean under every heap strategy, and the
 * arena is accounted to the byte at the end. */
START_TEST(bundled_traces)
{
	static const char *const traces[] = { "heap-malloclab-mix.trace", "heap-scratch.trace" };
	static const char *const names[] = { "heap-first-fit", "heap-next-fit", "heap-best-fit", "heap-tlsf",
		"heap-dlmalloc", "heap-tracking", "heap-buddy", "heap-pow2-pools", "heap-bank", "heap-linear",
		"heap-static" };
	char err[1024], path[512];
	size_t i;

	for (i = 0; i < sizeof names / sizeof *names; i++) {
		vs_trace_reader *rd;
		vs_replay_config cfg;
		run x;

		snprintf(path, sizeof path, "%s/traces/%s", VS_SOURCE_DIR, traces[_i]);
		rd = vs_trace_open(path, err, sizeof err);
		ck_assert_msg(rd != NULL, "%s", err);
		vs_replay_config_default(&cfg);
		cfg.strategy[0] = vs_strategy_find(names[i]);
		cfg.message = quiet;
		x.r = vs_replay_new(rd, &cfg, err, sizeof err);
		ck_assert_msg(x.r != NULL, "%s", err);
		while (vs_replay_step(x.r) == 1)
			if (vs_replay_events(x.r) % 211 == 0)
				check_accounting(&x, traces[_i]);
		check_accounting(&x, traces[_i]);
		ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
		vs_replay_free(x.r);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_held");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, random_traces_account_every_byte, 0, (int)(sizeof cases / sizeof *cases));
	tcase_add_test(tc, held_fixed_strategies_are_checked);
	tcase_add_test(tc, bg_held_fixed_same_as_asked);
	suite_add_tcase(s, tc);
	tc = tcase_create("cases");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fixed_overheads);
	tcase_add_test(tc, bank_segments_follow);
	tcase_add_test(tc, held_fixed_is_asked_only_when_it_can_change);
	tcase_add_loop_test(tc, bundled_traces, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
