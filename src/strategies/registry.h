/* SPDX-License-Identifier: Zlib */
/* registry.h - the strategies vramsim knows: built-ins first, in a fixed
 * order, then plug-ins in the order loaded (plugin.h).
 */
#ifndef VS_STRATEGIES_REGISTRY_H
#define VS_STRATEGIES_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/strategy.h"

/* The name of a vs_status ("ok", "nospace", ...). */
const char *vs_strategy_status_name(int status);

size_t vs_strategy_count(void);
const vs_strategy *vs_strategy_at(size_t i);
const vs_strategy *vs_strategy_find(const char *name);
/* The strategy a kind of arena gets when none is named. */
const vs_strategy *vs_strategy_default(vs_arena_kind kind);
int vs_strategy_manages(const vs_strategy *s, vs_arena_kind kind);
/* Whether s cannot serve this declared arena although it manages its kind:
 * a 2D-mapped OBJ arena and a strategy without VS_STRAT_OBJ_2D. Returns 0,
 * or 1 with the reason (naming the strategies that can) in why. */
int vs_strategy_refuses(const vs_strategy *s, const vs_arena_decl *d, char *why, size_t whylen);
/* The strategy an arena gets when none is named: its kind's default, or,
 * when that refuses the arena, the first registered strategy that takes it. */
const vs_strategy *vs_strategy_default_for(const vs_arena_decl *d);
/* Adds one strategy (plug-ins, tests). A table of an older ABI is copied
 * and kept in the current layout. Returns 0, or -1 when the name is
 * taken, the ABI is unknown, the table is full or the strategy is
 * inconsistent: no name (NULL), a name that is not 1-31 of a-z 0-9 - _ ., a
 * summary missing or holding control characters, a required operation
 * missing, arenas naming no kind, unknown flags, more than 64 MiB of
 * state, save / restore / save_size not given together. */
int vs_strategy_register(const vs_strategy *s, char *err, size_t errlen);
/* Adds n strategies, all of them or none. */
int vs_strategy_register_all(const vs_strategy *const *v, size_t n, char *err, size_t errlen);

#endif
