/* SPDX-License-Identifier: Zlib */
/* test_butano_bg.c - butano-bg-blocks: Butano's BG blocks manager.
 *
 * Each rule is pinned on a short sequence worked out by hand from
 * butano/src/bn_bg_blocks_manager.cpp (GValiente/butano; "L123" is a line
 * at tag 21.7.1). Blocks are 2 KiB; a 4bpp tile set of 64 tiles is one
 * block. Then the strategy through the replay, the trace syntax it needs
 * (tiles, cells) under the other BG strategies, and both Butano managers
 * on the emulated GBA (`vramsim cycles`). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/butano_bg_blocks.h"
#include "vramsim/strategy.h"
#include "strategies/registry.h"
#include "engine/replay.h"
#include "trace/trace.h"

static butano_bgb a;

/* a regular 4bpp tile set of `blocks` blocks (64 tiles a block) */
static butano_bgb_req tiles(uint32_t data, unsigned blocks, int kind)
{
	butano_bgb_req r;

	memset(&r, 0, sizeof r);
	r.data = data;
	r.kind = (uint8_t)kind;
	r.width = (uint16_t)(blocks * 1024u);
	r.height = 1;
	r.blocks = (uint8_t)blocks;
	r.affine = kind == BUTANO_BGB_AFFINE_TILES_OFFSET;
	r.bpp8 = r.affine;
	return r;
}

/* an 8bpp tile set: up to 32 blocks from a charblock */
static butano_bgb_req tiles8(uint32_t data, unsigned blocks)
{
	butano_bgb_req r = tiles(data, blocks, BUTANO_BGB_REGULAR_TILES_OFFSET);

	r.bpp8 = 1;
	return r;
}

static butano_bgb_req map(uint32_t data, unsigned w, unsigned h)
{
	butano_bgb_req r;

	memset(&r, 0, sizeof r);
	r.data = data;
	r.kind = BUTANO_BGB_MAP;
	r.width = (uint16_t)w;
	r.height = (uint16_t)h;
	r.blocks = (uint8_t)butano_bgb_map_blocks(w, h, 0, 0);
	return r;
}

static int create(butano_bgb_req r)
{
	int found;

	return butano_bgb_create(&a, &r, &found);
}

static unsigned start_of(int id)
{
	ck_assert_int_gt(id, 0);
	return a.items[id].start;
}

/* L1099-1129: tiles take the start of the chosen range; a map takes its
 * back when the range starts on a charblock (8 blocks) or the map would
 * cross one from the start, so charblock starts stay free for tiles. */
START_TEST(tiles_at_the_start_maps_at_the_back)
{
	butano_bgb_init(&a, 21, 16);
	ck_assert_uint_eq(butano_bgb_tiles_blocks(64), 1);
	ck_assert_uint_eq(butano_bgb_tiles_blocks(65), 2);
	ck_assert_uint_eq(butano_bgb_map_blocks(64, 64, 0, 0), 4);
	ck_assert_uint_eq(butano_bgb_map_blocks(128, 128, 1, 0), 8);
	ck_assert_uint_eq(butano_bgb_map_blocks(128, 128, 0, 1), 1);
	ck_assert_uint_eq(start_of(create(map(1, 32, 32))), 31);  /* 0-31 starts on a charblock: back */
	ck_assert_uint_eq(start_of(create(tiles(2, 2, BUTANO_BGB_REGULAR_TILES_OFFSET))), 0);
	ck_assert_uint_eq(start_of(create(map(3, 64, 64))), 2);   /* 2-5 stays in charblock 0: front */
	ck_assert_uint_eq(start_of(create(map(4, 64, 32))), 6);   /* 6-7: front */
	ck_assert_uint_eq(start_of(create(map(5, 32, 32))), 30);  /* 8-30 starts on one: back */
	ck_assert_int_eq(a.free_blocks, 32 - 1 - 2 - 4 - 2 - 1);
	/* a map that would cross a charblock from a mid start goes to the back */
	butano_bgb_init(&a, 21, 16);
	ck_assert_uint_eq(start_of(create(tiles(1, 5, BUTANO_BGB_REGULAR_TILES_OFFSET))), 0);
	ck_assert_uint_eq(start_of(create(map(2, 64, 64))), 28);  /* 5-8 crosses 8 */
}
END_TEST

/* L612-652, L1082-1097: tiles without an offset start on a charblock, the
 * blocks before them a free item of their own; tiles with one only when
 * they would run past what the BG reaches from the charblock below (16
 * blocks at 4bpp, 8 affine). */
START_TEST(padding_to_a_charblock)
{
	int id;

	butano_bgb_init(&a, 21, 16);
	(void)create(map(1, 32, 32));                                                   /* 31 */
	ck_assert_uint_eq(start_of(create(tiles(2, 1, BUTANO_BGB_TILES_NO_OFFSET))), 0);
	id = create(tiles(3, 1, BUTANO_BGB_TILES_NO_OFFSET));
	ck_assert_uint_eq(start_of(id), 8);
	ck_assert_uint_eq(a.items[a.items[0].next].next != id, 1);                      /* a padding item 1-7 */
	ck_assert_uint_eq(a.nspare, 16 - 5);
	/* 16 blocks of 4bpp tiles from block 9 would reach past tile 1023 of
	 * charblock 1: padded to 16, where 22 blocks (9-30) are not enough */
	ck_assert_int_eq(create(tiles(4, 16, BUTANO_BGB_REGULAR_TILES_OFFSET)), BUTANO_BGB_NO_SPACE);
	/* 8 affine blocks from 9 likewise: padded to 16 */
	ck_assert_uint_eq(start_of(create(tiles(5, 8, BUTANO_BGB_AFFINE_TILES_OFFSET))), 16);
	/* 2 regular blocks at 9 fit without padding: the exact 7 (1-7) are
	 * smaller than 9-15 and taken first */
	ck_assert_uint_eq(start_of(create(tiles(6, 2, BUTANO_BGB_REGULAR_TILES_OFFSET))), 1);
}
END_TEST

/* L1216-1252: over the free items in address order, the first of
 * exactly the size, else the smallest larger one, the first of equal
 * sizes (address order, not the order they were freed). */
START_TEST(exact_then_smallest_in_address_order)
{
	int g1, g2;

	butano_bgb_init(&a, 21, 16);
	(void)create(tiles(1, 1, 0));  /* 0 */
	g1 = create(tiles(2, 3, 0));   /* 1-3 */
	(void)create(tiles(3, 1, 0));  /* 4 */
	g2 = create(tiles(4, 3, 0));   /* 5-7 */
	(void)create(tiles(5, 1, 0));  /* 8; free 9-31 */
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, g2), 0);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, g1), 0);
	butano_bgb_update(&a);
	ck_assert_uint_eq(a.nreleased, 2);
	ck_assert_uint_eq(start_of(create(tiles(6, 2, 0))), 1);  /* smallest larger: 1-3 before 5-7 */
	ck_assert_uint_eq(start_of(create(tiles(7, 3, 0))), 5);  /* exact */
	ck_assert_uint_eq(start_of(create(tiles(8, 2, 0))), 9);
	ck_assert_uint_eq(start_of(create(tiles(9, 1, 0))), 3);  /* exact, first in address order */
}
END_TEST

/* L1231-1238: the smallest is chosen by the item's whole size, its padding
 * only deciding whether the request fits: a padded range that is smaller
 * wins over a larger one that needs none. */
START_TEST(smallest_by_whole_size_padding_aside)
{
	int x2, x4;

	butano_bgb_init(&a, 21, 16);
	(void)create(tiles(1, 1, 0));        /* 0 */
	x2 = create(tiles(2, 10, 0));        /* 1-10 */
	(void)create(tiles(3, 5, 0));        /* 11-15 */
	x4 = create(tiles(4, 12, 0));        /* 16-27 */
	(void)create(tiles(5, 4, 0));        /* 28-31: full */
	ck_assert_int_eq(a.free_blocks, 0);
	(void)butano_bgb_decrease_usages(&a, x2);
	(void)butano_bgb_decrease_usages(&a, x4);
	butano_bgb_update(&a);
	/* 1-10 (10, padding 7) beats 16-27 (12, no padding) */
	ck_assert_uint_eq(start_of(create(tiles(6, 2, BUTANO_BGB_TILES_NO_OFFSET))), 8);
}
END_TEST

/* L1197-1214, L1254-1259: a waiting item of exactly the request (with its
 * padding) is taken for other data first; when nothing fits, every
 * waiting item is freed and the request tried again, and allocate fails
 * until the next update (L1268). */
START_TEST(waiting_exact_first_then_the_flush)
{
	int t1, t2, t3, id;
	butano_bgb_req raw = tiles(0, 1, 0);

	butano_bgb_init(&a, 21, 16);
	t1 = create(tiles(1, 2, 0));   /* 0-1 */
	t2 = create(tiles(2, 2, 0));   /* 2-3 */
	t3 = create(tiles8(3, 28));    /* 4-31 (4 + 28 blocks reach 32 at 8bpp): full */
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, t2), 0);
	id = create(tiles(4, 2, 0));
	ck_assert_int_eq(id, t2);                     /* the same item, at 2 */
	ck_assert_uint_eq(a.nreleased, 1);
	ck_assert_uint_eq(a.released[0], 2);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, t1), 0);
	ck_assert_uint_eq(start_of(create(tiles(2, 2, 0))), 0); /* 2's data is gone: a new load, at 0 */
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, t3), 0);
	ck_assert_int_eq(a.to_remove_blocks, 28);
	ck_assert_uint_eq(start_of(create(tiles8(5, 8))), 4);  /* 28 waiting != 8: flush, retry */
	ck_assert_uint_eq(a.nreleased, 1);
	ck_assert_uint_eq(a.released[0], 4);
	ck_assert_uint_eq(a.delay_commit, 1);
	ck_assert_int_eq(butano_bgb_allocate(&a, &raw), BUTANO_BGB_NO_SPACE);
	butano_bgb_update(&a);
	ck_assert_uint_eq(start_of(butano_bgb_allocate(&a, &raw)), 12);
}
END_TEST

/* L791-972: data used or waiting is handed out again; tiles of another
 * depth are other data from 21.3.0 on (2be8a8d7). */
START_TEST(data_shared_used_or_waiting)
{
	butano_bgb_req t4 = tiles(7, 1, 0), t8 = t4;
	int found, id;

	butano_bgb_init(&a, 21, 16);
	id = butano_bgb_create(&a, &t4, &found);
	ck_assert_int_eq(found, 0);
	ck_assert_int_eq(butano_bgb_create(&a, &t4, &found), id);
	ck_assert_int_eq(found, 1);
	ck_assert_uint_eq(a.items[id].usages, 2);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id), 1);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id), 0);
	ck_assert_int_eq(a.to_remove_blocks, 1);
	ck_assert_int_eq(butano_bgb_create(&a, &t4, &found), id); /* taken back */
	ck_assert_int_eq(found, 1);
	ck_assert_int_eq(a.to_remove_blocks, 0);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id), 0);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id), BUTANO_BGB_BAD);
	t8.bpp8 = 1; /* 32 8bpp tiles: the same half words, other data: the
	              * waiting item of that size is reused (released) */
	ck_assert_int_eq(butano_bgb_create(&a, &t8, &found), id);
	ck_assert_int_eq(found, 0);
	ck_assert_uint_eq(a.nreleased, 1);
	butano_bgb_init(&a, 20, 16);
	id = butano_bgb_create(&a, &t4, &found);
	ck_assert_int_eq(butano_bgb_create(&a, &t8, &found), id);
	ck_assert_int_eq(found, 1);
}
END_TEST

/* L3046-3131: update frees each waiting item and merges it with every
 * unused item after it (waiting ones too), then with the one before. */
START_TEST(update_merges_forward_then_back)
{
	int id[4], i;

	butano_bgb_init(&a, 21, 16);
	for (i = 0; i < 4; i++)
		id[i] = create(tiles((uint32_t)i + 1, 1, 0)); /* 0, 1, 2, 3; free 4-31 */
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id[1]), 0);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id[2]), 0);
	butano_bgb_update(&a);
	ck_assert_uint_eq(a.nreleased, 2);
	ck_assert_uint_eq(a.items[id[1]].blocks, 2);   /* 1-2, 2 merged into 1 */
	ck_assert_uint_eq(a.nspare, 16 - 4);
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, id[3]), 0);
	butano_bgb_update(&a);
	ck_assert_uint_eq(a.items[id[3]].start, 1);    /* 3-31, then 1-2 before it */
	ck_assert_uint_eq(a.items[id[3]].blocks, 31);
	ck_assert_uint_eq(a.nspare, 16 - 2);
	ck_assert_int_eq(a.free_blocks, 31);
	ck_assert_int_eq(a.to_remove_blocks, 0);
}
END_TEST

/* L1084, L1103 (BN_BASIC_ASSERT "No more BG block items available"): a
 * split needs an item from the pool of items= (16); an exact fit none. */
START_TEST(item_limit)
{
	butano_bgb_init(&a, 21, 2);
	ck_assert_uint_eq(start_of(create(tiles(1, 1, 0))), 0);
	ck_assert_int_eq(create(tiles(2, 1, 0)), BUTANO_BGB_NO_ITEMS);
	ck_assert_int_eq(a.free_blocks, 31);
	ck_assert_uint_eq(start_of(create(tiles8(3, 31))), 1);
	butano_bgb_init(&a, 21, 0);
	ck_assert_uint_eq(a.max_items, 1);
}
END_TEST

/* Before 18.4.0 (0b7816c7) padding cut from a waiting item left the
 * counters as they were (no _fix_blocks_count, L1088): free_blocks ends
 * short and later requests fail with room free. And in every version the
 * padding keeps the waiting data: taking it back hands out the remnant. */
START_TEST(padding_on_a_waiting_item)
{
	unsigned v;
	int b, id, found;
	butano_bgb_req b9 = tiles(2, 9, 0);

	for (v = 17; v <= 21; v += 4) {
		butano_bgb_init(&a, v, 16);
		(void)create(tiles(1, 1, 0));                 /* 0 */
		b = create(b9);                               /* 1-9 */
		ck_assert_int_eq(butano_bgb_decrease_usages(&a, b), 0);
		id = create(tiles(3, 2, BUTANO_BGB_TILES_NO_OFFSET)); /* 1-7 padding + 8-9: 9 exactly */
		ck_assert_uint_eq(start_of(id), 8);
		ck_assert_uint_eq(a.items[b].status, BUTANO_BGB_TO_REMOVE);
		ck_assert_uint_eq(a.items[b].blocks, 7);
		ck_assert_int_eq(a.free_blocks, v >= 18 ? 22 : 20);
		ck_assert_int_eq(a.to_remove_blocks, v >= 18 ? 7 : 9);
		if (v == 21) {
			/* B's data again: the 7-block remnant, for 9 blocks of tiles */
			ck_assert_int_eq(butano_bgb_create(&a, &b9, &found), b);
			ck_assert_int_eq(found, 1);
			continue;
		}
		butano_bgb_update(&a);
		ck_assert_int_eq(a.free_blocks, 27);          /* 29 are free */
		ck_assert_uint_eq(start_of(create(tiles8(4, 22))), 10);
		ck_assert_int_eq(create(tiles(5, 7, 0)), BUTANO_BGB_NO_SPACE);
	}
	butano_bgb_init(&a, 18, 16);
	(void)create(tiles(1, 1, 0));
	b = create(b9);
	(void)butano_bgb_decrease_usages(&a, b);
	(void)create(tiles(3, 2, BUTANO_BGB_TILES_NO_OFFSET));
	butano_bgb_update(&a);
	(void)create(tiles8(4, 22));
	ck_assert_uint_eq(start_of(create(tiles(5, 7, 0))), 1);
}
END_TEST

/* L1197 (10.4.0 on, bacb9d31): compressed data reuses a waiting item only
 * after a flush. */
START_TEST(compressed_data_skips_waiting_items)
{
	butano_bgb_req c = tiles(9, 2, 0);
	int t, found;

	c.compressed = 1;
	butano_bgb_init(&a, 21, 16);
	t = create(tiles(1, 2, 0));
	ck_assert_int_eq(butano_bgb_decrease_usages(&a, t), 0);
	ck_assert_uint_eq(start_of(butano_bgb_create(&a, &c, &found)), 2);
	ck_assert_uint_eq(a.nreleased, 0);
}
END_TEST

/* The books after every step of random sequences: the items cover the 32
 * blocks in address order without gap, the pool count is the list's, and
 * from 18.4.0 the counters are the sums of the free and waiting items
 * (before, they only drift the way rule 12 says: free short for good,
 * waiting over until the update). */
static void same_books(unsigned step)
{
	unsigned i, next = 0, n = 0, free_sum = 0, wait_sum = 0;

	for (i = a.items[0].next; i != a.max_items + 1u; i = a.items[i].next) {
		ck_assert_msg(a.items[i].start == next && a.items[i].blocks > 0, "step %u: item %u at %u, expected %u",
			step, i, a.items[i].start, next);
		next += a.items[i].blocks;
		free_sum += a.items[i].status == BUTANO_BGB_FREE ? a.items[i].blocks : 0u;
		wait_sum += a.items[i].status == BUTANO_BGB_TO_REMOVE ? a.items[i].blocks : 0u;
		n++;
	}
	ck_assert_uint_eq(next, 32);
	ck_assert_uint_eq(n, a.max_items - a.nspare);
	if (a.version >= 18) {
		ck_assert_int_eq(a.free_blocks, (int)free_sum);
		ck_assert_int_eq(a.to_remove_blocks, (int)wait_sum);
	} else {
		ck_assert_int_le(a.free_blocks, (int)free_sum);
		ck_assert_int_le(a.free_blocks + a.to_remove_blocks, (int)(free_sum + wait_sum));
	}
}

START_TEST(random_sequences_keep_the_books)
{
	static const unsigned versions[3] = { 17, 18, 21 };
	vs_rng rng = { 0x6b62u + (unsigned)_i };
	int live[64], nlive = 0, id, found;
	unsigned step, k;

	butano_bgb_init(&a, versions[_i % 3], _i < 3 ? 16u : 6u);
	for (step = 0; step < 2500; step++) {
		unsigned op = vs_rng_below(&rng, 10);
		butano_bgb_req r;
		if (op < 5 && nlive < 64) {
			unsigned kind = vs_rng_below(&rng, 4), data = 1u + vs_rng_below(&rng, 12);
			if (kind == BUTANO_BGB_MAP)
				r = map(data, 32u << vs_rng_below(&rng, 2), 32u << vs_rng_below(&rng, 2));
			else
				r = tiles(data, 1u + vs_rng_below(&rng, kind == BUTANO_BGB_AFFINE_TILES_OFFSET ? 8 : 6), (int)kind);
			r.compressed = (uint8_t)vs_rng_below(&rng, 2);
			id = op == 4 ? butano_bgb_allocate(&a, &r) : butano_bgb_create(&a, &r, &found);
			if (id > 0)
				live[nlive++] = id;
		} else if (op < 9 && nlive) {
			k = vs_rng_below(&rng, (uint32_t)nlive);
			ck_assert_int_ge(butano_bgb_decrease_usages(&a, live[k]), 0);
			live[k] = live[--nlive];
		} else {
			butano_bgb_update(&a);
		}
		same_books(step);
	}
}
END_TEST

/* ---- through the replay -------------------------------------------------- */

START_TEST(replay_shares_waits_and_flushes)
{
	vs_test_replay x;
	const vs_metrics *mt;

	vs_test_replay_run(&x, "butano-bg-blocks", "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tiles 128 4bpp tag=sky\n"       /* 2 blocks at 0 */
		"alloc 2 cells 32x32 tag=sky\n"          /* 1 block at 2: inside charblock 0, front */
		"alloc 3 tiles 128 4bpp tag=sky\n"       /* the same tiles */
		"alloc 4 map text 512x512 tag=hills\n"   /* 64x64 cells: 4 blocks at 3 */
		"free 2\nfree 1\nfree 3\n"               /* waiting */
		"alloc 5 cells 32x32 tag=sky\n"          /* back from waiting at 2 */
		"alloc 6 tiles 128 8bpp tag=sea\n"       /* 4 blocks, none waits with 4: 7-10 */
		"frame\n"                                /* the sky's tiles go */
		"alloc 7 tiles 64 4bpp tag=cloud\n", ""); /* smallest larger: 0-1 */
	mt = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(mt->shared_hits, 2);
	ck_assert_int_eq(vs_test_offset_of(x.r, 5), 2 * 2048);
	ck_assert_int_eq(vs_test_offset_of(x.r, 4), 3 * 2048);
	ck_assert_int_eq(vs_test_offset_of(x.r, 6), 7 * 2048);
	ck_assert_int_eq(vs_test_offset_of(x.r, 7), 0);
	ck_assert_uint_eq(mt->retained_bytes, 0);
	vs_test_replay_close(&x);

	/* a freed set is kept (retained) until the frame; what Butano has no
	 * call for is unsupported, what it asserts on invalid */
	vs_test_replay_run(&x, "butano-bg-blocks", "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tiles 64 4bpp tag=a\nfree 1\n"
		"alloc 2 tile 5 4bpp\nalloc 3 cells 20x20\nalloc 4 cells 128x64\n"
		"alloc 5 tiles 2048 4bpp\nalloc 6 tiles 64 4bpp align=4096\n", "");
	mt = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(mt->retained_bytes, 2048);
	ck_assert_uint_eq(mt->fail[VS_FAIL_UNSUPPORTED], 3);
	ck_assert_uint_eq(mt->fail[VS_FAIL_INVALID], 2);
	vs_test_replay_close(&x);

	/* the same trace under the other BG strategies: maps of cells take
	 * screenblocks, tile sets are refused (unsupported) */
	vs_test_replay_run(&x, "gba-bg-tiles", "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 cells 32x32\nalloc 2 cells 64x32\nalloc 3 tiles 64 4bpp\n", "");
	mt = vs_replay_metrics(x.r, 0);
	ck_assert_uint_eq(mt->fail[VS_FAIL_UNSUPPORTED], 1);
	ck_assert_int_ge(vs_test_offset_of(x.r, 2), 0);
	vs_test_replay_close(&x);
	vs_test_replay_run(&x, "recorded", "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tiles 64 4bpp at=0x06000000\nalloc 2 cells 32x32 affine at=0x0600f800\n", "");
	ck_assert_int_eq(vs_test_offset_of(x.r, 2), 0xf800);
	vs_test_replay_close(&x);
}
END_TEST

/* Rule 11 through the replay: the revived padding is handed out for all of
 * the data, over what was placed after it: an integrity error (what the game
 * shows), and its release at the frame finds the record it kept. */
START_TEST(replay_reports_the_revived_padding)
{
	vs_test_replay x;
	vs_replay_config cfg;
	char err[512];

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("butano-bg-blocks");
	ck_assert_msg(vs_test_replay_open(&x, "vramsim-trace 1\narena bg gba-bg\n"
		"alloc 1 tiles 64 4bpp tag=a\n"            /* block 0 */
		"alloc 2 tiles 960 4bpp tag=b\n"           /* 1-15 */
		"free 2\n"
		"alloc 3 tiles 256 8bpp affine tag=c\n"    /* 1 + 8 passes 8: padding 1-7 (b waits on), 8-15 */
		"alloc 4 tiles 960 4bpp tag=b\n"           /* b again: the padding at 1 */
		"free 4\nframe\n", "r.trace", &cfg, err, sizeof err) != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_int_eq(vs_test_offset_of(x.r, 3), 8 * 2048);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 1);
	ck_assert_msg(strstr(x.msgs, "overlap") != NULL && strstr(x.msgs, "released") == NULL, "%s", x.msgs);
	vs_test_replay_close(&x);
}
END_TEST

START_TEST(options_and_arenas)
{
	const vs_strategy *s = vs_strategy_find("butano-bg-blocks");
	vs_arena_decl d;
	char err[256];
	void *st;

	ck_assert_ptr_nonnull(s);
	st = calloc(1, s->state_size);
	ck_assert_ptr_nonnull(st);
	memset(&d, 0, sizeof d);
	d.kind = VS_ARENA_GBA_BG;
	d.size = 0x10000;
	d.unit = 32;
	snprintf(d.name, sizeof d.name, "bg");
	ck_assert_int_eq(s->init(st, &d, "version=9", NULL, err, sizeof err), -1);
	ck_assert_int_eq(s->init(st, &d, "items=33", NULL, err, sizeof err), -1);
	ck_assert_int_eq(s->init(st, &d, "graphics=some", NULL, err, sizeof err), -1);
	ck_assert_int_eq(s->init(st, &d, "version=10,items=32,offset=0,compressed=1,graphics=raw", NULL, err,
		sizeof err), 0);
	d.gba_mode = 3;
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "bitmap mode 3"));
	free(st);
}
END_TEST

/* A reader over trace text (the stream stays open with it). */
static vs_trace_reader *open_text(const char *text, FILE **fp, char *err, size_t errlen)
{
	*fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(*fp);
	return vs_trace_open_stream(*fp, "t.trace", err, errlen);
}

/* The reader's error for text (whose error is in its last line). */
static void trace_error(const char *text, char *err, size_t errlen)
{
	vs_event ev;
	FILE *fp;
	vs_trace_reader *r = open_text(text, &fp, err, errlen);
	int rc;

	if (r) {
		while ((rc = vs_trace_next(r, &ev)) == 1)
			;
		ck_assert_int_eq(rc, -1);
		snprintf(err, errlen, "%s", vs_trace_error(r));
		vs_trace_close(r);
	}
	fclose(fp);
}

/* The trace syntax: tiles and cells, their errors, and the canonical form. */
START_TEST(trace_syntax)
{
	static const char *const bad[][2] = {
		{ "alloc 1 tiles 0 4bpp", "do not fit" },
		{ "alloc 1 tiles 1025 8bpp", "do not fit" },
		{ "alloc 1 tiles 300 8bpp affine", "affine BG draws 1-256" },
		{ "alloc 1 tiles 4 4bpp affine", "affine BG draws 1-256" },
		{ "alloc 1 tiles 4 2bpp", "expected 4bpp or 8bpp" },
		{ "alloc 1 tiles 4", "tiles: expected 'tiles N" },
		{ "alloc 1 cells 0x4", "expected WxH" },
		{ "alloc 1 cells 256x256", "does not fit" },
		{ "alloc 1 cells", "cells: expected 'cells WxH" },
	};
	char text[256], err[512], out[512];
	size_t i;
	vs_trace_reader *r;
	vs_event ev;
	FILE *fp;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, "vramsim-trace 1\narena bg gba-bg\n%s\n", bad[i][0]);
		trace_error(text, err, sizeof err);
		ck_assert_msg(strstr(err, bad[i][1]) != NULL && strstr(err, "t.trace:3:") != NULL, "%s: %s", bad[i][0],
			err);
	}
	trace_error("vramsim-trace 1\narena o gba-obj\nalloc 1 tiles 4 4bpp\n", err, sizeof err);
	ck_assert_msg(strstr(err, "tiles requests go to a gba-bg arena") != NULL, "%s", err);
	r = open_text("vramsim-trace 1\narena bg gba-bg\nalloc 1 tiles 3 8bpp affine\n"
		"alloc 2 cells 30x20\nalloc 3 cells 16x16 affine\n", &fp, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_uint_eq(ev.req.shape, VS_REQ_TILESET);
	ck_assert_uint_eq(ev.req.size, 192);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_uint_eq(ev.req.shape, VS_REQ_CELLS);
	ck_assert_uint_eq(ev.req.size, 1200);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_uint_eq(ev.req.size, 256);
	vs_trace_close(r);
	fclose(fp);
	vs_test_reformat("vramsim-trace 1\narena bg gba-bg\nalloc 1 tiles 3 8bpp  affine\n"
		"alloc 2 cells 30x20\nalloc 3 cells 16x16   affine tag=x\n", out, sizeof out);
	ck_assert_str_eq(out, "vramsim-trace 1\narena bg gba-bg\nalloc 1 tiles 3 8bpp affine\nalloc 2 cells 30x20\n"
		"alloc 3 cells 16x16 affine tag=x\n");
}
END_TEST

/* ---- on the emulated GBA ----------------------------------------------------- */

static char out[16384], err[4096];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* `vramsim cycles`: every placement the GBA's build of the allocator makes
 * (Thumb in ROM and ARM in IWRAM) equals the host replay's, hits and
 * frames (Butano's update) included. */
static void equal_on_gba(const char *trace, const char *strategy)
{
	int rc = cli("cycles %s --strategy %s --code both", trace, strategy);

	ck_assert_msg(rc == 0, "%s %s: exit %d\n%.1500s%.1500s", trace, strategy, rc, out, err);
	ck_assert_ptr_nonnull(strstr(out, "allocator code ARM in IWRAM"));
	ck_assert_msg(strstr(out, "placements: the GBA's equal the host replay's") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\nframe "));
	ck_assert_ptr_nonnull(strstr(out, "\nfree "));
}

START_TEST(cycles_butano_sprite_tiles_equal_host)
{
	equal_on_gba(VS_SOURCE_DIR "/traces/gba-sprite-churn-1.trace", "butano-sprite-tiles:version=20,items=16");
	equal_on_gba(VS_SOURCE_DIR "/traces/gba-level-change-2.trace", "butano-sprite-tiles:graphics=raw");
	/* mode 4: the bitmap BG's first half */
	equal_on_gba(VS_SOURCE_DIR "/traces/gba-bitmap-racer-1.trace", "butano-sprite-tiles:compressed=1");
}
END_TEST

START_TEST(cycles_butano_bg_blocks_equal_host)
{
	static const char *const options[] = { "", ":version=17,offset=0", ":graphics=raw",
		":graphics=each,items=8,version=20,compressed=1" };
	const char *path = vs_test_path("scenes-%d.trace", 2);
	size_t k;

	ck_assert_int_eq(cli("gen bg-scenes --seed 2 -o %s", path), 0);
	for (k = 0; k < sizeof options / sizeof options[0]; k++) {
		char strategy[64];

		snprintf(strategy, sizeof strategy, "butano-bg-blocks%s", options[k]);
		equal_on_gba(path, strategy);
	}
	remove(path);
}
END_TEST

/* The GBA's request carries a tag in 16 bits: the 65,536th distinct tag (the
 * most a trace may have) stops the run with exit 2 naming its line. */
START_TEST(cycles_tag_past_16_bits)
{
	vs_test_text t = { 0 };
	const char *path;
	unsigned i;

	vs_test_put(&t, "vramsim-trace 1\narena bg gba-bg\n");
	for (i = 1; i <= 65536u; i++)
		vs_test_put(&t, "alloc %u tiles 64 4bpp tag=t%u\nfree %u\n", i, i, i);
	path = vs_test_file(0, "many-tags.trace", t.s);
	free(t.s);
	ck_assert_int_eq(cli("cycles %s --strategy butano-bg-blocks", path), 2);
	ck_assert_msg(strstr(err, "line 131073: tag number 65536 does not fit the console's request") != NULL, "%s", err);
	remove(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("butano_bg");
	TCase *tc = tcase_create("core");
	TCase *roms = vs_test_tcase_apart(s, "cycles_roms",
		vs_test_rom_missing("cycles-thumb.gba", "cycles-arm.gba", NULL));

	tcase_set_timeout(roms, 120);
	tcase_add_test(roms, cycles_butano_sprite_tiles_equal_host);
	tcase_add_test(roms, cycles_butano_bg_blocks_equal_host);
	tcase_add_test(roms, cycles_tag_past_16_bits);

	tcase_add_test(tc, tiles_at_the_start_maps_at_the_back);
	tcase_add_test(tc, padding_to_a_charblock);
	tcase_add_test(tc, exact_then_smallest_in_address_order);
	tcase_add_test(tc, smallest_by_whole_size_padding_aside);
	tcase_add_test(tc, waiting_exact_first_then_the_flush);
	tcase_add_test(tc, data_shared_used_or_waiting);
	tcase_add_test(tc, update_merges_forward_then_back);
	tcase_add_test(tc, item_limit);
	tcase_add_test(tc, padding_on_a_waiting_item);
	tcase_add_test(tc, compressed_data_skips_waiting_items);
	tcase_add_loop_test(tc, random_sequences_keep_the_books, 0, 6);
	tcase_add_test(tc, replay_shares_waits_and_flushes);
	tcase_add_test(tc, replay_reports_the_revived_padding);
	tcase_add_test(tc, options_and_arenas);
	tcase_add_test(tc, trace_syntax);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
