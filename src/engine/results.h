/* SPDX-License-Identifier: Zlib */
/* results.h - every call's result out of a replay.
 *
 * A vs_results is an observer (it sets vs_replay_config.observer and
 * .message) that keeps, while the replay runs:
 *  - the failed requests: line, frame, tag, request, bytes asked, the
 *    arena's free bytes and largest free extent at that moment, the kind
 *    (at most VS_RESULTS_FAILURES_KEPT; the rest are counted);
 *  - a table per arena and tag: live and peak live bytes, allocations,
 *    failures and frees;
 * and writes, when given a stream:
 *  - the event log: JSON Lines, one object per trace event (fields in
 *    docs/results.md);
 *  - the series: CSV, one row per arena at each frame (or each event where
 *    the trace has no frames).
 * Memory is bounded by the tags the trace declares and the failures kept,
 * never by the number of events.
 */
#ifndef VRAMSIM_RESULTS_H
#define VRAMSIM_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#include "engine/replay.h"

#define VS_RESULTS_FAILURES_KEPT 100000u

typedef struct vs_failure {
	uint64_t event, line, frame, id;
	uint32_t arena, tag;
	vs_request req;
	vs_fail_kind kind;
	int status;               /* what the strategy answered */
	uint64_t free_bytes;      /* in the arena, when it failed */
	uint64_t largest_free;
	/* A fragmentation failure only: the fewest bytes that would have to move
	 * for it to fit (see docs/results.md); VS_MOVE_UNKNOWN when not computed
	 * or no place would do. */
	uint64_t to_move;
} vs_failure;

#define VS_MOVE_UNKNOWN UINT64_MAX

typedef struct vs_tag_stats {
	uint64_t live_bytes, peak_live, allocs, failures, frees;
} vs_tag_stats;

/* An arena at the first event where its live bytes reached their peak
 * (the moment compare's "at the peak" columns describe). */
typedef struct vs_peak {
	uint64_t event, live_bytes, free_extents, largest_free;
	uint64_t internal;   /* (granted - requested) + overhead of live allocations */
} vs_peak;

typedef struct vs_results vs_results;

/* events and series may be NULL (not written). */
vs_results *vs_results_new(FILE *events, FILE *series);
void vs_results_free(vs_results *x);
/* Hooks x into cfg (keeps cfg's message function and passes every message
 * on). Call before vs_replay_new. */
void vs_results_attach(vs_results *x, vs_replay_config *cfg);
/* After the run: the series' last rows (events since the last frame).
 * Returns 0, or -1 when writing either stream failed. */
int vs_results_finish(vs_results *x, vs_replay *r);

uint64_t vs_results_failure_total(const vs_results *x);
size_t vs_results_failure_count(const vs_results *x); /* kept */
const vs_failure *vs_results_failure(const vs_results *x, size_t i);
/* The stats of tag in arena, or NULL when it never allocated there. */
const vs_tag_stats *vs_results_tag(const vs_results *x, uint32_t arena, uint32_t tag);
uint32_t vs_results_tag_span(const vs_results *x); /* tags 0..span-1 may have stats */
const vs_peak *vs_results_peak(const vs_results *x, int arena);
/* Fragmentation failures of arena a, how many of them have a to_move, and
 * the sum of those (every failure, kept in the list or not). */
void vs_results_moves(const vs_results *x, int a, uint64_t *frag_failures, uint64_t *computed, uint64_t *bytes);

#endif
