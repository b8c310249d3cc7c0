/* SPDX-License-Identifier: Zlib */
/* strategies.h - internal: the built-in strategy tables and helpers the
 * adapters share. Each family file (strategies_gba.c, strategies_ds.c,
 * strategies_heap.c) lists its strategies in display order. */
#ifndef VS_SIM_STRATEGIES_H
#define VS_SIM_STRATEGIES_H

#include "vramsim/strategy.h"

extern const vs_strategy *const vs_strategies_gba[];
extern const vs_strategy *const vs_strategies_ds[];
extern const vs_strategy *const vs_strategies_heap[];
extern const vs_strategy *const vs_strategies_recorded[]; /* last: never a kind's default */

/* A placement with no headers: block = [offset, offset + granted). */
static inline void vs_placement_simple(vs_placement *pl, uint32_t offset, uint32_t granted, uint32_t key)
{
	pl->offset = offset;
	pl->granted = granted;
	pl->block_offset = offset;
	pl->block_size = granted;
	pl->key = key;
	pl->shared = 0;
}

/* First OBJ tile the hardware draws in the arena's display mode: 0 in tile
 * modes, 512 in bitmap modes 3-5. */
static inline unsigned vs_gba_obj_first_tile(const vs_arena_decl *a)
{
	return a->gba_mode >= 3 ? 512u : 0u;
}

#endif
