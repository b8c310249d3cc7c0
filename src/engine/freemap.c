/* SPDX-License-Identifier: Zlib */
/* freemap.c - which units of an arena are free, with run statistics.
 *
 * A bitmap (1 = free) in 64-unit words, and over the words a complete
 * binary tree whose nodes summarise their span: free run touching the low
 * end (pre), touching the high end (suf), the longest run (best) and the
 * number of runs. Changing k units costs O(k/64 + log n); the statistics
 * are read at the root in O(1). Units past the end count as taken.
 */
#include <stdlib.h>
#include <string.h>

#include "vramsim/arena.h"

typedef struct fm_node {
	uint32_t pre, suf, best, runs;
} fm_node;

struct vs_freemap {
	uint32_t nunits, nwords, leaves; /* leaves: power of two >= nwords */
	uint32_t nfree;
	uint64_t *bits;
	fm_node *tree;                   /* 2*leaves nodes, root at 1 */
};

/* Bit count without a library call (no popcnt instruction is assumed). */
static uint32_t popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

static uint32_t ctz64(uint64_t x) { return x ? (uint32_t)__builtin_ctzll(x) : 64; }
static uint32_t clz64(uint64_t x) { return x ? (uint32_t)__builtin_clzll(x) : 64; }

static fm_node word_node(uint64_t w)
{
	fm_node n;
	uint64_t x = w;
	uint32_t best = 0;

	n.pre = ctz64(~w);
	n.suf = clz64(~w);
	/* a run starts at bit i when bit i is set and bit i-1 is not */
	n.runs = (uint32_t)popcount64(w & ~(w << 1));
	if (w == ~0ull) {
		best = 64;
	} else {
		/* strip one unit off every run per step: steps = longest run */
		while (x) {
			x &= x >> 1;
			best++;
		}
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

static void set_leaf(vs_freemap *f, uint32_t w)
{
	f->tree[f->leaves + w] = word_node(f->bits[w]);
}

vs_freemap *vs_freemap_new(uint32_t nunits)
{
	vs_freemap *f = calloc(1, sizeof *f);
	uint32_t i;

	if (!f)
		return NULL;
	f->nunits = nunits;
	f->nwords = (nunits + 63) / 64;
	if (f->nwords == 0)
		f->nwords = 1;
	for (f->leaves = 1; f->leaves < f->nwords; f->leaves *= 2)
		;
	f->bits = calloc(f->leaves, sizeof *f->bits);
	f->tree = calloc(2 * (size_t)f->leaves, sizeof *f->tree);
	if (!f->bits || !f->tree) {
		vs_freemap_free(f);
		return NULL;
	}
	for (i = 0; i < f->leaves; i++)
		set_leaf(f, i);
	for (i = f->leaves - 1; i >= 1; i--) {
		uint32_t span = 64, d = i;
		/* span of node i's children: 64 << (levels below them) */
		while (2 * d < f->leaves) {
			d *= 2;
			span *= 2;
		}
		f->tree[i] = join(&f->tree[2 * i], &f->tree[2 * i + 1], span);
	}
	return f;
}

void vs_freemap_free(vs_freemap *f)
{
	if (!f)
		return;
	free(f->bits);
	free(f->tree);
	free(f);
}

static uint64_t range_mask(uint32_t lo, uint32_t hi) /* bits [lo, hi) of a word, hi <= 64 */
{
	uint64_t m = hi >= 64 ? ~0ull : ((1ull << hi) - 1);
	return m & ~((1ull << lo) - 1);
}

void vs_freemap_set(vs_freemap *f, uint32_t first, uint32_t count, int is_free)
{
	uint32_t end, w, wlo, whi;

	if (first >= f->nunits || count == 0)
		return;
	end = count > f->nunits - first ? f->nunits : first + count;
	wlo = first / 64;
	whi = (end - 1) / 64;
	for (w = wlo; w <= whi; w++) {
		uint32_t lo = w == wlo ? first % 64 : 0;
		uint32_t hi = w == whi ? (end - 1) % 64 + 1 : 64;
		uint64_t m = range_mask(lo, hi), old = f->bits[w];
		uint64_t nw = is_free ? old | m : old & ~m;
		f->nfree += (uint32_t)popcount64(nw & ~old);
		f->nfree -= (uint32_t)popcount64(old & ~nw);
		f->bits[w] = nw;
		set_leaf(f, w);
	}
	/* Walk the touched leaves' ancestors level by level. */
	{
		uint32_t lo = (wlo + f->leaves) / 2, hi = (whi + f->leaves) / 2, span = 64, i;
		while (lo >= 1) {
			for (i = lo; i <= hi; i++)
				f->tree[i] = join(&f->tree[2 * i], &f->tree[2 * i + 1], span);
			if (lo == 1)
				break;
			lo /= 2;
			hi /= 2;
			span *= 2;
		}
	}
}

int vs_freemap_is_free(const vs_freemap *f, uint32_t unit)
{
	return unit < f->nunits && (f->bits[unit / 64] >> (unit % 64) & 1);
}

int64_t vs_freemap_first_taken(const vs_freemap *f, uint32_t first, uint32_t count)
{
	uint32_t end, w, wlo, whi;

	if (first >= f->nunits || count == 0)
		return -1;
	end = count > f->nunits - first ? f->nunits : first + count;
	wlo = first / 64;
	whi = (end - 1) / 64;
	for (w = wlo; w <= whi; w++) {
		uint32_t lo = w == wlo ? first % 64 : 0;
		uint32_t hi = w == whi ? (end - 1) % 64 + 1 : 64;
		uint64_t taken = ~f->bits[w] & range_mask(lo, hi);
		if (taken)
			return (int64_t)w * 64 + ctz64(taken);
	}
	return -1;
}

void vs_freemap_stats(const vs_freemap *f, uint32_t *largest, uint32_t *runs, uint32_t *nfree)
{
	if (largest)
		*largest = f->tree[1].best;
	if (runs)
		*runs = f->tree[1].runs;
	if (nfree)
		*nfree = f->nfree;
}

int vs_freemap_walk(const vs_freemap *f, int (*fn)(void *ud, uint32_t first, uint32_t count), void *ud)
{
	uint32_t u = 0;

	while (u < f->nunits) {
		uint32_t w = u / 64, start, end;
		uint64_t bits = f->bits[w] & ~((1ull << (u % 64)) - 1);

		while (!bits) {
			if (++w >= f->nwords)
				return 0;
			bits = f->bits[w];
		}
		start = w * 64 + ctz64(bits);
		if (start >= f->nunits)
			return 0;
		/* find the end of the run */
		end = start;
		w = start / 64;
		bits = ~f->bits[w] & ~((1ull << (start % 64)) - 1);
		while (!bits && ++w < f->nwords)
			bits = ~f->bits[w];
		end = w < f->nwords ? w * 64 + ctz64(bits) : f->nwords * 64;
		if (end > f->nunits)
			end = f->nunits;
		if (fn(ud, start, end - start))
			return 1;
		u = end;
	}
	return 0;
}
