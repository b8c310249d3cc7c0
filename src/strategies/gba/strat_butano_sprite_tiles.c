/* SPDX-License-Identifier: Zlib */
/* strat_butano_sprite_tiles.c - strategy adapter for Butano's sprite tiles
 * manager (src/alloc/butano_sprite_tiles.c; docs/butano.md).
 *
 * A request is a create of graphics named by its tag (the same tag and
 * tile count: the same graphics, handed out again while used or waiting),
 * or, with graphics=raw, an allocate. The last release of graphics makes
 * them wait: free answers VS_RETAINED, and the tiles come back, through
 * released(), at the next frame's update or when a create flushes every
 * waiting item. */
#include <string.h>

#include "strategies/strategies.h"
#include "strat_butano.h"
#include "strat_gba.h"
#include "base/options.h"

enum { GRAPHICS_TAG = VS_BUTANO_GRAPHICS_TAG, GRAPHICS_EACH = VS_BUTANO_GRAPHICS_EACH,
	GRAPHICS_RAW = VS_BUTANO_GRAPHICS_RAW };

typedef vs_butano_st_state state;

/* A bitmap BG (Butano 21 on) takes tiles 0-511 before any sprite, as
 * bn::bgs_manager::create does for a bitmap BG (allocate_first_half). */
static void start(state *s)
{
	butano_st_init(&s->a, s->version, s->max_items);
	if (s->bitmap)
		(void)butano_st_allocate_first_half(&s->a);
}

static int power_of_two(uint32_t v)
{
	return v && !(v & (v - 1u));
}

static int bst_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "version", "items", "graphics", "compressed", NULL };
	state *s = st;
	uint32_t version = BUTANO_ST_VERSION_NEWEST, items = BUTANO_ST_ITEMS_DEFAULT, compressed = 0;
	char g[16];

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "version", BUTANO_ST_VERSION_OLDEST, BUTANO_ST_VERSION_NEWEST, &version, err,
			errlen) < 0 ||
		vs_option_u32(options, "items", 1, BUTANO_ST_ITEMS_MAX, &items, err, errlen) < 0 ||
		vs_option_u32(options, "compressed", 0, 1, &compressed, err, errlen) < 0)
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
	/* before 21.3.0 (b6bdb1da) a static_assert wants a power of two */
	if (version < 21 && !power_of_two(items)) {
		snprintf(err, errlen, "items=%u: Butano %u takes a power of two (BN_CFG_SPRITE_TILES_MAX_ITEMS)",
			(unsigned)items, (unsigned)version);
		return -1;
	}
	s->bitmap = a->gba_mode >= 3;
	if (s->bitmap && version < 21) {
		snprintf(err, errlen, "Butano %u has no bitmap BGs (they came in 21.0.0); arena '%s' is in mode %u",
			(unsigned)version, a->name, (unsigned)a->gba_mode);
		return -1;
	}
	s->version = (uint8_t)version;
	s->max_items = (uint16_t)items;
	s->compressed = (uint8_t)compressed;
	start(s);
	return 0;
}

/* Tiles a request takes: Butano's sprite_tiles_item::valid_tiles_count
 * (bn_sprite_tiles_item.h) allows 1-64 4bpp tiles and 2-128 in 8bpp, powers
 * of two; anything else stops the game at an assert. */
static int tiles_of(const vs_request *rq, uint16_t *n)
{
	uint32_t t = (rq->size + VS_GBA_TILE_BYTES - 1u) / VS_GBA_TILE_BYTES;
	int bpp8 = rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8;

	if (!power_of_two(t) || t > (bpp8 || rq->shape != VS_REQ_SPRITE ? 128u : 64u) || (bpp8 && t < 2u))
		return VS_ERR_INVALID;
	*n = (uint16_t)t;
	return VS_OK;
}

static int bst_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	state *s = st;
	uint16_t n = 0;
	int found = 0, id, rc = tiles_of(rq, &n);

	s->a.nreleased = 0;
	s->found = 0;
	if (rc != VS_OK)
		return rc;
	if (rq->align > VS_GBA_TILE_BYTES)
		return VS_ERR_UNSUPPORTED; /* Butano places by size alone */
	/* graphics=tag: the tag is the graphics, and a request without one has
	 * none, as Butano's text sprites (sprite_tiles_ptr::allocate) */
	if (s->graphics == GRAPHICS_RAW || (s->graphics == GRAPHICS_TAG && !rq->tag))
		id = butano_st_allocate(&s->a, n);
	else
		id = butano_st_create(&s->a, s->graphics == GRAPHICS_TAG ? rq->tag : 0u, n, s->compressed, &found);
	if (id == BUTANO_ST_NO_ITEMS)
		return VS_ERR_MANAGEMENT;
	if (id < 0)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)s->a.items[id].start * VS_GBA_TILE_BYTES, n * VS_GBA_TILE_BYTES,
		(uint32_t)id);
	out->shared = (uint8_t)found;
	s->found = (uint8_t)found;
	return VS_OK;
}

static int bst_free(void *st, const vs_placement *pl)
{
	state *s = st;
	int left = pl->key <= BUTANO_ST_ITEMS_MAX ? butano_st_decrease_usages(&s->a, (int)pl->key) : BUTANO_ST_BAD;

	if (left < 0)
		return VS_ERR_INVALID;
	return left ? VS_OK : VS_RETAINED;
}

static void bst_reset(void *st)
{
	start(st);
}

static void bst_frame(void *st)
{
	butano_st_update(&((state *)st)->a);
}

static size_t bst_released(void *st, uint32_t *out, size_t max)
{
	const butano_st *a = &((const state *)st)->a;
	size_t i;

	for (i = 0; i < a->nreleased && i < max; i++)
		out[i] = (uint32_t)a->released[i] * VS_GBA_TILE_BYTES;
	return a->nreleased;
}

static void bst_walk(void *st, vs_extent_fn fn, void *ud)
{
	const butano_st *a = &((const state *)st)->a;
	uint16_t i, tail = (uint16_t)(a->max_items + 1u);

	for (i = a->items[0].next; i != tail; i = a->items[i].next)
		if (a->items[i].status == BUTANO_ST_FREE &&
			fn(ud, (uint32_t)a->items[i].start * VS_GBA_TILE_BYTES, (uint32_t)a->items[i].count * VS_GBA_TILE_BYTES))
			return;
}

/* What Butano's own books take for max_items (its static_data in EWRAM):
 * items of 20 bytes plus the two list ends, the spare indices, the sorted
 * free and waiting arrays, the two commit arrays (2 bytes an item each)
 * and a map of graphics of at least twice max_items entries of 8 bytes
 * and a flag. An estimate to the byte of its layout, not a sizeof. */
static uint64_t bst_ram(void *st)
{
	uint64_t max = ((const state *)st)->max_items, map = 2;

	while (map < 2u * max)
		map *= 2u;
	return (max + 2u) * 20u + max * 2u * 5u + map * 9u + 32u;
}

static void bst_dump(void *st, vs_print_fn print, void *ud)
{
	static const char *const status[] = { "free", "used", "to_remove" };
	const butano_st *a = &((const state *)st)->a;
	uint16_t i, tail = (uint16_t)(a->max_items + 1u);
	char line[120];

	/* Like Butano's log_status: every item in address order. */
	snprintf(line, sizeof line, "Butano %u: items %u of %u, free tiles %u, to remove %u%s\n", (unsigned)a->version,
		(unsigned)(a->max_items - a->nspare), (unsigned)a->max_items, (unsigned)a->free_tiles,
		(unsigned)a->to_remove_tiles, a->delay_commit ? ", delay_commit" : "");
	print(ud, line);
	for (i = a->items[0].next; i != tail; i = a->items[i].next) {
		snprintf(line, sizeof line, "  #%-4u tiles %4u-%4u (%4u) %-9s data %u usages %u\n", (unsigned)i,
			(unsigned)a->items[i].start, (unsigned)(a->items[i].start + a->items[i].count - 1u),
			(unsigned)a->items[i].count, status[a->items[i].status % 3u], (unsigned)a->items[i].data,
			(unsigned)a->items[i].usages);
		print(ud, line);
	}
}

const vs_strategy vs_strat_butano_sprite_tiles = {
	.abi = VS_STRATEGY_ABI,
	.name = "butano-sprite-tiles",
	.summary = "Butano's sprite tiles manager: best fit by size, released graphics wait for the frame and are "
		"shared by tag (version=21 end, 20 start)",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(state),
	.init = bst_init,
	.alloc = bst_alloc,
	.free = bst_free,
	.reset = bst_reset,
	.walk_free = bst_walk,
	.dump = bst_dump,
	.ram = bst_ram,
	.frame = bst_frame,
	.released = bst_released
};
