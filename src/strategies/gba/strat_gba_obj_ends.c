/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_ends.c - strategy adapter for vramsim's two-ended best-fit
 * OBJ allocator: its calls for the OBJ bitmap adapter (strat_gba.h). */
#include <stddef.h>

#include "vramsim/alloc/gba_obj_ends.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static void a_init(void *a, uint16_t first, uint16_t end) { gba_obj_ends_init_span(a, first, end); }
static uint16_t a_alloc(void *a, uint16_t n, uint16_t align) { return gba_obj_ends_alloc(a, n, align); }
static int a_free(void *a, uint16_t tile, uint16_t n) { return gba_obj_ends_free(a, tile, n); }
static int a_is_free(void *a, unsigned tile) { return gba_obj_ends_is_free(a, (uint16_t)tile); }
static int a_is_start(const void *a, unsigned tile) { return gba_obj_ends_is_start(a, (uint16_t)tile); }

/* the allocator's state, then the units it counts (strat_gba.h) */
typedef struct state {
	gba_obj_ends a;
	vs_gba_obj_geom g;
} state;

static const vs_gba_obj_bm_calls calls = {
	.init = a_init, .alloc = a_alloc, .free = a_free, .is_free = a_is_free, .is_start = a_is_start,
	.geom = offsetof(state, g), .ram = sizeof(gba_obj_ends), .name = "gba-obj-ends"
};
/* the tile count and the no-room answer the shared adapter takes for granted */
typedef char bitmap_check[GBA_OBJ_ENDS_TILES == VS_GBA_OBJ_TILES && GBA_OBJ_ENDS_NONE == VS_GBA_OBJ_BM_NONE ? 1 : -1];

static int ends_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	return vs_gba_obj_bm_init(&calls, st, a, options, mem, err, errlen);
}

static int ends_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	return vs_gba_obj_bm_alloc(&calls, st, rq, out);
}

static int ends_free(void *st, const vs_placement *pl) { return vs_gba_obj_bm_free(&calls, st, pl); }
static void ends_reset(void *st) { vs_gba_obj_bm_reset(&calls, st); }
static void ends_walk(void *st, vs_extent_fn fn, void *ud) { vs_gba_obj_bm_walk(&calls, st, fn, ud); }
static char ends_sym(void *st, unsigned tile) { return vs_gba_obj_bm_sym(&calls, st, tile); }
static uint64_t ends_ram(void *st) { (void)st; return vs_gba_obj_bm_ram(&calls); }
static void ends_dump(void *st, vs_print_fn print, void *ud) { vs_gba_dump_tiles(st, ends_sym, print, ud); }

const vs_strategy vs_strat_gba_obj_ends = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-ends",
	.summary = "vramsim's own: two-ended best fit (sprites of 1-4 tiles from the top, larger from the bottom) "
		"over a tile bitmap",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(state),
	.init = ends_init,
	.alloc = ends_alloc,
	.free = ends_free,
	.reset = ends_reset,
	.walk_free = ends_walk,
	.dump = ends_dump,
	.ram = ends_ram
};
