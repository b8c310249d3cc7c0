/* SPDX-License-Identifier: Zlib */
/* replay.h - runs a trace's events through strategies over arena models.
 *
 * After every event the metrics of every arena are current. Checks run on
 * every placement (overlap, bounds, hardware rules) and on every free (the
 * allocation's bytes are what was written). Trace misuse is a diagnostic;
 * replay goes on unless the config asks for strict.
 */
#ifndef VRAMSIM_REPLAY_H
#define VRAMSIM_REPLAY_H

#include <stdint.h>

#include "vram/arena.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"

/* Why an allocation failed, judged by the simulator from the arena's state,
 * not taken on the strategy's word. */
typedef enum vs_fail_kind {
	VS_FAIL_OOM = 0,     /* fewer free bytes than requested */
	VS_FAIL_FRAGMENTED,  /* enough free bytes, no place the strategy could use */
	VS_FAIL_RULE,        /* free runs big enough exist, the hardware forbids them all */
	VS_FAIL_MANAGEMENT,  /* the strategy ran out of bookkeeping */
	VS_FAIL_UNSUPPORTED, /* the strategy cannot serve this kind of request */
	VS_FAIL_INVALID,     /* the strategy refuses the request as invalid (a ROM index past its set,
	                      * a tile at the other depth, a size no sprite shape has) */
	VS_FAIL_KINDS
} vs_fail_kind;

const char *vs_replay_fail_kind_name(vs_fail_kind k);

typedef enum vs_diag_kind {
	VS_DIAG_UNKNOWN_ID = 0, /* free of an id never allocated */
	VS_DIAG_DOUBLE_FREE,    /* free of an id already freed */
	VS_DIAG_FREE_FAILED,    /* free of an id whose allocation failed */
	VS_DIAG_DUPLICATE_ID,   /* alloc of an id that is live */
	VS_DIAG_DIVERGENCE,     /* the game got another address than the strategy gave */
	VS_DIAG_UNKNOWN_STATE,  /* restore of a state never saved */
	VS_DIAG_STRATEGY,       /* the strategy refused an operation (free error, misuse) */
	VS_DIAG_HEAP_STACK,     /* pop of a heap that is not on top, or a stack overflow */
	VS_DIAG_INVALID,        /* a request the strategy refused as invalid */
	VS_DIAG_KINDS
} vs_diag_kind;

const char *vs_replay_diag_kind_name(vs_diag_kind k);

/* Integrity errors: the strategy did something the hardware or the books
 * forbid. Any of these makes the replay fail (exit 1). */
typedef enum vs_check_kind {
	VS_CHECK_OVERLAP = 0,   /* placement overlaps a live allocation */
	VS_CHECK_BOUNDS,        /* placement lies outside the arena */
	VS_CHECK_RULE,          /* placement breaks a hardware placement rule */
	VS_CHECK_BYTES,         /* a live allocation's bytes changed before its free */
	VS_CHECK_SHORT,         /* granted fewer bytes than requested */
	VS_CHECK_MOVE,          /* a move that names no allocation's block, or one that cannot move */
	VS_CHECK_UNMAPPED,      /* a DS bank left an arena while allocations lived on it */
	VS_CHECK_STATUS,        /* alloc or free returned a status vs_status does not define */
	VS_CHECK_KINDS
} vs_check_kind;

const char *vs_replay_check_kind_name(vs_check_kind k);

typedef struct vs_metrics {
	uint64_t events;
	uint64_t allocs;          /* successful allocations */
	uint64_t frees;
	uint64_t failures;        /* all kinds */
	uint64_t fail[VS_FAIL_KINDS];
	uint64_t shared_hits;     /* allocations served by data already loaded */
	uint64_t live_count;      /* live allocations */
	uint64_t live_bytes;      /* requested bytes of live allocations */
	uint64_t granted_bytes;   /* granted bytes of live allocations */
	uint64_t overhead_bytes;  /* headers and padding of live allocations */
	uint64_t retained_bytes;  /* freed by the game, still held by the allocator */
	uint64_t management_bytes;/* kept by the allocator outside allocations (strategy->held) */
	uint64_t ram_bytes;       /* the allocator's bookkeeping RAM outside the arena (strategy->ram) */
	uint64_t peak_ram;
	/* moves made by the strategy (strategy->moves) or the game (a trace's move) */
	uint64_t moves, moved_bytes;
	uint64_t frame_moved_max;     /* most bytes moved within one frame */
	uint64_t frame_cycles_max;    /* the costliest frame's moves and uploads, by VS_CYCLES_* */
	uint64_t frame_cycles_frame;  /* which frame that was (1-based), 0: none */
	uint64_t frame_worst_moved, frame_worst_loaded; /* its bytes moved and uploaded */
	uint64_t routed_small;    /* heap routing: allocations the small rule sent here */
	uint64_t routed_search;   /* heap routing: allocations a search list placed here */
	uint64_t usable_bytes;    /* the arena's bytes the hardware allows */
	uint64_t free_bytes;
	uint64_t largest_free;
	uint64_t free_extents;
	double frag;              /* 1 - largest_free / free_bytes (0 when nothing is free) */
	uint64_t peak_live;
	uint64_t peak_granted;
	double peak_frag;
	uint64_t peak_frag_event; /* event number where peak_frag was first reached */
	uint64_t high_water;      /* highest end offset ever taken */
	uint64_t smallest_failed; /* bytes of the smallest failed request (0: none) */
	double frag_sum;          /* sum of frag over events, for the mean */
	uint64_t diags;
	uint64_t checks;
} vs_metrics;

/* The cost model of a frame's VRAM traffic (docs/gba.md "Moving sprites"):
 * CPU cycles per 32-bit word, by DMA3 at WAITCNT 0x4317. A move inside VRAM
 * reads and writes a 16-bit bus (2 + 2); an upload reads ROM sequentially (2
 * halfwords at 1 wait state, 4) and writes VRAM (2). Each move costs more
 * beside its words: programming DMA3 for it (vs_spr_dma_moves of
 * sprite_handles.h, Thumb in ROM), 64 cycles as `vramsim cycles` measures
 * it. VBlank is 68 lines of 1,232 cycles. */
#define VS_CYCLES_MOVE_WORD 4u
#define VS_CYCLES_MOVE_EACH 64u
#define VS_CYCLES_UPLOAD_WORD 6u
#define VS_VBLANK_CYCLES 83776u

/* The model's price of move_words words moved in moves moves and
 * upload_words words uploaded: what every report of VRAM traffic uses. */
static inline uint64_t vs_cycles_traffic(uint64_t move_words, uint64_t moves, uint64_t upload_words)
{
	return move_words * VS_CYCLES_MOVE_WORD + moves * VS_CYCLES_MOVE_EACH + upload_words * VS_CYCLES_UPLOAD_WORD;
}

typedef struct vs_replay vs_replay;

/* A record per live allocation, visible to front ends. */
typedef struct vs_live {
	uint64_t id;
	uint32_t arena;
	vs_placement pl;
	vs_request req;
	uint64_t line;       /* trace line that allocated it */
	uint64_t event;      /* event number that allocated it */
	uint32_t refs;       /* ids sharing it (BG tile hits) */
	uint8_t retained;    /* freed, still held by the allocator */
	uint8_t broken;      /* its placement failed a check: not in the map */
} vs_live;

/* What happened at one event, for observers. */
typedef struct vs_outcome {
	const vs_event *ev;
	uint64_t event;          /* 1-based event number */
	int status;              /* vs_status of the strategy call (alloc/free) */
	int failed;              /* alloc failed */
	vs_fail_kind fail_kind;
	const vs_live *live;     /* alloc: the record (NULL on failure); free: the record freed */
	int released;            /* free: the last reference went (not one of several ids sharing it) */
} vs_outcome;

typedef void (*vs_observer_fn)(void *ud, vs_replay *r, const vs_outcome *o);
/* Diagnostics and check failures come here as formatted lines
 * ("trace:12: warning: ..."). Default: standard error. */
typedef void (*vs_message_fn)(void *ud, const char *line);

/* Every change the replay makes to an arena's ownership map, in order:
 * units covering [off, off+len) of arena now belong to owner with kind.
 * Front ends that seek (the viewer) record these as deltas. */
typedef void (*vs_mark_fn)(void *ud, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);

enum { VS_BYTES_OFF = 0, VS_BYTES_CHECKED = 1, VS_BYTES_ALWAYS = 2, VS_BYTES_FULL = 3 };

typedef struct vs_replay_config {
	/* per arena index: strategy (NULL: the trace's hint, else the kind's
	 * default) and options ("" or NULL: the trace's) */
	const vs_strategy *strategy[VS_TRACE_MAX_ARENAS];
	const char *options[VS_TRACE_MAX_ARENAS];
	int strict;          /* every diagnostic is fatal */
	/* Whether a live allocation's bytes are checked: written at its
	 * allocation, compared at its free (VS_CHECK_BYTES). VS_BYTES_CHECKED
	 * (the default) writes them only where someone besides the replay can
	 * change them: a strategy given the arena's bytes. For one with
	 * VS_STRAT_NO_MEM the ownership checks already prove them unchanged,
	 * and the arena's bytes stay zero. For one with VS_STRAT_STORES_SEEN
	 * none are written: the strategy's stores into live data are caught as
	 * they are made (docs/heaps.md, Checks). VS_BYTES_FULL writes and compares every
	 * byte for every strategy given the arena's bytes (`--full-bytes`);
	 * VS_BYTES_ALWAYS for every strategy (for code that reads
	 * vs_replay_arena's bytes); VS_BYTES_OFF (0) never. */
	int check_bytes;
	int check_rules;     /* hardware placement rules (default on) */
	int max_messages;    /* messages printed per kind before going quiet (0: 20) */
	vs_observer_fn observer;
	void *observer_ud;
	vs_message_fn message;
	void *message_ud;
	vs_mark_fn on_mark;
	void *mark_ud;
} vs_replay_config;

void vs_replay_config_default(vs_replay_config *c);

/* Takes ownership of the reader. Returns NULL with err on failure (unknown
 * arena for a strategy, strategy init refused, no memory). */
vs_replay *vs_replay_new(vs_trace_reader *rd, const vs_replay_config *cfg, char *err, size_t errlen);
void vs_replay_free(vs_replay *r);

/* Runs one event: 1 = done, 0 = end of trace, -1 = stop (parse error,
 * strict diagnostic, or fatal strategy error; see vs_replay_error). */
int vs_replay_step(vs_replay *r);
/* Runs to the end, or to event number `until` when non-zero. Returns as
 * vs_replay_step for its last call (0 at end). */
int vs_replay_run(vs_replay *r, uint64_t until);
const char *vs_replay_error(const vs_replay *r);

const vs_trace_header *vs_replay_header(const vs_replay *r);
/* The reader the replay owns (for progress: vs_trace_bytes_read). */
const vs_trace_reader *vs_replay_reader(const vs_replay *r);
int vs_replay_arena_count(const vs_replay *r);
/* Arena i: its ownership map, and its bytes (which hold the live
 * allocations' data where check_bytes wrote them, none of it where the
 * strategy's stores are seen: see above). */
const vs_arena *vs_replay_arena(const vs_replay *r, int i);
const vs_strategy *vs_replay_strategy(const vs_replay *r, int i);
void *vs_replay_strategy_state(vs_replay *r, int i);
const vs_metrics *vs_replay_metrics(const vs_replay *r, int i);
uint64_t vs_replay_events(const vs_replay *r);
uint64_t vs_replay_frames(const vs_replay *r);
/* Totals over the run. */
uint64_t vs_replay_diag_count(const vs_replay *r, vs_diag_kind k);
uint64_t vs_replay_check_count(const vs_replay *r, vs_check_kind k);
uint64_t vs_replay_check_total(const vs_replay *r);
uint64_t vs_replay_diag_total(const vs_replay *r);
const char *vs_replay_tag_name(const vs_replay *r, uint32_t tag);

/* Live records: the one holding a handle from the ownership map, and a walk
 * over all of them (in no particular order). */
const vs_live *vs_replay_live_by_owner(const vs_replay *r, uint32_t owner);
void vs_replay_live_walk(const vs_replay *r, void (*fn)(void *ud, const vs_live *l), void *ud);

#endif
