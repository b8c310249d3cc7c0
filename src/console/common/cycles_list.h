/* SPDX-License-Identifier: Zlib */
/* cycles_list.h - the host half of `vramsim cycles` every console shares:
 * the request list built while the host replays a trace (every call the
 * host makes into the measured arena's strategy becomes a request for the
 * console's cycles program, protocol: cycles_proto.h), live ids mapped to
 * the program's handle slots, and what the console's answers say: cycles
 * per operation and per frame, and where its placements differ from the
 * host's.
 *
 * Each console brings its table of targets (the host strategies its
 * cycles program carries, and how each encodes a request):
 * console/gba/gba_cycles_list.c, console/ds/ds_cycles_list.c.
 */
#ifndef VRAMSIM_CYCLES_LIST_H
#define VRAMSIM_CYCLES_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "console/common/cycles_proto.h"
#include "engine/replay.h"

typedef struct vs_cycles_list vs_cycles_list;

/* A host strategy a console's cycles program carries. */
typedef struct vs_cycles_target {
	const char *name;   /* host strategy name */
	uint32_t id;        /* the program's number for its allocator */
	/* The request's arg and flags for an allocation, from the host
	 * strategy's state (after the call) and the request; 1, or 0 when the
	 * host adapter refuses the request without calling the allocator
	 * (nothing to time), or -1 when the request cannot be sent (a tag past
	 * what the program's request holds: the run stops, naming the line). */
	int (*encode)(const void *host_state, const vs_request *rq, uint32_t *arg, uint8_t *flags);
	/* Init parameters, read from the host strategy's state after init. */
	void (*params)(const void *host_state, uint32_t param[4]);
	/* Arena offset of an alloc result (never VS_CYCLES_NONE). */
	uint32_t (*offset)(uint32_t value);
	/* 1 when a result was a hit on data already loaded (NULL: never). */
	int (*hit)(uint32_t value);
	/* Called after each request is pushed (NULL: nothing): what the host
	 * did besides the call (the GBA's sprite moves). */
	void (*after)(vs_cycles_list *l, vs_replay *r);
	uint8_t results;    /* answers a request: 1, or 2 (the call's, then its moves') */
	uint8_t frames;     /* 1: frame markers become frame requests */
	/* 1: a reset's arg is the index of its parameter set in l->sets (the
	 * program reads the sets); 0: it is the set's first word */
	uint8_t param_sets;
	/* Whether the host's last alloc was a hit, from its strategy's state
	 * (NULL: the replay's record says so: Butano's managers share data the
	 * replay records as new allocations) */
	int (*host_hit)(const void *host_state);
	/* 1: a free's answer is the digest of every live allocation's place
	 * after it (allocators that move in their frees), compared with
	 * vs_cycles_call.digest, which after sets */
	uint8_t free_digest;
	/* 1: bank writes and locks become VS_CYCLES_OP_BANK requests
	 * (allocators that read the bank registers); 0: one that changes the
	 * strategy's set-up stops the list */
	uint8_t banks;
} vs_cycles_target;

/* The target named name in the table t[0..n), or NULL. */
const vs_cycles_target *vs_cycles_target_in(const vs_cycles_target *t, size_t n, const char *name);
/* The names in t[0..n), ", "-separated, into buf. */
void vs_cycles_target_names(const vs_cycles_target *t, size_t n, char *buf, size_t len);
/* The arena offset an alloc answer means (VS_CYCLES_NONE: it failed);
 * *hit is 1 when it was a hit on data already loaded. */
uint32_t vs_cycles_target_offset(const vs_cycles_target *t, uint32_t value, int *hit);

/* ---- the request list ----------------------------------------------------- */

/* What the host saw at one request, to compare the console's answer with. */
typedef struct vs_cycles_call {
	uint64_t line;     /* trace line */
	uint64_t id;
	uint32_t frame;    /* frame markers seen before it */
	uint32_t expect;   /* host result: arena offset, or VS_CYCLES_NONE */
	uint8_t shared;    /* host result was a hit on data already loaded */
	/* allocators that move sprites: the host's digest after the call, and
	 * the moves it made (how many, 32-bit words) */
	uint32_t digest, nmoves, words;
} vs_cycles_call;

typedef struct vs_cycles_slots vs_cycles_slots;

/* Filled by the functions below; the commands only read it. rq[i] is the
 * request sent, calls[i] what the host saw, for i < n. */
struct vs_cycles_list {
	const vs_cycles_target *t;
	int arena;           /* the arena measured */
	vs_cycles_slots *slots; /* live ids to the program's handle slots */
	uint32_t nslots;     /* handle slots the program keeps */
	vs_cycles_req *rq;
	vs_cycles_call *calls;
	uint32_t n, cap;
	uint32_t frames;     /* frame markers seen */
	uint32_t skipped;    /* requests the host adapter refused uncalled */
	uint32_t param[4];   /* init parameters, from the host state before the replay */
	uint32_t (*sets)[4]; /* parameter sets of the resets and inits (param_sets targets) */
	uint32_t nsets, sets_cap;
	uint32_t now[4];     /* the parameters the strategy holds now */
	uint64_t realloc_freed; /* the realloc event whose free was taken */
	int realloc_slot;    /* its slot, when the strategy takes the realloc whole */
	int failed;          /* the list cannot be measured: err says why */
	char err[512];
};

/* An empty list for a program keeping nslots handle slots (2..32768),
 * aimed nowhere yet; NULL when out of memory. */
vs_cycles_list *vs_cycles_list_new(uint32_t nslots);
void vs_cycles_list_free(vs_cycles_list *l);

/* Aims l at the first arena of r (the one named arena, if not NULL) whose
 * strategy is in the table t[0..n), with the init parameters its strategy
 * holds now. Returns the arena, or -1 when none is. Before the replay
 * runs. */
int vs_cycles_list_aim(vs_cycles_list *l, vs_replay *r, const char *arena, const vs_cycles_target *t, size_t n);

/* The replay observer (vs_replay_config.observer, ud the list): every call
 * the host makes into the aimed arena's strategy becomes a request. */
void vs_cycles_observe(void *ud, vs_replay *r, const vs_outcome *o);

/* ---- the console's answers -------------------------------------------------- */

/* Cycles of the calls of one operation. */
typedef struct vs_cycles_op {
	const char *name;  /* "alloc", "free", "reset", "frame" */
	uint32_t calls;
	double mean;
	uint32_t median, p99, max; /* nearest rank */
} vs_cycles_op;

/* The operations l holds calls of, in the order alloc, free, reset, frame
 * (res: one answer a request). Returns how many, or -1 when out of memory. */
int vs_cycles_ops(const vs_cycles_list *l, const vs_cycles_result *res, vs_cycles_op ops[4]);

/* Nearest-rank percentile pct of sorted v[0..n), n > 0; and v sorted. */
uint32_t vs_cycles_rank(const uint32_t *v, uint32_t n, uint32_t pct);
void vs_cycles_sort(uint32_t *v, uint32_t n);

/* The frame whose calls took the most cycles: frame N counts the calls
 * after the N-th marker (0: before the first). */
typedef struct vs_cycles_frame {
	uint32_t frame;
	uint64_t line;     /* its first call's trace line */
	uint64_t cycles;
} vs_cycles_frame;

void vs_cycles_worst_frame(const vs_cycles_list *l, const vs_cycles_result *res, vs_cycles_frame *w);

/* The first allocation from request i on whose console placement (or,
 * for the tile managers, whether it was a hit) differs from the host's:
 * its index, with the console's arena offset (VS_CYCLES_NONE: failed) and
 * hit; l->n when none does. With free_digest, also the first free after
 * which the console's allocations sit elsewhere (*got: its digest). */
uint32_t vs_cycles_next_diff(const vs_cycles_list *l, const vs_cycles_result *res, uint32_t i, uint32_t *got,
	int *hit);

#endif
