/* SPDX-License-Identifier: Zlib */
/* test_butano.c - butano-sprite-tiles: Butano's sprite tiles manager.
 *
 * Each rule is pinned on a short sequence worked out by hand from
 * butano/src/bn_sprite_tiles_manager.cpp (GValiente/butano; "L123" is a
 * line at tag 21.7.1, "20:L123" at tag 20.3.2). A reference model written
 * here from the same reading, with other data structures (ranges in an
 * array, ties by insertion stamps), then runs random sequences of both
 * versions in step with the allocator, tile for tile. Last, the strategy
 * through the replay: sharing by tag, waiting until the frame, the flush. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/butano_sprite_tiles.h"
#include "vramsim/strategy.h"
#include "strategies/registry.h"
#include "engine/replay.h"

static butano_st a;

static int create(uint32_t data, unsigned n)
{
	int found;

	return butano_st_create(&a, data, (uint16_t)n, 0, &found);
}

static unsigned start_of(int id)
{
	ck_assert_int_gt(id, 0);
	return a.items[id].start;
}

/* L663 (21) and 20:L678: the tiles come from the END of the chosen range
 * from 21.0.0 on (9392f430), from its START before. */
START_TEST(end_from_21_start_before)
{
	butano_st_init(&a, 21, 128);
	ck_assert_uint_eq(start_of(create(1, 4)), 1020);
	ck_assert_uint_eq(start_of(create(2, 8)), 1012);
	butano_st_init(&a, 20, 128);
	ck_assert_uint_eq(start_of(create(1, 4)), 0);
	ck_assert_uint_eq(start_of(create(2, 8)), 4);
	butano_st_init(&a, 7, 128);
	ck_assert_uint_eq(start_of(create(1, 4)), 0);
}
END_TEST

/* L452 inserts a free item after every one of its size (upper_bound) and
 * L721 takes the first at least as big (lower_bound): the smallest range
 * wins, and of equal ones the one longest in the free list, not the lowest. */
START_TEST(best_fit_ties_go_to_the_oldest_free)
{
	int x, b, y, id;

	butano_st_init(&a, 20, 128);
	id = butano_st_allocate(&a, 2); /* A: 0-1 */
	x = butano_st_allocate(&a, 1);  /* 2 */
	b = butano_st_allocate(&a, 2);  /* B: 3-4 */
	y = butano_st_allocate(&a, 1);  /* 5 */
	ck_assert_uint_eq(start_of(y), 5);
	(void)x;
	/* B waits first, then A: both 2 tiles, so update (L1219) frees B
	 * first and A goes after it in the free list */
	ck_assert_int_eq(butano_st_decrease_usages(&a, b), 0);
	ck_assert_int_eq(butano_st_decrease_usages(&a, id), 0);
	butano_st_update(&a);
	ck_assert_uint_eq(a.nfree, 3);
	ck_assert_uint_eq(start_of(butano_st_allocate(&a, 2)), 3); /* B's, not A's at 0 */
	ck_assert_uint_eq(start_of(butano_st_allocate(&a, 2)), 0);
	ck_assert_uint_eq(start_of(butano_st_allocate(&a, 1)), 6); /* the rest, 6-1023 */
}
END_TEST

/* L697-716: a waiting item of exactly the size asked for is taken for new
 * graphics before any free range; the old graphics are gone (released). */
START_TEST(waiting_item_of_the_exact_size_first)
{
	int g1, g2;

	butano_st_init(&a, 20, 128);
	g1 = create(1, 4);      /* 0-3 */
	g2 = create(2, 8);      /* 4-11 */
	ck_assert_int_eq(butano_st_decrease_usages(&a, g1), 0);
	ck_assert_uint_eq(a.to_remove_tiles, 4);
	ck_assert_uint_eq(start_of(create(3, 2)), 12); /* not exact: best fit */
	ck_assert_uint_eq(a.nreleased, 0);
	ck_assert_uint_eq(start_of(create(4, 4)), 0);  /* exact: g1's tiles */
	ck_assert_uint_eq(a.nreleased, 1);
	ck_assert_uint_eq(a.released[0], 0);
	ck_assert_uint_eq(a.to_remove_tiles, 0);
	/* raw allocations never take a waiting item (L749) */
	ck_assert_int_eq(butano_st_decrease_usages(&a, g2), 0);
	ck_assert_uint_eq(start_of(butano_st_allocate(&a, 8)), 14);
}
END_TEST

/* L542-599: graphics used are handed out again with a use more; graphics
 * waiting come back (L572) without being loaded again. */
START_TEST(graphics_shared_used_or_waiting)
{
	int g, found;

	butano_st_init(&a, 21, 128);
	g = create(7, 16);
	ck_assert_int_eq(butano_st_create(&a, 7, 16, 0, &found), g);
	ck_assert_int_eq(found, 1);
	ck_assert_uint_eq(a.items[g].usages, 2);
	ck_assert_int_eq(butano_st_create(&a, 7, 8, 0, &found) == g, 0); /* other tiles: other graphics */
	ck_assert_int_eq(found, 0);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 1);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 0);
	ck_assert_uint_eq(a.items[g].status, BUTANO_ST_TO_REMOVE);
	ck_assert_int_eq(butano_st_create(&a, 7, 16, 0, &found), g);
	ck_assert_int_eq(found, 1);
	ck_assert_uint_eq(a.items[g].status, BUTANO_ST_USED);
	ck_assert_uint_eq(a.to_remove_tiles, 0);
	ck_assert_uint_eq(a.nreleased, 0);
	/* data 0 (graphics of their own) is never found */
	ck_assert_int_ne(create(0, 16), create(0, 16));
	/* the frame's update frees what waits: found no more */
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 0);
	butano_st_update(&a);
	ck_assert_uint_eq(a.nreleased, 1);
	ck_assert_int_ne(butano_st_create(&a, 7, 16, 0, &found) == g && found, 1);
}
END_TEST

/* L739-744: when nothing fits, every waiting item is freed at once and the
 * request tried again; raw allocations then fail until the frame's update
 * (delay_commit, L753), and so does allocate_first_half (L997). */
START_TEST(flush_when_nothing_fits)
{
	int g1, g2, g3;

	butano_st_init(&a, 20, 128);
	g1 = create(1, 512);
	g2 = create(2, 256);
	g3 = create(3, 256);
	ck_assert_uint_eq(start_of(g3), 768);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g1), 0);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g3), 0);
	ck_assert_int_eq(butano_st_allocate(&a, 128), BUTANO_ST_NO_SPACE); /* allocate never flushes */
	/* 128 tiles: no waiting item is exactly 128, nothing free: flush,
	 * then best fit takes g3's 256 tiles over g1's 512 */
	ck_assert_uint_eq(start_of(create(4, 128)), 768);
	ck_assert_uint_eq(a.nreleased, 2);
	ck_assert_uint_eq(a.released[0], 768); /* to_remove order: by size, 256 first */
	ck_assert_uint_eq(a.released[1], 0);
	ck_assert_uint_eq(a.delay_commit, 1);
	ck_assert_int_eq(butano_st_allocate(&a, 1), BUTANO_ST_NO_SPACE);
	butano_st_update(&a);
	ck_assert_uint_eq(a.nreleased, 0);
	ck_assert_uint_eq(start_of(butano_st_allocate(&a, 1)), 896);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g2), 0);
	ck_assert_int_eq(create(5, 1024), BUTANO_ST_NO_SPACE); /* flushed, still too little */
}
END_TEST

/* L660 (20:L675): a split needs a new item; with none left Butano stops
 * at BN_BASIC_ASSERT. An exact fit needs none. */
START_TEST(item_limit)
{
	int g;

	butano_st_init(&a, 21, 3);
	ck_assert_int_gt(create(1, 512), 0);
	g = create(2, 256);
	ck_assert_int_gt(g, 0);
	ck_assert_uint_eq(a.nspare, 0);
	ck_assert_int_eq(create(3, 8), BUTANO_ST_NO_ITEMS);
	ck_assert_int_eq(butano_st_allocate(&a, 8), BUTANO_ST_NO_ITEMS);
	ck_assert_uint_eq(start_of(create(4, 256)), 0); /* the free rest, exactly */
	ck_assert_int_eq(create(5, 1), BUTANO_ST_NO_SPACE);
}
END_TEST

/* The limit reached in the retry after a flush (L739-744, then L660): the
 * flush stays done (the waiting item is free, delay_commit is set), and only
 * the split is undone. tools/butano-check leaves Butano's own books so after
 * its assert (docs/butano.md, "Checked against Butano's code"), and the two
 * agreed on every placement that followed. */
START_TEST(item_limit_after_a_flush)
{
	int g;

	butano_st_init(&a, 21, 3);
	ck_assert_uint_eq(start_of(create(1, 512)), 512);
	g = create(2, 256);
	ck_assert_uint_eq(start_of(g), 256);
	ck_assert_uint_eq(start_of(create(3, 256)), 0); /* exact: no item taken */
	ck_assert_uint_eq(a.nspare, 0);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 0);
	/* nothing free, no waiting item of 8 tiles: flush, then the split of
	 * 256-511 needs a fourth item */
	ck_assert_int_eq(create(4, 8), BUTANO_ST_NO_ITEMS);
	ck_assert_uint_eq(a.nreleased, 1);
	ck_assert_uint_eq(a.released[0], 256);
	ck_assert_uint_eq(a.items[g].status, BUTANO_ST_FREE);
	ck_assert_uint_eq(a.free_tiles, 256);
	ck_assert_uint_eq(a.to_remove_tiles, 0);
	ck_assert_uint_eq(a.delay_commit, 1);
	ck_assert_int_eq(butano_st_allocate(&a, 8), BUTANO_ST_NO_SPACE); /* L753: delay_commit, not the limit */
	ck_assert_uint_eq(start_of(create(5, 256)), 256);                /* exact fit: no item needed */
}
END_TEST

/* 21.0.0 (1eda5035, L983-1040): a bitmap BG takes tiles 0-511 when the
 * first item is free and holds them; sprites go to the end as ever. */
START_TEST(first_half_for_bitmap_bgs)
{
	int h;

	butano_st_init(&a, 21, 128);
	h = butano_st_allocate_first_half(&a);
	ck_assert_uint_eq(start_of(h), 0);
	ck_assert_uint_eq(a.items[h].count, 512);
	ck_assert_uint_eq(a.free_tiles, 512);
	ck_assert_uint_eq(start_of(create(1, 4)), 1020);
	ck_assert_int_eq(butano_st_allocate_first_half(&a), BUTANO_ST_NO_SPACE); /* first item used */
	butano_st_init(&a, 21, 128);
	(void)create(1, 4);
	ck_assert_int_gt(butano_st_allocate_first_half(&a), 0); /* the first item still holds 0-1019 */
	butano_st_init(&a, 20, 128);
	ck_assert_int_eq(butano_st_allocate_first_half(&a), BUTANO_ST_NO_SPACE);
}
END_TEST

/* L697 (10.4.0 on, bacb9d31): compressed graphics take a waiting item
 * only after a flush; before 10 they always did. */
START_TEST(compressed_graphics_skip_waiting_items)
{
	int found, g;

	butano_st_init(&a, 21, 128);
	g = butano_st_create(&a, 1, 4, 1, &found);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 0);
	ck_assert_uint_eq(start_of(butano_st_create(&a, 2, 4, 1, &found)), 1016);
	ck_assert_uint_eq(a.nreleased, 0);
	butano_st_init(&a, 9, 128);
	g = butano_st_create(&a, 1, 4, 1, &found);
	ck_assert_int_eq(butano_st_decrease_usages(&a, g), 0);
	ck_assert_uint_eq(start_of(butano_st_create(&a, 2, 4, 1, &found)), 0);
}
END_TEST

/* ---- the reference model ------------------------------------------------ */

enum { M_FREE, M_USED, M_WAIT };

typedef struct mrange {
	unsigned start, count, status, usages;
	uint32_t data;
	unsigned long stamp; /* when it entered the free or waiting list */
} mrange;

typedef struct mmodel {
	mrange r[1100];
	unsigned n, version, max_items, delay;
	unsigned long clock;
} mmodel;

static void m_init(mmodel *m, unsigned version, unsigned max_items)
{
	memset(m, 0, sizeof *m);
	m->version = version;
	m->max_items = max_items;
	m->n = 1;
	m->r[0].count = 1024;
	m->r[0].stamp = ++m->clock;
}

static void m_insert(mmodel *m, unsigned at, mrange v)
{
	memmove(&m->r[at + 1], &m->r[at], (m->n - at) * sizeof m->r[0]);
	m->r[at] = v;
	m->n++;
}

static void m_remove(mmodel *m, unsigned at)
{
	memmove(&m->r[at], &m->r[at + 1], (m->n - at - 1) * sizeof m->r[0]);
	m->n--;
}

/* The range of status st with the least count at least n, ties by the
 * oldest stamp: a lower_bound over a list kept by (count, stamp). */
static int m_pick(const mmodel *m, unsigned st, unsigned n)
{
	unsigned i;
	int best = -1;

	for (i = 0; i < m->n; i++)
		if (m->r[i].status == st && m->r[i].count >= n && (best < 0 || m->r[i].count < m->r[best].count ||
			(m->r[i].count == m->r[best].count && m->r[i].stamp < m->r[best].stamp)))
			best = (int)i;
	return best;
}

static unsigned m_tiles(const mmodel *m, unsigned st)
{
	unsigned i, t = 0;

	for (i = 0; i < m->n; i++)
		if (m->r[i].status == st)
			t += m->r[i].count;
	return t;
}

static void m_update(mmodel *m)
{
	int w;

	while ((w = m_pick(m, M_WAIT, 0)) >= 0) {
		unsigned i = (unsigned)w;
		m->r[i].status = M_FREE;
		m->r[i].data = 0;
		if (i + 1 < m->n && m->r[i + 1].status == M_FREE) {
			m->r[i].count += m->r[i + 1].count;
			m_remove(m, i + 1);
		}
		if (i > 0 && m->r[i - 1].status == M_FREE) {
			m->r[i - 1].count += m->r[i].count;
			m_remove(m, i);
			i--;
		}
		m->r[i].stamp = ++m->clock;
	}
	m->delay = 0;
}

/* Gives n tiles of range i; -2 when a split finds no item. The start. */
static int m_take(mmodel *m, unsigned i, unsigned n, uint32_t data)
{
	mrange used = { 0, n, M_USED, 1, data, 0 }, rest;

	if (m->r[i].count != n && m->n >= m->max_items)
		return -2;
	if (m->r[i].count == n) {
		m->r[i].status = M_USED;
		m->r[i].usages = 1;
		m->r[i].data = data;
		return (int)m->r[i].start;
	}
	rest = m->r[i];
	rest.count -= n;
	rest.stamp = ++m->clock;
	if (m->version >= 21) {
		used.start = rest.start + rest.count;
		m->r[i] = rest;
		m_insert(m, i + 1, used);
		return (int)used.start;
	}
	used.start = rest.start;
	rest.start += n;
	m->r[i] = used;
	m_insert(m, i + 1, rest);
	return (int)used.start;
}

static int m_create(mmodel *m, uint32_t data, unsigned n, int raw)
{
	unsigned i;
	int k;

	if (raw && m->delay)
		return -1;
	if (raw)
		data = 0; /* no graphics */
	for (i = 0; !raw && data && i < m->n; i++)
		if (m->r[i].status != M_FREE && m->r[i].data == data && m->r[i].count == n) {
			m->r[i].usages = m->r[i].status == M_USED ? m->r[i].usages + 1 : 1;
			m->r[i].status = M_USED;
			return (int)m->r[i].start;
		}
	for (;;) {
		k = raw ? -1 : m_pick(m, M_WAIT, n);
		if (k >= 0 && m->r[k].count == n)
			return m_take(m, (unsigned)k, n, data);
		k = m_pick(m, M_FREE, n);
		if (k >= 0)
			return m_take(m, (unsigned)k, n, data);
		if (raw || !m_tiles(m, M_WAIT))
			return -1;
		m_update(m);
		m->delay = 1;
	}
}

static void m_release(mmodel *m, unsigned start)
{
	unsigned i;

	for (i = 0; i < m->n; i++)
		if (m->r[i].start == start && m->r[i].status == M_USED && --m->r[i].usages == 0) {
			m->r[i].status = M_WAIT;
			m->r[i].stamp = ++m->clock;
		}
}

/* The allocator's items, address order, against the model's ranges. */
static void same_books(const mmodel *m, unsigned step)
{
	uint16_t i = a.items[0].next, tail = (uint16_t)(a.max_items + 1u);
	unsigned k = 0;

	for (; i != tail; i = a.items[i].next, k++) {
		if (k >= m->n || a.items[i].start != m->r[k].start || a.items[i].count != m->r[k].count ||
			a.items[i].status != m->r[k].status)
			ck_abort_msg("step %u: item %u of the list differs from the model's", step, k);
	}
	ck_assert_uint_eq(k, m->n);
}

static void random_run(unsigned version, unsigned max_items, unsigned seed, unsigned steps)
{
	static mmodel m;
	int live[64], nlive = 0, id, found, want, j;
	vs_rng rng = { seed };
	unsigned s;

	butano_st_init(&a, version, max_items);
	m_init(&m, version, max_items);
	for (s = 0; s < steps; s++) {
		unsigned op = vs_rng_below(&rng, 10), n = 1u << vs_rng_below(&rng, 8);
		uint32_t data = vs_rng_below(&rng, 24);
		if (op < 5 && nlive < 64) {
			int raw = op == 4;
			want = m_create(&m, data, n, raw);
			id = raw ? butano_st_allocate(&a, (uint16_t)n) : butano_st_create(&a, data, (uint16_t)n, 0, &found);
			if (want < 0 || id < 0) {
				if (!(want == -2 ? id == BUTANO_ST_NO_ITEMS : want == -1 ? id == BUTANO_ST_NO_SPACE : 0))
					ck_abort_msg("v%u step %u: model %d, allocator %d", version, s, want, id);
			} else {
				if (a.items[id].start != (unsigned)want)
					ck_abort_msg("v%u step %u: model tile %d, allocator %u", version, s, want,
						(unsigned)a.items[id].start);
				live[nlive++] = id;
			}
		} else if (op < 9 && nlive) {
			j = (int)vs_rng_below(&rng, (uint32_t)nlive);
			m_release(&m, a.items[live[j]].start);
			ck_assert_int_ge(butano_st_decrease_usages(&a, live[j]), 0);
			live[j] = live[--nlive];
		} else {
			m_update(&m);
			butano_st_update(&a);
		}
		same_books(&m, s);
	}
}

START_TEST(matches_the_reference_model)
{
	unsigned seed, steps = vs_test_soak(3000, 60000);

	for (seed = 1; seed <= 4; seed++) {
		random_run(21, 128, seed, steps);
		random_run(20, 128, seed, steps);
		random_run(21, 12, seed + 100, steps / 4); /* the item limit bites */
		random_run(9, 16, seed + 200, steps / 4);
	}
}
END_TEST

/* ---- through the replay -------------------------------------------------- */

START_TEST(replay_shares_by_tag_and_waits_for_the_frame)
{
	vs_test_replay x;
	const vs_metrics *mt;

	vs_test_replay_run(&x, "butano-sprite-tiles", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 32x32 4bpp tag=hero\n"   /* 16 tiles at 1008 */
		"alloc 2 sprite 32x32 4bpp tag=hero\n"   /* the same graphics */
		"alloc 3 sprite 16x16 4bpp tag=coin\n"   /* 4 tiles at 1004 */
		"free 1\nfree 2\n"                        /* hero waits */
		"alloc 4 sprite 32x32 4bpp tag=hero\n"   /* back from waiting, at 1008 */
		"free 4\n"
		"alloc 5 sprite 32x32 4bpp tag=boss\n"   /* a waiting item of 16 tiles: hero's */
		"free 3\nframe\n"                         /* coin's tiles free at the update */
		"alloc 6 sprite 16x16 4bpp tag=gem\n", "");
	mt = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(mt->shared_hits, 2);
	ck_assert_int_eq(vs_test_offset_of(x.r, 5), 1008 * 32);
	ck_assert_int_eq(vs_test_offset_of(x.r, 6), 1004 * 32);
	ck_assert_uint_eq(mt->retained_bytes, 0);
	ck_assert_ptr_null(strstr(x.msgs, "released"));
	vs_test_replay_close(&x);

	/* version=20: from the start; a freed sprite is kept (retained) until
	 * the frame */
	vs_test_replay_run(&x, "butano-sprite-tiles", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 32x32 4bpp tag=a\nalloc 2 sprite 8x8 4bpp tag=b\nfree 1\n", "version=20");
	ck_assert_int_eq(vs_test_offset_of(x.r, 2), 16 * 32);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->retained_bytes, 512);
	vs_test_replay_close(&x);
}
END_TEST

START_TEST(replay_flushes_and_refuses_what_butano_cannot_do)
{
	vs_test_replay x;
	const vs_metrics *mt;

	/* 8 sprites of 128 tiles fill VRAM; one freed waits; a 64-tile one
	 * flushes it and lands at its end */
	vs_test_replay_run(&x, "butano-sprite-tiles", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 64x64 8bpp tag=a\nalloc 2 sprite 64x64 8bpp tag=b\nalloc 3 sprite 64x64 8bpp tag=c\n"
		"alloc 4 sprite 64x64 8bpp tag=d\nalloc 5 sprite 64x64 8bpp tag=e\nalloc 6 sprite 64x64 8bpp tag=f\n"
		"alloc 7 sprite 64x64 8bpp tag=g\nalloc 8 sprite 64x64 8bpp tag=h\nfree 3\n"
		"alloc 9 sprite 64x64 4bpp tag=i\n"
		"alloc 10 48\n"                          /* 2 tiles: fine */
		"alloc 11 96\n"                          /* 3 tiles: Butano asserts */
		"alloc 12 64 align=256\n", "");         /* no alignment in Butano */
	mt = vs_replay_metrics(x.r, 0);
	ck_assert_int_eq(vs_test_offset_of(x.r, 9), (5 * 128 + 64) * 32);
	ck_assert_uint_eq(mt->retained_bytes, 0);
	ck_assert_uint_eq(mt->fail[VS_FAIL_INVALID], 1);
	ck_assert_uint_eq(mt->fail[VS_FAIL_UNSUPPORTED], 1);
	vs_test_replay_close(&x);

	/* graphics=raw: allocate never reuses or flushes a waiting item; nor,
	 * under graphics=tag (the default), does a request without a tag: it has
	 * no graphics, an allocate, as Butano's text sprites
	 * (sprite_tiles_ptr::allocate). A tagged one is a create and takes the
	 * waiting item. */
	{
#define EIGHT_PAGES "vramsim-trace 1\narena obj gba-obj\nalloc 1 4096\nalloc 2 4096\nalloc 3 4096\n" \
	"alloc 4 4096\nalloc 5 4096\nalloc 6 4096\nalloc 7 4096\nalloc 8 4096\nfree 1\n"
		static const char *const untagged[] = { "graphics=raw", "" };
		size_t k;

		for (k = 0; k < sizeof untagged / sizeof untagged[0]; k++) {
			vs_test_replay_run(&x, "butano-sprite-tiles", EIGHT_PAGES "alloc 9 4096\nframe\nalloc 10 4096\n",
				untagged[k]);
			ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->failures, 1);
			ck_assert_int_eq(vs_test_offset_of(x.r, 10), 7 * 4096);
			vs_test_replay_close(&x);
		}
		vs_test_replay_run(&x, "butano-sprite-tiles", EIGHT_PAGES "alloc 9 4096 tag=text\n", "");
		ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->failures, 0);
		ck_assert_int_eq(vs_test_offset_of(x.r, 9), 7 * 4096);
		vs_test_replay_close(&x);
#undef EIGHT_PAGES
	}
}
END_TEST

START_TEST(options_and_arenas)
{
	const vs_strategy *s = vs_strategy_find("butano-sprite-tiles");
	vs_arena_decl d;
	void *st = calloc(1, s->state_size);
	char err[256];

	ck_assert_ptr_nonnull(st);
	memset(&d, 0, sizeof d);
	d.kind = VS_ARENA_GBA_OBJ;
	d.size = 32768;
	snprintf(d.name, sizeof d.name, "obj");
	ck_assert_int_eq(s->init(st, &d, "version=20,items=64,graphics=each,compressed=1", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "version=20,items=100", NULL, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "power of two"));
	ck_assert_int_eq(s->init(st, &d, "version=21,items=100", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "version=6", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "graphics=some", NULL, err, sizeof err), 0);
	d.gba_mode = 3;
	ck_assert_int_ne(s->init(st, &d, "version=20", NULL, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "no bitmap BGs"));
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	free(st);
	/* the old name of gba-obj-best-fit-end, which never was Butano's rule,
	 * still finds it (with a warning) */
	ck_assert_ptr_eq(vs_strategy_find("gba-obj-best-fit"), vs_strategy_find("gba-obj-best-fit-end"));
	ck_assert_ptr_nonnull(vs_strategy_find("gba-obj-best-fit-end"));
}
END_TEST

/* A strategy that keeps what is freed and, at a frame (never after an
 * alloc), says it let go of tile 0's block and of a block it never kept
 * (tile 4): the replay drops the first and names the second. */
typedef struct keeper { uint32_t next, framed; } keeper;

static int keep_init(void *st, const vs_arena_decl *d, const char *o, uint8_t *m, char *e, size_t n)
{
	(void)d; (void)o; (void)m; (void)e; (void)n;
	((keeper *)st)->next = ((keeper *)st)->framed = 0;
	return 0;
}

static int keep_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	keeper *k = st;

	memset(out, 0, sizeof *out);
	out->offset = k->next;
	out->granted = rq->size;
	out->key = k->next;
	k->next += 256;
	k->framed = 0;
	return VS_OK;
}

static int keep_free(void *st, const vs_placement *pl) { (void)st; (void)pl; return VS_RETAINED; }
static void keep_reset(void *st) { ((keeper *)st)->next = 0; }
static void keep_walk(void *st, vs_extent_fn fn, void *ud) { (void)st; (void)fn; (void)ud; }
static void keep_frame(void *st) { ((keeper *)st)->framed = 1; }

static size_t keep_released(void *st, uint32_t *out, size_t max)
{
	if (!((keeper *)st)->framed)
		return 0;
	if (max >= 2) {
		out[0] = 0;
		out[1] = 4 * 32;
	}
	return 2;
}

START_TEST(replay_drops_what_a_strategy_released)
{
	static const vs_strategy keeper_strategy = {
		.abi = VS_STRATEGY_ABI, .name = "test-keeper", .summary = "keeps what is freed",
		.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ), .flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
		.state_size = sizeof(keeper), .init = keep_init, .alloc = keep_alloc, .free = keep_free,
		.reset = keep_reset, .walk_free = keep_walk, .frame = keep_frame, .released = keep_released
	};
	vs_test_replay x;
	vs_replay_config cfg;
	char err[512];

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = &keeper_strategy;
	ck_assert_ptr_nonnull(vs_test_replay_open(&x, "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 256\nalloc 2 256\nfree 1\nfree 2\nframe\n", "k.trace", &cfg, err, sizeof err));
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->retained_bytes, 256); /* id 2's, still kept */
	ck_assert_uint_eq(vs_replay_diag_count(x.r, VS_DIAG_STRATEGY), 1);
	ck_assert_msg(strstr(x.msgs, "test-keeper released 0x6010080, where it keeps no freed allocation"), "%s",
		x.msgs);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	vs_test_replay_close(&x);
}
END_TEST

/* released() came with ABI 4: a table of ABI 3 ends before it, still
 * registers, and reads as without it. */
START_TEST(abi_3_tables_still_load)
{
	const vs_strategy *map = vs_strategy_find("gba-obj-map"), *got;
	size_t v3 = offsetof(vs_strategy, released);
	unsigned char *old = malloc(v3);
	const char *name = "test-abi-three";
	uint32_t three = 3;
	char err[256];

	ck_assert_ptr_nonnull(old);
	memcpy(old, map, v3);
	memcpy(old + offsetof(vs_strategy, abi), &three, sizeof three);
	memcpy(old + offsetof(vs_strategy, name), &name, sizeof name);
	ck_assert_msg(vs_strategy_register((const vs_strategy *)(void *)old, err, sizeof err) == 0, "%s", err);
	free(old);
	got = vs_strategy_find("test-abi-three");
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(got->abi, VS_STRATEGY_ABI);
	ck_assert_ptr_null(got->released);
	ck_assert_ptr_eq(got->alloc, map->alloc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("butano");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, end_from_21_start_before);
	tcase_add_test(tc, best_fit_ties_go_to_the_oldest_free);
	tcase_add_test(tc, waiting_item_of_the_exact_size_first);
	tcase_add_test(tc, graphics_shared_used_or_waiting);
	tcase_add_test(tc, flush_when_nothing_fits);
	tcase_add_test(tc, item_limit);
	tcase_add_test(tc, item_limit_after_a_flush);
	tcase_add_test(tc, first_half_for_bitmap_bgs);
	tcase_add_test(tc, compressed_graphics_skip_waiting_items);
	tcase_add_test(tc, matches_the_reference_model);
	tcase_add_test(tc, replay_shares_by_tag_and_waits_for_the_frame);
	tcase_add_test(tc, replay_flushes_and_refuses_what_butano_cannot_do);
	tcase_add_test(tc, options_and_arenas);
	tcase_add_test(tc, abi_3_tables_still_load);
	tcase_add_test(tc, replay_drops_what_a_strategy_released);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
