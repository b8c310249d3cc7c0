/* SPDX-License-Identifier: Zlib */
/* strat_heap_tracking.c - adapter for The Simpsons: Hit & Run's TrackingHeap.
 * The heap's index (a node per record, outside the arena) is allocated here
 * at init and counted in the bookkeeping RAM; the state points at it, so it
 * is not a memcpy snapshot. */
#include "vramsim/alloc/heap_tracking.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct trk_st {
	uint8_t *mem;
	heap_tracking_node *ix;
	uint32_t records_opt;
	heap_tracking t;
} trk_st;

static void trk_fini(void *st)
{
	trk_st *s = st;

	free(s->ix);
	s->ix = NULL;
}

static int trk_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "records", "align", NULL };
	trk_st *s = st;
	uint32_t records = 0, align = 8;

	if (vs_option_check(options, known, err, errlen) ||
	    vs_option_u32(options, "records", 1, 0x10000000u, &records, err, errlen) < 0 ||
	    vs_option_u32(options, "align", 1, 0x10000u, &align, err, errlen) < 0)
		return -1;
	s->mem = mem;
	s->records_opt = records;
	if (heap_tracking_init(&s->t, mem, a->size, records, align) != HEAP_OK) {
		snprintf(err, errlen, "records=%u / align=%u do not fit a %u-byte arena", (unsigned)records,
			(unsigned)align, (unsigned)a->size);
		return -1;
	}
	s->ix = calloc(s->t.capacity, sizeof *s->ix);
	if (!s->ix) {
		snprintf(err, errlen, "out of memory for the index of %u records (%zu bytes)", (unsigned)s->t.capacity,
			(size_t)s->t.capacity * sizeof *s->ix);
		return -1;
	}
	return 0;
}

static int trk_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	trk_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_tracking_alloc(&s->t, s->mem, s->ix, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int trk_free(void *st, const vs_placement *pl)
{
	trk_st *s = st;

	return heap_tracking_free(&s->t, s->mem, s->ix, pl->offset);
}

static void trk_reset(void *st)
{
	trk_st *s = st;

	heap_tracking_init(&s->t, s->mem, s->t.size, s->records_opt, s->t.align);
}

static void trk_walk(void *st, vs_extent_fn fn, void *ud)
{
	trk_st *s = st;

	heap_tracking_walk_free(&s->t, s->mem, s->ix, fn, ud);
}

static void trk_dump(void *st, vs_print_fn print, void *ud)
{
	trk_st *s = st;
	heap_status hs;
	char line[96];

	heap_tracking_status(&s->t, s->mem, s->ix, &hs);
	vs_heap_print_status(&hs, print, ud);
	snprintf(line, sizeof line, "records: %u of %u (%u bytes of table)\n", (unsigned)s->t.count,
		(unsigned)s->t.capacity, (unsigned)s->t.data);
	print(ud, line);
}

/* The record table at the arena start, whole: its capacity is fixed. */
static void trk_held(void *st, vs_extent_fn fn, void *ud)
{
	trk_st *s = st;

	if (s->t.capacity)
		fn(ud, 0, s->t.data);
}

/* The state and the index, a node per record. */
static uint64_t trk_ram(void *st)
{
	trk_st *s = st;

	return sizeof *s + (uint64_t)s->t.capacity * sizeof *s->ix;
}

const vs_strategy vs_strat_heap_tracking = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-tracking",
	.summary = "TrackingHeap (The Simpsons: Hit & Run): a record table at the arena start, first fit between "
		"records (records=)",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(trk_st),
	.init = trk_init,
	.alloc = trk_alloc,
	.free = trk_free,
	.reset = trk_reset,
	.walk_free = trk_walk,
	.dump = trk_dump,
	.fini = trk_fini,
	.held = trk_held,
	.ram = trk_ram
};
