/* SPDX-License-Identifier: Zlib */
/* timeline.h - a recorded timeline of a replay that seeks through
 * checkpoints: what the viewer's window (viewer.h) shows.
 *
 * A timeline replays one trace once for each side (one strategy choice per
 * side, at most two), in step, and keeps:
 *  - every ownership change (the replay's on_mark) as a delta, with the owner
 *    turned into the number of the event that made the allocation, so an
 *    owner means the same allocation on both sides and across seeks;
 *  - run-length checkpoints of every arena's ownership map, taken every
 *    few hundred events or sooner when many units changed;
 *  - per event: trace line, type, outcome per side (failures), the metrics
 *    the charts draw; per alloc event: id, request, line.
 * Seeking restores the nearest checkpoint at or before the target and applies
 * the deltas after it, so it never replays from the start.
 */
#ifndef VRAMSIM_VIEWER_TIMELINE_H
#define VRAMSIM_VIEWER_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/replay.h"
#include "vram/arena.h"
#include "render/history.h"

/* Sides of a timeline, and of the viewer's window. */
#define VS_VIEW_MAX_SIDES 2

/* One alloc event of the trace (whether or not it succeeded). The owner
 * value of the units it holds in a timeline's maps is its event number. */
typedef struct vs_tl_alloc {
	uint64_t id;
	vs_request req;
	uint32_t event;
	uint32_t line;
} vs_tl_alloc;

typedef struct vs_tl_event {
	uint32_t line;
	uint8_t type;   /* vs_event_type */
	int8_t arena;   /* -1: every arena */
} vs_tl_event;

/* Metrics of one arena after an event. */
typedef struct vs_tl_sample {
	uint32_t live;     /* requested bytes of live allocations */
	uint32_t free;     /* free bytes */
	uint32_t largest;  /* largest free extent in bytes */
} vs_tl_sample;

typedef struct vs_timeline vs_timeline;

/* Opens the trace once per side and sets up a replay for each with cfg[i]
 * (observer and on_mark are the timeline's own; message is kept). Nothing is
 * replayed yet. Returns NULL with err. */
vs_timeline *vs_timeline_open(const char *trace, int nsides, const vs_replay_config *cfg, char *err, size_t errlen);
void vs_timeline_free(vs_timeline *h);

/* Records up to n more events on every side. Returns 1 while more remain,
 * 0 once the trace is done (or every side stopped), -1 out of memory, and
 * in follow mode 2 when every event written so far is recorded. */
int vs_timeline_record(vs_timeline *h, uint64_t n);
/* Follow mode (on 1) for a trace still being written (vramsim play: the
 * capture's trace as it grows): its end is "no more yet" (see
 * vs_trace_follow) until follow mode is turned off once the writer is
 * done; the next vs_timeline_record then reads to the end and completes. */
void vs_timeline_follow(vs_timeline *h, int on);
int vs_timeline_complete(const vs_timeline *h);
/* Events recorded so far (all sides have them). */
uint64_t vs_timeline_recorded(const vs_timeline *h);
/* Why a side stopped early (strict diagnostic, parse error), or NULL. */
const char *vs_timeline_error(const vs_timeline *h, int side);

/* The renderer's sampled history of a side (charts, heatmaps), fed while
 * recording; finished once the timeline is complete. */
const vs_history *vs_timeline_render_history(const vs_timeline *h, int side);
vs_replay *vs_timeline_replay(const vs_timeline *h, int side);
int vs_timeline_arena_count(const vs_timeline *h);

/* Moves the view to the state after `event` events (0: the start), clamped
 * to what is recorded. Returns the event reached. */
uint64_t vs_timeline_seek(vs_timeline *h, uint64_t event);
uint64_t vs_timeline_at(const vs_timeline *h);
/* The view: an arena whose ownership map (read with vs_arena_run_at and
 * vs_arena_runs) holds allocating event numbers as owners (or VS_OWNER_NONE /
 * VS_OWNER_HW) and the unit kinds, at vs_timeline_at(). It has no bytes. */
const vs_arena *vs_timeline_arena(const vs_timeline *h, int side, int arena);

/* The alloc event numbered `owner`, or NULL. */
const vs_tl_alloc *vs_timeline_alloc(const vs_timeline *h, uint32_t owner);
/* Event 1..recorded, or NULL. */
const vs_tl_event *vs_timeline_event(const vs_timeline *h, uint64_t event);
/* -1 when event did not fail on side, else its vs_fail_kind. */
int vs_timeline_failure(const vs_timeline *h, int side, uint64_t event);
/* Next failure on any side after `after`, previous one before `before`;
 * 0 when there is none. */
uint64_t vs_timeline_next_failure(const vs_timeline *h, uint64_t after);
uint64_t vs_timeline_prev_failure(const vs_timeline *h, uint64_t before);
/* Failure events of a side, ascending. */
const uint32_t *vs_timeline_failures(const vs_timeline *h, int side, size_t *n);
/* Next / previous `frame` event; 0 when none. Frames seen up to event. */
uint64_t vs_timeline_next_frame(const vs_timeline *h, uint64_t after);
uint64_t vs_timeline_prev_frame(const vs_timeline *h, uint64_t before);
uint64_t vs_timeline_frame_at(const vs_timeline *h, uint64_t event);
/* The event of the nth `frame` event (n from 1), 0 when there is none; and
 * how many frame events are recorded. */
uint64_t vs_timeline_frame_event(const vs_timeline *h, uint64_t n);
uint64_t vs_timeline_frame_count(const vs_timeline *h);
/* The allocation an event is about: an alloc event's own, or the one a free
 * event ends (the last alloc of its id before it), else NULL. */
const vs_tl_alloc *vs_timeline_event_alloc(const vs_timeline *h, uint64_t event);
/* The next alloc or free event after `from` (dir > 0), or the previous one
 * before it (dir < 0), whose allocation has id `key` (by_id) or tag number
 * `key` (else; a free: the tag of the allocation it ends); 0 when none. */
uint64_t vs_timeline_find(const vs_timeline *h, uint64_t from, int dir, int by_id, uint64_t key);
/* recorded+1 samples: [e] is the state after e events. */
const vs_tl_sample *vs_timeline_series(const vs_timeline *h, int side, int arena);

/* Memory the timeline holds (bytes), and how many checkpoints it has. */
size_t vs_timeline_bytes(const vs_timeline *h);
size_t vs_timeline_checkpoints(const vs_timeline *h);

#endif
