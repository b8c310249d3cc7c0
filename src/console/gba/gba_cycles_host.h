/* SPDX-License-Identifier: Zlib */
/* gba_cycles_host.h - the host half of `vramsim cycles`: which host
 * strategies have a GBA build and how their calls become requests for the
 * cycles program (protocol: gba_cycles.h), the request list built while the
 * host replays a trace, and what the GBA's answers say: cycles per
 * operation and per frame, the moves beside the cost model, and where the
 * GBA's placements differ from the host's.
 *
 * gba_cycles_list.c builds the list, gba_cycles_stats.c reads the answers;
 * the command (src/cli/gba/cmd_cycles.c) parses options and prints.
 */
#ifndef VRAMSIM_GBA_CYCLES_HOST_H
#define VRAMSIM_GBA_CYCLES_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "console/gba/gba_emu.h"
#include "engine/replay.h"

/* ---- strategies with a GBA build ------------------------------------------ */

/* A host strategy the cycles ROM carries, with its request encoding. */
typedef struct vs_gba_cycles_target vs_gba_cycles_target;

/* The GBA build of the host strategy named strategy, or NULL. */
const vs_gba_cycles_target *vs_gba_cycles_target_find(const char *strategy);
const char *vs_gba_cycles_target_name(const vs_gba_cycles_target *t);
/* The names of every GBA build, ", "-separated, into buf. */
void vs_gba_cycles_target_list(char *buf, size_t len);
/* The cycles program's number for t's allocator (VS_GBA_STRAT_*). */
uint32_t vs_gba_cycles_target_id(const vs_gba_cycles_target *t);
/* The arena offset an alloc answer of t's allocator means (VS_GBA_NONE: it
 * failed); *hit is 1 when it was a hit on a tile already loaded. */
uint32_t vs_gba_cycles_target_offset(const vs_gba_cycles_target *t, uint32_t value, int *hit);

/* ---- the request list ----------------------------------------------------- */

/* What the host saw at one request, to compare the GBA's answer with. */
typedef struct vs_gba_cycles_call {
	uint64_t line;     /* trace line */
	uint64_t id;
	uint32_t frame;    /* frame markers seen before it */
	uint32_t expect;   /* host result: arena offset, or VS_GBA_NONE */
	uint8_t shared;    /* host result was a hit on data already loaded */
	/* allocators that move sprites: the host's digest after the call, and
	 * the moves it made (how many, 32-bit words) */
	uint32_t digest, nmoves, words;
} vs_gba_cycles_call;

typedef struct vs_gba_cycles_slots vs_gba_cycles_slots;

/* Filled by the functions below; the command only reads it. rq[i] is the
 * request sent, calls[i] what the host saw, for i < n. */
typedef struct vs_gba_cycles_list {
	const vs_gba_cycles_target *t;
	int arena;           /* the arena measured */
	vs_gba_cycles_slots *slots; /* live ids to the program's handle slots */
	vs_gba_req *rq;
	vs_gba_cycles_call *calls;
	uint32_t n, cap;
	uint32_t frames;     /* frame markers seen */
	uint32_t skipped;    /* requests the host adapter refused uncalled */
	uint32_t param[4];   /* init parameters, from the host state before the replay */
	int failed;          /* the list cannot be measured: err says why */
	char err[512];
} vs_gba_cycles_list;

/* An empty list, aimed nowhere yet; NULL when out of memory. */
vs_gba_cycles_list *vs_gba_cycles_list_new(void);
void vs_gba_cycles_list_free(vs_gba_cycles_list *l);

/* Aims l at the first arena of r (the one named arena, if not NULL) whose
 * strategy has a GBA build, with the init parameters its strategy holds
 * now. Returns the arena, or -1 when none has one. Before the replay runs. */
int vs_gba_cycles_list_aim(vs_gba_cycles_list *l, vs_replay *r, const char *arena);

/* The replay observer (vs_replay_config.observer, ud the list): every call
 * the host makes into the aimed arena's strategy becomes a request. */
void vs_gba_cycles_observe(void *ud, vs_replay *r, const vs_outcome *o);

/* ---- the GBA's answers ---------------------------------------------------- */

/* Runs l on the emulated GBA with code placement code (VS_GBA_CODE_*): *res
 * gets the program's answers, VS_GBA_RESULTS_PER_REQ a request. Returns 0,
 * or -1 with err (no ROM, out of memory, the program failed; info->error
 * says whether it was a check of its own: VS_GBA_E_BYTES at error_index). */
int vs_gba_cycles_measure(const vs_gba_cycles_list *l, int code, uint32_t max_frames, vs_gba_result **res,
	vs_gba_cycles_info *info, char *err, size_t errlen);
/* For an allocator that moves sprites: splits the two answers a request
 * into res[i] (the call's) and a new array *mres (the moves'); otherwise
 * *mres is NULL. Returns 0, or -1 when out of memory. */
int vs_gba_cycles_split(const vs_gba_cycles_list *l, vs_gba_result *res, vs_gba_result **mres);

/* Cycles of the calls of one operation. */
typedef struct vs_gba_cycles_op {
	const char *name;  /* "alloc", "free", "reset", "frame" */
	uint32_t calls;
	double mean;
	uint32_t median, p99, max; /* nearest rank */
} vs_gba_cycles_op;

/* The operations l holds calls of, in the order alloc, free, reset, frame.
 * Returns how many, or -1 when out of memory. */
int vs_gba_cycles_ops(const vs_gba_cycles_list *l, const vs_gba_result *res, vs_gba_cycles_op ops[4]);

/* The frame whose calls took the most cycles: frame N counts the calls
 * after the N-th marker (0: before the first). */
typedef struct vs_gba_cycles_frame {
	uint32_t frame;
	uint64_t line;     /* its first call's trace line */
	uint64_t cycles;
} vs_gba_cycles_frame;

void vs_gba_cycles_worst_frame(const vs_gba_cycles_list *l, const vs_gba_result *res, vs_gba_cycles_frame *w);

/* The moves' cycles over a set of calls or frames that moved sprites,
 * measured and as the cost model prices them (engine/replay.h). */
typedef struct vs_gba_cycles_moves_row {
	uint32_t n;
	double mean;
	uint32_t median, max;
	double model_mean;
	uint32_t model_max;
} vs_gba_cycles_moves_row;

typedef struct vs_gba_cycles_moves {
	uint32_t moves, calls;    /* sprites moved, by calls that moved any */
	uint64_t words, measured; /* words moved; cycles measured */
	uint64_t model;           /* the cost model's cycles for them */
	double ratio;             /* measured / model (0 when nothing moved) */
	/* DMA3 at start-up: cycles a word and a transfer besides, VRAM to
	 * VRAM and ROM to VRAM */
	double vram_word, vram_each, rom_word, rom_each;
	vs_gba_cycles_moves_row call;  /* per call that moved sprites */
	vs_gba_cycles_moves_row frame; /* per frame that did (n 0: no frame markers) */
} vs_gba_cycles_moves;

/* The moves answered in mres (vs_gba_cycles_split). Returns 0, or -1 when
 * out of memory. */
int vs_gba_cycles_moves_of(const vs_gba_cycles_list *l, const vs_gba_result *mres,
	const vs_gba_cycles_info *info, vs_gba_cycles_moves *m);

/* The first allocation from request i on whose GBA placement (or, for the
 * tile managers, whether it was a hit) differs from the host's: its index,
 * with the GBA's arena offset (VS_GBA_NONE: failed) and hit; l->n when
 * none does. */
uint32_t vs_gba_cycles_next_diff(const vs_gba_cycles_list *l, const vs_gba_result *res, uint32_t i,
	uint32_t *got, int *hit);
/* The first request from i on after which the GBA's sprites sit elsewhere
 * than the host's (the digests in mres), or l->n. */
uint32_t vs_gba_cycles_next_moved_diff(const vs_gba_cycles_list *l, const vs_gba_result *mres, uint32_t i);

#endif
