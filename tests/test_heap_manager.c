/* SPDX-License-Identifier: Zlib */
/* test_heap_manager.c - the heap manager of The Simpsons: Hit & Run: the
 * routing rules (heap
 * stack, small-allocation rule, search lists, default), the static heap
 * ignoring frees, GetStatus, and a random sequence against an independent
 * statement of the rules. */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/heap_manager.h"


#define REGION (128u * 1024u)

static uint8_t mem[REGION];
static heap_manager g;
/* the tracking heaps' indexes, outside the region: a node per 256 bytes, at
 * least 16 a heap, whatever the carving */
static heap_tracking_node index_nodes[REGION / 256u + HEAP_MGR_IDS * 16u];

/* A game-like setup: the heaps of g_HeapCreationData with small sizes. */
static void setup_shar(int with_small)
{
	memset(mem, 0, sizeof mem);
	heap_mgr_init(&g, REGION);
	heap_mgr_set_index(&g, index_nodes, sizeof index_nodes / sizeof index_nodes[0]);
	heap_mgr_setup_shar(&g);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_DEFAULT, HEAP_KIND_DOUG_LEA, 16384), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_TEMP, HEAP_KIND_DOUG_LEA, 8192), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_PERSISTENT, HEAP_KIND_STATIC, 8192), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_LEVEL, HEAP_KIND_TRACKING, 16384), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_LEVEL_ZONE, HEAP_KIND_TRACKING, 4096), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_LEVEL_OTHER, HEAP_KIND_TRACKING, 4096), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_LEVEL_MISSION, HEAP_KIND_TRACKING, 4096), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_LEVEL_HUD, HEAP_KIND_DOUG_LEA, 4096), HEAP_OK);
	ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_AUDIO_PERSISTENT, HEAP_KIND_DOUG_LEA, 4096), HEAP_OK);
	if (with_small)
		ck_assert_int_eq(heap_mgr_create(&g, mem, HEAP_SHAR_SMALL_ALLOC, HEAP_KIND_DOUG_LEA, 8192), HEAP_OK);
}

static uint32_t alloc_top(uint32_t size)
{
	heap_block b;
	uint32_t id = HEAP_NIL;

	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, size, 0, &b, &id), HEAP_OK);
	ck_assert_uint_eq(heap_mgr_owner(&g, b.offset), id);
	return id;
}

START_TEST(small_allocation_rule)
{
	setup_shar(1);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_OK);
	/* Under 201 bytes: the small-alloc heap; 201 and up: the heap on top. */
	ck_assert_uint_eq(alloc_top(200), HEAP_SHAR_SMALL_ALLOC);
	ck_assert_uint_eq(alloc_top(1), HEAP_SHAR_SMALL_ALLOC);
	ck_assert_uint_eq(alloc_top(201), HEAP_SHAR_LEVEL);
	ck_assert_uint_eq(g.routed_small, 2);
	/* 0 bytes route like any small request, and get nothing (radMemoryAlloc) */
	{
		uint8_t order[HEAP_MGR_LIST_MAX];
		heap_block b;
		uint32_t id = HEAP_NIL;
		ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_LEVEL, 0, order), 1);
		ck_assert_uint_eq(order[0], HEAP_SHAR_SMALL_ALLOC);
		ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, 0, 0, &b, &id), HEAP_UNSUPPORTED);
		ck_assert_uint_eq(id, HEAP_NIL);
		ck_assert_uint_eq(g.routed_small, 2);
	}
	/* Persistent, temp and audio-persistent keep their small allocations. */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_PERSISTENT), HEAP_OK);
	ck_assert_uint_eq(alloc_top(16), HEAP_SHAR_PERSISTENT);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_TEMP), HEAP_OK);
	ck_assert_uint_eq(alloc_top(16), HEAP_SHAR_TEMP);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_AUDIO_PERSISTENT), HEAP_OK);
	ck_assert_uint_eq(alloc_top(16), HEAP_SHAR_AUDIO_PERSISTENT);
	/* Other heaps lose them, Doug Lea or tracking alike. */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL_HUD), HEAP_OK);
	ck_assert_uint_eq(alloc_top(16), HEAP_SHAR_SMALL_ALLOC);
	ck_assert_uint_eq(alloc_top(300), HEAP_SHAR_LEVEL_HUD);
	/* Default too. */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_DEFAULT), HEAP_OK);
	ck_assert_uint_eq(alloc_top(100), HEAP_SHAR_SMALL_ALLOC);
}
END_TEST

START_TEST(no_small_heap)
{
	/* Without a small-alloc heap (gbSmallAllocCreated false) the rule is off. */
	setup_shar(0);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_OK);
	ck_assert_uint_eq(alloc_top(10), HEAP_SHAR_LEVEL);
	ck_assert_uint_eq(g.routed_small, 0);
}
END_TEST

START_TEST(small_heap_full_fails)
{
	heap_block b;
	uint32_t id;
	int n = 0;

	setup_shar(1);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_OK);
	while (heap_mgr_alloc(&g, mem, HEAP_NIL, 192, 0, &b, &id) == HEAP_OK) {
		ck_assert_uint_eq(id, HEAP_SHAR_SMALL_ALLOC);
		n++;
	}
	/* A full small heap fails the request: no fallback to the top heap. */
	ck_assert_int_gt(n, 30);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, 192, 0, &b, &id), HEAP_NOSPACE);
	ck_assert_uint_eq(alloc_top(201), HEAP_SHAR_LEVEL);
}
END_TEST

START_TEST(search_lists)
{
	heap_block b;
	uint32_t id, i;
	uint8_t order[HEAP_MGR_LIST_MAX];

	setup_shar(1);
	/* AVAILABLE_FOR_RENT_IN_LEVEL: temp, zone, other, mission, hud. */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_ANYWHERE_IN_LEVEL, 1000, order), 5);
	ck_assert_uint_eq(order[0], HEAP_SHAR_TEMP);
	ck_assert_uint_eq(order[1], HEAP_SHAR_LEVEL_ZONE);
	ck_assert_uint_eq(order[2], HEAP_SHAR_LEVEL_OTHER);
	ck_assert_uint_eq(order[3], HEAP_SHAR_LEVEL_MISSION);
	ck_assert_uint_eq(order[4], HEAP_SHAR_LEVEL_HUD);
	/* The small rule comes before the search. */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_ANYWHERE_IN_LEVEL, 200, order), 1);
	ck_assert_uint_eq(order[0], HEAP_SHAR_SMALL_ALLOC);
	/* Heaps are tried in order as each fills. */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_ANYWHERE_IN_LEVEL), HEAP_OK);
	{
		uint32_t seen[HEAP_MGR_IDS] = { 0 }, last = HEAP_SHAR_TEMP;
		static const uint32_t rank[HEAP_MGR_IDS] = { [HEAP_SHAR_TEMP] = 1, [HEAP_SHAR_LEVEL_ZONE] = 2,
			[HEAP_SHAR_LEVEL_OTHER] = 3, [HEAP_SHAR_LEVEL_MISSION] = 4, [HEAP_SHAR_LEVEL_HUD] = 5 };
		while (heap_mgr_alloc(&g, mem, HEAP_NIL, 1000, 0, &b, &id) == HEAP_OK) {
			ck_assert_uint_ne(rank[id], 0);
			ck_assert_uint_ge(rank[id], rank[last]); /* never back to an earlier heap */
			last = id;
			seen[id]++;
		}
		ck_assert_uint_eq(seen[HEAP_SHAR_TEMP], 7);   /* 8 KiB less the 336-byte control block */
		ck_assert_uint_eq(seen[HEAP_SHAR_LEVEL_ZONE], 3);
		ck_assert_uint_eq(seen[HEAP_SHAR_LEVEL_HUD], 3);
		ck_assert_uint_eq(g.searched, 7 + 3 + 3 + 3 + 3);
	}
	/* AVAILABLE_IN_OTHER_OR_ZONE: other first, then zone. */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_EITHER_OTHER_OR_ZONE, 500, order), 2);
	ck_assert_uint_eq(order[0], HEAP_SHAR_LEVEL_OTHER);
	ck_assert_uint_eq(order[1], HEAP_SHAR_LEVEL_ZONE);
	/* AVAILABLE_FOR_RENT_IN_FE names heaps this setup never made: they are
	 * the default allocator, as unregistered allocators were malloc. */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_ANYWHERE_IN_FE, 500, order), 3);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(order[i], HEAP_SHAR_DEFAULT);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_SHAR_ANYWHERE_IN_FE, 500, 0, &b, &id), HEAP_OK);
	ck_assert_uint_eq(id, HEAP_SHAR_DEFAULT);
	/* So is a plain id with no heap (Level Movie). */
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_SHAR_LEVEL_MOVIE, 500, 0, &b, &id), HEAP_OK);
	ck_assert_uint_eq(id, HEAP_SHAR_DEFAULT);
}
END_TEST

START_TEST(heap_stack)
{
	setup_shar(1);
	/* Empty stack: the default heap. */
	ck_assert_uint_eq(heap_mgr_current(&g), HEAP_SHAR_DEFAULT);
	ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_DEFAULT);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL_OTHER), HEAP_OK);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL_ZONE), HEAP_OK);
	ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_LEVEL_ZONE);
	/* PopHeap names the top ... */
	{
		uint32_t popped = HEAP_NIL;
		ck_assert_int_eq(heap_mgr_pop(&g, HEAP_SHAR_LEVEL_ZONE, &popped), HEAP_OK);
		ck_assert_uint_eq(popped, HEAP_SHAR_LEVEL_ZONE);
		ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_LEVEL_OTHER);
		/* ... and Pop removes the top even when it does not (seed 004:
		 * "removes the object at the top of the stack"); the caller hears
		 * which it was. */
		ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL_ZONE), HEAP_OK);
		ck_assert_int_eq(heap_mgr_pop(&g, HEAP_SHAR_LEVEL_OTHER, &popped), HEAP_MGR_POP_OTHER);
		ck_assert_uint_eq(popped, HEAP_SHAR_LEVEL_ZONE);
		ck_assert_uint_eq(g.depth, 1);
		ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_LEVEL_OTHER);
		ck_assert_int_eq(heap_mgr_pop(&g, HEAP_SHAR_LEVEL_OTHER, NULL), HEAP_OK);
		/* nothing to remove from an empty stack */
		popped = 77;
		ck_assert_int_eq(heap_mgr_pop(&g, HEAP_SHAR_LEVEL_OTHER, &popped), HEAP_INVALID);
		ck_assert_uint_eq(popped, 77);
		ck_assert_uint_eq(g.depth, 0);
	}
	ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_DEFAULT);
	/* The stack has a depth. */
	{
		uint32_t i;
		for (i = 0; i < HEAP_MGR_STACK_MAX; i++)
			ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_OK);
		ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_INVALID);
	}
	ck_assert_int_eq(heap_mgr_push(&g, 40), HEAP_INVALID);
}
END_TEST

/* FindFreeMemory's way, per call: radMemorySetUsableAllocators(list), then
 * radMemoryAlloc(ALLOCATOR_SEARCH, size). */
START_TEST(per_call_search)
{
	static const uint8_t zone_then_hud[] = { HEAP_SHAR_LEVEL_ZONE, HEAP_SHAR_LEVEL_HUD };
	static const uint8_t movie_then_temp[] = { HEAP_SHAR_LEVEL_MOVIE, HEAP_SHAR_TEMP };
	static const uint8_t bad[] = { HEAP_SHAR_TEMP, 40 };
	uint8_t order[HEAP_MGR_LIST_MAX], nine[HEAP_MGR_LIST_MAX + 1] = { 0 };
	heap_block b;
	uint32_t id, n = 0;

	setup_shar(1);
	/* Nothing set: the search has no heap to try. */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_MGR_SEARCH, 1000, order), 0);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_MGR_SEARCH, 1000, 0, &b, &id), HEAP_NOSPACE);
	ck_assert_int_eq(heap_mgr_set_usable(&g, zone_then_hud, 2), HEAP_OK);
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_MGR_SEARCH, 1000, order), 2);
	ck_assert_uint_eq(order[0], HEAP_SHAR_LEVEL_ZONE);
	ck_assert_uint_eq(order[1], HEAP_SHAR_LEVEL_HUD);
	/* zone (4 KiB tracking) fills, then hud takes the rest */
	while (heap_mgr_alloc(&g, mem, HEAP_MGR_SEARCH, 1000, 0, &b, &id) == HEAP_OK) {
		ck_assert_uint_eq(id, n < 3 ? HEAP_SHAR_LEVEL_ZONE : HEAP_SHAR_LEVEL_HUD);
		n++;
	}
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(g.searched, 6);
	/* the small rule comes first, as for the game's named lists */
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_MGR_SEARCH, 100, order), 1);
	ck_assert_uint_eq(order[0], HEAP_SHAR_SMALL_ALLOC);
	/* a listed id with no heap (movie) is the default allocator */
	ck_assert_int_eq(heap_mgr_set_usable(&g, movie_then_temp, 2), HEAP_OK);
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_MGR_SEARCH, 1000, order), 2);
	ck_assert_uint_eq(order[0], HEAP_SHAR_DEFAULT);
	ck_assert_uint_eq(order[1], HEAP_SHAR_TEMP);
	/* bad lists are refused and leave the list as it was */
	ck_assert_int_eq(heap_mgr_set_usable(&g, bad, 2), HEAP_INVALID);
	ck_assert_int_eq(heap_mgr_set_usable(&g, nine, HEAP_MGR_LIST_MAX + 1), HEAP_INVALID);
	ck_assert_uint_eq(g.usable_len, 2);
	ck_assert_uint_eq(g.usable[0], HEAP_SHAR_LEVEL_MOVIE);
	/* ALLOCATOR_SEARCH is no heap to push */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_MGR_SEARCH), HEAP_INVALID);
}
END_TEST

/* g_NoHeapRoute: radMemoryAlloc(0, size) for everything. */
START_TEST(no_heap_route)
{
	static const uint8_t zone[] = { HEAP_SHAR_LEVEL_ZONE };
	uint8_t order[HEAP_MGR_LIST_MAX];
	heap_block b;
	uint32_t id;

	setup_shar(0);
	heap_mgr_set_no_route(&g, 1);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_LEVEL), HEAP_OK);
	ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_DEFAULT);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_SHAR_TEMP, 500, 0, &b, &id), HEAP_OK);
	ck_assert_uint_eq(id, HEAP_SHAR_DEFAULT);
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_ANYWHERE_IN_LEVEL, 5000, order), 1);
	ck_assert_uint_eq(order[0], HEAP_SHAR_DEFAULT);
	ck_assert_int_eq(heap_mgr_set_usable(&g, zone, 1), HEAP_OK);
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_MGR_SEARCH, 5000, order), 1);
	ck_assert_uint_eq(order[0], HEAP_SHAR_DEFAULT);
	ck_assert_uint_eq(g.searched, 0);
	/* the stack still works, for when routing is back on */
	heap_mgr_set_no_route(&g, 0);
	ck_assert_uint_eq(alloc_top(500), HEAP_SHAR_LEVEL);
	/* radMemoryAlloc's own small check still applies to radMemoryAlloc(0, ...) */
	setup_shar(1);
	heap_mgr_set_no_route(&g, 1);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_PERSISTENT), HEAP_OK);
	ck_assert_uint_eq(alloc_top(100), HEAP_SHAR_SMALL_ALLOC);
	ck_assert_uint_eq(alloc_top(300), HEAP_SHAR_DEFAULT);
	/* no default heap: nothing to route to */
	heap_mgr_set_default(&g, HEAP_NIL);
	ck_assert_uint_eq(heap_mgr_route(&g, HEAP_SHAR_LEVEL, 5000, order), 0);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_SHAR_LEVEL, 5000, 0, &b, &id), HEAP_NOSPACE);
}
END_TEST

START_TEST(static_heap_ignores_frees)
{
	heap_block b, c;
	heap_status st0, st1;
	uint32_t id, i;

	setup_shar(1);
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_PERSISTENT), HEAP_OK);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, 64, 0, &b, &id), HEAP_OK);
	ck_assert_uint_eq(id, HEAP_SHAR_PERSISTENT);
	ck_assert_int_eq(heap_mgr_status(&g, mem, HEAP_SHAR_PERSISTENT, &st0), HEAP_OK);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(heap_mgr_free(&g, mem, b.offset, &id), HEAP_RETAINED);
		ck_assert_uint_eq(id, HEAP_SHAR_PERSISTENT);
	}
	ck_assert_uint_eq(g.heap[HEAP_SHAR_PERSISTENT].u.s.ignored_frees, 3);
	ck_assert_int_eq(heap_mgr_status(&g, mem, HEAP_SHAR_PERSISTENT, &st1), HEAP_OK);
	ck_assert_uint_eq(st1.total_free, st0.total_free);
	ck_assert_uint_eq(st1.objects, 1);
	/* The bytes are never handed out again. */
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, 64, 0, &c, &id), HEAP_OK);
	ck_assert_uint_ge(c.offset, b.offset + 64);
	/* A Doug Lea heap does free: its status says so. */
	ck_assert_int_eq(heap_mgr_push(&g, HEAP_SHAR_TEMP), HEAP_OK);
	ck_assert_int_eq(heap_mgr_status(&g, mem, HEAP_SHAR_TEMP, &st0), HEAP_OK);
	ck_assert_int_eq(heap_mgr_alloc(&g, mem, HEAP_NIL, 1000, 0, &b, &id), HEAP_OK);
	ck_assert_int_eq(heap_mgr_status(&g, mem, HEAP_SHAR_TEMP, &st1), HEAP_OK);
	ck_assert_uint_eq(st1.objects, 1);
	ck_assert_uint_eq(st1.total_free, st0.total_free - b.block_size);
	ck_assert_uint_ge(st1.high_water, b.block_offset + b.block_size - g.heap[HEAP_SHAR_TEMP].start);
	ck_assert_int_eq(heap_mgr_free(&g, mem, b.offset, &id), HEAP_OK);
	ck_assert_uint_eq(id, HEAP_SHAR_TEMP);
	ck_assert_int_eq(heap_mgr_status(&g, mem, HEAP_SHAR_TEMP, &st1), HEAP_OK);
	ck_assert_uint_eq(st1.total_free, st0.total_free);
	ck_assert_uint_eq(st1.largest, st0.total_free);
	ck_assert_uint_eq(st1.objects, 0);
	/* Addresses no heap holds are refused. */
	ck_assert_int_eq(heap_mgr_free(&g, mem, REGION - 4, &id), HEAP_INVALID);
	ck_assert_int_eq(heap_mgr_free(&g, mem, b.offset, &id), HEAP_INVALID); /* double free */
}
END_TEST

/* The rules, written out again from the seed for the random test. */
static int keeps_small(uint32_t id)
{
	return id == HEAP_SHAR_PERSISTENT || id == HEAP_SHAR_TEMP || id == HEAP_SHAR_AUDIO_PERSISTENT;
}

static int expected_heaps(uint32_t top, uint32_t size, uint32_t *out)
{
	static const uint32_t level[] = { 1, 7, 8, 10, 9 }, fe[] = { 5, 6, 11 }, oz[] = { 8, 7 };
	const uint32_t *l = NULL;
	int n = 0, i;

	if (size < 201 && !keeps_small(top)) {
		out[0] = HEAP_SHAR_SMALL_ALLOC;
		return 1;
	}
	if (top == 25) l = level, n = 5;
	else if (top == 26) l = fe, n = 3;
	else if (top == 27) l = oz, n = 2;
	if (!l) {
		out[0] = g.heap[top].kind ? top : HEAP_SHAR_DEFAULT;
		return 1;
	}
	for (i = 0; i < n; i++)
		out[i] = g.heap[l[i]].kind ? l[i] : HEAP_SHAR_DEFAULT;
	return n;
}

START_TEST(random_routing)
{
	static const uint32_t ids[] = { 0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 15, 25, 26, 27 };
	static uint32_t owner[REGION];
	struct { uint32_t off, size, block, bsize, heap, id; } live[4096];
	size_t nlive = 0;
	vs_rng r = { 42 };
	uint32_t next = 1;
	int step;

	setup_shar(1);
	memset(owner, 0, sizeof owner);
	for (step = 0; step < 30000; step++) {
		uint32_t p = vs_rng_below(&r, 100);

		if (p < 5 && g.depth < HEAP_MGR_STACK_MAX) {
			ck_assert_int_eq(heap_mgr_push(&g, ids[vs_rng_below(&r, sizeof ids / sizeof ids[0])]), HEAP_OK);
		} else if (p < 10 && g.depth) {
			ck_assert_int_eq(heap_mgr_pop(&g, g.stack[g.depth - 1], NULL), HEAP_OK);
		} else if (p < 55 && nlive) {
			size_t k = vs_rng_below(&r, (uint32_t)nlive);
			uint32_t hid, i;
			int rc = heap_mgr_free(&g, mem, live[k].off, &hid);

			HOT_ASSERT(hid == live[k].heap, "freed in heap %u, allocated in %u", hid, live[k].heap);
			if (live[k].heap == HEAP_SHAR_PERSISTENT) {
				HOT_ASSERT(rc == HEAP_RETAINED, "static free gave %d", rc);
			} else {
				HOT_ASSERT(rc == HEAP_OK, "free gave %d", rc);
				for (i = live[k].block; i < live[k].block + live[k].bsize; i++)
					owner[i] = 0;
			}
			live[k] = live[--nlive];
		} else if (nlive < 4096) {
			uint32_t size = vs_rng_below(&r, 4) ? vs_rng_below(&r, 200) : 201 + vs_rng_below(&r, 1500);
			uint32_t top = heap_mgr_current(&g), exp[8], hid = HEAP_NIL, i;
			int n = expected_heaps(top, size, exp), rc, k, at = -1;
			heap_block b;

			rc = heap_mgr_alloc(&g, mem, HEAP_NIL, size, 0, &b, &hid);
			if (rc != HEAP_OK) {
				HOT_ASSERT(rc == HEAP_NOSPACE || (size == 0 && rc == HEAP_UNSUPPORTED), "alloc gave %d", rc);
				continue;
			}
			for (k = 0; k < n; k++)
				if (exp[k] == hid)
					at = k;
			HOT_ASSERT(at >= 0, "top %u size %u went to heap %u", top, size, hid);
			HOT_ASSERT(heap_mgr_owner(&g, b.block_offset) == hid &&
				heap_mgr_owner(&g, b.block_offset + b.block_size - 1) == hid, "block outside heap %u", hid);
			HOT_ASSERT(b.offset % 8 == 0, "unaligned %u", b.offset);
			for (i = b.block_offset; i < b.block_offset + b.block_size; i++) {
				HOT_ASSERT(owner[i] == 0, "overlap at %u", i);
				owner[i] = next;
			}
			live[nlive].off = b.offset;
			live[nlive].size = size;
			live[nlive].block = b.block_offset;
			live[nlive].bsize = b.block_size;
			live[nlive].heap = hid;
			live[nlive].id = next++;
			nlive++;
		}
	}
	/* GetStatus agrees with the live set per heap. */
	{
		uint32_t h, objs[HEAP_MGR_IDS] = { 0 };
		size_t k;
		for (k = 0; k < nlive; k++)
			objs[live[k].heap]++;
		for (h = 0; h < HEAP_MGR_IDS; h++) {
			heap_status st;
			if (g.heap[h].kind == HEAP_KIND_NONE || h == HEAP_SHAR_PERSISTENT)
				continue;
			ck_assert_int_eq(heap_mgr_status(&g, mem, h, &st), HEAP_OK);
			ck_assert_uint_eq(st.objects, objs[h]);
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap_manager");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, small_allocation_rule);
	tcase_add_test(tc, no_small_heap);
	tcase_add_test(tc, small_heap_full_fails);
	tcase_add_test(tc, search_lists);
	tcase_add_test(tc, heap_stack);
	tcase_add_test(tc, per_call_search);
	tcase_add_test(tc, no_heap_route);
	tcase_add_test(tc, static_heap_ignores_frees);
	tcase_add_test(tc, random_routing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
