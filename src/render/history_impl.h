/* SPDX-License-Identifier: Zlib */
/* history_impl.h - what the drawing code reads from a history (not public). */
#ifndef VS_RENDER_HISTORY_IMPL_H
#define VS_RENDER_HISTORY_IMPL_H

#include "vramsim/render.h"

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

/* The occupancy heatmap's colour for 0-255 in use. */
uint32_t vs__occ_ramp(uint8_t o);

#endif
