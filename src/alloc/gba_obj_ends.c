/* SPDX-License-Identifier: Zlib */
/* gba_obj_ends.c - two-ended best fit over an OBJ tile bitmap (see header). */
#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/gba_obj_ends.h"

#define TILES GBA_OBJ_ENDS_TILES
#define WORDS GBA_OBJ_ENDS_WORDS
#define CLASSES GBA_OBJ_ENDS_CLASSES

/* Class of a free run of len tiles: floor(log2(len)), the last class taking
 * every longer run. */
static unsigned run_class(uint32_t len)
{
	if (len >= 64u)
		return 6;
	if (len >= 8u)
		return len >= 32u ? 5 : len >= 16u ? 4 : 3;
	return len >= 4u ? 2 : len >= 2u ? 1 : 0;
}

/* First tile in use at or after tile s (free), or TILES: words wholly free
 * are passed over at once through fullw. */
static uint32_t run_end(const gba_obj_ends *a, uint32_t s)
{
	uint32_t w = s >> 5, x = ~a->freew[w] & (0xFFFFFFFFu << (s & 31u));

	if (x)
		return w * 32u + bits_ctz32(x);
	if (w + 1u >= WORDS)
		return TILES;
	x = ~a->fullw & (0xFFFFFFFFu << (w + 1u));
	if (!x)
		return TILES;
	w = bits_ctz32(x);
	return w * 32u + bits_ctz32(~a->freew[w]);
}

/* Start of the free run that holds tile t - 1 (free), the same way down. */
static uint32_t run_start(const gba_obj_ends *a, uint32_t t)
{
	uint32_t w = (t - 1u) >> 5, x = ~a->freew[w] & (0xFFFFFFFFu >> (31u - ((t - 1u) & 31u)));

	if (x)
		return w * 32u + bits_top32(x) + 1u;
	x = w ? ~a->fullw & (0xFFFFFFFFu >> (32u - w)) : 0u;
	if (!x)
		return 0;
	w = bits_top32(x);
	return w * 32u + bits_top32(~a->freew[w]) + 1u;
}

/* Words w0..w1 as bits of fullw. */
static uint32_t word_span(uint32_t w0, uint32_t w1)
{
	return (w1 == 31u ? 0xFFFFFFFFu : (1u << (w1 + 1u)) - 1u) & ~((1u << w0) - 1u);
}

/* Tiles [t, t + n) were just freed: the words wholly inside are all free
 * now, the two end words may be. */
static void mark_full(gba_obj_ends *a, uint32_t t, uint32_t n)
{
	uint32_t w0 = t >> 5, w1 = (t + n - 1u) >> 5;

	if (w1 > w0 + 1u)
		a->fullw |= word_span(w0 + 1u, w1 - 1u);
	if (a->freew[w0] == 0xFFFFFFFFu)
		a->fullw |= 1u << w0;
	if (a->freew[w1] == 0xFFFFFFFFu)
		a->fullw |= 1u << w1;
}

static void run_add(gba_obj_ends *a, uint32_t s, uint32_t len)
{
	unsigned c = run_class(len);

	a->runs[c][s >> 5] |= 1u << (s & 31u);
	a->words[c] |= 1u << (s >> 5);
}

static void run_del(gba_obj_ends *a, uint32_t s, uint32_t len)
{
	unsigned c = run_class(len);

	a->runs[c][s >> 5] &= ~(1u << (s & 31u));
	if (!a->runs[c][s >> 5])
		a->words[c] &= ~(1u << (s >> 5));
}

/* The smallest free run [s, e) that holds n tiles at alignment al; a small
 * request takes the highest aligned start in it (highest run on ties), a
 * large one the lowest (lowest run on ties). -1 if no run holds it. Runs
 * are visited by length class from n's own upwards: every run of a higher
 * class is longer than every run of a lower one, so the first class with a
 * fit holds the best fit, and each class is read in address order. */
static int32_t find(const gba_obj_ends *a, uint32_t n, uint32_t al, uint32_t *run_s, uint32_t *run_e)
{
	int small = n <= GBA_OBJ_ENDS_SMALL;
	unsigned c;

	for (c = run_class(n); c < CLASSES; c++) {
		uint32_t ws = a->words[c], best_len = TILES + 1u;
		int32_t best = -1;

		while (ws) {
			uint32_t w = bits_ctz32(ws), x = a->runs[c][w];

			ws &= ws - 1u;
			while (x) {
				uint32_t s = w * 32u + bits_ctz32(x), e, lo, hi;

				x &= x - 1u;
				e = run_end(a, s);
				lo = (s + al - 1u) & ~(al - 1u);
				if (lo + n > e)
					continue;
				if (!small) {
					if (e - s < best_len) {
						best_len = e - s;
						best = (int32_t)lo;
						*run_s = s;
						*run_e = e;
						if (best_len == n)
							return best; /* exact and lowest: nothing beats it */
					}
					continue;
				}
				hi = (e - n) & ~(al - 1u);
				if (e - s <= best_len) {
					best_len = e - s;
					best = (int32_t)hi;
					*run_s = s;
					*run_e = e;
				}
			}
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

void gba_obj_ends_init(gba_obj_ends *a, uint16_t first_tile)
{
	gba_obj_ends_init_span(a, first_tile, TILES);
}

void gba_obj_ends_init_span(gba_obj_ends *a, uint16_t first, uint16_t end)
{
	unsigned i, c;

	if (end > TILES)
		end = TILES;
	if (first > end)
		first = end;
	a->first = first;
	for (i = 0; i < WORDS; i++) {
		a->freew[i] = 0;
		a->start[i] = 0;
		for (c = 0; c < CLASSES; c++)
			a->runs[c][i] = 0;
	}
	for (c = 0; c < CLASSES; c++)
		a->words[c] = 0;
	a->fullw = 0;
	/* tiles from end up stay taken: the runs stop there as at the top */
	if (first < end) {
		bits_fill(a->freew, first, end - first, 1);
		mark_full(a, first, end - first);
		run_add(a, first, end - first);
	}
}

int gba_obj_ends_is_free(const gba_obj_ends *a, uint16_t tile)
{
	return tile < TILES && ((a->freew[tile >> 5] >> (tile & 31u)) & 1u);
}

int gba_obj_ends_is_start(const gba_obj_ends *a, uint16_t tile)
{
	return tile < TILES && ((a->start[tile >> 5] >> (tile & 31u)) & 1u);
}

uint16_t gba_obj_ends_alloc(gba_obj_ends *a, uint16_t n, uint16_t align)
{
	int32_t s;
	uint32_t rs = 0, re = 0, t;

	if (n == 0 || n > TILES || align == 0 || (align & (align - 1u)))
		return GBA_OBJ_ENDS_NONE;
	s = find(a, n, align, &rs, &re);
	if (s < 0)
		return GBA_OBJ_ENDS_NONE;
	t = (uint32_t)s;
	/* the run splits into what is left below and above the allocation */
	run_del(a, rs, re - rs);
	if (t > rs)
		run_add(a, rs, t - rs);
	if (t + n < re)
		run_add(a, t + n, re - t - n);
	bits_fill(a->freew, t, n, 0);
	a->fullw &= ~word_span(t >> 5, (t + n - 1u) >> 5);
	a->start[t >> 5] |= 1u << (t & 31u);
	return (uint16_t)t;
}

int gba_obj_ends_free(gba_obj_ends *a, uint16_t tile, uint16_t n)
{
	uint32_t t = tile, s = tile, e = t + n;

	if (n == 0 || t + n > TILES || !gba_obj_ends_is_start(a, tile))
		return -1;
	/* every tile of it must be taken: a free one means a bad free */
	if (!bits_all(a->freew, tile, n, 0))
		return -1;
	/* merge with the free runs that touch it on either side */
	if (t > 0 && bits_get(a->freew, t - 1u)) {
		s = run_start(a, t);
		run_del(a, s, t - s);
	}
	if (e < TILES && bits_get(a->freew, e)) {
		uint32_t f = run_end(a, e);
		run_del(a, e, f - e);
		e = f;
	}
	run_add(a, s, e - s);
	a->start[tile >> 5] &= ~(1u << (tile & 31u));
	bits_fill(a->freew, tile, n, 1);
	mark_full(a, tile, n);
	return 0;
}
