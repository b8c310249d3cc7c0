/* SPDX-License-Identifier: Zlib */
/* test_take_block.c - a heap block taken in one look-up.
 *
 * vs_arena_take_block must leave the ownership map as the replay's three
 * calls did before it (the block taken as overhead, then its slack and its
 * data marked over it) and answer as that take did. Two arenas of each unit
 * size (bytes, 8-byte units, 32-byte units, whose small arenas keep the
 * per-unit form) take the same random blocks, one each way: headers, data,
 * slack and tails of every length down to none and at any alignment to the
 * unit, blocks that overlap live ones (refused), frees, owners few enough
 * that a new piece meets an equal run beside it, and enough live blocks to
 * fill leaves. After every step the two maps are compared run for run and
 * the new one's tree checked whole.
 *
 * The runs form keeps such a block as one entry (ownmap.c, blocks) when its
 * pieces around the data are short: marks of any range, owner and kind now
 * and then (cutting into blocks, joining a block's runs, freeing parts of
 * them) must find it the three or four runs it stands for.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vram/arena.h"
#include "vram/ownmap_int.h"

#define MAXLIVE 3000

typedef struct blk {
	uint32_t off, len, owner;
} blk;

/* The runs over units [u, end) of the two maps are the same. */
static void same_runs(const vs_arena *a, const vs_arena *b, uint32_t u, uint32_t end, unsigned step)
{
	vs_own_run ra, rb;

	while (u < end && u < a->nunits) {
		ck_assert_int_eq(vs_arena_run_at(a, u, &ra), 0);
		ck_assert_int_eq(vs_arena_run_at(b, u, &rb), 0);
		HOT_ASSERT(ra.first == rb.first && ra.count == rb.count && ra.owner == rb.owner && ra.kind == rb.kind,
			"step %u, unit %u: run [%u, +%u) owner %u kind %d, the three calls [%u, +%u) owner %u kind %d",
			step, u, ra.first, ra.count, ra.owner, (int)ra.kind, rb.first, rb.count, rb.owner, (int)rb.kind);
		u = ra.first + ra.count;
	}
}

/* The way the replay took a heap block before vs_arena_take_block. */
static int64_t three_calls(vs_arena *a, uint32_t boff, uint32_t blen, uint32_t doff, uint32_t dlen, uint32_t granted,
	uint32_t owner)
{
	int64_t u = vs_arena_take(a, boff, blen, owner, VS_UNIT_OVERHEAD);

	if (u != -1)
		return u;
	ck_assert_int_eq(vs_arena_mark(a, doff + dlen, granted - dlen, owner, VS_UNIT_SLACK), 0);
	ck_assert_int_eq(vs_arena_mark(a, doff, dlen, owner, VS_UNIT_DATA), 0);
	return -1;
}

/* Up to max, short more often than long. */
static uint32_t some(vs_rng *rng, uint32_t max)
{
	uint32_t k = vs_rng_below(rng, 8);

	if (k < 2)
		return 0;
	return vs_rng_below(rng, k < 6 ? (max < 40 ? max : 40) + 1 : max + 1);
}

static void run_unit(uint32_t unit, uint32_t size, uint32_t seed, unsigned normal, unsigned longer)
{
	unsigned steps = vs_test_soak(normal, longer), base = steps < normal ? steps : normal;
	vs_arena_decl d;
	vs_arena one, old;
	char err[256];
	vs_rng rng = { seed };
	blk *live = calloc(MAXLIVE, sizeof *live);
	uint32_t nlive = 0, taken = 0, refused = 0, joined_owner = 0, marks = 0, blocks = 0;
	unsigned step;

	ck_assert_ptr_nonnull(live);
	vs_arena_decl_default(&d, VS_ARENA_RAM);
	d.size = size;
	d.unit = unit;
	ck_assert_msg(vs_arena_init(&one, &d, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(vs_arena_init(&old, &d, err, sizeof err) == 0, "%s", err);
	for (step = 0; step < steps; step++) {
		if (nlive && vs_rng_below(&rng, 100) < 8) {
			/* any range near a live block, any owner and kind */
			static const vs_unit_kind kinds[] = { VS_UNIT_FREE, VS_UNIT_DATA, VS_UNIT_SLACK, VS_UNIT_OVERHEAD };
			const blk *b = &live[vs_rng_below(&rng, nlive)];
			uint32_t off = b->off + vs_rng_below(&rng, b->len + 1), len = 1 + some(&rng, 2 * b->len);
			vs_unit_kind k = kinds[vs_rng_below(&rng, 4)];
			uint32_t owner = k == VS_UNIT_FREE ? VS_OWNER_NONE : vs_rng_below(&rng, 2) ? b->owner :
				1 + vs_rng_below(&rng, 6);
			if (vs_rng_below(&rng, 2) && off > unit)
				off -= vs_rng_below(&rng, off < 64 ? off : 64);
			if (off >= size)
				off = size - 1;
			if (len > size - off)
				len = size - off;
			if (one.own && !one.own->u)
				blocks += one.own->blocks;
			ck_assert_int_eq(vs_arena_mark(&one, off, len, owner, k), 0);
			ck_assert_int_eq(vs_arena_mark(&old, off, len, owner, k), 0);
			marks++;
		} else if (nlive && (nlive == MAXLIVE || vs_rng_below(&rng, 100) < 40)) {
			uint32_t i = vs_rng_below(&rng, nlive);

			ck_assert_int_eq(vs_arena_mark(&one, live[i].off, live[i].len, VS_OWNER_NONE, VS_UNIT_FREE), 0);
			ck_assert_int_eq(vs_arena_mark(&old, live[i].off, live[i].len, VS_OWNER_NONE, VS_UNIT_FREE), 0);
			live[i] = live[--nlive];
		} else {
			uint32_t head = some(&rng, 64), data = some(&rng, 600), slack = some(&rng, 100), tail = some(&rng, 64);
			if (vs_rng_below(&rng, 16) == 0)
				slack = some(&rng, 3000); /* past what a block entry holds, now and then */
			uint32_t blen = head + data + slack + tail, boff, owner = 1 + vs_rng_below(&rng, 6);
			int64_t u1, u2;

			if (blen == 0)
				blen = tail = 1;
			boff = vs_rng_below(&rng, size - blen + 1);
			if (nlive && vs_rng_below(&rng, 4) == 0) {
				/* right after a live block, often its owner: pieces that
				 * would join the run before them */
				const blk *b = &live[vs_rng_below(&rng, nlive)];
				if (b->off + b->len <= size - blen)
					boff = b->off + b->len;
				if (vs_rng_below(&rng, 2))
					owner = b->owner;
			}
			u1 = vs_arena_take_block(&one, boff, blen, boff + head, data, data + slack, owner);
			u2 = three_calls(&old, boff, blen, boff + head, data, data + slack, owner);
			HOT_ASSERT(u1 == u2, "step %u: block [%u, +%u) answered %lld, the three calls %lld", step, boff, blen,
				(long long)u1, (long long)u2);
			if (u1 == -1) {
				live[nlive].off = boff;
				live[nlive].len = blen;
				live[nlive++].owner = owner;
				taken++;
				if (boff >= unit) {
					vs_own_run before;
					ck_assert_int_eq(vs_arena_run_at(&one, boff / unit - 1, &before), 0);
					joined_owner += before.owner == owner;
				}
			} else {
				refused++;
			}
		}
		if (nlive) /* around the newest block at every step, all of it now and then */
			same_runs(&one, &old, (live[nlive - 1].off >= unit ? live[nlive - 1].off - unit : 0) / unit,
				(live[nlive - 1].off + live[nlive - 1].len) / unit + 2, step);
		if (step % 64 == 0 || step + 1 == steps) {
			same_runs(&one, &old, 0, one.nunits, step);
			HOT_CMP(vs_ownmap_check(one.own), ==, 0);
		}
	}
	/* what a run of base steps must have done, a soak run too (its map
	 * fills with more refusals as it goes) */
	ck_assert_uint_gt(taken, base / 4);
	ck_assert_uint_gt(refused, base / 50);
	ck_assert_uint_gt(joined_owner, 0);
	ck_assert_uint_gt(marks, base / 20);
	if (unit < 32) /* the runs form: blocks were kept as one entry */
		ck_assert_uint_gt(blocks, 0);
	vs_arena_fini(&one);
	vs_arena_fini(&old);
	free(live);
}

START_TEST(one_lookup_leaves_the_map_of_three_calls)
{
	static const uint32_t units[] = { 1, 8, 32 };

	run_unit(units[_i], units[_i] == 32 ? 64 * 1024 : 512 * 1024, 7u + (uint32_t)_i, 6000, 60000);
}
END_TEST

/* Enough live blocks in a small arena that the runs fill leaves (96 runs
 * a leaf): takes at a full leaf go the slow way and still agree. */
START_TEST(full_leaves)
{
	run_unit(1, 96 * 1024, 99, 8000, 80000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("take_block");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, one_lookup_leaves_the_map_of_three_calls, 0, 3);
	tcase_add_test(tc, full_leaves);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
