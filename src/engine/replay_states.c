/* SPDX-License-Identifier: Zlib */
/* replay_states.c - save, restore, reset and init events: named saves per
 * arena (allocation sequence number, and the strategy's own state where it
 * has save/restore), and the records dropped when an arena goes back to
 * one or starts again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/text.h"
#include "replay_int.h"

/* An arena's saves sit at their names' ids (the trace reader's, bounded by
 * VS_STATE_DISTINCT_MAX): a save or restore finds its own at once. */
typedef struct saved_state {
	uint64_t seq;
	void *blob;      /* strategy's own state, or NULL */
} saved_state;

void vs_replay_free_saves(arena_run *ar)
{
	uint32_t i;

	for (i = 0; i < ar->nsaves; i++) {
		if (ar->saves[i])
			free(ar->saves[i]->blob);
		free(ar->saves[i]);
	}
	free(ar->saves);
	ar->saves = NULL;
	ar->nsaves = 0;
}

static saved_state *find_save(arena_run *ar, uint32_t state)
{
	return state < ar->nsaves ? ar->saves[state] : NULL;
}

int vs_replay_do_save(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	uint32_t id = r->ev.state, n = ar->nsaves;
	saved_state *s = find_save(ar, id);

	if (!s) {
		if (id >= n) {
			if (vs_grow_u32(&ar->saves, sizeof *ar->saves, &ar->nsaves, (size_t)id + 1, 8))
				return -1;
			memset(ar->saves + n, 0, (ar->nsaves - n) * sizeof *ar->saves);
		}
		if (!(s = ar->saves[id] = calloc(1, sizeof *s)))
			return -1;
	}
	s->seq = r->seq;
	if ((ar->strat->flags & VS_STRAT_NATIVE_STATE) && ar->strat->save) {
		if (!s->blob && !(s->blob = malloc(ar->strat->save_size ? ar->strat->save_size : 1)))
			return -1;
		ar->strat->save(ar->state, s->blob);
	}
	return 0;
}

static int cmp_seq_desc(const void *pa, const void *pb)
{
	const rec *const *a = pa, *const *b = pb;

	return (*a)->seq < (*b)->seq ? 1 : (*a)->seq > (*b)->seq ? -1 : 0;
}

/* Drops every record of arena a made after seq (all when seq is 0). With
 * native state the strategy has already forgotten them; otherwise they are
 * freed through it, newest first. */
static int drop_since(vs_replay *r, int a, uint64_t seq, int via_strategy)
{
	arena_run *ar = &r->ar[a];
	rec **list = NULL;
	size_t n = 0, i;
	uint32_t h;

	for (h = 1; h <= r->slab_len; h++) {
		rec *x = &r->slab[h - 1];
		if (x->in_use && x->pub.arena == (uint32_t)a && x->seq > seq)
			n++;
	}
	if (n == 0)
		return 0;
	list = malloc(n * sizeof *list);
	if (!list)
		return -1;
	n = 0;
	for (h = 1; h <= r->slab_len; h++) {
		rec *x = &r->slab[h - 1];
		if (x->in_use && x->pub.arena == (uint32_t)a && x->seq > seq)
			list[n++] = x;
	}
	qsort(list, n, sizeof *list, cmp_seq_desc);
	for (i = 0; i < n; i++) {
		rec *x = list[i];
		h = (uint32_t)(x - r->slab) + 1;
		if (via_strategy && !x->pub.retained) {
			uint32_t k;
			int st = VS_OK;
			vs_replay_unwatch(ar, x); /* its free may write into it */
			for (k = 0; k < x->pub.refs; k++)
				st = vs_replay_strat_free(r, a, &x->pub.pl);
			if (st == VS_RETAINED) {
				/* the strategy keeps it (a static heap): it stays held */
				vs_replay_account(ar, x, -1);
				x->pub.retained = 1;
				ar->m.retained_bytes += x->pub.pl.block_size;
				if (!x->pub.broken)
					vs_replay_mark_rec(r, x, h, 1);
				continue;
			}
		} else if (via_strategy) {
			continue; /* retained by a strategy with no state of its own */
		}
		vs_replay_drop_rec(r, h);
		/* a strategy may compact inside its free (NightFox's Lib) */
		if (via_strategy && (ar->strat->flags & VS_STRAT_FREE_MOVES) && ar->strat->moves &&
		    vs_replay_apply_moves(r, a)) {
			free(list);
			return -1;
		}
	}
	free(list);
	/* what was dropped where no bank maps any more is reserved again */
	vs_replay_rereserve(r, a);
	vs_replay_refresh_held(r, a);
	vs_replay_refresh_metrics(ar);
	return vs_replay_prune_ids(r);
}

/* Turns every run of units owned by from into units of owner to (kind k);
 * returns how many units changed. */
static uint32_t remark_runs(vs_replay *r, int a, uint32_t from, uint32_t to, vs_unit_kind k)
{
	const vs_arena *A = &r->ar[a].arena;
	uint32_t u, v, n = 0;
	vs_own_run run;

	for (u = 0; u < A->nunits && vs_arena_run_at(A, u, &run) == 0; u = v + 1) {
		v = run.first + run.count - 1;
		if (run.owner != from)
			continue;
		v = vs_replay_stretch_end(A, u, A->nunits - 1, from);
		vs_replay_mark(r, a, u * A->decl.unit, (v - u + 1) * A->decl.unit, to, k);
		n += v - u + 1;
	}
	return n;
}

/* A game that restores a state it never saved passes its state variable as
 * it is: zero-initialised. A frame manager takes it like any other state, so
 * every region's head and tail (or lo and hi) become 0: nothing is free, and
 * every allocation fails (key 0) until a reset or the restore of a real
 * state. Allocations already made stay live: the manager never tracked them. */
static int restore_zero_state(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	void *zero = calloc(1, ar->strat->save_size ? ar->strat->save_size : 1);

	if (!zero)
		return vs_replay_out_of_memory(r);
	ar->strat->restore(ar->state, zero);
	free(zero);
	/* the books follow the manager: what was free is now held by it */
	ar->alloc_units += remark_runs(r, a, VS_OWNER_NONE, VS_OWNER_ALLOC, VS_UNIT_OVERHEAD);
	ar->m.management_bytes = ar->alloc_units * ar->arena.decl.unit;
	ar->zeroed = 1;
	vs_replay_refresh_metrics(ar);
	return 0;
}

/* A reset, init or real restore gives a zeroed manager its space back. */
static void unzero(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];

	if (!ar->zeroed)
		return;
	/* a frame manager holds nothing else (it has no held extents) */
	ar->alloc_units -= remark_runs(r, a, VS_OWNER_ALLOC, VS_OWNER_NONE, VS_UNIT_FREE);
	ar->m.management_bytes = ar->alloc_units * ar->arena.decl.unit;
	ar->zeroed = 0;
}

int vs_replay_do_restore(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	saved_state *s = find_save(ar, r->ev.state);
	int native = (ar->strat->flags & VS_STRAT_NATIVE_STATE) && ar->strat->restore;

	if (!s) {
		int save_arena = r->ev.arena;
		r->ev.arena = a;
		if (vs_replay_diag(r, VS_DIAG_UNKNOWN_STATE, "restore of state '%s', never saved for arena '%s'%s",
			r->ev.name, ar->arena.decl.name, native ? ": the manager takes an all-zero state (no free space until a "
			"reset or the restore of a saved state)" : ""))
			return -1;
		r->ev.arena = save_arena;
		return native ? restore_zero_state(r, a) : 0;
	}
	unzero(r, a);
	if (native && s->blob)
		ar->strat->restore(ar->state, s->blob);
	if (drop_since(r, a, s->seq, !(native && s->blob)))
		return -1;
	vs_replay_refresh_held(r, a);
	vs_replay_refresh_metrics(ar);
	return 0;
}

int vs_replay_do_reset(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];

	unzero(r, a);
	ar->strat->reset(ar->state);
	if (drop_since(r, a, 0, 0))
		return -1;
	vs_replay_refresh_held(r, a);
	vs_replay_refresh_metrics(ar);
	return 0;
}

int vs_replay_strat_init(arena_run *ar, char *why, size_t whylen)
{
	why[0] = '\0';
	if (!ar->strat->init(ar->state, &ar->arena.decl, ar->options, vs_replay_strat_mem(ar), why, whylen))
		return 0;
	/* its message is a plug-in's text: perhaps unterminated, perhaps
	 * holding a terminal's escapes */
	why[whylen - 1] = '\0';
	vs_text_escape_in_place(why, whylen);
	return -1;
}

/* Re-initialises arena a's strategy with new options: every allocation is
 * dropped, as when a game calls the manager's init again. */
int vs_replay_do_init(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	char why[512];

	unzero(r, a);
	if (drop_since(r, a, 0, 0))
		return -1;
	if (ar->strat->fini)
		ar->strat->fini(ar->state);
	memset(ar->state, 0, ar->strat->state_size ? ar->strat->state_size : 1);
	/* the line's options, as a trace's options=, belong to the trace's
	 * strategy: another one, or a line without any, keeps the arena's own */
	snprintf(ar->options, sizeof ar->options, "%s", r->ev.options && *r->ev.options && ar->takes_trace_options ?
		r->ev.options : ar->setup_options);
	if (vs_replay_strat_init(ar, why, sizeof why)) {
		snprintf(r->err, sizeof r->err, "%s:%llu: error: strategy '%s' refused init of arena '%s': %s",
			vs_trace_name(r->rd), (unsigned long long)r->ev.line, ar->strat->name, ar->arena.decl.name,
			why[0] ? why : "init failed");
		return -1;
	}
	vs_replay_free_saves(ar);
	vs_replay_refresh_held(r, a);
	vs_replay_refresh_metrics(ar);
	return 0;
}
