/* SPDX-License-Identifier: Zlib */
/* strat_heap_pools.c - adapter for the power-of-two pools (from the blog
 * post "Game From Zero: Part 2. 'Memory'"). */
#include "vramsim/alloc/heap_pools.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct pools_st {
	uint8_t *mem;
	uint32_t weights[HEAP_POOLS_CLASSES];
	heap_pools p;
} pools_st;

/* split=W8/W16/W32/W64/W128/W256/W512/W1024: shares of the arena. */
static int parse_split(const char *options, uint32_t *w, char *err, size_t errlen)
{
	char val[128], *p, *end;
	uint32_t i;

	for (i = 0; i < HEAP_POOLS_CLASSES; i++)
		w[i] = 1;
	if (!vs_option_get(options, "split", val, sizeof val) || strcmp(val, "equal") == 0)
		return 0;
	p = val;
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > 0xFFFFu || (i + 1 < HEAP_POOLS_CLASSES ? *end != '/' : *end != '\0')) {
			snprintf(err, errlen, "option split=%s: expected 8 weights 0-65535 separated by '/' "
				"(classes 8/16/32/64/128/256/512/1024), or 'equal'", val);
			return -1;
		}
		w[i] = (uint32_t)v;
		p = end + 1;
	}
	return 0;
}

static int pools_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "split", NULL };
	pools_st *s = st;

	if (vs_option_check(options, known, err, errlen) || parse_split(options, s->weights, err, errlen))
		return -1;
	s->mem = mem;
	if (heap_pools_init(&s->p, mem, a->size, s->weights) != HEAP_OK) {
		snprintf(err, errlen, "bad pool split");
		return -1;
	}
	return 0;
}

static int pools_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	pools_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_pools_alloc(&s->p, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int pools_free(void *st, const vs_placement *pl)
{
	pools_st *s = st;

	return heap_pools_free(&s->p, s->mem, pl->offset);
}

static void pools_reset(void *st)
{
	pools_st *s = st;

	heap_pools_init(&s->p, s->mem, s->p.size, s->weights);
}

static void pools_walk(void *st, vs_extent_fn fn, void *ud)
{
	pools_st *s = st;

	heap_pools_walk_free(&s->p, s->mem, fn, ud);
}

static void pools_dump(void *st, vs_print_fn print, void *ud)
{
	pools_st *s = st;
	heap_status hs;
	char line[160];
	uint32_t i;

	heap_pools_status(&s->p, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	for (i = 0; i < HEAP_POOLS_CLASSES; i++) {
		const heap_pool *q = &s->p.pool[i];

		snprintf(line, sizeof line, "class %4u: stack 0x%06x slots 0x%06x x%u, bumped %u, stacked %u, live %u\n",
			(unsigned)(HEAP_POOLS_MIN << i), (unsigned)q->stack, (unsigned)q->slots, (unsigned)q->count,
			(unsigned)q->bumped, (unsigned)q->depth, (unsigned)q->live);
		print(ud, line);
	}
}

/* Everything outside the pools' slots: each pool's free stack (4 bytes a
 * slot, whole: its capacity is fixed) with the pad that aligns the slots to
 * their class, the part of a pool's share too small for another slot, and
 * what the split left to no pool. */
static void pools_held(void *st, vs_extent_fn fn, void *ud)
{
	pools_st *s = st;

	heap_pools_walk_held(&s->p, fn, ud);
}

const vs_strategy vs_strat_heap_pow2_pools = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-pow2-pools",
	.summary = "power-of-two pools 8-1024 bytes, each a region with a free stack kept apart (split=W/W/...)",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_HELD_FIXED,
	.state_size = sizeof(pools_st),
	.init = pools_init,
	.alloc = pools_alloc,
	.free = pools_free,
	.reset = pools_reset,
	.walk_free = pools_walk,
	.dump = pools_dump,
	.held = pools_held
};
