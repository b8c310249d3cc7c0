/* SPDX-License-Identifier: Zlib */
/* bits.h - bitmap helpers shared by the allocators that keep a bit per
 * unit (gba_obj_snug.c, gba_obj_ends.c, ds_tex_pair.c, ds_pltt_split.c),
 * the one popcount of the project (the ownership map's too), and the one
 * lowest and highest set bit (the heaps' too: heap_common.h).
 * A set bit is a free unit. Words are
 * 32 bits (the ARM7/ARM9 word); every search is a bounded scan over the
 * words plus the free runs met, with no allocation of its own.
 * Freestanding: no host headers.
 */
#ifndef VRAMSIM_ALLOC_BITS_H
#define VRAMSIM_ALLOC_BITS_H

#include <stdint.h>

/* The hosts' compilers count bits in one instruction (the heaps' free-list
 * maps ask on every call); the consoles' have none (the ARM7TDMI has no
 * CLZ) and take the portable forms, which give the same answers. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
#define BITS_BUILTIN 1
#endif

/* Index of the lowest set bit (0 for 0). */
static inline uint32_t bits_ctz32(uint32_t x)
{
#ifdef BITS_BUILTIN
	return x ? (uint32_t)__builtin_ctz(x) : 0u;
#else
	/* de Bruijn: no ctz instruction on the ARM7TDMI */
	static const uint8_t pos[32] = {
		0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
		31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9
	};
	return pos[((x & (0u - x)) * 0x077CB531u) >> 27];
#endif
}

/* Set bits of x: the SWAR sum, no table. Not __builtin_popcount: the
 * ARM7TDMI has no instruction for it, so GCC calls libgcc's. */
static inline uint32_t bits_popcount32(uint32_t x)
{
	x -= (x >> 1) & 0x55555555u;
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0F0F0F0Fu;
	return (x * 0x01010101u) >> 24;
}

static inline int bits_get(const uint32_t *w, uint32_t i)
{
	return (int)((w[i >> 5] >> (i & 31u)) & 1u);
}

/* Sets (v = 1, free) or clears (v = 0, used) bits [first, first + n). */
static inline void bits_fill(uint32_t *w, uint32_t first, uint32_t n, int v)
{
	while (n) {
		uint32_t i = first >> 5, b = first & 31u, k = 32u - b < n ? 32u - b : n;
		uint32_t m = (k == 32u ? 0xFFFFFFFFu : ((1u << k) - 1u)) << b;
		if (v)
			w[i] |= m;
		else
			w[i] &= ~m;
		first += k;
		n -= k;
	}
}

/* Whether every bit of [first, first + n) equals v. */
static inline int bits_all(const uint32_t *w, uint32_t first, uint32_t n, int v)
{
	while (n) {
		uint32_t i = first >> 5, b = first & 31u, k = 32u - b < n ? 32u - b : n;
		uint32_t m = (k == 32u ? 0xFFFFFFFFu : ((1u << k) - 1u)) << b;
		if ((w[i] & m) != (v ? m : 0u))
			return 0;
		first += k;
		n -= k;
	}
	return 1;
}

/* First index in [i, end) whose bit equals v, or end. */
static inline uint32_t bits_next(const uint32_t *w, uint32_t i, uint32_t end, int v)
{
	while (i < end) {
		uint32_t x = v ? w[i >> 5] : ~w[i >> 5];
		x &= 0xFFFFFFFFu << (i & 31u);
		if (x) {
			i = (i & ~31u) + bits_ctz32(x);
			return i < end ? i : end;
		}
		i = (i & ~31u) + 32u;
	}
	return end;
}

/* Highest set bit of x (x != 0): smear it down, keep the top one. */
/* Index of the highest set bit (0 for 0). */
static inline uint32_t bits_top32(uint32_t x)
{
#ifdef BITS_BUILTIN
	return x ? 31u - (uint32_t)__builtin_clz(x) : 0u;
#else
	x |= x >> 1;
	x |= x >> 2;
	x |= x >> 4;
	x |= x >> 8;
	x |= x >> 16;
	return bits_ctz32(x - (x >> 1));
#endif
}
/* Highest index in [lo, i) whose bit equals v, or i when there is none. */
static inline uint32_t bits_prev(const uint32_t *w, uint32_t lo, uint32_t i, int v)
{
	uint32_t end = i;

	while (i > lo) {
		uint32_t b = (i - 1u) & 31u, x = v ? w[(i - 1u) >> 5] : ~w[(i - 1u) >> 5];
		x &= 0xFFFFFFFFu >> (31u - b);
		if (x) {
			i = ((i - 1u) & ~31u) + bits_top32(x);
			return i >= lo ? i : end;
		}
		i = (i - 1u) & ~31u;
	}
	return end;
}

/* Lowest start s in [lo, hi - n], a multiple of align (power of two, in
 * units), with n free bits. Returns hi when there is none. */
static inline uint32_t bits_find_low(const uint32_t *w, uint32_t lo, uint32_t hi, uint32_t n,
	uint32_t align)
{
	uint32_t p = lo;

	while (p < hi) {
		uint32_t s = bits_next(w, p, hi, 1), e;
		if (s >= hi)
			break;
		s = (s + align - 1u) & ~(align - 1u);
		if (s >= hi)
			break;
		if (!bits_get(w, s)) {
			p = s;
			continue;
		}
		e = bits_next(w, s, hi, 0);
		if (e - s >= n)
			return s;
		p = e;
	}
	return hi;
}

#endif
