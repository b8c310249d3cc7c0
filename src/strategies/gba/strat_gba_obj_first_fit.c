/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_first_fit.c - strategy adapter for first fit over a tile bitmap. */
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int ff_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_ff_init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static int ff_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = gba_obj_ff_alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == GBA_OBJ_FF_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static int ff_free(void *st, const vs_placement *pl)
{
	uint32_t n = pl->granted / VS_GBA_TILE_BYTES;

	if (pl->key >= GBA_OBJ_FF_TILES || n == 0 || n > GBA_OBJ_FF_TILES)
		return VS_ERR_INVALID;
	return gba_obj_ff_free(st, (uint16_t)pl->key, (uint16_t)n) ? VS_ERR_INVALID : VS_OK;
}

static void ff_reset(void *st)
{
	gba_obj_ff *a = st;

	gba_obj_ff_init(a, a->first);
}

static int ff_tile_free(void *st, unsigned tile)
{
	return gba_obj_ff_is_free(st, (uint16_t)tile);
}

static void ff_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, ff_tile_free, GBA_OBJ_FF_TILES, fn, ud);
}

static char ff_sym(void *st, unsigned tile)
{
	const gba_obj_ff *a = st;

	if (tile < a->first)
		return '#';
	if (a->start[tile >> 5] & (1u << (tile & 31u)))
		return 'U';
	return gba_obj_ff_is_free(a, (uint16_t)tile) ? '.' : 'C';
}

static void ff_dump(void *st, vs_print_fn print, void *ud)
{
	vs_gba_dump_tiles(st, ff_sym, print, ud);
}

const vs_strategy vs_strat_gba_obj_first_fit = {
	VS_STRATEGY_ABI, "gba-obj-first-fit",
	"first fit over a bit per 32-byte tile (pokeemerald, natu); 8bpp sprites start on even tiles",
	VS_ARENA_BIT(VS_ARENA_GBA_OBJ), VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM, sizeof(gba_obj_ff),
	ff_init, ff_alloc, ff_free, ff_reset, ff_walk,
	0, NULL, NULL, ff_dump, NULL
};
