/* SPDX-License-Identifier: Zlib */
/* libnds_ref.h - what the libnds videoGL suites share (test_libnds_vram_block.c,
 * test_libnds_gl.c): the usual bank registers, a check of every link of the
 * real vramBlock structure, and the reference block allocator the random
 * runs compare with. The reference shares no code with src/alloc: free space
 * is a sorted array of runs, used blocks a table by handle. */
#ifndef VS_TEST_LIBNDS_REF_H
#define VS_TEST_LIBNDS_REF_H

#include <stdint.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/libnds_gl.h"


#define QEQ(a, b) do { long long qa_ = (long long)(a), qb_ = (long long)(b); \
	if (qa_ != qb_) ck_abort_msg("line %d: %s == 0x%llx, %s == 0x%llx", __LINE__, #a, qa_, #b, qb_); } while (0)
#define QOK(c) do { if (!(c)) ck_abort_msg("line %d: %s", __LINE__, #c); } while (0)

#define A LIBNDS_VRAM_A
#define B LIBNDS_VRAM_B
#define C LIBNDS_VRAM_C
#define D LIBNDS_VRAM_D
#define E LIBNDS_VRAM_E
#define F LIBNDS_VRAM_F
#define G LIBNDS_VRAM_G
#define H LIBNDS_VRAM_H
#define NIL LIBNDS_VB_NIL
#define TEXMODE(slot) ((uint8_t)(0x83u | ((slot) << 3)))

/* ---- fixtures ---------------------------------------------------------- */

/* libnds's usual mapping: A-D at texture slots 0-3, E at palette 0, F at
 * palette slot 4, G at slot 5 (all 96 KiB of palettes). */
static inline libnds_vb_regs default_regs(void)
{
	libnds_vb_regs r;

	memset(&r, 0, sizeof r);
	r.vramcnt[0] = TEXMODE(0);
	r.vramcnt[1] = TEXMODE(1);
	r.vramcnt[2] = TEXMODE(2);
	r.vramcnt[3] = TEXMODE(3);
	r.vramcnt[4] = TEXMODE(0);
	r.vramcnt[5] = TEXMODE(2);
	r.vramcnt[6] = TEXMODE(3);
	return r;
}

/* Checks every link of the real structure: address order both ways, the
 * free and used lists both ways and in address order, no two free blocks
 * side by side, the blocks tiling [start, end), handles and their table. */
static inline void check_links(const libnds_vram_block *mb)
{
	uint16_t b, prev = NIL, prev_free = NIL, prev_used = NIL, first_free = NIL;
	uint32_t at = mb->start, nodes = 0;
	int last_free = 0;

	for (b = mb->first_block; b != NIL; b = mb->node[b].link[1]) {
		const libnds_vb_node *n = &mb->node[b];
		HOT_ASSERT(nodes++ < mb->cap, "block list loops");
		QEQ(n->link[0], prev);
		QEQ(n->addr, at);
		QOK(n->size > 0);
		at += n->size;
		if (n->index) {
			QEQ(n->link[2], prev_used);
			QEQ(mb->node[n->index].ptr, b);
			if (prev_used != NIL)
				QEQ(mb->node[prev_used].link[3], b);
			prev_used = b;
			last_free = 0;
		} else {
			HOT_ASSERT(!last_free, "free blocks side by side at 0x%x", (unsigned)n->addr);
			QEQ(n->link[2], prev_free);
			if (prev_free != NIL)
				QEQ(mb->node[prev_free].link[3], b);
			if (first_free == NIL)
				first_free = b;
			prev_free = b;
			last_free = 1;
		}
		prev = b;
	}
	QEQ(at, mb->end);
	QEQ(nodes, mb->nodes_live);
	if (prev_free != NIL)
		QEQ(mb->node[prev_free].link[3], NIL);
	if (prev_used != NIL)
		QEQ(mb->node[prev_used].link[3], NIL);
	/* firstEmpty is the lowest free block, or NULL in the stuck state */
	QOK(mb->first_empty == first_free || mb->first_empty == NIL);
}

/* ---- reference block allocator ----------------------------------------- */

#define RH 8200u
typedef struct rrun { uint32_t a, b; } rrun;
typedef struct ref_vb {
	uint32_t start, end, cap;
	rrun run[RH];
	unsigned n;
	uint32_t haddr[RH], hsize[RH];
	uint32_t count, stack[RH], sp;
	int stuck, fixed;
	uint32_t refusals; /* allocate_special refusing what examine found */
	int ex; /* an examine result is held */
	uint32_t ex_run, ex_addr, ex_size;
} ref_vb;

static inline void rv_init(ref_vb *r, uint32_t start, uint32_t end, uint32_t cap, int fixed)
{
	memset(r, 0, sizeof *r);
	r->start = start;
	r->end = end;
	r->cap = cap;
	r->fixed = fixed;
	r->run[0].a = start;
	r->run[0].b = end;
	r->n = 1;
	r->count = 1;
}

static inline void rv_reset(ref_vb *r)
{
	rv_init(r, r->start, r->end, r->cap, r->fixed);
}

typedef struct rbank { uint32_t a, b; } rbank;

/* The banks a search steps over, from the registers: A-D or E-G by where
 * the search starts. Ends with a 0 entry. */
static inline void r_banks(const libnds_vb_regs *g, uint32_t at, rbank *k)
{
	int pal = at >= E;
	unsigned i, n = 0;

	for (i = 0; i < (pal ? 3u : 4u); i++) {
		uint8_t cr = g->vramcnt[(pal ? 4 : 0) + i];
		uint32_t a = pal ? (i ? F + (i - 1) * 0x4000u : E) : A + i * 0x20000u;
		uint32_t len = pal ? (i ? 0x4000u : 0x10000u) : 0x20000u;
		if ((cr & 3u) == 3u && (cr & 0x80u) && !((g->lock[pal] >> i) & 1u))
			continue;
		k[n].a = a;
		k[n].b = a + len;
		n++;
	}
	k[n].a = k[n].b = 0;
}

static inline uint32_t up(uint32_t x, unsigned align)
{
	return (x + (1u << align) - 1u) & ~((1u << align) - 1u);
}

static inline uint32_t rv_hold(ref_vb *r, unsigned run, uint32_t addr, uint32_t size)
{
	r->ex = 1;
	r->ex_run = r->run[run].a;
	r->ex_addr = addr;
	r->ex_size = size;
	return addr;
}

/* The intended search: the lowest aligned address from at whose bytes lie
 * in one free run, clear of every bank to step over. */
static inline uint32_t rv_examine_fixed(ref_vb *r, const rbank *k, unsigned i, uint32_t at, uint32_t size,
	unsigned align)
{
	for (; i < r->n; i++) {
		/* the run's pieces between the banks to step over */
		uint32_t a = r->run[i].a > at ? r->run[i].a : at;
		while (a < r->run[i].b) {
			uint32_t b = r->run[i].b, c;
			unsigned j;
			int inside = 0;
			for (j = 0; k[j].a; j++) {
				if (a >= k[j].a && a < k[j].b) {
					a = k[j].b;
					inside = 1;
				} else if (k[j].a > a && k[j].a < b) {
					b = k[j].a;
				}
			}
			if (inside)
				continue;
			c = up(a, align);
			if (c < b && b - c >= size)
				return rv_hold(r, i, c, size);
			if (b >= r->run[i].b)
				break;
			a = b;
		}
	}
	return 0;
}

/* libnds's search over the runs: the same steps, u32 wraps and all. */
static inline uint32_t rv_examine(ref_vb *r, const libnds_vb_regs *g, uint32_t at, uint32_t size, unsigned align)
{
	rbank k[5];
	unsigned i = 0, cur = 0;
	uint32_t room;

	if (!at || r->stuck || !r->n || !size || align >= 8)
		return 0;
	r->ex = 0;
	while (i < r->n && at >= r->run[i].b)
		i++;
	if (i == r->n)
		return 0;
	if (at < r->run[i].a)
		at = r->run[i].a;
	r_banks(g, at, k);
	if (r->fixed)
		return rv_examine_fixed(r, k, i, at, size, align);
	room = r->run[i].b - at;
	for (;;) {
		uint32_t al;
		if (k[cur].a) {
			while (k[cur].a && at >= k[cur].b)
				cur++;
			while (k[cur].a && at >= k[cur].a && at < k[cur].b)
				at = k[cur++].b;
			while (i < r->n && at >= r->run[i].b)
				i++;
			if (i == r->n)
				return 0;
			if (at < r->run[i].a)
				at = r->run[i].a;
			room = k[cur].a && k[cur].a < r->run[i].b ? k[cur].a - at : r->run[i].b - at;
		}
		al = up(at, align);
		room -= al - at;
		if (room >= size)
			return rv_hold(r, i, al, size);
		if (k[cur].a && k[cur].a < r->run[i].b) {
			at = k[cur].b;
			room = 0;
		} else {
			if (++i == r->n)
				return 0;
			at = r->run[i].a;
			room = r->run[i].b - r->run[i].a;
		}
	}
}

static inline uint32_t rv_allocate_special(ref_vb *r, uint32_t addr, uint32_t size)
{
	unsigned i;
	uint32_t h;
	rrun old;

	if (!addr || !size || !r->ex || !r->ex_addr || r->ex_addr != addr || r->ex_size != size)
		return 0;
	if (!r->sp && r->count >= r->cap)
		return 0;
	for (i = 0; i < r->n && r->run[i].a != r->ex_run; i++)
		;
	ck_assert_uint_lt(i, r->n);
	if (addr < r->run[i].a || addr + size > r->run[i].b) {
		r->refusals++;
		return 0; /* the examine result stays */
	}
	old = r->run[i];
	/* the model's nodes, one a free run or live block, end where its pool
	 * does (libnds mallocs as it goes): a carve needing more is refused,
	 * the examine result kept */
	if (r->cap - (r->n + (r->count - 1 - r->sp)) < (uint32_t)(addr > old.a) + (addr + size < old.b))
		return 0;
	memmove(&r->run[i], &r->run[i + 1], (r->n - i - 1) * sizeof r->run[0]);
	r->n--;
	if (addr + size < old.b) {
		memmove(&r->run[i + 1], &r->run[i], (r->n - i) * sizeof r->run[0]);
		r->run[i].a = addr + size;
		r->run[i].b = old.b;
		r->n++;
	}
	if (addr > old.a) {
		memmove(&r->run[i + 1], &r->run[i], (r->n - i) * sizeof r->run[0]);
		r->run[i].a = old.a;
		r->run[i].b = addr;
		r->n++;
	}
	if (!r->n && !r->fixed)
		r->stuck = 1;
	h = r->sp ? r->stack[r->sp--] : r->count++;
	r->haddr[h] = addr;
	r->hsize[h] = size;
	r->ex = 0;
	return h;
}

static inline uint32_t rv_allocate(ref_vb *r, const libnds_vb_regs *g, uint32_t size, unsigned align)
{
	uint32_t at;

	if (r->stuck || !r->n || !size || align >= 8)
		return 0;
	at = rv_examine(r, g, r->run[0].a, size, align);
	return at ? rv_allocate_special(r, at, size) : 0;
}

static inline int rv_deallocate(ref_vb *r, uint32_t h)
{
	unsigned i;
	uint32_t a, b;

	if (h >= r->cap || !r->hsize[h])
		return 0;
	a = r->haddr[h];
	b = a + r->hsize[h];
	r->hsize[h] = 0;
	for (i = 0; i < r->n && r->run[i].b < a; i++)
		;
	if (i < r->n && r->run[i].b == a) { /* joins the run before */
		r->run[i].b = b;
		if (i + 1 < r->n && r->run[i + 1].a == b) {
			r->run[i].b = r->run[i + 1].b;
			memmove(&r->run[i + 1], &r->run[i + 2], (r->n - i - 2) * sizeof r->run[0]);
			r->n--;
		}
	} else if (i < r->n && r->run[i].a == b) {
		r->run[i].a = a;
	} else {
		memmove(&r->run[i + 1], &r->run[i], (r->n - i) * sizeof r->run[0]);
		r->run[i].a = a;
		r->run[i].b = b;
		r->n++;
	}
	r->stack[++r->sp] = h;
	return 1;
}

typedef struct cmp_ud {
	const ref_vb *r;
	unsigned run;
	uint32_t seen;
} cmp_ud;

static inline int cmp_block(void *ud, uint32_t addr, uint32_t size, uint32_t handle)
{
	cmp_ud *c = ud;

	if (!handle) {
		HOT_ASSERT(c->run < c->r->n, "extra free block at 0x%x", (unsigned)addr);
		QEQ(addr, c->r->run[c->run].a);
		QEQ(addr + size, c->r->run[c->run].b);
		c->run++;
	} else {
		HOT_ASSERT(handle < c->r->cap && c->r->hsize[handle], "handle %u not live in the model", (unsigned)handle);
		QEQ(addr, c->r->haddr[handle]);
		QEQ(size, c->r->hsize[handle]);
		c->seen += size;
	}
	return 0;
}

/* The whole state against the model: blocks in address order, handles,
 * the reuse stack, the stuck state. */
static inline void rv_compare(const libnds_vram_block *mb, const ref_vb *r)
{
	cmp_ud c = { r, 0, 0 };
	uint32_t i, used = 0;

	check_links(mb);
	libnds_vram_block_walk(mb, cmp_block, &c);
	QEQ(c.run, r->n);
	for (i = 1; i < r->cap; i++)
		used += r->hsize[i];
	QEQ(c.seen, used);
	QEQ(mb->block_count, r->count);
	QEQ(mb->dealloc_count, r->sp);
	for (i = 1; i <= r->sp; i++)
		QEQ(mb->node[i].stack, r->stack[i]);
	QEQ(mb->first_empty == NIL, r->stuck || !r->n);
}

/* One register or lock of a side (A-D, or E-G with pal) changed at random:
 * a lock toggled, the usual value back, or another value, mapped or not. */
static inline void random_regs(vs_rng *rng, libnds_vb_regs *r, int pal)
{
	static const uint8_t cr_values[] = { 0x83, 0x8B, 0x93, 0x9B, 0x81, 0x00, 0x03, 0x87, 0x80, 0x84 };
	unsigned bank = (pal ? 4u : 0u) + vs_rng_below(rng, pal ? 3 : 4);

	if (vs_rng_below(rng, 3) == 0)
		r->lock[pal] = (uint8_t)(r->lock[pal] ^ (1u << (bank - (pal ? 4u : 0u))));
	else if (vs_rng_below(rng, 2))
		r->vramcnt[bank] = default_regs().vramcnt[bank];
	else
		r->vramcnt[bank] = cr_values[vs_rng_below(rng, sizeof cr_values)];
}


#endif
