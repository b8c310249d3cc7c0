/* SPDX-License-Identifier: Zlib */
/* heap_common.h - what the RAM heap allocators share: result codes, the
 * placement they report, little-endian word access to the memory they manage,
 * and the boundary tags of the general heaps (fit, TLSF, Doug Lea).
 *
 * Every heap manages a region given as (base, size) by its caller and keeps
 * its headers in that region, as the real design does. Places are reported as
 * offsets from base, never host pointers, and the state structs hold only
 * offsets, so a memcpy of the state (plus the region bytes) is a snapshot.
 * Words in the region are read and written byte by byte, little-endian, as
 * the ARM consoles store them, whatever the host.
 *
 * Freestanding: only <stdint.h>. Every store into the region goes through
 * heap_st32 or heap_watch_store (below), so a replay can watch them.
 */
#ifndef VRAMSIM_ALLOC_HEAP_COMMON_H
#define VRAMSIM_ALLOC_HEAP_COMMON_H

#include <stdint.h>

#include "vramsim/alloc/bits.h"

#define HEAP_NIL 0xFFFFFFFFu

/* Result codes, numbered as vs_status so adapters can pass them through. */
enum {
	HEAP_OK = 0,
	HEAP_RETAINED = 1,     /* free accepted, memory stays held */
	HEAP_NOSPACE = -1,     /* no place found */
	HEAP_MANAGEMENT = -2,  /* out of bookkeeping (record table full) */
	HEAP_UNSUPPORTED = -4, /* the allocator cannot serve this request */
	HEAP_INVALID = -5      /* not an allocation this heap owns, or already free */
};

/* Where an allocation landed. offset/granted: the payload the owner may use.
 * block_offset/block_size: everything taken from free space (header,
 * alignment padding, payload, rounding). */
typedef struct heap_block {
	uint32_t offset;
	uint32_t granted;
	uint32_t block_offset;
	uint32_t block_size;
} heap_block;

/* GetStatus of The Simpsons: Hit & Run's IRadMemoryAllocator. total_free
 * and largest are bytes a future allocation could take (free block bytes,
 * headers of free blocks included); objects is the number of live
 * allocations; high_water is the highest region offset any block has
 * reached (the brk an sbrk-based heap would have needed: malloc-lab's "heap
 * size"). */
typedef struct heap_status {
	uint32_t total_free;
	uint32_t largest;
	uint32_t objects;
	uint32_t high_water;
} heap_status;

/* Called for each free extent (offset from base, bytes); non-zero stops. */
typedef int (*heap_extent_fn)(void *ud, uint32_t offset, uint32_t size);

/* The bytes are read through a pointer to the word, not as m[o + k]: a 32-bit
 * o + k could wrap, so a compiler must keep four loads; p[k] it may merge into
 * one where the host allows unaligned words. */
static inline uint32_t heap_ld32(const uint8_t *m, uint32_t o)
{
	const uint8_t *p = m + o;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- watched stores --------------------------------------------------------
 * Every store a heap makes into the memory it manages goes through
 * heap_st32 or heap_watch_store. A host build with HEAP_WATCH_STORES defined
 * (vramsim's own) lets the replay see them: while heap_watch_on is a watch
 * (size not 0), a store into a live allocation's data is counted, with the
 * first byte of it that is. The watch is a bit per 64-byte granule, set when
 * any byte of the granule is live data, and for a granule only partly so
 * the mask of its bytes that are (docs/heaps.md, Checks). Without the
 * define (the consoles' builds) the stores are plain. */
#define HEAP_WATCH_GRANULE 64u

typedef struct heap_watch {
	uintptr_t base;       /* the memory watched, as an address */
	uint32_t size;
	const uint64_t *live; /* bit g: granule g holds live data */
	const uint64_t *part; /* for a live granule g, bit b of part[g]: its byte b is live data; all of them
	                       * when part[g] is 0 (a granule inside one allocation's data) */
	uint32_t hits;        /* stores seen there since the replay last looked */
	uint32_t first;       /* offset of the first live byte the first of them wrote */
} heap_watch;

/* Bytes [lo, hi) of a granule as a mask of heap_watch's part (lo < hi <= 64). */
static inline uint64_t heap_watch_bytes(uint32_t lo, uint32_t hi)
{
	return (hi - lo == 64u ? ~0ull : (1ull << (hi - lo)) - 1u) << lo;
}

#ifdef HEAP_WATCH_STORES
/* The watch in force, one per thread (the replays of `compare -j` run side
 * by side); size 0 when none. The struct itself, not a pointer to one: a
 * store's test reads its fields straight from thread-local storage, and
 * must read them again after every store (a byte store may alias them). */
extern __thread heap_watch heap_watch_on;

static inline int heap_watch_live(const uint64_t *live, uint32_t g)
{
	return (int)(live[g / 64u] >> (g % 64u) & 1u);
}

/* A store into the watched memory that may count (in a live granule, or
 * over several): in heap_watch.c, out of the allocators' way. */
void heap_watch_seen(uintptr_t off, uint32_t n);

static inline void heap_watch_store(const uint8_t *p, uint32_t n)
{
	uintptr_t off = (uintptr_t)p - heap_watch_on.base;
	uint32_t g;
	uint64_t part;

	if (off >= heap_watch_on.size || !n)
		return; /* no watch, or not the watched memory (a heap's own state) */
	if (off % HEAP_WATCH_GRANULE + n > HEAP_WATCH_GRANULE) {
		heap_watch_seen(off, n); /* over two granules, or more */
		return;
	}
	/* the usual store, an aligned word outside live data, ends here */
	g = (uint32_t)off / HEAP_WATCH_GRANULE;
	if (!heap_watch_live(heap_watch_on.live, g))
		return;
	part = heap_watch_on.part[g];
	if (!part || (part >> (off % HEAP_WATCH_GRANULE) & ((2ull << (n - 1u)) - 1u)))
		heap_watch_seen(off, n);
}
#else
static inline void heap_watch_store(const uint8_t *p, uint32_t n)
{
	(void)p;
	(void)n;
}
#endif

static inline void heap_st32(uint8_t *m, uint32_t o, uint32_t v)
{
	uint8_t *p = m + o; /* one store where the host allows: see heap_ld32 */

	heap_watch_store(p, 4u);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline int heap_is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* Rounds v up to a multiple of a (a power of two); HEAP_NIL on overflow. */
static inline uint32_t heap_align_up(uint32_t v, uint32_t a)
{
	uint32_t r = (v + (a - 1)) & ~(a - 1);

	return r < v ? HEAP_NIL : r;
}

/* ---- boundary tags --------------------------------------------------------
 * A block starts with a 4-byte head word: its size (a multiple of 8, header
 * included) with HT_CINUSE (this block is allocated) and HT_PINUSE (the block
 * before it is allocated). The payload starts right after the head, so blocks
 * start at 4 mod 8 and payloads are 8-byte aligned. A free block also holds
 * its next and previous free-list links after the head and repeats its size
 * in its last word (the foot), which the block after it reads to coalesce
 * backwards; an allocated block has no foot, its payload runs to its end.
 * The region ends in a 4-byte epilogue head of size 0, marked in use. */
#define HT_ALIGN 8u
#define HT_HEAD 4u
#define HT_MIN 16u
#define HT_CINUSE 1u
#define HT_PINUSE 2u
#define HT_FLAGS 7u

static inline uint32_t ht_head(const uint8_t *m, uint32_t b) { return heap_ld32(m, b); }
static inline uint32_t ht_size(const uint8_t *m, uint32_t b) { return heap_ld32(m, b) & ~HT_FLAGS; }
static inline void ht_set_head(uint8_t *m, uint32_t b, uint32_t size, uint32_t flags)
{
	heap_st32(m, b, size | flags);
}
static inline void ht_set_foot(uint8_t *m, uint32_t b, uint32_t size) { heap_st32(m, b + size - 4u, size); }
static inline uint32_t ht_next(const uint8_t *m, uint32_t b) { return heap_ld32(m, b + 4u); }
static inline uint32_t ht_prev(const uint8_t *m, uint32_t b) { return heap_ld32(m, b + 8u); }
static inline void ht_set_next(uint8_t *m, uint32_t b, uint32_t v) { heap_st32(m, b + 4u, v); }
static inline void ht_set_prev(uint8_t *m, uint32_t b, uint32_t v) { heap_st32(m, b + 8u, v); }
static inline void ht_set_pinuse(uint8_t *m, uint32_t b) { heap_st32(m, b, heap_ld32(m, b) | HT_PINUSE); }
static inline void ht_clear_pinuse(uint8_t *m, uint32_t b) { heap_st32(m, b, heap_ld32(m, b) & ~HT_PINUSE); }

/* Block bytes for a request of size bytes: head + payload rounded to 8, at
 * least HT_MIN. 0 when the request cannot fit 32 bits. */
/* Marks block b of asize bytes in use (pin: the previous block's in-use
 * bit), counts it in the heap's objects and high-water mark, and describes
 * it: the payload after the head, the whole block for the simulator. */
static inline void ht_grant(uint8_t *m, uint32_t b, uint32_t asize, uint32_t pin, uint32_t *objects,
	uint32_t *high_water, heap_block *out)
{
	ht_set_head(m, b, asize, HT_CINUSE | pin);
	(*objects)++;
	if (b + asize > *high_water)
		*high_water = b + asize;
	out->offset = b + HT_HEAD;
	out->granted = asize - HT_HEAD;
	out->block_offset = b;
	out->block_size = asize;
}

static inline uint32_t ht_need(uint32_t size)
{
	uint32_t n;

	if (size > 0xFFFFFF00u)
		return 0;
	n = (size + HT_HEAD + HT_ALIGN - 1u) & ~(HT_ALIGN - 1u);
	return n < HT_MIN ? HT_MIN : n;
}

/* Lays out the region [start, start+size) for boundary-tagged blocks: the
 * first block starts at 4 mod 8, the epilogue ends the last multiple of 8.
 * Returns 0 and the first block and epilogue offsets, or -1 when the region
 * has no room for one minimum block. */
static inline int ht_layout(uint32_t start, uint32_t size, uint32_t *first, uint32_t *epi)
{
	uint32_t f = heap_align_up(start + HT_HEAD, HT_ALIGN) - HT_HEAD, span;

	if (f == HEAP_NIL - HT_HEAD || size < HT_MIN + 16u || f + HT_MIN + HT_HEAD > start + size)
		return -1;
	span = (start + size - HT_HEAD - f) & ~(HT_ALIGN - 1u);
	if (span < HT_MIN)
		return -1;
	*first = f;
	*epi = f + span;
	return 0;
}

/* Lead gap inside a free block b of S bytes so that a payload aligned to
 * align (a power of two > 8) fits need block bytes: 0, or at least HT_MIN so
 * the gap can stay a free block. HEAP_NIL when it does not fit. */
static inline uint32_t ht_fit_gap(uint32_t b, uint32_t S, uint32_t need, uint32_t align)
{
	uint32_t p, g;

	if (align <= HT_ALIGN)
		return S >= need ? 0 : HEAP_NIL;
	p = heap_align_up(b + HT_HEAD, align);
	if (p == HEAP_NIL)
		return HEAP_NIL;
	g = p - HT_HEAD - b;
	if (g != 0 && g < HT_MIN)
		g += align;
	if (g > S || S - g < need)
		return HEAP_NIL;
	return g;
}

/* Checks that payload offset p is the payload of an allocated block of a
 * boundary-tagged region [first, epi): on a block boundary, in use, of a
 * sane size, and the block after it agrees. Returns the block or HEAP_NIL. */
static inline uint32_t ht_check_live(const uint8_t *m, uint32_t first, uint32_t epi, uint32_t p)
{
	uint32_t b, s;

	if (p < first + HT_HEAD || p >= epi || ((p - HT_HEAD - first) & (HT_ALIGN - 1u)))
		return HEAP_NIL;
	b = p - HT_HEAD;
	if (!(ht_head(m, b) & HT_CINUSE))
		return HEAP_NIL;
	s = ht_size(m, b);
	if (s < HT_MIN || s > epi - b || !(ht_head(m, b + s) & HT_PINUSE))
		return HEAP_NIL;
	return b;
}

/* The free blocks of a boundary-tagged region [first, epi) in address
 * order, walked by their heads, until fn returns non-zero. */
static inline void ht_walk_free(const uint8_t *m, uint32_t first, uint32_t epi, heap_extent_fn fn, void *ud)
{
	uint32_t b;

	for (b = first; b < epi; b += ht_size(m, b))
		if (!(ht_head(m, b) & HT_CINUSE) && fn(ud, b, ht_size(m, b)))
			return;
}

#endif
