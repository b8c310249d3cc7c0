/* SPDX-License-Identifier: Zlib */
/* gba_cycles_host.h - the host half of `vramsim cycles`: which host
 * strategies have a GBA build and how their calls become requests for the
 * cycles program (protocol: gba_cycles.h), the request list built while the
 * host replays a trace, and what the GBA's answers say: cycles per
 * operation and per frame, the moves beside the cost model, and where the
 * GBA's placements differ from the host's.
 *
 * The list and the statistics every console shares are
 * console/common/cycles_list.h; gba_cycles_list.c holds the GBA's
 * targets, gba_cycles_stats.c runs the list and reads the moves; the
 * command (src/cli/gba/cmd_cycles.c) parses options and prints.
 */
#ifndef VRAMSIM_GBA_CYCLES_HOST_H
#define VRAMSIM_GBA_CYCLES_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "console/common/cycles_list.h"
#include "console/gba/gba_emu.h"
#include "engine/replay.h"

/* ---- strategies with a GBA build ------------------------------------------ */

/* The host strategies with a GBA build: *n of them. */
const vs_cycles_target *vs_gba_cycles_targets(size_t *n);
/* The names of every GBA build, ", "-separated, into buf. */
void vs_gba_cycles_target_list(char *buf, size_t len);

/* ---- the request list (console/common/cycles_list.h) ---------------------- */

typedef vs_cycles_list vs_gba_cycles_list;
typedef vs_cycles_call vs_gba_cycles_call;

/* An empty list for the GBA's handle slots, aimed nowhere yet; NULL when
 * out of memory. */
vs_gba_cycles_list *vs_gba_cycles_list_new(void);

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

/* The first request from i on after which the GBA's sprites sit elsewhere
 * than the host's (the digests in mres), or l->n. */
uint32_t vs_gba_cycles_next_moved_diff(const vs_gba_cycles_list *l, const vs_gba_result *mres, uint32_t i);

#endif
