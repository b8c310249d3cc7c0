/* SPDX-License-Identifier: Zlib */
/* gba_cycles_list.c - the strategies with a GBA build and how each
 * encodes a host request (the adapters' arithmetic, strat_gba.h) for the
 * request list `vramsim cycles` sends to the GBA (console/common/
 * cycles_list.h builds it), and the sprite moves the host made after each
 * request of gba-obj-compact. */
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_bg_tiles_split.h"
#include "vramsim/alloc/gba_obj_best_fit.h"
#include "vramsim/alloc/gba_obj_buddy.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "vramsim/alloc/gba_obj_ends.h"
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/alloc/gba_obj_snug.h"
#include "console/gba/gba_cycles_host.h"
#include "strategies/strategies.h"
#include "strategies/gba/strat_gba.h" /* the adapters' request arithmetic, shared */
#include "strategies/gba/strat_butano.h"

/* ---- allocators the cycles ROM carries -------------------------------- */

static int objmap_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	uint32_t n = (rq->size + 31u) / 32u; /* as strat_gba_obj_map.c */

	(void)st, (void)flags;
	if (n == 0 || n > 1024u)
		return 0;
	*arg = n;
	return 1;
}

static void objmap_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_map *)st)->first;
}

static uint32_t tile_offset(uint32_t value)
{
	return value * 32u;
}

/* The OBJ tile allocators: tiles and alignment as the adapters work them
 * out (strat_gba.h); a request they refuse never reaches the allocator. */
static int obj_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	unsigned n, align;

	(void)st, (void)flags;
	if (vs_gba_obj_tiles(rq, &n, &align) != VS_OK)
		return 0;
	*arg = n | align << 16;
	return 1;
}

static void ff_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_ff *)st)->first;
}

static void bf_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_bf *)st)->first;
}

static void buddy_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_buddy *)st)->first;
}

static void snug_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_snug *)st)->first;
}

static void ends_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_obj_ends *)st)->first;
}

static void compact_params(const void *st, uint32_t param[4])
{
	const gba_obj_compact *m = st;

	param[0] = m->first | (uint32_t)m->budget << 16;
}

static uint32_t compact_offset(uint32_t value)
{
	return (value & 0xFFFFu) * 32u; /* the slot rides in the high half */
}

/* Where the host's sprites sit: the digest the GBA answers after each
 * request (gba_cycles.h). */
static uint32_t compact_digest(const gba_obj_compact *m)
{
	uint32_t h = VS_GBA_DIGEST_INIT, s;

	for (s = 0; s < GBA_OBJ_COMPACT_MAX; s++)
		if (gba_obj_compact_tiles(m, (uint16_t)s))
			h = vs_gba_digest(h, s, gba_obj_compact_start(m, (uint16_t)s));
	return h;
}

/* The BG tile managers: a tile reference or a map (strat_gba_bg_tiles.c). */
static int bg_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	unsigned n;

	(void)st, (void)flags;
	if (rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_CELLS) {
		n = vs_gba_map_blocks(rq);
		if (n == 0)
			return 0;
		*arg = VS_GBA_BG_MAP | n;
		return 1;
	}
	if (rq->shape != VS_REQ_TILE)
		return 0;
	/* out-of-range values stay out of range: the allocator refuses them */
	*arg = (rq->u.tile.rom > 0xFFFFFFu ? 0xFFFFFFu : rq->u.tile.rom) |
		(uint32_t)(rq->u.tile.bpp > 63u ? 63u : rq->u.tile.bpp) << 24;
	return 1;
}

static void bg_params(const void *st, uint32_t param[4])
{
	(void)st;
	param[0] = 0;
}

static void split_params(const void *st, uint32_t param[4])
{
	param[0] = ((const gba_bg_tiles_split *)st)->bytes4;
}

static uint32_t bg_offset(uint32_t value)
{
	if (value & VS_GBA_BG_MAP)
		return (value & 0xFFu) * VS_GBA_SB_BYTES;
	return (value & 0xFFFFu) * VS_GBA_TILE_BYTES;
}

static int bg_hit(uint32_t value)
{
	return !(value & VS_GBA_BG_MAP) && (value & VS_GBA_BG_HIT);
}

/* The host's sprites after the request just pushed, and its moves. */
static void note_moves(vs_cycles_list *l, vs_replay *r)
{
	const gba_obj_compact *m = vs_replay_strategy_state(r, l->arena);
	const gba_obj_compact_move *mv;
	vs_cycles_call *c = &l->calls[l->n - 1];
	uint16_t n, i;

	c->digest = compact_digest(m);
	if (l->rq[l->n - 1].op == VS_GBA_OP_RESET)
		return; /* init leaves no moves */
	mv = gba_obj_compact_moves(m, &n);
	c->nmoves = n;
	for (i = 0; i < n; i++)
		c->words += mv[i].tiles * 8u;
}

/* name, id, encode, params, offset, hit, after, results, frames, param_sets */
/* Butano's managers: the request's tag is its data word, sent in 16 bits
 * (-1 past that: the GBA cannot be given it); what the adapters refuse
 * never reaches the allocator. */
static int butano_tag(const vs_request *rq, uint32_t *arg)
{
	if (rq->tag > 0xFFFFu)
		return -1;
	*arg = rq->tag;
	return 1;
}

/* as strat_butano_sprite_tiles.c: 1-64 4bpp tiles, 2-128 8bpp, powers of
 * two; no alignment past a tile */
static int bst_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	uint32_t t = (rq->size + VS_GBA_TILE_BYTES - 1u) / VS_GBA_TILE_BYTES;
	int bpp8 = rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8;

	(void)st, (void)flags;
	if (!t || (t & (t - 1u)) || t > (bpp8 || rq->shape != VS_REQ_SPRITE ? 128u : 64u) || (bpp8 && t < 2u) ||
		rq->align > VS_GBA_TILE_BYTES)
		return 0;
	if (butano_tag(rq, arg) < 0)
		return -1;
	*arg |= t << 16;
	return 1;
}

static void bst_params(const void *st, uint32_t param[4])
{
	const vs_butano_st_state *s = st;

	param[0] = s->version | (uint32_t)s->max_items << 8 | (uint32_t)s->graphics << 20 |
		(uint32_t)s->compressed << 22 | (uint32_t)s->bitmap << 23;
}

static int bst_host_hit(const void *st)
{
	return ((const vs_butano_st_state *)st)->found;
}

/* as strat_butano_bg_blocks.c: tile sets and maps of cells (or of
 * pixels), as Butano takes them; blocks of 2 KiB, no more alignment */
static int bgb_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	static const uint16_t text_w[4] = { 32, 64, 32, 64 }, text_h[4] = { 32, 32, 64, 64 };
	static const uint16_t aff[4] = { 16, 32, 64, 128 };
	butano_bgb_req r;
	unsigned w, h, affine, t32;

	(void)st, (void)flags;
	if (rq->align > BUTANO_BGB_BLOCK_BYTES)
		return 0;
	if (rq->shape == VS_REQ_TILESET) {
		t32 = rq->u.tileset.count * (rq->u.tileset.bpp == 8 ? 2u : 1u);
		if (butano_bgb_tiles_req(&r, t32, rq->u.tileset.bpp == 8, rq->u.tileset.affine, 1))
			return 0;
		if (butano_tag(rq, arg) < 0)
			return -1;
		*arg |= vs_gba_bgb_tiles_desc(t32, rq->u.tileset.bpp == 8, rq->u.tileset.affine) << 16;
		return 1;
	}
	if (rq->shape == VS_REQ_CELLS) {
		w = rq->u.cells.width;
		h = rq->u.cells.height;
		affine = rq->u.cells.affine;
	} else if (rq->shape == VS_REQ_BGMAP) {
		affine = rq->u.bgmap.affine;
		w = affine ? aff[rq->u.bgmap.size & 3] : text_w[rq->u.bgmap.size & 3];
		h = affine ? w : text_h[rq->u.bgmap.size & 3];
	} else {
		return 0;
	}
	if (butano_bgb_map_req(&r, w, h, (int)affine))
		return 0;
	if (butano_tag(rq, arg) < 0)
		return -1;
	*arg |= vs_gba_bgb_map_desc(w, h, affine) << 16;
	return 1;
}

static void bgb_params(const void *st, uint32_t param[4])
{
	const vs_butano_bgb_state *s = st;

	param[0] = s->version | (uint32_t)s->max_items << 8 | (uint32_t)s->graphics << 16 |
		(uint32_t)s->compressed << 18 | (uint32_t)s->offset << 19;
}

static int bgb_host_hit(const void *st)
{
	return ((const vs_butano_bgb_state *)st)->found;
}

static uint32_t block_offset(uint32_t value)
{
	return (value & 0xFFu) * BUTANO_BGB_BLOCK_BYTES;
}

static uint32_t bst_offset(uint32_t value)
{
	return (value & 0xFFFFu) * VS_GBA_TILE_BYTES;
}

static int butano_hit(uint32_t value)
{
	return (value & VS_GBA_BG_HIT) != 0;
}

static const vs_cycles_target targets[] = {
	{ .name = "gba-obj-map", .id = VS_GBA_STRAT_GBA_OBJ_MAP, .encode = objmap_encode, .params = objmap_params,
		.offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-first-fit", .id = VS_GBA_STRAT_GBA_OBJ_FIRST_FIT, .encode = obj_encode,
		.params = ff_params, .offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-best-fit-end", .id = VS_GBA_STRAT_GBA_OBJ_BEST_FIT, .encode = obj_encode,
		.params = bf_params, .offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-buddy", .id = VS_GBA_STRAT_GBA_OBJ_BUDDY, .encode = obj_encode, .params = buddy_params,
		.offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-snug", .id = VS_GBA_STRAT_GBA_OBJ_SNUG, .encode = obj_encode, .params = snug_params,
		.offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-ends", .id = VS_GBA_STRAT_GBA_OBJ_ENDS, .encode = obj_encode, .params = ends_params,
		.offset = tile_offset, .results = 1 },
	{ .name = "gba-obj-compact", .id = VS_GBA_STRAT_GBA_OBJ_COMPACT, .encode = obj_encode,
		.params = compact_params, .offset = compact_offset, .after = note_moves, .results = 2, .frames = 1 },
	{ .name = "gba-bg-tiles", .id = VS_GBA_STRAT_GBA_BG_TILES, .encode = bg_encode, .params = bg_params,
		.offset = bg_offset, .hit = bg_hit, .results = 1 },
	{ .name = "gba-bg-tiles-split", .id = VS_GBA_STRAT_GBA_BG_TILES_SPLIT, .encode = bg_encode,
		.params = split_params, .offset = bg_offset, .hit = bg_hit, .results = 1 },
	{ .name = "butano-sprite-tiles", .id = VS_GBA_STRAT_BUTANO_SPRITE_TILES, .encode = bst_encode,
		.params = bst_params, .offset = bst_offset, .hit = butano_hit, .results = 1, .frames = 1,
		.host_hit = bst_host_hit },
	{ .name = "butano-bg-blocks", .id = VS_GBA_STRAT_BUTANO_BG_BLOCKS, .encode = bgb_encode,
		.params = bgb_params, .offset = block_offset, .hit = butano_hit, .results = 1, .frames = 1,
		.host_hit = bgb_host_hit },
};

#define NTARGETS (sizeof targets / sizeof targets[0])

const vs_cycles_target *vs_gba_cycles_targets(size_t *n)
{
	*n = NTARGETS;
	return targets;
}

void vs_gba_cycles_target_list(char *buf, size_t len)
{
	vs_cycles_target_names(targets, NTARGETS, buf, len);
}

vs_gba_cycles_list *vs_gba_cycles_list_new(void)
{
	return vs_cycles_list_new(VS_GBA_SLOTS);
}
