/* SPDX-License-Identifier: Zlib */
/* strat_gba_obj_map.c - strategy adapter for the allocation map of the
 * article 'Gameboy Advance Resource Management'. */
#include <stdio.h>
#include <string.h>

#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/strategy.h"
#include "strategies/strategies.h"
#include "base/options.h"

static int objmap_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	gba_obj_map_init(st, vs_gba_obj_first_tile(a));
	return 0;
}

static int objmap_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	uint32_t n = (rq->size + GBA_OBJ_MAP_BLOCK_BYTES - 1) / GBA_OBJ_MAP_BLOCK_BYTES;
	uint16_t b;

	if (n == 0 || n > GBA_OBJ_MAP_BLOCKS)
		return VS_ERR_NOSPACE;
	/* the map aligns a run to its own length in blocks, nothing more */
	if (rq->align > GBA_OBJ_MAP_BLOCK_BYTES * (n & (0u - n)))
		return VS_ERR_UNSUPPORTED;
	b = gba_obj_map_alloc(st, (uint16_t)n);
	if (b == GBA_OBJ_MAP_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, (uint32_t)b * GBA_OBJ_MAP_BLOCK_BYTES, n * GBA_OBJ_MAP_BLOCK_BYTES, b);
	return VS_OK;
}

static int objmap_free(void *st, const vs_placement *pl)
{
	return gba_obj_map_free(st, (uint16_t)pl->key) ? VS_OK : VS_ERR_INVALID;
}

static void objmap_reset(void *st)
{
	gba_obj_map *m = st;

	gba_obj_map_init(m, m->first);
}

static void objmap_walk(void *st, vs_extent_fn fn, void *ud)
{
	const gba_obj_map *m = st;
	uint32_t i = 0, j;

	while (i < GBA_OBJ_MAP_BLOCKS) {
		if (m->map[i] != GBA_OBJ_UNUSED) {
			i++;
			continue;
		}
		for (j = i; j < GBA_OBJ_MAP_BLOCKS && m->map[j] == GBA_OBJ_UNUSED; j++)
			;
		if (fn(ud, i * GBA_OBJ_MAP_BLOCK_BYTES, (j - i) * GBA_OBJ_MAP_BLOCK_BYTES))
			return;
		i = j;
	}
}

static void objmap_dump(void *st, vs_print_fn print, void *ud)
{
	static const char sym[] = ".UC#";
	const gba_obj_map *m = st;
	char line[64];
	uint32_t row, col;

	/* The map as the 32x32 tile matrix: . unused, U used, C continue, # reserved. */
	for (row = 0; row < 32; row++) {
		int n = snprintf(line, sizeof line, "%4u ", (unsigned)(row * 32));
		for (col = 0; col < 32; col++)
			line[n + col] = sym[m->map[row * 32 + col] & 3];
		line[n + 32] = '\n';
		line[n + 33] = '\0';
		print(ud, line);
	}
}

const vs_strategy vs_strat_gba_obj_map = {
	.abi = VS_STRATEGY_ABI,
	.name = "gba-obj-map",
	.summary = "allocation map from 'Gameboy Advance Resource Management': UNUSED/USED/CONTINUE per tile, "
		"size-aligned",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(gba_obj_map),
	.init = objmap_init,
	.alloc = objmap_alloc,
	.free = objmap_free,
	.reset = objmap_reset,
	.walk_free = objmap_walk,
	.dump = objmap_dump
};
