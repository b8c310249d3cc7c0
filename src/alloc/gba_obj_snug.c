/* gba_obj_snug.c - aligned best fit over an OBJ tile bitmap (see header). */
#include "vramsim/alloc/gba_obj_snug.h"

#define WORDS GBA_OBJ_SNUG_WORDS
#define TOP 10u /* 2^10 = 1024 tiles */
#define FULL 0xFFFFFFFFu

/* Count trailing zeros of x != 0 (de Bruijn; the ARM7TDMI has no CLZ). */
static unsigned ctz32(uint32_t x)
{
	static const uint8_t tab[32] = {
		0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
		31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9
	};
	return tab[((x & (~x + 1u)) * 0x077CB531u) >> 27];
}

/* Index of the highest set bit of x != 0. */
static unsigned hibit32(uint32_t x)
{
	x |= x >> 1;
	x |= x >> 2;
	x |= x >> 4;
	x |= x >> 8;
	x |= x >> 16;
	return ctz32((x >> 1) + 1u);
}

/* Mask of bits [lo, lo + n) of a word, 0 < n, lo + n <= 32. */
static uint32_t span(unsigned lo, unsigned n)
{
	return (n >= 32u ? FULL : ((1u << n) - 1u)) << lo;
}

static void set_free(uint32_t *w, uint32_t t, uint32_t n, int on)
{
	while (n) {
		unsigned lo = t & 31u, k = 32u - lo < n ? 32u - lo : n;
		if (on)
			w[t >> 5] |= span(lo, k);
		else
			w[t >> 5] &= ~span(lo, k);
		t += k;
		n -= k;
	}
}

/* Bits at multiples of 2^j (j <= 5) where the 2^j tiles from there are all
 * free: a log-step AND of the word with itself shifted. */
static uint32_t aligned_free(uint32_t f, unsigned j)
{
	static const uint32_t at[6] = {
		FULL, 0x55555555u, 0x11111111u, 0x01010101u, 0x00010001u, 0x00000001u
	};
	unsigned i;

	for (i = 0; i < j; i++)
		f &= f >> (1u << i);
	return f & at[j];
}

static int words_full(const gba_obj_snug *a, unsigned w, unsigned n)
{
	while (n--)
		if (a->freew[w++] != FULL)
			return 0;
	return 1;
}

/* Free aligned 2^j blocks in word w whose 2^(j+1) parent is not wholly
 * free, as bits at their first tile. For j >= 5 a block spans whole words
 * and its bit is bit 0 of its first word (other words give 0). */
static uint32_t snug_blocks(const gba_obj_snug *a, unsigned j, unsigned w)
{
	uint32_t f = a->freew[w], mine, parent;

	if (j < 5u) {
		mine = aligned_free(f, j);
		parent = aligned_free(f, j + 1u);
		return mine & ~(parent | (parent << (1u << j)));
	}
	{
		unsigned n = 1u << (j - 5u);
		if (w & (n - 1u) || !words_full(a, w, n))
			return 0;
		if (j == TOP)
			return 1;
		return words_full(a, w & ~(2u * n - 1u), 2u * n) ? 0 : 1;
	}
}

/* Finds the snuggest free aligned block for level k: returns its level in
 * *lvl and first tile, or -1. high picks the highest block of that level. */
static int32_t find_aligned(const gba_obj_snug *a, unsigned k, int high, unsigned *lvl)
{
	unsigned j, i, w;
	uint32_t c;

	for (j = k; j <= TOP; j++) {
		for (i = 0; i < WORDS; i++) {
			w = high ? WORDS - 1u - i : i;
			c = snug_blocks(a, j, w);
			if (!c)
				continue;
			*lvl = j;
			return (int32_t)(w * 32u + (high ? hibit32(c) : ctz32(c)));
		}
	}
	return -1;
}

/* Next tile at or after t whose free bit equals want, or TILES. */
static uint32_t next_with(const gba_obj_snug *a, uint32_t t, int want)
{
	while (t < GBA_OBJ_SNUG_TILES) {
		uint32_t w = a->freew[t >> 5];
		if (!want)
			w = ~w;
		w &= FULL << (t & 31u);
		if (w)
			return (t & ~31u) + ctz32(w);
		t = (t & ~31u) + 32u;
	}
	return GBA_OBJ_SNUG_TILES;
}

/* Smallest free run that holds n tiles at alignment al; -1 if none. */
static int32_t find_run(const gba_obj_snug *a, uint32_t n, uint32_t al, int high)
{
	uint32_t s, e, lo, hi, best = 0xFFFFFFFFu;
	int32_t at = -1;

	for (s = next_with(a, a->first, 1); s < GBA_OBJ_SNUG_TILES; s = next_with(a, e, 1)) {
		e = next_with(a, s, 0);
		if (e - s < n || e - s > best || (e - s == best && !high))
			continue;
		lo = (s + al - 1u) & ~(al - 1u);
		hi = (e - n) & ~(al - 1u);
		if (lo + n > e)
			continue;
		best = e - s;
		at = (int32_t)(high ? hi : lo);
	}
	return at;
}

void gba_obj_snug_init(gba_obj_snug *a, uint16_t first_tile, uint16_t low_from)
{
	unsigned i;

	if (first_tile > GBA_OBJ_SNUG_TILES)
		first_tile = GBA_OBJ_SNUG_TILES;
	a->first = first_tile;
	a->low_from = low_from;
	for (i = 0; i < WORDS; i++) {
		a->freew[i] = 0;
		a->start[i] = 0;
	}
	set_free(a->freew, first_tile, GBA_OBJ_SNUG_TILES - first_tile, 1);
}

int gba_obj_snug_is_free(const gba_obj_snug *a, uint16_t tile)
{
	return tile < GBA_OBJ_SNUG_TILES && ((a->freew[tile >> 5] >> (tile & 31u)) & 1u);
}

uint16_t gba_obj_snug_alloc(gba_obj_snug *a, uint16_t n, uint16_t align)
{
	unsigned k = 0, j = 0;
	uint32_t need, b, s;
	int32_t found;
	int high;

	if (n == 0 || n > GBA_OBJ_SNUG_TILES || align == 0 || (align & (align - 1u)))
		return GBA_OBJ_SNUG_NONE;
	need = n > align ? n : align;
	while ((1u << k) < need)
		k++;
	high = n < a->low_from;
	found = find_aligned(a, k, high, &j);
	if (found >= 0) {
		b = (uint32_t)found;
		/* Carve from the side that faces the used half of the parent
		 * (the whole-memory block has none: follow the size's side). */
		if (j == TOP ? high : !(b & (1u << j))) {
			b += (1u << j) - (1u << k);
			s = (b + (1u << k) - n) & ~(uint32_t)(align - 1u);
		} else {
			s = b;
		}
	} else {
		found = find_run(a, n, align, high);
		if (found < 0)
			return GBA_OBJ_SNUG_NONE;
		s = (uint32_t)found;
	}
	set_free(a->freew, s, n, 0);
	a->start[s >> 5] |= 1u << (s & 31u);
	return (uint16_t)s;
}

int gba_obj_snug_free(gba_obj_snug *a, uint16_t tile, uint16_t n)
{
	uint32_t t = tile, left = n;

	if (n == 0 || t + n > GBA_OBJ_SNUG_TILES || !((a->start[t >> 5] >> (t & 31u)) & 1u))
		return -1;
	while (left) {
		unsigned lo = t & 31u, k = 32u - lo < left ? 32u - lo : left;
		if (a->freew[t >> 5] & span(lo, k))
			return -1;
		t += k;
		left -= k;
	}
	a->start[tile >> 5] &= ~(1u << (tile & 31u));
	set_free(a->freew, tile, n, 1);
	return 0;
}
