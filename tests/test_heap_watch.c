/* SPDX-License-Identifier: Zlib */
/* test_heap_watch.c - the byte check of heaps whose stores the replay sees
 * (VS_STRAT_STORES_SEEN): a deliberately broken heap that writes its
 * headers over live blocks, or hands out overlapping ones, is still
 * reported, by its stores (whichever byte of the data they write) or by
 * the full-byte mode; vramsim's own heaps read the same in that mode as
 * with every byte written; the store helpers answer as their first,
 * plainer forms did. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vramsim/alloc/heap_common.h"

/* ---- a broken heap -------------------------------------------------------
 * A bump heap with an 8-byte header (size, magic) before each payload,
 * written with heap_st32 as vramsim's heaps write theirs. Its faults: */
enum {
	BH_CORRECT,   /* none */
	BH_INNER,     /* alloc writes its header into the middle of the last block's data */
	BH_EDGE,      /* alloc writes its header over the last block's last 4 bytes */
	BH_OVERLAP,   /* hands out the last block again */
	BH_FREE_LINK, /* free writes a link into the middle of the next block's data */
	BH_HEAD_EDGE, /* alloc writes over the last block's first 4 bytes */
	BH_FREE_BACK, /* free writes into the middle of the block before it */
	BH_SAME       /* alloc writes into the middle of the last block's data the word that is there */
};

typedef struct bh_state {
	uint8_t *mem;
	uint32_t size, next, last, mode;
} bh_state;

#define BH_HEAD 8u
#define BH_MAGIC 0xB10Cu

static int bh_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	bh_state *s = st;

	(void)err;
	(void)errlen;
	s->mem = mem;
	s->size = a->size;
	s->mode = (uint32_t)atoi(options);
	s->next = 0;
	s->last = HEAP_NIL;
	return 0;
}

static int bh_alloc(void *st, const vs_request *rq, vs_placement *pl)
{
	bh_state *s = st;
	uint32_t n = (rq->size + 7u) & ~7u, b = s->next;

	if (s->mode == BH_OVERLAP && s->last != HEAP_NIL)
		b = s->last;
	if (n > s->size || s->size - b - BH_HEAD < n)
		return VS_ERR_NOSPACE;
	if (s->mode == BH_INNER && s->last != HEAP_NIL)
		heap_st32(s->mem, s->last + BH_HEAD + 128u, n); /* must be a block of 192 bytes or more */
	if (s->mode == BH_EDGE && s->last != HEAP_NIL)
		heap_st32(s->mem, b - 4u, n);
	if (s->mode == BH_HEAD_EDGE && s->last != HEAP_NIL)
		heap_st32(s->mem, s->last + BH_HEAD, n);
	if (s->mode == BH_SAME && s->last != HEAP_NIL)
		heap_st32(s->mem, s->last + BH_HEAD + 128u, heap_ld32(s->mem, s->last + BH_HEAD + 128u));
	heap_st32(s->mem, b, n);
	heap_st32(s->mem, b + 4u, BH_MAGIC);
	memset(pl, 0, sizeof *pl);
	pl->block_offset = b;
	pl->block_size = BH_HEAD + n;
	pl->offset = b + BH_HEAD;
	pl->granted = n;
	s->last = b;
	if (b + BH_HEAD + n > s->next)
		s->next = b + BH_HEAD + n;
	return VS_OK;
}

static int bh_free(void *st, const vs_placement *pl)
{
	bh_state *s = st;
	uint32_t after = pl->block_offset + pl->block_size;

	heap_st32(s->mem, pl->block_offset + 4u, 0); /* its own header: fine */
	if (s->mode == BH_FREE_LINK && after + BH_HEAD + 256u <= s->next)
		heap_st32(s->mem, after + BH_HEAD + 128u, pl->block_offset);
	if (s->mode == BH_FREE_BACK && pl->block_offset >= 256u)
		heap_st32(s->mem, pl->block_offset - 128u, pl->block_offset);
	return VS_OK;
}

static void bh_reset(void *st)
{
	bh_state *s = st;

	s->next = 0;
	s->last = HEAP_NIL;
}

static void bh_walk(void *st, vs_extent_fn fn, void *ud)
{
	bh_state *s = st;

	if (s->next < s->size)
		fn(ud, s->next, s->size - s->next);
}

static const vs_strategy broken_heap = {
	.abi = VS_STRATEGY_ABI,
	.name = "test-broken-heap",
	.summary = "a bump heap with deliberate faults",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN,
	.state_size = sizeof(bh_state),
	.init = bh_init,
	.alloc = bh_alloc,
	.free = bh_free,
	.reset = bh_reset,
	.walk_free = bh_walk
};

/* The same heap not saying its stores are seen, as a plug-in: every byte. */
static const vs_strategy broken_heap_unseen = {
	.abi = VS_STRATEGY_ABI,
	.name = "test-broken-heap-unseen",
	.summary = "a bump heap with deliberate faults, stores unseen",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.state_size = sizeof(bh_state),
	.init = bh_init,
	.alloc = bh_alloc,
	.free = bh_free,
	.reset = bh_reset,
	.walk_free = bh_walk
};

/* Replays events over a 64 KiB ram arena with s in fault mode `mode` and
 * check_bytes `bytes`; the messages in x->msgs, the replay in x->r. */
static void run_broken(vs_test_replay *x, const vs_strategy *s, int mode, int bytes, const char *events)
{
	char text[2048], err[512], opts[16];
	vs_replay_config cfg;

	snprintf(text, sizeof text, "vramsim-trace 1\narena heap ram size=64K\n%s", events);
	snprintf(opts, sizeof opts, "%d", mode);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = s;
	cfg.options[0] = opts;
	cfg.check_bytes = bytes;
	ck_assert_msg(vs_test_replay_open(x, text, "t", &cfg, err, sizeof err) != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(x->r, 0), 0);
}

/* An event list: ids 1-3 of 1,000 bytes, then their frees. */
static const char three[] = "alloc 1 1000\nalloc 2 1000\nalloc 3 1000\nfree 1\nfree 2\nfree 3\n";

/* Events replayed with the broken heap in mode, its stores watched: count
 * byte checks failed, and a message saying want. */
static void expect_stores_seen(int mode, const char *events, unsigned count, const char *want)
{
	vs_test_replay x;

	run_broken(&x, &broken_heap, mode, VS_BYTES_CHECKED, events);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_BYTES), count);
	ck_assert_msg(strstr(x.msgs, want) != NULL, "%s", x.msgs);
	vs_test_replay_close(&x);
}

START_TEST(correct_heap_passes_data_unwritten)
{
	vs_test_replay x;
	const vs_arena *a;
	int full;

	for (full = 0; full < 2; full++) {
		run_broken(&x, &broken_heap, BH_CORRECT, full ? VS_BYTES_FULL : VS_BYTES_CHECKED,
			"alloc 1 1000\nalloc 2 1000\nfree 1\n");
		ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
		ck_assert_str_eq(x.msgs, "");
		/* id 2's data is [1016, 2016): byte 1500 inside a granule, bytes
		 * 1020-1023 in its first, written only with every byte checked */
		a = vs_replay_arena(x.r, 0);
		ck_assert_msg((a->bytes[1500] != 0) == full, "full %d: byte 1500 is 0x%02x", full, a->bytes[1500]);
		ck_assert_msg((a->bytes[1020] | a->bytes[1021] | a->bytes[1022] | a->bytes[1023]) ? full : !full,
			"full %d", full);
		vs_test_replay_close(&x);
	}
#ifdef HEAP_WATCH_STORES
	ck_assert_uint_eq(heap_watch_on.size, 0); /* the watch is off between calls */
#endif
}
END_TEST

START_TEST(store_inside_live_data_seen_at_once)
{
	vs_test_replay x;

	run_broken(&x, &broken_heap, BH_INNER, VS_BYTES_CHECKED, three);
	/* alloc 2 writes into id 1 and alloc 3 into id 2: both seen as made */
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_BYTES), 2);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 2);
	ck_assert_msg(strstr(x.msgs, "t:4: error: integrity: bytes changed: event 2, strategy test-broken-heap: "
		"its alloc wrote at 0x88, inside the data of id 1 (allocated at line 3)") != NULL, "%s", x.msgs);
	ck_assert_msg(strstr(x.msgs, "inside the data of id 2 (allocated at line 4)") != NULL, "%s", x.msgs);
	vs_test_replay_close(&x);

	/* free 1 writes into id 2, free 2 into id 3 */
	expect_stores_seen(BH_FREE_LINK, three, 2, "t:6: error: integrity: bytes changed: event 4, strategy "
		"test-broken-heap: its free wrote at 0x478, inside the data of id 2 (allocated at line 4)");
}
END_TEST

/* The data's first and last granules, shared with headers: a store on
 * one of their live bytes is seen as it is made, one beside them is not. */
START_TEST(store_over_an_edge_seen_at_once)
{
	vs_test_replay x;

	run_broken(&x, &broken_heap, BH_EDGE, VS_BYTES_CHECKED, three);
	/* the header of id 2 over id 1's last bytes, of id 3 over id 2's */
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_BYTES), 2);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 2);
	ck_assert_msg(strstr(x.msgs, "t:4: error: integrity: bytes changed: event 2, strategy test-broken-heap: "
		"its alloc wrote at 0x3ec, inside the data of id 1 (allocated at line 3)") != NULL, "%s", x.msgs);
	ck_assert_msg(strstr(x.msgs, "changed before its free") == NULL, "%s", x.msgs);
	vs_test_replay_close(&x);

	expect_stores_seen(BH_HEAD_EDGE, three, 2, "t:4: error: integrity: bytes changed: event 2, strategy "
		"test-broken-heap: its alloc wrote at 0x8, inside the data of id 1 (allocated at line 3)");

	/* the headers' own stores beside the data, in the same granules: none */
	run_broken(&x, &broken_heap, BH_CORRECT, VS_BYTES_CHECKED, "alloc 1 61\nalloc 2 3\nalloc 3 100\nfree 2\n"
		"alloc 4 5\nfree 1\nfree 3\nfree 4\n");
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	vs_test_replay_close(&x);
}
END_TEST

/* The frees through which a restore drops the allocations made since its
 * save are watched too: one writing into an older block is seen there. */
START_TEST(store_in_a_restore_seen)
{
	expect_stores_seen(BH_FREE_BACK, "alloc 1 1000\nsave s\nalloc 2 1000\nrestore s\nfree 1\n", 1,
		"t:6: error: integrity: bytes changed: event 4, strategy test-broken-heap: its free wrote at 0x370, "
		"inside the data of id 1 (allocated at line 3)");
}
END_TEST

/* A store of the bytes already there: seen by the store check, not by the
 * full one, which compares bytes. */
START_TEST(store_of_the_same_bytes)
{
	vs_test_replay x;

	expect_stores_seen(BH_SAME, three, 2, "its alloc wrote at 0x88, inside the data of id 1");
	run_broken(&x, &broken_heap, BH_SAME, VS_BYTES_FULL, three);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	vs_test_replay_close(&x);
}
END_TEST

START_TEST(overlapping_blocks_reported)
{
	vs_test_replay x;

	run_broken(&x, &broken_heap, BH_OVERLAP, VS_BYTES_CHECKED, "alloc 1 1000\nalloc 2 1000\n");
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_OVERLAP), 1);
	ck_assert_msg(strstr(x.msgs, "id 2 at 0x8 overlaps id 1 (trace line 3) at 0x0") != NULL, "%s", x.msgs);
	vs_test_replay_close(&x);
}
END_TEST

/* Unseen stores (a plug-in) and --full-bytes: every byte, found at the free. */
START_TEST(full_bytes_find_every_fault_at_free)
{
	static const int modes[] = { BH_INNER, BH_EDGE, BH_FREE_LINK, BH_HEAD_EDGE };
	vs_test_replay x;
	size_t i;
	int k;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		for (k = 0; k < 2; k++) {
			run_broken(&x, k ? &broken_heap : &broken_heap_unseen, modes[i],
				k ? VS_BYTES_FULL : VS_BYTES_CHECKED, three);
			ck_assert_msg(vs_replay_check_count(x.r, VS_CHECK_BYTES) == 2, "mode %d, %d: %s", modes[i], k,
				x.msgs);
			ck_assert_msg(strstr(x.msgs, "changed before its free") != NULL, "%s", x.msgs);
			ck_assert_msg(strstr(x.msgs, "wrote at") == NULL, "%s", x.msgs);
			vs_test_replay_close(&x);
		}
	}
}
END_TEST

/* A plug-in cannot claim its stores are seen: its copy of the store
 * helper is not the one the replay watches. */
START_TEST(plugin_cannot_claim_seen_stores)
{
	char err[256];

	ck_assert_int_ne(vs_strategy_register(&broken_heap, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "unknown flags 0x80") != NULL, "%s", err);
}
END_TEST

/* The byte the replay puts at offset i of allocation id's data (no
 * payload): the pattern word of bytes 4q..4q+3, little-endian (the DS
 * demo program writes the same, tests/test_ds_demo.c). */
static uint8_t pattern_byte(uint64_t id, uint32_t i)
{
	uint64_t z = id * 0x9E3779B97F4A7C15ull;
	uint32_t w = ((uint32_t)(z >> 32) ^ (uint32_t)z) + (i / 4) * 0x9E3779B1u;

	return (uint8_t)(w >> (8 * (i % 4)));
}

/* The bytes of a live allocation's data in a replay's arena mem, against
 * the pattern (full) or against zero (nothing written). */
typedef struct written_cmp {
	const uint8_t *mem;
	int full;
	unsigned compared, differ;
} written_cmp;

static void cmp_written(void *ud, const vs_live *l)
{
	written_cmp *c = ud;
	uint32_t start = l->pl.offset, n = l->req.size < l->pl.granted ? l->req.size : l->pl.granted, i;

	for (i = 0; i < n; i++) {
		c->compared++;
		c->differ += c->mem[start + i] != (c->full ? pattern_byte(l->id, i) : 0);
	}
}

/* The bytes the replay writes follow the pattern, at every size from 1 byte
 * to past two granules, with every byte checked; with the stores seen it
 * writes none (the broken heap in its correct mode writes only headers). */
START_TEST(written_bytes_follow_the_pattern)
{
	vs_test_text t = { 0 };
	unsigned id, full;

	vs_test_put(&t, "vramsim-trace 1\narena heap ram size=64K\n");
	for (id = 1; id <= 300; id++)
		vs_test_put(&t, "alloc %u %u\n", id, id);
	for (full = 0; full < 2; full++) {
		vs_test_replay x;
		vs_replay_config cfg;
		written_cmp c = { 0 };
		char err[512];
		vs_replay_config_default(&cfg);
		cfg.strategy[0] = &broken_heap;
		cfg.options[0] = "0"; /* BH_CORRECT */
		cfg.check_bytes = full ? VS_BYTES_FULL : VS_BYTES_CHECKED;
		ck_assert_msg(vs_test_replay_open(&x, t.s, "t", &cfg, err, sizeof err) != NULL, "%s", err);
		ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
		ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
		c.mem = vs_replay_arena(x.r, 0)->bytes;
		c.full = (int)full;
		vs_replay_live_walk(x.r, cmp_written, &c);
		ck_assert_msg(c.differ == 0, "full %u: %u of %u bytes differ", full, c.differ, c.compared);
		ck_assert_uint_eq(c.compared, 300 * 301 / 2);
		vs_test_replay_close(&x);
	}
	free(t.s);
}
END_TEST

/* vramsim's own heaps over heap churn: with their stores watched and no
 * byte written, the same metrics, checks and events as with every byte
 * written, and no check failing. heap-linear with align=1 puts the data's
 * ends at every offset of a granule. */
START_TEST(own_heaps_same_as_full_bytes)
{
	static const char *const heaps[] = { "heap-dlmalloc", "heap-tlsf", "heap-first-fit", "heap-next-fit",
		"heap-best-fit", "heap-buddy", "heap-tracking", "heap-pow2-pools", "heap-bank", "heap-linear",
		"heap-manager", "heap-linear" };
	static const char *const options[] = { [11] = "align=1" };
	vs_test_text t = { 0 };
	vs_rng rng = { 7 };
	uint64_t live[64];
	unsigned nlive = 0, id = 1, i;
	size_t h;

	vs_test_put(&t, "vramsim-trace 1\narena heap ram size=1M\n");
	for (i = 0; i < 3000; i++) {
		if (nlive == 64 || (nlive && vs_rng_below(&rng, 2))) {
			unsigned k = vs_rng_below(&rng, nlive);
			vs_test_put(&t, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			vs_test_put(&t, "alloc %u %u\n", id, 1u + vs_rng_below(&rng, 1u << (3 + vs_rng_below(&rng, 12))));
			live[nlive++] = id++;
		}
	}
	for (h = 0; h < sizeof heaps / sizeof heaps[0]; h++) {
		vs_metrics m[2];
		uint64_t checks[2], events[2];
		vs_test_replay x[2];
		written_cmp c = { 0 };
		int full;

		for (full = 0; full < 2; full++) {
			vs_replay_config cfg;
			char err[512];

			vs_replay_config_default(&cfg);
			cfg.strategy[0] = vs_strategy_find(heaps[h]);
			cfg.options[0] = options[h];
			ck_assert_ptr_nonnull(cfg.strategy[0]);
			ck_assert(cfg.strategy[0]->flags & VS_STRAT_STORES_SEEN);
			cfg.check_bytes = full ? VS_BYTES_FULL : VS_BYTES_CHECKED;
			ck_assert_msg(vs_test_replay_open(&x[full], t.s, "churn", &cfg, err, sizeof err) != NULL, "%s", err);
			ck_assert_int_eq(vs_replay_run(x[full].r, 0), 0);
			m[full] = *vs_replay_metrics(x[full].r, 0);
			checks[full] = vs_replay_check_total(x[full].r);
			events[full] = vs_replay_events(x[full].r);
		}
		/* the full run's live data all the pattern: its check had them all */
		c.mem = vs_replay_arena(x[1].r, 0)->bytes;
		c.full = 1;
		vs_replay_live_walk(x[1].r, cmp_written, &c);
		ck_assert_msg(c.differ == 0, "%s: %u of %u bytes differ", heaps[h], c.differ, c.compared);
		ck_assert_uint_gt(c.compared, 50);
		vs_test_replay_close(&x[0]);
		vs_test_replay_close(&x[1]);
		ck_assert_msg(checks[0] == 0 && checks[1] == 0, "%s: %llu and %llu checks failed", heaps[h],
			(unsigned long long)checks[0], (unsigned long long)checks[1]);
		ck_assert_uint_eq(events[0], events[1]);
		ck_assert_msg(memcmp(&m[0], &m[1], sizeof m[0]) == 0, "%s: metrics differ", heaps[h]);
		ck_assert_uint_gt(m[0].allocs, 100);
	}
	free(t.s);
}
END_TEST

/* --full-bytes on the command line: accepted by replay, compare and render,
 * the same results on a heap trace, and --no-checks still wins. */
START_TEST(full_bytes_option)
{
	static char out[2][65536], err[4096];
	const char *trace = VS_SOURCE_DIR "/traces/heap-malloclab-mix.trace";

	ck_assert_int_eq(vs_test_cli(out[0], sizeof out[0], err, sizeof err, "replay %s --json", trace), 0);
	ck_assert_int_eq(vs_test_cli(out[1], sizeof out[1], err, sizeof err, "replay %s --json --full-bytes", trace), 0);
	ck_assert_str_eq(out[0], out[1]);
	ck_assert_int_eq(vs_test_cli(out[0], sizeof out[0], err, sizeof err,
		"compare %s -s heap-tlsf -s heap-buddy -f csv --no-timing", trace), 0);
	ck_assert_int_eq(vs_test_cli(out[1], sizeof out[1], err, sizeof err,
		"compare %s -s heap-tlsf -s heap-buddy -f csv --no-timing --full-bytes", trace), 0);
	ck_assert_str_eq(out[0], out[1]);
	ck_assert_int_eq(vs_test_cli(out[0], sizeof out[0], err, sizeof err, "replay %s --no-checks --full-bytes",
		trace), 0);
	ck_assert_int_eq(vs_test_cli(out[1], sizeof out[1], err, sizeof err, "render --help"), 0);
	ck_assert_msg(strstr(out[1], "--full-bytes") != NULL, "%s", out[1]);
}
END_TEST

/* ---- the store helpers against their first forms -------------------------
 * heap_watch_store as a byte at a time (is each byte a live one?), the
 * heaps' highest and lowest set bit (bits.h: one instruction on this host)
 * as loops, and heap_ld32 and heap_st32 a byte at a time. bits.h's forms
 * for the consoles are checked on the emulated GBA and DS, whose placements
 * must equal the host's (`vramsim cycles`). */
static void ref_watch_store(heap_watch *w, const uint8_t *p, uint32_t n)
{
	uintptr_t off = (uintptr_t)p - w->base;
	uint32_t i;

	for (i = 0; i < n && off < w->size && off + i < w->size; i++) {
		uint32_t b = (uint32_t)off + i, g = b / HEAP_WATCH_GRANULE;
		if ((w->live[g / 64u] >> (g % 64u) & 1u) &&
		    (!w->part[g] || (w->part[g] >> (b % HEAP_WATCH_GRANULE) & 1u))) {
			if (!w->hits++)
				w->first = b;
			return;
		}
	}
}

static uint32_t ref_fls(uint32_t v)
{
	uint32_t n = 0;

	while (v >>= 1)
		n++;
	return n;
}

static uint32_t ref_ffs(uint32_t v)
{
	uint32_t n = 0;

	while (!(v & 1u)) {
		v >>= 1;
		n++;
	}
	return n;
}

START_TEST(store_helpers_same_as_first_forms)
{
	enum { SIZE = 64 * 100 + 40 }; /* granules past the bitmap's last whole one */
	static uint8_t mem[SIZE + 64];
	uint64_t live[2] = { 0 }, part[SIZE / 64 + 1] = { 0 };
	heap_watch w = { 0 }, ref = { 0 };
	vs_rng rng = { 27 };
	uint32_t i, seen = 0;

	for (i = 0; i < 20000; i++) {
		uint32_t v = vs_rng_next(&rng) >> vs_rng_below(&rng, 32);
		if (v) {
			HOT_CMP(bits_top32(v), ==, ref_fls(v));
			HOT_CMP(bits_ctz32(v), ==, ref_ffs(v));
		}
	}
	ck_assert_uint_eq(bits_top32(0), ref_fls(0));
	for (i = 0; i < 32; i++) {
		HOT_CMP(bits_top32(1u << i), ==, i);
		HOT_CMP(bits_ctz32(1u << i), ==, i);
	}
	for (i = 0; i < 10000; i++) {
		uint32_t o = vs_rng_below(&rng, SIZE - 4), v = vs_rng_next(&rng);
		heap_st32(mem, o, v);
		HOT_CMP(mem[o] | mem[o + 1] << 8 | mem[o + 2] << 16 | (uint32_t)mem[o + 3] << 24, ==, v);
		HOT_CMP(heap_ld32(mem, o), ==, v);
	}
#ifdef HEAP_WATCH_STORES
	uint32_t g;

	w.base = ref.base = (uintptr_t)mem;
	w.size = ref.size = SIZE;
	w.live = ref.live = live;
	w.part = ref.part = part;
	for (i = 0; i < 40000; i++) {
		uint32_t o = vs_rng_below(&rng, SIZE + 32), n = vs_rng_below(&rng, 4) ? 4u : vs_rng_below(&rng, 200);
		if (i % 1000 == 0) {
			seen += ref.hits;
			live[0] = (uint64_t)vs_rng_next(&rng) << 32 | vs_rng_next(&rng);
			live[1] = ((uint64_t)vs_rng_next(&rng) << 32 | vs_rng_next(&rng)) & 0x7FFFFFFFFull;
			/* a granule in four partly live: a run of bytes, from either end or inside */
			for (g = 0; g < SIZE / 64 + 1; g++) {
				uint32_t lo = vs_rng_below(&rng, 64), hi = lo + 1 + vs_rng_below(&rng, 64 - lo);
				part[g] = vs_rng_below(&rng, 4) ? 0 : (hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1)) << lo;
			}
			w.hits = ref.hits = 0;
		}
		if (vs_rng_below(&rng, 2))
			o &= ~3u; /* heaps store aligned words, mostly */
		heap_watch_on = w;
		heap_watch_store(mem + o, n);
		w = heap_watch_on;
		heap_watch_on.size = 0;
		ref_watch_store(&ref, mem + o, n);
		HOT_CMP(w.hits, ==, ref.hits);
		if (ref.hits)
			HOT_CMP(w.first, ==, ref.first);
	}
	ck_assert_uint_gt(seen, 1000); /* the watch did count */
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("heap_watch");
	TCase *tc = tcase_create("watch");

	tcase_add_test(tc, correct_heap_passes_data_unwritten);
	tcase_add_test(tc, store_inside_live_data_seen_at_once);
	tcase_add_test(tc, store_over_an_edge_seen_at_once);
	tcase_add_test(tc, store_in_a_restore_seen);
	tcase_add_test(tc, store_of_the_same_bytes);
	tcase_add_test(tc, overlapping_blocks_reported);
	tcase_add_test(tc, full_bytes_find_every_fault_at_free);
	tcase_add_test(tc, plugin_cannot_claim_seen_stores);
	tcase_add_test(tc, own_heaps_same_as_full_bytes);
	tcase_add_test(tc, written_bytes_follow_the_pattern);
	tcase_add_test(tc, full_bytes_option);
	tcase_add_test(tc, store_helpers_same_as_first_forms);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
