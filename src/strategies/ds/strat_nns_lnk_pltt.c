/* SPDX-License-Identifier: Zlib */
/* strat_nns_lnk_pltt.c - strategy adapter for the NNS_Gfd linked-list
 * palette VRAM manager (nns-gfd.md). Options: size=, blocks=. */
#include <stdio.h>

#include "vramsim/alloc/nns_gfd.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

#define MAX_BLOCKS 2048u

static int lnkpltt_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "size", "blocks", NULL };
	nns_gfd_ctx *g = st;
	uint32_t size = vs_ds_pltt_mapped_bytes(a), blocks = 64;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "size", 0, 0x18000u, &size, err, errlen) < 0 ||
		vs_option_u32(options, "blocks", 0, MAX_BLOCKS, &blocks, err, errlen) < 0)
		return -1;
	nns_gfd_init(g, MAX_BLOCKS);
	if (!nns_lnk_pltt_init(g, size, 0, (uint16_t)blocks, true)) {
		snprintf(err, errlen, "NNS_GfdInitLnkPlttVramManager refuses size 0x%x", (unsigned)size);
		return -1;
	}
	return 0;
}

static int lnkpltt_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	return vs_ds_nns_pltt_alloc(st, rq, out);
}

static int lnkpltt_free(void *st, const vs_placement *pl)
{
	/* A placement never carries the error key: the replay engine reports a
	 * free of a failed allocation as misuse and does not call us, so the
	 * real manager's list corruption cannot be triggered from a trace. */
	if (nns_pltt_key_size(pl->key) == 0)
		return VS_ERR_INVALID;
	return nns_gfd_free_pltt(st, pl->key) == 0 ? VS_OK : VS_ERR_LOST;
}

static void lnkpltt_reset(void *st)
{
	nns_lnk_pltt_reset(st);
}

static void lnkpltt_walk(void *st, vs_extent_fn fn, void *ud)
{
	const nns_gfd_ctx *g = st;
	uint16_t b;

	for (b = g->lnk_pltt.l.free[0]; b != NNS_LNK_NONE; b = g->blk[b].next)
		if (g->blk[b].size && fn(ud, g->blk[b].addr, g->blk[b].size))
			return;
}

static void lnkpltt_dump(void *st, vs_print_fn print, void *ud)
{
	vs_ds_print p = { print, ud };

	nns_lnk_pltt_dump(st, vs_ds_print_cb, &p);
}

/* The manager's own RAM: its list heads and the work buffer of management blocks (the ctx also holds the
 * other managers, which this strategy does not run). */
static uint64_t lnkpltt_ram(void *st)
{
	return sizeof(nns_lnk_pltt) + (uint64_t)((const nns_gfd_ctx *)st)->lnk_pltt.l.count * sizeof(nns_lnk_blk);
}

const vs_strategy vs_strat_nns_lnk_pltt = {
	.abi = VS_STRATEGY_ABI,
	.name = "nns-lnk-pltt",
	.summary = "NITRO-System linked-list palette VRAM manager: first fit, alignment padding kept as free blocks",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = NNS_GFD_CTX_BYTES(MAX_BLOCKS),
	.init = lnkpltt_init,
	.alloc = lnkpltt_alloc,
	.free = lnkpltt_free,
	.reset = lnkpltt_reset,
	.walk_free = lnkpltt_walk,
	.dump = lnkpltt_dump,
	.ram = lnkpltt_ram
};
