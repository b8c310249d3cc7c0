/* SPDX-License-Identifier: Zlib */
/* replay_moves.c - allocations that move: those a strategy moves (a
 * compacting one, at a frame or an allocation) and those the game moved
 * (move events), with every check on the new place; and frame
 * boundaries, where strategies act and the frame's traffic is priced. */
#include <stdlib.h>
#include <string.h>

#include "replay_int.h"
#include "strategies/registry.h"

/* Moves live record h (block at from) to to: bytes, ownership, placement.
 * Returns 0, or -1 when a check failed (nothing moved). */
static int move_rec(vs_replay *r, int a, uint32_t h, uint32_t to)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	rec *x = &r->slab[h - 1];
	uint32_t from = x->pub.pl.block_offset, size = x->pub.pl.block_size, unit = A->decl.unit, u, end;
	vs_own_run run;
	uint32_t off = x->pub.pl.offset - from + to;
	char why[256];

	if (x->fp.stride || x->ntied || x->detached || x->pub.retained || x->pub.broken || x->pub.refs > 1) {
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "id %llu cannot move: %s", (unsigned long long)x->pub.id,
			x->fp.stride ? "a 2D sprite" : x->ntied ? "it owns tied data (4x4 index)" : x->pub.retained ?
			"freed, still held by the allocator" : x->pub.refs > 1 ? "shared by several ids" : "not in the map");
		return -1;
	}
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
	if (ar->bytes)
		memmove(A->bytes + to, A->bytes + from, size);
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

/* Carries out the moves arena a's strategy reports, in order. A move the
 * books cannot follow is an integrity error and ends the list: the map
 * no longer matches the strategy's. */
int vs_replay_apply_moves(vs_replay *r, int a)
{
	arena_run *ar = &r->ar[a];
	vs_arena *A = &ar->arena;
	vs_move small[16], *v = small;
	size_t n, i;

	n = ar->strat->moves(ar->state, small, 16);
	if (n > 16) {
		if (!(v = malloc(n * sizeof *v)))
			return vs_replay_out_of_memory(r);
		n = ar->strat->moves(ar->state, v, n);
	}
	for (i = 0; i < n; i++) {
		uint32_t h = v[i].from < A->decl.size ? vs_arena_owner_at(A, v[i].from / A->decl.unit) : VS_OWNER_NONE;
		if (h == VS_OWNER_NONE || h == VS_OWNER_HW || h == VS_OWNER_ALLOC || h > r->slab_len ||
			!r->slab[h - 1].in_use || r->slab[h - 1].pub.pl.block_offset != v[i].from ||
			r->slab[h - 1].pub.pl.key != v[i].key) {
			vs_replay_check_fail(r, a, VS_CHECK_MOVE,
				"%s moved key %u from 0x%x, where no allocation of that key starts",
				ar->strat->name, (unsigned)v[i].key, (unsigned)(A->decl.base + v[i].from));
			break;
		}
		if (move_rec(r, a, h, v[i].to))
			break;
	}
	if (v != small)
		free(v);
	vs_replay_refresh_metrics(ar);
	return 0;
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
	st = ar->strat->free(ar->state, &x->pub.pl);
	memset(&pl, 0, sizeof pl);
	if (st >= 0)
		st = ar->strat->alloc(ar->state, &rq, &pl);
	if (st < 0) {
		vs_replay_check_fail(r, a, VS_CHECK_MOVE, "id %llu: %s cannot follow the move to 0x%x (%s)",
			(unsigned long long)ev->id, ar->strat->name, (unsigned)ev->req.at, vs_strategy_status_name(st));
		return 0;
	}
	x->pub.pl.key = pl.key;
	if (!move_rec(r, a, h, pl.block_size ? pl.block_offset : pl.offset))
		vs_replay_refresh_metrics(ar);
	vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}
