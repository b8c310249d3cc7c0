/* SPDX-License-Identifier: Zlib */
/* cli_cycles.h - what `vramsim cycles` does the same on every console: which
 * module measures a trace, opening the replay that builds the request list
 * (console/common/cycles_list.h), and printing the cycles per operation,
 * the worst frame and the placements that differ. The commands are
 * src/cli/gba/cmd_cycles.c and src/cli/ds/cmd_cycles.c. */
#ifndef VS_CLI_CYCLES_H
#define VS_CLI_CYCLES_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli_opt.h"
#include "console/common/cycles_list.h"
#include "engine/replay.h"
#include "trace/trace.h"

/* The module that measures `vramsim cycles ARGS...` (argv[0] "cycles"):
 * "ds" when --strategy names a DS strategy, --arena a DS arena, or the
 * trace (a regular file) declares DS arenas and no GBA one; "gba"
 * otherwise. */
const char *vs_cli_cycles_module(int argc, char **argv);

/* What the command was asked. */
typedef struct vs_cli_cycles_ask {
	const char *path, *arena, *strategy;
	const char *console; /* "GBA", "DS": in messages */
	uint32_t max_frames; /* --max-frames, or 0: the console's default */
} vs_cli_cycles_ask;

/* The keys of the options both consoles' `cycles` take (-s is 's'); a
 * console's own start at VS_CLI_CYCLES_OWN. */
enum { VS_CLI_CYCLES_ARENA = VS_CLI_LONG, VS_CLI_CYCLES_MAX_FRAMES, VS_CLI_CYCLES_OWN };
/* One of those options or the trace operand into a: -1 to go on, an exit
 * status, or VS_CLI_NOT_SHARED (a console's own option). */
int vs_cli_cycles_take(vs_cli_cycles_ask *a, const vs_cli_parser *p, int c);

/* Opens the trace in a replay that builds l while it runs, aimed at the
 * arena to measure (the first, or --arena's, whose strategy, or
 * --strategy, is in t[0..nt)). NULL after saying why. cfg and opts outlive
 * the replay. */
vs_replay *vs_cli_cycles_open(const vs_cli_cycles_ask *a, vs_cycles_list *l, const vs_cycles_target *t,
	size_t nt, vs_replay_config *cfg, char opts[][VS_OPTIONS_MAX]);

/* Runs the replay that builds l and prints what is measured. Returns
 * VS_EXIT_OK, VS_EXIT_CHECK (the host failed integrity checks: go on), or
 * VS_EXIT_USAGE after saying why the list cannot be measured. */
int vs_cli_cycles_replay(const vs_cli_cycles_ask *a, vs_cycles_list *l, vs_replay *r);

/* Prints the cycles of each operation, with their mean and max as a share
 * of frame (the counts in a frame). */
void vs_cli_cycles_print_ops(const vs_cycles_list *l, const vs_cycles_result *res, uint32_t frame);
/* Prints the worst frame: unit names the counts ("cycles", "ticks"),
 * frame and vblank are a frame's and VBlank's counts. */
void vs_cli_cycles_print_frames(const vs_cycles_list *l, const vs_cycles_result *res, const char *unit,
	uint32_t frame, uint32_t vblank);
/* "the alloc of id 7", "the frame": request i for a message. */
const char *vs_cli_cycles_what(const vs_cycles_list *l, uint32_t i, char *buf, size_t len);
/* Names the first ten allocations the console placed (or hit) otherwise
 * than the host, on standard error. Returns how many did. */
uint32_t vs_cli_cycles_report_diffs(const vs_cli_cycles_ask *a, const vs_cycles_list *l,
	const vs_cycles_result *res, const vs_arena_decl *decl);

#endif
