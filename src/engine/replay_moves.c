/* SPDX-License-Identifier: Zlib */
/* replay_moves.c - allocations that move: those a strategy moves (a
 * compacting one, at a frame or an allocation) and those the game moved
 * (move events), with every check on the new place; and frame
 * boundaries, where strategies act and the frame's traffic is priced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_int.h"
#include "strategies/registry.h"

/* Whether record h may move at all (else a check failed). */
static int movable(vs_replay *r, int a, const rec *x)
{
	if (x->fp.stride || x->ntied || x->detached || x->pub.retained || x->pub.broken || x->pub.refs > 1) {
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "id %llu cannot move: %s", (unsigned long long)x->pub.id,
			x->fp.stride ? "a 2D sprite" : x->ntied ? "it owns tied data (4x4 index)" : x->pub.retained ?
			"freed, still held by the allocator" : x->pub.refs > 1 ? "shared by several ids" : "not in the map");
		return 0;
	}
	return 1;
}

/* Moves live record h (block at from) to to: bytes, ownership, placement;
 * or, lifted, puts it back from RAM (its bytes in saved when the arena
 * keeps them), its units already free. Returns 0, or -1 when a check
 * failed (nothing moved). */
static int move_rec(vs_replay *r, int a, uint32_t h, uint32_t to, int lifted, const uint8_t *saved)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	rec *x = &r->slab[h - 1];
	uint32_t from = x->pub.pl.block_offset, size = x->pub.pl.block_size, unit = A->decl.unit, u, end;
	vs_own_run run;
	uint32_t off = x->pub.pl.offset - from + to;
	char why[256];

	if (!movable(r, a, x))
		return -1;
	if (to % unit || (uint64_t)to + size > A->decl.size) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS,
			"id %llu moved to [0x%x, +%u): outside the arena or off its %u-byte unit",
			(unsigned long long)x->pub.id, (unsigned)(A->decl.base + to), (unsigned)size, (unsigned)unit);
		return -1;
	}
	end = (uint32_t)(((uint64_t)to + size + unit - 1) / unit);
	for (u = to / unit; u < end && vs_arena_run_at(A, u, &run) == 0; u = run.first + run.count) {
		uint32_t o = run.owner;
		if (o != VS_OWNER_NONE && o != h) {
			if (o == VS_OWNER_HW || o == VS_OWNER_ALLOC)
				vs_replay_check_fail(r, a, VS_CHECK_OVERLAP, "id %llu moved onto 0x%x, which the %s keeps",
					(unsigned long long)x->pub.id, (unsigned)(A->decl.base + u * unit),
					o == VS_OWNER_HW ? "hardware" : "allocator");
			else
				vs_replay_check_fail(r, a, VS_CHECK_OVERLAP, "id %llu moved onto id %llu (trace line %llu) at 0x%x",
					(unsigned long long)x->pub.id, (unsigned long long)r->slab[o - 1].pub.id,
					(unsigned long long)r->slab[o - 1].pub.line, (unsigned)(A->decl.base + u * unit));
			return -1;
		}
	}
	if (r->cfg.check_rules && vs_hw_check(&A->decl, &x->pub.req, off, x->pub.pl.granted, why, sizeof why)) {
		vs_replay_check_fail(r, a, VS_CHECK_RULE, "id %llu moved to 0x%x: %s", (unsigned long long)x->pub.id,
			(unsigned)(A->decl.base + off), why);
		return -1;
	}
	if (ar->bytes && lifted)
		memcpy(A->bytes + to, saved, size);
	else if (ar->bytes)
		memmove(A->bytes + to, A->bytes + from, size);
	if (!lifted)
		vs_replay_mark(r, a, from, size, VS_OWNER_NONE, VS_UNIT_FREE);
	x->pub.pl.offset = off;
	x->pub.pl.block_offset = to;
	x->fp.offset = x->fp.offset - from + to;
	vs_replay_mark_rec(r, x, h, 0);
	ar->m.moves++;
	ar->m.moved_bytes += size;
	ar->cur_moved += size;
	ar->cur_moves++;
	if ((uint64_t)to + size > ar->m.high_water)
		ar->m.high_water = (uint64_t)to + size;
	return 0;
}

/* A block a move list copied out to RAM (to VS_MOVE_RAM) until a later
 * move of the list (from VS_MOVE_RAM, same key) puts it back. */
typedef struct lifted_rec {
	uint32_t h;
	uint8_t *bytes; /* its bytes, when the arena keeps them */
} lifted_rec;

/* Copies record h out to RAM: its units are free until it is put back.
 * Returns 0, 1 when a check failed, -1 out of memory. */
static int lift_rec(vs_replay *r, int a, uint32_t h, lifted_rec *l)
{
	arena_run *ar = &r->ar[a];
	rec *x = &r->slab[h - 1];
	uint32_t from = x->pub.pl.block_offset, size = x->pub.pl.block_size;

	if (!movable(r, a, x))
		return 1;
	l->h = h;
	l->bytes = NULL;
	if (ar->bytes) {
		if (!(l->bytes = malloc(size ? size : 1)))
			return vs_replay_out_of_memory(r);
		memcpy(l->bytes, ar->arena.bytes + from, size);
	}
	vs_replay_mark(r, a, from, size, VS_OWNER_NONE, VS_UNIT_FREE);
	ar->m.moved_bytes += size;
	ar->cur_moved += size;
	return 0;
}

/* The record move v names (its block starts at from, with its key), or 0
 * after a failed check; a put-back names one the list lifted (*j). */
static uint32_t move_target(vs_replay *r, int a, const vs_move *v, const lifted_rec *up, size_t nup, size_t *j)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	uint32_t h;

	if (v->from == VS_MOVE_RAM) {
		for (*j = 0; *j < nup; (*j)++)
			if (r->slab[up[*j].h - 1].pub.pl.key == v->key)
				return up[*j].h;
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "%s put key %u back from RAM, where no move of the list took it",
			ar->strat->name, (unsigned)v->key);
		return 0;
	}
	h = v->from < A->decl.size ? vs_arena_owner_at(A, v->from / A->decl.unit) : VS_OWNER_NONE;
	if (h == VS_OWNER_NONE || h == VS_OWNER_HW || h == VS_OWNER_ALLOC || h > r->slab_len ||
		!r->slab[h - 1].in_use || r->slab[h - 1].pub.pl.block_offset != v->from ||
		r->slab[h - 1].pub.pl.key != v->key) {
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "%s moved key %u from 0x%x, where no allocation of that key starts",
			ar->strat->name, (unsigned)v->key, (unsigned)(A->decl.base + v->from));
		return 0;
	}
	return h;
}

/* A strategy's list (moves, released blocks) asked for again with room for
 * the cap it said there were: an answer of more still is the strategy's
 * bug, and only what it had room to write is read. 0 with *n at most cap,
 * or -1 when strict ends the replay. */
static int asked_again(vs_replay *r, int a, const char *what, size_t cap, size_t *n)
{
	if (*n > cap && vs_replay_diag(r, VS_DIAG_STRATEGY, "%s reported %zu %s, then %zu when given room for them: "
		"only the first %zu are read", r->ar[a].strat->name, cap, what, *n, cap))
		return -1;
	if (*n > cap)
		*n = cap;
	return 0;
}

/* A strategy's list (moves, released blocks) that says it is longer than
 * memory can hold: the strategy's answer, not the trace, stops the replay,
 * and the message says so. -1. */
static int too_long(vs_replay *r, int a, const char *call, size_t n)
{
	snprintf(r->err, sizeof r->err, "%s:%llu: error: strategy '%s': its %s() said there are %zu, more than "
		"memory can hold", vs_trace_name(r->rd), (unsigned long long)r->ev.line, r->ar[a].strat->name, call, n);
	return -1;
}

/* Carries out the moves arena a's strategy reports, in order. A move the
 * books cannot follow is an integrity error and ends the list: the map
 * no longer matches the strategy's. A block left in RAM at the end is
 * one too, and goes back where it was. */
int vs_replay_apply_moves(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	vs_move small[16], *v = small;
	lifted_rec *up = NULL;
	size_t n, i, j = 0, nup = 0;
	uint32_t h;
	int rc = 0;

	n = ar->strat->moves(ar->state, small, 16);
	if (n > 16) {
		size_t cap = n;
		if (cap > SIZE_MAX / sizeof *v || !(v = malloc(cap * sizeof *v)))
			return too_long(r, a, "moves", cap);
		n = ar->strat->moves(ar->state, v, cap);
		if (asked_again(r, a, "moves", cap, &n)) {
			free(v);
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		if (!(h = move_target(r, a, &v[i], up, nup, &j)))
			break;
		if (v[i].from == VS_MOVE_RAM) {
			int bad = move_rec(r, a, h, v[i].to, 1, up[j].bytes);
			if (bad)
				break; /* still lifted: put back below */
			free(up[j].bytes);
			up[j] = up[--nup];
		} else if (v[i].to == VS_MOVE_RAM) {
			if (!up && !(up = malloc(n * sizeof *up))) {
				rc = vs_replay_out_of_memory(r);
				break;
			}
			if ((rc = lift_rec(r, a, h, &up[nup])) != 0) {
				rc = rc < 0 ? -1 : 0;
				break;
			}
			nup++;
		} else if (move_rec(r, a, h, v[i].to, 0, NULL)) {
			break;
		}
	}
	for (j = 0; j < nup; j++) {
		rec *x = &r->slab[up[j].h - 1];
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "%s left id %llu in RAM after its moves", ar->strat->name,
			(unsigned long long)x->pub.id);
		if (ar->bytes)
			memcpy(ar->arena.bytes + x->pub.pl.block_offset, up[j].bytes, x->pub.pl.block_size);
		vs_replay_mark_rec(r, x, up[j].h, 0);
		free(up[j].bytes);
	}
	free(up);
	if (v != small)
		free(v);
	vs_replay_refresh_metrics(ar);
	return rc;
}

/* A kept record of arena a at block offset off that is not in the map (a
 * placement its checks refused): its handle, or 0. */
static uint32_t kept_unmarked(const vs_replay *r, int a, uint32_t off)
{
	uint32_t h;

	for (h = 1; h <= r->slab_len; h++) {
		const rec *x = &r->slab[h - 1];
		if (x->in_use && x->pub.broken && x->pub.retained && x->pub.arena == (uint32_t)a &&
			x->pub.pl.block_offset == off)
			return h;
	}
	return 0;
}

int vs_replay_apply_released(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	uint32_t small[64], *v = small, owner;
	size_t n = ar->strat->released(ar->state, small, 64), i;
	const rec *x;
	int rc = 0;

	if (n > 64) {
		size_t cap = n;
		if (cap > SIZE_MAX / sizeof *v || !(v = malloc(cap * sizeof *v)))
			return too_long(r, a, "released", cap);
		n = ar->strat->released(ar->state, v, cap);
		if (asked_again(r, a, "released blocks", cap, &n)) {
			free(v);
			return -1;
		}
	}
	for (i = 0; i < n && rc == 0; i++) {
		owner = v[i] < ar->arena.decl.size ? vs_arena_owner_at(&ar->arena, v[i] / ar->arena.decl.unit) :
			VS_OWNER_NONE;
		x = owner != VS_OWNER_NONE && owner <= r->slab_len ? &r->slab[owner - 1] : NULL;
		if (!(x && x->in_use && x->pub.retained && x->pub.pl.block_offset == v[i]))
			owner = kept_unmarked(r, a, v[i]);
		if (owner)
			vs_replay_drop_rec(r, owner);
		else
			rc = vs_replay_diag(r, VS_DIAG_STRATEGY, "%s released 0x%x, where it keeps no freed allocation",
				ar->strat->name, (unsigned)(ar->arena.decl.base + v[i]));
	}
	if (v != small)
		free(v);
	vs_replay_refresh_metrics(ar);
	return rc;
}

/* A frame boundary: strategies that act there do, then the frame's
 * traffic is priced (VS_CYCLES_*). */
int vs_replay_end_frame(vs_replay *r)
{
	int a;

	for (a = 0; a < r->narenas; a++) {
		arena_run *ar = &r->ar[a];
		vs_metrics *m = &ar->m;
		uint64_t cyc;
		if (ar->strat->frame) {
			ar->strat->frame(ar->state);
			if (ar->strat->released && vs_replay_apply_released(r, a))
				return -1;
			if (ar->strat->moves && vs_replay_apply_moves(r, a))
				return -1;
		}
		cyc = vs_cycles_traffic((ar->cur_moved + 3) / 4, ar->cur_moves, (ar->cur_loaded + 3) / 4);
		if (ar->cur_moved > m->frame_moved_max)
			m->frame_moved_max = ar->cur_moved;
		if (cyc > m->frame_cycles_max) {
			m->frame_cycles_max = cyc;
			m->frame_cycles_frame = r->frames;
			m->frame_worst_moved = ar->cur_moved;
			m->frame_worst_loaded = ar->cur_loaded;
		}
		ar->cur_moved = ar->cur_loaded = ar->cur_moves = 0;
	}
	return 0;
}

/* `move ID to=ADDR`: the game moved a live allocation. A strategy that
 * places where the game did (recorded) follows it: its old place is freed
 * and the new one taken in its books, and the replay moves the bytes and
 * ownership with every check. Other strategies place by themselves: the
 * game's move says nothing about them. */
int vs_replay_do_move(vs_replay *r)
{
	const vs_event *ev = &r->ev;
	id_slot *s = vs_replay_id_find(r, ev->id);
	arena_run *ar;
	vs_placement pl;
	vs_request rq;
	rec *x;
	uint32_t h;
	int a, st;

	if (!s || s->handle == FAILED_HANDLE) {
		if (vs_replay_diag(r, VS_DIAG_UNKNOWN_ID, "move of id %llu, which is not live", (unsigned long long)ev->id))
			return -1;
		vs_replay_notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	h = s->handle;
	x = &r->slab[h - 1];
	a = (int)x->pub.arena;
	ar = &r->ar[a];
	r->ev.arena = a;
	if (!(ar->strat->flags & VS_STRAT_NEEDS_AT)) {
		vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, &x->pub);
		return 0;
	}
	if (ev->req.at < ar->arena.decl.base || ev->req.at - ar->arena.decl.base >= ar->arena.decl.size) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS, "id %llu moved to 0x%x, outside arena '%s'",
			(unsigned long long)ev->id, (unsigned)ev->req.at, ar->arena.decl.name);
		return 0;
	}
	rq = x->pub.req;
	rq.has_at = VS_AT_ADDR;
	rq.at = ev->req.at + (x->pub.pl.block_offset - x->pub.pl.offset);
	st = vs_replay_strat_free(r, a, &x->pub.pl);
	memset(&pl, 0, sizeof pl);
	if (st >= 0)
		st = vs_replay_strat_alloc(r, a, &rq, &pl);
	if (st < 0) {
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "id %llu: %s cannot follow the move to 0x%x (%s)",
			(unsigned long long)ev->id, ar->strat->name, (unsigned)ev->req.at, vs_strategy_status_name(st));
		return 0;
	}
	x->pub.pl.key = pl.key;
	if (!move_rec(r, a, h, pl.block_size ? pl.block_offset : pl.offset, 0, NULL))
		vs_replay_refresh_metrics(ar);
	vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}
