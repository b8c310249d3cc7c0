/* SPDX-License-Identifier: Zlib */
/* nns_lnk_pltt.c - the NNS_Gfd linked-list palette VRAM manager.
 *
 * One free list. Palettes align to 16 bytes, 4-colour palettes to 8; the
 * padding becomes a free block of its own. A 4-colour palette that the
 * first-fit walk places past 0x10000 is freed again and the call fails:
 * no other block is tried (that is what the real manager does).
 */
#include "vramsim/alloc/nns_gfd_impl.h"

#define FOUR_LIMIT 0x10000u

bool nns_lnk_pltt_init(nns_gfd_ctx *g, uint32_t sz_byte,
	uint16_t first_blk, uint16_t num_blk, bool use_as_default)
{
	if (sz_byte > 0x18000u)
		return false;
	if ((uint32_t)first_blk + num_blk > g->nblk)
		return false;
	g->lnk_pltt.size = sz_byte;
	g->lnk_pltt.l.first = first_blk;
	g->lnk_pltt.l.count = num_blk;
	nns_lnk_pltt_reset(g);
	if (use_as_default)
		g->pltt_mgr = NNS_GFD_MGR_LNK;
	return true;
}

void nns_lnk_pltt_reset(nns_gfd_ctx *g)
{
	nns_lnk_pltt *m = &g->lnk_pltt;

	nns_lnk_clear(g, &m->l);
	(void)nns_lnk_add(g, &m->l, 0, 0, m->size);
	nns_lnk_merge_all(g, &m->l, 0);
}

nns_pltt_key nns_lnk_pltt_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt)
{
	uint32_t size = nns_gfd_round_pltt_size(sz), addr = 0;

	(void)opt;
	g->last_fail = size ? (uint8_t)nns_lnk_alloc(g, &g->lnk_pltt.l, 0, size, is4pltt ? 8u : 16u, &addr)
		: NNS_GFD_FAIL_SPACE;
	if (g->last_fail)
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	if (is4pltt && addr + size > FOUR_LIMIT) {
		(void)nns_lnk_free(g, &g->lnk_pltt.l, 0, addr, size);
		g->last_fail = NNS_GFD_FAIL_FOUR;
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	}
	return nns_pltt_key_make(addr, size);
}

int nns_lnk_pltt_free(nns_gfd_ctx *g, nns_pltt_key key)
{
	if (nns_lnk_free(g, &g->lnk_pltt.l, 0, nns_pltt_key_addr(key), nns_pltt_key_size(key))) {
		g->last_fail = NNS_GFD_FAIL_NONE;
		return 0;
	}
	g->last_fail = NNS_GFD_FAIL_BLOCKS;
	return 1;
}

void nns_lnk_pltt_dump_ex(const nns_gfd_ctx *g, nns_lnk_block_fn fn, void *ud)
{
	nns_lnk_walk(g, &g->lnk_pltt.l, 0, fn, ud);
}

void nns_lnk_pltt_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud)
{
	uint32_t free_sum = 0;

	print(ud, "linked-list palette VRAM manager\n");
	nns_lnk_dump_blocks(g, &g->lnk_pltt.l, 0, "free blocks:\n", print, ud, &free_sum);
	nns_lnk_dump_usage(free_sum, g->lnk_pltt.size, print, ud);
}
