/* SPDX-License-Identifier: Zlib */
/* nns_lnk_tex.c - the NNS_Gfd linked-list texture VRAM manager.
 *
 * Two free lists (normal textures, 4x4 texel data) share one pool of
 * management blocks. The 4x4 index data is not allocated per texture: reset
 * sets aside a fixed table at the start of slot 1 covering all 4x4 texel
 * space, matching where the hardware looks for it.
 */
#include "vramsim/alloc/nns_gfd_impl.h"

#define SLOT 0x20000u
#define LIST_NORMAL 0
#define LIST_4X4 1

static bool params_valid(uint32_t sz, uint32_t sz4x4)
{
	if (sz4x4 > 0x40000u)
		return false;
	if (sz4x4 == 0)
		return sz <= 0x80000u;
	if (sz4x4 <= SLOT)
		return sz >= SLOT + sz4x4 / 2;
	return sz >= sz4x4 + SLOT;
}

bool nns_lnk_tex_init(nns_gfd_ctx *g, uint32_t sz_byte, uint32_t sz_byte_4x4,
	uint16_t first_blk, uint16_t num_blk, bool use_as_default)
{
	if (!params_valid(sz_byte, sz_byte_4x4))
		return false;
	if ((uint32_t)first_blk + num_blk > g->nblk)
		return false;
	g->lnk_tex.size = sz_byte;
	g->lnk_tex.size4x4 = sz_byte_4x4;
	g->lnk_tex.l.first = first_blk;
	g->lnk_tex.l.count = num_blk;
	nns_lnk_tex_reset(g);
	if (use_as_default)
		g->tex_mgr = NNS_GFD_MGR_LNK;
	return true;
}

static uint32_t take(uint32_t *want, uint32_t avail)
{
	uint32_t n = *want < avail ? *want : avail;

	*want -= n;
	return n;
}

static void add(nns_gfd_ctx *g, int list, uint32_t addr, uint32_t size)
{
	/* Zero sizes are skipped. With too few blocks for the layout the rest
	 * of the space is simply not managed. */
	if (size)
		(void)nns_lnk_add(g, &g->lnk_tex.l, list, addr, size);
}

void nns_lnk_tex_reset(nns_gfd_ctx *g)
{
	nns_lnk_tex *m = &g->lnk_tex;
	uint32_t want4 = m->size4x4, idx = m->size4x4 / 2, normal, t0, t2, n0, n1, n2, n3;

	nns_lnk_clear(g, &m->l);
	/* 1. 4x4 texel space from slot 0, then slot 2. */
	t0 = take(&want4, SLOT);
	t2 = take(&want4, SLOT);
	/* 2. the index table takes the first idx bytes of slot 1.
	 * 3. normal space from what is left of slots 0, 1, 2, 3. */
	normal = m->size - m->size4x4 - idx;
	n0 = take(&normal, SLOT - t0);
	n1 = take(&normal, SLOT - idx);
	n2 = take(&normal, SLOT - t2);
	n3 = take(&normal, SLOT);
	/* 4. free regions, each at the head of its list. */
	add(g, LIST_4X4, 0, t0);
	add(g, LIST_NORMAL, t0, n0);
	add(g, LIST_4X4, 2 * SLOT, t2);
	add(g, LIST_NORMAL, 2 * SLOT + t2, n2);
	add(g, LIST_NORMAL, 3 * SLOT, n3);
	add(g, LIST_NORMAL, SLOT + idx, n1);
	nns_lnk_merge_all(g, &m->l, LIST_NORMAL);
	nns_lnk_merge_all(g, &m->l, LIST_4X4);
}

nns_tex_key nns_lnk_tex_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt)
{
	uint32_t size = nns_gfd_round_tex_size(sz), addr = 0;

	(void)opt;
	g->last_fail = size ? (uint8_t)nns_lnk_alloc(g, &g->lnk_tex.l, is4x4comp ? LIST_4X4 : LIST_NORMAL,
		size, 0, &addr) : NNS_GFD_FAIL_SPACE;
	if (g->last_fail)
		return NNS_GFD_ALLOC_ERROR_TEXKEY;
	return nns_tex_key_make(addr, size, is4x4comp);
}

int nns_lnk_tex_free(nns_gfd_ctx *g, nns_tex_key key)
{
	uint32_t size = nns_tex_key_size(key);

	g->last_fail = NNS_GFD_FAIL_NONE;
	if (size == 0)
		return 2;
	if (!nns_lnk_free(g, &g->lnk_tex.l, nns_tex_key_4x4(key) ? LIST_4X4 : LIST_NORMAL,
			nns_tex_key_addr(key), size)) {
		g->last_fail = NNS_GFD_FAIL_BLOCKS;
		return 1;
	}
	return 0;
}

void nns_lnk_tex_dump_ex(const nns_gfd_ctx *g, int which, nns_lnk_block_fn fn, void *ud)
{
	nns_lnk_walk(g, &g->lnk_tex.l, which ? LIST_4X4 : LIST_NORMAL, fn, ud);
}

void nns_lnk_tex_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud)
{
	uint32_t free_sum = 0;

	print(ud, "linked-list texture VRAM manager\n");
	nns_lnk_dump_blocks(g, &g->lnk_tex.l, LIST_NORMAL, "free blocks, normal textures:\n",
		print, ud, &free_sum);
	nns_lnk_dump_blocks(g, &g->lnk_tex.l, LIST_4X4, "free blocks, 4x4 textures:\n",
		print, ud, &free_sum);
	nns_lnk_dump_usage(free_sum, g->lnk_tex.size, print, ud);
}
