/* SPDX-License-Identifier: Zlib */
/* ownunits.c - the ownership map as one owner and kind per unit.
 *
 * For arenas of large units (a 32-byte GBA tile) the arrays cost 5 bytes a
 * unit, 0.16 bytes per arena byte however the units are shared out, less
 * than a tree node per run when many small allocations are live, and a
 * mark is a short fill. Free units are also kept in a bitmap (1 = free) of
 * 64-unit words, with the free statistics beside it: free units and free
 * runs are counted from the words a mark changes (a run starts at each free
 * bit whose lower neighbour is taken, so a word's starts are a popcount),
 * the longest free run grows when a mark frees units next to it, stays when
 * a mark takes units from shorter runs, and is found again by a scan of the
 * words only when a mark cut into a run that long.
 *
 * That scan is why arena.c gives this form only to arenas of 32-byte units
 * of at most VS_OWNUNITS_MAX units: the GBA's OBJ VRAM (1024 tiles) and BG
 * VRAM (2048, or 2560 in the bitmap modes), whose scan is 16 to 40 words.
 * Marking k units costs O(k) plus O(words k spans); a look for the run
 * around a change, and the scan when one is due, at most nunits / 64 words.
 * Counting all runs is O(n).
 */
#include <stdlib.h>
#include <string.h>

#include "ownmap_int.h"

struct vs_ownunits {
	uint32_t nunits, nwords;
	uint32_t nfree;                  /* free units */
	uint32_t fruns;                  /* maximal runs of free units */
	uint32_t largest;                /* longest free run, when !stale */
	int stale;                       /* a mark cut a run as long as largest */
	uint32_t *owner;
	uint8_t *kind;
	uint64_t *bits;                  /* nwords words; bits past the end are taken */
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

/* Free runs starting in word w, given the top bit of the word below. */
static uint32_t starts(uint64_t w, uint64_t below)
{
	return popcount64(w & ~(w << 1 | below >> 63));
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

/* Longest run of set bits in x. One step per run. */
static uint32_t longest_ones(uint64_t x)
{
	uint32_t best = 0, len;

	while (x) {
		x >>= ctz64(x);
		len = ctz64(~x);
		if (len > best)
			best = len;
		x = len < 64 ? x >> len : 0;
	}
	return best;
}

/* The longest free run, by a scan of the words: a word all free or all
 * taken is one step; inside a mixed word only the runs between its lowest
 * and highest taken bits are measured, and only when they could be longer
 * than the longest so far. */
static uint32_t scan_largest(const vs_ownunits *m)
{
	uint32_t w, best = 0, cur = 0, lo, hi, in;

	for (w = 0; w < m->nwords; w++) {
		uint64_t b = m->bits[w];
		if (b == ~0ull) {
			cur += 64;
			continue;
		}
		lo = ctz64(~b); /* the lowest taken bit ends the run from below */
		if (cur + lo > best)
			best = cur + lo;
		hi = clz64(~b);
		if (lo + hi + 2 < 64 && 62 - lo - hi > best) {
			in = longest_ones(b >> (lo + 1) & range_mask(0, 62 - lo - hi));
			if (in > best)
				best = in;
		}
		cur = hi;
	}
	return cur > best ? cur : best;
}

/* Sets units [first, end) free or taken in the bitmap and keeps the free
 * statistics. A run starts at a free bit whose lower neighbour is taken, so
 * the runs change only by the starts in the words the mark touches and the
 * word holding unit `end` (whose start may come or go). */
static void bits_set(vs_ownunits *m, uint32_t first, uint32_t end, int to_free)
{
	uint32_t wlo = first / 64, whi = (end - 1) / 64, w, changed = 0;
	uint32_t wend = end < m->nunits ? end / 64 : whi;
	uint64_t below_old = wlo ? m->bits[wlo - 1] : 0, below_new = below_old;

	for (w = wlo; w <= wend; w++) {
		uint64_t old = m->bits[w], nw = old;
		if (w <= whi) {
			uint64_t mk = range_mask(w == wlo ? first % 64 : 0, w == whi ? (end - 1) % 64 + 1 : 64);
			nw = to_free ? old | mk : old & ~mk;
			m->bits[w] = nw;
		}
		if (nw != old || below_new != below_old) {
			changed += popcount64(nw ^ old);
			m->fruns += starts(nw, below_new) - starts(old, below_old); /* mod 2^32 */
		}
		below_old = old;
		below_new = nw;
	}
	if (!changed)
		return;
	if (to_free) {
		m->nfree += changed;
		/* the run the freed units are now part of; others stay as they were */
		if (!m->stale) {
			uint32_t len = next_with(m, first, 0) - prev_with(m, first, 0);
			if (len > m->largest)
				m->largest = len;
		}
	} else {
		m->nfree -= changed;
		/* Every run cut lay inside the taken units and the free runs now
		 * touching them from below and above; when that span is shorter
		 * than the longest run, the longest was not cut. */
		if (!m->stale && next_with(m, end, 0) - prev_with(m, first, 0) >= m->largest)
			m->stale = 1;
	}
}

void vs_ownunits_clear(vs_ownunits *m)
{
	uint32_t w;

	memset(m->owner, 0, (size_t)m->nunits * sizeof *m->owner);
	memset(m->kind, 0, m->nunits);
	for (w = 0; w < m->nwords; w++)
		m->bits[w] = range_mask(0, w < m->nwords - 1 ? 64 : (m->nunits - 1) % 64 + 1);
	m->nfree = m->nunits;
	m->fruns = 1;
	m->largest = m->nunits;
	m->stale = 0;
}

static vs_ownunits *alloc_map(uint32_t nunits)
{
	vs_ownunits *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->nunits = nunits;
	m->nwords = (nunits + 63) / 64;
	m->owner = malloc((size_t)nunits * sizeof *m->owner);
	m->kind = malloc(nunits);
	m->bits = malloc((size_t)m->nwords * sizeof *m->bits);
	if (!m->owner || !m->kind || !m->bits) {
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
	m->fruns = src->fruns;
	m->largest = src->largest;
	m->stale = src->stale;
	memcpy(m->owner, src->owner, (size_t)m->nunits * sizeof *m->owner);
	memcpy(m->kind, src->kind, m->nunits);
	memcpy(m->bits, src->bits, (size_t)m->nwords * sizeof *m->bits);
	return m;
}

void vs_ownunits_free(vs_ownunits *m)
{
	if (!m)
		return;
	free(m->owner);
	free(m->kind);
	free(m->bits);
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
	if (m->stale) {
		/* found again when asked, not at each mark: a const map keeps
		 * its cache (maps are used by one thread at a time, ownmap_int.h) */
		vs_ownunits *w = (vs_ownunits *)m;
		w->largest = scan_largest(m);
		w->stale = 0;
	}
	if (largest)
		*largest = m->largest;
	if (runs)
		*runs = m->fruns;
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
	return sizeof *m + (size_t)m->nunits * (sizeof *m->owner + 1) + (size_t)m->nwords * sizeof *m->bits;
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
