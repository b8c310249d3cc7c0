/* SPDX-License-Identifier: Zlib */
/* nns_gfd_ref.h - test_nns_gfd's reference model of the NNS_Gfd managers,
 * written from ../shared/reference/nns-gfd.md alone: the keys, the free
 * lists as plain arrays (index 0 = head), the pool as a count, the frame and
 * linked managers, and the checks of a real manager's whole state against
 * the model. It shares no code with src/alloc. NBLK is the suite's block
 * count. Include it in one test program only. */
#ifndef VS_TEST_NNS_GFD_REF_H
#define VS_TEST_NNS_GFD_REF_H

#include <stdint.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/nns_gfd.h"

#ifndef NBLK
#error "define NBLK (the manager's blocks) before including nns_gfd_ref.h"
#endif

/* ---- reference keys ---------------------------------------------------- */
static uint32_t rtex(uint32_t addr, uint32_t size, int c4)
{
	return addr / 8 + (size / 16) * 0x10000u + (c4 ? 0x80000000u : 0);
}

static uint32_t rpltt(uint32_t addr, uint32_t size)
{
	return addr / 8 + (size / 8) * 0x10000u;
}

/* ---- reference free lists ---------------------------------------------- */
typedef struct rblk { uint32_t a, s; } rblk;
typedef struct rlist { rblk b[NBLK + 8]; int n; } rlist;

static void rl_insert_front(rlist *l, uint32_t a, uint32_t s)
{
	memmove(&l->b[1], &l->b[0], (size_t)l->n * sizeof l->b[0]);
	l->b[0].a = a;
	l->b[0].s = s;
	l->n++;
}

static void rl_remove(rlist *l, int i)
{
	memmove(&l->b[i], &l->b[i + 1], (size_t)(l->n - i - 1) * sizeof l->b[0]);
	l->n--;
}

/* Returns the address or -1. */
static int64_t rl_alloc(rlist *l, int *pool, uint32_t size, uint32_t align)
{
	int i;

	for (i = 0; i < l->n; i++) {
		uint32_t a = l->b[i].a, pad = 0, res;
		if (align > 1 && a % align)
			pad = align - a % align;
		if ((uint64_t)l->b[i].s < (uint64_t)size + pad)
			continue;
		if (pad) {
			if (*pool == 0)
				return -1;
			(*pool)--;
			rl_insert_front(l, a, pad);
			i++;
		}
		res = a + pad;
		l->b[i].a += size + pad;
		l->b[i].s -= size + pad;
		if (l->b[i].s == 0) {
			rl_remove(l, i);
			(*pool)++;
		}
		return res;
	}
	return -1;
}

/* One merge pass; cursor (-1: none) is kept out. Returns whether anything
 * merged; *cur is updated to the cursor's new index. */
static int rl_pass(rlist *l, int *pool, uint32_t *start, uint32_t *end, int *cur)
{
	rlist kept;
	int i, merged = 0, newcur = -1;

	kept.n = 0;
	for (i = 0; i < l->n; i++) {
		rblk k = l->b[i];
		if (cur && i == *cur) {
			newcur = kept.n;
			kept.b[kept.n++] = k;
		} else if (k.a == *end) {
			*end = k.a + k.s;
			(*pool)++;
			merged = 1;
		} else if (k.a + k.s == *start) {
			*start = k.a;
			(*pool)++;
			merged = 1;
		} else {
			kept.b[kept.n++] = k;
		}
	}
	*l = kept;
	if (cur)
		*cur = newcur;
	return merged;
}

/* 1 = lost (pool empty), 0 = freed. */
static int rl_free(rlist *l, int *pool, uint32_t a, uint32_t s)
{
	uint32_t start = a, end = a + s;

	rl_pass(l, pool, &start, &end, NULL);
	if (*pool == 0)
		return 1;
	(*pool)--;
	rl_insert_front(l, start, end - start);
	return 0;
}

static void rl_merge_all(rlist *l, int *pool)
{
	int c = 0;

	while (c < l->n) {
		uint32_t start = l->b[c].a, end = start + l->b[c].s;
		if (rl_pass(l, pool, &start, &end, &c)) {
			l->b[c].a = start;
			l->b[c].s = end - start;
			c = 0;
		} else {
			c++;
		}
	}
}

static void rl_add(rlist *l, int *pool, uint32_t a, uint32_t s)
{
	if (*pool == 0)
		return;
	(*pool)--;
	rl_insert_front(l, a, s);
}

/* ---- reference managers ------------------------------------------------ */
typedef struct rmodel {
	int tex_mgr, pltt_mgr; /* 0 none, 1 frame, 2 linked list */
	/* frame texture */
	int nslot, nreg;
	uint32_t head[5], tail[5];
	/* frame palette */
	uint32_t plo, phi, psize;
	/* linked-list texture */
	rlist tn, t4;
	int tpool;
	uint32_t tsize, t4size;
	/* linked-list palette */
	rlist pl;
	int ppool;
	uint32_t lpsize;
} rmodel;

static const uint32_t RBASE[5] = { 0, 0x20000, 0x30000, 0x40000, 0x60000 };
static const uint32_t RSIZE[5] = { 0x20000, 0x10000, 0x10000, 0x20000, 0x20000 };

static uint32_t rround_tex(uint32_t sz)
{
	uint64_t r = sz == 0 ? 16 : ((uint64_t)sz + 15) / 16 * 16;
	return r >= 0x7FFF0 ? 0 : (uint32_t)r;
}

static uint32_t rround_pltt(uint32_t sz)
{
	uint64_t r = sz == 0 ? 8 : ((uint64_t)sz + 7) / 8 * 8;
	return r >= 0x7FFF8 ? 0 : (uint32_t)r;
}

static void rfrm_tex_reset(rmodel *m)
{
	int r;

	for (r = 0; r < 5; r++) {
		m->head[r] = 0;
		m->tail[r] = RSIZE[r];
	}
	m->nreg = m->nslot > 1 ? m->nslot + 1 : m->nslot;
}

static int ractive_room(const rmodel *m, int r, uint32_t need)
{
	return r < m->nreg && m->tail[r] - m->head[r] >= need;
}

static uint32_t rfrm_tex_alloc(rmodel *m, uint32_t sz, int c4)
{
	static const int small[5] = { 4, 3, 2, 0, 1 }, large[5] = { 4, 3, 0, 2, 1 };
	uint32_t size = rround_tex(sz);
	int i;

	if (!size)
		return 0;
	if (c4) {
		if (ractive_room(m, 0, size) && ractive_room(m, 1, size / 2)) {
			uint32_t a = m->head[0];
			m->head[0] += size;
			m->head[1] += size / 2;
			return rtex(a, size, 1);
		}
		if (ractive_room(m, 3, size) && ractive_room(m, 2, size / 2)) {
			uint32_t a = 0x40000 + m->head[3];
			m->head[3] += size;
			m->head[2] += size / 2;
			return rtex(a, size, 1);
		}
		return 0;
	}
	for (i = 0; i < 5; i++) {
		int r = m->nslot <= 2 ? small[i] : large[i];
		if (ractive_room(m, r, size)) {
			m->tail[r] -= size;
			return rtex(RBASE[r] + m->tail[r], size, 0);
		}
	}
	return 0;
}

static uint32_t rfrm_pltt_alloc(rmodel *m, uint32_t sz, int four, uint32_t opt)
{
	uint32_t size = rround_pltt(sz), a = four ? 8 : 16, pad;

	if (!size)
		return 0;
	if (opt == 1) {
		pad = (a - m->plo % a) % a;
		if ((int64_t)m->phi - m->plo < (int64_t)size + pad)
			return 0;
		if (four && m->plo + size + pad > 0x10000)
			return 0;
		m->plo += size + pad;
		return rpltt(m->plo - size, size);
	}
	if (m->phi < size)
		return 0;
	pad = (m->phi - size) % a;
	if ((int64_t)m->phi - m->plo < (int64_t)size + pad)
		return 0;
	if (four && m->phi > 0x10000)
		return 0;
	m->phi -= size + pad;
	return rpltt(m->phi, size);
}

static int rlnk_tex_valid(uint32_t sz, uint32_t s4)
{
	if (s4 > 0x40000)
		return 0;
	if (s4 == 0)
		return sz <= 0x80000;
	if (s4 <= 0x20000)
		return sz >= 0x20000 + s4 / 2;
	return sz >= s4 + 0x20000;
}

static void rlnk_tex_reset(rmodel *m, int nblk)
{
	uint32_t idx = m->t4size / 2, slot4[4] = { 0 }, normal[4] = { 0 }, left, want;
	int s;

	m->tn.n = m->t4.n = 0;
	m->tpool = nblk;
	/* 4x4 texel space: slot 0 first, then slot 2 */
	slot4[0] = m->t4size < 0x20000 ? m->t4size : 0x20000;
	slot4[2] = m->t4size - slot4[0];
	want = m->tsize - m->t4size - idx;
	for (s = 0; s < 4; s++) {
		uint32_t used = s == 1 ? idx : slot4[s];
		left = 0x20000 - used;
		normal[s] = want < left ? want : left;
		want -= normal[s];
	}
	if (slot4[0]) rl_add(&m->t4, &m->tpool, 0, slot4[0]);
	if (normal[0]) rl_add(&m->tn, &m->tpool, slot4[0], normal[0]);
	if (slot4[2]) rl_add(&m->t4, &m->tpool, 0x40000, slot4[2]);
	if (normal[2]) rl_add(&m->tn, &m->tpool, 0x40000 + slot4[2], normal[2]);
	if (normal[3]) rl_add(&m->tn, &m->tpool, 0x60000, normal[3]);
	if (normal[1]) rl_add(&m->tn, &m->tpool, 0x20000 + idx, normal[1]);
	rl_merge_all(&m->tn, &m->tpool);
	rl_merge_all(&m->t4, &m->tpool);
}

static void rlnk_pltt_reset(rmodel *m, int nblk)
{
	m->pl.n = 0;
	m->ppool = nblk;
	rl_add(&m->pl, &m->ppool, 0, m->lpsize);
	rl_merge_all(&m->pl, &m->ppool);
}

static uint32_t rlnk_tex_alloc(rmodel *m, uint32_t sz, int c4)
{
	uint32_t size = rround_tex(sz);
	int64_t a;

	if (!size)
		return 0;
	a = rl_alloc(c4 ? &m->t4 : &m->tn, &m->tpool, size, 0);
	return a < 0 ? 0 : rtex((uint32_t)a, size, c4);
}

static int rlnk_tex_free(rmodel *m, uint32_t key)
{
	uint32_t a = (key & 0xFFFF) * 8, s = ((key >> 16) & 0x7FFF) * 16;

	if (s == 0)
		return 2;
	return rl_free(key >> 31 ? &m->t4 : &m->tn, &m->tpool, a, s);
}

static uint32_t rlnk_pltt_alloc(rmodel *m, uint32_t sz, int four)
{
	uint32_t size = rround_pltt(sz);
	int64_t a;

	if (!size)
		return 0;
	a = rl_alloc(&m->pl, &m->ppool, size, four ? 8 : 16);
	if (a < 0)
		return 0;
	if (four && a + size > 0x10000) {
		rl_free(&m->pl, &m->ppool, (uint32_t)a, size);
		return 0;
	}
	return rpltt((uint32_t)a, size);
}

static int rlnk_pltt_free(rmodel *m, uint32_t key)
{
	return rl_free(&m->pl, &m->ppool, (key & 0xFFFF) * 8, (key >> 16) * 8);
}

/* ---- comparing state ---------------------------------------------------- */
typedef struct collect { rblk b[NBLK + 8]; int n; } collect;

static void collect_block(void *ud, uint32_t addr, uint32_t size)
{
	collect *c = ud;

	if (c->n >= NBLK + 8)
		ck_abort_msg("free list does not end");
	c->b[c->n].a = addr;
	c->b[c->n].s = size;
	c->n++;
}

static void expect_list(const rlist *want, const collect *got, const char *what, int step)
{
	int i;

	if (want->n != got->n)
		ck_abort_msg("step %d: %s list has %d blocks, model %d", step, what, got->n, want->n);
	for (i = 0; i < want->n; i++)
		if (want->b[i].a != got->b[i].a || want->b[i].s != got->b[i].s)
			ck_abort_msg("step %d: %s block %d is [0x%x +0x%x], model [0x%x +0x%x]", step, what, i,
				got->b[i].a, got->b[i].s, want->b[i].a, want->b[i].s);
}

static int pool_count(const nns_gfd_ctx *g, const nns_lnk_lists *l)
{
	int n = 0;
	uint16_t b;

	for (b = l->pool; b != NNS_LNK_NONE; b = g->blk[b].next)
		if (++n > NBLK)
			ck_abort_msg("pool list does not end");
	return n;
}

static void expect_lnk_tex(const nns_gfd_ctx *g, const rmodel *m, int step)
{
	collect c;

	c.n = 0;
	nns_lnk_tex_dump_ex(g, 0, collect_block, &c);
	expect_list(&m->tn, &c, "normal", step);
	c.n = 0;
	nns_lnk_tex_dump_ex(g, 1, collect_block, &c);
	expect_list(&m->t4, &c, "4x4", step);
	if (pool_count(g, &g->lnk_tex.l) != m->tpool)
		ck_abort_msg("step %d: pool %d, model %d", step, pool_count(g, &g->lnk_tex.l), m->tpool);
}

static void expect_lnk_pltt(const nns_gfd_ctx *g, const rmodel *m, int step)
{
	collect c;

	c.n = 0;
	nns_lnk_pltt_dump_ex(g, collect_block, &c);
	expect_list(&m->pl, &c, "palette", step);
	if (pool_count(g, &g->lnk_pltt.l) != m->ppool)
		ck_abort_msg("step %d: pool %d, model %d", step, pool_count(g, &g->lnk_pltt.l), m->ppool);
}

static void expect_frm_tex(const nns_gfd_ctx *g, const rmodel *m, int step)
{
	nns_frm_tex_state st;
	int r;

	nns_frm_tex_get_state(g, &st);
	for (r = 0; r < 5; r++)
		if (st.head[r] != m->head[r] || st.tail[r] != m->tail[r])
			ck_abort_msg("step %d: region %d head/tail 0x%x/0x%x, model 0x%x/0x%x", step, r,
				st.head[r], st.tail[r], m->head[r], m->tail[r]);
}

#endif
