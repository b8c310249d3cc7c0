/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_buddy.c - strategy adapter for the binary buddy over OBJ tiles. */
#include "vramsim/alloc/gba_obj_buddy.h"
#include "strategies/strategies.h"
#include "strat_gba.h"
#include "base/options.h"

static int buddy_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_buddy_init(st, (uint16_t)vs_gba_obj_first_tile(a));
	return 0;
}

static int buddy_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	unsigned n, align;
	int rc = vs_gba_obj_tiles(rq, &n, &align), order;
	uint16_t t;

	if (rc != VS_OK)
		return rc;
	order = gba_obj_buddy_order((uint16_t)n, (uint16_t)align);
	if (order < 0)
		return VS_ERR_NOSPACE;
	t = gba_obj_buddy_alloc(st, (unsigned)order);
	if (t == GBA_OBJ_BUDDY_NONE)
		return VS_ERR_NOSPACE;
	/* The block is 2^order tiles; what lies past the request is slack. */
	vs_placement_simple(out, t * VS_GBA_TILE_BYTES, (1u << order) * VS_GBA_TILE_BYTES, t);
	return VS_OK;
}

static int buddy_free(void *st, const vs_placement *pl)
{
	if (pl->key >= GBA_OBJ_BUDDY_TILES)
		return VS_ERR_INVALID;
	return gba_obj_buddy_free(st, (uint16_t)pl->key) < 0 ? VS_ERR_INVALID : VS_OK;
}

static void buddy_reset(void *st)
{
	gba_obj_buddy *b = st;

	gba_obj_buddy_init(b, b->first);
}

static void buddy_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_buddy *b = st;
	unsigned k;
	uint32_t t;

	for (k = 0; k < GBA_OBJ_BUDDY_ORDERS; k++)
		for (t = 0; t < GBA_OBJ_BUDDY_TILES; t += 1u << k)
			if (gba_obj_buddy_is_free(b, k, (uint16_t)t) &&
				fn(ud, t * VS_GBA_TILE_BYTES, (1u << k) * VS_GBA_TILE_BYTES))
				return;
}

static void buddy_dump(void *st, vs_print_fn print, void *ud)
{
	const gba_obj_buddy *b = st;
	char line[96];
	unsigned k;
	uint32_t t;
	int n;

	/* The free blocks of each order, by first tile. */
	for (k = 0; k < GBA_OBJ_BUDDY_ORDERS; k++) {
		n = snprintf(line, sizeof line, "order %2u (%4u tiles):", k, 1u << k);
		for (t = 0; t < GBA_OBJ_BUDDY_TILES; t += 1u << k) {
			if (!gba_obj_buddy_is_free(b, k, (uint16_t)t))
				continue;
			if (n > (int)sizeof line - 8) {
				print(ud, line);
				print(ud, "\n");
				n = snprintf(line, sizeof line, "                    ");
			}
			n += snprintf(line + n, sizeof line - (size_t)n, " %u", (unsigned)t);
		}
		print(ud, line);
		print(ud, "\n");
	}
}

const vs_strategy vs_strat_gba_obj_buddy = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-buddy",
	.summary = "binary buddy over 1024 tiles (gba-modern): power-of-two blocks aligned to their size",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(gba_obj_buddy),
	.init = buddy_init,
	.alloc = buddy_alloc,
	.free = buddy_free,
	.reset = buddy_reset,
	.walk_free = buddy_walk,
	.dump = buddy_dump
};
