/* SPDX-License-Identifier: Zlib */
/* replay_records.c - the replay's live records: a slab whose handles
 * (index + 1) the ownership maps hold, so a unit tells who holds it; the
 * bytes each allocation writes into the arena and is checked for at its
 * free; and its marks in the map. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "replay_int.h"

static const rec blank_rec;

uint32_t vs_replay_rec_new(vs_replay *r)
{
	uint32_t h;

	if (r->slab_free) {
		h = r->slab_free;
		r->slab_free = r->slab[h - 1].next_free;
	} else {
		if (r->slab_len == r->slab_cap &&
			vs_grow_u32(&r->slab, sizeof *r->slab, &r->slab_cap, (size_t)r->slab_len + 1, 256))
			return 0;
		h = ++r->slab_len;
	}
	/* a copy, not memset: the compiler's rep stos for a record this size
	 * cost more than the rest of the allocation's book-keeping */
	r->slab[h - 1] = blank_rec;
	r->slab[h - 1].in_use = 1;
	return h;
}

void vs_replay_rec_release(vs_replay *r, uint32_t h)
{
	rec *x = &r->slab[h - 1];

	if (x->payload) { /* most records have none: no call to free */
		free(x->payload);
		x->payload = NULL;
	}
	x->in_use = 0;
	x->next_free = r->slab_free;
	r->slab_free = h;
}

/* Pattern words are little-endian in memory whatever the host. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LE32(w) __builtin_bswap32(w)
#else
#define LE32(w) (w)
#endif
#define PAT_STEP 0x9E3779B1u

/* The byte the trace puts at offset i of an allocation: its payload, then a
 * pattern from its id that differs word to word. */
static uint8_t expected_byte(const rec *x, uint32_t i)
{
	uint64_t z = x->pub.id * 0x9E3779B97F4A7C15ull;
	uint32_t w;

	if (i < x->payload_len)
		return x->payload[i];
	w = (uint32_t)(z >> 32) ^ (uint32_t)z;
	w += (i / 4) * PAT_STEP;
	return (uint8_t)(w >> (8 * (i % 4)));
}

/* The pattern word for bytes 4q..4q+3 of an allocation (little-endian), as
 * expected_byte makes them one at a time. */
static uint32_t pattern_seed(const rec *x)
{
	uint64_t z = x->pub.id * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(z >> 32) ^ (uint32_t)z;
}

#if defined(__GNUC__) && !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
/* Four pattern words at once (GCC and clang vectors: SSE2, NEON, or
 * plain words where the target has no vectors). */
typedef uint32_t pat_vec __attribute__((vector_size(16)));
#define PAT_VEC 1
#endif

/* Writes the expected bytes [i, i+n) of x to dst: the payload and the
 * ragged ends a byte at a time, the rest a word or four at a time (a
 * texture is up to 128 KiB: this is most of a DS replay's checks). */
static void fill_pattern(const rec *x, uint8_t *dst, uint32_t i, uint32_t n)
{
	uint32_t end = i + n, w;

	for (; i < end && (i < x->payload_len || i % 4); i++)
		*dst++ = expected_byte(x, i);
	w = pattern_seed(x) + (i / 4) * PAT_STEP;
#ifdef PAT_VEC
	if (end - i >= 16) {
		pat_vec v = { w, w + PAT_STEP, w + 2 * PAT_STEP, w + 3 * PAT_STEP };
		const pat_vec step = { 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP };
		for (; end - i >= 16; i += 16, dst += 16, v += step)
			memcpy(dst, &v, 16);
		w = v[0];
	}
#endif
	for (; end - i >= 4; i += 4, w += PAT_STEP, dst += 4) {
		uint32_t v = LE32(w);
		memcpy(dst, &v, 4);
	}
	for (; i < end; i++)
		*dst++ = expected_byte(x, i);
}

/* First index in [i, i+n) whose byte at src differs from the pattern, or -1. */
static int64_t find_pattern_change(const rec *x, const uint8_t *src, uint32_t i, uint32_t n)
{
	uint32_t end = i + n, w;

	for (; i < end && (i < x->payload_len || i % 4); i++, src++)
		if (*src != expected_byte(x, i))
			return i;
	w = pattern_seed(x) + (i / 4) * PAT_STEP;
#ifdef PAT_VEC
	if (end - i >= 64) {
		pat_vec v = { w, w + PAT_STEP, w + 2 * PAT_STEP, w + 3 * PAT_STEP };
		const pat_vec step = { 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP };
		for (; end - i >= 64; i += 64, src += 64) {
			pat_vec g[4], d;
			memcpy(g, src, 64);
			d = (g[0] ^ v) | (g[1] ^ (v + step)) | (g[2] ^ (v + 2 * step)) | (g[3] ^ (v + 3 * step));
			if (d[0] | d[1] | d[2] | d[3])
				break; /* the loops below name the first byte that differs */
			v += 4 * step;
		}
		w = v[0];
	}
#endif
	for (; end - i >= 4; i += 4, w += PAT_STEP, src += 4) {
		uint32_t got;
		memcpy(&got, src, 4);
		if (got != LE32(w))
			break;
	}
	for (; i < end; i++, src++)
		if (*src != expected_byte(x, i))
			return i;
	return -1;
}

/* A small allocation (most of a heap's): its expected bytes made in a
 * buffer of whole vectors, then written or compared by the C library's
 * memcpy and memcmp, not a word at a time. */
#define SMALL_BYTES 64u
#define SMALL_BUF (SMALL_BYTES + 16u)

/* The expected bytes of x from its start, SMALL_BYTES of them and no
 * payload among them, in buf. */
static void small_pattern(const rec *x, uint8_t buf[SMALL_BUF])
{
	uint32_t w = pattern_seed(x), k;

#ifdef PAT_VEC
	{
		const pat_vec step = { 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP, 4 * PAT_STEP };
		pat_vec v[SMALL_BUF / 16];
		v[0] = (pat_vec){ w, w + PAT_STEP, w + 2 * PAT_STEP, w + 3 * PAT_STEP };
		for (k = 1; k < SMALL_BUF / 16; k++) /* unrolled: a known count */
			v[k] = v[k - 1] + step;
		memcpy(buf, v, SMALL_BUF);
	}
#else
	for (k = 0; k < SMALL_BUF; k += 4, w += PAT_STEP) {
		uint32_t v = LE32(w);
		memcpy(buf + k, &v, 4);
	}
#endif
}

/* The n bytes (at most SMALL_BYTES) of x written at dst. */
static void fill_small(const rec *x, uint8_t *dst, uint32_t n)
{
	uint8_t buf[SMALL_BUF];

	if (x->payload_len) {
		fill_pattern(x, dst, 0, n);
		return;
	}
	small_pattern(x, buf);
	memcpy(dst, buf, n);
}

/* As find_pattern_change for the n bytes (at most SMALL_BYTES) of x at src. */
static int64_t find_small_change(const rec *x, const uint8_t *src, uint32_t n)
{
	uint8_t buf[SMALL_BUF];

	if (!x->payload_len) {
		small_pattern(x, buf);
		if (!memcmp(src, buf, n))
			return -1;
	}
	return find_pattern_change(x, src, 0, n); /* names the byte */
}

/* ---- the watch over a strategy's stores ----------------------------------
 * Where the strategy's stores are seen (arena_run seen), no byte of a
 * record's data is written: the arena's watch holds all of it, a bit per
 * granule (HEAP_WATCH_GRANULE bytes) with live data, and for a granule the
 * data fills only partly (a record's first and last, shared with a header
 * or a neighbour's data) the mask of its live bytes. A store into the data
 * is seen as it is made, whichever byte it writes. */

/* Sets (on) or clears bits [g0, g1) of the watch's map (g0 < g1): the
 * words between the two ends whole. */
static void set_granules(uint64_t *bits, uint32_t g0, uint32_t g1, int on)
{
	uint32_t w0 = g0 / 64, w1 = (g1 - 1) / 64, w;
	uint64_t first = ~0ull << (g0 % 64), last = ~0ull >> (63 - (g1 - 1) % 64);

	if (w0 == w1)
		first &= last;
	bits[w0] = on ? bits[w0] | first : bits[w0] & ~first;
	if (w0 == w1)
		return;
	for (w = w0 + 1; w < w1; w++)
		bits[w] = on ? ~0ull : 0;
	bits[w1] = on ? bits[w1] | last : bits[w1] & ~last;
}

/* Bytes of granule g watched (on) or not: the granule is live while any
 * of its bytes are. */
static void watch_part(arena_run *ar, uint32_t g, uint64_t bytes, int on)
{
	uint64_t *p = &ar->part_masks[g];

	if (on) {
		*p |= bytes;
		ar->live_bits[g / 64] |= 1ull << (g % 64);
	} else if (!(*p &= ~bytes)) {
		ar->live_bits[g / 64] &= ~(1ull << (g % 64));
	}
}

/* Data [start, end), not empty, watched (on) or not: the granules it
 * fills whole by their bits, its first and last by their bytes. */
static void watch_data(arena_run *ar, uint32_t start, uint32_t end, int on)
{
	uint32_t g0 = start / HEAP_WATCH_GRANULE, g1 = (end - 1) / HEAP_WATCH_GRANULE;
	uint32_t lo = start % HEAP_WATCH_GRANULE, hi = end - g1 * HEAP_WATCH_GRANULE;

	if (g0 == g1) {
		watch_part(ar, g0, heap_watch_bytes(lo, hi), on);
		return;
	}
	if (lo)
		watch_part(ar, g0++, heap_watch_bytes(lo, HEAP_WATCH_GRANULE), on);
	if (hi < HEAP_WATCH_GRANULE)
		watch_part(ar, g1--, heap_watch_bytes(0, hi), on);
	if (g0 <= g1)
		set_granules(ar->live_bits, g0, g1 + 1, on);
}

int vs_replay_watch_init(arena_run *ar)
{
	uint32_t size = ar->arena.decl.size, granules = (uint32_t)(((uint64_t)size + HEAP_WATCH_GRANULE - 1) /
		HEAP_WATCH_GRANULE);

	/* the masks take 8 bytes a granule, an eighth of the arena's bytes:
	 * zeroed pages, touched only where partly live granules lie */
	ar->live_bits = calloc((size_t)granules / 64 + 1, sizeof *ar->live_bits);
	ar->part_masks = calloc(granules, sizeof *ar->part_masks);
	if (!ar->live_bits || !ar->part_masks) {
		vs_replay_watch_fini(ar);
		return -1;
	}
	memset(&ar->watch, 0, sizeof ar->watch);
	ar->watch.base = (uintptr_t)ar->arena.bytes;
	ar->watch.size = size;
	ar->watch.live = ar->live_bits;
	ar->watch.part = ar->part_masks;
	return 0;
}

void vs_replay_watch_fini(arena_run *ar)
{
	free(ar->live_bits);
	free(ar->part_masks);
	ar->live_bits = NULL;
	ar->part_masks = NULL;
	ar->seen = 0;
}

void vs_replay_unwatch(arena_run *ar, rec *x)
{
	if (!x->watched)
		return;
	watch_data(ar, x->pub.pl.offset, x->pub.pl.offset + vs_replay_data_bytes(x), 0);
	x->watched = 0;
}

VS_NOINLINE void vs_replay_stores_hit(vs_replay *r, int a, const char *call)
{
	arena_run *ar = &r->ar[a];
	heap_watch *w = &ar->watch;
	uint32_t owner = vs_arena_owner_at(&ar->arena, w->first / ar->arena.decl.unit);
	char more[64] = "";

	if (w->hits > 1)
		snprintf(more, sizeof more, " (and %u more stores into live data)", (unsigned)(w->hits - 1));
	if (owner != VS_OWNER_NONE && owner <= r->slab_len && r->slab[owner - 1].in_use)
		vs_replay_check_fail(r, a, VS_CHECK_BYTES, "its %s wrote at 0x%x, inside the data of id %llu "
			"(allocated at line %llu)%s", call, (unsigned)(ar->arena.decl.base + w->first),
			(unsigned long long)r->slab[owner - 1].pub.id, (unsigned long long)r->slab[owner - 1].pub.line, more);
	else
		vs_replay_check_fail(r, a, VS_CHECK_BYTES, "its %s wrote at 0x%x, inside live data%s", call,
			(unsigned)(ar->arena.decl.base + w->first), more);
	w->hits = 0;
}

/* x's data watched instead of written (its payload written, for those who
 * read the arena's bytes): 1, or 0 when x is written whole. */
static int watch_rec(arena_run *ar, rec *x)
{
	uint32_t n = vs_replay_data_bytes(x);

	if (!ar->seen || x->fp.stride || x->ntied)
		return 0;
	if (n) {
		if (x->payload_len)
			memcpy(ar->arena.bytes + x->pub.pl.offset, x->payload, x->payload_len < n ? x->payload_len : n);
		watch_data(ar, x->pub.pl.offset, x->pub.pl.offset + n, 1);
		x->watched = 1;
	}
	return 1;
}

/* A 2D sprite's data goes row by row into its rectangle. */
void vs_replay_write_bytes(arena_run *ar, rec *x)
{
	vs_arena *a = &ar->arena;
	uint8_t *p = a->bytes + x->pub.pl.offset;
	uint32_t n = vs_replay_data_bytes(x), i;

	if (watch_rec(ar, x))
		return;

	/* 32-bit writes land everywhere in VRAM; store as such. */
	if (x->fp.stride && x->fp.row_bytes) {
		for (i = 0; i < n; i += x->fp.row_bytes)
			fill_pattern(x, a->bytes + vs_hw_footprint_at(&x->fp, i), i,
				n - i < x->fp.row_bytes ? n - i : x->fp.row_bytes);
		return;
	}
	if (x->fp.stride)
		p = a->bytes + x->fp.offset;
	if (n <= SMALL_BYTES) {
		fill_small(x, p, n);
		return;
	}
	fill_pattern(x, p, 0, n);
}

/* Index (in data order) of the first byte that differs, or -1. */
int64_t vs_replay_verify_bytes(const arena_run *ar, const rec *x)
{
	const vs_arena *a = &ar->arena;
	const uint8_t *p = a->bytes + x->pub.pl.offset;
	uint32_t n = vs_replay_data_bytes(x), i;

	if (x->watched)
		return -1; /* every store into it was seen as it was made */

	if (x->fp.stride && x->fp.row_bytes) {
		for (i = 0; i < n; i += x->fp.row_bytes) {
			int64_t bad = find_pattern_change(x, a->bytes + vs_hw_footprint_at(&x->fp, i), i,
				n - i < x->fp.row_bytes ? n - i : x->fp.row_bytes);
			if (bad >= 0)
				return bad;
		}
		return -1;
	}
	if (x->fp.stride)
		p = a->bytes + x->fp.offset;
	if (n <= SMALL_BYTES)
		return find_small_change(x, p, n);
	return find_pattern_change(x, p, 0, n);
}

/* The map grows with the runs; without memory the replay stops at the next step. */
VS_NOINLINE void vs_replay_mark_oom(const vs_replay *r)
{
	if (!r->err[0])
		snprintf(((vs_replay *)r)->err, sizeof r->err, "%s:%llu: error: out of memory for the ownership map",
			vs_trace_name(r->rd), (unsigned long long)r->ev.line);
}

/* A mark an observer (on_mark) is told of. */
VS_NOINLINE void vs_replay_mark_told(const vs_replay *r, int ai, uint32_t off, uint32_t len,
	uint32_t owner, vs_unit_kind kind)
{
	if (vs_arena_mark((vs_arena *)&r->ar[ai].arena, off, len, owner, kind))
		vs_replay_mark_oom(r);
	if (len)
		r->cfg.on_mark(r->cfg.mark_ud, ai, off, len, owner, kind);
}

typedef void (*mark_fn)(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner,
	vs_unit_kind kind);

static void mark_one(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	vs_replay_mark(r, ai, off, len, owner, kind);
}

static void tell_one(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	if (len)
		r->cfg.on_mark(r->cfg.mark_ud, ai, off, len, owner, kind);
}

/* A live record's marks, each made by fn: its rows (a 2D sprite), or its
 * block's pieces, then the units tied to it. */
static void rec_marks(const vs_replay *r, const rec *x, uint32_t h, int retained, mark_fn fn)
{
	const vs_placement *pl = &x->pub.pl;
	int ai = (int)x->pub.arena;
	uint32_t i, size = vs_replay_data_bytes(x);

	if (x->fp.stride) {
		/* a 2D sprite is its rectangle, every row data: no slack between */
		for (i = 0; i < x->fp.rows; i++)
			fn(r, ai, x->fp.offset + i * x->fp.stride, x->fp.row_bytes, h,
				retained ? VS_UNIT_RETAINED : VS_UNIT_DATA);
		return;
	}
	if (retained) {
		fn(r, ai, pl->block_offset, pl->block_size, h, VS_UNIT_RETAINED);
	} else if (pl->block_offset == pl->offset && pl->block_size == size && pl->granted == size) {
		fn(r, ai, pl->offset, size, h, VS_UNIT_DATA);
	} else {
		/* each unit once: what the block has around the grant is overhead,
		 * the grant past the data slack; in that order, so a unit shared
		 * at a boundary ends as data before slack before overhead (as
		 * vs_arena_take_block leaves it) */
		uint32_t grant_end = pl->offset + pl->granted, block_end = pl->block_offset + pl->block_size;
		fn(r, ai, pl->block_offset, pl->offset - pl->block_offset, h, VS_UNIT_OVERHEAD);
		fn(r, ai, grant_end, block_end - grant_end, h, VS_UNIT_OVERHEAD);
		fn(r, ai, pl->offset + size, pl->granted - size, h, VS_UNIT_SLACK);
		fn(r, ai, pl->offset, size, h, VS_UNIT_DATA);
	}
	for (i = 0; i < x->ntied; i++)
		fn(r, ai, x->tied_off[i], x->tied_len[i], h, retained ? VS_UNIT_RETAINED : VS_UNIT_INDEX);
}

void vs_replay_mark_rec(const vs_replay *r, const rec *x, uint32_t h, int retained)
{
	rec_marks(r, x, h, retained, mark_one);
}

void vs_replay_tell_rec(const vs_replay *r, const rec *x, uint32_t h)
{
	rec_marks(r, x, h, 0, tell_one);
}

void vs_replay_unmark_rec(const vs_replay *r, const rec *x)
{
	int ai = (int)x->pub.arena;
	uint32_t i;

	if (x->fp.stride) {
		for (i = 0; i < x->fp.rows; i++)
			vs_replay_mark(r, ai, x->fp.offset + i * x->fp.stride, x->fp.row_bytes, VS_OWNER_NONE, VS_UNIT_FREE);
		return;
	}
	vs_replay_mark(r, ai, x->pub.pl.block_offset, x->pub.pl.block_size, VS_OWNER_NONE, VS_UNIT_FREE);
	for (i = 0; i < x->ntied; i++)
		vs_replay_mark(r, ai, x->tied_off[i], x->tied_len[i], VS_OWNER_NONE, VS_UNIT_FREE);
}

/* Drops a record from the books: map, metrics, slab. */
void vs_replay_drop_rec(vs_replay *r, uint32_t h)
{
	rec *x = &r->slab[h - 1];
	arena_run *ar = &r->ar[x->pub.arena];

	if (x->detached) {
		uint32_t j;
		for (j = 0; j < 8; j++)
			if (ar->detached[j] == h)
				ar->detached[j] = 0;
	} else {
		vs_replay_unwatch(ar, x);
		if (!x->pub.broken)
			vs_replay_unmark_rec(r, x);
		if (x->pub.retained)
			ar->m.retained_bytes -= x->pub.pl.block_size;
		else
			vs_replay_account(ar, x, -1);
	}
	vs_replay_rec_release(r, h);
}
