/* SPDX-License-Identifier: Zlib */
/* strat_heap_static.c - adapter for The Simpsons: Hit & Run's StaticHeap. */
#include "vramsim/alloc/heap_static.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

static int static_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "align", NULL };
	uint32_t align = 8;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
	    vs_option_u32(options, "align", 1, 0x10000u, &align, err, errlen) < 0)
		return -1;
	if (!heap_is_pow2(align)) {
		snprintf(err, errlen, "option align=%u: not a power of two", (unsigned)align);
		return -1;
	}
	heap_static_init(st, a->size, align);
	return 0;
}

static int static_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_static_alloc(st, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int static_free(void *st, const vs_placement *pl)
{
	return heap_static_free(st, pl->offset);
}

static void static_reset(void *st)
{
	heap_static_reset(st);
}

static void static_walk(void *st, vs_extent_fn fn, void *ud)
{
	heap_static_walk_free(st, fn, ud);
}

static void static_dump(void *st, vs_print_fn print, void *ud)
{
	const heap_static *s = st;
	heap_status hs;
	char line[128];

	heap_static_status(s, &hs);
	vs_heap_print_status(&hs, print, ud);
	snprintf(line, sizeof line, "frees ignored: %u; overflow: %u requests, %u bytes\n",
		(unsigned)s->ignored_frees, (unsigned)s->overflow, (unsigned)s->overflow_bytes);
	print(ud, line);
}

const vs_strategy vs_strat_heap_static = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-static",
	.summary = "StaticHeap (The Simpsons: Hit & Run): bump allocator that never frees (frees are ignored and "
		"counted)",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(heap_static),
	.init = static_init,
	.alloc = static_alloc,
	.free = static_free,
	.reset = static_reset,
	.walk_free = static_walk,
	.dump = static_dump
};
