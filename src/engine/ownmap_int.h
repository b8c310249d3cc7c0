/* SPDX-License-Identifier: Zlib */
/* ownmap_int.h - the ownership map's per-unit form (ownunits.c), which
 * vs_ownmap_* (ownmap.c) hands its calls to when a map was made with
 * vs_ownmap_new_units. Same meanings as the vs_ownmap_* calls.
 *
 * The runs form's readers (run_at, unit_at, first_taken, walk) take a
 * const map but remember the run they found as the hint for the next
 * look-up, and the per-unit form's stats finds its longest free run again
 * when a mark left it stale: a map is used by one thread at a time
 * everywhere (compare -j gives each replay its own arenas; the viewer
 * copies the maps it keeps), so even reads of one map must not run in
 * two threads at once. */
#ifndef VRAMSIM_OWNMAP_INT_H
#define VRAMSIM_OWNMAP_INT_H

#include "vramsim/arena.h"

typedef struct vs_ownunits vs_ownunits;

vs_ownunits *vs_ownunits_new(uint32_t nunits);
vs_ownunits *vs_ownunits_copy(const vs_ownunits *src);
void vs_ownunits_free(vs_ownunits *m);
void vs_ownunits_clear(vs_ownunits *m);
void vs_ownunits_set(vs_ownunits *m, uint32_t first, uint32_t count, uint32_t owner, vs_unit_kind kind);
int vs_ownunits_run_at(const vs_ownunits *m, uint32_t unit, vs_own_run *out);
int vs_ownunits_unit_at(const vs_ownunits *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind);
int64_t vs_ownunits_first_taken(const vs_ownunits *m, uint32_t first, uint32_t count);
void vs_ownunits_stats(const vs_ownunits *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree);
uint32_t vs_ownunits_runs(const vs_ownunits *m);
size_t vs_ownunits_bytes(const vs_ownunits *m);
int vs_ownunits_walk(const vs_ownunits *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud);

/* The runs form's structure checked whole (runs in order, maximal, the
 * summaries and counts right): 0, or a negative number naming the rule
 * broken. For tests; 0 for the per-unit form. O(runs). */
int vs_ownmap_check(const vs_ownmap *m);

#endif
