/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_compact.c - strategy adapter for the OBJ allocator that
 * moves live sprites (gba-obj-compact): its moves go to the replay through
 * vs_strategy.moves, at a request that needs them and at each frame.
 * Option budget=N: tiles a frame's slide may move; by default what the
 * frame's uploads and on-need moves leave of a quarter of VBlank, by the
 * cost model of docs/gba.md. */
#include "vramsim/alloc/gba_obj_compact.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int cp_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "budget", NULL };
	uint32_t budget = GBA_OBJ_COMPACT_AUTO;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "budget", 0, GBA_OBJ_COMPACT_TILES, &budget, err, errlen) < 0)
		return -1;
	gba_obj_compact_init(st, (uint16_t)vs_gba_obj_first_tile(a), (uint16_t)budget);
	return 0;
}

static int cp_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align);
	uint16_t slot;

	if (rc != VS_OK)
		return rc;
	slot = gba_obj_compact_alloc(st, (uint16_t)n, (uint16_t)align);
	if (slot == GBA_OBJ_COMPACT_NONE)
		return ((gba_obj_compact *)st)->n == GBA_OBJ_COMPACT_MAX ? VS_ERR_MANAGEMENT : VS_ERR_NOSPACE;
	vs_placement_simple(out, gba_obj_compact_start(st, slot) * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES, slot);
	return VS_OK;
}

static int cp_free(void *st, const vs_placement *pl)
{
	return pl->key >= GBA_OBJ_COMPACT_MAX || gba_obj_compact_free(st, (uint16_t)pl->key) ? VS_ERR_INVALID : VS_OK;
}

static void cp_reset(void *st)
{
	gba_obj_compact *m = st;

	gba_obj_compact_init(m, m->first, m->budget);
}

static void cp_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_compact *m = st;
	uint32_t at = m->first;
	uint16_t s = GBA_OBJ_COMPACT_NONE;

	do {
		uint32_t end;
		s = gba_obj_compact_next(m, s);
		end = s != GBA_OBJ_COMPACT_NONE ? gba_obj_compact_start(m, s) : GBA_OBJ_COMPACT_TILES;
		if (end > at && fn(ud, at * VS_GBA_TILE_BYTES, (end - at) * VS_GBA_TILE_BYTES))
			return;
		if (s != GBA_OBJ_COMPACT_NONE)
			at = end + gba_obj_compact_tiles(m, s);
	} while (s != GBA_OBJ_COMPACT_NONE);
}

static size_t cp_moves(void *st, vs_move *out, size_t max)
{
	uint16_t n, i;
	const gba_obj_compact_move *mv = gba_obj_compact_moves(st, &n);

	for (i = 0; i < n && i < max; i++) {
		out[i].key = mv[i].slot;
		out[i].from = mv[i].from * VS_GBA_TILE_BYTES;
		out[i].to = mv[i].to * VS_GBA_TILE_BYTES;
	}
	return n;
}

static void cp_frame(void *st)
{
	gba_obj_compact_frame(st);
}

static uint64_t cp_ram(void *st)
{
	(void)st;
	return sizeof(gba_obj_compact);
}

const vs_strategy vs_strat_gba_obj_compact = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-compact",
	.summary = "vramsim's own: first fit that moves live sprites down over the gaps when needed and at each "
		"frame, within what the frame's uploads leave of a quarter of VBlank (budget=N: N tiles instead)",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(gba_obj_compact),
	.init = cp_init,
	.alloc = cp_alloc,
	.free = cp_free,
	.reset = cp_reset,
	.walk_free = cp_walk,
	.ram = cp_ram,
	.moves = cp_moves,
	.frame = cp_frame
};
