/* SPDX-License-Identifier: Zlib */
/* replay.c - runs trace events through strategies over arena models.
 *
 * Books kept here, independent of any strategy:
 *  - a slab of live records; the ownership map of each arena holds record
 *    handles (slab index + 1), so a unit tells who holds it;
 *  - an id table from trace ids to records (several ids may share one
 *    record: BG tile hits), plus failed ids, so misuse can be diagnosed;
 *  - a ring of recently freed ids, to tell a double free from an unknown id
 *    without remembering every id a long trace ever used;
 *  - named saves per arena (allocation sequence number, and the strategy's
 *    own state where it has save/restore).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler_hints.h"
#include "vramsim/alloc/heap_manager.h"
#include "vramsim/grow.h"
#include "vramsim/hw.h"
#include "vramsim/replay.h"

#define FREED_RING 65536u
/* Failed allocations whose ids are remembered (a free of one is told from a
 * free of an unknown id): the newest ones, so millions of failures keep
 * memory bounded by the live allocations. */
#define FAILED_RING 65536u
#define MAX_TIED 2

typedef struct rec {
	vs_live pub;
	uint64_t seq;          /* allocation order within the replay */
	uint8_t *payload;      /* copy of the trace's payload, or NULL */
	uint32_t payload_len;
	uint32_t ntied;
	uint32_t tied_off[MAX_TIED], tied_len[MAX_TIED];
	vs_footprint fp;       /* where its data lies: rows when a 2D sprite (stride != 0) */
	uint32_t next_free;    /* slab free list (when not in use) */
	uint8_t in_use;
	uint8_t detached;      /* a hit on data the strategy holds itself: no map, no metrics */
	uint8_t taken;         /* check_placement marked it already (vs_arena_take) */
} rec;

/* id table entry: handle 0 = empty slot, FAILED_HANDLE = failed allocation */
#define FAILED_HANDLE 0xFFFFFFFFu
typedef struct id_slot {
	uint64_t id;
	uint32_t handle;
	uint32_t arena;  /* for failed entries */
} id_slot;

typedef struct saved_state {
	char name[VS_STATE_NAME_MAX];
	uint64_t seq;
	void *blob;      /* strategy's own state, or NULL */
	struct saved_state *next;
} saved_state;

typedef struct arena_run {
	vs_arena arena;
	const vs_strategy *strat;
	void *state;
	char options[VS_OPTIONS_MAX];
	vs_metrics m;
	saved_state *saves;
	vs_extent *held;       /* what strategy->held reported last */
	uint32_t nheld, held_cap;
	vs_extent *spare;      /* the list asked into next: no allocation per event */
	uint32_t spare_cap;
	uint32_t detached[8];  /* records of hits on held data, joined by offset */
	uint8_t zeroed;        /* a frame manager took an all-zero state: its free units are held */
	uint64_t cur_moved, cur_loaded; /* bytes moved and uploaded in the frame so far */
	uint64_t cur_moves;    /* moves in the frame so far */
	uint64_t alloc_units;  /* units owned by VS_OWNER_ALLOC, kept as they change */
	int held_clean;        /* held extents disjoint, inside, every unit theirs: changes go as deltas */
	uint8_t bytes;         /* allocations' bytes are written, moved and compared (check_bytes) */
	uint8_t frag_known;    /* m.frag is worked out from m.free_bytes and m.largest_free */
} arena_run;

struct vs_replay {
	vs_trace_reader *rd;
	vs_replay_config cfg;
	int narenas;
	arena_run ar[VS_TRACE_MAX_ARENAS];
	rec *slab;
	uint32_t slab_len, slab_cap, slab_free; /* slab_free: head of free list, 0 = none (1-based) */
	id_slot *ids;
	uint32_t ids_cap, ids_used;
	uint64_t *freed;        /* ring of recently freed ids */
	uint32_t freed_pos, freed_len;
	uint64_t *failed;       /* ring of the ids of recent failed allocations */
	uint32_t failed_pos, failed_len;
	uint64_t seq, events, frames;
	uint64_t diag[VS_DIAG_KINDS], check[VS_CHECK_KINDS];
	char err[1024];
	vs_event ev;
	heap_manager heaps;     /* The Simpsons: Hit & Run's routing, every arena a heap */
	int heaps_on;           /* the header's heaps line (fixed once the header is read) */
	int released;           /* the free being reported let go of its allocation */
};

static const char *const fail_names[VS_FAIL_KINDS] = {
	"out of memory", "fragmented", "rule", "management", "unsupported", "invalid"
};
static const char *const diag_names[VS_DIAG_KINDS] = {
	"unknown id", "double free", "free of failed allocation", "duplicate id", "divergence",
	"unknown state", "strategy refused", "heap stack", "invalid request"
};
static const char *const check_names[VS_CHECK_KINDS] = {
	"overlap", "out of bounds", "hardware rule", "bytes changed", "short grant", "bad move"
};

const char *vs_fail_kind_name(vs_fail_kind k) { return (unsigned)k < VS_FAIL_KINDS ? fail_names[k] : "?"; }
const char *vs_diag_kind_name(vs_diag_kind k) { return (unsigned)k < VS_DIAG_KINDS ? diag_names[k] : "?"; }
const char *vs_check_kind_name(vs_check_kind k) { return (unsigned)k < VS_CHECK_KINDS ? check_names[k] : "?"; }

void vs_replay_config_default(vs_replay_config *c)
{
	memset(c, 0, sizeof *c);
	c->check_bytes = 1;
	c->check_rules = 1;
	c->max_messages = 20;
}

/* ---- messages ------------------------------------------------------------ */

static void emit(vs_replay *r, const char *line)
{
	if (r->cfg.message)
		r->cfg.message(r->cfg.message_ud, line);
	else
		fprintf(stderr, "%s\n", line);
}

/* Whether the n-th message of a kind is shown: up to max_messages are; the
 * first past them says the rest are counted, and none is formatted (a trace
 * may diverge thousands of times). */
static int shown(vs_replay *r, uint64_t n, const char *what)
{
	char line[128];

	if (n <= (uint64_t)r->cfg.max_messages)
		return 1;
	if (n == (uint64_t)r->cfg.max_messages + 1) {
		snprintf(line, sizeof line, "vramsim: further %s of this kind are counted, not shown", what);
		emit(r, line);
	}
	return 0;
}

/* Reports a diagnostic; returns -1 when strict makes it fatal. */
static int diag(vs_replay *r, vs_diag_kind k, const char *fmt, ...)
{
	char msg[768], line[1024];
	va_list ap;
	uint64_t n = ++r->diag[k];
	int a = r->ev.arena >= 0 ? r->ev.arena : 0;

	r->ar[a].m.diags++;
	if (!r->cfg.strict && !shown(r, n, "diagnostics"))
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "%s:%llu: %s: %s: %s", vs_trace_name(r->rd), (unsigned long long)r->ev.line,
		r->cfg.strict ? "error" : "warning", diag_names[k], msg);
	if (r->cfg.strict) {
		snprintf(r->err, sizeof r->err, "%s", line);
		return -1;
	}
	emit(r, line);
	return 0;
}

static void check_fail(vs_replay *r, int a, vs_check_kind k, const char *fmt, ...)
{
	char msg[768], line[1024];
	va_list ap;
	uint64_t n = ++r->check[k];

	r->ar[a].m.checks++;
	if (!shown(r, n, "integrity errors"))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "%s:%llu: error: integrity: %s: event %llu, strategy %s: %s",
		vs_trace_name(r->rd), (unsigned long long)r->ev.line, check_names[k],
		(unsigned long long)(r->events), r->ar[a].strat->name, msg);
	emit(r, line);
}

/* ---- id table (linear probing, backward-shift deletion) ---------------- */

static uint32_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdull;
	id ^= id >> 33;
	return (uint32_t)id;
}

static id_slot *id_find(vs_replay *r, uint64_t id)
{
	uint32_t mask = r->ids_cap - 1, i;

	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			return &r->ids[i];
	return NULL;
}

/* As id_find, and where a probe for id stopped when it is not there: the
 * empty slot id_put would fill, while the table does not change. */
typedef struct id_gap {
	const id_slot *ids;
	uint32_t used, at;
} id_gap;

static id_slot *id_find_gap(vs_replay *r, uint64_t id, id_gap *g)
{
	uint32_t mask = r->ids_cap - 1, i;

	g->ids = NULL; /* no gap: id_put_gap probes again */
	g->used = g->at = 0;
	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			return &r->ids[i];
	g->ids = r->ids;
	g->used = r->ids_used;
	g->at = i;
	return NULL;
}

static int id_put(vs_replay *r, uint64_t id, uint32_t handle, uint32_t arena);

/* id_put of an id id_find_gap did not find: straight into the gap when
 * the table has had no insertion, deletion or growth since (one hash and
 * probe an allocation, not two). */
static int id_put_gap(vs_replay *r, const id_gap *g, uint64_t id, uint32_t handle, uint32_t arena)
{
	if (g->ids != r->ids || g->used != r->ids_used || 2 * (r->ids_used + 1) > r->ids_cap)
		return id_put(r, id, handle, arena);
	r->ids[g->at].id = id;
	r->ids[g->at].handle = handle;
	r->ids[g->at].arena = arena;
	r->ids_used++;
	return 0;
}

static int id_grow(vs_replay *r)
{
	uint32_t ncap = r->ids_cap * 2, i, mask = ncap - 1;
	id_slot *n = calloc(ncap, sizeof *n);

	if (!n)
		return -1;
	for (i = 0; i < r->ids_cap; i++) {
		uint32_t j;
		if (!r->ids[i].handle)
			continue;
		for (j = id_hash(r->ids[i].id) & mask; n[j].handle; j = (j + 1) & mask)
			;
		n[j] = r->ids[i];
	}
	free(r->ids);
	r->ids = n;
	r->ids_cap = ncap;
	return 0;
}

static int id_put(vs_replay *r, uint64_t id, uint32_t handle, uint32_t arena)
{
	uint32_t mask, i;

	if (2 * (r->ids_used + 1) > r->ids_cap && id_grow(r))
		return -1;
	mask = r->ids_cap - 1;
	for (i = id_hash(id) & mask; r->ids[i].handle; i = (i + 1) & mask)
		if (r->ids[i].id == id)
			break;
	if (!r->ids[i].handle)
		r->ids_used++;
	r->ids[i].id = id;
	r->ids[i].handle = handle;
	r->ids[i].arena = arena;
	return 0;
}

static void id_del(vs_replay *r, id_slot *s)
{
	uint32_t mask = r->ids_cap - 1, i = (uint32_t)(s - r->ids), j = i;

	for (;;) {
		uint32_t k;
		j = (j + 1) & mask;
		if (!r->ids[j].handle)
			break;
		k = id_hash(r->ids[j].id) & mask;
		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			r->ids[i] = r->ids[j];
			i = j;
		}
	}
	r->ids[i].handle = 0;
	r->ids_used--;
}

static void freed_push(vs_replay *r, uint64_t id)
{
	r->freed[r->freed_pos] = id;
	r->freed_pos = (r->freed_pos + 1) % FREED_RING;
	if (r->freed_len < FREED_RING)
		r->freed_len++;
}

/* Remembers a failed allocation's id; the oldest one remembered is forgotten
 * when the ring is full. */
static int failed_put(vs_replay *r, uint64_t id, uint32_t arena)
{
	if (r->failed_len == FAILED_RING) {
		id_slot *old = id_find(r, r->failed[r->failed_pos]);
		if (old && old->handle == FAILED_HANDLE)
			id_del(r, old);
	} else {
		r->failed_len++;
	}
	r->failed[r->failed_pos] = id;
	r->failed_pos = (r->failed_pos + 1) % FAILED_RING;
	return id_put(r, id, FAILED_HANDLE, arena);
}

static int freed_recently(const vs_replay *r, uint64_t id)
{
	uint32_t i;

	for (i = 0; i < r->freed_len; i++)
		if (r->freed[i] == id)
			return 1;
	return 0;
}

/* ---- records ------------------------------------------------------------ */

static const rec blank_rec;

static uint32_t rec_new(vs_replay *r)
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

static void rec_release(vs_replay *r, uint32_t h)
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

/* Bytes of data a record writes: the request, at most what was granted. */
static uint32_t data_bytes(const rec *x)
{
	return x->pub.req.size < x->pub.pl.granted ? x->pub.req.size : x->pub.pl.granted;
}

/* A 2D sprite's data goes row by row into its rectangle. */
static void write_bytes(vs_arena *a, const rec *x)
{
	uint8_t *p = a->bytes + x->pub.pl.offset;
	uint32_t n = data_bytes(x), i;

	/* 32-bit writes land everywhere in VRAM; store as such. */
	if (x->fp.stride && x->fp.row_bytes) {
		for (i = 0; i < n; i += x->fp.row_bytes)
			fill_pattern(x, a->bytes + vs_footprint_at(&x->fp, i), i,
				n - i < x->fp.row_bytes ? n - i : x->fp.row_bytes);
		return;
	}
	if (x->fp.stride)
		p = a->bytes + x->fp.offset;
	fill_pattern(x, p, 0, n);
}

/* Index (in data order) of the first byte that differs, or -1. */
static int64_t verify_bytes(const vs_arena *a, const rec *x)
{
	const uint8_t *p = a->bytes + x->pub.pl.offset;
	uint32_t n = data_bytes(x), i;

	if (x->fp.stride && x->fp.row_bytes) {
		for (i = 0; i < n; i += x->fp.row_bytes) {
			int64_t bad = find_pattern_change(x, a->bytes + vs_footprint_at(&x->fp, i), i,
				n - i < x->fp.row_bytes ? n - i : x->fp.row_bytes);
			if (bad >= 0)
				return bad;
		}
		return -1;
	}
	if (x->fp.stride)
		p = a->bytes + x->fp.offset;
	return find_pattern_change(x, p, 0, n);
}

/* All ownership changes go through here so observers see every one. */
/* The map grows with the runs; without memory the replay stops at the next step. */
static VS_NOINLINE void mark_oom(const vs_replay *r)
{
	if (!r->err[0])
		snprintf(((vs_replay *)r)->err, sizeof r->err, "%s:%llu: error: out of memory for the ownership map",
			vs_trace_name(r->rd), (unsigned long long)r->ev.line);
}

/* A mark an observer (on_mark) is told of. */
static VS_NOINLINE void mark_told(const vs_replay *r, int ai, uint32_t off, uint32_t len,
	uint32_t owner, vs_unit_kind kind)
{
	if (vs_arena_mark((vs_arena *)&r->ar[ai].arena, off, len, owner, kind))
		mark_oom(r);
	if (len)
		r->cfg.on_mark(r->cfg.mark_ud, ai, off, len, owner, kind);
}

/* Without an observer a mark is one call, with nothing to keep across it:
 * small enough to go inline where it is made. */
static void mark(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	if (r->cfg.on_mark)
		mark_told(r, ai, off, len, owner, kind);
	else if (vs_arena_mark((vs_arena *)&r->ar[ai].arena, off, len, owner, kind))
		mark_oom(r);
}

static void mark_rec(const vs_replay *r, const rec *x, uint32_t h, int retained)
{
	const vs_placement *pl = &x->pub.pl;
	int ai = (int)x->pub.arena;
	uint32_t i, size = data_bytes(x);

	if (x->fp.stride) {
		/* a 2D sprite is its rectangle, every row data: no slack between */
		for (i = 0; i < x->fp.rows; i++)
			mark(r, ai, x->fp.offset + i * x->fp.stride, x->fp.row_bytes, h,
				retained ? VS_UNIT_RETAINED : VS_UNIT_DATA);
		return;
	}
	if (retained) {
		mark(r, ai, pl->block_offset, pl->block_size, h, VS_UNIT_RETAINED);
	} else if (pl->block_offset == pl->offset && pl->block_size == size && pl->granted == size) {
		mark(r, ai, pl->offset, size, h, VS_UNIT_DATA);
	} else {
		/* each unit once: what the block has around the grant is overhead,
		 * the grant past the data slack; in that order, so a unit shared
		 * at a boundary ends as data before slack before overhead */
		uint32_t grant_end = pl->offset + pl->granted, block_end = pl->block_offset + pl->block_size;
		mark(r, ai, pl->block_offset, pl->offset - pl->block_offset, h, VS_UNIT_OVERHEAD);
		mark(r, ai, grant_end, block_end - grant_end, h, VS_UNIT_OVERHEAD);
		mark(r, ai, pl->offset + size, pl->granted - size, h, VS_UNIT_SLACK);
		mark(r, ai, pl->offset, size, h, VS_UNIT_DATA);
	}
	for (i = 0; i < x->ntied; i++)
		mark(r, ai, x->tied_off[i], x->tied_len[i], h, retained ? VS_UNIT_RETAINED : VS_UNIT_INDEX);
}

static void unmark_rec(const vs_replay *r, const rec *x)
{
	int ai = (int)x->pub.arena;
	uint32_t i;

	if (x->fp.stride) {
		for (i = 0; i < x->fp.rows; i++)
			mark(r, ai, x->fp.offset + i * x->fp.stride, x->fp.row_bytes, VS_OWNER_NONE, VS_UNIT_FREE);
		return;
	}
	mark(r, ai, x->pub.pl.block_offset, x->pub.pl.block_size, VS_OWNER_NONE, VS_UNIT_FREE);
	for (i = 0; i < x->ntied; i++)
		mark(r, ai, x->tied_off[i], x->tied_len[i], VS_OWNER_NONE, VS_UNIT_FREE);
}

/* ---- what the strategy keeps for itself ---------------------------------- */

typedef struct held_list {
	vs_extent *v;
	uint32_t n, cap;
	int oom;
} held_list;

static int held_add(void *ud, uint32_t off, uint32_t size)
{
	held_list *l = ud;

	if (!size)
		return 0;
	if (l->n == l->cap && vs_grow_u32(&l->v, sizeof *l->v, &l->cap, (size_t)l->n + 1, 16)) {
		l->oom = 1;
		return 1;
	}
	l->v[l->n].offset = off;
	l->v[l->n].size = size;
	l->n++;
	return 0;
}

static void check_fail(vs_replay *r, int a, vs_check_kind k, const char *fmt, ...);

static int extent_cmp(const void *pa, const void *pb)
{
	const vs_extent *a = pa, *b = pb;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;
}

/* A sorted copy of n extents; NULL when out of memory. Tells whether they
 * are disjoint and inside size. */
static vs_extent *sorted_extents(const vs_extent *v, uint32_t n, uint32_t size, int *disjoint)
{
	vs_extent *s = malloc((n ? n : 1) * sizeof *s);
	uint32_t i;

	*disjoint = 1;
	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, extent_cmp);
	for (i = 0; i < n; i++)
		if ((uint64_t)s[i].offset + s[i].size > size ||
			(i && (uint64_t)s[i - 1].offset + s[i - 1].size > s[i].offset))
			*disjoint = 0;
	return s;
}

static int has_extent(const vs_extent *s, uint32_t n, const vs_extent *e)
{
	return n && bsearch(e, s, n, sizeof *s, extent_cmp) != NULL;
}

/* The last unit, at most last, of the stretch from u on that owner o
 * holds (u's owner is o). */
static uint32_t stretch_end(const vs_arena *A, uint32_t u, uint32_t last, uint32_t o)
{
	vs_own_run run;
	uint32_t end = u;

	while (end <= last && vs_arena_run_at(A, end, &run) == 0 && run.owner == o)
		end = run.first + run.count;
	return end - 1 < last ? end - 1 : last;
}

/* Units of an extent the strategy let go of become free again. */
static void release_held(vs_replay *r, int a, const vs_extent *e)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	uint32_t unit = A->decl.unit, u, v;
	uint32_t first = e->offset / unit, last = (e->offset + e->size - 1) / unit;
	vs_own_run run;

	for (u = first; u <= last && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		v = run.first + run.count - 1;
		if (run.owner != VS_OWNER_ALLOC)
			continue;
		/* free runs of them at once */
		v = stretch_end(A, u, last, VS_OWNER_ALLOC);
		mark(r, a, u * unit, (v - u + 1) * unit, VS_OWNER_NONE, VS_UNIT_FREE);
		ar->alloc_units -= v - u + 1;
	}
}

/* Free units of an extent the strategy took become management overhead;
 * 0, or -1 when it reaches outside the arena or into an allocation. */
static int take_held(vs_replay *r, int a, const vs_extent *e)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	uint32_t unit = A->decl.unit, u, v;
	uint64_t end = (uint64_t)e->offset + e->size;
	uint32_t first = e->offset / unit, last;
	vs_own_run run;

	if (end > A->decl.size) {
		check_fail(r, a, VS_CHECK_BOUNDS, "the strategy holds [0x%x, +%u) outside the arena",
			(unsigned)e->offset, (unsigned)e->size);
		return -1;
	}
	last = (uint32_t)((end - 1) / unit);
	for (u = first; u <= last && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		uint32_t o = run.owner;
		v = run.first + run.count - 1;
		if (o == VS_OWNER_NONE) {
			/* mark runs of free units at once */
			v = stretch_end(A, u, last, VS_OWNER_NONE);
			mark(r, a, u * unit, (v - u + 1) * unit, VS_OWNER_ALLOC, VS_UNIT_OVERHEAD);
			ar->alloc_units += v - u + 1;
		} else if (o != VS_OWNER_ALLOC && o != VS_OWNER_HW) {
			check_fail(r, a, VS_CHECK_OVERLAP, "the strategy keeps 0x%x for itself, inside id %llu (trace line %llu)",
				(unsigned)(A->decl.base + u * unit), (unsigned long long)r->slab[o - 1].pub.id,
				(unsigned long long)r->slab[o - 1].pub.line);
			return -1;
		}
	}
	return 0;
}

/* Asks the strategy what it holds and brings the map in line: units it
 * let go of become free, units it took become management overhead. When
 * the old and new extents are clean (disjoint, inside, nothing of an
 * allocation in them) only the extents that came or went are touched;
 * otherwise every old one is let go and every new one taken again. */
/* Whether two extent lists are the same, in order: most are a few extents
 * long (BG tile 0), where a loop beats a call to memcmp. */
static int same_extents(const vs_extent *a, const vs_extent *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (a[i].offset != b[i].offset || a[i].size != b[i].size)
			return 0;
	return 1;
}

static VS_NOINLINE void refresh_held_list(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	held_list l = { NULL, 0, 0, 0 };
	vs_extent *olds = NULL, *news = NULL;
	uint32_t i;
	int disjoint = 0, clean;

	l.v = ar->spare;
	l.cap = ar->spare_cap;
	ar->spare = NULL;
	ar->spare_cap = 0;
	ar->strat->held(ar->state, held_add, &l);
	if (l.oom || (l.n == ar->nheld && same_extents(l.v, ar->held, l.n))) {
		/* nothing changed (the usual case): the list is asked into again */
		ar->spare = l.v;
		ar->spare_cap = l.cap;
		return;
	}
	news = sorted_extents(l.v, l.n, A->decl.size, &disjoint);
	if (news && ar->held_clean && disjoint)
		olds = sorted_extents(ar->held, ar->nheld, A->decl.size, &clean);
	clean = news && disjoint;
	if (olds) {
		for (i = 0; i < ar->nheld; i++)
			if (!has_extent(news, l.n, &ar->held[i]))
				release_held(r, a, &ar->held[i]);
		for (i = 0; i < l.n; i++)
			if (!has_extent(olds, ar->nheld, &l.v[i]) && take_held(r, a, &l.v[i]))
				clean = 0;
	} else {
		for (i = 0; i < ar->nheld; i++)
			release_held(r, a, &ar->held[i]);
		for (i = 0; i < l.n; i++)
			if (take_held(r, a, &l.v[i]))
				clean = 0;
	}
	free(olds);
	free(news);
	ar->spare = ar->held; /* the old list is the next one asked into */
	ar->spare_cap = ar->held_cap;
	ar->held = l.v;
	ar->nheld = l.n;
	ar->held_cap = l.cap;
	ar->held_clean = clean;
	ar->m.management_bytes = ar->alloc_units * A->decl.unit;
}

/* Most strategies keep nothing for themselves (no held): a test where the
 * call is made, not a call that saves registers to find out. */
static void refresh_held(vs_replay *r, int a)
{
	if (r->ar[a].strat->held)
		refresh_held_list(r, a);
}

/* ---- metrics ------------------------------------------------------------ */

static void refresh(arena_run *ar)
{
	vs_metrics *m = &ar->m;
	uint32_t largest, runs, nfree;

	/* the map's own counts, as vs_arena_free_stats gives them, one call
	 * away instead of three; the division only when they moved */
	vs_ownmap_stats(ar->arena.own, &largest, &runs, &nfree);
	m->free_extents = runs;
	if ((uint64_t)nfree * ar->arena.decl.unit != m->free_bytes ||
		(uint64_t)largest * ar->arena.decl.unit != m->largest_free || !ar->frag_known) {
		m->free_bytes = (uint64_t)nfree * ar->arena.decl.unit;
		m->largest_free = (uint64_t)largest * ar->arena.decl.unit;
		m->frag = m->free_bytes ? 1.0 - (double)m->largest_free / (double)m->free_bytes : 0.0;
		ar->frag_known = 1;
	}
	m->ram_bytes = ar->strat->ram ? ar->strat->ram(ar->state) : ar->strat->state_size;
	if (m->ram_bytes > m->peak_ram)
		m->peak_ram = m->ram_bytes;
	if (m->live_bytes > m->peak_live)
		m->peak_live = m->live_bytes;
	if (m->granted_bytes > m->peak_granted)
		m->peak_granted = m->granted_bytes;
}

static void account(arena_run *ar, const rec *x, int sign)
{
	vs_metrics *m = &ar->m;
	uint64_t size = x->pub.req.size, granted = x->pub.pl.granted;
	uint64_t over = x->pub.pl.block_size > granted ? x->pub.pl.block_size - granted : 0;

	if (sign > 0) {
		m->live_count++;
		m->live_bytes += size;
		m->granted_bytes += granted;
		m->overhead_bytes += over;
	} else {
		m->live_count--;
		m->live_bytes -= size;
		m->granted_bytes -= granted;
		m->overhead_bytes -= over;
	}
}

/* ---- set-up ------------------------------------------------------------- */

/* The bytes a strategy's init gets: none when it promises never to touch them. */
static uint8_t *strat_mem(arena_run *ar)
{
	return (ar->strat->flags & VS_STRAT_NO_MEM) ? NULL : ar->arena.bytes;
}

static int setup_arena(vs_replay *r, int i, char *err, size_t errlen)
{
	const vs_trace_header *h = vs_trace_header_of(r->rd);
	arena_run *ar = &r->ar[i];
	const vs_strategy *s = r->cfg.strategy[i];
	const char *opts = r->cfg.options[i];
	char why[512];

	if (!s && h->strategy[i][0]) {
		s = vs_strategy_find(h->strategy[i]);
		if (!s) {
			snprintf(err, errlen, "%s: arena '%s' names unknown strategy '%s' (see 'vramsim strategies')",
				vs_trace_name(r->rd), h->arenas[i].name, h->strategy[i]);
			return -1;
		}
	}
	if (!s)
		s = vs_strategy_default_for(&h->arenas[i]);
	if (!s) {
		snprintf(err, errlen, "%s: no strategy manages arena '%s' of kind %s", vs_trace_name(r->rd),
			h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
		return -1;
	}
	if (!vs_strategy_manages(s, h->arenas[i].kind)) {
		snprintf(err, errlen, "strategy '%s' cannot manage arena '%s' of kind %s", s->name,
			h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
		return -1;
	}
	if (vs_strategy_refuses(s, &h->arenas[i], why, sizeof why)) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	/* A trace's options= belong to the strategy it names (or, naming none,
	 * to the kind's default); another strategy starts with none. */
	if (!(opts && *opts)) {
		const char *hint = h->strategy[i][0] ? h->strategy[i] : "";
		const vs_strategy *owner = *hint ? vs_strategy_find(hint) : vs_strategy_default_for(&h->arenas[i]);
		opts = owner == s ? h->options[i] : "";
	}
	snprintf(ar->options, sizeof ar->options, "%s", opts);
	if (vs_arena_init(&ar->arena, &h->arenas[i], why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", vs_trace_name(r->rd), why);
		return -1;
	}
	ar->strat = s;
	ar->state = calloc(1, s->state_size ? s->state_size : 1);
	if (!ar->state) {
		snprintf(err, errlen, "out of memory for strategy '%s'", s->name);
		return -1;
	}
	why[0] = '\0';
	ar->bytes = r->cfg.check_bytes == VS_BYTES_ALWAYS ||
		(r->cfg.check_bytes && !(s->flags & VS_STRAT_NO_MEM));
	if (s->init(ar->state, &ar->arena.decl, ar->options, strat_mem(ar), why, sizeof why)) {
		snprintf(err, errlen, "strategy '%s' refused arena '%s': %s", s->name, h->arenas[i].name,
			why[0] ? why : "init failed");
		if (s->fini)
			s->fini(ar->state);
		free(ar->state);
		ar->state = NULL;
		return -1;
	}
	ar->m.usable_bytes = ar->arena.usable_bytes;
	refresh_held(r, i);
	refresh(ar);
	return 0;
}

/* The trace's heaps and search lists, in the heap manager's own routing code:
 * arena i is heap id i, search list k is id VS_ROUTE_SEARCH0 + k. */
static void setup_heaps(vs_replay *r)
{
	const vs_trace_header *h = vs_trace_header_of(r->rd);
	int i;

	heap_mgr_init(&r->heaps, 0);
	if (!h->heaps)
		return;
	for (i = 0; i < h->narenas; i++) {
		heap_mgr_attach(&r->heaps, (uint32_t)i);
		if (h->keep_small >> i & 1)
			heap_mgr_set_roles(&r->heaps, (uint32_t)i, HEAP_ROLE_KEEPS_SMALL);
	}
	for (i = 0; i < h->nsearch; i++)
		heap_mgr_set_search(&r->heaps, VS_ROUTE_SEARCH0 + (uint32_t)i, h->search[i], h->search_len[i]);
	heap_mgr_set_small(&r->heaps, h->small_arena >= 0 ? (uint32_t)h->small_arena : HEAP_NIL);
	heap_mgr_set_default(&r->heaps, h->default_arena >= 0 ? (uint32_t)h->default_arena : 0);
	heap_mgr_set_no_route(&r->heaps, (uint32_t)h->no_route);
}

vs_replay *vs_replay_new(vs_trace_reader *rd, const vs_replay_config *cfg, char *err, size_t errlen)
{
	vs_replay *r = calloc(1, sizeof *r);
	int i;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		vs_trace_close(rd);
		return NULL;
	}
	r->rd = rd;
	r->heaps_on = vs_trace_header_of(rd)->heaps; /* read here, not at each allocation (a call) */
	if (cfg)
		r->cfg = *cfg;
	else
		vs_replay_config_default(&r->cfg);
	if (r->cfg.max_messages <= 0)
		r->cfg.max_messages = 20;
	r->ids_cap = 1024;
	r->ids = calloc(r->ids_cap, sizeof *r->ids);
	r->freed = calloc(FREED_RING, sizeof *r->freed);
	r->failed = calloc(FAILED_RING, sizeof *r->failed);
	if (!r->ids || !r->freed || !r->failed) {
		snprintf(err, errlen, "out of memory");
		vs_replay_free(r);
		return NULL;
	}
	r->narenas = vs_trace_header_of(rd)->narenas;
	for (i = 0; i < r->narenas; i++) {
		if (setup_arena(r, i, err, errlen)) {
			vs_replay_free(r);
			return NULL;
		}
	}
	setup_heaps(r);
	return r;
}

static void free_saves(arena_run *ar)
{
	while (ar->saves) {
		saved_state *n = ar->saves->next;
		free(ar->saves->blob);
		free(ar->saves);
		ar->saves = n;
	}
}

void vs_replay_free(vs_replay *r)
{
	int i;
	uint32_t h;

	if (!r)
		return;
	for (i = 0; i < r->narenas; i++) {
		arena_run *ar = &r->ar[i];
		if (ar->state && ar->strat && ar->strat->fini)
			ar->strat->fini(ar->state);
		free(ar->state);
		free_saves(ar);
		free(ar->held);
		free(ar->spare);
		vs_arena_fini(&ar->arena);
	}
	for (h = 1; h <= r->slab_len; h++)
		if (r->slab[h - 1].in_use)
			free(r->slab[h - 1].payload);
	free(r->slab);
	free(r->ids);
	free(r->freed);
	free(r->failed);
	vs_trace_close(r->rd);
	free(r);
}

/* ---- events ------------------------------------------------------------- */

static vs_fail_kind classify(vs_replay *r, int a, const vs_request *rq, int status)
{
	arena_run *ar = &r->ar[a];

	/* the request itself is wrong: not a question of free space */
	if (status == VS_ERR_INVALID)
		return VS_FAIL_INVALID;
	if (ar->m.free_bytes < rq->size)
		return VS_FAIL_OOM;
	if (status == VS_ERR_MANAGEMENT)
		return VS_FAIL_MANAGEMENT;
	if (status == VS_ERR_UNSUPPORTED)
		return VS_FAIL_UNSUPPORTED;
	if (ar->m.largest_free >= rq->size && !vs_hw_any_legal(&ar->arena, rq, rq->size))
		return VS_FAIL_RULE;
	return VS_FAIL_FRAGMENTED;
}

static void notify(vs_replay *r, int status, int failed, vs_fail_kind fk, const vs_live *live)
{
	vs_outcome o;

	if (!r->cfg.observer)
		return;
	o.ev = &r->ev;
	o.event = r->events;
	o.status = status;
	o.failed = failed;
	o.fail_kind = fk;
	o.live = live;
	o.released = r->released;
	r->released = 0;
	r->cfg.observer(r->cfg.observer_ud, r, &o);
}

/* Checks a fresh placement; returns 0 when it may go in the map. */
static int check_placement(vs_replay *r, int a, rec *x)
{
	arena_run *ar = &r->ar[a];
	const vs_placement *pl = &x->pub.pl;
	const vs_arena_decl *d = &ar->arena.decl;
	char why[256];
	int64_t u;
	uint32_t i;

	if (pl->granted < x->pub.req.size) {
		check_fail(r, a, VS_CHECK_SHORT, "id %llu: granted %u bytes for a %u-byte request",
			(unsigned long long)x->pub.id, (unsigned)pl->granted, (unsigned)x->pub.req.size);
		return -1;
	}
	if (x->fp.stride && vs_footprint_end(&x->fp) > d->size) {
		check_fail(r, a, VS_CHECK_BOUNDS, "id %llu: 2D sprite at tile %u runs past tile 1023 (%u rows, 32 tiles apart)",
			(unsigned long long)x->pub.id, (unsigned)(x->fp.offset / 32u), (unsigned)x->fp.rows);
		return -1;
	}
	if ((uint64_t)pl->block_offset + pl->block_size > d->size || pl->offset < pl->block_offset ||
		(uint64_t)pl->offset + pl->granted > (uint64_t)pl->block_offset + pl->block_size) {
		check_fail(r, a, VS_CHECK_BOUNDS, "id %llu: block [0x%x, +%u) data [0x%x, +%u) in a %u-byte arena",
			(unsigned long long)x->pub.id, (unsigned)pl->block_offset, (unsigned)pl->block_size,
			(unsigned)pl->offset, (unsigned)pl->granted, (unsigned)d->size);
		return -1;
	}
	if (r->cfg.check_rules && vs_hw_check(d, &x->pub.req, pl->offset, pl->granted, why, sizeof why)) {
		check_fail(r, a, VS_CHECK_RULE, "id %llu at 0x%x: %s", (unsigned long long)x->pub.id,
			(unsigned)(d->base + pl->offset), why);
		return -1;
	}
	x->ntied = (uint32_t)vs_hw_tied(d, &x->pub.req, pl->offset, pl->granted, x->tied_off, x->tied_len, MAX_TIED);
	if (x->fp.stride) {
		/* only the rectangle's rows: the tiles between them are others' */
		u = -1;
		for (i = 0; u < 0 && i < x->fp.rows; i++)
			u = vs_arena_first_taken(&ar->arena, x->fp.offset + i * x->fp.stride, x->fp.row_bytes);
	} else if (!x->ntied && !r->cfg.on_mark && pl->block_offset == pl->offset &&
		pl->block_size == pl->granted && pl->granted == data_bytes(x)) {
		/* the usual allocation, all data: checked and marked in one
		 * look-up (an observer of marks gets them from mark_rec) */
		u = vs_arena_take(&ar->arena, pl->offset, pl->granted, (uint32_t)(x - r->slab) + 1, VS_UNIT_DATA);
		x->taken = u == -1;
		if (u == -2)
			u = -1; /* no memory for the map: mark_rec says so */
	} else {
		u = vs_arena_first_taken(&ar->arena, pl->block_offset, pl->block_size);
	}
	for (i = 0; u < 0 && i < x->ntied; i++)
		u = vs_arena_first_taken(&ar->arena, x->tied_off[i], x->tied_len[i]);
	if (u >= 0) {
		uint32_t owner = vs_arena_owner_at(&ar->arena, (uint32_t)u);
		if (owner == VS_OWNER_ALLOC)
			check_fail(r, a, VS_CHECK_OVERLAP, "id %llu at 0x%x takes unit at 0x%x, which the strategy keeps for itself",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned)(d->base + (uint32_t)u * d->unit));
		else if (owner == VS_OWNER_HW)
			check_fail(r, a, VS_CHECK_RULE, "id %llu at 0x%x takes unit at 0x%x, which the hardware reserves",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned)(d->base + (uint32_t)u * d->unit));
		else
			check_fail(r, a, VS_CHECK_OVERLAP, "id %llu at 0x%x overlaps id %llu (trace line %llu) at 0x%x",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned long long)r->slab[owner - 1].pub.id,
				(unsigned long long)r->slab[owner - 1].pub.line,
				(unsigned)(d->base + (uint32_t)u * d->unit));
		return -1;
	}
	return 0;
}

/* A fresh record for the current alloc event, placed by pl in arena a. */
static void rec_fill(vs_replay *r, rec *x, int a, const vs_placement *pl)
{
	x->pub.id = r->ev.id;
	x->pub.arena = (uint32_t)a;
	x->pub.pl = *pl;
	x->pub.req = r->ev.req;
	x->pub.line = r->ev.line;
	x->pub.event = r->events;
	x->pub.refs = 1;
	x->seq = ++r->seq;
	vs_hw_footprint(&r->ar[a].arena.decl, &x->pub.req, pl->offset, pl->granted, &x->fp);
}

/* Moves live record h (block at from) to to: bytes, ownership, placement.
 * Returns 0, or -1 when a check failed (nothing moved). */
static int move_rec(vs_replay *r, int a, uint32_t h, uint32_t to)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	rec *x = &r->slab[h - 1];
	uint32_t from = x->pub.pl.block_offset, size = x->pub.pl.block_size, unit = A->decl.unit, u, end;
	vs_own_run run;
	uint32_t off = x->pub.pl.offset - from + to;
	char why[256];

	if (x->fp.stride || x->ntied || x->detached || x->pub.retained || x->pub.broken || x->pub.refs > 1) {
		check_fail(r, a, VS_CHECK_MOVE, "id %llu cannot move: %s", (unsigned long long)x->pub.id,
			x->fp.stride ? "a 2D sprite" : x->ntied ? "it owns tied data (4x4 index)" : x->pub.retained ?
			"freed, still held by the allocator" : x->pub.refs > 1 ? "shared by several ids" : "not in the map");
		return -1;
	}
	if (to % unit || (uint64_t)to + size > A->decl.size) {
		check_fail(r, a, VS_CHECK_BOUNDS, "id %llu moved to [0x%x, +%u): outside the arena or off its %u-byte unit",
			(unsigned long long)x->pub.id, (unsigned)(A->decl.base + to), (unsigned)size, (unsigned)unit);
		return -1;
	}
	end = (uint32_t)(((uint64_t)to + size + unit - 1) / unit);
	for (u = to / unit; u < end && vs_arena_run_at(A, u, &run) == 0; u = run.first + run.count) {
		uint32_t o = run.owner;
		if (o != VS_OWNER_NONE && o != h) {
			if (o == VS_OWNER_HW || o == VS_OWNER_ALLOC)
				check_fail(r, a, VS_CHECK_OVERLAP, "id %llu moved onto 0x%x, which the %s keeps",
					(unsigned long long)x->pub.id, (unsigned)(A->decl.base + u * unit),
					o == VS_OWNER_HW ? "hardware" : "allocator");
			else
				check_fail(r, a, VS_CHECK_OVERLAP, "id %llu moved onto id %llu (trace line %llu) at 0x%x",
					(unsigned long long)x->pub.id, (unsigned long long)r->slab[o - 1].pub.id,
					(unsigned long long)r->slab[o - 1].pub.line, (unsigned)(A->decl.base + u * unit));
			return -1;
		}
	}
	if (r->cfg.check_rules && vs_hw_check(&A->decl, &x->pub.req, off, x->pub.pl.granted, why, sizeof why)) {
		check_fail(r, a, VS_CHECK_RULE, "id %llu moved to 0x%x: %s", (unsigned long long)x->pub.id,
			(unsigned)(A->decl.base + off), why);
		return -1;
	}
	if (ar->bytes)
		memmove(A->bytes + to, A->bytes + from, size);
	mark(r, a, from, size, VS_OWNER_NONE, VS_UNIT_FREE);
	x->pub.pl.offset = off;
	x->pub.pl.block_offset = to;
	x->fp.offset = x->fp.offset - from + to;
	mark_rec(r, x, h, 0);
	ar->m.moves++;
	ar->m.moved_bytes += size;
	ar->cur_moved += size;
	ar->cur_moves++;
	if ((uint64_t)to + size > ar->m.high_water)
		ar->m.high_water = (uint64_t)to + size;
	return 0;
}

/* Carries out the moves arena a's strategy reports, in order. A move the
 * books cannot follow is an integrity error and ends the list: the map
 * no longer matches the strategy's. */
static int apply_moves(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	vs_move small[16], *v = small;
	size_t n, i;

	n = ar->strat->moves(ar->state, small, 16);
	if (n > 16) {
		if (!(v = malloc(n * sizeof *v))) {
			snprintf(r->err, sizeof r->err, "%s:%llu: error: out of memory", vs_trace_name(r->rd),
				(unsigned long long)r->ev.line);
			return -1;
		}
		n = ar->strat->moves(ar->state, v, n);
	}
	for (i = 0; i < n; i++) {
		uint32_t h = v[i].from < A->decl.size ? vs_arena_owner_at(A, v[i].from / A->decl.unit) : VS_OWNER_NONE;
		if (h == VS_OWNER_NONE || h == VS_OWNER_HW || h == VS_OWNER_ALLOC || h > r->slab_len ||
			!r->slab[h - 1].in_use || r->slab[h - 1].pub.pl.block_offset != v[i].from ||
			r->slab[h - 1].pub.pl.key != v[i].key) {
			check_fail(r, a, VS_CHECK_MOVE, "%s moved key %u from 0x%x, where no allocation of that key starts",
				ar->strat->name, (unsigned)v[i].key, (unsigned)(A->decl.base + v[i].from));
			break;
		}
		if (move_rec(r, a, h, v[i].to))
			break;
	}
	if (v != small)
		free(v);
	refresh(ar);
	return 0;
}

/* A frame boundary: strategies that act there do, then the frame's
 * traffic is priced (VS_CYCLES_*). */
static int end_frame(vs_replay *r)
{
	int a;

	for (a = 0; a < r->narenas; a++) {
		arena_run *ar = &r->ar[a];
		vs_metrics *m = &ar->m;
		uint64_t cyc;
		if (ar->strat->frame) {
			ar->strat->frame(ar->state);
			if (ar->strat->moves && apply_moves(r, a))
				return -1;
		}
		cyc = vs_cycles_traffic((ar->cur_moved + 3) / 4, ar->cur_moves, (ar->cur_loaded + 3) / 4);
		if (ar->cur_moved > m->frame_moved_max)
			m->frame_moved_max = ar->cur_moved;
		if (cyc > m->frame_cycles_max) {
			m->frame_cycles_max = cyc;
			m->frame_cycles_frame = r->frames;
			m->frame_worst_moved = ar->cur_moved;
			m->frame_worst_loaded = ar->cur_loaded;
		}
		ar->cur_moved = ar->cur_loaded = ar->cur_moves = 0;
	}
	return 0;
}

/* `move ID to=ADDR`: the game moved a live allocation. A strategy that
 * places where the game did (recorded) follows it: its old place is freed
 * and the new one taken in its books, and the replay moves the bytes and
 * ownership with every check. Other strategies place by themselves: the
 * game's move says nothing about them. */
static int do_move(vs_replay *r)
{
	const vs_event *ev = &r->ev;
	id_slot *s = id_find(r, ev->id);
	arena_run *ar;
	vs_placement pl;
	vs_request rq;
	rec *x;
	uint32_t h;
	int a, st;

	if (!s || s->handle == FAILED_HANDLE) {
		if (diag(r, VS_DIAG_UNKNOWN_ID, "move of id %llu, which is not live", (unsigned long long)ev->id))
			return -1;
		notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	h = s->handle;
	x = &r->slab[h - 1];
	a = (int)x->pub.arena;
	ar = &r->ar[a];
	r->ev.arena = a;
	if (!(ar->strat->flags & VS_STRAT_NEEDS_AT)) {
		notify(r, VS_OK, 0, VS_FAIL_OOM, &x->pub);
		return 0;
	}
	if (ev->req.at < ar->arena.decl.base || ev->req.at - ar->arena.decl.base >= ar->arena.decl.size) {
		check_fail(r, a, VS_CHECK_BOUNDS, "id %llu moved to 0x%x, outside arena '%s'", (unsigned long long)ev->id,
			(unsigned)ev->req.at, ar->arena.decl.name);
		return 0;
	}
	rq = x->pub.req;
	rq.has_at = VS_AT_ADDR;
	rq.at = ev->req.at + (x->pub.pl.block_offset - x->pub.pl.offset);
	st = ar->strat->free(ar->state, &x->pub.pl);
	memset(&pl, 0, sizeof pl);
	if (st >= 0)
		st = ar->strat->alloc(ar->state, &rq, &pl);
	if (st < 0) {
		check_fail(r, a, VS_CHECK_MOVE, "id %llu: %s cannot follow the move to 0x%x (%s)", (unsigned long long)ev->id,
			ar->strat->name, (unsigned)ev->req.at, vs_status_name(st));
		return 0;
	}
	x->pub.pl.key = pl.key;
	if (!move_rec(r, a, h, pl.block_size ? pl.block_offset : pl.offset))
		refresh(ar);
	notify(r, VS_OK, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}

static int do_alloc(vs_replay *r)
{
	vs_event *ev = &r->ev;
	int a = ev->arena;
	arena_run *ar;
	vs_placement pl;
	id_gap gap;
	id_slot *s = id_find_gap(r, ev->id, &gap);
	uint32_t h;
	rec *x;
	int status;
	uint8_t order[HEAP_MGR_LIST_MAX];
	uint32_t n = 1, k, from = 0;

	if (r->heaps_on) {
		/* as The Simpsons: Hit & Run routes: the named allocator, or
		 * the top of the heap stack, through the small rule and search
		 * lists */
		from = ev->route >= 0 ? (uint32_t)ev->route : heap_mgr_current(&r->heaps);
		if (ev->search_len) {
			/* the call's own list: radMemorySetUsableAllocators, then
			 * ALLOCATOR_SEARCH */
			heap_mgr_set_usable(&r->heaps, ev->search, ev->search_len);
			from = HEAP_MGR_SEARCH;
		}
		n = heap_mgr_route(&r->heaps, from, ev->req.size, order);
		a = n ? order[0] : (int)r->heaps.default_id;
		ev->arena = a;
		/* radMemoryAlloc returns NULL for 0 bytes (heap_mgr_alloc
		 * too): the heap routed to fails it without being asked */
		if (ev->req.size == 0)
			n = 0;
	}
	ar = &r->ar[a];

	if (s && s->handle != FAILED_HANDLE) {
		if (diag(r, VS_DIAG_DUPLICATE_ID, "alloc of id %llu, which is live (allocated at line %llu)",
			(unsigned long long)ev->id, (unsigned long long)r->slab[s->handle - 1].pub.line))
			return -1;
		notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	status = VS_ERR_UNSUPPORTED; /* no heap to route to */
	for (k = 0; k < n; k++) {
		if (r->heaps_on) {
			a = order[k];
			ev->arena = a;
			ar = &r->ar[a];
		}
		if ((ar->strat->flags & VS_STRAT_NEEDS_AT) && !ev->req.has_at) {
			snprintf(r->err, sizeof r->err, "%s:%llu: error: %s places each allocation where the game put "
				"it, and id %llu has no at= (the address the game's allocator returned, or at=none)",
				vs_trace_name(r->rd), (unsigned long long)ev->line, ar->strat->name,
				(unsigned long long)ev->id);
			return -1;
		}
		memset(&pl, 0, sizeof pl);
		status = ar->strat->alloc(ar->state, &ev->req, &pl);
		refresh_held(r, a);
		if (status >= 0)
			break;
	}
	if (ar->strat->moves && apply_moves(r, a))
		return -1;
	if (status >= 0 && r->heaps_on) {
		if ((uint32_t)a == r->heaps.small_id && from != r->heaps.small_id)
			ar->m.routed_small++;
		else if (from >= VS_ROUTE_SEARCH0 && !r->heaps.no_route)
			ar->m.routed_search++;
	}
	if (status < 0) {
		vs_fail_kind fk;
		refresh(ar);
		fk = classify(r, a, &ev->req, status);
		ar->m.failures++;
		ar->m.fail[fk]++;
		if (fk != VS_FAIL_INVALID && (!ar->m.smallest_failed || ev->req.size < ar->m.smallest_failed))
			ar->m.smallest_failed = ev->req.size;
		if ((s && s->handle == FAILED_HANDLE ? id_put(r, ev->id, FAILED_HANDLE, (uint32_t)a) :
			failed_put(r, ev->id, (uint32_t)a)))
			goto oom;
		if (fk == VS_FAIL_INVALID) {
			char what[96];
			vs_request_describe(&ev->req, what, sizeof what);
			if (diag(r, VS_DIAG_INVALID, "id %llu (%s): %s refuses it as invalid", (unsigned long long)ev->id,
				what, ar->strat->name))
				return -1;
		}
		if (ev->req.has_at == VS_AT_ADDR && diag(r, VS_DIAG_DIVERGENCE, "id %llu: the game got 0x%x, %s failed (%s)",
			(unsigned long long)ev->id, (unsigned)ev->req.at, ar->strat->name, fail_names[fk]))
			return -1;
		notify(r, status, 1, fk, NULL);
		return 0;
	}
	if (pl.block_size == 0) {
		pl.block_offset = pl.offset;
		pl.block_size = pl.granted;
	}
	/* A hit hands out data already loaded: the id joins its record. */
	if (pl.shared && pl.offset < ar->arena.decl.size) {
		uint32_t owner = vs_arena_owner_at(&ar->arena, pl.offset / ar->arena.decl.unit);
		if (owner != VS_OWNER_NONE && owner <= r->slab_len && r->slab[owner - 1].pub.pl.offset == pl.offset &&
			!r->slab[owner - 1].pub.retained) {
			x = &r->slab[owner - 1];
			x->pub.refs++;
			ar->m.shared_hits++;
			if (id_put(r, ev->id, owner, (uint32_t)a))
				goto oom;
			notify(r, status, 0, VS_FAIL_OOM, &x->pub);
			return 0;
		}
	}
	h = rec_new(r);
	if (h && pl.shared && pl.offset < ar->arena.decl.size &&
		vs_arena_owner_at(&ar->arena, pl.offset / ar->arena.decl.unit) == VS_OWNER_ALLOC) {
		/* data the strategy keeps loaded itself (BG tile 0): a hit that
		 * takes nothing, so it is neither marked nor counted; hits on the
		 * same data share one record */
		uint32_t j, slot = 8;
		for (j = 0; j < 8; j++) {
			uint32_t d = ar->detached[j];
			if (d && r->slab[d - 1].pub.pl.offset == pl.offset) {
				rec_release(r, h);
				r->slab[d - 1].pub.refs++;
				ar->m.shared_hits++;
				if (id_put(r, ev->id, d, (uint32_t)a))
					goto oom;
				notify(r, status, 0, VS_FAIL_OOM, &r->slab[d - 1].pub);
				return 0;
			}
			if (!d && slot == 8)
				slot = j;
		}
		if (slot < 8)
			ar->detached[slot] = h;
		x = &r->slab[h - 1];
		rec_fill(r, x, a, &pl);
		x->detached = 1;
		ar->m.shared_hits++;
		if (id_put(r, ev->id, h, (uint32_t)a))
			goto oom;
		notify(r, status, 0, VS_FAIL_OOM, &x->pub);
		return 0;
	}
	if (!h)
		goto oom;
	x = &r->slab[h - 1];
	rec_fill(r, x, a, &pl);
	if (ev->data && ev->data_len) {
		x->payload = malloc(ev->data_len);
		if (!x->payload)
			goto oom;
		memcpy(x->payload, ev->data, ev->data_len);
		x->payload_len = ev->data_len;
	}
	if (s ? id_put(r, ev->id, h, (uint32_t)a) : id_put_gap(r, &gap, ev->id, h, (uint32_t)a))
		goto oom;
	if (check_placement(r, a, x)) {
		x->pub.broken = 1;
	} else {
		if (!x->taken)
			mark_rec(r, x, h, 0);
		if (ar->bytes)
			write_bytes(&ar->arena, x);
	}
	ar->m.allocs++;
	ar->cur_loaded += x->pub.pl.granted;
	account(ar, x, +1);
	if ((uint64_t)pl.block_offset + pl.block_size > ar->m.high_water)
		ar->m.high_water = (uint64_t)pl.block_offset + pl.block_size;
	if (x->fp.stride && !x->pub.broken && vs_footprint_end(&x->fp) > ar->m.high_water)
		ar->m.high_water = vs_footprint_end(&x->fp);
	refresh(ar);
	if (ev->req.has_at == VS_AT_ADDR && ev->req.at - ar->arena.decl.base != pl.offset &&
		diag(r, VS_DIAG_DIVERGENCE, "id %llu: the game got 0x%x, %s gave 0x%x", (unsigned long long)ev->id,
			(unsigned)ev->req.at, ar->strat->name, (unsigned)(ar->arena.decl.base + pl.offset)))
		return -1;
	if (ev->req.has_at == VS_AT_FAILED &&
		diag(r, VS_DIAG_DIVERGENCE, "id %llu: the game's allocator failed, %s gave 0x%x", (unsigned long long)ev->id,
			ar->strat->name, (unsigned)(ar->arena.decl.base + pl.offset)))
		return -1;
	notify(r, status, 0, VS_FAIL_OOM, &x->pub);
	return 0;
oom:
	snprintf(r->err, sizeof r->err, "%s:%llu: error: out of memory", vs_trace_name(r->rd),
		(unsigned long long)ev->line);
	return -1;
}

/* Drops a record from the books: map, metrics, slab. */
static void drop_rec(vs_replay *r, uint32_t h)
{
	rec *x = &r->slab[h - 1];
	arena_run *ar = &r->ar[x->pub.arena];

	if (x->detached) {
		uint32_t j;
		for (j = 0; j < 8; j++)
			if (ar->detached[j] == h)
				ar->detached[j] = 0;
	} else {
		if (!x->pub.broken)
			unmark_rec(r, x);
		if (x->pub.retained)
			ar->m.retained_bytes -= x->pub.pl.block_size;
		else
			account(ar, x, -1);
	}
	rec_release(r, h);
}

static int do_free(vs_replay *r)
{
	const vs_event *ev = &r->ev;
	id_slot *s = id_find(r, ev->id);
	uint32_t h;
	rec *x;
	arena_run *ar;
	int status;
	int64_t bad;

	if (!s) {
		int twice = freed_recently(r, ev->id);
		if (diag(r, twice ? VS_DIAG_DOUBLE_FREE : VS_DIAG_UNKNOWN_ID, "free of id %llu, which is %s",
			(unsigned long long)ev->id, twice ? "already freed" : "not live"))
			return -1;
		notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	if (s->handle == FAILED_HANDLE) {
		r->ev.arena = (int)s->arena;
		id_del(r, s);
		freed_push(r, ev->id);
		if (diag(r, VS_DIAG_FREE_FAILED, "free of id %llu, whose allocation failed", (unsigned long long)ev->id))
			return -1;
		notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	h = s->handle;
	x = &r->slab[h - 1];
	ar = &r->ar[x->pub.arena];
	r->ev.arena = (int)x->pub.arena;
	id_del(r, s);
	freed_push(r, ev->id);
	ar->m.frees++;
	if (x->pub.refs > 1) {
		/* one release of shared data: the strategy counts it too */
		x->pub.refs--;
		status = ar->strat->free(ar->state, &x->pub.pl);
		refresh_held(r, (int)x->pub.arena);
		if (status < 0 && diag(r, VS_DIAG_STRATEGY, "%s refused to release id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_status_name(status)))
			return -1;
		notify(r, status, 0, VS_FAIL_OOM, &x->pub);
		return 0;
	}
	r->released = 1; /* the last reference: whatever the strategy says, the game let go */
	if (!x->pub.broken && !x->detached && ar->bytes && (bad = verify_bytes(&ar->arena, x)) >= 0)
		check_fail(r, (int)x->pub.arena, VS_CHECK_BYTES,
			"id %llu (allocated at line %llu): byte at 0x%x changed before its free",
			(unsigned long long)x->pub.id, (unsigned long long)x->pub.line,
			(unsigned)(ar->arena.decl.base + vs_footprint_at(&x->fp, (uint32_t)bad)));
	status = ar->strat->free(ar->state, &x->pub.pl);
	if (x->detached) {
		vs_live gone = x->pub; /* observers see the arena after the free */
		if (status < 0 && diag(r, VS_DIAG_STRATEGY, "%s refused to release id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_status_name(status)))
			return -1;
		drop_rec(r, h);
		refresh_held(r, (int)gone.arena);
		notify(r, status, 0, VS_FAIL_OOM, &gone);
		return 0;
	}
	if (status == VS_RETAINED || status == VS_ERR_LOST) {
		/* still held by the allocator (frame/static heaps) or lost to it */
		account(ar, x, -1);
		x->pub.retained = 1;
		ar->m.retained_bytes += x->pub.pl.block_size;
		if (!x->pub.broken)
			mark_rec(r, x, h, 1);
		if (status == VS_ERR_LOST && diag(r, VS_DIAG_STRATEGY,
			"%s lost the region of id %llu: free failed (%s), the memory is gone until reset",
			ar->strat->name, (unsigned long long)ev->id, vs_status_name(status)))
			return -1;
	} else {
		vs_live gone; /* observers see the arena after the free: a copy for them alone */
		if (r->cfg.observer)
			gone = x->pub;
		if (status < 0 && diag(r, VS_DIAG_STRATEGY, "%s refused to free id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_status_name(status)))
			return -1;
		drop_rec(r, h);
		refresh_held(r, (int)(ar - r->ar));
		refresh(ar);
		notify(r, status, 0, VS_FAIL_OOM, &gone);
		return 0;
	}
	refresh_held(r, (int)(ar - r->ar));
	refresh(ar);
	notify(r, status, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}

static saved_state *find_save(arena_run *ar, const char *name)
{
	saved_state *s;

	for (s = ar->saves; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

static int do_save(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	saved_state *s = find_save(ar, r->ev.name);

	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s)
			return -1;
		snprintf(s->name, sizeof s->name, "%s", r->ev.name);
		s->next = ar->saves;
		ar->saves = s;
	}
	s->seq = r->seq;
	if ((ar->strat->flags & VS_STRAT_NATIVE_STATE) && ar->strat->save) {
		if (!s->blob && !(s->blob = malloc(ar->strat->save_size ? ar->strat->save_size : 1)))
			return -1;
		ar->strat->save(ar->state, s->blob);
	}
	return 0;
}

static int cmp_seq_desc(const void *pa, const void *pb)
{
	const rec *const *a = pa, *const *b = pb;

	return (*a)->seq < (*b)->seq ? 1 : (*a)->seq > (*b)->seq ? -1 : 0;
}

/* Rebuilds the id table without entries whose record is gone. */
static int prune_ids(vs_replay *r)
{
	id_slot *old = r->ids;
	uint32_t cap = r->ids_cap, i;

	r->ids = calloc(cap, sizeof *r->ids);
	if (!r->ids) {
		r->ids = old;
		return -1;
	}
	r->ids_used = 0;
	for (i = 0; i < cap; i++) {
		if (!old[i].handle)
			continue;
		if (old[i].handle != FAILED_HANDLE && !r->slab[old[i].handle - 1].in_use)
			continue;
		id_put(r, old[i].id, old[i].handle, old[i].arena);
	}
	free(old);
	return 0;
}

/* Drops every record of arena a made after seq (all when seq is 0). With
 * native state the strategy has already forgotten them; otherwise they are
 * freed through it, newest first. */
static int drop_since(vs_replay *r, int a, uint64_t seq, int via_strategy)
{
	arena_run *ar = &r->ar[a];
	rec **list = NULL;
	size_t n = 0, i;
	uint32_t h;

	for (h = 1; h <= r->slab_len; h++) {
		rec *x = &r->slab[h - 1];
		if (x->in_use && x->pub.arena == (uint32_t)a && x->seq > seq)
			n++;
	}
	if (n == 0)
		return 0;
	list = malloc(n * sizeof *list);
	if (!list)
		return -1;
	n = 0;
	for (h = 1; h <= r->slab_len; h++) {
		rec *x = &r->slab[h - 1];
		if (x->in_use && x->pub.arena == (uint32_t)a && x->seq > seq)
			list[n++] = x;
	}
	qsort(list, n, sizeof *list, cmp_seq_desc);
	for (i = 0; i < n; i++) {
		rec *x = list[i];
		h = (uint32_t)(x - r->slab) + 1;
		if (via_strategy && !x->pub.retained) {
			uint32_t k;
			int st = VS_OK;
			for (k = 0; k < x->pub.refs; k++)
				st = ar->strat->free(ar->state, &x->pub.pl);
			if (st == VS_RETAINED) {
				/* the strategy keeps it (a static heap): it stays held */
				account(ar, x, -1);
				x->pub.retained = 1;
				ar->m.retained_bytes += x->pub.pl.block_size;
				if (!x->pub.broken)
					mark_rec(r, x, h, 1);
				continue;
			}
		} else if (via_strategy) {
			continue; /* retained by a strategy with no state of its own */
		}
		drop_rec(r, h);
	}
	free(list);
	refresh_held(r, a);
	refresh(ar);
	return prune_ids(r);
}

/* A game that restores a state it never saved passes its state variable as
 * it is: zero-initialised. A frame manager takes it like any other state, so
 * every region's head and tail (or lo and hi) become 0: nothing is free, and
 * every allocation fails (key 0) until a reset or the restore of a real
 * state. Allocations already made stay live: the manager never tracked them. */
/* Turns every run of units owned by from into units of owner to (kind k);
 * returns how many units changed. */
static uint32_t remark_runs(vs_replay *r, int a, uint32_t from, uint32_t to, vs_unit_kind k)
{
	const vs_arena *A = &r->ar[a].arena;
	uint32_t u, v, n = 0;
	vs_own_run run;

	for (u = 0; u < A->nunits && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		v = run.first + run.count - 1;
		if (run.owner != from)
			continue;
		v = stretch_end(A, u, A->nunits - 1, from);
		mark(r, a, u * A->decl.unit, (v - u + 1) * A->decl.unit, to, k);
		n += v - u + 1;
	}
	return n;
}

static int restore_zero_state(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	void *zero = calloc(1, ar->strat->save_size ? ar->strat->save_size : 1);

	if (!zero) {
		snprintf(r->err, sizeof r->err, "%s:%llu: error: out of memory", vs_trace_name(r->rd),
			(unsigned long long)r->ev.line);
		return -1;
	}
	ar->strat->restore(ar->state, zero);
	free(zero);
	/* the books follow the manager: what was free is now held by it */
	ar->alloc_units += remark_runs(r, a, VS_OWNER_NONE, VS_OWNER_ALLOC, VS_UNIT_OVERHEAD);
	ar->m.management_bytes = ar->alloc_units * ar->arena.decl.unit;
	ar->zeroed = 1;
	refresh(ar);
	return 0;
}

/* A reset, init or real restore gives a zeroed manager its space back. */
static void unzero(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];

	if (!ar->zeroed)
		return;
	/* a frame manager holds nothing else (it has no held extents) */
	ar->alloc_units -= remark_runs(r, a, VS_OWNER_ALLOC, VS_OWNER_NONE, VS_UNIT_FREE);
	ar->m.management_bytes = ar->alloc_units * ar->arena.decl.unit;
	ar->zeroed = 0;
}

static int do_restore(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	saved_state *s = find_save(ar, r->ev.name);
	int native = (ar->strat->flags & VS_STRAT_NATIVE_STATE) && ar->strat->restore;

	if (!s) {
		int save_arena = r->ev.arena;
		r->ev.arena = a;
		if (diag(r, VS_DIAG_UNKNOWN_STATE, "restore of state '%s', never saved for arena '%s'%s", r->ev.name,
			ar->arena.decl.name, native ? ": the manager takes an all-zero state (no free space until a "
			"reset or the restore of a saved state)" : ""))
			return -1;
		r->ev.arena = save_arena;
		return native ? restore_zero_state(r, a) : 0;
	}
	unzero(r, a);
	if (native && s->blob)
		ar->strat->restore(ar->state, s->blob);
	if (drop_since(r, a, s->seq, !(native && s->blob)))
		return -1;
	refresh_held(r, a);
	refresh(ar);
	return 0;
}

static int do_reset(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];

	unzero(r, a);
	ar->strat->reset(ar->state);
	if (drop_since(r, a, 0, 0))
		return -1;
	refresh_held(r, a);
	refresh(ar);
	return 0;
}

/* Re-initialises arena a's strategy with new options: every allocation is
 * dropped, as when a game calls the manager's init again. */
static int do_init(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	char why[512] = "";

	unzero(r, a);
	if (drop_since(r, a, 0, 0))
		return -1;
	if (ar->strat->fini)
		ar->strat->fini(ar->state);
	memset(ar->state, 0, ar->strat->state_size ? ar->strat->state_size : 1);
	snprintf(ar->options, sizeof ar->options, "%s", r->ev.options ? r->ev.options : "");
	if (ar->strat->init(ar->state, &ar->arena.decl, ar->options, strat_mem(ar), why, sizeof why)) {
		snprintf(r->err, sizeof r->err, "%s:%llu: error: strategy '%s' refused init of arena '%s': %s",
			vs_trace_name(r->rd), (unsigned long long)r->ev.line, ar->strat->name, ar->arena.decl.name,
			why[0] ? why : "init failed");
		return -1;
	}
	free_saves(ar);
	refresh_held(r, a);
	refresh(ar);
	return 0;
}

static void tick_metrics(vs_replay *r)
{
	int i;

	for (i = 0; i < r->narenas; i++) {
		vs_metrics *m = &r->ar[i].m;
		m->events++;
		m->frag_sum += m->frag;
		if (m->frag > m->peak_frag) {
			m->peak_frag = m->frag;
			m->peak_frag_event = r->events;
		}
	}
}

/* One event: 1 when it was replayed, 0 at the end of the trace, -1 on an
 * error (vs_replay_error says which). */
static VS_ALWAYS_INLINE int step(vs_replay *r)
{
	int rc, i, lo, hi;

	if (r->err[0])
		return -1;
	rc = vs_trace_next(r->rd, &r->ev);
	if (rc == 0)
		return 0;
	if (rc < 0) {
		snprintf(r->err, sizeof r->err, "%s", vs_trace_error(r->rd));
		return -1;
	}
	r->events++;
	switch (r->ev.type) {
	case VS_EV_ALLOC:
		rc = do_alloc(r);
		break;
	case VS_EV_FREE:
		rc = do_free(r);
		break;
	case VS_EV_PUSH:
		rc = 0;
		if (heap_mgr_push(&r->heaps, (uint32_t)r->ev.route) != HEAP_OK)
			rc = diag(r, VS_DIAG_HEAP_STACK, "push of '%s': the heap stack is full (%u deep)",
				vs_trace_route_name(vs_trace_header_of(r->rd), r->ev.route), (unsigned)HEAP_MGR_STACK_MAX);
		if (rc == 0)
			notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_MOVE:
		rc = do_move(r);
		break;
	case VS_EV_POP: {
		/* Pop removes the top whatever the name says (seed 004) */
		const vs_trace_header *hd = vs_trace_header_of(r->rd);
		uint32_t top = 0;
		int pr = heap_mgr_pop(&r->heaps, (uint32_t)r->ev.route, &top);
		rc = 0;
		if (pr == HEAP_MGR_POP_OTHER)
			rc = diag(r, VS_DIAG_HEAP_STACK, "pop of '%s', but '%s' was on top (removed)",
				vs_trace_route_name(hd, r->ev.route), vs_trace_route_name(hd, (int)top));
		else if (pr != HEAP_OK)
			rc = diag(r, VS_DIAG_HEAP_STACK, "pop of '%s' from an empty heap stack",
				vs_trace_route_name(hd, r->ev.route));
		if (rc == 0)
			notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	}
	case VS_EV_INIT:
		rc = do_init(r, r->ev.arena);
		if (rc == 0)
			notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_FRAME:
		r->frames++;
		rc = end_frame(r);
		if (!rc)
			notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
	case VS_EV_RESET:
		lo = r->ev.arena >= 0 ? r->ev.arena : 0;
		hi = r->ev.arena >= 0 ? r->ev.arena + 1 : r->narenas;
		rc = 0;
		for (i = lo; i < hi && rc == 0; i++)
			rc = r->ev.type == VS_EV_SAVE ? do_save(r, i) :
				r->ev.type == VS_EV_RESTORE ? do_restore(r, i) : do_reset(r, i);
		if (rc && !r->err[0])
			snprintf(r->err, sizeof r->err, "%s:%llu: error: out of memory", vs_trace_name(r->rd),
				(unsigned long long)r->ev.line);
		if (rc == 0)
			notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	default:
		rc = 0;
		break;
	}
	tick_metrics(r);
	return rc ? -1 : 1;
}

/* A step is one pass of vs_replay_run's loop, so that the loop and an
 * event's work are one function (step, in line) whichever is called. A
 * step that was a function of its own went into the loop at the link only
 * where nothing else called it, and then only as the inliner's order of
 * work allowed; else a call every event (3-5% of vs_bench's instructions). */
int vs_replay_step(vs_replay *r)
{
	return vs_replay_run(r, r->events + 1);
}

int vs_replay_run(vs_replay *r, uint64_t until)
{
	int rc;

	do {
		if (until && r->events >= until)
			return 1;
		rc = step(r);
	} while (rc == 1);
	return rc;
}

const char *vs_replay_error(const vs_replay *r) { return r->err; }
const vs_trace_header *vs_replay_header(const vs_replay *r) { return vs_trace_header_of(r->rd); }
int vs_replay_arena_count(const vs_replay *r) { return r->narenas; }
const vs_arena *vs_replay_arena(const vs_replay *r, int i) { return &r->ar[i].arena; }
const vs_strategy *vs_replay_strategy(const vs_replay *r, int i) { return r->ar[i].strat; }
void *vs_replay_strategy_state(vs_replay *r, int i) { return r->ar[i].state; }
const vs_metrics *vs_replay_metrics(const vs_replay *r, int i) { return &r->ar[i].m; }
uint64_t vs_replay_events(const vs_replay *r) { return r->events; }
uint64_t vs_replay_frames(const vs_replay *r) { return r->frames; }
uint64_t vs_replay_diag_count(const vs_replay *r, vs_diag_kind k) { return r->diag[k]; }
uint64_t vs_replay_check_count(const vs_replay *r, vs_check_kind k) { return r->check[k]; }
const char *vs_replay_tag_name(const vs_replay *r, uint32_t tag) { return vs_trace_tag_name(r->rd, tag); }
const vs_trace_reader *vs_replay_reader(const vs_replay *r) { return r->rd; }

uint64_t vs_replay_check_total(const vs_replay *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < VS_CHECK_KINDS; k++)
		n += r->check[k];
	return n;
}

uint64_t vs_replay_diag_total(const vs_replay *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < VS_DIAG_KINDS; k++)
		n += r->diag[k];
	return n;
}

const vs_live *vs_replay_live_by_owner(const vs_replay *r, uint32_t owner)
{
	if (owner == VS_OWNER_NONE || owner == VS_OWNER_HW || owner > r->slab_len || !r->slab[owner - 1].in_use)
		return NULL;
	return &r->slab[owner - 1].pub;
}

void vs_replay_live_walk(const vs_replay *r, void (*fn)(void *ud, const vs_live *l), void *ud)
{
	uint32_t h;

	for (h = 1; h <= r->slab_len; h++)
		if (r->slab[h - 1].in_use)
			fn(ud, &r->slab[h - 1].pub);
}
