/* SPDX-License-Identifier: Zlib */
/* strat_butano_bg_blocks.c - strategy adapter for Butano's BG blocks
 * manager (src/alloc/butano_bg_blocks.c; docs/butano.md).
 *
 * A request is a create of a tile set (`tiles N 4bpp|8bpp [affine]`) or of
 * a map (`cells WxH [affine]`, or `map text|affine WxH` in pixels), its data
 * named by its tag; with graphics=raw an allocate. The last release makes
 * the item wait: free answers VS_RETAINED, and the blocks come back,
 * through released(), at the next frame's update, when a create flushes
 * every waiting item or when a waiting item is reused for other data. */
#include <string.h>

#include "strategies/strategies.h"
#include "strat_butano.h"
#include "strat_gba.h"
#include "base/options.h"

enum { GRAPHICS_TAG = VS_BUTANO_GRAPHICS_TAG, GRAPHICS_EACH = VS_BUTANO_GRAPHICS_EACH,
	GRAPHICS_RAW = VS_BUTANO_GRAPHICS_RAW };

typedef vs_butano_bgb_state state;

static int bgb_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "version", "items", "graphics", "compressed", "offset", NULL };
	state *s = st;
	uint32_t version = BUTANO_BGB_VERSION_NEWEST, items = BUTANO_BGB_ITEMS_DEFAULT, compressed = 0, offset = 1;
	char g[16];

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "version", BUTANO_BGB_VERSION_OLDEST, BUTANO_BGB_VERSION_NEWEST, &version, err,
			errlen) < 0 ||
		vs_option_u32(options, "items", 1, BUTANO_BGB_ITEMS_MAX, &items, err, errlen) < 0 ||
		vs_option_u32(options, "compressed", 0, 1, &compressed, err, errlen) < 0 ||
		vs_option_u32(options, "offset", 0, 1, &offset, err, errlen) < 0)
		return -1;
	s->graphics = GRAPHICS_TAG;
	if (vs_option_get(options, "graphics", g, sizeof g)) {
		if (!strcmp(g, "each"))
			s->graphics = GRAPHICS_EACH;
		else if (!strcmp(g, "raw"))
			s->graphics = GRAPHICS_RAW;
		else if (strcmp(g, "tag")) {
			snprintf(err, errlen, "graphics=%s: expected tag, each or raw", g);
			return -1;
		}
	}
	/* Butano 21's bitmap BG takes every BG block (allocate_all_affine_tiles,
	 * bn_bg_blocks_manager.cpp L1853); before 21 it had no bitmap modes */
	if (a->gba_mode >= 3) {
		snprintf(err, errlen, "arena '%s' is in bitmap mode %u: Butano's bitmap BG takes all of BG VRAM, "
			"nothing is left for its BG blocks manager", a->name, (unsigned)a->gba_mode);
		return -1;
	}
	s->version = (uint8_t)version;
	s->max_items = (uint8_t)items;
	s->compressed = (uint8_t)compressed;
	s->offset = (uint8_t)offset;
	butano_bgb_init(&s->a, s->version, s->max_items);
	return 0;
}

static int request_of(const state *s, const vs_request *rq, butano_bgb_req *out)
{
	static const uint16_t text_w[4] = { 32, 64, 32, 64 }, text_h[4] = { 32, 32, 64, 64 };
	static const uint16_t aff[4] = { 16, 32, 64, 128 };
	int rc;

	switch (rq->shape) {
	case VS_REQ_TILESET:
		rc = butano_bgb_tiles_req(out, rq->u.tileset.count * (rq->u.tileset.bpp == 8 ? 2u : 1u),
			rq->u.tileset.bpp == 8, rq->u.tileset.affine, s->offset);
		break;
	case VS_REQ_CELLS:
		rc = butano_bgb_map_req(out, rq->u.cells.width, rq->u.cells.height, rq->u.cells.affine);
		break;
	case VS_REQ_BGMAP:
		rc = rq->u.bgmap.affine ? butano_bgb_map_req(out, aff[rq->u.bgmap.size & 3], aff[rq->u.bgmap.size & 3], 1) :
			butano_bgb_map_req(out, text_w[rq->u.bgmap.size & 3], text_h[rq->u.bgmap.size & 3], 0);
		break;
	default:
		/* single tiles by ROM index, plain bytes: Butano has no such call */
		return VS_ERR_UNSUPPORTED;
	}
	/* a big map holds a canvas smaller than its cells: not reproduced */
	if (rc != 0)
		return rc == -2 ? VS_ERR_UNSUPPORTED : VS_ERR_INVALID;
	/* Butano places by blocks of 2 KiB: no alignment beyond (tiles
	 * without an offset land on 16 KiB, but Butano takes no align) */
	if (rq->align > BUTANO_BGB_BLOCK_BYTES)
		return VS_ERR_UNSUPPORTED;
	out->compressed = s->compressed;
	/* data 0 is never found again: each request's data its own */
	out->data = s->graphics == GRAPHICS_TAG ? rq->tag : 0u;
	return VS_OK;
}

static int bgb_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	state *s = st;
	butano_bgb_req r;
	int found = 0, id, rc;

	s->a.nreleased = 0;
	s->found = 0;
	if ((rc = request_of(s, rq, &r)) != VS_OK)
		return rc;
	if (s->graphics == GRAPHICS_RAW)
		id = butano_bgb_allocate(&s->a, &r);
	else
		id = butano_bgb_create(&s->a, &r, &found);
	if (id == BUTANO_BGB_NO_ITEMS)
		return VS_ERR_MANAGEMENT;
	if (id < 0)
		return VS_ERR_NOSPACE;
	/* the data's bytes: a revived remnant of fewer blocks still answers for
	 * them all, as Butano hands it out (docs/butano.md) */
	vs_placement_simple(out, (uint32_t)s->a.items[id].start * BUTANO_BGB_BLOCK_BYTES,
		(uint32_t)r.blocks * BUTANO_BGB_BLOCK_BYTES, (uint32_t)id);
	out->shared = (uint8_t)found;
	s->found = (uint8_t)found;
	return VS_OK;
}

static int bgb_free(void *st, const vs_placement *pl)
{
	state *s = st;
	int left = pl->key <= BUTANO_BGB_ITEMS_MAX ? butano_bgb_decrease_usages(&s->a, (int)pl->key) : BUTANO_BGB_BAD;

	if (left < 0)
		return VS_ERR_INVALID;
	return left ? VS_OK : VS_RETAINED;
}

static void bgb_reset(void *st)
{
	state *s = st;

	butano_bgb_init(&s->a, s->version, s->max_items);
}

static void bgb_frame(void *st)
{
	butano_bgb_update(&((state *)st)->a);
}

static size_t bgb_released(void *st, uint32_t *out, size_t max)
{
	const butano_bgb *a = &((const state *)st)->a;
	size_t i;

	for (i = 0; i < a->nreleased && i < max; i++)
		out[i] = (uint32_t)a->released[i] * BUTANO_BGB_BLOCK_BYTES;
	return a->nreleased;
}

static void bgb_walk(void *st, vs_extent_fn fn, void *ud)
{
	const butano_bgb *a = &((const state *)st)->a;
	unsigned i, end = a->max_items + 1u;

	for (i = a->items[0].next; i != end; i = a->items[i].next)
		if (a->items[i].status == BUTANO_BGB_FREE &&
			fn(ud, (uint32_t)a->items[i].start * BUTANO_BGB_BLOCK_BYTES,
				(uint32_t)a->items[i].blocks * BUTANO_BGB_BLOCK_BYTES))
			return;
}

/* Butano's static_data for max_items (in EWRAM): items of 28 bytes (the
 * data pointer, usages, three optional handles, sizes and flags) plus the
 * list head, the spare indices, the two commit arrays, 32 overwrite-tile
 * records of 8 bytes and the counters. An estimate of its layout. */
static uint64_t bgb_ram(void *st)
{
	uint64_t max = ((const state *)st)->max_items;

	return (max + 1u) * 28u + max * 3u + 32u * 8u + 32u;
}

static void bgb_dump(void *st, vs_print_fn print, void *ud)
{
	static const char *const status[] = { "free", "used", "to_remove" };
	const butano_bgb *a = &((const state *)st)->a;
	unsigned i, end = a->max_items + 1u;
	char line[128];

	/* like Butano's log_status: every item in address order */
	snprintf(line, sizeof line, "Butano %u: items %u of %u, free blocks %d, to remove %d%s\n", (unsigned)a->version,
		(unsigned)(a->max_items - a->nspare), (unsigned)a->max_items, (int)a->free_blocks,
		(int)a->to_remove_blocks, a->delay_commit ? ", delay_commit" : "");
	print(ud, line);
	for (i = a->items[0].next; i != end; i = a->items[i].next) {
		const butano_bgb_item *it = &a->items[i];
		snprintf(line, sizeof line, "  #%-2u blocks %2u-%2u (%2u) %-9s %s data %u usages %u\n", i,
			(unsigned)it->start, (unsigned)(it->start + it->blocks - 1u), (unsigned)it->blocks,
			status[it->status % 3u], it->status == BUTANO_BGB_FREE ? "-    " : it->is_tiles ? "tiles" : "map  ",
			(unsigned)it->data, (unsigned)it->usages);
		print(ud, line);
	}
}

const vs_strategy vs_strat_butano_bg_blocks = {
	.abi = VS_STRATEGY_ABI,
	.name = "butano-bg-blocks",
	.summary = "Butano's BG blocks manager: 2 KiB blocks for tile sets and maps, exact or smallest fit in address "
		"order, charblock padding, released data waits for the frame and is shared by tag",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_BG),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(state),
	.init = bgb_init,
	.alloc = bgb_alloc,
	.free = bgb_free,
	.reset = bgb_reset,
	.walk_free = bgb_walk,
	.dump = bgb_dump,
	.ram = bgb_ram,
	.frame = bgb_frame,
	.released = bgb_released
};
