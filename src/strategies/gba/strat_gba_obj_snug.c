/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_snug.c - strategy adapter for vramsim's snug-fit OBJ allocator. */
#include "vramsim/alloc/gba_obj_snug.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int snug_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_snug_init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static int snug_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	t = gba_obj_snug_alloc(st, (uint16_t)n, (uint16_t)align);
	if (t == GBA_OBJ_SNUG_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static int snug_free(void *st, const vs_placement *pl)
{
	uint32_t n = pl->granted / VS_GBA_TILE_BYTES;

	if (pl->key >= GBA_OBJ_SNUG_TILES || n == 0 || n > GBA_OBJ_SNUG_TILES)
		return VS_ERR_INVALID;
	return gba_obj_snug_free(st, (uint16_t)pl->key, (uint16_t)n) ? VS_ERR_INVALID : VS_OK;
}

static void snug_reset(void *st)
{
	gba_obj_snug *a = st;

	gba_obj_snug_init(a, a->first);
}

static int snug_tile_free(void *st, unsigned tile)
{
	return gba_obj_snug_is_free(st, (uint16_t)tile);
}

static void snug_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_gba_walk_tiles(st, snug_tile_free, GBA_OBJ_SNUG_TILES, fn, ud);
}

static char snug_sym(void *st, unsigned tile)
{
	const gba_obj_snug *a = st;

	if (tile < a->first)
		return '#';
	if (a->start[tile >> 5] & (1u << (tile & 31u)))
		return 'U';
	return gba_obj_snug_is_free(a, (uint16_t)tile) ? '.' : 'C';
}

static void snug_dump(void *st, vs_print_fn print, void *ud)
{
	vs_gba_dump_tiles(st, snug_sym, print, ud);
}

const vs_strategy vs_strat_gba_obj_snug = {
	VS_STRATEGY_ABI, "gba-obj-snug",
	"vramsim's own: hole-first address-ordered first fit over a tile bitmap, searched a word at a time",
	VS_ARENA_BIT(VS_ARENA_GBA_OBJ), VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM, sizeof(gba_obj_snug),
	snug_init, snug_alloc, snug_free, snug_reset, snug_walk,
	0, NULL, NULL, snug_dump, NULL
};
