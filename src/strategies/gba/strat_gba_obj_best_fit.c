/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_best_fit.c - strategy adapter for gba-obj-best-fit-end,
 * best fit carved from the end of the chosen range (once named
 * gba-obj-best-fit); on a ds-obj arena over units of the 1D boundary
 * (strat_gba.h). */
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

/* the allocator's state first (the cycles list reads it there), then the
 * units it counts */
typedef struct state {
	gba_obj_bf a;
	vs_gba_obj_geom g;
} state;

static int bf_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };
	state *s = st;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_gba_obj_geom_init(&s->g, a, "gba-obj-best-fit-end", err, errlen))
		return -1;
	gba_obj_bf_init_span(&s->a, s->g.first, s->g.end);
	return 0;
}

static int bf_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	state *s = st;
	unsigned n, align;
	int rc = vs_gba_obj_units(&s->g, rq, &n, &align), item;
	uint16_t t = 0;

	if (rc != VS_OK)
		return rc;
	item = gba_obj_bf_alloc(&s->a, (uint16_t)n, (uint16_t)align, &t);
	if (item == GBA_OBJ_BF_NO_ITEMS)
		return VS_ERR_MANAGEMENT;
	if (item < 0)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)t << s->g.shift, n << s->g.shift, (uint32_t)item);
	return VS_OK;
}

static int bf_free(void *st, const vs_placement *pl)
{
	return gba_obj_bf_free(&((state *)st)->a, (int)(pl->key & 0xFFFF)) < 0 || pl->key >= GBA_OBJ_BF_ITEMS
		? VS_ERR_INVALID : VS_OK;
}

static void bf_reset(void *st)
{
	state *s = st;

	gba_obj_bf_init_span(&s->a, s->g.first, s->g.end);
}

static void bf_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_bf *a = &((const state *)st)->a;
	unsigned sh = ((const state *)st)->g.shift;
	uint8_t i;

	for (i = a->head; i != GBA_OBJ_BF_NIL; i = a->items[i].next)
		if (!a->items[i].used && fn(ud, (uint32_t)a->items[i].start << sh, (uint32_t)a->items[i].count << sh))
			return;
}

static uint64_t bf_ram(void *st)
{
	(void)st;
	return sizeof(gba_obj_bf);
}

static void bf_dump(void *st, vs_print_fn print, void *ud)
{
	const gba_obj_bf *a = &((const state *)st)->a;
	char line[80];
	uint8_t i;

	/* every item in address order */
	snprintf(line, sizeof line, "items %u of %u\n", (unsigned)a->nitems, GBA_OBJ_BF_ITEMS);
	print(ud, line);
	for (i = a->head; i != GBA_OBJ_BF_NIL; i = a->items[i].next) {
		snprintf(line, sizeof line, "  #%-3u tiles %4u-%4u (%4u) %s\n", (unsigned)i,
			(unsigned)a->items[i].start, (unsigned)(a->items[i].start + a->items[i].count - 1u),
			(unsigned)a->items[i].count, a->items[i].used ? "used" : "free");
		print(ud, line);
	}
}

const vs_strategy vs_strat_gba_obj_best_fit = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-best-fit-end",
	.summary = "best fit over a size-sorted free list of at most 128 ranges (ties by address), carved from the "
		"range's end",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(state),
	.init = bf_init,
	.alloc = bf_alloc,
	.free = bf_free,
	.reset = bf_reset,
	.walk_free = bf_walk,
	.dump = bf_dump,
	.ram = bf_ram
};
