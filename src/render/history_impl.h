/* SPDX-License-Identifier: Zlib */
/* history_impl.h - what the drawing code reads from a history (not public). */
#ifndef VS_RENDER_HISTORY_IMPL_H
#define VS_RENDER_HISTORY_IMPL_H

#include "render/render.h"
#include "render/history.h"

int vs__history_rows(const vs_history *hs, int i);
const uint32_t *vs__history_cells(const vs_history *hs, int i, int c);
const uint8_t *vs__history_occ(const vs_history *hs, int i, int c);
const char *vs__history_arena_name(const vs_history *hs, int i);
uint32_t vs__history_arena_base(const vs_history *hs, int i);
uint32_t vs__history_arena_size(const vs_history *hs, int i);
uint64_t vs__history_arena_usable(const vs_history *hs, int i);
/* Tags that appeared in a sample: name (or "(untagged)") and colour; NULL if not seen. */
uint32_t vs__history_tag_count(const vs_history *hs);
const char *vs__history_tag(const vs_history *hs, uint32_t t, uint32_t *colour);

/* The time axis: events before the first drawn (its offset), events drawn
 * (at least 1), the frame at the first one. */
uint64_t vs__history_base(const vs_history *hs);
uint64_t vs__history_span(const vs_history *hs);
uint64_t vs__history_first_frame(const vs_history *hs);
/* The pixel column (x0 .. x0 + w - 1) of the state after event ev. */
int vs__history_x(const vs_history *hs, int x0, int w, uint64_t ev);

/* Margins around a heatmap's or chart's plot: address/byte labels left,
 * percent right, failure ticks above, time labels below. Heatmap and chart
 * share them so their time axes line up when stacked; a picture is as wide
 * as its plot and these. */
#define VS__PLOT_LEFT (8 * VS_FONT_W + 8)   /* an 8-digit address, then a gap */
#define VS__PLOT_RIGHT (4 * VS_FONT_W + 8)  /* "100%" */
#define VS__PLOT_TOP 9
#define VS__PLOT_BOTTOM (VS_FONT_H + 5)     /* the time axis' labels */

/* Tells the box hook (vs_image_box_hook) of a box drawn. */
void vs__box(const vs_image *im, vs_rect r, vs_box_kind kind, const char *what);

/* The occupancy heatmap's colour for 0-255 in use. */
uint32_t vs__occ_ramp(uint8_t o);

#endif
