/* SPDX-License-Identifier: Zlib */
/* nns_lnk.c - the mechanism shared by the NNS_Gfd linked-list managers.
 *
 * Each management block describes one free region. Blocks not in use sit in
 * a pool (a stack, built in array order). Allocated regions are not tracked:
 * the key carries address and size. Every detail that decides which block a
 * later call finds - insertion at the head, the first-fit walk, the single
 * merge pass on free, the restart rule of merge-all - follows nns-gfd.md,
 * because games depend on the exact keys.
 */
#include "vramsim/alloc/nns_gfd_impl.h"

#define NONE NNS_LNK_NONE

static uint16_t pool_take(nns_gfd_ctx *g, nns_lnk_lists *l)
{
	uint16_t b = l->pool;

	if (b != NONE) {
		l->pool = g->blk[b].next;
		g->blk[b].next = NONE;
		g->blk[b].prev = NONE;
	}
	return b;
}

static void pool_give(nns_gfd_ctx *g, nns_lnk_lists *l, uint16_t b)
{
	g->blk[b].prev = NONE;
	g->blk[b].next = l->pool;
	l->pool = b;
}

static void list_push_head(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint16_t b)
{
	uint16_t h = l->free[list];

	g->blk[b].prev = NONE;
	g->blk[b].next = h;
	if (h != NONE)
		g->blk[h].prev = b;
	l->free[list] = b;
}

static void list_unlink(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint16_t b)
{
	uint16_t p = g->blk[b].prev, n = g->blk[b].next;

	if (p != NONE)
		g->blk[p].next = n;
	else
		l->free[list] = n;
	if (n != NONE)
		g->blk[n].prev = p;
}

void nns_lnk_clear(nns_gfd_ctx *g, nns_lnk_lists *l)
{
	uint32_t i;

	l->free[0] = l->free[1] = NONE;
	l->pool = l->count ? l->first : NONE;
	for (i = 0; i < l->count; i++) {
		uint16_t b = (uint16_t)(l->first + i);
		g->blk[b].addr = 0;
		g->blk[b].size = 0;
		g->blk[b].prev = NONE;
		g->blk[b].next = i + 1 < l->count ? (uint16_t)(b + 1) : NONE;
	}
}

bool nns_lnk_add(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t addr, uint32_t size)
{
	uint16_t b = pool_take(g, l);

	if (b == NONE)
		return false;
	g->blk[b].addr = addr;
	g->blk[b].size = size;
	list_push_head(g, l, list, b);
	return true;
}

int nns_lnk_alloc(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t size, uint32_t align,
	uint32_t *addr)
{
	uint16_t b;

	for (b = l->free[list]; b != NONE; b = g->blk[b].next) {
		nns_lnk_blk *k = &g->blk[b];
		uint32_t pad = align > 1 ? (align - k->addr % align) % align : 0;

		if (k->size < size || k->size - size < pad)
			continue;
		/* The padding in front becomes a free block of its own; without a
		 * pool block to describe it the call fails, free memory or not. */
		if (pad && !nns_lnk_add(g, l, list, k->addr, pad))
			return NNS_GFD_FAIL_BLOCKS;
		*addr = k->addr + pad;
		k->addr += size + pad;
		k->size -= size + pad;
		if (k->size == 0) {
			list_unlink(g, l, list, b);
			pool_give(g, l, b);
		}
		return NNS_GFD_FAIL_NONE;
	}
	return NNS_GFD_FAIL_SPACE;
}

/* One pass over the list from its head, growing [*start, *end) by every
 * block that touches it at the moment it is visited; those blocks go back
 * to the pool. skip is the merge-all cursor (never merged with itself). */
static bool merge_pass(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t *start, uint32_t *end,
	uint16_t skip)
{
	uint16_t b = l->free[list], next;
	bool merged = false;

	for (; b != NONE; b = next) {
		nns_lnk_blk *k = &g->blk[b];

		next = k->next;
		if (b == skip)
			continue;
		/* else-if: for non-empty regions both tests can never hold for
		 * one block; for two empty ones (the palette manager's freed error
		 * key) the real code would give the block to the pool twice. */
		if (k->addr == *end) {
			*end = k->addr + k->size;
			list_unlink(g, l, list, b);
			pool_give(g, l, b);
			merged = true;
		} else if (k->addr + k->size == *start) {
			*start = k->addr;
			list_unlink(g, l, list, b);
			pool_give(g, l, b);
			merged = true;
		}
	}
	return merged;
}

bool nns_lnk_free(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t addr, uint32_t size)
{
	uint32_t start = addr, end = addr + size;

	merge_pass(g, l, list, &start, &end, NONE);
	return nns_lnk_add(g, l, list, start, end - start);
}

void nns_lnk_merge_all(nns_gfd_ctx *g, nns_lnk_lists *l, int list)
{
	uint16_t c = l->free[list];

	while (c != NONE) {
		uint32_t start = g->blk[c].addr, end = start + g->blk[c].size;

		if (merge_pass(g, l, list, &start, &end, c)) {
			g->blk[c].addr = start;
			g->blk[c].size = end - start;
			c = l->free[list];
		} else {
			c = g->blk[c].next;
		}
	}
}

uint32_t nns_lnk_walk(const nns_gfd_ctx *g, const nns_lnk_lists *l, int list,
	nns_lnk_block_fn fn, void *ud)
{
	uint32_t sum = 0;
	uint16_t b;

	for (b = l->free[list]; b != NONE; b = g->blk[b].next) {
		if (fn)
			fn(ud, g->blk[b].addr, g->blk[b].size);
		sum += g->blk[b].size;
	}
	return sum;
}
