/* SPDX-License-Identifier: Zlib */
/* strat_heap_tlsf.c - adapter for Two-Level Segregated Fit. */
#include "vramsim/alloc/heap_tlsf.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct tlsf_st {
	uint8_t *mem;
	heap_tlsf h;
} tlsf_st;

static int tlsf_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { NULL };
	tlsf_st *s = st;

	if (vs_option_check(options, known, err, errlen))
		return -1;
	s->mem = mem;
	if (heap_tlsf_init(&s->h, mem, a->size) != HEAP_OK) {
		snprintf(err, errlen, "arena of %u bytes is too small for TLSF's control block", (unsigned)a->size);
		return -1;
	}
	return 0;
}

static int tlsf_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	tlsf_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_tlsf_alloc(&s->h, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int tlsf_free(void *st, const vs_placement *pl)
{
	tlsf_st *s = st;

	return heap_tlsf_free(&s->h, s->mem, pl->offset);
}

static void tlsf_reset(void *st)
{
	tlsf_st *s = st;

	heap_tlsf_init(&s->h, s->mem, s->h.size);
}

static void tlsf_walk(void *st, vs_extent_fn fn, void *ud)
{
	tlsf_st *s = st;

	heap_tlsf_walk_free(&s->h, s->mem, fn, ud);
}

static void tlsf_dump(void *st, vs_print_fn print, void *ud)
{
	tlsf_st *s = st;
	heap_status hs;
	char line[96];

	heap_tlsf_status(&s->h, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	snprintf(line, sizeof line, "control: %u bytes (%u first-level lists x 32)\n", (unsigned)s->h.control,
		(unsigned)s->h.fl_count);
	print(ud, line);
}

/* The control block at the arena start (bitmaps, list heads) with the pad
 * to the first block, and the epilogue with the tail past it. */
static void tlsf_held(void *st, vs_extent_fn fn, void *ud)
{
	tlsf_st *s = st;

	vs_heap_held_ends(s->h.first, s->h.epi, s->h.size, fn, ud);
}

const vs_strategy vs_strat_heap_tlsf = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-tlsf",
	.summary = "TLSF: two-level bitmaps, 32 subclasses per power of two, O(1) good fit, immediate coalescing",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(tlsf_st),
	.init = tlsf_init,
	.alloc = tlsf_alloc,
	.free = tlsf_free,
	.reset = tlsf_reset,
	.walk_free = tlsf_walk,
	.dump = tlsf_dump,
	.held = tlsf_held
};
