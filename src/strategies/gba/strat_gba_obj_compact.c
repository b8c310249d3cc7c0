/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_compact.c - strategy adapter for the OBJ allocator that
 * moves live sprites (gba-obj-compact): its moves go to the replay through
 * vs_strategy.moves, at a request that needs them and at each frame.
 * Option budget=N: tiles a frame's slide may move; by default what the
 * frame's uploads and on-need moves leave of a quarter of VBlank, by the
 * cost model of docs/gba.md. On a ds-obj arena it counts units of the 1D
 * boundary over the mapped span (strat_gba.h), and budget=N is N of them. */
#include "vramsim/alloc/gba_obj_compact.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

/* the allocator's state first (the cycles list reads it there), then the
 * units it counts */
typedef struct state {
	gba_obj_compact m;
	vs_gba_obj_geom g;
} state;

static int cp_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "budget", NULL };
	uint32_t budget = GBA_OBJ_COMPACT_AUTO;
	state *s = st;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "budget", 0, GBA_OBJ_COMPACT_TILES, &budget, err, errlen) < 0 ||
		vs_gba_obj_geom_init(&s->g, a, "gba-obj-compact", err, errlen))
		return -1;
	gba_obj_compact_init_span(&s->m, s->g.first, s->g.end, (uint16_t)budget);
	return 0;
}

static int cp_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	state *s = st;
	unsigned n, align;
	int rc = vs_gba_obj_units(&s->g, rq, &n, &align);
	uint16_t slot;

	if (rc != VS_OK)
		return rc;
	slot = gba_obj_compact_alloc(&s->m, (uint16_t)n, (uint16_t)align);
	if (slot == GBA_OBJ_COMPACT_NONE)
		return s->m.n == GBA_OBJ_COMPACT_MAX ? VS_ERR_MANAGEMENT : VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)gba_obj_compact_start(&s->m, slot) << s->g.shift, n << s->g.shift, slot);
	return VS_OK;
}

static int cp_free(void *st, const vs_placement *pl)
{
	state *s = st;

	return pl->key >= GBA_OBJ_COMPACT_MAX || gba_obj_compact_free(&s->m, (uint16_t)pl->key) ? VS_ERR_INVALID : VS_OK;
}

static void cp_reset(void *st)
{
	state *s = st;

	gba_obj_compact_init_span(&s->m, s->g.first, s->g.end, s->m.budget);
}

static void cp_walk(void *st, vs_extent_fn fn, void *ud)
{
	const state *st_ = st;
	const gba_obj_compact *m = &st_->m;
	unsigned sh = st_->g.shift;
	uint32_t at = m->first;
	uint16_t s = GBA_OBJ_COMPACT_NONE;

	do {
		uint32_t end;
		s = gba_obj_compact_next(m, s);
		end = s != GBA_OBJ_COMPACT_NONE ? gba_obj_compact_start(m, s) : gba_obj_compact_end(m);
		if (end > at && fn(ud, at << sh, (end - at) << sh))
			return;
		if (s != GBA_OBJ_COMPACT_NONE)
			at = end + gba_obj_compact_tiles(m, s);
	} while (s != GBA_OBJ_COMPACT_NONE);
}

static size_t cp_moves(void *st, vs_move *out, size_t max)
{
	const state *s = st;
	unsigned sh = s->g.shift;
	uint16_t n, i;
	const gba_obj_compact_move *mv = gba_obj_compact_moves(&s->m, &n);

	for (i = 0; i < n && i < max; i++) {
		out[i].key = mv[i].slot;
		out[i].from = (uint32_t)mv[i].from << sh;
		out[i].to = (uint32_t)mv[i].to << sh;
	}
	return n;
}

static void cp_frame(void *st)
{
	gba_obj_compact_frame(&((state *)st)->m);
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
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(state),
	.init = cp_init,
	.alloc = cp_alloc,
	.free = cp_free,
	.reset = cp_reset,
	.walk_free = cp_walk,
	.ram = cp_ram,
	.moves = cp_moves,
	.frame = cp_frame
};
