/* SPDX-License-Identifier: Zlib */
/* test_heap_strategies.c - the RAM heap strategies against a reference model.
 *
 * Every strategy runs long random sequences of allocations and frees through
 * its vs_strategy table over a real arena buffer. A byte-owner model written
 * here checks that no two live blocks overlap, that each payload sits inside
 * its block, that alignment holds, that the payload bytes the test wrote
 * survive until the free (the allocator kept its headers out of them), and
 * that the free extents the strategy walks plus the live blocks plus the
 * allocator's own fixed overhead account for every byte of the arena.
 * Hand-made cases pin the seeds' rules.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/heap_bank.h"
#include "vramsim/alloc/heap_buddy.h"
#include "vramsim/alloc/heap_pools.h"
#include "vramsim/alloc/heap_static.h"
#include "vramsim/alloc/heap_tlsf.h"
#include "vramsim/strategy.h"
#include "strategies/registry.h"

/* check's ck_assert reports every passing check to the parent; in loops
 * over bytes that costs a write each, so hot checks test first. */

/* Mirrors of the adapters' state layout, to read the allocator inside. */
typedef struct { uint8_t *mem; uint32_t cell_opt; heap_bank b; } bank_view;

enum { OVH_CONST, OVH_BANK };

typedef struct heap_case {
	const char *name;
	const char *options;
	uint32_t arena;
	uint32_t max_req;     /* largest request the sequence makes */
	uint32_t base_align;  /* payload alignment when the request gives none */
	int aligns;           /* takes align= above its base alignment */
	int retains;          /* frees answer VS_RETAINED */
	int coalesces;        /* all free again: back to one extent per root */
	int ovh;
} heap_case;

static const heap_case cases[] = {
	{ "heap-first-fit", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-next-fit", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-best-fit", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-tlsf", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-tlsf", "", 32 * 1024 + 12, 2000, 8, 1, 0, 1, OVH_CONST },
	{ "heap-dlmalloc", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-dlmalloc", "", 20000, 3000, 8, 1, 0, 1, OVH_CONST },
	{ "heap-tracking", "", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-tracking", "records=40", 64 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-buddy", "", 96 * 1024 + 40, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-pow2-pools", "", 256 * 1024, 1024, 8, 1, 0, 0, OVH_CONST },
	{ "heap-pow2-pools", "split=4/4/2/2/1/1/1/1", 100000, 1024, 8, 1, 0, 0, OVH_CONST },
	{ "heap-bank", "cell=32,per=64", 64 * 1024, 32, 4, 0, 0, 0, OVH_BANK },
	{ "heap-bank", "cell=20,per=33", 50000, 20, 4, 0, 0, 0, OVH_BANK },
	{ "heap-bank", "cell=32,per=2000,grow=no", 100000, 32, 4, 0, 0, 0, OVH_BANK },
	/* the heap manager's carved heaps; requests without opt= go to id 0 */
	{ "heap-manager", "h0=doug-lea/160K,h1=tracking/60K,h3=static/20K", 256 * 1024, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-manager", "", 100000, 4096, 8, 1, 0, 1, OVH_CONST },
	{ "heap-linear", "", 1024 * 1024, 600, 8, 1, 1, 0, OVH_CONST },
	{ "heap-static", "", 1024 * 1024, 600, 8, 1, 1, 0, OVH_CONST },
};

typedef struct live {
	uint32_t id;
	uint32_t size;
	vs_placement pl;
} live;

typedef struct model {
	const heap_case *hc;
	const vs_strategy *s;
	void *st;
	uint8_t *mem;
	uint32_t *owner;     /* per byte: id of the live/retained block, 0 none */
	uint32_t *freemark;  /* per byte: walk generation that saw it free */
	uint32_t gen;
	live *lv;
	size_t nlive, cap;
	uint64_t live_blocks; /* bytes of live and retained blocks */
	uint32_t overhead0;   /* constant overhead measured at init */
	uint64_t held;        /* bytes strategy->held reported in the last check */
	uint32_t next_id;
	uint64_t walked;
	uint32_t extents;
} model;

static uint8_t pattern(uint32_t id, uint32_t i)
{
	return (uint8_t)(id * 131u + i * 7u + 1u);
}

static int on_free_extent(void *ud, uint32_t off, uint32_t size)
{
	model *m = ud;
	uint32_t i;

	HOT_ASSERT((uint64_t)off + size <= m->hc->arena, "%s: free extent [%u,+%u) outside the arena",
		m->hc->name, off, size);
	for (i = off; i < off + size; i++) {
		HOT_ASSERT(m->owner[i] == 0, "%s: free extent [%u,+%u) covers byte %u of live id %u",
			m->hc->name, off, size, i, m->owner[i]);
		HOT_ASSERT(m->freemark[i] != m->gen, "%s: byte %u reported free twice", m->hc->name, i);
		m->freemark[i] = m->gen;
	}
	m->walked += size;
	m->extents++;
	return 0;
}

static uint32_t walk(model *m)
{
	m->gen++;
	m->walked = 0;
	m->extents = 0;
	m->s->walk_free(m->st, on_free_extent, m);
	return (uint32_t)m->walked;
}

static uint32_t overhead(const model *m)
{
	if (m->hc->ovh == OVH_BANK) {
		const bank_view *v = m->st;
		/* grow=no: the arena past the one segment is never the bank's */
		return v->b.segments * (HEAP_BANK_SEG_HEADER + 4u * v->b.map_words) +
			(v->b.grow ? 0 : v->b.size - v->b.top);
	}
	return m->overhead0;
}

/* A held extent: neither free (this walk generation) nor live, nor held twice. */
static int on_held_extent(void *ud, uint32_t off, uint32_t size)
{
	model *m = ud;
	uint32_t i;

	HOT_ASSERT((uint64_t)off + size <= m->hc->arena, "%s: held extent [%u,+%u) outside the arena",
		m->hc->name, off, size);
	for (i = off; i < off + size; i++) {
		HOT_ASSERT(m->owner[i] == 0, "%s: held extent [%u,+%u) covers byte %u of live id %u",
			m->hc->name, off, size, i, m->owner[i]);
		HOT_ASSERT(m->freemark[i] != m->gen, "%s: byte %u is both free and held (or held twice)",
			m->hc->name, i);
		m->freemark[i] = m->gen;
	}
	m->held += size;
	return 0;
}

/* Free bytes + live blocks + overhead = the arena, to the byte; and the
 * overhead is exactly what the strategy says it holds (strategy->held). */
static void check_accounting(model *m)
{
	uint32_t freeb = walk(m);

	HOT_ASSERT((uint64_t)freeb + m->live_blocks + overhead(m) == m->hc->arena,
		"%s: free %u + blocks %llu + overhead %u != arena %u", m->hc->name, freeb,
		(unsigned long long)m->live_blocks, overhead(m), m->hc->arena);
	m->held = 0;
	if (m->s->held)
		m->s->held(m->st, on_held_extent, m);
	HOT_ASSERT(m->held == overhead(m), "%s: holds %llu bytes, overhead %u", m->hc->name,
		(unsigned long long)m->held, overhead(m));
}

static void model_init(model *m, const heap_case *hc)
{
	char err[256] = "";

	memset(m, 0, sizeof *m);
	m->hc = hc;
	m->s = vs_strategy_find(hc->name);
	HOT_ASSERT(m->s != NULL, "strategy %s not registered", hc->name);
	ck_assert(m->s->arenas & VS_ARENA_BIT(VS_ARENA_RAM));
	m->st = calloc(1, m->s->state_size);
	m->mem = calloc(hc->arena, 1);
	m->owner = calloc(hc->arena, sizeof *m->owner);
	m->freemark = calloc(hc->arena, sizeof *m->freemark);
	m->cap = 4096;
	m->lv = malloc(m->cap * sizeof *m->lv);
	ck_assert(m->st && m->mem && m->owner && m->freemark && m->lv);
	{
		vs_arena_decl d;
		memset(&d, 0, sizeof d);
		strcpy(d.name, "ram");
		d.kind = VS_ARENA_RAM;
		d.size = hc->arena;
		d.unit = 1;
		HOT_ASSERT(m->s->init(m->st, &d, hc->options, m->mem, err, sizeof err) == 0, "%s: init: %s",
			hc->name, err);
	}
	m->overhead0 = hc->arena - walk(m);
	m->next_id = 1;
}

static void model_fini(model *m)
{
	if (m->s->fini)
		m->s->fini(m->st);
	free(m->st);
	free(m->mem);
	free(m->owner);
	free(m->freemark);
	free(m->lv);
}

static int do_alloc(model *m, uint32_t size, uint32_t align)
{
	vs_request rq;
	vs_placement pl;
	uint32_t id = m->next_id++, i, want;
	int rc;

	memset(&rq, 0, sizeof rq);
	rq.size = size;
	rq.align = align;
	memset(&pl, 0, sizeof pl);
	rc = m->s->alloc(m->st, &rq, &pl);
	if (rc < 0)
		return rc;
	HOT_ASSERT(rc == VS_OK, "rc %d", rc);
	if (pl.block_size == 0) {
		pl.block_offset = pl.offset;
		pl.block_size = pl.granted;
	}
	HOT_ASSERT(pl.granted >= size, "%s: granted %u < %u", m->hc->name, pl.granted, size);
	HOT_ASSERT(pl.offset >= pl.block_offset && (uint64_t)pl.offset + pl.granted <=
		(uint64_t)pl.block_offset + pl.block_size, "%s: payload [%u,+%u) outside block [%u,+%u)",
		m->hc->name, pl.offset, pl.granted, pl.block_offset, pl.block_size);
	HOT_ASSERT((uint64_t)pl.block_offset + pl.block_size <= m->hc->arena, "%s: block outside arena",
		m->hc->name);
	want = align > m->hc->base_align ? align : m->hc->base_align;
	HOT_ASSERT(pl.offset % want == 0, "%s: payload %u not aligned to %u", m->hc->name, pl.offset, want);
	for (i = pl.block_offset; i < pl.block_offset + pl.block_size; i++) {
		HOT_ASSERT(m->owner[i] == 0, "%s: block [%u,+%u) of id %u overlaps id %u at %u", m->hc->name,
			pl.block_offset, pl.block_size, id, m->owner[i], i);
		m->owner[i] = id;
	}
	for (i = 0; i < size; i++)
		m->mem[pl.offset + i] = pattern(id, i);
	if (m->nlive == m->cap) {
		m->cap *= 2;
		m->lv = realloc(m->lv, m->cap * sizeof *m->lv);
		ck_assert(m->lv);
	}
	m->lv[m->nlive].id = id;
	m->lv[m->nlive].size = size;
	m->lv[m->nlive].pl = pl;
	m->nlive++;
	m->live_blocks += pl.block_size;
	return VS_OK;
}

static void do_free(model *m, size_t k)
{
	live x = m->lv[k];
	uint32_t i;
	int rc;

	for (i = 0; i < x.size; i++)
		HOT_ASSERT(m->mem[x.pl.offset + i] == pattern(x.id, i),
			"%s: byte %u of id %u changed while live", m->hc->name, i, x.id);
	rc = m->s->free(m->st, &x.pl);
	m->lv[k] = m->lv[--m->nlive];
	if (m->hc->retains) {
		HOT_ASSERT(rc == VS_RETAINED, "%s: free gave %d", m->hc->name, rc);
		return; /* still held: the model keeps its bytes owned */
	}
	HOT_ASSERT(rc == VS_OK, "%s: free of id %u: %d", m->hc->name, x.id, rc);
	for (i = x.pl.block_offset; i < x.pl.block_offset + x.pl.block_size; i++)
		m->owner[i] = 0;
	m->live_blocks -= x.pl.block_size;
	/* A second free of the same payload is refused, never taken. */
	rc = m->s->free(m->st, &x.pl);
	HOT_ASSERT(rc == VS_ERR_INVALID, "%s: double free of id %u gave %d", m->hc->name, x.id, rc);
}

static uint32_t rand_size(vs_rng *r, uint32_t max)
{
	uint32_t p = vs_rng_below(r, 100), s;

	if (p < 60)
		s = 1 + vs_rng_below(r, 64);
	else if (p < 90)
		s = 65 + vs_rng_below(r, 448);
	else
		s = 513 + vs_rng_below(r, 3584);
	if (s > max)
		s = 1 + vs_rng_below(r, max);
	if (vs_rng_below(r, 50) == 0)
		s = 0;
	return s;
}

static void run_random(const heap_case *hc, uint32_t seed, int steps)
{
	model m;
	vs_rng r = { 0x9E3779B97F4A7C15ull ^ seed };
	int i, fails = 0;

	model_init(&m, hc);
	check_accounting(&m);
	for (i = 0; i < steps; i++) {
		/* Phases of growth and shrinkage so the heap fills and empties. */
		int grow = ((i / 1500) % 2) == 0;
		uint32_t p = vs_rng_below(&r, 100);

		if (m.nlive && (p < (grow ? 30u : 70u))) {
			do_free(&m, vs_rng_below(&r, (uint32_t)m.nlive));
		} else {
			uint32_t align = 0, size = rand_size(&r, hc->max_req);
			if (hc->aligns && vs_rng_below(&r, 10) == 0)
				align = 16u << vs_rng_below(&r, 3);
			if (do_alloc(&m, size, align) < 0)
				fails++;
		}
		if (i % 97 == 0)
			check_accounting(&m);
		if (hc->retains && m.live_blocks > hc->arena / 2 && vs_rng_below(&r, 200) == 0) {
			/* Linear and static heaps empty only by reset. */
			m.s->reset(m.st);
			memset(m.owner, 0, hc->arena * sizeof *m.owner);
			m.nlive = 0;
			m.live_blocks = 0;
			check_accounting(&m);
		}
	}
	HOT_ASSERT(fails < steps / 2, "%s: %d of %d steps failed", hc->name, fails, steps);
	check_accounting(&m);
	while (m.nlive)
		do_free(&m, m.nlive - 1);
	check_accounting(&m);
	if (hc->coalesces) {
		/* Everything merged back: the free space is what it was at init. */
		model fresh;
		model_init(&fresh, hc);
		ck_assert_int_eq(walk(&m), walk(&fresh));
		ck_assert_uint_eq(m.extents, fresh.extents);
		model_fini(&fresh);
	}
	/* Reset gives the initial layout back. */
	m.s->reset(m.st);
	if (!hc->retains)
		ck_assert_uint_eq(walk(&m), hc->arena - m.overhead0);
	model_fini(&m);
}

START_TEST(random_sequences)
{
	run_random(&cases[_i], 1000u + (uint32_t)_i, (int)vs_test_soak(20000, 400000));
}
END_TEST

/* ---- hand-made cases ------------------------------------------------------ */

START_TEST(bank_segments)
{
	static const heap_case hc = { "heap-bank", "cell=32,per=64", 16 * 1024, 32, 4, 0, 0, 0, OVH_BANK };
	model m;
	const bank_view *v;
	uint32_t i, seg;

	model_init(&m, &hc);
	v = m.st;
	/* A segment: 16-byte header, 2 map words, then 64 cells of 32 bytes. */
	seg = 16 + 8 + 64 * 32;
	ck_assert_uint_eq(v->b.seg_bytes, seg);
	ck_assert_uint_eq(v->b.segments, 1);
	ck_assert_int_eq(do_alloc(&m, 33, 0), VS_ERR_UNSUPPORTED);
	ck_assert_int_eq(do_alloc(&m, 32, 0), VS_OK);
	ck_assert_uint_eq(m.lv[0].pl.offset, 24);
	ck_assert_uint_eq(m.lv[0].pl.granted, 32);
	for (i = 1; i < 64; i++)
		ck_assert_int_eq(do_alloc(&m, 1 + i % 32, 0), VS_OK);
	ck_assert_uint_eq(v->b.segments, 1);
	/* The 65th cell takes a new segment from the arena. */
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	ck_assert_uint_eq(v->b.segments, 2);
	ck_assert_uint_eq(m.lv[64].pl.offset, seg + 24);
	check_accounting(&m);
	/* Freeing it empties segment 2, which goes back whole. */
	do_free(&m, 64);
	ck_assert_uint_eq(v->b.segments, 1);
	check_accounting(&m);
	/* ... and is reused before the bump pointer moves. */
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	ck_assert_uint_eq(m.lv[m.nlive - 1].pl.offset, seg + 24);
	/* A freed cell in segment 1 is found through its segment and reused first. */
	do_free(&m, 5);
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	ck_assert_uint_eq(m.lv[m.nlive - 1].pl.offset, 24 + 5 * 32);
	/* Freeing something that is not a cell is an error. */
	{
		vs_placement pl = m.lv[0].pl;
		pl.offset += 4;
		ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
		pl.offset = 8; /* inside a segment header */
		ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
		pl.offset = 15000; /* beyond every segment */
		ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
	}
	/* Segments fill the arena: 16K holds 7 of 2072 bytes. */
	while (do_alloc(&m, 32, 0) == VS_OK)
		;
	ck_assert_uint_eq(v->b.segments, (16 * 1024) / seg);
	check_accounting(&m);
	model_fini(&m);
}
END_TEST

/* Seed 001: a bank grows "by default"; grow=no keeps its first segment. */
START_TEST(bank_no_grow)
{
	static const heap_case hc = { "heap-bank", "cell=32,per=40,grow=no", 16 * 1024, 32, 4, 0, 0, 0, OVH_BANK };
	static const heap_case grows = { "heap-bank", "cell=32,per=40,grow=yes", 16 * 1024, 32, 4, 0, 0, 0, OVH_BANK };
	model m;
	const bank_view *v;
	heap_status st;
	uint32_t i, seg = 16 + 8 + 40 * 32;
	char err[128];

	model_init(&m, &hc);
	v = m.st;
	ck_assert_uint_eq(v->b.segments, 1);
	/* free space is the segment's cells, not the arena past it */
	ck_assert_uint_eq(walk(&m), 40 * 32);
	check_accounting(&m);
	for (i = 0; i < 40; i++)
		ck_assert_int_eq(do_alloc(&m, 32, 0), VS_OK);
	/* full: the 41st cell fails instead of taking a second segment */
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_ERR_NOSPACE);
	ck_assert_uint_eq(v->b.segments, 1);
	ck_assert_uint_eq(v->b.top, seg);
	ck_assert_uint_eq(walk(&m), 0);
	check_accounting(&m);
	heap_bank_status(&v->b, m.mem, &st);
	ck_assert_uint_eq(st.total_free, 0);
	ck_assert_uint_eq(st.largest, 0);
	ck_assert_uint_eq(st.objects, 40);
	/* a freed cell is taken again */
	do_free(&m, 7);
	heap_bank_status(&v->b, m.mem, &st);
	ck_assert_uint_eq(st.total_free, 32);
	ck_assert_uint_eq(st.largest, 32);
	ck_assert_int_eq(do_alloc(&m, 32, 0), VS_OK);
	ck_assert_int_eq(do_alloc(&m, 32, 0), VS_ERR_NOSPACE);
	/* reset keeps the option */
	m.s->reset(m.st);
	ck_assert_uint_eq(v->b.grow, 0);
	model_fini(&m);

	/* the same bank with grow=yes (the default) takes a second segment */
	model_init(&m, &grows);
	v = m.st;
	for (i = 0; i < 41; i++)
		ck_assert_int_eq(do_alloc(&m, 32, 0), VS_OK);
	ck_assert_uint_eq(v->b.segments, 2);
	check_accounting(&m);
	model_fini(&m);

	/* a bad value is refused by name */
	{
		void *bst = calloc(1, m.s->state_size);
		uint8_t *mem = calloc(1024, 1);
		vs_arena_decl d;
		memset(&d, 0, sizeof d);
		d.kind = VS_ARENA_RAM;
		d.size = 1024;
		d.unit = 1;
		ck_assert_int_ne(m.s->init(bst, &d, "cell=8,per=8,grow=maybe", mem, err, sizeof err), 0);
		ck_assert_str_eq(err, "option grow=maybe: expected yes or no");
		free(bst);
		free(mem);
	}
}
END_TEST

START_TEST(pools_rules)
{
	static const heap_case hc = { "heap-pow2-pools", "", 64 * 1024, 1024, 8, 1, 0, 0, OVH_CONST };
	model m;
	vs_placement pl;

	model_init(&m, &hc);
	/* Requests round up to the class: the rounding is granted (slack). */
	ck_assert_int_eq(do_alloc(&m, 9, 0), VS_OK);
	ck_assert_uint_eq(m.lv[0].pl.granted, 16);
	ck_assert_int_eq(do_alloc(&m, 513, 0), VS_OK);
	ck_assert_uint_eq(m.lv[1].pl.granted, 1024);
	ck_assert_int_eq(do_alloc(&m, 0, 0), VS_OK);
	ck_assert_uint_eq(m.lv[2].pl.granted, 8);
	ck_assert_int_eq(do_alloc(&m, 1025, 0), VS_ERR_UNSUPPORTED);
	/* align raises the class: a 20-byte request aligned to 64 takes a 64 slot. */
	ck_assert_int_eq(do_alloc(&m, 20, 64), VS_OK);
	ck_assert_uint_eq(m.lv[3].pl.granted, 64);
	/* The free stack hands the last freed slot out first. */
	pl = m.lv[0].pl;
	ck_assert_int_eq(do_alloc(&m, 16, 0), VS_OK);
	do_free(&m, 0);
	ck_assert_int_eq(do_alloc(&m, 12, 0), VS_OK);
	ck_assert_uint_eq(m.lv[m.nlive - 1].pl.offset, pl.offset);
	/* Memory no pool handed out is an error, never a crash. */
	pl.offset = 0; /* the 8-byte pool's free stack */
	ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
	pl.offset = m.lv[1].pl.offset + 8;
	ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
	pl.offset = 64 * 1024 - 8; /* a 1024 slot never bumped */
	ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
	pl.offset = 0xFFFFFFF0u;
	ck_assert_int_eq(m.s->free(m.st, &pl), VS_ERR_INVALID);
	/* One class running out fails even with other pools empty: no spill. */
	while (do_alloc(&m, 100, 0) == VS_OK)
		;
	ck_assert_int_eq(do_alloc(&m, 100, 0), VS_ERR_NOSPACE);
	ck_assert_int_eq(do_alloc(&m, 200, 0), VS_OK);
	check_accounting(&m);
	model_fini(&m);
}
END_TEST

START_TEST(linear_marks_and_fill)
{
	static const heap_case hc = { "heap-linear", "align=4", 4096, 600, 4, 1, 1, 0, OVH_CONST };
	model m;
	void *mark;
	uint32_t i, off;

	model_init(&m, &hc);
	ck_assert(m.s->flags & VS_STRAT_NATIVE_STATE);
	ck_assert_ptr_nonnull(m.s->save);
	ck_assert_int_eq(do_alloc(&m, 10, 0), VS_OK);
	ck_assert_uint_eq(m.lv[0].pl.offset, 0);
	/* Fresh memory, padding included, is painted 0xAA before use. */
	memset(m.mem, 0, 64);
	{
		vs_request rq;
		vs_placement pl;
		memset(&rq, 0, sizeof rq);
		rq.size = 20;
		rq.align = 16;
		ck_assert_int_eq(m.s->alloc(m.st, &rq, &pl), VS_OK);
		ck_assert_uint_eq(pl.offset, 16);
		ck_assert_uint_eq(pl.block_offset, 10);
		ck_assert_uint_eq(pl.block_size, 26);
		for (i = 10; i < 36; i++)
			ck_assert_uint_eq(m.mem[i], 0xAA);
		ck_assert_uint_eq(m.mem[36], 0);
	}
	/* save is a mark, restore rolls back to it. */
	mark = malloc(m.s->save_size);
	ck_assert_int_eq(m.s->save(m.st, mark), 0);
	ck_assert_int_eq(do_alloc(&m, 100, 0), VS_OK);
	off = m.lv[m.nlive - 1].pl.offset;
	ck_assert_uint_eq(off, 36);
	ck_assert_int_eq(do_alloc(&m, 100, 0), VS_OK);
	ck_assert_int_eq(m.s->restore(m.st, mark), 0);
	{
		vs_request rq;
		vs_placement pl;
		memset(&rq, 0, sizeof rq);
		rq.size = 8;
		ck_assert_int_eq(m.s->alloc(m.st, &rq, &pl), VS_OK);
		ck_assert_uint_eq(pl.offset, off);
	}
	/* Frees keep the memory. */
	ck_assert_int_eq(m.s->free(m.st, &m.lv[0].pl), VS_RETAINED);
	/* Reset goes back to the start; a mark taken before is now beyond the pointer. */
	m.s->reset(m.st);
	memset(m.owner, 0, hc.arena * sizeof *m.owner);
	m.live_blocks = 0;
	ck_assert_int_eq(m.s->restore(m.st, mark), -1);
	ck_assert_uint_eq(walk(&m), 4096);
	free(mark);
	model_fini(&m);
}
END_TEST

static void collect(void *ud, const char *text)
{
	char *out = ud;

	if (strlen(out) + strlen(text) < 1024)
		strcat(out, text);
}

START_TEST(static_ignores_frees)
{
	static const heap_case hc = { "heap-static", "", 1024, 600, 8, 1, 1, 0, OVH_CONST };
	model m;
	uint32_t end = 0;
	int n = 0;
	char out[1024] = "";

	model_init(&m, &hc);
	while (do_alloc(&m, 40, 0) == VS_OK) {
		const vs_placement *pl = &m.lv[m.nlive - 1].pl;
		ck_assert_uint_ge(pl->offset, end); /* never placed over earlier memory */
		end = pl->offset + 40;
		do_free(&m, m.nlive - 1);
		n++;
	}
	ck_assert_int_eq(n, 1024 / 40);
	ck_assert_uint_eq(walk(&m), 1024 - (uint32_t)n * 40);
	/* Every free was ignored and counted; the dump says so. */
	ck_assert_uint_eq(((const heap_static *)m.st)->ignored_frees, (uint32_t)n);
	ck_assert_uint_eq(((const heap_static *)m.st)->overflow, 1);
	m.s->dump(m.st, collect, out);
	ck_assert_ptr_nonnull(strstr(out, "frees ignored: 25"));
	model_fini(&m);
}
END_TEST

/* Inits strategy name over a fresh 64 KiB arena; returns its state (NULL
 * when refused, err saying why). */
static void *init_with(const char *name, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	const vs_strategy *s = vs_strategy_find(name);
	vs_arena_decl d;
	void *st;

	ck_assert_ptr_nonnull(s);
	st = calloc(1, s->state_size);
	ck_assert_ptr_nonnull(st);
	memset(&d, 0, sizeof d);
	d.kind = VS_ARENA_RAM;
	d.size = 64 * 1024;
	d.unit = 1;
	err[0] = '\0';
	if (s->init(st, &d, options, mem, err, errlen) == 0)
		return st;
	free(st);
	return NULL;
}

static void fini_with(const char *name, void *st)
{
	const vs_strategy *s = vs_strategy_find(name);

	if (s->fini)
		s->fini(st);
	free(st);
}

/* Numbers in options are read one way, vs_option_u32's, by every strategy:
 * decimal or 0x hexadecimal, a leading 0 not octal, and a K or M that
 * carries the number past the range refused, never wrapped back into it. */
START_TEST(number_options)
{
	static const struct { const char *name, *options, *msg; uint32_t want; } opts[] = {
		{ "heap-bank", "cell=010", NULL, 10 },
		{ "heap-bank", "cell=0x20", NULL, 32 },
		{ "heap-bank", "cell=1K,per=4", NULL, 1024 },
		/* 0x40000000000001 * 1024 is 2^64 + 1024: wrapped, 1024 */
		{ "heap-bank", "cell=0x40000000000001K", "option cell=0x40000000000001K: want a number from 1 to "
			"16777216 (decimal, or hexadecimal after 0x; K and M multiply by 1024)", 0 },
		{ "heap-bank", "per=0x40000000000001K", "option per=0x40000000000001K: want a number from 1 to 65535", 0 },
		{ "heap-bank", "cell=18446744073709551616", "option cell=18446744073709551616: want a number", 0 },
		{ "heap-bank", "cell=17M", "option cell=17M: want a number from 1 to 16777216", 0 },
		{ "heap-bank", "cell=-1", "option cell=-1: want a number", 0 },
		{ "heap-static", "align=010", "option align=10: not a power of two", 0 },
		{ "heap-static", "align=016", NULL, 16 },
		{ "heap-static", "align=0x10", NULL, 16 },
		{ "heap-linear", "align=0x40000000000001K", "option align=0x40000000000001K: want a number", 0 },
		{ "heap-tracking", "records=0x40000000000001M", "option records=0x40000000000001M: want a number", 0 },
		{ "heap-manager", "h0=static/0x40000000000001K", "option h0=static/0x40000000000001K: the size is not a "
			"number of bytes", 0 },
		/* 070K is 70 KiB (56 KiB, were it octal, would fit) */
		{ "heap-manager", "h0=doug-lea/070K", "heap h0 (doug-lea, 71680 bytes) does not fit", 0 },
	};
	uint8_t *mem = calloc(64 * 1024, 1);
	char err[256];
	size_t i;

	ck_assert_ptr_nonnull(mem);
	for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		void *st = init_with(opts[i].name, opts[i].options, mem, err, sizeof err);

		if (opts[i].msg) {
			ck_assert_msg(st == NULL, "%s:%s: accepted", opts[i].name, opts[i].options);
			ck_assert_msg(strncmp(err, opts[i].msg, strlen(opts[i].msg)) == 0, "%s:%s: %s",
				opts[i].name, opts[i].options, err);
			continue;
		}
		ck_assert_msg(st != NULL, "%s:%s: %s", opts[i].name, opts[i].options, err);
		if (strcmp(opts[i].name, "heap-bank") == 0)
			ck_assert_uint_eq(((const bank_view *)st)->cell_opt, opts[i].want);
		else if (strcmp(opts[i].name, "heap-static") == 0)
			ck_assert_uint_eq(((const heap_static *)st)->align, opts[i].want);
		fini_with(opts[i].name, st);
	}
	/* small=010 is heap 10, the only one: a small request lands there
	 * (as heap 8 it found no heap) */
	{
		const vs_strategy *s = vs_strategy_find("heap-manager");
		void *st = init_with("heap-manager", "small=010,h10=static/4K", mem, err, sizeof err);
		vs_request rq;
		vs_placement pl;

		ck_assert_msg(st != NULL, "%s", err);
		memset(&rq, 0, sizeof rq);
		rq.size = 100;
		ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
		fini_with("heap-manager", st);
	}
	free(mem);
}
END_TEST

START_TEST(tlsf_mapping)
{
	uint32_t fl, sl;

	heap_tlsf_mapping(8, &fl, &sl);
	ck_assert_uint_eq(fl, 0); ck_assert_uint_eq(sl, 1);
	heap_tlsf_mapping(255, &fl, &sl);
	ck_assert_uint_eq(fl, 0); ck_assert_uint_eq(sl, 31);
	heap_tlsf_mapping(256, &fl, &sl);
	ck_assert_uint_eq(fl, 1); ck_assert_uint_eq(sl, 0);
	heap_tlsf_mapping(511, &fl, &sl);
	ck_assert_uint_eq(fl, 1); ck_assert_uint_eq(sl, 31);
	heap_tlsf_mapping(1056, &fl, &sl); /* 1024 + 32: second subclass of 2^10 */
	ck_assert_uint_eq(fl, 3); ck_assert_uint_eq(sl, 1);
	heap_tlsf_mapping(460, &fl, &sl);  /* 256 + 25*8 + 4 */
	ck_assert_uint_eq(fl, 1); ck_assert_uint_eq(sl, 25);
}
END_TEST

START_TEST(tlsf_good_fit)
{
	static const heap_case hc = { "heap-tlsf", "", 64 * 1024, 4096, 8, 1, 0, 1, OVH_CONST };
	model m;
	uint32_t a, b;

	model_init(&m, &hc);
	/* Holes of 1000 and 600 bytes, separated by live blocks. */
	ck_assert_int_eq(do_alloc(&m, 996, 0), VS_OK);
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	ck_assert_int_eq(do_alloc(&m, 596, 0), VS_OK);
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	a = m.lv[0].pl.offset;
	b = m.lv[2].pl.offset;
	do_free(&m, 0); /* the 1000-byte block leaves; index 0 now holds the last */
	do_free(&m, 2);
	/* A 500-byte request goes to the 600 hole (smaller class), not the first. */
	ck_assert_int_eq(do_alloc(&m, 500, 0), VS_OK);
	ck_assert_uint_eq(m.lv[m.nlive - 1].pl.offset, b);
	ck_assert_int_eq(do_alloc(&m, 900, 0), VS_OK);
	ck_assert_uint_eq(m.lv[m.nlive - 1].pl.offset, a);
	check_accounting(&m);
	model_fini(&m);
}
END_TEST

START_TEST(fit_policies)
{
	/* Holes of 200, 64 and 120 bytes (blocks), in address order; then a
	 * 40-byte request (48-byte block): first fit takes the 200 hole, best fit
	 * the 64 hole, next fit the hole after the last placement. */
	static const char *names[] = { "heap-first-fit", "heap-best-fit", "heap-next-fit" };
	int p;

	for (p = 0; p < 3; p++) {
		heap_case hc = { names[p], "", 8192, 4096, 8, 1, 0, 1, OVH_CONST };
		model m;
		uint32_t h200, h64, h120;

		model_init(&m, &hc);
		ck_assert_int_eq(do_alloc(&m, 196, 0), VS_OK); /* 0: 200 */
		ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);   /* 1 */
		ck_assert_int_eq(do_alloc(&m, 60, 0), VS_OK);  /* 2: 64 */
		ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);   /* 3 */
		ck_assert_int_eq(do_alloc(&m, 116, 0), VS_OK); /* 4: 120 */
		ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);   /* 5 */
		h200 = m.lv[0].pl.block_offset;
		h64 = m.lv[2].pl.block_offset;
		h120 = m.lv[4].pl.block_offset;
		ck_assert_uint_eq(m.lv[0].pl.block_size, 200);
		ck_assert_uint_eq(m.lv[2].pl.block_size, 64);
		ck_assert_uint_eq(m.lv[4].pl.block_size, 120);
		/* free 4, 2, 0 (the swap-remove keeps indexes simple from the end) */
		do_free(&m, 4);
		do_free(&m, 2);
		do_free(&m, 0);
		if (p == 2) {
			/* The last allocation (5) left the rover past the 120 hole:
			 * next fit goes on from there, into the big tail block. */
			ck_assert_int_eq(do_alloc(&m, 40, 0), VS_OK);
			ck_assert_uint_gt(m.lv[m.nlive - 1].pl.block_offset, h120);
		} else {
			ck_assert_int_eq(do_alloc(&m, 40, 0), VS_OK);
			ck_assert_uint_eq(m.lv[m.nlive - 1].pl.block_offset, p == 0 ? h200 : h64);
		}
		check_accounting(&m);
		model_fini(&m);
	}
}
END_TEST

START_TEST(buddy_sizes)
{
	static const heap_case hc = { "heap-buddy", "", 96 * 1024, 4096, 8, 1, 0, 1, OVH_CONST };
	model m;

	model_init(&m, &hc);
	/* 96 KiB: roots of 64 and 32 KiB. */
	ck_assert_uint_eq(walk(&m), 96 * 1024);
	ck_assert_uint_eq(m.extents, 2);
	ck_assert_int_eq(do_alloc(&m, 120, 0), VS_OK); /* 120 + 8 = 128 */
	ck_assert_uint_eq(m.lv[0].pl.block_size, 128);
	ck_assert_uint_eq(m.lv[0].pl.offset, m.lv[0].pl.block_offset + 8);
	ck_assert_int_eq(do_alloc(&m, 121, 0), VS_OK);
	ck_assert_uint_eq(m.lv[1].pl.block_size, 256);
	ck_assert_int_eq(do_alloc(&m, 8, 0), VS_OK);
	ck_assert_uint_eq(m.lv[2].pl.block_size, 16);
	/* Aligned payloads move to block + align. */
	ck_assert_int_eq(do_alloc(&m, 100, 64), VS_OK);
	ck_assert_uint_eq(m.lv[3].pl.offset % 64, 0);
	ck_assert_uint_eq(m.lv[3].pl.block_size, 256);
	check_accounting(&m);
	/* The small blocks came from the 32 KiB root (the smallest that held
	 * them), so the 64 KiB root is still whole; a byte more does not fit. */
	ck_assert_int_eq(do_alloc(&m, 64 * 1024 - 7, 0), VS_ERR_NOSPACE);
	ck_assert_int_eq(do_alloc(&m, 64 * 1024 - 8, 0), VS_OK);
	ck_assert_uint_eq(m.lv[4].pl.block_offset, 0);
	model_fini(&m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_strategies");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, random_sequences, 0, (int)(sizeof cases / sizeof cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, bank_segments);
	tcase_add_test(tc, bank_no_grow);
	tcase_add_test(tc, pools_rules);
	tcase_add_test(tc, linear_marks_and_fill);
	tcase_add_test(tc, static_ignores_frees);
	tcase_add_test(tc, number_options);
	tcase_add_test(tc, tlsf_mapping);
	tcase_add_test(tc, tlsf_good_fit);
	tcase_add_test(tc, fit_policies);
	tcase_add_test(tc, buddy_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
