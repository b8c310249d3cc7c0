/* SPDX-License-Identifier: Zlib */
/* test_nitro_engine.c - Nitro Engine's VRAM allocators (nitro_engine_alloc,
 * nitro_engine_vram) and their strategies, against NEAlloc.c, NETexture.c
 * and NEPalette.c at 4c38c68 (docs/ds-homebrew.md).
 *
 * Hand-made sequences with every address worked out from the code, one per
 * rule and per defect (with fixed=yes beside it); random sequences where
 * every result and the whole chunk list after every call come from a
 * reference model written here (the list is a sorted array of segments,
 * shifted on insert and erase; no code shared with src/alloc); and replays
 * through both strategy tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/nitro_engine_vram.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "trace/trace.h"
#include "vram/arena.h"

#define QEQ(a, b) do { long long qa_ = (long long)(a), qb_ = (long long)(b); \
	if (qa_ != qb_) ck_abort_msg("line %d: %s == %lld, %s == %lld", __LINE__, #a, qa_, #b, qb_); } while (0)
#define QOK(c) do { if (!(c)) ck_abort_msg("line %d: %s", __LINE__, #c); } while (0)

#define A NE_VRAM_A
#define B NE_VRAM_B
#define C NE_VRAM_C
#define D NE_VRAM_D
#define E NE_VRAM_E

/* ---- reference chunk list ---------------------------------------------- */
typedef struct rseg { uint32_t start, end; uint8_t state; } rseg;
typedef struct rlist { rseg s[NE_ALLOC_CHUNKS]; int n, cap; } rlist;

static uint32_t r_round(uint32_t n) { return n % 16 ? n + 16 - n % 16 : n; }

static void r_init(rlist *l, int cap, uint32_t start, uint32_t end)
{
	l->n = 1;
	l->cap = cap;
	l->s[0].start = start;
	l->s[0].end = end;
	l->s[0].state = NE_ALLOC_FREE;
}

/* segment i keeps its first keep bytes; a copy of it takes the rest */
static int r_split(rlist *l, int i, uint32_t keep)
{
	if (l->n >= l->cap)
		return -1;
	memmove(&l->s[i + 2], &l->s[i + 1], (size_t)(l->n - i - 1) * sizeof l->s[0]);
	l->n++;
	l->s[i + 1] = l->s[i];
	l->s[i].end = l->s[i].start + keep;
	l->s[i + 1].start = l->s[i].end;
	return i + 1;
}

static void r_erase(rlist *l, int i)
{
	memmove(&l->s[i], &l->s[i + 1], (size_t)(l->n - i - 1) * sizeof l->s[0]);
	l->n--;
}

static int r_holding(const rlist *l, uint32_t addr)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (addr >= l->s[i].start && addr < l->s[i].end)
			return i;
	return -1;
}

static int r_at(const rlist *l, uint32_t addr)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->s[i].start == addr)
			return i;
	return -1;
}

/* NE_AllocFindInRange: the first free segment from the one holding start
 * with size bytes from max(its start, start) decides. */
static uint32_t r_find(const rlist *l, uint32_t start, uint32_t end, uint32_t size)
{
	int i = start < l->s[0].start ? 0 : r_holding(l, start);

	if (!start || !end || !size || i < 0)
		return 0;
	for (; i < l->n; i++) {
		uint32_t from = l->s[i].start > start ? l->s[i].start : start;
		if (l->s[i].state == NE_ALLOC_FREE && l->s[i].end - from >= size)
			return from + size <= end ? from : 0;
	}
	return 0;
}

static int r_address(rlist *l, uint32_t addr, uint32_t size)
{
	int i;
	uint32_t old_end;

	if (!addr || !size)
		return -1;
	size = r_round(size);
	i = r_holding(l, addr);
	if (i < 0 || l->s[i].state != NE_ALLOC_FREE || addr + size > l->s[i].end)
		return -2;
	old_end = l->s[i].end;
	if (l->s[i].start < addr) {
		i = r_split(l, i, addr - l->s[i].start);
		if (i < 0)
			return -3;
	}
	l->s[i].state = NE_ALLOC_USED;
	if (addr + size < old_end) {
		int j = r_split(l, i, size);
		if (j < 0)
			return -4; /* the segment stays used to its old end */
		l->s[j].state = NE_ALLOC_FREE;
	}
	return 0;
}

static uint32_t r_alloc(rlist *l, uint32_t size, int from_end)
{
	int k;

	if (!size)
		return 0;
	size = r_round(size);
	for (k = 0; k < l->n; k++) {
		int i = from_end ? l->n - 1 - k : k;
		uint32_t have = l->s[i].end - l->s[i].start;
		int j;
		if (l->s[i].state != NE_ALLOC_FREE || have < size)
			continue;
		if (have == size) {
			l->s[i].state = NE_ALLOC_USED;
			return l->s[i].start;
		}
		j = r_split(l, i, from_end ? have - size : size);
		if (j < 0)
			return 0;
		l->s[from_end ? j : i].state = NE_ALLOC_USED;
		l->s[from_end ? i : j].state = NE_ALLOC_FREE;
		return l->s[from_end ? j : i].start;
	}
	return 0;
}

static int r_free(rlist *l, uint32_t p)
{
	int i = r_at(l, p);

	if (i < 0)
		return -2;
	if (l->s[i].state != NE_ALLOC_USED)
		return -3;
	l->s[i].state = NE_ALLOC_FREE;
	if (i > 0 && l->s[i - 1].state == NE_ALLOC_FREE) {
		l->s[i - 1].end = l->s[i].end;
		r_erase(l, i);
		i--;
	}
	if (i + 1 < l->n && l->s[i + 1].state == NE_ALLOC_FREE) {
		l->s[i].end = l->s[i + 1].end;
		r_erase(l, i + 1);
	}
	return 0;
}

static int r_lock(rlist *l, uint32_t p, int lock)
{
	int i = r_at(l, p);

	if (i < 0)
		return -3;
	if (l->s[i].state != (lock ? NE_ALLOC_USED : NE_ALLOC_LOCKED))
		return -2;
	l->s[i].state = lock ? NE_ALLOC_LOCKED : NE_ALLOC_USED;
	return 0;
}

/* the implementation's list, link by link, against the segments */
static void same_list(const ne_alloc *a, const rlist *l)
{
	uint16_t c, prev = NE_ALLOC_NONE;
	int i = 0;

	for (c = a->first; c != NE_ALLOC_NONE; prev = c, c = a->chunk[c].next, i++) {
		HOT_ASSERT(i < l->n, "more chunks than the model's %d", l->n);
		HOT_ASSERT(a->chunk[c].prev == prev, "chunk %u: prev %u, not %u", c, a->chunk[c].prev, prev);
		HOT_ASSERT(a->chunk[c].start == l->s[i].start && a->chunk[c].end == l->s[i].end &&
			a->chunk[c].state == l->s[i].state, "chunk %d: [0x%x, 0x%x) %u, model [0x%x, 0x%x) %u", i,
			a->chunk[c].start, a->chunk[c].end, a->chunk[c].state, l->s[i].start, l->s[i].end, l->s[i].state);
	}
	QEQ(i, l->n);
	QEQ(a->live, l->n);
}

/* ---- reference texture and palette layers ------------------------------ */
typedef struct rtex {
	rlist l;
	int max, fix;
	struct { uint32_t addr, size; int c4; } t[NE_VRAM_MAX_TEXTURES];
} rtex;

static uint32_t s01(uint32_t p) { return B + (p - A) / 2; }
static uint32_t s10(uint32_t p) { return A + (p - B) * 2; }
static uint32_t s21(uint32_t p) { return B + 0x10000 + (p - C) / 2; }
static uint32_t s12(uint32_t p) { return C + (p - B - 0x10000) * 2; }

static void rt_reset(rtex *r, int max, unsigned banks, int mode, int fix, int cap)
{
	int drop, i;

	r->max = max < 1 ? 128 : max;
	r->fix = fix;
	memset(r->t, 0, sizeof r->t);
	r_init(&r->l, cap, A, E);
	if (!(banks & 15))
		banks = 15;
	drop = (fix & NE_VRAM_FIX_MODE) ? mode == NE_VRAM_MODE_DUAL : mode != NE_VRAM_MODE_SINGLE;
	if (drop)
		banks &= 3;
	for (i = 0; i < 4; i++)
		if (!(banks & (1u << i))) {
			r_address(&r->l, A + 0x20000u * (unsigned)i, 0x20000);
			r_lock(&r->l, A + 0x20000u * (unsigned)i, 1);
		}
}

/* ne_alloc_compressed_tex, both halves in one loop: texel search in
 * [lo, hi) (retries up to rhi), index search up to iend. */
static int rt_pair(const rtex *r, uint32_t lo, uint32_t hi, uint32_t rhi, uint32_t iend, int two,
	uint32_t sz, uint32_t *t, uint32_t *x)
{
	uint32_t i1 = (r->fix & NE_VRAM_FIX_INDEX) ? r_round(sz / 2) : sz / 2;
	uint32_t a = r_find(&r->l, lo, hi, sz), b;

	while (a) {
		uint32_t want = two ? s21(a) : s01(a);
		b = r_find(&r->l, want, iend, i1);
		if (!b)
			return -1;
		if (b == want) {
			*t = a;
			*x = b;
			return 0;
		}
		a = r_find(&r->l, two ? s12(b) : s10(b), rhi, sz);
		if (a && (two ? s21(a) : s01(a)) == b) {
			*t = a;
			*x = b;
			return 0;
		}
	}
	return -1;
}

static unsigned odd_index; /* 4x4 index chunks placed off a 16-byte boundary */

static int rt_load(rtex *r, uint32_t size, int c4, uint32_t *addr)
{
	int slot;
	uint32_t t = 0, x = 0;

	for (slot = 0; slot < r->max && r->t[slot].addr; slot++)
		;
	if (slot == r->max)
		return -NE_VRAM_ERR_SLOTS;
	if (!size)
		return -NE_VRAM_ERR_ARGS;
	if (!c4) {
		t = r_alloc(&r->l, size, 1);
		if (!t)
			return -NE_VRAM_ERR_SPACE;
	} else {
		if (rt_pair(r, A, B, B, B + 0x10000, 0, size, &t, &x) &&
			rt_pair(r, C, D, (r->fix & NE_VRAM_FIX_SLOT2) ? D : B, C, 1, size, &t, &x))
			return -NE_VRAM_ERR_SPACE;
		if (r_address(&r->l, t, size))
			return -NE_VRAM_ERR_SPACE;
		if (r_address(&r->l, x, size / 2)) {
			r_free(&r->l, t);
			return -NE_VRAM_ERR_SPACE;
		}
	}
	odd_index += c4 && (x & 15);
	r->t[slot].addr = t;
	r->t[slot].size = size;
	r->t[slot].c4 = c4;
	*addr = t;
	return slot;
}

static int rt_delete(rtex *r, int slot)
{
	if (slot >= r->max || !r->t[slot].addr)
		return -1;
	r_free(&r->l, r->t[slot].addr);
	if (r->t[slot].c4)
		r_free(&r->l, r->t[slot].addr < B ? s01(r->t[slot].addr) : s21(r->t[slot].addr));
	r->t[slot].addr = 0;
	return 0;
}

/* ---- NEAlloc by hand ---------------------------------------------------- */
static ne_alloc al;

START_TEST(alloc_init_and_rounding)
{
	ne_alloc_info info;

	ck_assert_int_eq(ne_alloc_init(&al, NE_ALLOC_CHUNKS, 0x2000, 0x2000), -2);
	ck_assert_int_eq(ne_alloc_init(&al, 0, 0x1000, 0x2000), -3);
	ck_assert_int_eq(ne_alloc_init(&al, NE_ALLOC_CHUNKS, 0x1000, 0x2000), 0);
	/* every size to a multiple of 16; 0 refused */
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0), 0);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 1), 0x1000);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 17), 0x1010);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 16), 0x1030);
	ck_assert_uint_eq(ne_alloc_from_end(&al, 2), 0x1FF0);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1800, 8), 0);
	ck_assert_uint_eq(al.chunk[ne_alloc_chunk_at(&al, 0x1800)].end, 0x1810);
	ne_alloc_mem_info(&al, &info);
	ck_assert_uint_eq(info.used, 16 + 32 + 16 + 16 + 16);
	ck_assert_uint_eq(info.free, 0x1000 - info.used);
	ck_assert_uint_eq(info.total, 0x1000);
	ck_assert_uint_eq(info.free_percent, 97);
}
END_TEST

START_TEST(alloc_first_fit_and_from_end)
{
	ck_assert_int_eq(ne_alloc_init(&al, NE_ALLOC_CHUNKS, 0x1000, 0x2000), 0);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1000);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x40), 0x1100);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1140);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x20), 0x1240);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1000), 0);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1140), 0);
	/* holes [0x1000, 0x1100) and [0x1140, 0x1240): first fit from the head */
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x80), 0x1000);
	/* an exact fit takes the chunk without a split */
	ck_assert_uint_eq(al.live, 6);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x80), 0x1080);
	ck_assert_uint_eq(al.live, 6);
	/* from the end: the last free chunk that fits, its high end */
	ck_assert_uint_eq(ne_alloc_from_end(&al, 0x10), 0x1FF0);
	ck_assert_uint_eq(ne_alloc_from_end(&al, 0xD80), 0x1270); /* tail [0x1260, 0x1FF0): its top */
	ck_assert_uint_eq(ne_alloc_from_end(&al, 0x20), 0x1220); /* tail too short: the hole's top */
	ck_assert_uint_eq(ne_alloc_from_end(&al, 0x1000), 0);
}
END_TEST

START_TEST(alloc_find_in_range)
{
	ck_assert_int_eq(ne_alloc_init(&al, NE_ALLOC_CHUNKS, 0x1000, 0x2000), 0);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1100, 0x100), 0);
	/* inside a free chunk: from start; before the list: from its head */
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x1010, 0x2000, 0x20), 0x1010);
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x800, 0x2000, 0x20), 0x1000);
	/* inside a used chunk: the next free one */
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x1180, 0x2000, 0x20), 0x1200);
	/* the first chunk with room decides: [0x10F8, 0x1100) is too short, the
	 * next one ends past end, so nothing, though end > start */
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x10F8, 0x1210, 0x20), 0);
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x10F8, 0x1220, 0x20), 0x1200);
	/* an end before start fails whatever is free */
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x1200, 0x1100, 0x10), 0);
	/* the size is not rounded: 8 bytes fit an 8-byte gap */
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x10F8, 0x2000, 8), 0x10F8);
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x1000, 0x2000, 0), 0);
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0, 0x2000, 0x10), 0);
	ck_assert_uint_eq(ne_alloc_find_in_range(&al, 0x3000, 0x4000, 0x10), 0); /* past the list */
	/* ... but NE_AllocAddress rounds it up, and then it does not fit */
	ck_assert_int_eq(ne_alloc_address(&al, 0x10F8, 8), -2);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1100, 0x10), -2); /* used */
	ck_assert_int_eq(ne_alloc_address(&al, 0x3000, 0x10), -2); /* outside */
	ck_assert_int_eq(ne_alloc_address(&al, 0, 0x10), -1);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1000, 0), -1);
	/* at a chunk's start or end: one split; in the middle: two */
	ck_assert_uint_eq(al.live, 3);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1000, 0x10), 0);
	ck_assert_uint_eq(al.live, 4);
	ck_assert_int_eq(ne_alloc_address(&al, 0x10F0, 0x10), 0);
	ck_assert_uint_eq(al.live, 5);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1800, 0x10), 0);
	ck_assert_uint_eq(al.live, 7);
}
END_TEST

START_TEST(alloc_free_lock)
{
	uint16_t c;

	ck_assert_int_eq(ne_alloc_init(&al, NE_ALLOC_CHUNKS, 0x1000, 0x2000), 0);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1000);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1100);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1200);
	/* found by its start only */
	ck_assert_int_eq(ne_alloc_free(&al, 0x1108), -2);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1300), -3); /* the free tail */
	/* locked: not freed, not locked twice; unlocked: used again */
	ck_assert_int_eq(ne_alloc_lock(&al, 0x1100), 0);
	ck_assert_int_eq(ne_alloc_lock(&al, 0x1100), -2);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1100), -3);
	ck_assert_int_eq(ne_alloc_lock(&al, 0x1300), -2);
	ck_assert_int_eq(ne_alloc_lock(&al, 0x1110), -3);
	ck_assert_int_eq(ne_alloc_unlock(&al, 0x1000), -2);
	ck_assert_int_eq(ne_alloc_unlock(&al, 0x1110), -3);
	ck_assert_int_eq(ne_alloc_unlock(&al, 0x1100), 0);
	/* merges: next side, then previous side, then both */
	ck_assert_int_eq(ne_alloc_free(&al, 0x1200), 0);
	c = ne_alloc_chunk_at(&al, 0x1200);
	ck_assert_uint_eq(al.chunk[c].end, 0x2000);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1000), 0);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1000), -3);
	ck_assert_uint_eq(al.live, 3);
	ck_assert_int_eq(ne_alloc_free(&al, 0x1100), 0);
	ck_assert_uint_eq(al.live, 1);
	ck_assert_uint_eq(al.chunk[al.first].end, 0x2000);
	ck_assert_uint_eq(al.chunk[al.first].state, NE_ALLOC_FREE);
}
END_TEST

/* malloc failing: the model's pool cap. NE_Alloc and NE_AllocFromEnd fail
 * untouched; NE_AllocAddress's second split failing leaves the chunk used. */
START_TEST(alloc_out_of_chunks)
{
	ne_alloc_info info;

	ck_assert_int_eq(ne_alloc_init(&al, 2, 0x1000, 0x2000), 0);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0x100), 0x1000);
	ck_assert_uint_eq(ne_alloc_from_end(&al, 0x100), 0);
	ck_assert(al.out_of_chunks);
	ck_assert_uint_eq(ne_alloc_alloc(&al, 0xF00), 0x1100); /* exact: no chunk needed */
	ck_assert(!al.out_of_chunks);
	ck_assert_int_eq(ne_alloc_init(&al, 2, 0x1000, 0x2000), 0);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1100, 0x10), -4);
	ne_alloc_mem_info(&al, &info);
	ck_assert_uint_eq(info.used, 0xF00); /* [0x1100, 0x2000) lost */
	ck_assert_int_eq(ne_alloc_free(&al, 0x1100), 0);
	ck_assert_int_eq(ne_alloc_init(&al, 1, 0x1000, 0x2000), 0);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1100, 0x10), -3);
	ck_assert_int_eq(ne_alloc_address(&al, 0x1000, 0x10), -4);
	ne_alloc_mem_info(&al, &info);
	ck_assert_uint_eq(info.used, 0x1000);
	ck_assert_uint_eq(info.free_percent, 0);
}
END_TEST

/* ---- textures by hand --------------------------------------------------- */
static ne_vram_tex tx;

static uint32_t off(uint16_t slot)
{
	ck_assert_uint_ne(slot, NE_VRAM_NO_SLOT);
	return ne_vram_tex_offset(&tx, slot);
}

static uint8_t state_at(uint32_t addr)
{
	uint16_t c = ne_alloc_chunk_at(&tx.list, addr);

	ck_assert_uint_ne(c, NE_ALLOC_NONE);
	return tx.list.chunk[c].state;
}

START_TEST(tex_reset_banks)
{
	/* NE_Init3D passes ABCD, but the mode is still uninitialized: C, D go */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_INIT, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.max, 128);
	ck_assert_uint_eq(tx.banks, 3);
	ck_assert_uint_eq(state_at(A), NE_ALLOC_FREE);
	ck_assert_uint_eq(state_at(C), NE_ALLOC_LOCKED);
	ck_assert_uint_eq(state_at(D), NE_ALLOC_LOCKED);
	ck_assert_uint_eq(tx.list.live, 3);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 7, 64, 64)), 0x40000 - 0x2000);
	/* a later reset in single-3D mode keeps all four */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.banks, 15);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 7, 64, 64)), 0x80000 - 0x2000);
	/* fixed: only dual-3D mode drops C and D */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_INIT, NE_VRAM_FIX_MODE, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.banks, 15);
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_DUAL, NE_VRAM_FIX_MODE, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.banks, 3);
	/* no bank is all four; C+D in dual mode is none at all */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 0, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.banks, 15);
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 12, NE_VRAM_MODE_DUAL, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(tx.banks, 0);
	ck_assert_uint_eq(tx.list.live, 4);
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 3, 8, 8), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_SPACE);
	/* unselected banks in the middle split the list: B, D given */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 10, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(state_at(A), NE_ALLOC_LOCKED);
	ck_assert_uint_eq(state_at(B), NE_ALLOC_FREE);
	ck_assert_uint_eq(state_at(C), NE_ALLOC_LOCKED);
	ck_assert_uint_eq(state_at(D), NE_ALLOC_FREE);
	ck_assert_int_eq(ne_vram_tex_reset(&tx, NE_VRAM_MAX_TEXTURES + 1, 15, 0, 0, NE_ALLOC_CHUNKS), -1);
}
END_TEST

START_TEST(tex_sizes)
{
	/* bytes per format as NE computes them: (w * h * 2) >> shift */
	ck_assert_uint_eq(ne_vram_tex_bytes(1, 32, 32), 1024);   /* A3PAL32 */
	ck_assert_uint_eq(ne_vram_tex_bytes(2, 32, 32), 256);    /* PAL4 */
	ck_assert_uint_eq(ne_vram_tex_bytes(3, 32, 32), 512);    /* PAL16 */
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 32, 32), 1024);   /* PAL256 */
	ck_assert_uint_eq(ne_vram_tex_bytes(5, 32, 32), 256);    /* TEX4X4: slot 0/2 part */
	ck_assert_uint_eq(ne_vram_tex_bytes(6, 32, 32), 1024);   /* A5PAL8 */
	ck_assert_uint_eq(ne_vram_tex_bytes(7, 32, 32), 2048);   /* A1RGB5 */
	ck_assert_uint_eq(ne_vram_tex_bytes(8, 32, 32), 2048);   /* RGB5 */
	/* any height for normal formats, a power-of-two width from 8 to 1024 */
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 64, 48), 3072);
	ck_assert_uint_eq(ne_vram_tex_bytes(2, 8, 1), 2);
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 48, 64), 0);
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 2048, 8), 0);
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 4, 8), 0);
	ck_assert_uint_eq(ne_vram_tex_bytes(0, 8, 8), 0);
	ck_assert_uint_eq(ne_vram_tex_bytes(4, 8, 0), 0);
	/* 4x4: both sides powers of two */
	ck_assert_uint_eq(ne_vram_tex_bytes(5, 64, 48), 0);
	ck_assert_uint_eq(ne_vram_tex_bytes(5, 8, 8), 16);
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 4, 48, 64), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_ARGS);
	/* 2 bytes take a 16-byte chunk at the top */
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 2, 8, 1)), 0x7FFF0);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 4, 64, 48)), 0x7FFF0 - 3072);
	ck_assert_uint_eq(ne_vram_tex_load_bytes(&tx, 0, false), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_ARGS);
}
END_TEST

START_TEST(tex_slots)
{
	uint16_t s0, s1;

	ck_assert_int_eq(ne_vram_tex_reset(&tx, 2, 15, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	s0 = ne_vram_tex_load(&tx, 3, 8, 8);
	s1 = ne_vram_tex_load(&tx, 3, 8, 8);
	ck_assert_uint_eq(s0, 0);
	ck_assert_uint_eq(s1, 1);
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 3, 8, 8), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_SLOTS);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), 0);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), -1);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 2), -1);
	/* the lowest free slot; the freed chunk merged back into the top */
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 3, 8, 8), 0);
	ck_assert_uint_eq(off(0), 0x7FFE0);
}
END_TEST

START_TEST(tex_4x4_slot0)
{
	uint16_t t1, t2, t3;

	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 15, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	/* 64x64: texel [0, 0x400), index [0x20000, 0x20200) */
	t1 = ne_vram_tex_load(&tx, 5, 64, 64);
	ck_assert_uint_eq(off(t1), 0);
	ck_assert_uint_eq(state_at(B), NE_ALLOC_USED);
	ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, B)].end, B + 0x200);
	/* 8x8: 16 texel bytes, 8 index bytes in a 16-byte chunk */
	t2 = ne_vram_tex_load(&tx, 5, 8, 8);
	ck_assert_uint_eq(off(t2), 0x400);
	ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, B + 0x200)].end, B + 0x210);
	/* the next 8x8 at 0x410 would need index 0x20208, inside that chunk:
	 * the searches alternate to index 0x20210, texel 0x420 */
	t3 = ne_vram_tex_load(&tx, 5, 8, 8);
	ck_assert_uint_eq(off(t3), 0x420);
	ck_assert_uint_eq(state_at(A + 0x410), NE_ALLOC_FREE);
	/* deleting frees texel and index chunks; they merge */
	ck_assert_int_eq(ne_vram_tex_delete(&tx, t2), 0);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, t3), 0);
	ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, A + 0x400)].end, B);
	ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, B + 0x200)].end, E);
	/* normal textures from the end; 4x4 ones still from slot 0 */
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 7, 256, 256)), 0x60000);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 32, 32)), 0x400);
}
END_TEST

/* The slot-0 alternation works: index busy at 0x20000, free from 0x20010. */
START_TEST(tex_4x4_alternation)
{
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 3, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x20000 - 16, false)), 0x20010);
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 16, false)), 0x20000);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), 0);
	/* 16x16: 64 texel bytes, 32 index bytes; A+0 needs B+0 (taken): B+0x10
	 * maps back to A+0x20, which is free */
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 16, 16)), 0x20);
	/* B locked: no 4x4 anywhere (banks A, C, D) */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 13, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 5, 16, 16), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_SPACE);
	/* A locked: slot 2 and the second half of slot 1 */
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 14, NE_VRAM_MODE_SINGLE, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 16, 16)), 0x40000);
	ck_assert_uint_eq(state_at(B + 0x10000), NE_ALLOC_USED);
	ck_assert_uint_eq(ne_vram_tex_index_offset(0x40000), 0x30000);
}
END_TEST

/* Defect: the slot-2 retry searches [addr2, VRAM_B), which is empty. */
static void slot2_setup(unsigned fix)
{
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 6, NE_VRAM_MODE_SINGLE, fix, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x20000, false)), 0x40000);      /* N1 */
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0xFFF0, false)), 0x30010);       /* X */
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 16, false)), 0x30000);           /* Y */
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), 0);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 1), 0);
}

START_TEST(tex_slot2_retry_defect)
{
	ne_alloc before;

	slot2_setup(0);
	before = tx.list;
	/* texel at C+0 needs index B+0x10000 (Y): index B+0x10010 maps to
	 * C+0x20, which the retry cannot find */
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 5, 16, 16), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_SPACE);
	ck_assert(memcmp(&before, &tx.list, sizeof before) == 0);
	slot2_setup(NE_VRAM_FIX_SLOT2);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 16, 16)), 0x40020);
	ck_assert_uint_eq(state_at(B + 0x10010), NE_ALLOC_USED);
}
END_TEST

/* Defect: slot-1 searches look for size1 bytes, NE_AllocAddress takes
 * size1 rounded to 16. */
static void index_setup(unsigned fix)
{
	ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 3, NE_VRAM_MODE_SINGLE, fix, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x20000, false)), 0x20000);      /* 0: X1 */
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x20000 - 64, false)), 0x40);    /* 1: X2 */
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 48, false)), 0x10);              /* 2: X3 */
	ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 16, false)), 0);                 /* 3: Y */
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), 0);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 2), 0);
	/* 8x8 at 0x10, index [0x20008, 0x20018): leaves [0x20000, 0x20008) */
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 8, 8)), 0x10);
	ck_assert_uint_eq(state_at(B), NE_ALLOC_FREE);
	ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, B)].end, B + 8);
	ck_assert_int_eq(ne_vram_tex_delete(&tx, 3), 0);
}

START_TEST(tex_index_rounding_defect)
{
	ne_alloc before;

	index_setup(0);
	before = tx.list;
	/* texel 0 and index 0x20000 are "found" (8 bytes there), the 16-byte
	 * index chunk cannot be had: the texel chunk is given back */
	ck_assert_uint_eq(ne_vram_tex_load(&tx, 5, 8, 8), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(tx.fail, NE_VRAM_ERR_SPACE);
	ck_assert(memcmp(&before.chunk, &tx.list.chunk, sizeof before.chunk) != 0 ||
		before.live == tx.list.live);
	ck_assert_uint_eq(tx.list.live, before.live);
	index_setup(NE_VRAM_FIX_INDEX);
	ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 8, 8)), 0x30);
	ck_assert_uint_eq(state_at(B + 0x18), NE_ALLOC_USED);
}
END_TEST

/* The same rounding lets an 8x8 texture at the top of slot 0 take 8 bytes
 * of the slot-2 index half; fixed, it has no place. */
START_TEST(tex_index_crossing)
{
	int fix;

	for (fix = 0; fix < 2; fix++) {
		ck_assert_int_eq(ne_vram_tex_reset(&tx, 0, 3, NE_VRAM_MODE_SINGLE, fix ? NE_VRAM_FIX_INDEX : 0,
			NE_ALLOC_CHUNKS), 0);
		ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x20000, false)), 0x20000);
		ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 16, false)), 0x1FFF0);
		ck_assert_uint_eq(off(ne_vram_tex_load_bytes(&tx, 0x1FFF0, false)), 0);
		ck_assert_int_eq(ne_vram_tex_delete(&tx, 1), 0);
		ck_assert_int_eq(ne_vram_tex_delete(&tx, 0), 0);
		if (fix) {
			ck_assert_uint_eq(ne_vram_tex_load(&tx, 5, 8, 8), NE_VRAM_NO_SLOT);
		} else {
			ck_assert_uint_eq(off(ne_vram_tex_load(&tx, 5, 8, 8)), 0x1FFF0);
			ck_assert_uint_eq(tx.list.chunk[ne_alloc_chunk_at(&tx.list, B + 0xFFF8)].end, B + 0x10008);
		}
	}
}
END_TEST

/* ---- palettes by hand --------------------------------------------------- */
START_TEST(pltt_rules)
{
	static ne_vram_pltt p;

	ck_assert_int_eq(ne_vram_pltt_reset(&p, 0, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(p.max, 64);
	ck_assert_uint_eq(ne_vram_pltt_offset(&p, ne_vram_pltt_load(&p, 16)), 0);
	ck_assert_uint_eq(ne_vram_pltt_offset(&p, ne_vram_pltt_load(&p, 4)), 0x20);  /* 8 bytes, a 16-byte chunk */
	ck_assert_uint_eq(ne_vram_pltt_offset(&p, ne_vram_pltt_load(&p, 256)), 0x30);
	ck_assert_int_eq(ne_vram_pltt_delete(&p, 0), 0);
	ck_assert_int_eq(ne_vram_pltt_delete(&p, 0), -1);
	/* first fit from the start: the hole */
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 8), 0);
	ck_assert_uint_eq(ne_vram_pltt_offset(&p, 0), 0);
	ck_assert_uint_eq(ne_vram_pltt_offset(&p, ne_vram_pltt_load(&p, 8)), 0x10);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 0), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(p.fail, NE_VRAM_ERR_ARGS);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 0x8000), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(p.fail, NE_VRAM_ERR_SPACE);
	/* bank E only: 32768 colours fill it exactly */
	ck_assert_int_eq(ne_vram_pltt_reset(&p, 2, NE_ALLOC_CHUNKS), 0);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 0x8000), 0);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 1), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(p.fail, NE_VRAM_ERR_SPACE);
	ck_assert_int_eq(ne_vram_pltt_delete(&p, 0), 0);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 1), 0);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 1), 1);
	ck_assert_uint_eq(ne_vram_pltt_load(&p, 1), NE_VRAM_NO_SLOT);
	ck_assert_uint_eq(p.fail, NE_VRAM_ERR_SLOTS);
	ck_assert_int_eq(ne_vram_pltt_reset(&p, NE_VRAM_MAX_PALETTES + 1, NE_ALLOC_CHUNKS), -1);
}
END_TEST

/* ---- random sequences against the reference ---------------------------- */
static rlist rl;

/* a random address near the list: chunk starts, inside chunks, outside */
static uint32_t pick_addr(vs_rng *g, const rlist *l)
{
	int i = (int)vs_rng_below(g, (uint32_t)l->n);

	switch (vs_rng_below(g, 4)) {
	case 0: return l->s[i].start;
	case 1: return l->s[i].start + vs_rng_below(g, (l->s[i].end - l->s[i].start) / 8 + 1) * 8;
	case 2: return l->s[0].start - 8 + vs_rng_below(g, 3) * 8 * (vs_rng_below(g, 2) ? 1 : 0x1000);
	default: return l->s[l->n - 1].end - 16 + vs_rng_below(g, 4) * 8;
	}
}

static uint32_t pick_size(vs_rng *g, uint32_t range)
{
	switch (vs_rng_below(g, 4)) {
	case 0: return vs_rng_below(g, 40);
	case 1: return vs_rng_below(g, 0x200) + 1;
	case 2: return (vs_rng_below(g, 64) + 1) * 16;
	default: return vs_rng_below(g, range / 2) + 1;
	}
}

START_TEST(alloc_random)
{
	vs_rng g = { 0x9E3779B97F4A7C15ull * (uint64_t)(_i + 1) };
	unsigned steps = vs_test_soak(20000, 200000), k;
	uint32_t start = 0x06800000u + vs_rng_below(&g, 64) * 8, len = (vs_rng_below(&g, 512) + 8) * 16 + 8 * (_i & 1);
	int cap = _i % 3 == 0 ? 3 + (int)vs_rng_below(&g, 30) : (int)NE_ALLOC_CHUNKS;
	unsigned fails = 0, splits_failed = 0;

	ck_assert_int_eq(ne_alloc_init(&al, (uint16_t)cap, start, start + len), 0);
	r_init(&rl, cap, start, start + len);
	for (k = 0; k < steps; k++) {
		uint32_t a = pick_addr(&g, &rl), a2 = pick_addr(&g, &rl), s = pick_size(&g, len), got, want;
		int rc, rrc;
		switch (vs_rng_below(&g, 10)) {
		case 0: case 1:
			got = ne_alloc_alloc(&al, s);
			want = r_alloc(&rl, s, 0);
			QEQ(got, want);
			fails += !got;
			break;
		case 2: case 3:
			got = ne_alloc_from_end(&al, s);
			want = r_alloc(&rl, s, 1);
			QEQ(got, want);
			fails += !got;
			break;
		case 4:
			QEQ(ne_alloc_find_in_range(&al, a, a2, s), r_find(&rl, a, a2, s));
			break;
		case 5:
			/* place where a search says, as the texture code does */
			got = r_find(&rl, a, a2 > a ? a2 : a + len, s);
			QEQ(ne_alloc_find_in_range(&al, a, a2 > a ? a2 : a + len, s), got);
			rc = ne_alloc_address(&al, got ? got : a, s);
			rrc = r_address(&rl, got ? got : a, s);
			QEQ(rc, rrc);
			splits_failed += rc <= -3;
			break;
		case 6: case 7: case 8:
			QEQ(ne_alloc_free(&al, a), r_free(&rl, a));
			break;
		default:
			rc = (int)vs_rng_below(&g, 2);
			QEQ(rc ? ne_alloc_lock(&al, a) : ne_alloc_unlock(&al, a), r_lock(&rl, a, rc));
			break;
		}
		same_list(&al, &rl);
	}
	ck_assert_uint_gt(fails, 0);
	if (cap < 10)
		ck_assert_uint_gt(splits_failed, 0);
}
END_TEST

static rtex rt;

/* every live texture's texel and index bytes inside used chunks, apart */
static void tex_invariants(void)
{
	static uint8_t own[0x80000 / 8];
	int i;

	memset(own, 0, sizeof own);
	for (i = 0; i < rt.max; i++) {
		uint32_t o, u, n, x;
		if (!rt.t[i].addr)
			continue;
		o = rt.t[i].addr - A;
		n = rt.t[i].c4 ? rt.t[i].size : r_round(rt.t[i].size);
		for (u = o / 8; u < (o + n + 7) / 8; u++) {
			HOT_ASSERT(!own[u], "texture %d overlaps at 0x%x", i, u * 8);
			own[u] = 1;
		}
		if (!rt.t[i].c4)
			continue;
		HOT_ASSERT(o + n <= 0x20000 || (o >= 0x40000 && o + n <= 0x60000), "4x4 texel at 0x%x", o);
		x = ne_vram_tex_index_offset(o);
		for (u = x / 8; u < (x + n / 2 + 7) / 8; u++) {
			HOT_ASSERT(!own[u], "index of %d overlaps at 0x%x", i, u * 8);
			own[u] = 1;
		}
	}
}

START_TEST(tex_random)
{
	vs_rng g = { 0xD1B54A32D192ED03ull * (uint64_t)(_i + 7) };
	unsigned steps = vs_test_soak(6000, 60000), k, ok = 0, bad = 0, c4ok = 0;
	int small = _i >= 2; /* tiny textures: 8-byte-aligned index chunks and their gaps */

	for (k = 0; k < steps; k++) {
		uint32_t r = vs_rng_below(&g, 100), addr = 0;
		if (k % 1500 == 0 || r == 0) {
			unsigned banks = vs_rng_below(&g, 16), mode = vs_rng_below(&g, 3), fix = vs_rng_below(&g, 8);
			int max = vs_rng_below(&g, 4) ? (int)vs_rng_below(&g, 200) : 0;
			int cap = vs_rng_below(&g, 8) ? (int)NE_ALLOC_CHUNKS : 8 + (int)vs_rng_below(&g, 40);
			ck_assert_int_eq(ne_vram_tex_reset(&tx, max, banks, (int)mode, fix, (uint16_t)cap), 0);
			rt_reset(&rt, max, banks, (int)mode, (int)fix, cap);
		} else if (r < 55) {
			/* 4x4 sides 8..128 (8x8 often), normal any format */
			int c4 = vs_rng_below(&g, 2);
			unsigned fmt = c4 ? 5 : 1 + vs_rng_below(&g, 8);
			int w = 8 << vs_rng_below(&g, c4 ? (small ? 2 : 5) : 8), h = c4 ? 8 << vs_rng_below(&g, small ? 2 : 5) :
				(int)vs_rng_below(&g, 300);
			uint32_t size = ne_vram_tex_bytes(fmt, w, h);
			uint16_t slot;
			int want;
			if (fmt == 5 && vs_rng_below(&g, small ? 4 : 2))
				w = h = 8, size = 16;
			slot = ne_vram_tex_load(&tx, fmt, w, h);
			want = size ? rt_load(&rt, size, fmt == 5, &addr) : -NE_VRAM_ERR_ARGS;
			if (want < 0) {
				QEQ(slot, NE_VRAM_NO_SLOT);
				if (tx.fail != NE_VRAM_ERR_CHUNKS)
					QEQ(tx.fail, -want);
			} else {
				QEQ(slot, want);
				QEQ(tx.tex[slot].address, addr);
				ok++;
				c4ok += fmt == 5;
			}
		} else if (r < 65) {
			/* small runs: big ones fill the space so tiny ones reach slots 0 and 1 */
			uint32_t size = !small ? vs_rng_below(&g, 0x8000) : vs_rng_below(&g, 3) ?
				(vs_rng_below(&g, 3) + 1) * 8 : vs_rng_below(&g, 0x10000) + 0x4000;
			uint16_t slot = ne_vram_tex_load_bytes(&tx, size, false);
			int want = rt_load(&rt, size, 0, &addr);
			QEQ(slot, want < 0 ? NE_VRAM_NO_SLOT : (uint32_t)want);
		} else {
			/* delete a live one mostly, any slot sometimes */
			int slot = (int)vs_rng_below(&g, (uint32_t)rt.max + 2), tries;
			for (tries = 0; tries < 8 && slot < rt.max && !rt.t[slot].addr; tries++)
				slot = (int)vs_rng_below(&g, (uint32_t)rt.max);
			bad += slot >= rt.max || !rt.t[slot].addr;
			QEQ(ne_vram_tex_delete(&tx, (uint16_t)slot), rt_delete(&rt, slot));
		}
		same_list(&tx.list, &rt.l);
		tex_invariants();
	}
	ck_assert_uint_gt(ok, steps / 10);
	ck_assert_uint_gt(c4ok, steps / 50);
	ck_assert_uint_gt(bad, 0);
	/* at the normal length these seeds reach index chunks on 8-byte
	 * boundaries (checked so a change of generator that loses them is seen) */
	if ((_i & 1) && steps >= 6000)
		ck_assert_uint_gt(odd_index, 0);
}
END_TEST

START_TEST(pltt_random)
{
	static ne_vram_pltt p;
	vs_rng g = { 0x94D049BB133111EBull * (uint64_t)(_i + 3) };
	unsigned steps = vs_test_soak(10000, 100000), k, fails = 0;
	uint32_t ptr[NE_VRAM_MAX_PALETTES];
	int max = _i ? 16 + (int)vs_rng_below(&g, 200) : 0, live = 0, pmax;

	ck_assert_int_eq(ne_vram_pltt_reset(&p, max, NE_ALLOC_CHUNKS), 0);
	r_init(&rl, NE_ALLOC_CHUNKS, E, NE_VRAM_F);
	pmax = max ? max : 64;
	memset(ptr, 0, sizeof ptr);
	for (k = 0; k < steps; k++) {
		if (vs_rng_below(&g, 100) < 55) {
			uint16_t n = (uint16_t)(vs_rng_below(&g, 4) ? vs_rng_below(&g, 300) : vs_rng_below(&g, 0x3000));
			uint16_t slot = ne_vram_pltt_load(&p, n);
			int want;
			for (want = 0; want < pmax && ptr[want]; want++)
				;
			if (want < pmax) {
				uint32_t a = r_alloc(&rl, (uint32_t)n * 2, 0);
				if (a) {
					ptr[want] = a;
					live++;
				} else {
					want = -1;
				}
			} else {
				want = -1;
			}
			QEQ(slot, want < 0 ? NE_VRAM_NO_SLOT : (uint32_t)want);
			fails += want < 0;
		} else {
			int slot = (int)vs_rng_below(&g, (uint32_t)pmax + 1);
			QEQ(ne_vram_pltt_delete(&p, (uint16_t)slot), slot < pmax && ptr[slot] ? 0 : -1);
			if (slot < pmax && ptr[slot]) {
				r_free(&rl, ptr[slot]);
				ptr[slot] = 0;
				live--;
			}
		}
		same_list(&p.list, &rl);
	}
	ck_assert_uint_gt(fails, 0);
}
END_TEST

/* ---- the strategy tables ------------------------------------------------ */
typedef struct sum_ud { uint64_t bytes; uint32_t n; } sum_ud;

static int sum_extent(void *ud, uint32_t o, uint32_t size)
{
	sum_ud *s = ud;

	(void)o;
	s->bytes += size;
	s->n++;
	return 0;
}

static void print_cat(void *ud, const char *text)
{
	strncat(ud, text, 4095 - strlen(ud));
}

START_TEST(strategy_tex_table)
{
	const vs_strategy *s = vs_strategy_find("nitro-engine-tex");
	vs_arena_decl d;
	void *st;
	char err[256], dump[4096] = "";
	vs_request rq;
	vs_placement pl, p4;
	sum_ud fr = { 0, 0 }, held = { 0, 0 };

	ck_assert_ptr_nonnull(s);
	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	st = calloc(1, s->state_size);
	ck_assert_int_ne(s->init(st, &d, "bogus=1", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "banks=abe", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "mode=triple", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "fixed=maybe", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "textures=513", NULL, err, sizeof err), 0);
	/* defaults: NE_Init3D, so C and D are locked and held */
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	rq = vs_test_tex_rq(VS_TEX_DIRECT, 64, 64);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	ck_assert_uint_eq(pl.offset, 0x3E000);
	ck_assert_uint_eq(pl.granted, 0x2000);
	rq = vs_test_tex_rq(VS_TEX_4X4, 8, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &p4), VS_OK);
	ck_assert_uint_eq(p4.offset, 0);
	ck_assert_uint_eq(p4.granted, 16);
	s->walk_free(st, sum_extent, &fr);
	s->held(st, sum_extent, &held);
	/* free + granted + held (two banks, 8 index bytes over the 8 tied) +
	 * the 8 tied index bytes = 512 KiB */
	ck_assert_uint_eq(held.bytes, 0x40000 + 8);
	ck_assert_uint_eq(fr.bytes + 0x2000 + 16 + held.bytes + 8, 0x80000);
	ck_assert_uint_eq(s->ram(st), 7 * 20 + 128 * 24);
	s->dump(st, print_cat, dump);
	ck_assert_ptr_nonnull(strstr(dump, "banks AB"));
	ck_assert_ptr_nonnull(strstr(dump, "0x40000  0x60000  locked"));
	ck_assert_int_eq(s->free(st, &pl), VS_OK);
	ck_assert_int_eq(s->free(st, &pl), VS_ERR_INVALID);
	ck_assert_int_eq(s->free(st, &p4), VS_OK);
	/* unsupported shapes, bad sizes, the slot table */
	rq = vs_test_pltt_rq(16, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_UNSUPPORTED);
	rq = vs_test_tex_rq(VS_TEX_256C, 64, 64);
	rq.u.tex.width = 48;
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_INVALID);
	s->reset(st);
	ck_assert_int_eq(s->init(st, &d, "banks=ABCD,mode=single,textures=1", NULL, err, sizeof err), 0);
	rq = vs_test_tex_rq(VS_TEX_DIRECT, 64, 64);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	ck_assert_uint_eq(pl.offset, 0x7E000);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_MANAGEMENT);
	ck_assert_int_eq(s->init(st, &d, "fixed=yes", NULL, err, sizeof err), 0);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	ck_assert_uint_eq(pl.offset, 0x7E000);
	free(st);
}
END_TEST

START_TEST(strategy_pltt_table)
{
	const vs_strategy *s = vs_strategy_find("nitro-engine-pltt");
	vs_arena_decl d;
	void *st;
	char err[256];
	vs_request rq;
	vs_placement pl;
	sum_ud fr = { 0, 0 };

	ck_assert_ptr_nonnull(s);
	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	st = calloc(1, s->state_size);
	ck_assert_int_ne(s->init(st, &d, "fixed=yes", NULL, err, sizeof err), 0);
	ck_assert_int_eq(s->init(st, &d, "palettes=1", NULL, err, sizeof err), 0);
	rq = vs_test_pltt_rq(4, 1);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	ck_assert_uint_eq(pl.offset, 0);
	ck_assert_uint_eq(pl.granted, 16);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_MANAGEMENT);
	s->walk_free(st, sum_extent, &fr);
	ck_assert_uint_eq(fr.bytes, 0x10000 - 16);
	ck_assert_int_eq(s->free(st, &pl), VS_OK);
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	rq = vs_test_pltt_rq(0x8000, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_OK);
	rq = vs_test_pltt_rq(16, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &pl), VS_ERR_NOSPACE);
	ck_assert_uint_eq(s->ram(st), 1 * 20 + 64 * 16);
	free(st);
}
END_TEST

/* Random traces through both tables: the replay's ownership map, hardware
 * rules and held extents find no fault, for every option set. */
START_TEST(strategy_replay)
{
	static const char *const texopt[] = { "", "fixed=yes", "mode=single", "banks=bcd,mode=single", "banks=ad",
		"mode=dual,banks=abcd,fixed=yes", "textures=40" };
	static const char *const fmts[] = { "a3i5", "4c", "16c", "256c", "4x4", "a5i3", "direct" };
	vs_rng g = { 0xA0761D6478BD642Full * (uint64_t)(_i + 1) };
	vs_test_text t = { NULL, 0, 0 };
	vs_test_replay x;
	vs_replay_config cfg;
	char err[256];
	int live[600], nlive = 0, id = 1, k;

	vs_test_put(&t, "vramsim-trace 1\narena tex ds-tex\narena pal ds-pltt\n");
	for (k = 0; k < 3000; k++) {
		if (nlive < 500 && (nlive == 0 || vs_rng_below(&g, 100) < 55)) {
			if (vs_rng_below(&g, 4)) {
				int f = (int)vs_rng_below(&g, 7);
				vs_test_put(&t, "alloc %d tex tex %ux%u %s\n", id, 8u << vs_rng_below(&g, f == 4 ? 4 : 6),
					8u << vs_rng_below(&g, f == 4 ? 4 : 6), fmts[f]);
			} else {
				vs_test_put(&t, "alloc %d pal pltt %u%s\n", id, 4u << vs_rng_below(&g, 7),
					vs_rng_below(&g, 4) ? "" : " 4c");
			}
			live[nlive++] = id++;
		} else {
			int i = (int)vs_rng_below(&g, (uint32_t)nlive);
			vs_test_put(&t, "free %d\n", live[i]);
			live[i] = live[--nlive];
		}
	}
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("nitro-engine-tex");
	cfg.strategy[1] = vs_strategy_find("nitro-engine-pltt");
	cfg.options[0] = texopt[_i];
	cfg.options[1] = "";
	ck_assert_ptr_nonnull(vs_test_replay_open(&x, t.s, "ne.trace", &cfg, err, sizeof err));
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_msg(vs_replay_check_total(x.r) == 0, "%s: %s", texopt[_i], x.msgs);
	ck_assert_uint_gt(vs_replay_metrics(x.r, 0)->allocs, 0);
	vs_test_replay_close(&x);
	free(t.s);
}
END_TEST

static Suite *nitro_engine_suite(void)
{
	Suite *s = suite_create("nitro_engine");
	TCase *tc = tcase_create("nitro_engine");

	tcase_add_test(tc, alloc_init_and_rounding);
	tcase_add_test(tc, alloc_first_fit_and_from_end);
	tcase_add_test(tc, alloc_find_in_range);
	tcase_add_test(tc, alloc_free_lock);
	tcase_add_test(tc, alloc_out_of_chunks);
	tcase_add_test(tc, tex_reset_banks);
	tcase_add_test(tc, tex_sizes);
	tcase_add_test(tc, tex_slots);
	tcase_add_test(tc, tex_4x4_slot0);
	tcase_add_test(tc, tex_4x4_alternation);
	tcase_add_test(tc, tex_slot2_retry_defect);
	tcase_add_test(tc, tex_index_rounding_defect);
	tcase_add_test(tc, tex_index_crossing);
	tcase_add_test(tc, pltt_rules);
	tcase_add_loop_test(tc, alloc_random, 0, 6);
	tcase_add_loop_test(tc, tex_random, 0, 4);
	tcase_add_loop_test(tc, pltt_random, 0, 3);
	tcase_add_test(tc, strategy_tex_table);
	tcase_add_test(tc, strategy_pltt_table);
	tcase_add_loop_test(tc, strategy_replay, 0, 7);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(nitro_engine_suite());
}
