/* SPDX-License-Identifier: Zlib */
/* strat_heap_buddy.c - adapter for the binary buddy heap. */
#include "vramsim/alloc/heap_buddy.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct buddy_st {
	uint8_t *mem;
	heap_buddy h;
} buddy_st;

static int buddy_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { NULL };
	buddy_st *s = st;

	if (vs_option_check(options, known, err, errlen))
		return -1;
	s->mem = mem;
	if (heap_buddy_init(&s->h, mem, a->size) != HEAP_OK) {
		snprintf(err, errlen, "arena of %u bytes is too small for a buddy heap", (unsigned)a->size);
		return -1;
	}
	return 0;
}

static int buddy_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	buddy_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_buddy_alloc(&s->h, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int buddy_free(void *st, const vs_placement *pl)
{
	buddy_st *s = st;

	return heap_buddy_free(&s->h, s->mem, pl->offset);
}

static void buddy_reset(void *st)
{
	buddy_st *s = st;

	heap_buddy_init(&s->h, s->mem, s->h.size);
}

static void buddy_walk(void *st, vs_extent_fn fn, void *ud)
{
	buddy_st *s = st;

	heap_buddy_walk_free(&s->h, s->mem, fn, ud);
}

static void buddy_dump(void *st, vs_print_fn print, void *ud)
{
	buddy_st *s = st;
	heap_status hs;
	char line[96];
	uint32_t k, n, b;

	heap_buddy_status(&s->h, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	for (k = HEAP_BUDDY_MIN_ORDER; k <= s->h.max_order; k++) {
		for (n = 0, b = s->h.heads[k]; b != HEAP_NIL; b = heap_ld32(s->mem, b + 8u))
			n++;
		if (n) {
			snprintf(line, sizeof line, "order %2u (%u bytes): %u free\n", (unsigned)k, 1u << k, (unsigned)n);
			print(ud, line);
		}
	}
}

/* Headers live in the blocks and the free lists in the state: only the
 * bytes past the last 16-byte boundary, which no block covers, are kept. */
static void buddy_held(void *st, vs_extent_fn fn, void *ud)
{
	buddy_st *s = st;

	if (s->h.limit < s->h.size)
		fn(ud, s->h.limit, s->h.size - s->h.limit);
}

const vs_strategy vs_strat_heap_buddy = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-buddy",
	.summary = "binary buddy: power-of-two blocks from 16 bytes, 8-byte header, merge with the buddy on free",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(buddy_st),
	.init = buddy_init,
	.alloc = buddy_alloc,
	.free = buddy_free,
	.reset = buddy_reset,
	.walk_free = buddy_walk,
	.dump = buddy_dump,
	.held = buddy_held
};
