/* SPDX-License-Identifier: Zlib */
/* ownunits.c - the ownership map as one owner and kind per unit.
 *
 * For arenas of large units (a 32-byte GBA tile) the arrays cost 5 bytes a
 * unit, 0.16 bytes per arena byte however the units are shared out, less
 * than a tree node per run when many small allocations are live, and a
 * mark is a short fill. Free units are also kept in a bitmap (1 = free) of
 * 64-unit words under a complete binary tree whose nodes summarise their
 * span: the free run touching the low end (pre), the high end (suf), the
 * longest (best) and the number of runs; marking k units costs
 * O(k), plus O(log n) when it frees or takes units, and the free
 * statistics are read at the root. Counting all runs is O(n).
 */
#include <stdlib.h>
#include <string.h>

#include "ownmap_int.h"

typedef struct fm_node {
	uint32_t pre, suf, best, runs;
} fm_node;

struct vs_ownunits {
	uint32_t nunits, nwords, leaves; /* leaves: power of two >= nwords */
	uint32_t nfree;                  /* free units */
	uint32_t *owner;
	uint8_t *kind;
	uint64_t *bits;                  /* leaves words; units past the end are taken */
	fm_node *tree;                   /* 2 * leaves nodes, root at 1 */
};

static uint32_t popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

static uint32_t ctz64(uint64_t x) { return x ? (uint32_t)__builtin_ctzll(x) : 64; }
static uint32_t clz64(uint64_t x) { return x ? (uint32_t)__builtin_clzll(x) : 64; }

/* bits [lo, hi) of a word, lo <= hi <= 64 */
static uint64_t range_mask(uint32_t lo, uint32_t hi)
{
	uint64_t m = hi >= 64 ? ~0ull : ((1ull << hi) - 1);
	return lo >= 64 ? 0 : m & ~((1ull << lo) - 1);
}

static fm_node word_node(uint64_t w)
{
	fm_node n;
	uint32_t best = 0, at = 0;

	n.pre = ctz64(~w);
	n.suf = clz64(~w);
	n.runs = popcount64(w & ~(w << 1)); /* a run starts where bit i is set, i-1 not */
	/* one step per run: skip the taken bits before it, measure it */
	while (at < 64 && (w >> at)) {
		uint32_t len;
		at += ctz64(w >> at);
		len = ctz64(~(w >> at));
		if (len > 64 - at)
			len = 64 - at;
		if (len > best)
			best = len;
		at += len;
	}
	n.best = best;
	return n;
}

static fm_node join(const fm_node *l, const fm_node *r, uint32_t span)
{
	fm_node n;
	uint32_t mid = l->suf + r->pre;

	n.pre = l->pre == span ? span + r->pre : l->pre;
	n.suf = r->suf == span ? span + l->suf : r->suf;
	n.best = l->best > r->best ? l->best : r->best;
	if (mid > n.best)
		n.best = mid;
	n.runs = l->runs + r->runs - (l->suf && r->pre ? 1 : 0);
	return n;
}

static int same_node(const fm_node *a, const fm_node *b)
{
	return a->pre == b->pre && a->suf == b->suf && a->best == b->best && a->runs == b->runs;
}

/* Recomputes the leaves of words [wlo, whi] and their ancestors. One word
 * (most marks) walks its path and stops at the first node that stays as
 * it was: nothing above it can change then. */
static void tree_update(vs_ownunits *m, uint32_t wlo, uint32_t whi)
{
	uint32_t lo = wlo + m->leaves, hi = whi + m->leaves, span = 64, i;
	fm_node n;

	if (wlo == whi) {
		for (n = word_node(m->bits[wlo]); ; span *= 2) {
			if (same_node(&m->tree[lo], &n))
				return;
			m->tree[lo] = n;
			if ((lo /= 2) == 0)
				return;
			n = join(&m->tree[2 * lo], &m->tree[2 * lo + 1], span);
		}
	}
	for (i = wlo; i <= whi; i++)
		m->tree[m->leaves + i] = word_node(m->bits[i]);
	while (lo > 1) {
		lo /= 2;
		hi /= 2;
		for (i = lo; i <= hi; i++)
			m->tree[i] = join(&m->tree[2 * i], &m->tree[2 * i + 1], span);
		span *= 2;
	}
}

/* The tree is walked only when a bit changed: most marks change an
 * allocation's kind, not whether its units are free. */
static void bits_set(vs_ownunits *m, uint32_t first, uint32_t end, int is_free)
{
	uint32_t w, wlo = first / 64, whi = (end - 1) / 64, changed = 0;

	for (w = wlo; w <= whi; w++) {
		uint32_t lo = w == wlo ? first % 64 : 0, hi = w == whi ? (end - 1) % 64 + 1 : 64;
		uint64_t mk = range_mask(lo, hi), old = m->bits[w];
		uint64_t nw = is_free ? old | mk : old & ~mk;
		if (is_free)
			m->nfree += popcount64(mk & ~old);
		else
			m->nfree -= popcount64(mk & old);
		m->bits[w] = nw;
		changed |= nw != old;
	}
	if (changed)
		tree_update(m, wlo, whi);
}

static int is_free(const vs_ownunits *m, uint32_t u)
{
	return (int)(m->bits[u / 64] >> (u % 64) & 1);
}

/* First unit at or after u whose free bit is `want`, or nunits. */
static uint32_t next_with(const vs_ownunits *m, uint32_t u, int want)
{
	uint32_t w = u / 64;
	uint64_t b;

	if (u >= m->nunits)
		return m->nunits;
	b = (want ? m->bits[w] : ~m->bits[w]) & range_mask(u % 64, 64);
	while (!b) {
		if (++w >= m->nwords)
			return m->nunits;
		b = want ? m->bits[w] : ~m->bits[w];
	}
	u = w * 64 + ctz64(b);
	return u < m->nunits ? u : m->nunits;
}

/* One past the last unit before u whose free bit is `want`, or 0. */
static uint32_t prev_with(const vs_ownunits *m, uint32_t u, int want)
{
	uint32_t w = u / 64;
	uint64_t b = (want ? m->bits[w] : ~m->bits[w]) & range_mask(0, u % 64);

	while (!b) {
		if (w == 0)
			return 0;
		w--;
		b = want ? m->bits[w] : ~m->bits[w];
	}
	return w * 64 + 63 - clz64(b) + 1;
}

static int same(const vs_ownunits *m, uint32_t a, uint32_t b)
{
	return m->owner[a] == m->owner[b] && m->kind[a] == m->kind[b];
}

void vs_ownunits_clear(vs_ownunits *m)
{
	uint32_t w;

	memset(m->owner, 0, (size_t)m->nunits * sizeof *m->owner);
	memset(m->kind, 0, m->nunits);
	for (w = 0; w < m->leaves; w++)
		m->bits[w] = range_mask(0, w < m->nwords - 1 ? 64 : w == m->nwords - 1 ? (m->nunits - 1) % 64 + 1 : 0);
	m->nfree = m->nunits;
	tree_update(m, 0, m->leaves - 1);
}

static vs_ownunits *alloc_map(uint32_t nunits)
{
	vs_ownunits *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->nunits = nunits;
	m->nwords = (nunits + 63) / 64;
	for (m->leaves = 1; m->leaves < m->nwords; m->leaves *= 2)
		;
	m->owner = malloc((size_t)nunits * sizeof *m->owner);
	m->kind = malloc(nunits);
	m->bits = malloc((size_t)m->leaves * sizeof *m->bits);
	m->tree = malloc(2 * (size_t)m->leaves * sizeof *m->tree);
	if (!m->owner || !m->kind || !m->bits || !m->tree) {
		vs_ownunits_free(m);
		return NULL;
	}
	return m;
}

vs_ownunits *vs_ownunits_new(uint32_t nunits)
{
	vs_ownunits *m = nunits ? alloc_map(nunits) : NULL;

	if (m)
		vs_ownunits_clear(m);
	return m;
}

vs_ownunits *vs_ownunits_copy(const vs_ownunits *src)
{
	vs_ownunits *m = alloc_map(src->nunits);

	if (!m)
		return NULL;
	m->nfree = src->nfree;
	memcpy(m->owner, src->owner, (size_t)m->nunits * sizeof *m->owner);
	memcpy(m->kind, src->kind, m->nunits);
	memcpy(m->bits, src->bits, (size_t)m->leaves * sizeof *m->bits);
	memcpy(m->tree, src->tree, 2 * (size_t)m->leaves * sizeof *m->tree);
	return m;
}

void vs_ownunits_free(vs_ownunits *m)
{
	if (!m)
		return;
	free(m->owner);
	free(m->kind);
	free(m->bits);
	free(m->tree);
	free(m);
}

void vs_ownunits_set(vs_ownunits *m, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind)
{
	uint32_t end, u;

	if (first >= m->nunits || count == 0)
		return;
	end = count > m->nunits - first ? m->nunits : first + count;
	for (u = first; u < end; u++)
		m->owner[u] = owner;
	memset(m->kind + first, (int)kind, end - first);
	bits_set(m, first, end, kind == VS_UNIT_FREE);
}

int vs_ownunits_run_at(const vs_ownunits *m, uint32_t unit, vs_own_run *out)
{
	uint32_t lo = unit, hi = unit + 1;

	if (unit >= m->nunits)
		return -1;
	if (is_free(m, unit)) {
		lo = prev_with(m, unit, 0);
		hi = next_with(m, unit, 0);
	} else {
		while (lo > 0 && same(m, lo - 1, unit))
			lo--;
		while (hi < m->nunits && same(m, hi, unit))
			hi++;
	}
	out->first = lo;
	out->count = hi - lo;
	out->owner = m->owner[unit];
	out->kind = (vs_unit_kind)m->kind[unit];
	return 0;
}

int vs_ownunits_unit_at(const vs_ownunits *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind)
{
	if (unit >= m->nunits)
		return -1;
	*owner = m->owner[unit];
	*kind = (vs_unit_kind)m->kind[unit];
	return 0;
}

int64_t vs_ownunits_first_taken(const vs_ownunits *m, uint32_t first, uint32_t count)
{
	uint32_t end, u;

	if (first >= m->nunits || count == 0)
		return -1;
	end = count > m->nunits - first ? m->nunits : first + count;
	u = next_with(m, first, 0);
	return u < end ? (int64_t)u : -1;
}

void vs_ownunits_stats(const vs_ownunits *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree)
{
	if (largest)
		*largest = m->tree[1].best;
	if (runs)
		*runs = m->tree[1].runs;
	if (nfree)
		*nfree = m->nfree;
}

/* Counted when asked (tests and tools ask), so marks need not keep it. */
uint32_t vs_ownunits_runs(const vs_ownunits *m)
{
	uint32_t u, runs = 1;

	for (u = 1; u < m->nunits; u++)
		runs += !same(m, u - 1, u);
	return runs;
}

size_t vs_ownunits_bytes(const vs_ownunits *m)
{
	return sizeof *m + (size_t)m->nunits * (sizeof *m->owner + 1) + (size_t)m->leaves * sizeof *m->bits +
		2 * (size_t)m->leaves * sizeof *m->tree;
}

int vs_ownunits_walk(const vs_ownunits *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud)
{
	uint32_t end, u, v;
	vs_own_run run;
	int rc;

	if (first >= m->nunits || count == 0)
		return 0;
	end = count > m->nunits - first ? m->nunits : first + count;
	for (u = first; u < end; u = v) {
		if (free_only) {
			u = next_with(m, u, 1);
			if (u >= end)
				break;
		}
		if (is_free(m, u)) {
			v = next_with(m, u, 0);
		} else {
			for (v = u + 1; v < end && same(m, u, v); v++)
				;
		}
		run.first = u;
		run.count = (v < end ? v : end) - u;
		run.owner = m->owner[u];
		run.kind = (vs_unit_kind)m->kind[u];
		if ((rc = fn(ud, &run)) != 0)
			return rc;
	}
	return 0;
}
