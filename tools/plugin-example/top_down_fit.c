/* SPDX-License-Identifier: Zlib */
/* top_down_fit.c - an example vramsim plug-in (docs/strategy-api.md).
 *
 * A strategy from outside the tree: first fit over GBA OBJ tiles searching
 * from the top of VRAM down, as some engines place long-lived sprites high
 * so short-lived ones fragment only the low end. Build it as a shared object
 * and run `vramsim replay TRACE --plugin ./top_down_fit.so --strategy top-down-fit`.
 *
 * It depends on nothing but the public header: the simulator calls it
 * through the table it returns from vramsim_plugin_v1().
 */
#include <string.h>

#include "vramsim/strategy.h"

#define TILES 1024u

typedef struct tdf_state {
	uint8_t used[TILES]; /* 1 = taken */
	uint32_t first;      /* lowest usable tile */
} tdf_state;

static int tdf_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem,
	char *err, size_t errlen)
{
	tdf_state *s = st;

	(void)mem;
	if (options && *options) {
		/* plug-ins report bad options the same way built-ins do */
		strncpy(err, "top-down-fit takes no options", errlen);
		if (errlen)
			err[errlen - 1] = '\0';
		return -1;
	}
	memset(s, 0, sizeof *s);
	s->first = a->gba_mode >= 3 ? 512 : 0;
	memset(s->used, 1, s->first);
	return 0;
}

static int tdf_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	tdf_state *s = st;
	uint32_t n = (rq->size + 31) / 32, step, start, i;

	if (n == 0 || n > TILES)
		return VS_ERR_NOSPACE;
	/* 8bpp sprites start on even tiles (1D mapping) */
	step = rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8 ? 2 : 1;
	for (start = (TILES - n) / step * step + step; start >= s->first + step;) {
		start -= step;
		for (i = 0; i < n && !s->used[start + i]; i++)
			;
		if (i == n) {
			memset(s->used + start, 1, n);
			out->offset = out->block_offset = start * 32;
			out->granted = out->block_size = n * 32;
			out->key = start;
			out->shared = 0;
			return VS_OK;
		}
	}
	return VS_ERR_NOSPACE;
}

static int tdf_free(void *st, const vs_placement *pl)
{
	tdf_state *s = st;
	uint32_t start = pl->offset / 32, n = pl->granted / 32;

	if (start + n > TILES || n == 0)
		return VS_ERR_INVALID;
	memset(s->used + start, 0, n);
	return VS_OK;
}

static void tdf_reset(void *st)
{
	tdf_state *s = st;

	memset(s->used + s->first, 0, TILES - s->first);
}

static void tdf_walk(void *st, vs_extent_fn fn, void *ud)
{
	tdf_state *s = st;
	uint32_t i = 0, j;

	while (i < TILES) {
		if (s->used[i]) {
			i++;
			continue;
		}
		for (j = i; j < TILES && !s->used[j]; j++)
			;
		if (fn(ud, i * 32, (j - i) * 32))
			return;
		i = j;
	}
}

static const vs_strategy top_down_fit = {
	.abi = VS_STRATEGY_ABI,
	.name = "top-down-fit",
	.summary = "example plug-in: first fit over OBJ tiles, searching from the top of VRAM down",
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ),
	/* its books are all in its state: it never needs the arena's bytes, so
	 * the replay checks its placements by ownership alone */
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(tdf_state),
	.init = tdf_init,
	.alloc = tdf_alloc,
	.free = tdf_free,
	.reset = tdf_reset,
	.walk_free = tdf_walk
};

static const vs_strategy *const table[] = { &top_down_fit };

static const vs_plugin plugin = {
	.abi = VS_STRATEGY_ABI,
	.name = "top-down-fit example",
	.count = sizeof table / sizeof table[0],
	.strategies = table
};

/* The versioned entry point vramsim looks up with dlsym. */
const vs_plugin *vramsim_plugin_v1(void);
const vs_plugin *vramsim_plugin_v1(void)
{
	return &plugin;
}
