/* SPDX-License-Identifier: Zlib */
/* libnds_vram_block.c - libnds videoGL's vramBlock_* allocator, placement
 * for placement (libnds_vram_block.h). Comments name the libnds function
 * each part follows; "dkp:N" is a line of devkitPro's source/arm9/videoGL.c
 * at 6194b32, where BlocksDS (716fecd) does the same. */
#include "vramsim/alloc/libnds_vram_block.h"

#define NIL LIBNDS_VB_NIL
#define DYN_INITIAL 16u /* DynamicArrayInit(&..., 16) */

static uint32_t end_of(const libnds_vb_node *n)
{
	return n->addr + n->size;
}

/* DynamicArraySet grows to max(2 * cur_size, index + 1): only the size is
 * kept, for the RAM figure. */
static void dyn_touch(uint32_t *cur, uint32_t index)
{
	if (index >= *cur)
		*cur = *cur * 2 > index ? *cur * 2 : index + 1;
}

static uint16_t node_take(libnds_vram_block *mb)
{
	uint16_t i = mb->unused;
	libnds_vb_node *n = &mb->node[i];

	mb->unused = n->pool;
	n->addr = n->size = 0;
	n->index = 0;
	n->link[0] = n->link[1] = n->link[2] = n->link[3] = NIL;
	mb->nodes_live++;
	return i;
}

static void node_give(libnds_vram_block *mb, uint16_t i)
{
	mb->node[i].pool = mb->unused;
	mb->unused = i;
	mb->nodes_live--;
}

static unsigned nodes_spare(const libnds_vram_block *mb)
{
	return (unsigned)mb->cap - mb->nodes_live;
}

/* vramBlock_init (dkp:61): one free block over the whole space. */
static void vb_setup(libnds_vram_block *mb)
{
	uint16_t i, first;

	for (i = 0; i < mb->cap; i++) {
		mb->node[i].pool = (uint16_t)(i + 1u < mb->cap ? i + 1u : NIL);
		mb->node[i].ptr = NIL;
		mb->node[i].stack = 0;
	}
	mb->unused = 0;
	mb->nodes_live = 0;
	first = node_take(mb);
	mb->node[first].addr = mb->start;
	mb->node[first].size = mb->end - mb->start;
	mb->first_block = mb->first_empty = first;
	/* firstAlloc is never set by vramBlock_init (garbage until the first
	 * allocation, stale after deallocateAll); nothing reads it. */
	mb->first_alloc = NIL;
	mb->block_count = 1;
	mb->dealloc_count = 0;
	mb->last_examined = NIL;
	mb->last_addr = mb->last_size = 0;
	mb->ptrs_cur = mb->stack_cur = DYN_INITIAL;
	mb->fail = LIBNDS_VB_FAIL_NONE;
}

void libnds_vram_block_init(libnds_vram_block *mb, uint16_t nodes, uint32_t start, uint32_t end, int fixed)
{
	/* vramBlock_Construct swaps the bounds when given backwards. */
	mb->start = start < end ? start : end;
	mb->end = start < end ? end : start;
	mb->cap = nodes < 2 ? 2 : nodes > NIL - 1 ? NIL - 1 : nodes;
	mb->fixed = fixed ? 1 : 0;
	vb_setup(mb);
}

void libnds_vram_block_deallocate_all(libnds_vram_block *mb)
{
	vb_setup(mb);
}

/* ---- examine -------------------------------------------------------- */

typedef struct banks {
	uint32_t at[5], len[5]; /* bankLock[] / bankSize[]: 0-ended, ascending */
} banks;

/* The banks a search steps over (dkp:294-319): those not enabled with
 * MST 3 or locked. Which set (A-D or E-G) depends on where the search
 * starts, not on which allocator runs it. */
static void unusable_banks(const libnds_vb_regs *regs, uint32_t at, banks *b)
{
	unsigned pal = at >= LIBNDS_VRAM_E, i, n = 0, count = pal ? 3 : 4;

	for (i = 0; i < 5; i++)
		b->at[i] = b->len[i] = 0;
	for (i = 0; i < count; i++) {
		uint8_t cr = regs->vramcnt[(pal ? 4 : 0) + i];
		if ((cr & 0x83u) == 0x83u && !((regs->lock[pal] >> i) & 1u))
			continue;
		if (pal) {
			b->at[n] = i == 0 ? LIBNDS_VRAM_E : LIBNDS_VRAM_F + (i - 1) * 0x4000u;
			b->len[n] = i == 0 ? 0x10000u : 0x4000u;
		} else {
			b->at[n] = LIBNDS_VRAM_A + i * 0x20000u;
			b->len[n] = 0x20000u;
		}
		n++;
	}
}

/* First free block, from b on, that ends after at. */
static uint16_t block_reaching(const libnds_vram_block *mb, uint16_t b, uint32_t at)
{
	while (b != NIL && at >= end_of(&mb->node[b]))
		b = mb->node[b].link[3];
	return b;
}

static uint32_t remember(libnds_vram_block *mb, uint16_t b, uint32_t addr, uint32_t size)
{
	mb->last_examined = b;
	mb->last_addr = addr;
	mb->last_size = size;
	return addr;
}

/* The search as libnds runs it (dkp:321-370), its unsigned arithmetic
 * kept: room is a u32 that wraps when padding exceeds it or when the
 * address has been carried past the bank it is measured against. */
static uint32_t examine_real(libnds_vram_block *mb, const banks *bk, uint16_t b, uint32_t at, uint32_t size,
	unsigned align)
{
	unsigned cur = 0;
	uint32_t mask = (1u << align) - 1u, room = end_of(&mb->node[b]) - at;

	do {
		if (bk->at[cur]) {
			while (bk->at[cur] && at >= bk->at[cur] + bk->len[cur])
				cur++;
			/* out of a locked bank, and of any locked bank right after it */
			while (bk->at[cur] && at >= bk->at[cur] && at < bk->at[cur] + bk->len[cur]) {
				at = bk->at[cur] + bk->len[cur];
				cur++;
			}
			b = block_reaching(mb, b, at);
			if (b == NIL)
				return 0;
			if (at < mb->node[b].addr)
				at = mb->node[b].addr; /* no second look at the banks: dkp:340 */
			if (bk->at[cur] && bk->at[cur] < end_of(&mb->node[b]))
				room = bk->at[cur] - at; /* wraps when at is past bk->at[cur]: dkp:344 */
			else
				room = end_of(&mb->node[b]) - at;
		}
		{
			uint32_t aligned = (at + mask) & ~mask;
			room -= aligned - at; /* wraps when the padding exceeds room: dkp:352 */
			if (room >= size)
				return remember(mb, b, aligned, size);
		}
		if (bk->at[cur] && bk->at[cur] < end_of(&mb->node[b])) {
			at = bk->at[cur] + bk->len[cur];
			room = 0;
		} else {
			b = mb->node[b].link[3];
			if (b == NIL)
				return 0;
			at = mb->node[b].addr;
			room = mb->node[b].size;
		}
	} while (b != NIL);
	return 0;
}

/* fixed: the first aligned address at or after at whose size bytes lie in
 * one free block and in no bank the search must step over. */
static uint32_t examine_fixed(libnds_vram_block *mb, const banks *bk, uint16_t b, uint32_t at, uint32_t size,
	unsigned align)
{
	uint32_t mask = (1u << align) - 1u;

	for (; b != NIL; b = mb->node[b].link[3]) {
		const libnds_vb_node *n = &mb->node[b];
		uint32_t c = at > n->addr ? at : n->addr;
		for (;;) {
			uint32_t limit = end_of(n);
			unsigned k;
			int moved = 0;
			c = (c + mask) & ~mask;
			for (k = 0; bk->at[k]; k++) {
				if (c >= bk->at[k] && c < bk->at[k] + bk->len[k]) {
					c = bk->at[k] + bk->len[k];
					moved = 1;
				} else if (bk->at[k] > c && bk->at[k] < limit) {
					limit = bk->at[k];
				}
			}
			if (moved)
				continue;
			if (c >= end_of(n))
				break;
			if (limit - c >= size)
				return remember(mb, b, c, size);
			if (limit == end_of(n))
				break;
			c = limit;
		}
	}
	return 0;
}

uint32_t libnds_vram_block_examine(libnds_vram_block *mb, const libnds_vb_regs *regs, uint32_t addr,
	uint32_t size, unsigned align)
{
	uint16_t b;
	banks bk;

	mb->fail = LIBNDS_VB_FAIL_NONE;
	/* Refused before the last result is cleared: it stays (dkp:274). */
	if (!addr || mb->first_empty == NIL || !size || align >= 8)
		return 0;
	mb->last_examined = NIL;
	mb->last_addr = mb->last_size = 0;
	b = block_reaching(mb, mb->first_empty, addr);
	if (b == NIL)
		return 0;
	if (addr < mb->node[b].addr)
		addr = mb->node[b].addr;
	unusable_banks(regs, addr, &bk);
	if (mb->fixed)
		return examine_fixed(mb, &bk, b, addr, size, align);
	return examine_real(mb, &bk, b, addr, size, align);
}

/* ---- allocate ------------------------------------------------------- */

/* vramBlock__allocateBlock (dkp:126): the free block b becomes the used
 * block [addr, addr + size), with a free head before it and a free tail
 * after it where room is left. Returns b, or NIL. */
static uint16_t carve(libnds_vram_block *mb, uint16_t b, uint32_t addr, uint32_t size)
{
	libnds_vb_node *x;
	uint16_t t[4];
	int split[2], i;

	if (!size || !addr || b == NIL)
		return NIL;
	x = &mb->node[b];
	if (x->index || addr < x->addr || addr + size > end_of(x))
		return NIL;
	split[0] = addr != x->addr;
	split[1] = addr + size < end_of(x);
	/* libnds mallocs as it goes (BlocksDS gives up half-way when malloc
	 * fails); the model checks its pool first. */
	if (nodes_spare(mb) < (unsigned)(split[0] + split[1])) {
		mb->fail = LIBNDS_VB_FAIL_POOL;
		return NIL;
	}
	for (i = 0; i < 4; i++)
		t[i] = x->link[i];
	for (i = 0; i < 2; i++) {
		uint16_t nb;
		libnds_vb_node *n;
		if (!split[i])
			continue;
		nb = node_take(mb);
		n = &mb->node[nb];
		x = &mb->node[b];
		n->addr = x->addr + (uint32_t)i * size;
		if (i) {
			n->size = x->size - size;
			x->size = size;
		} else {
			n->size = addr - x->addr;
			x->addr = addr;
			x->size -= n->size;
			if (b == mb->first_block)
				mb->first_block = nb;
		}
		n->link[1 - i] = b;
		n->link[i] = t[i];
		n->link[i + 2] = t[i + 2];
		x->link[i] = nb;
		if (t[i] != NIL)
			mb->node[t[i]].link[1 - i] = nb;
		if (t[i + 2] != NIL)
			mb->node[t[i + 2]].link[3 - i] = nb;
		t[i + 2] = nb;
		if (b == mb->first_empty)
			mb->first_empty = nb;
	}
	x = &mb->node[b];
	/* the free list closes over the new used block */
	if (t[2] != NIL)
		mb->node[t[2]].link[3] = t[3];
	if (t[3] != NIL)
		mb->node[t[3]].link[2] = t[2];
	if (b == mb->first_empty)
		mb->first_empty = x->link[3]; /* NIL when this was the last free byte */
	/* the used list takes it between its neighbours by address */
	x->link[2] = t[0];
	x->link[3] = t[1];
	if (t[0] != NIL)
		mb->node[t[0]].link[3] = b;
	else
		mb->first_alloc = b;
	if (t[1] != NIL)
		mb->node[t[1]].link[2] = b;
	return b;
}

uint32_t libnds_vram_block_allocate_special(libnds_vram_block *mb, uint32_t addr, uint32_t size)
{
	uint16_t b;
	uint32_t h;

	mb->fail = LIBNDS_VB_FAIL_NONE;
	if (!addr || !size || mb->last_examined == NIL || !mb->last_addr)
		return 0;
	if (mb->last_addr != addr || mb->last_size != size)
		return 0;
	/* handles are entries of the pool's parallel arrays: the model's limit */
	if (!mb->dealloc_count && mb->block_count >= mb->cap) {
		mb->fail = LIBNDS_VB_FAIL_POOL;
		return 0;
	}
	b = carve(mb, mb->last_examined, addr, size);
	/* a failed carve keeps the examine result (dkp:381-396) */
	if (b == NIL)
		return 0;
	if (mb->dealloc_count)
		h = mb->node[mb->dealloc_count--].stack;
	else
		h = mb->block_count++;
	mb->node[h].ptr = b;
	dyn_touch(&mb->ptrs_cur, h);
	mb->last_examined = NIL;
	mb->last_addr = mb->last_size = 0;
	mb->node[b].index = (uint16_t)h;
	return h;
}

uint32_t libnds_vram_block_allocate(libnds_vram_block *mb, const libnds_vb_regs *regs, uint32_t size,
	unsigned align)
{
	uint32_t at;

	mb->fail = LIBNDS_VB_FAIL_NONE;
	if (mb->first_empty == NIL || !size || align >= 8)
		return 0;
	at = libnds_vram_block_examine(mb, regs, mb->node[mb->first_empty].addr, size, align);
	if (!at)
		return 0;
	return libnds_vram_block_allocate_special(mb, at, size);
}

/* ---- free ----------------------------------------------------------- */

/* Folds neighbour m (side i: 0 before, 1 after) into the freed block b. */
static void merge(libnds_vram_block *mb, uint16_t b, uint16_t m, int i)
{
	libnds_vb_node *x = &mb->node[b], *n = &mb->node[m];

	x->link[i] = n->link[i];
	if (x->link[i] != NIL)
		mb->node[x->link[i]].link[1 - i] = b;
	x->link[i + 2] = n->link[i + 2];
	if (x->link[i + 2] != NIL)
		mb->node[x->link[i + 2]].link[3 - i] = b;
	x->size += n->size;
	if (!i) {
		x->addr = n->addr;
		if (m == mb->first_block)
			mb->first_block = b;
	}
	if (m == mb->first_empty)
		mb->first_empty = b;
	node_give(mb, m);
}

/* vramBlock__deallocateBlock (dkp:206). */
static int release(libnds_vram_block *mb, uint16_t b)
{
	libnds_vb_node *x = &mb->node[b];
	uint16_t t[4];
	int i, was_empty = mb->first_empty == NIL;

	if (!x->index)
		return 0;
	/* t[0]/t[1]: the used neighbours; t[2]/t[3]: the nearest free blocks,
	 * found by walking over used blocks by address */
	t[0] = t[2] = x->link[2];
	t[1] = t[3] = x->link[3];
	for (i = 0; i < 2; i++) {
		if (t[i] != x->link[i])
			t[i + 2] = x->link[i];
		else
			while (t[i + 2] != NIL && mb->node[t[i + 2]].index)
				t[i + 2] = mb->node[t[i + 2]].link[i];
	}
	if (t[0] != NIL)
		mb->node[t[0]].link[3] = t[1];
	if (t[1] != NIL)
		mb->node[t[1]].link[2] = t[0];
	if (t[2] != NIL)
		mb->node[t[2]].link[3] = b;
	if (t[3] != NIL)
		mb->node[t[3]].link[2] = b;
	x->link[2] = t[2];
	x->link[3] = t[3];
	x->index = 0;
	if (b == mb->first_alloc)
		mb->first_alloc = t[1];
	for (i = 0; i < 2; i++) {
		if (t[i + 2] == NIL)
			continue;
		if (t[i + 2] == mb->node[b].link[i])
			merge(mb, b, t[i + 2], i);
		else if (i && t[i + 2] == mb->first_empty)
			mb->first_empty = b;
	}
	/* With no free block left, nothing above points firstEmpty anywhere:
	 * it stays NULL and every search fails until deallocateAll (dkp:243-266). */
	if (mb->fixed && was_empty)
		mb->first_empty = b;
	return 1;
}

int libnds_vram_block_deallocate(libnds_vram_block *mb, uint32_t index)
{
	uint16_t b;

	mb->fail = LIBNDS_VB_FAIL_NONE;
	/* DynamicArrayGet: NULL past cur_size; entry 0 is never set */
	if (index >= mb->cap)
		return 0;
	b = mb->node[index].ptr;
	if (b == NIL || !release(mb, b))
		return 0;
	mb->node[index].ptr = NIL;
	mb->dealloc_count++;
	mb->node[mb->dealloc_count].stack = (uint16_t)index;
	dyn_touch(&mb->stack_cur, mb->dealloc_count);
	return 1;
}

uint32_t libnds_vram_block_addr(const libnds_vram_block *mb, uint32_t index)
{
	if (index >= mb->cap || mb->node[index].ptr == NIL)
		return 0;
	return mb->node[mb->node[index].ptr].addr;
}

uint32_t libnds_vram_block_size(const libnds_vram_block *mb, uint32_t index)
{
	if (index >= mb->cap || mb->node[index].ptr == NIL)
		return 0;
	return mb->node[mb->node[index].ptr].size;
}

void libnds_vram_block_walk(const libnds_vram_block *mb, libnds_vb_block_fn fn, void *ud)
{
	uint16_t b;

	for (b = mb->first_block; b != NIL; b = mb->node[b].link[1])
		if (fn(ud, mb->node[b].addr, mb->node[b].size, mb->node[b].index))
			return;
}

uint32_t libnds_vram_block_ram(const libnds_vram_block *mb)
{
	return LIBNDS_VB_ARM_BLOCK + (uint32_t)mb->nodes_live * LIBNDS_VB_ARM_NODE +
		4u * (mb->ptrs_cur + mb->stack_cur);
}
