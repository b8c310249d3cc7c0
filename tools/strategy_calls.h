/* SPDX-License-Identifier: Zlib */
/* strategy_calls.h - a strategy's own calls during a replay, recorded, then
 * made again straight to it on a fresh state, with nothing of the replay
 * engine in between: what the strategy alone costs (vs_bench_alloc,
 * vs_bench). Tools only: one recording at a time, one thread. */
#ifndef VRAMSIM_TOOLS_STRATEGY_CALLS_H
#define VRAMSIM_TOOLS_STRATEGY_CALLS_H

#include <stddef.h>

#include "vramsim/strategy.h"

typedef struct sc_calls sc_calls;

/* Replays the trace at path with s on arena ai (the others keep theirs)
 * and keeps s's calls. NULL when the strategy refuses the arena, the
 * trace does not replay, or s saves and restores its state (frame
 * managers: such calls are not made again). */
sc_calls *sc_record(const char *path, int ai, const vs_strategy *s);
void sc_free(sc_calls *c);
/* alloc and free calls recorded (resets and frames not counted) */
size_t sc_count(const sc_calls *c);
/* Makes the calls again with s on a fresh state. check: compares every
 * answer with the recording and returns the first call that differs + 1,
 * or 0. Otherwise returns 0 and stores the calls' thread CPU time in *ns
 * (nanoseconds, without the cost of reading the clock). 1 when s cannot
 * be set up. */
size_t sc_run(const sc_calls *c, const vs_strategy *s, int check, double *ns);
/* This thread's CPU time, nanoseconds. */
double sc_cpu_ns(void);

#endif
