/* SPDX-License-Identifier: Zlib */
/* ownmap_int.h - the ownership map's two forms as the engine sees them:
 * the B+-tree of runs (ownmap.c) and the per-unit arrays (ownunits.c),
 * which vs_ownmap_* hands its calls to when a map was made with
 * vs_ownmap_new_units. Same meanings as the vs_ownmap_* calls. The
 * structs are here so that arena.c's marks, placement checks and takes go
 * to the form's own code in one call, not through vs_ownmap_* first.
 *
 * The runs form's readers (run_at, unit_at, first_taken, walk) take a
 * const map but remember the run they found as the hint for the next
 * look-up (and in the directory, for the unit's stretch), and the per-unit
 * form's stats finds its longest free run again when a mark left it stale:
 * a map is used by one thread at a time everywhere (compare -j gives each
 * replay its own arenas; the viewer copies the maps it keeps), so even
 * reads of one map must not run in two threads at once.
 */
#ifndef VRAMSIM_OWNMAP_INT_H
#define VRAMSIM_OWNMAP_INT_H

#include "vram/arena.h"

typedef struct vs_ownunits {
	uint32_t nunits, nwords;
	uint32_t nfree;                  /* free units */
	uint32_t fruns;                  /* maximal runs of free units */
	uint32_t largest;                /* longest free run, when !stale */
	uint32_t lpos;                   /* first unit of one free run that long, when !stale */
	int stale;                       /* a take cut into that run */
	uint32_t *owner;
	uint8_t *kind;
	uint64_t *bits;                  /* nwords words, 1 = free; bits past the end are taken,
	                                  * and so are the guard words bits[-1] and bits[nwords] */
} vs_ownunits;

struct om_node;
struct om_dir;

struct vs_ownmap {
	vs_ownunits *u;             /* the per-unit form instead, when not NULL */
	uint32_t nunits, root, height;
	struct om_node *n;          /* node 0 is never used: 0 is "none" */
	uint32_t cap, used, spare;  /* slots allocated, handed out, head of the reuse list (via next) */
	uint32_t nspare;            /* nodes on the reuse list */
	uint32_t runs, free_units, free_runs;
	uint32_t blocks;            /* entries that are a heap block's runs (ownmap.c) */
	uint32_t hint, hslot;       /* the leaf and entry last found or made, hint 0 when none;
	                             * readers take a const map and still set it (see above) */
	struct om_dir *dir;         /* from the first split (NULL without memory: it only saves
	                             * descents and searches): for each stretch of 1 << dir_shift
	                             * units, the leaf and entry last found for one of them (hints,
	                             * checked before use; leaf 0 none). Readers set it too. */
	uint32_t dir_shift;
};

vs_ownunits *vs_ownunits_new(uint32_t nunits);
vs_ownunits *vs_ownunits_copy(const vs_ownunits *src);
void vs_ownunits_free(vs_ownunits *m);
void vs_ownunits_clear(vs_ownunits *m);
/* The marks take units [first, end), already clipped to the map and not
 * empty, and an owner already VS_OWNER_NONE for free units. */
void vs_ownunits_set(vs_ownunits *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind);
/* [first, end) marked only when all its units are free: -1 then, else the
 * first taken unit and nothing changed. */
int64_t vs_ownunits_take(vs_ownunits *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind);
int vs_ownunits_run_at(const vs_ownunits *m, uint32_t unit, vs_own_run *out);
int vs_ownunits_unit_at(const vs_ownunits *m, uint32_t unit, uint32_t *owner, vs_unit_kind *kind);
int64_t vs_ownunits_first_taken(const vs_ownunits *m, uint32_t first, uint32_t end);
/* The longest free run found again, then the stats as below; the stats
 * call hands itself to it when stale, so the usual call saves no
 * registers. */
void vs_ownunits_rescan_stats(vs_ownunits *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree);
uint32_t vs_ownunits_runs(const vs_ownunits *m);
size_t vs_ownunits_bytes(const vs_ownunits *m);
int vs_ownunits_walk(const vs_ownunits *m, uint32_t first, uint32_t count, int free_only,
	int (*fn)(void *ud, const vs_own_run *run), void *ud);

/* The runs form's mark and take, with the same clipped ranges: 0 or -1
 * (no memory, nothing changed); -1, the first taken unit, or -2 (no
 * memory, nothing changed). */
int vs_owntree_set(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind);
int64_t vs_owntree_take(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind kind);
int64_t vs_owntree_first_taken(const vs_ownmap *m, uint32_t first, uint32_t end);
/* The leaf holding unit u (< nunits), its entry in *slot (ownmap_tree.h has
 * the nodes): the look-up the edits use, for the readers in ownmap_read.c. */
uint32_t vs_owntree_find(const vs_ownmap *m, uint32_t u, uint32_t *slot);
/* The take of pieces p[0..np): np at most 4, in address order, touching,
 * none empty or free, no two neighbours of one owner and kind, inside the
 * map. When every unit they cover is free each gets its owner and kind (a
 * heap block's header, data, slack and tail in one look-up) and -1 is
 * returned; else the first unit taken, nothing changed; -2 when out of
 * memory, nothing changed. */
int64_t vs_owntree_take_runs(vs_ownmap *m, const vs_own_run *p, uint32_t np);

/* A mark, a take and a look-up of units [first, end), already clipped to
 * the map and not empty, sent to the map's form: vs_ownmap_* (once it has
 * clipped) and arena.c's calls share them. Free units get no owner, so
 * free runs stay maximal. */
static inline int vs_ownmap_mark_range(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner,
	vs_unit_kind kind)
{
	if (kind == VS_UNIT_FREE)
		owner = VS_OWNER_NONE;
	if (m->u) {
		vs_ownunits_set(m->u, first, end, owner, kind);
		return 0;
	}
	return vs_owntree_set(m, first, end, owner, kind);
}

static inline int64_t vs_ownmap_take_range(vs_ownmap *m, uint32_t first, uint32_t end, uint32_t owner,
	vs_unit_kind kind)
{
	if (kind == VS_UNIT_FREE)
		owner = VS_OWNER_NONE;
	return m->u ? vs_ownunits_take(m->u, first, end, owner, kind) : vs_owntree_take(m, first, end, owner, kind);
}

static inline int64_t vs_ownmap_take_runs(vs_ownmap *m, const vs_own_run *p, uint32_t np)
{
	uint32_t j;
	int64_t u;

	if (!m->u)
		return vs_owntree_take_runs(m, p, np);
	u = vs_ownunits_take(m->u, p[0].first, p[np - 1].first + p[np - 1].count, p[0].owner, p[0].kind);
	for (j = 1; u == -1 && j < np; j++)
		vs_ownunits_set(m->u, p[j].first, p[j].first + p[j].count, p[j].owner, p[j].kind);
	return u;
}

static inline int64_t vs_ownmap_first_taken_range(const vs_ownmap *m, uint32_t first, uint32_t end)
{
	return m->u ? vs_ownunits_first_taken(m->u, first, end) : vs_owntree_first_taken(m, first, end);
}

/* The per-unit form's free statistics, found again first when stale. */
static inline void vs_ownunits_stats(const vs_ownunits *m, uint32_t *largest, uint32_t *runs, uint32_t *nfree)
{
	if (m->stale) {
		vs_ownunits_rescan_stats((vs_ownunits *)m, largest, runs, nfree); /* one thread a map */
		return;
	}
	if (largest)
		*largest = m->largest;
	if (runs)
		*runs = m->fruns;
	if (nfree)
		*nfree = m->nfree;
}

/* The runs form's structure checked whole (runs in order, maximal, the
 * summaries and counts right): 0, or a negative number naming the rule
 * broken. For tests; 0 for the per-unit form. O(runs). */
int vs_ownmap_check(const vs_ownmap *m);

#endif
