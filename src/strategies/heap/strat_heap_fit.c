/* SPDX-License-Identifier: Zlib */
/* strat_heap_fit.c - adapters for the address-ordered free-list heap:
 * heap-first-fit, heap-next-fit and heap-best-fit. */
#include "vramsim/alloc/heap_fit.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct fit_st {
	uint8_t *mem;
	heap_fit h;
} fit_st;

static int fit_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen, heap_fit_policy policy)
{
	static const char *const known[] = { NULL };
	fit_st *s = st;

	if (vs_option_check(options, known, err, errlen))
		return -1;
	s->mem = mem;
	if (heap_fit_init(&s->h, mem, a->size, policy) != HEAP_OK) {
		snprintf(err, errlen, "arena of %u bytes is too small for a heap", (unsigned)a->size);
		return -1;
	}
	return 0;
}

static int first_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *mem, char *err, size_t n)
{
	return fit_init(st, a, o, mem, err, n, HEAP_FIT_FIRST);
}

static int next_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *mem, char *err, size_t n)
{
	return fit_init(st, a, o, mem, err, n, HEAP_FIT_NEXT);
}

static int best_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *mem, char *err, size_t n)
{
	return fit_init(st, a, o, mem, err, n, HEAP_FIT_BEST);
}

static int fit_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	fit_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_fit_alloc(&s->h, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int fit_free(void *st, const vs_placement *pl)
{
	fit_st *s = st;

	return heap_fit_free(&s->h, s->mem, pl->offset);
}

static void fit_reset(void *st)
{
	fit_st *s = st;

	heap_fit_init(&s->h, s->mem, s->h.size, (heap_fit_policy)s->h.policy);
}

static void fit_walk(void *st, vs_extent_fn fn, void *ud)
{
	fit_st *s = st;

	heap_fit_walk_free(&s->h, s->mem, fn, ud);
}

static void fit_dump(void *st, vs_print_fn print, void *ud)
{
	fit_st *s = st;
	heap_status hs;
	char line[96];
	uint32_t b;

	heap_fit_status(&s->h, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	for (b = s->h.first; b < s->h.epi; b += ht_size(s->mem, b)) {
		snprintf(line, sizeof line, "0x%06x %7u %s\n", (unsigned)b, (unsigned)ht_size(s->mem, b),
			ht_head(s->mem, b) & HT_CINUSE ? "used" : "free");
		print(ud, line);
	}
}

/* The 4-byte pad before the first block and the epilogue (with the tail
 * past it): the heap's fixed boundary. */
static void fit_held(void *st, vs_extent_fn fn, void *ud)
{
	fit_st *s = st;

	vs_heap_held_ends(s->h.first, s->h.epi, s->h.size, fn, ud);
}

const vs_strategy vs_strat_heap_first_fit = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-first-fit",
	.summary = "address-ordered first fit: boundary tags (4-byte head), 8-byte alignment, immediate coalescing",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(fit_st),
	.init = first_init,
	.alloc = fit_alloc,
	.free = fit_free,
	.reset = fit_reset,
	.walk_free = fit_walk,
	.dump = fit_dump,
	.held = fit_held
};

const vs_strategy vs_strat_heap_next_fit = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-next-fit",
	.summary = "next fit (roving pointer) over the address-ordered free list of heap-first-fit",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(fit_st),
	.init = next_init,
	.alloc = fit_alloc,
	.free = fit_free,
	.reset = fit_reset,
	.walk_free = fit_walk,
	.dump = fit_dump,
	.held = fit_held
};

const vs_strategy vs_strat_heap_best_fit = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-best-fit",
	.summary = "best fit (smallest block, lowest address) over the free list of heap-first-fit",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(fit_st),
	.init = best_init,
	.alloc = fit_alloc,
	.free = fit_free,
	.reset = fit_reset,
	.walk_free = fit_walk,
	.dump = fit_dump,
	.held = fit_held
};
