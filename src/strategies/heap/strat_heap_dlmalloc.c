/* SPDX-License-Identifier: Zlib */
/* strat_heap_dlmalloc.c - adapter for the Doug Lea style heap (as The
 * Simpsons: Hit & Run used one). */
#include "vramsim/alloc/heap_dlmalloc.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct dl_st {
	uint8_t *mem;
	heap_dlmalloc h;
} dl_st;

static int dl_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { NULL };
	dl_st *s = st;

	if (vs_option_check(options, known, err, errlen))
		return -1;
	s->mem = mem;
	if (heap_dlmalloc_init(&s->h, mem, a->size) != HEAP_OK) {
		snprintf(err, errlen, "arena of %u bytes is too small for the heap's control block", (unsigned)a->size);
		return -1;
	}
	return 0;
}

static int dl_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	dl_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_dlmalloc_alloc(&s->h, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int dl_free(void *st, const vs_placement *pl)
{
	dl_st *s = st;

	return heap_dlmalloc_free(&s->h, s->mem, pl->offset);
}

static void dl_reset(void *st)
{
	dl_st *s = st;

	heap_dlmalloc_init(&s->h, s->mem, s->h.size);
}

static void dl_walk(void *st, vs_extent_fn fn, void *ud)
{
	dl_st *s = st;

	heap_dlmalloc_walk_free(&s->h, s->mem, fn, ud);
}

static void dl_dump(void *st, vs_print_fn print, void *ud)
{
	dl_st *s = st;
	heap_status hs;
	char line[96];
	uint32_t top = heap_dlmalloc_top(&s->h, s->mem);

	heap_dlmalloc_status(&s->h, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	snprintf(line, sizeof line, "top: 0x%06x, %u bytes\n", (unsigned)top,
		top < s->h.epi ? (unsigned)ht_size(s->mem, top) : 0u);
	print(ud, line);
}

/* The 336-byte control block (bin heads, bitmaps, top) with the pad to the
 * first block, and the epilogue with the tail past it. */
static void dl_held(void *st, vs_extent_fn fn, void *ud)
{
	dl_st *s = st;

	vs_heap_held_ends(s->h.first, s->h.epi, s->h.size, fn, ud);
}

const vs_strategy vs_strat_heap_dlmalloc = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-dlmalloc",
	.summary = "Doug Lea style heap: boundary tags, exact small bins, sorted large bins, best fit, top block",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(dl_st),
	.init = dl_init,
	.alloc = dl_alloc,
	.free = dl_free,
	.reset = dl_reset,
	.walk_free = dl_walk,
	.dump = dl_dump,
	.held = dl_held
};
