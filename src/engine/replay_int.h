/* SPDX-License-Identifier: Zlib */
/* replay_int.h - the replay's books as its files share them, and the calls
 * each file makes into the others. Not part of the API
 * (src/engine/replay.h has that):
 *  - replay.c: set-up, the event loop, the metrics and the public calls;
 *  - replay_msg.c: diagnostics, integrity errors and observers' outcomes;
 *  - replay_ids.c: the id table and the rings of freed and failed ids;
 *  - replay_records.c: the slab of live records, their bytes in the arena
 *    and their marks in its ownership map;
 *  - replay_held.c: what a strategy keeps for itself, in the map;
 *  - replay_alloc.c: alloc and free events;
 *  - replay_moves.c: moves (the strategy's and the game's) and frames;
 *  - replay_states.c: save, restore, reset and init events.
 *
 * The per-event path crosses these files: vramsim and vs_bench are linked
 * with LTO, which inlines across them; the few helpers that must go
 * inline where they are called whatever the build are static inline here.
 */
#ifndef VRAMSIM_REPLAY_INT_H
#define VRAMSIM_REPLAY_INT_H

#include "base/compiler_hints.h"
#include "vramsim/alloc/heap_manager.h"
#include "vram/hw.h"
#include "engine/replay.h"
#include "vram/arena.h"

#define FREED_RING 65536u
/* Failed allocations whose ids are remembered (a free of one is told from a
 * free of an unknown id): the newest ones, so millions of failures keep
 * memory bounded by the live allocations. */
#define FAILED_RING 65536u
#define MAX_TIED 2

/* What check_placement marked of a record (rec.taken). */
enum { TAKEN_NOT = 0, TAKEN_ALL /* header, data, slack and tail, as mark_rec marks them */ };

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
	uint8_t taken;         /* what check_placement marked already (vs_arena_take): TAKEN_* */
	uint8_t watched;       /* its data is in its arena's watch (stores seen) */
} rec;

/* id table entry: handle 0 = empty slot, FAILED_HANDLE = failed allocation */
#define FAILED_HANDLE 0xFFFFFFFFu
typedef struct id_slot {
	uint64_t id;
	uint32_t handle;
	uint32_t arena;  /* for failed entries */
} id_slot;

/* As vs_replay_id_find, and where a probe for id stopped when it is not
 * there: the empty slot vs_replay_id_put would fill, while the table does
 * not change. */
typedef struct id_gap {
	const id_slot *ids;
	uint32_t used, at;
} id_gap;

struct saved_state; /* replay_states.c */

typedef struct arena_run {
	vs_arena arena;
	const vs_strategy *strat;
	void *state;
	char options[VS_OPTIONS_MAX];
	char setup_options[VS_OPTIONS_MAX]; /* the arena's options at setup: an `init` line without
	                                     * its own (or with the trace's, for another strategy) keeps them */
	int takes_trace_options;           /* the strategy is the one the trace's options are for */
	vs_metrics m;
	struct saved_state **saves;        /* by state name id (vs_event's state), NULL where none */
	uint32_t nsaves;
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
	uint8_t seen;          /* the strategy's stores are watched: those bytes are not written */
	heap_watch watch;      /* with seen: the granules with live data, and what hit them */
	uint64_t *live_bits;   /* watch.live */
	uint64_t *part_masks;  /* watch.part */
	uint8_t frag_known;    /* m.frag is worked out from m.free_bytes and m.largest_free */
	uint8_t stranded;      /* allocations live on memory a DS bank took away: frees re-reserve it */
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
	int realloc_held;       /* the free is a realloc's: the strategy lets go inside its alloc */
};

/* ---- replay.c: metrics --------------------------------------------------- */

/* Brings an arena's metrics in line with its map and its strategy: free
 * space and fragmentation, bookkeeping RAM, peaks. */
void vs_replay_refresh_metrics(arena_run *ar);
/* Adds a record to its arena's live counts (sign > 0) or takes it out. */
void vs_replay_account(arena_run *ar, const rec *x, int sign);

/* The bytes a strategy's init gets: none when it promises never to touch them. */
static inline uint8_t *vs_replay_strat_mem(arena_run *ar)
{
	return (ar->strat->flags & VS_STRAT_NO_MEM) ? NULL : ar->arena.bytes;
}

/* ---- replay_msg.c --------------------------------------------------------- */

/* Reports a diagnostic; returns -1 when strict makes it fatal. */
/* replay_banks.c: the DS bank statements, realloc, and re-reserving
 * memory a bank took away once the allocations on it are freed. */
int vs_replay_do_vramcnt(vs_replay *r);
int vs_replay_do_lock(vs_replay *r);
int vs_replay_do_realloc(vs_replay *r);
void vs_replay_rereserve(vs_replay *r, int a);
int vs_replay_diag(vs_replay *r, vs_diag_kind k, const char *fmt, ...);
void vs_replay_check_fail(vs_replay *r, int a, vs_check_kind k, const char *fmt, ...);
/* Tells the observer, if any, what the current event did. */
void vs_replay_notify(vs_replay *r, int status, int failed, vs_fail_kind fk, const vs_live *live);
/* The replay stops at the current event for want of memory: -1. */
int vs_replay_out_of_memory(vs_replay *r);

/* ---- replay_ids.c --------------------------------------------------------- */

id_slot *vs_replay_id_find(vs_replay *r, uint64_t id);
id_slot *vs_replay_id_find_gap(vs_replay *r, uint64_t id, id_gap *g);
int vs_replay_id_put(vs_replay *r, uint64_t id, uint32_t handle, uint32_t arena);
int vs_replay_id_put_gap(vs_replay *r, const id_gap *g, uint64_t id, uint32_t handle, uint32_t arena);
void vs_replay_id_del(vs_replay *r, id_slot *s);
void vs_replay_freed_push(vs_replay *r, uint64_t id);
int vs_replay_failed_put(vs_replay *r, uint64_t id, uint32_t arena);
int vs_replay_freed_recently(const vs_replay *r, uint64_t id);
int vs_replay_prune_ids(vs_replay *r);

/* ---- replay_records.c ----------------------------------------------------- */

uint32_t vs_replay_rec_new(vs_replay *r);
void vs_replay_rec_release(vs_replay *r, uint32_t h);
void vs_replay_drop_rec(vs_replay *r, uint32_t h);
void vs_replay_write_bytes(arena_run *ar, rec *x);
int64_t vs_replay_verify_bytes(const arena_run *ar, const rec *x);
/* The arena's watch over its strategy's stores (arena_run seen): set up,
 * and let go. 0, or -1 out of memory. */
int vs_replay_watch_init(arena_run *ar);
void vs_replay_watch_fini(arena_run *ar);
/* A record's data is no longer watched (it is being freed or dropped). */
void vs_replay_unwatch(arena_run *ar, rec *x);
/* The strategy of arena a stored into live data during its call: reported. */
void vs_replay_stores_hit(vs_replay *r, int a, const char *call);
void vs_replay_mark_oom(const vs_replay *r);
void vs_replay_mark_told(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner,
	vs_unit_kind kind);
void vs_replay_mark_rec(const vs_replay *r, const rec *x, uint32_t h, int retained);
/* The marks vs_replay_mark_rec makes of a live record told to the
 * observer (on_mark) alone: check_placement took the block whole. */
void vs_replay_tell_rec(const vs_replay *r, const rec *x, uint32_t h);
void vs_replay_unmark_rec(const vs_replay *r, const rec *x);

/* Bytes of data a record writes: the request, at most what was granted. */
static inline uint32_t vs_replay_data_bytes(const rec *x)
{
	return x->pub.req.size < x->pub.pl.granted ? x->pub.req.size : x->pub.pl.granted;
}

/* All ownership changes go through here so observers see every one.
 * Without an observer a mark is one call, with nothing to keep across it:
 * small enough to go inline where it is made. */
static inline void vs_replay_mark(const vs_replay *r, int ai, uint32_t off, uint32_t len, uint32_t owner,
	vs_unit_kind kind)
{
	if (r->cfg.on_mark)
		vs_replay_mark_told(r, ai, off, len, owner, kind);
	else if (vs_arena_mark((vs_arena *)&r->ar[ai].arena, off, len, owner, kind))
		vs_replay_mark_oom(r);
}

#ifdef HEAP_WATCH_STORES
/* The watch of a call ended: what hit it back in the arena's, none in force. */
static inline void watch_end(arena_run *ar)
{
	ar->watch.hits = heap_watch_on.hits;
	ar->watch.first = heap_watch_on.first;
	heap_watch_on.size = 0;
}
#endif

/* A status outside vs_status is the strategy's fault, reported as an
 * integrity error naming the call and the code; the replay then goes on
 * by its sign (negative values are failures): as failed_as when negative,
 * as VS_OK when not. Returns the status to go on with. */
VS_COLD int vs_replay_bad_status(vs_replay *r, int a, const char *call, int status, int failed_as);

/* On the per-event path: one compare (VS_ERR_LOST to VS_RETAINED shifted
 * to 0 to 7, unsigned), the report out of line. */
static inline int vs_replay_status(vs_replay *r, int a, const char *call, int status, int failed_as)
{
	if ((unsigned)status - (unsigned)VS_ERR_LOST <= (unsigned)(VS_RETAINED - VS_ERR_LOST))
		return status;
	return vs_replay_bad_status(r, a, call, status, failed_as);
}

/* Strategy calls, with the arena's stores watched when they can be
 * (VS_STRAT_STORES_SEEN): a store into live data is reported after the
 * call. A status the ABI does not define goes on as a failure the arena's
 * state classifies (alloc) or as a free the game made anyway (free). */
static inline int vs_replay_strat_alloc(vs_replay *r, int a, const vs_request *rq, vs_placement *pl)
{
	arena_run *ar = &r->ar[a];

#ifdef HEAP_WATCH_STORES
	if (ar->seen) {
		int status;
		heap_watch_on = ar->watch;
		status = ar->strat->alloc(ar->state, rq, pl);
		watch_end(ar);
		if (ar->watch.hits)
			vs_replay_stores_hit(r, a, "alloc");
		return vs_replay_status(r, a, "alloc", status, VS_ERR_NOSPACE);
	}
#endif
	return vs_replay_status(r, a, "alloc", ar->strat->alloc(ar->state, rq, pl), VS_ERR_NOSPACE);
}

static inline int vs_replay_strat_free(vs_replay *r, int a, const vs_placement *pl)
{
	arena_run *ar = &r->ar[a];

#ifdef HEAP_WATCH_STORES
	if (ar->seen) {
		int status;
		heap_watch_on = ar->watch;
		status = ar->strat->free(ar->state, pl);
		watch_end(ar);
		if (ar->watch.hits)
			vs_replay_stores_hit(r, a, "free");
		return vs_replay_status(r, a, "free", status, VS_OK);
	}
#endif
	return vs_replay_status(r, a, "free", ar->strat->free(ar->state, pl), VS_OK);
}

/* ---- replay_held.c -------------------------------------------------------- */

void vs_replay_refresh_held_list(vs_replay *r, int a);
uint32_t vs_replay_stretch_end(const vs_arena *A, uint32_t u, uint32_t last, uint32_t o);

/* Most strategies keep nothing for themselves (no held): a test where the
 * call is made, not a call that saves registers to find out. */
static inline void vs_replay_refresh_held(vs_replay *r, int a)
{
	if (r->ar[a].strat->held)
		vs_replay_refresh_held_list(r, a);
}

/* After an alloc or free call: not asked of a strategy whose held extents
 * those calls never change (VS_STRAT_HELD_FIXED, most heaps). */
static inline void vs_replay_refresh_held_call(vs_replay *r, int a)
{
	if (r->ar[a].strat->held && !(r->ar[a].strat->flags & VS_STRAT_HELD_FIXED))
		vs_replay_refresh_held_list(r, a);
}

/* ---- replay_alloc.c, replay_moves.c, replay_states.c: the events ---------- */

int vs_replay_do_alloc(vs_replay *r);
int vs_replay_do_free(vs_replay *r);
int vs_replay_do_move(vs_replay *r);
int vs_replay_apply_moves(vs_replay *r, int a);
/* Drops the records of the kept blocks arena a's strategy let go in its
 * last call (ABI 4 released). 0, or -1 when the replay stops. */
int vs_replay_apply_released(vs_replay *r, int a);
int vs_replay_end_frame(vs_replay *r);
int vs_replay_do_save(vs_replay *r, int a);
int vs_replay_do_restore(vs_replay *r, int a);
int vs_replay_do_reset(vs_replay *r, int a);
int vs_replay_do_init(vs_replay *r, int a);
/* Calls arena ar's strategy's init: 0, or -1 with its message in why,
 * terminated and escaped (empty when it gave none). */
int vs_replay_strat_init(arena_run *ar, char *why, size_t whylen);
void vs_replay_free_saves(arena_run *ar);

#endif
