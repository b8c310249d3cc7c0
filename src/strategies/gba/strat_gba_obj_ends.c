/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_ends.c - strategy adapter for vramsim's two-ended best-fit OBJ allocator. */
#include "vramsim/alloc/gba_obj_ends.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int ends_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_ends_init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static int ends_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = gba_obj_ends_alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == GBA_OBJ_ENDS_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static int ends_free(void *st, const vs_placement *pl)
{
	uint32_t n = pl->granted / VS_GBA_TILE_BYTES;

	if (pl->key >= GBA_OBJ_ENDS_TILES || n == 0 || n > GBA_OBJ_ENDS_TILES)
		return VS_ERR_INVALID;
	return gba_obj_ends_free(st, (uint16_t)pl->key, (uint16_t)n) ? VS_ERR_INVALID : VS_OK;
}

static void ends_reset(void *st)
{
	gba_obj_ends *a = st;

	gba_obj_ends_init(a, a->first);
}

static int ends_tile_free(void *st, unsigned tile)
{
	return gba_obj_ends_is_free(st, (uint16_t)tile);
}

static void ends_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, ends_tile_free, GBA_OBJ_ENDS_TILES, fn, ud);
}

static char ends_sym(void *st, unsigned tile)
{
	const gba_obj_ends *a = st;

	if (tile < a->first)
		return '#';
	if (gba_obj_ends_is_start(a, (uint16_t)tile))
		return 'U';
	return gba_obj_ends_is_free(a, (uint16_t)tile) ? '.' : 'C';
}

static void ends_dump(void *st, vs_print_fn print, void *ud)
{
	vs_gba_dump_tiles(st, ends_sym, print, ud);
}

const vs_strategy vs_strat_gba_obj_ends = {
	VS_STRATEGY_ABI, "gba-obj-ends",
	"vramsim's own: two-ended best fit (sprites of 1-4 tiles from the top, larger from the bottom) over a tile bitmap",
	VS_ARENA_BIT(VS_ARENA_GBA_OBJ), VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM, sizeof(gba_obj_ends),
	ends_init, ends_alloc, ends_free, ends_reset, ends_walk,
	0, NULL, NULL, ends_dump, NULL
};
