/* SPDX-License-Identifier: Zlib */
/* ownunits.c - the ownership map as one owner and kind per unit.
 *
 * For arenas of large units (a 32-byte GBA tile) the arrays cost 5 bytes a
 * unit, 0.16 bytes per arena byte however the units are shared out, less
 * than a tree node per run when many small allocations are live, and a
 * mark is a short fill. Free units are also kept in a bitmap (1 = free) of
 * 64-unit words, with the free statistics beside it, kept by each mark from
 * the words it touches: the free units; the free runs (one starts at each
 * free unit whose lower neighbour is taken, so only the starts in the
 * marked block and just past it change); the longest free run and where
 * one run that long starts: a free can only lengthen it to the run it
 * joins, and a take can only shorten it when it cuts into that run (a
 * test of two numbers, no scan). Then the longest run is found again,
 * when next asked, by a scan of the words. A guard word of taken units on
 * either side of the bitmap spares the marks their tests for the ends.
 *
 * The scan and the look for the run around a mark take up to one step per
 * word, nunits / 64: arena.c gives this form only to arenas of 32-byte
 * units (or larger) of at most 4096 units, 64 words. The GBA's are OBJ VRAM
 * (1024 tiles, 16 words) and BG VRAM (2048 tiles, or 2560 = 40 words in the
 * bitmap modes). Marking k units costs O(k) plus a step per word k spans.
 * Counting all runs is O(n).
 */
#include <stdlib.h>
#include <string.h>

#include "vramsim/alloc/bits.h"
#include "base/compiler_hints.h"
#include "ownmap_int.h"
#include "vram/arena.h"

static uint32_t popcount64(uint64_t x)
{
	return bits_popcount32((uint32_t)x) + bits_popcount32((uint32_t)(x >> 32));
}

static uint32_t ctz64(uint64_t x) { return x ? (uint32_t)__builtin_ctzll(x) : 64; }
static uint32_t clz64(uint64_t x) { return x ? (uint32_t)__builtin_clzll(x) : 64; }

/* bits [lo, hi) of a word, lo <= hi <= 64 */
static uint64_t range_mask(uint32_t lo, uint32_t hi)
{
	uint64_t m = hi >= 64 ? ~0ull : ((1ull << hi) - 1);
	return lo >= 64 ? 0 : m & ~((1ull << lo) - 1);
}

static int is_free(const vs_ownunits *m, uint32_t u)
{
	return (int)(m->bits[u / 64] >> (u % 64) & 1);
}

/* First free unit at or after u, or nunits. */
static uint32_t next_free(const vs_ownunits *m, uint32_t u)
{
	uint32_t w = u / 64;
	uint64_t b;

	if (u >= m->nunits)
		return m->nunits;
	b = m->bits[w] & range_mask(u % 64, 64);
	while (!b) {
		if (++w >= m->nwords)
			return m->nunits;
		b = m->bits[w];
	}
	u = w * 64 + ctz64(b);
	return u < m->nunits ? u : m->nunits;
}

static int same(const vs_ownunits *m, uint32_t a, uint32_t b)
{
	return m->owner[a] == m->owner[b] && m->kind[a] == m->kind[b];
}

/* Longest run of set bits in x, its lowest bit in *at. One step per run. */
static uint32_t longest_ones(uint64_t x, uint32_t *at)
{
	uint32_t best = 0, len, pos = 0, z;

	while (x) {
		z = ctz64(x);
		x >>= z;
		pos += z;
		len = ctz64(~x);
		if (len > best) {
			best = len;
			*at = pos;
		}
		x = len < 64 ? x >> len : 0;
		pos += len;
	}
	return best;
}

/* The longest free run, by a scan of the words: a word all free or all
 * taken is one step; inside a mixed word only the runs between its lowest
 * and highest taken bits are measured, and only when they could be longer
 * than the longest so far. */
static void rescan(vs_ownunits *m)
{
	uint32_t w, best = 0, pos = 0, cur = 0, lo, hi, in, at = 0;

	for (w = 0; w < m->nwords; w++) {
		uint64_t b = m->bits[w];
		if (b == ~0ull) {
			cur += 64;
			continue;
		}
		lo = ctz64(~b); /* the lowest taken bit ends the run from below */
		if (cur + lo > best) {
			best = cur + lo;
			pos = w * 64 - cur;
		}
		hi = clz64(~b);
		if (lo + hi + 2 < 64 && 62 - lo - hi > best) {
			in = longest_ones(b >> (lo + 1) & range_mask(0, 62 - lo - hi), &at);
			if (in > best) {
				best = in;
				pos = w * 64 + lo + 1 + at;
			}
		}
		cur = hi;
	}
	if (cur > best) {
		best = cur;
		pos = m->nwords * 64 - cur;
	}
	m->largest = best;
	m->lpos = pos;
	m->stale = 0;
}

/* First taken unit in [u, limit), or limit; u < limit <= nunits. Units past
 * the end are taken, so the last word needs no clipping. */
static uint32_t run_end(const vs_ownunits *m, uint32_t u, uint32_t limit)
{
	uint32_t w = u / 64, wlast = (limit - 1) / 64;
	uint64_t b = ~m->bits[w] >> (u % 64);

	if (b)
		u += ctz64(b);
	else {
		while (++w <= wlast && !~m->bits[w])
			;
		u = w <= wlast ? w * 64 + ctz64(~m->bits[w]) : limit;
	}
	return u < limit ? u : limit;
}

/* One past the last taken unit before u < nunits, or 0. */
static uint32_t run_start(const vs_ownunits *m, uint32_t u)
{
	uint32_t w = u / 64;
	uint64_t b = ~m->bits[w] & range_mask(0, u % 64);

	while (!b) {
		if (w == 0)
			return 0;
		b = ~m->bits[--w];
	}
	return w * 64 + 64 - clz64(b);
}

/* Sets units [first, end) free or taken in the bitmap and keeps the free
 * statistics. A run starts at a free unit whose lower neighbour is taken:
 * the runs change by the starts in [first, end] before and after. After,
 * the units are one block, which starts a run only at its low end (freed,
 * below a taken unit) or makes `end` start one (taken, `end` free). Before,
 * a block all free or all taken (an allocation, a free) needs no count. */
/* Counts the free units under mask mk of word `old` (as it was) and the
 * runs starting there; `below` is the word below, as it was. */
static VS_ALWAYS_INLINE void count_free(uint64_t old, uint64_t mk, uint64_t below,
	uint32_t *nfree, uint32_t *nstarts)
{
	uint64_t f = old & mk, lower = old << 1 | below >> 63; /* each bit's lower neighbour */

	if (f == mk) {
		/* all free (mk is one block): a run starts only at its lowest bit */
		*nfree += 64 - clz64(mk) - ctz64(mk);
		*nstarts += !(lower & mk & (0 - mk));
	} else if (f) {
		*nfree += popcount64(f);
		*nstarts += popcount64(f & ~lower);
	}
}

/* The words of a block before its last (which bits_set_any does): counts
 * their free units and run starts, sets them, and returns the last one. */
static uint64_t set_words(uint64_t *bits, uint32_t w, uint32_t whi, uint64_t mk,
	uint64_t below, int to_free, uint32_t *was_free, uint32_t *was_starts)
{
	for (; w < whi; w++, mk = ~0ull) {
		uint64_t old = bits[w];
		count_free(old, mk, below, was_free, was_starts);
		bits[w] = to_free ? old | mk : old & ~mk;
		below = old;
	}
	return below;
}

/* A take that changed units of [first, end): the longest free run is
 * found again when next asked only if the take cut into the one run that
 * long it knows of (another as long may be left, or none). */
static VS_ALWAYS_INLINE void track_take(vs_ownunits *m, uint32_t first, uint32_t end)
{
	if (first < m->lpos + m->largest && end > m->lpos)
		m->stale = 1;
}

/* A free that changed units of [first, end): the run they are part of now
 * is the longest when it is longer. Out of line: a take has nothing to
 * look for. */
static VS_NOINLINE void track_free(vs_ownunits *m, uint32_t first, uint32_t end, int below_free, int end_free)
{
	uint32_t lo, hi;

	if (m->stale)
		return;
	lo = below_free ? run_start(m, first) : first;
	hi = end_free ? run_end(m, end, m->nunits) : end;
	if (hi - lo > m->largest) {
		m->largest = hi - lo;
		m->lpos = lo;
	}
}

/* Whether unit u - 1 is free (taken below unit 0: the guard word). */
static VS_ALWAYS_INLINE int below_is_free(const uint64_t *bits, uint32_t u)
{
	return (int)(bits[(int32_t)((u + 63) / 64) - 1] >> ((u - 1) % 64) & 1);
}

/* Whether unit u <= nunits is free (taken at nunits: padding or guard). */
static VS_ALWAYS_INLINE int unit_is_free(const uint64_t *bits, uint32_t u)
{
	return (int)(bits[u / 64] >> (u % 64) & 1);
}

/* Any mark: counts the free units and run starts in [first, end] before,
 * from the words (popcounts where a word is mixed), and after, from the
 * block's ends. */
static VS_NOINLINE void bits_set_any(vs_ownunits *m, uint32_t first, uint32_t end, int to_free)
{
	uint64_t *bits = m->bits;
	uint32_t w = first / 64, whi = (end - 1) / 64, was_free = 0, was_starts = 0, now_starts;
	uint64_t below = bits[(int32_t)w - 1], mk = ~0ull << first % 64, old; /* words as they were */
	int below_free = below_is_free(bits, first), end_free;

	end_free = unit_is_free(bits, end);
	was_starts += end_free && !unit_is_free(bits, end - 1);
	if (w < whi) {
		below = set_words(bits, w, whi, mk, below, to_free, &was_free, &was_starts);
		mk = ~0ull;
	}
	old = bits[whi];
	mk &= ~0ull >> (63 - (end - 1) % 64);
	count_free(old, mk, below, &was_free, &was_starts);
	bits[whi] = to_free ? old | mk : old & ~mk;
	if (to_free) {
		m->nfree += end - first - was_free;
		now_starts = !below_free;
	} else {
		m->nfree -= was_free;
		now_starts = end_free;
	}
	m->fruns += now_starts - was_starts; /* mod 2^32 */
	if (to_free && was_free != end - first)
		track_free(m, first, end, below_free, end_free);
	else if (!to_free && was_free && !m->stale)
		track_take(m, first, end);
}

/* Owner and kind of units [first, end): a few tiles at a time, so a loop,
 * not a call to memset; four units in three stores (both halves of o2
 * and each byte of k4 are the same), the last four overlapping the ones
 * before when the count is not a multiple of four. */
static VS_ALWAYS_INLINE void fill(vs_ownunits *m, uint32_t first, uint32_t end, uint32_t owner,
	vs_unit_kind kind)
{
	uint32_t *ow = m->owner, u, k4 = 0x01010101u * (uint8_t)kind;
	uint8_t *kd = m->kind;
	uint64_t o2 = (uint64_t)owner << 32 | owner;

	if (end - first < 4) {
		for (u = first; u < end; u++) {
			ow[u] = owner;
			kd[u] = (uint8_t)kind;
		}
		return;
	}
	for (u = first; u + 4 < end; u += 4) {
		memcpy(ow + u, &o2, sizeof o2);
		memcpy(ow + u + 2, &o2, sizeof o2);
		memcpy(kd + u, &k4, sizeof k4);
	}
	memcpy(ow + end - 4, &o2, sizeof o2);
	memcpy(ow + end - 2, &o2, sizeof o2);
	memcpy(kd + end - 4, &k4, sizeof k4);
}

/* Units [first, end) inside word w, which were all free, taken: only the
 * block's ends count (it ends a run below it or starts one above). */
static VS_ALWAYS_INLINE void take_in_word(vs_ownunits *m, uint32_t first, uint32_t end, uint64_t old,
	uint64_t mk)
{
	uint64_t *bits = m->bits;
	int below_free = below_is_free(bits, first), end_free = unit_is_free(bits, end);

	bits[first / 64] = old & ~mk;
	m->nfree -= end - first;
	m->fruns += end_free - !below_free;
	if (!m->stale)
		track_take(m, first, end);
}

/* Mask of [first, end) in their one word. */
static VS_ALWAYS_INLINE uint64_t word_mask(uint32_t first, uint32_t end)
{
	return ~0ull << first % 64 & ~0ull >> (63 - (end - 1) % 64);
}

/* Most marks are an allocation taking free units or a free of taken ones,
 * within one word: the block flips whole, its units all change and only
 * its ends count. Anything else takes the general way. */
void vs_ownunits_set(vs_ownunits *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind)
{
	uint64_t *bits = m->bits, mk, old = bits[first / 64];
	int below_free, end_free;

	fill(m, first, end, owner, kind);
	if (first / 64 != (end - 1) / 64) {
		bits_set_any(m, first, end, kind == VS_UNIT_FREE);
		return;
	}
	mk = word_mask(first, end);
	if (kind != VS_UNIT_FREE) {
		if ((old & mk) == mk)
			take_in_word(m, first, end, old, mk);
		else
			bits_set_any(m, first, end, 0);
		return;
	}
	if (old & mk) {
		bits_set_any(m, first, end, 1);
		return;
	}
	bits[first / 64] = old | mk;
	below_free = below_is_free(bits, first);
	end_free = unit_is_free(bits, end);
	m->nfree += end - first;
	m->fruns += !below_free - end_free;
	track_free(m, first, end, below_free, end_free);
}

int64_t vs_ownunits_take(vs_ownunits *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind)
{
	uint64_t *bits = m->bits, mk, old = bits[first / 64];
	uint32_t u;

	if (first / 64 == (end - 1) / 64) {
		mk = word_mask(first, end);
		if ((old & mk) != mk)
			return (int64_t)(first / 64 * 64 + ctz64(~old & mk));
		if (kind != VS_UNIT_FREE) {
			fill(m, first, end, owner, kind);
			take_in_word(m, first, end, old, mk);
		}
		return -1;
	}
	u = run_end(m, first, end);
	if (u < end)
		return u;
	if (kind != VS_UNIT_FREE)
		vs_ownunits_set(m, first, end, owner, kind);
	return -1;
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
	m->lpos = 0;
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
	m->bits = malloc((size_t)(m->nwords + 2) * sizeof *m->bits);
	if (!m->owner || !m->kind || !m->bits) {
		vs_ownunits_free(m);
		return NULL;
	}
	m->bits[0] = m->bits[m->nwords + 1] = 0; /* the guards: taken */
	m->bits++;
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
	m->lpos = src->lpos;
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
	free(m->bits ? m->bits - 1 : NULL);
	free(m);
}

int vs_ownunits_run_at(const vs_ownunits *m, uint32_t unit, vs_own_run *out)
{
	uint32_t lo = unit, hi = unit + 1;

	if (unit >= m->nunits)
		return -1;
	if (is_free(m, unit)) {
		lo = run_start(m, unit);
		hi = run_end(m, unit, m->nunits);
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

int64_t vs_ownunits_first_taken(const vs_ownunits *m, uint32_t first, uint32_t end)
{
	uint32_t u = run_end(m, first, end);

	return u < end ? (int64_t)u : -1;
}

void vs_ownunits_rescan_stats(vs_ownunits *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree)
{
	rescan(m);
	vs_ownunits_stats(m, largest, runs, nfree);
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
	return sizeof *m + (size_t)m->nunits * (sizeof *m->owner + 1) + (size_t)(m->nwords + 2) * sizeof *m->bits;
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
			u = next_free(m, u);
			if (u >= end)
				break;
		}
		if (is_free(m, u)) {
			v = run_end(m, u, m->nunits);
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
