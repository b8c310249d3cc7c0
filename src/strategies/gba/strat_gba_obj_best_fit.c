/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_best_fit.c - strategy adapter for Butano-style best fit. */
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int bf_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_bf_init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static int bf_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align), item;
	uint16_t t = 0;

	if (rc != VS_OK)
		return rc;
	item = gba_obj_bf_alloc(st, (uint16_t)n, (uint16_t)align, &t);
	if (item == GBA_OBJ_BF_NO_ITEMS)
		return VS_ERR_MANAGEMENT;
	if (item < 0)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, (uint32_t)item);
	return VS_OK;
}

static int bf_free(void *st, const vs_placement *pl)
{
	return gba_obj_bf_free(st, (int)(pl->key & 0xFFFF)) < 0 || pl->key >= GBA_OBJ_BF_ITEMS
		? VS_ERR_INVALID : VS_OK;
}

static void bf_reset(void *st)
{
	gba_obj_bf *a = st;

	gba_obj_bf_init(a, a->first);
}

static void bf_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_bf *a = st;
	uint8_t i;

	for (i = a->head; i != GBA_OBJ_BF_NIL; i = a->items[i].next)
		if (!a->items[i].used && fn(ud, a->items[i].start * VS_GBA_TILE_BYTES,
			a->items[i].count * VS_GBA_TILE_BYTES))
			return;
}

static void bf_dump(void *st, vs_print_fn print, void *ud)
{
	const gba_obj_bf *a = st;
	char line[80];
	uint8_t i;

	/* Like Butano's log_status: every item in address order. */
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
	.name = "gba-obj-best-fit",
	.summary = "Butano-style best fit over a size-sorted free list of at most 128 ranges, carved from the range's "
		"end",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(gba_obj_bf),
	.init = bf_init,
	.alloc = bf_alloc,
	.free = bf_free,
	.reset = bf_reset,
	.walk_free = bf_walk,
	.dump = bf_dump
};
