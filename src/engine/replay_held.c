/* SPDX-License-Identifier: Zlib */
/* replay_held.c - what a strategy keeps for itself (the extents its held
 * call reports, such as BG tile 0), in the ownership map as management
 * overhead, brought in line after each call that may change it. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "replay_int.h"

typedef struct held_list {
	vs_extent *v;
	uint32_t n, cap;
	int oom;
} held_list;

static int held_add(void *ud, uint32_t off, uint32_t size)
{
	held_list *l = ud;

	if (!size)
		return 0;
	if (l->n == l->cap && vs_grow_u32(&l->v, sizeof *l->v, &l->cap, (size_t)l->n + 1, 16)) {
		l->oom = 1;
		return 1;
	}
	l->v[l->n].offset = off;
	l->v[l->n].size = size;
	l->n++;
	return 0;
}

static int extent_cmp(const void *pa, const void *pb)
{
	const vs_extent *a = pa, *b = pb;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;
}

/* A sorted copy of n extents; NULL when out of memory. Tells whether they
 * are disjoint and inside size. */
static vs_extent *sorted_extents(const vs_extent *v, uint32_t n, uint32_t size, int *disjoint)
{
	vs_extent *s = malloc((n ? n : 1) * sizeof *s);
	uint32_t i;

	*disjoint = 1;
	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, extent_cmp);
	for (i = 0; i < n; i++)
		if ((uint64_t)s[i].offset + s[i].size > size ||
			(i && (uint64_t)s[i - 1].offset + s[i - 1].size > s[i].offset))
			*disjoint = 0;
	return s;
}

static int has_extent(const vs_extent *s, uint32_t n, const vs_extent *e)
{
	return n && bsearch(e, s, n, sizeof *s, extent_cmp) != NULL;
}

/* The last unit, at most last, of the stretch from u on that owner o
 * holds (u's owner is o). */
uint32_t vs_replay_stretch_end(const vs_arena *A, uint32_t u, uint32_t last, uint32_t o)
{
	vs_own_run run;
	uint32_t end = u;

	while (end <= last && vs_arena_run_at(A, end, &run) == 0 && run.owner == o)
		end = run.first + run.count;
	return end - 1 < last ? end - 1 : last;
}

/* Units of an extent the strategy let go of become free again. */
static void release_held(vs_replay *r, int a, const vs_extent *e)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	uint32_t unit = A->decl.unit, u, v;
	uint32_t first = e->offset / unit, last = (e->offset + e->size - 1) / unit;
	vs_own_run run;

	for (u = first; u <= last && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		v = run.first + run.count - 1;
		if (run.owner != VS_OWNER_ALLOC)
			continue;
		/* free runs of them at once */
		v = vs_replay_stretch_end(A, u, last, VS_OWNER_ALLOC);
		vs_replay_mark(r, a, u * unit, (v - u + 1) * unit, VS_OWNER_NONE, VS_UNIT_FREE);
		ar->alloc_units -= v - u + 1;
	}
}

/* Free units of an extent the strategy took become management overhead;
 * 0, or -1 when it reaches outside the arena or into an allocation. */
static int take_held(vs_replay *r, int a, const vs_extent *e)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	uint32_t unit = A->decl.unit, u, v;
	uint64_t end = (uint64_t)e->offset + e->size;
	uint32_t first = e->offset / unit, last;
	vs_own_run run;

	if (end > A->decl.size) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS, "the strategy holds [0x%x, +%u) outside the arena",
			(unsigned)e->offset, (unsigned)e->size);
		return -1;
	}
	last = (uint32_t)((end - 1) / unit);
	for (u = first; u <= last && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		uint32_t o = run.owner;
		v = run.first + run.count - 1;
		if (o == VS_OWNER_NONE) {
			/* mark runs of free units at once */
			v = vs_replay_stretch_end(A, u, last, VS_OWNER_NONE);
			vs_replay_mark(r, a, u * unit, (v - u + 1) * unit, VS_OWNER_ALLOC, VS_UNIT_OVERHEAD);
			ar->alloc_units += v - u + 1;
		} else if (o != VS_OWNER_ALLOC && o != VS_OWNER_HW) {
			vs_replay_check_fail(r, a, VS_CHECK_OVERLAP,
				"the strategy keeps 0x%x for itself, inside id %llu (trace line %llu)",
				(unsigned)(A->decl.base + u * unit), (unsigned long long)r->slab[o - 1].pub.id,
				(unsigned long long)r->slab[o - 1].pub.line);
			return -1;
		}
	}
	return 0;
}

/* Whether two extent lists are the same, in order: most are a few extents
 * long (BG tile 0), where a loop beats a call to memcmp. */
static int same_extents(const vs_extent *a, const vs_extent *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (a[i].offset != b[i].offset || a[i].size != b[i].size)
			return 0;
	return 1;
}

/* Asks the strategy what it holds and brings the map in line: units it
 * let go of become free, units it took become management overhead. When
 * the old and new extents are clean (disjoint, inside, nothing of an
 * allocation in them) only the extents that came or went are touched;
 * otherwise every old one is let go and every new one taken again. */
VS_NOINLINE void vs_replay_refresh_held_list(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	held_list l = { NULL, 0, 0, 0 };
	vs_extent *olds = NULL, *news = NULL;
	uint32_t i;
	int disjoint = 0, clean;

	l.v = ar->spare;
	l.cap = ar->spare_cap;
	ar->spare = NULL;
	ar->spare_cap = 0;
	ar->strat->held(ar->state, held_add, &l);
	if (l.oom || (l.n == ar->nheld && same_extents(l.v, ar->held, l.n))) {
		/* nothing changed (the usual case): the list is asked into again */
		ar->spare = l.v;
		ar->spare_cap = l.cap;
		return;
	}
	news = sorted_extents(l.v, l.n, A->decl.size, &disjoint);
	if (news && ar->held_clean && disjoint)
		olds = sorted_extents(ar->held, ar->nheld, A->decl.size, &clean);
	clean = news && disjoint;
	if (olds) {
		for (i = 0; i < ar->nheld; i++)
			if (!has_extent(news, l.n, &ar->held[i]))
				release_held(r, a, &ar->held[i]);
		for (i = 0; i < l.n; i++)
			if (!has_extent(olds, ar->nheld, &l.v[i]) && take_held(r, a, &l.v[i]))
				clean = 0;
	} else {
		for (i = 0; i < ar->nheld; i++)
			release_held(r, a, &ar->held[i]);
		for (i = 0; i < l.n; i++)
			if (take_held(r, a, &l.v[i]))
				clean = 0;
	}
	free(olds);
	free(news);
	ar->spare = ar->held; /* the old list is the next one asked into */
	ar->spare_cap = ar->held_cap;
	ar->held = l.v;
	ar->nheld = l.n;
	ar->held_cap = l.cap;
	ar->held_clean = clean;
	ar->m.management_bytes = ar->alloc_units * A->decl.unit;
}
