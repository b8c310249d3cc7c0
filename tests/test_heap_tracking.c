/* SPDX-License-Identifier: Zlib */
/* test_heap_tracking.c - the TrackingHeap against the algorithm it replaced.
 *
 * heap_tracking.c keeps its records unsorted and finds the first fit through
 * an AVL index outside the region. The model below is the heap as it was
 * before (a table kept sorted by address in the region, scanned gap by gap
 * and shifted on every insert and remove: linear per call), kept here only as
 * the statement of what every call must answer. Long random runs make the
 * same calls on both - sizes from 0 bytes to more than the region, every
 * alignment, frees of live blocks, of blocks already freed and of addresses
 * never handed out, resets, tables that fill - and check that every answer,
 * every address and the free extents are the same, and that the index stays
 * a balanced tree whose cached gaps and fits are those of the records. The
 * runs are longer with VRAMSIM_SOAK=1.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/heap_manager.h"
#include "vramsim/alloc/heap_tracking.h"

/* ---- the model: heap_tracking.c before the index ------------------------ */

typedef struct old_tracking {
	uint32_t size, capacity, data, align, count, live_bytes, high_water;
} old_tracking;

static uint32_t old_off(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * 8u); }
static uint32_t old_len(const uint8_t *m, uint32_t i) { return heap_ld32(m, i * 8u + 4u); }

static void old_copy(uint8_t *m, uint32_t to, uint32_t from)
{
	heap_st32(m, to * 8u, old_off(m, from));
	heap_st32(m, to * 8u + 4u, old_len(m, from));
}

static int old_init(old_tracking *t, uint32_t size, uint32_t records, uint32_t align)
{
	if (align <= 1u)
		align = HT_ALIGN;
	if (records == 0)
		records = size / 256u < 16u ? 16u : size / 256u;
	t->size = size;
	t->align = align;
	t->count = 0;
	t->live_bytes = 0;
	t->high_water = 0;
	t->capacity = records;
	if (!heap_is_pow2(align) || records > size / 8u) {
		t->capacity = 0;
		t->data = size;
		return HEAP_INVALID;
	}
	t->data = records * 8u;
	return HEAP_OK;
}

static uint32_t old_lower_bound(const old_tracking *t, const uint8_t *m, uint32_t off)
{
	uint32_t lo = 0, hi = t->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2u;

		if (old_off(m, mid) < off)
			lo = mid + 1u;
		else
			hi = mid;
	}
	return lo;
}

static int old_alloc(old_tracking *t, uint8_t *m, uint32_t size, uint32_t align, heap_block *out)
{
	uint32_t i, from = t->data, len = size ? size : 1u, p = HEAP_NIL;

	if (align <= 1u)
		align = t->align;
	if (!heap_is_pow2(align))
		return HEAP_INVALID;
	if (t->capacity == 0)
		return HEAP_NOSPACE;
	for (i = 0; i <= t->count; i++) {
		uint32_t end = i < t->count ? old_off(m, i) : t->size;
		uint32_t q = heap_align_up(from, align);

		if (q != HEAP_NIL && q <= end && end - q >= len) {
			p = q;
			break;
		}
		if (i < t->count)
			from = old_off(m, i) + old_len(m, i);
	}
	if (p == HEAP_NIL)
		return HEAP_NOSPACE;
	if (t->count == t->capacity)
		return HEAP_MANAGEMENT;
	for (from = t->count; from > i; from--)
		old_copy(m, from, from - 1u);
	heap_st32(m, i * 8u, p);
	heap_st32(m, i * 8u + 4u, len);
	t->count++;
	t->live_bytes += len;
	if (p + len > t->high_water)
		t->high_water = p + len;
	out->offset = out->block_offset = p;
	out->granted = size;
	out->block_size = len;
	return HEAP_OK;
}

static int old_free(old_tracking *t, uint8_t *m, uint32_t off)
{
	uint32_t i = old_lower_bound(t, m, off);

	if (i == t->count || old_off(m, i) != off)
		return HEAP_INVALID;
	t->live_bytes -= old_len(m, i);
	for (; i + 1u < t->count; i++)
		old_copy(m, i, i + 1u);
	t->count--;
	return HEAP_OK;
}

static void old_walk_free(const old_tracking *t, const uint8_t *m, heap_extent_fn fn, void *ud)
{
	uint32_t i, from = t->data;

	for (i = 0; i <= t->count; i++) {
		uint32_t end = i < t->count ? old_off(m, i) : t->size;

		if (end > from && fn(ud, from, end - from))
			return;
		if (i < t->count)
			from = old_off(m, i) + old_len(m, i);
	}
}

/* ---- both, side by side --------------------------------------------------- */

typedef struct extents {
	uint32_t n, cap, *v; /* offset, size pairs */
} extents;

static int collect(void *ud, uint32_t off, uint32_t size)
{
	extents *e = ud;

	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2u : 256u;
		e->v = realloc(e->v, e->cap * 2u * sizeof *e->v);
		ck_assert_ptr_nonnull(e->v);
	}
	e->v[2u * e->n] = off;
	e->v[2u * e->n + 1u] = size;
	e->n++;
	return 0;
}

typedef struct pair {
	uint32_t size, records, align;
	uint8_t *mem, *old_mem;
	heap_tracking t;
	heap_tracking_node *ix;
	old_tracking o;
	uint32_t *live, nlive; /* offsets of live blocks */
	extents e_new, e_old;
} pair;

static void pair_init(pair *p, uint32_t size, uint32_t records, uint32_t align)
{
	int rc;

	memset(p, 0, sizeof *p);
	p->size = size;
	p->records = records;
	p->align = align;
	p->mem = calloc(1, size);
	p->old_mem = calloc(1, size);
	p->live = calloc(size, sizeof *p->live);
	ck_assert(p->mem && p->old_mem && p->live);
	rc = heap_tracking_init(&p->t, p->mem, size, records, align);
	ck_assert_int_eq(rc, old_init(&p->o, size, records, align));
	ck_assert_uint_eq(heap_tracking_capacity(size, records, align), p->o.capacity);
	ck_assert_uint_eq(p->t.capacity, p->o.capacity);
	ck_assert_uint_eq(p->t.data, p->o.data);
	/* garbage in the index: the heap must not read a node before it writes it */
	p->ix = malloc((p->t.capacity ? p->t.capacity : 1u) * sizeof *p->ix);
	ck_assert_ptr_nonnull(p->ix);
	memset(p->ix, 0xA5, (p->t.capacity ? p->t.capacity : 1u) * sizeof *p->ix);
}

static void pair_fini(pair *p)
{
	free(p->mem);
	free(p->old_mem);
	free(p->live);
	free(p->ix);
	free(p->e_new.v);
	free(p->e_old.v);
}

static void pair_reset(pair *p)
{
	ck_assert_int_eq(heap_tracking_init(&p->t, p->mem, p->size, p->records, p->align),
		old_init(&p->o, p->size, p->records, p->align));
	p->nlive = 0;
}

/* One allocation on both: the same answer, the same block. */
static int pair_alloc(pair *p, uint32_t size, uint32_t align, uint64_t step)
{
	heap_block a, b;
	int ra, rb;

	memset(&a, 0x5A, sizeof a);
	memset(&b, 0x5A, sizeof b);
	ra = heap_tracking_alloc(&p->t, p->mem, p->ix, size, align, &a);
	rb = old_alloc(&p->o, p->old_mem, size, align, &b);
	HOT_ASSERT(ra == rb, "step %llu: alloc(%u, align %u): %d, the model %d", (unsigned long long)step, size,
		align, ra, rb);
	if (ra == HEAP_OK) {
		HOT_ASSERT(!memcmp(&a, &b, sizeof a), "step %llu: alloc(%u, align %u) at %u+%u, the model at %u+%u",
			(unsigned long long)step, size, align, a.offset, a.block_size, b.offset, b.block_size);
		p->live[p->nlive++] = a.offset;
	}
	return ra;
}

static int pair_free(pair *p, uint32_t off, uint64_t step)
{
	int ra = heap_tracking_free(&p->t, p->mem, p->ix, off), rb = old_free(&p->o, p->old_mem, off);

	HOT_ASSERT(ra == rb, "step %llu: free(%u): %d, the model %d", (unsigned long long)step, off, ra, rb);
	return ra;
}

/* The index of slot n is a balanced search tree by offset whose heights,
 * gaps and fits are right; returns its height and walks it in order,
 * checking each record's gap starts where the record before it ended. */
typedef struct check_st {
	const pair *p;
	uint32_t prev_end, nodes;
} check_st;

static uint32_t room_at(uint32_t lo, uint32_t end, uint32_t a)
{
	uint32_t q = heap_align_up(lo, a);

	return q != HEAP_NIL && q <= end ? end - q : 0;
}

static uint32_t check_node(check_st *c, uint32_t n, uint32_t *fit, uint32_t *gap)
{
	const heap_tracking_node *x;
	uint32_t hl, hr, fl, fr, gl, gr, off, len, f, g;

	*fit = *gap = 0;
	if (n == HEAP_NIL)
		return 0;
	HOT_ASSERT(n < c->p->t.used, "index: slot %u was never taken (%u used)", n, c->p->t.used);
	x = &c->p->ix[n];
	hl = check_node(c, x->left, &fl, &gl);
	off = heap_ld32(c->p->mem, n * HEAP_TRACKING_RECORD);
	len = heap_ld32(c->p->mem, n * HEAP_TRACKING_RECORD + 4u);
	HOT_ASSERT(len != 0, "index: slot %u is on the free list", n);
	HOT_ASSERT(x->key == off, "index: slot %u keyed %u, its record at %u", n, x->key, off);
	HOT_ASSERT(x->lo == c->prev_end, "index: slot %u's gap starts at %u, the record before ends at %u", n, x->lo,
		c->prev_end);
	HOT_ASSERT(off >= x->lo, "index: slot %u at %u before its gap %u", n, off, x->lo);
	c->prev_end = off + len;
	c->nodes++;
	hr = check_node(c, x->right, &fr, &gr);
	HOT_ASSERT(hl <= hr + 1u && hr <= hl + 1u, "index: slot %u out of balance (%u, %u)", n, hl, hr);
	HOT_ASSERT(x->height == (hl > hr ? hl : hr) + 1u, "index: slot %u height %u", n, x->height);
	f = room_at(x->lo, off, c->p->t.align);
	if (fl > f)
		f = fl;
	if (fr > f)
		f = fr;
	HOT_ASSERT(x->fit == f, "index: slot %u fit %u, its subtree offers %u", n, x->fit, f);
	g = off - x->lo;
	if (gl > g)
		g = gl;
	if (gr > g)
		g = gr;
	HOT_ASSERT(x->gap == g, "index: slot %u gap %u, its subtree's largest %u", n, x->gap, g);
	*fit = f;
	*gap = g;
	return x->height;
}

static void check_index(const pair *p)
{
	check_st c;
	uint32_t fit, gap, h, n = p->t.count, bound = 0, free_slots = 0, s;

	c.p = p;
	c.prev_end = p->t.data;
	c.nodes = 0;
	h = check_node(&c, p->t.root, &fit, &gap);
	HOT_CMP(c.nodes, ==, p->t.count);
	HOT_CMP(c.prev_end, ==, p->t.tail);
	/* AVL: height < 1.45 log2(n + 2) */
	while (n + 2u > (1u << bound))
		bound++;
	HOT_ASSERT(h * 100u <= 145u * bound, "index: height %u for %u records", h, p->t.count);
	for (s = p->t.free_slot; s != HEAP_NIL; s = heap_ld32(p->mem, s * HEAP_TRACKING_RECORD)) {
		HOT_ASSERT(s < p->t.used && free_slots < p->t.used, "free list: slot %u (%u used)", s, p->t.used);
		HOT_CMP(heap_ld32(p->mem, s * HEAP_TRACKING_RECORD + 4u), ==, 0);
		free_slots++;
	}
	HOT_CMP(free_slots + p->t.count, ==, p->t.used);
}

/* Free extents, status and counters agree with the model's. */
static void check_same(pair *p, uint64_t step)
{
	heap_status st;
	uint32_t largest = 0, i;

	p->e_new.n = p->e_old.n = 0;
	heap_tracking_walk_free(&p->t, p->mem, p->ix, collect, &p->e_new);
	old_walk_free(&p->o, p->old_mem, collect, &p->e_old);
	HOT_ASSERT(p->e_new.n == p->e_old.n, "step %llu: %u free extents, the model %u", (unsigned long long)step,
		p->e_new.n, p->e_old.n);
	HOT_ASSERT(p->e_new.n == 0 || !memcmp(p->e_new.v, p->e_old.v, p->e_new.n * 2u * sizeof *p->e_new.v),
		"step %llu: the free extents differ from the model's", (unsigned long long)step);
	for (i = 0; i < p->e_old.n; i++)
		if (p->e_old.v[2u * i + 1u] > largest)
			largest = p->e_old.v[2u * i + 1u];
	heap_tracking_status(&p->t, p->mem, p->ix, &st);
	HOT_CMP(st.largest, ==, largest);
	HOT_CMP(st.total_free, ==, p->o.size - p->o.data - p->o.live_bytes);
	HOT_CMP(st.objects, ==, p->o.count);
	HOT_CMP(st.high_water, ==, p->o.high_water);
	HOT_CMP(p->t.live_bytes, ==, p->o.live_bytes);
	check_index(p);
}

/* A request size: mostly small, some large, a few 0 and a few larger than
 * any gap. */
static uint32_t pick_size(vs_rng *r, uint32_t region, uint32_t small)
{
	uint32_t k = vs_rng_below(r, 100);

	if (k < 2)
		return 0;
	if (k < 70)
		return 1u + vs_rng_below(r, small);
	if (k < 95)
		return 1u + vs_rng_below(r, small * 16u);
	if (k < 99)
		return 1u + vs_rng_below(r, region / 4u < small * 256u ? region / 4u : small * 256u);
	return region - vs_rng_below(r, 64);
}

static uint32_t pick_align(vs_rng *r)
{
	static const uint32_t aligns[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 8, 16, 32, 64, 256, 4096, 3, 24 };

	return aligns[vs_rng_below(r, sizeof aligns / sizeof aligns[0])];
}

typedef struct run_case {
	uint32_t size, records, align; /* heap_tracking_init's */
	uint32_t small;                /* most requests are 1..small bytes */
	uint32_t steps, phase;         /* steps of filling, then as many of draining */
	int want_full;                 /* the run must meet a full table */
	uint32_t min_peak;             /* and hold at least this many records at once */
} run_case;

static const run_case run_cases[] = {
	{ 64u * 1024u, 0, 0, 64, 20000, 2000, 1, 200 },         /* 256 records, 8-aligned */
	{ 64u * 1024u, 40, 8, 512, 20000, 500, 1, 40 },         /* a small table */
	{ 256u * 1024u, 3000, 4, 64, 20000, 4000, 0, 1000 },     /* heap alignment below most requests' */
	{ 32u * 1024u, 60, 64, 32, 20000, 1000, 1, 60 },        /* above most requests' */
	{ 50001u, 200, 16, 24, 20000, 1000, 1, 150 },           /* an odd size */
	{ 1024u * 1024u, 20000, 8, 16, 60000, 15000, 0, 4000 }, /* thousands of live records: a deep index */
};

START_TEST(same_as_model)
{
	const run_case *rc = &run_cases[_i];
	uint32_t steps = vs_test_soak(rc->steps, rc->steps * 15u), fills = 0, nospace = 0, peak = 0;
	vs_rng r = { 0x9E3779B97F4A7C15ull + (uint64_t)_i };
	uint64_t step;
	pair p;

	pair_init(&p, rc->size, rc->records, rc->align);
	for (step = 0; step < steps; step++) {
		uint32_t k = vs_rng_below(&r, 1000);
		/* phases: fill up for a while, then drain, so tables fill and empty */
		int filling = (step / rc->phase) % 2u == 0;

		if (k < 2 && vs_rng_below(&r, 50) == 0) {
			pair_reset(&p);
		} else if (k < 30) {
			/* free what is not live: a live offset plus one, a random one, a block freed before */
			uint32_t off = p.nlive && k < 15 ? p.live[vs_rng_below(&r, p.nlive)] + 1u :
				vs_rng_below(&r, rc->size + 16u);
			int ra = heap_tracking_free(&p.t, p.mem, p.ix, off);

			HOT_CMP(ra, ==, old_free(&p.o, p.old_mem, off));
			if (ra == HEAP_OK) { /* it was live after all */
				uint32_t i;

				for (i = 0; i < p.nlive && p.live[i] != off; i++)
					;
				HOT_ASSERT(i < p.nlive, "freed %u, not a block the test holds", off);
				p.live[i] = p.live[--p.nlive];
			}
		} else if (p.nlive && k < (filling ? 330u : 700u)) {
			uint32_t i = vs_rng_below(&r, p.nlive), off = p.live[i];

			HOT_CMP(pair_free(&p, off, step), ==, HEAP_OK);
			p.live[i] = p.live[--p.nlive];
			if (k & 1u)
				HOT_CMP(pair_free(&p, off, step), ==, HEAP_INVALID);
		} else {
			int ra = pair_alloc(&p, pick_size(&r, rc->size, rc->small), pick_align(&r), step);

			fills += ra == HEAP_MANAGEMENT;
			nospace += ra == HEAP_NOSPACE;
		}
		if (p.t.count > peak)
			peak = p.t.count;
		if (step % 97u == 0)
			check_same(&p, step);
	}
	check_same(&p, step);
	/* the runs reach what they are for */
	ck_assert_uint_gt(nospace, 0);
	if (rc->want_full)
		ck_assert_uint_gt(fills, 0);
	ck_assert_uint_ge(peak, rc->min_peak);
	pair_fini(&p);
}
END_TEST

/* Hand-made: the lowest gap that holds the request at its alignment wins,
 * not the best-fitting one; a full table fails with HEAP_MANAGEMENT only
 * when a gap would have held the request. */
START_TEST(first_fit_rules)
{
	pair p;
	heap_block b;
	uint32_t a0, a1, a2;

	pair_init(&p, 4096, 16, 8); /* table: 128 bytes */
	ck_assert_uint_eq(p.t.data, 128);
	ck_assert_int_eq(pair_alloc(&p, 100, 0, 0), HEAP_OK);
	a0 = p.live[0];
	ck_assert_uint_eq(a0, 128);
	ck_assert_int_eq(pair_alloc(&p, 50, 0, 1), HEAP_OK);
	a1 = p.live[1];
	ck_assert_uint_eq(a1, 232); /* 228 rounded up to 8 */
	ck_assert_int_eq(pair_alloc(&p, 300, 0, 2), HEAP_OK);
	a2 = p.live[2];
	ck_assert_uint_eq(a2, 288);
	ck_assert_int_eq(pair_free(&p, a0, 3), HEAP_OK);
	ck_assert_int_eq(pair_free(&p, a2, 4), HEAP_OK);
	/* 20 bytes: [128, 232) comes first, though [282, ...) is as good */
	ck_assert_int_eq(heap_tracking_alloc(&p.t, p.mem, p.ix, 20, 0, &b), HEAP_OK);
	ck_assert_uint_eq(b.offset, 128);
	/* 100 aligned to 64: [148, 232) holds no 64-aligned 100 bytes; after a1 */
	ck_assert_int_eq(heap_tracking_alloc(&p.t, p.mem, p.ix, 100, 64, &b), HEAP_OK);
	ck_assert_uint_eq(b.offset, 320);
	/* 0 bytes take 1, granted 0 */
	ck_assert_int_eq(heap_tracking_alloc(&p.t, p.mem, p.ix, 0, 0, &b), HEAP_OK);
	ck_assert_uint_eq(b.offset, 152);
	ck_assert_uint_eq(b.granted, 0);
	ck_assert_uint_eq(b.block_size, 1);
	ck_assert_int_eq(heap_tracking_alloc(&p.t, p.mem, p.ix, 8, 3, &b), HEAP_INVALID);
	ck_assert_int_eq(heap_tracking_free(&p.t, p.mem, p.ix, 129), HEAP_INVALID);
	pair_fini(&p);

	/* a full table: MANAGEMENT when a gap holds the request, NOSPACE when none does */
	pair_init(&p, 4096, 16, 8);
	for (a0 = 0; a0 < 16; a0++)
		ck_assert_int_eq(pair_alloc(&p, 8, 0, a0), HEAP_OK);
	ck_assert_int_eq(pair_alloc(&p, 8, 0, 16), HEAP_MANAGEMENT);
	ck_assert_int_eq(pair_alloc(&p, 4096, 0, 17), HEAP_NOSPACE);
	ck_assert_int_eq(pair_free(&p, p.live[3], 18), HEAP_OK);
	ck_assert_int_eq(pair_alloc(&p, 8, 0, 19), HEAP_OK);
	ck_assert_uint_eq(p.live[p.nlive - 1u], 128 + 3 * 8);
	check_same(&p, 20);
	pair_fini(&p);

	/* a table that does not fit: no heap, every request NOSPACE */
	ck_assert_uint_eq(heap_tracking_capacity(100, 16, 8), 0);
	ck_assert_uint_eq(heap_tracking_capacity(4096, 0, 6), 0);
	pair_init(&p, 100, 0, 8);
	ck_assert_int_eq(pair_alloc(&p, 1, 0, 0), HEAP_NOSPACE);
	check_same(&p, 1);
	pair_fini(&p);
}
END_TEST

/* The heap manager gives each tracking heap its own nodes of the caller's:
 * two heaps side by side answer as two models, and a heap that would need
 * more nodes than are left is not created. */
START_TEST(manager_index)
{
	enum { REGION = 96 * 1024 };
	static uint8_t mem[REGION], old_a[32768], old_b[32768];
	static heap_manager g;
	heap_tracking_node *nodes;
	old_tracking oa, ob;
	uint32_t need = heap_mgr_index_nodes(HEAP_KIND_TRACKING, 32768), live[2][4096], nlive[2] = { 0, 0 };
	uint32_t step;
	vs_rng r = { 77 };

	ck_assert_uint_eq(need, 128);
	ck_assert_uint_eq(heap_mgr_index_nodes(HEAP_KIND_DOUG_LEA, 32768), 0);
	nodes = malloc(2u * need * sizeof *nodes);
	ck_assert_ptr_nonnull(nodes);
	heap_mgr_init(&g, REGION);
	/* no nodes: no tracking heap */
	ck_assert_int_eq(heap_mgr_create(&g, mem, 4, HEAP_KIND_TRACKING, 32768), HEAP_MANAGEMENT);
	heap_mgr_set_index(&g, nodes, 2u * need - 1u);
	ck_assert_int_eq(heap_mgr_create(&g, mem, 4, HEAP_KIND_TRACKING, 32768), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, 7, HEAP_KIND_TRACKING, 32768), HEAP_MANAGEMENT);
	ck_assert_int_eq(heap_mgr_create(&g, mem, 7, HEAP_KIND_DOUG_LEA, 8192), HEAP_OK);
	ck_assert_uint_eq(g.index_used, need);
	heap_mgr_init(&g, REGION);
	heap_mgr_set_index(&g, nodes, 2u * need);
	ck_assert_int_eq(heap_mgr_create(&g, mem, 4, HEAP_KIND_TRACKING, 32768), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, 7, HEAP_KIND_TRACKING, 32768), HEAP_OK);
	ck_assert_uint_eq(g.index_used, 2u * need);
	old_init(&oa, 32768, 0, HT_ALIGN);
	old_init(&ob, 32768, 0, HT_ALIGN);
	for (step = 0; step < 6000; step++) {
		uint32_t h = vs_rng_below(&r, 2), id = h ? 7 : 4, start = g.heap[id].start;
		old_tracking *o = h ? &ob : &oa;
		uint8_t *om = h ? old_b : old_a;
		heap_block a, b;

		if (nlive[h] && vs_rng_below(&r, 100) < 45) {
			uint32_t i = vs_rng_below(&r, nlive[h]), off = live[h][i];

			HOT_CMP(heap_mgr_free(&g, mem, start + off, NULL), ==, HEAP_OK);
			HOT_CMP(old_free(o, om, off), ==, HEAP_OK);
			live[h][i] = live[h][--nlive[h]];
		} else {
			uint32_t size = 1u + vs_rng_below(&r, 600), align = pick_align(&r) & ~3u;
			int ra = heap_mgr_alloc(&g, mem, id, size, align, &a, NULL), rb = old_alloc(o, om, size, align, &b);

			HOT_ASSERT(ra == rb, "step %u heap %u: %d, the model %d", step, id, ra, rb);
			if (ra == HEAP_OK) {
				HOT_CMP(a.offset, ==, start + b.offset);
				live[h][nlive[h]++] = b.offset;
			}
		}
	}
	ck_assert_uint_gt(nlive[0] + nlive[1], 0);
	free(nodes);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_tracking");
	TCase *tc = tcase_create("model");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, same_as_model, 0, (int)(sizeof run_cases / sizeof run_cases[0]));
	tcase_add_test(tc, first_fit_rules);
	tcase_add_test(tc, manager_index);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
