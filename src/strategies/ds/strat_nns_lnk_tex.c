/* SPDX-License-Identifier: Zlib */
/* strat_nns_lnk_tex.c - strategy adapter for the NNS_Gfd linked-list
 * texture VRAM manager (nns-gfd.md). Options: size= (bytes managed),
 * size4x4= (of which 4x4 texel space), blocks= (management blocks). */
#include <stdio.h>

#include "vramsim/alloc/nns_gfd.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

#define MAX_BLOCKS 2048u

static int lnktex_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "size", "size4x4", "blocks", NULL };
	nns_gfd_ctx *g = st;
	uint32_t size = vs_ds_tex_mapped_bytes(a), size4x4, blocks = 64;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "size", 0, 0x80000u, &size, err, errlen) < 0 ||
		vs_option_u32(options, "blocks", 0, MAX_BLOCKS, &blocks, err, errlen) < 0)
		return -1;
	/* By default slot 0 holds 4x4 texel data when the space allows it. */
	size4x4 = size >= 0x30000u ? 0x20000u : 0;
	if (vs_option_u32(options, "size4x4", 0, 0x40000u, &size4x4, err, errlen) < 0)
		return -1;
	nns_gfd_init(g, MAX_BLOCKS);
	if (!nns_lnk_tex_init(g, size, size4x4, 0, (uint16_t)blocks, true)) {
		snprintf(err, errlen, "NNS_GfdInitLnkTexVramManager refuses size=0x%x size4x4=0x%x (with 4x4 space "
			"size must be at least 0x20000 + size4x4/2, or size4x4 + 0x20000 past slot 0)",
			(unsigned)size, (unsigned)size4x4);
		return -1;
	}
	return 0;
}

static int lnktex_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	return vs_ds_nns_tex_alloc(st, rq, out);
}

static int lnktex_free(void *st, const vs_placement *pl)
{
	switch (nns_gfd_free_tex(st, pl->key)) {
	case 0: return VS_OK;
	case 1: return VS_ERR_LOST;   /* no management block: the region is gone until reset */
	default: return VS_ERR_INVALID;
	}
}

static void lnktex_reset(void *st)
{
	nns_lnk_tex_reset(st);
}

static void lnktex_walk(void *st, vs_extent_fn fn, void *ud)
{
	const nns_gfd_ctx *g = st;
	int list;

	for (list = 0; list < 2; list++) {
		uint16_t b;
		for (b = g->lnk_tex.l.free[list]; b != NNS_LNK_NONE; b = g->blk[b].next)
			if (g->blk[b].size && fn(ud, g->blk[b].addr, g->blk[b].size))
				return;
	}
}

static void lnktex_dump(void *st, vs_print_fn print, void *ud)
{
	vs_ds_print p = { print, ud };

	nns_lnk_tex_dump(st, vs_ds_print_cb, &p);
}

/* The manager's own RAM: its list heads and the work buffer of management blocks (the ctx also holds the
 * other managers, which this strategy does not run). */
static uint64_t lnktex_ram(void *st)
{
	return sizeof(nns_lnk_tex) + (uint64_t)((const nns_gfd_ctx *)st)->lnk_tex.l.count * sizeof(nns_lnk_blk);
}

const vs_strategy vs_strat_nns_lnk_tex = {
	.abi = VS_STRATEGY_ABI,
	.name = "nns-lnk-tex",
	.summary = "NITRO-System linked-list texture VRAM manager: first fit over free lists of management blocks",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = NNS_GFD_CTX_BYTES(MAX_BLOCKS),
	.init = lnktex_init,
	.alloc = lnktex_alloc,
	.free = lnktex_free,
	.reset = lnktex_reset,
	.walk_free = lnktex_walk,
	.dump = lnktex_dump,
	.ram = lnktex_ram
};
