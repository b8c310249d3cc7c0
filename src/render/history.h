/* SPDX-License-Identifier: Zlib */
/* history.h - columns sampled during a replay, and the heatmaps, charts and time
 * lines drawn from them.
 */
#ifndef VS_RENDER_HISTORY_H
#define VS_RENDER_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/replay.h"
#include "render/colour.h"
#include "render/image.h"
#include "render/window.h"

/* ---- history: columns sampled during a replay ------------------------- */

typedef enum vs_heat_mode {
	VS_HEAT_OWNER = 0, /* colour by the owner's tag */
	VS_HEAT_OCCUPANCY  /* brightness by the fraction of the row in use */
} vs_heat_mode;

typedef struct vs_history vs_history;

/* A history keeps at most `columns` samples per arena, each `rows` address
 * rows high (0, 0: 1024 x 256). While the replay runs it samples every
 * `stride` events and, when the columns fill up, merges pairs and doubles
 * the stride, so memory stays bounded and a 1,000,000-event trace costs a
 * few thousand samples, never a full state per event. */
vs_history *vs_history_new(int columns, int rows);
void vs_history_free(vs_history *hs);
/* Installs the history's observer in cfg (before vs_replay_new). A caller
 * with an observer of its own calls vs_history_observe from it instead. */
void vs_history_attach(vs_history *hs, vs_replay_config *cfg);
/* What the heatmap's colours say (before the replay runs; default tag). */
void vs_history_set_colour_by(vs_history *hs, vs_colour_by by);
vs_colour_by vs_history_colour_by(const vs_history *hs);
void vs_history_observe(vs_history *hs, vs_replay *r, const vs_outcome *o);
/* The history's on_mark (attach installs it too): marks the address rows
 * that changed, so a sample redraws only those. A caller with its own
 * on_mark forwards here; if none is ever forwarded every row is resampled. */
void vs_history_mark(void *hs, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind);
/* Draws only window w (set before the replay runs; default: all of it):
 * columns, failures and peaks come from the events inside it, and the time
 * axes start at its first event. */
void vs_history_set_window(vs_history *hs, const vs_window *w);
/* After finish: 0 when the window lies in the replay, or -1 with why not in
 * err (frames asked of a trace without `frame` statements; an end past the
 * trace's end, saying how many events or frames it has). */
int vs_history_window_check(const vs_history *hs, char *err, size_t errlen);
/* The first and last event drawn (1-based; 0, 0 when none is), and whether
 * a window was set. Without one: 1 and the last event. */
uint64_t vs_history_first_event(const vs_history *hs);
uint64_t vs_history_last_event(const vs_history *hs);
int vs_history_windowed(const vs_history *hs);
/* The window drawn in its own unit, "frames 40-80" or "events 1200-3400";
 * "" without one. */
void vs_history_window_describe(const vs_history *hs, char *buf, size_t len);
/* Takes the last sample once the replay has stopped (also for a trace
 * with no events). Returns 0, or -1 on no memory. */
int vs_history_finish(vs_history *hs, const vs_replay *r);

uint64_t vs_history_events(const vs_history *hs);
int vs_history_arena_count(const vs_history *hs);
/* Events (1-based) at which an allocation in arena i failed, ascending: all
 * of them up to 65536; past that every other one is dropped and later ones
 * are kept twice as far apart, so memory stays bounded (they are ticks on
 * a time line). vs_history_failure_count counts every event with a failure. */
const uint64_t *vs_history_failures(const vs_history *hs, int i, size_t *n);
uint64_t vs_history_failure_count(const vs_history *hs, int i);
/* Event of the peak live bytes and of the peak fragmentation (first reached). */
uint64_t vs_history_peak_live_event(const vs_history *hs, int i);
uint64_t vs_history_peak_frag_event(const vs_history *hs, int i);
/* Sample columns: count, and column c's last event; over the events the
 * column covers, the highest live bytes, the smallest largest free extent
 * and the highest fragmentation. */
int vs_history_columns(const vs_history *hs);
uint64_t vs_history_column_event(const vs_history *hs, int c);
/* Frame statements before column c's event, and in the whole replay (0:
 * the trace has no frames, time is in events). */
uint64_t vs_history_column_frame(const vs_history *hs, int c);
uint64_t vs_history_frames(const vs_history *hs);
void vs_history_column_metrics(const vs_history *hs, int i, int c, uint64_t *live, uint64_t *largest, double *frag);

/* Draws the heatmap of arena i into r (axes, failure ticks, cursor at
 * cursor_event when non-zero). */
void vs_history_draw_heatmap(vs_image *im, vs_rect r, const vs_history *hs, int i, vs_heat_mode mode, uint64_t cursor_event);
/* Draws the chart of arena i into r (live bytes, largest free extent,
 * fragmentation; failure ticks; a cursor at cursor_event when non-zero). */
void vs_history_draw_chart(vs_image *im, vs_rect r, const vs_history *hs, int i, uint64_t cursor_event);
/* The x pixel of an event within a heatmap/chart drawn in r, and the
 * event at an x pixel (for seeking by clicking). */
int vs_history_time_x(const vs_history *hs, vs_rect r, uint64_t event);
uint64_t vs_history_time_event(const vs_history *hs, vs_rect r, int x);

#endif
