/* SPDX-License-Identifier: Zlib */
/* replay_alloc.c - alloc and free events: the request offered to the
 * strategy (through the heap manager's routing when the trace has heaps),
 * the placement checked and booked, or the failure classified; the free
 * checked against the bytes written and told to the strategy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_int.h"
#include "strategies/registry.h"
#include "vram/hw_gba.h"
#include "vram/request.h"

static vs_fail_kind classify(vs_replay *r, int a, const vs_request *rq, int status)
{
	arena_run *ar = &r->ar[a];

	/* the request itself is wrong: not a question of free space */
	if (status == VS_ERR_INVALID)
		return VS_FAIL_INVALID;
	if (ar->m.free_bytes < rq->size)
		return VS_FAIL_OOM;
	if (status == VS_ERR_MANAGEMENT)
		return VS_FAIL_MANAGEMENT;
	if (status == VS_ERR_UNSUPPORTED)
		return VS_FAIL_UNSUPPORTED;
	if (ar->m.largest_free >= rq->size)
		return vs_hw_any_legal(&ar->arena, rq, rq->size) ? VS_FAIL_FRAGMENTED : VS_FAIL_RULE;
	/* no free run is long enough: fragmentation, unless too few of the
	 * free bytes lie where the rules let this request go (past the 1D
	 * boundary's reach, across a DS slot no bank maps) */
	return vs_hw_legal_free(&ar->arena, rq, rq->size) < rq->size ? VS_FAIL_RULE : VS_FAIL_FRAGMENTED;
}

/* Checks a fresh placement; returns 0 when it may go in the map. */
static int check_placement(vs_replay *r, int a, rec *x)
{
	arena_run *ar = &r->ar[a];
	const vs_placement *pl = &x->pub.pl;
	const vs_arena_decl *d = &ar->arena.decl;
	char why[256];
	int64_t u;
	uint32_t i;

	if (pl->granted < x->pub.req.size) {
		vs_replay_check_fail(r, a, VS_CHECK_SHORT, "id %llu: granted %u bytes for a %u-byte request",
			(unsigned long long)x->pub.id, (unsigned)pl->granted, (unsigned)x->pub.req.size);
		return -1;
	}
	if (x->fp.stride == VS_GBA_OBJ_2D_STRIDE && vs_hw_footprint_end(&x->fp) > VS_GBA_OBJ_2D_STRIDE * 32u) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS,
			"id %llu: 2D sprite at tile %u runs past tile 1023 (%u rows, 32 tiles apart)",
			(unsigned long long)x->pub.id, (unsigned)(x->fp.offset / 32u), (unsigned)x->fp.rows);
		return -1;
	}
	if (x->fp.stride && vs_hw_footprint_end(&x->fp) > d->size) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS,
			"id %llu: sprite at 0x%x runs past the arena's end (%u rows, %u bytes apart)",
			(unsigned long long)x->pub.id, (unsigned)(d->base + x->fp.offset), (unsigned)x->fp.rows,
			(unsigned)x->fp.stride);
		return -1;
	}
	if ((uint64_t)pl->block_offset + pl->block_size > d->size || pl->offset < pl->block_offset ||
		(uint64_t)pl->offset + pl->granted > (uint64_t)pl->block_offset + pl->block_size) {
		vs_replay_check_fail(r, a, VS_CHECK_BOUNDS, "id %llu: block [0x%x, +%u) data [0x%x, +%u) in a %u-byte arena",
			(unsigned long long)x->pub.id, (unsigned)pl->block_offset, (unsigned)pl->block_size,
			(unsigned)pl->offset, (unsigned)pl->granted, (unsigned)d->size);
		return -1;
	}
	if (r->cfg.check_rules && vs_hw_check(d, &x->pub.req, pl->offset, pl->granted, why, sizeof why)) {
		vs_replay_check_fail(r, a, VS_CHECK_RULE, "id %llu at 0x%x: %s", (unsigned long long)x->pub.id,
			(unsigned)(d->base + pl->offset), why);
		return -1;
	}
	x->ntied = (uint32_t)vs_hw_tied(d, &x->pub.req, pl->offset, pl->granted, x->tied_off, x->tied_len, MAX_TIED);
	if (x->fp.stride) {
		/* only the rectangle's rows: the tiles between them are others' */
		u = -1;
		for (i = 0; u < 0 && i < x->fp.rows; i++)
			u = vs_arena_first_taken(&ar->arena, x->fp.offset + i * x->fp.stride, x->fp.row_bytes);
	} else if (!x->ntied) {
		/* checked and marked in one look-up: a block all data as data,
		 * else (a heap's) its header, data, slack and tail as mark_rec
		 * marks them (an observer of marks is told of them after) */
		uint32_t h = (uint32_t)(x - r->slab) + 1, size = vs_replay_data_bytes(x);

		if (pl->block_offset == pl->offset && pl->block_size == pl->granted && pl->granted == size)
			u = vs_arena_take(&ar->arena, pl->offset, size, h, VS_UNIT_DATA);
		else
			u = vs_arena_take_block(&ar->arena, pl->block_offset, pl->block_size, pl->offset, size,
				pl->granted, h);
		x->taken = u == -1 ? TAKEN_ALL : TAKEN_NOT;
		if (u == -2)
			u = -1; /* no memory for the map: mark_rec says so */
	} else {
		u = vs_arena_first_taken(&ar->arena, pl->block_offset, pl->block_size);
	}
	for (i = 0; u < 0 && i < x->ntied; i++)
		u = vs_arena_first_taken(&ar->arena, x->tied_off[i], x->tied_len[i]);
	if (u >= 0) {
		uint32_t owner = vs_arena_owner_at(&ar->arena, (uint32_t)u);
		if (owner == VS_OWNER_ALLOC)
			vs_replay_check_fail(r, a, VS_CHECK_OVERLAP,
				"id %llu at 0x%x takes unit at 0x%x, which the strategy keeps for itself",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned)(d->base + (uint32_t)u * d->unit));
		else if (owner == VS_OWNER_HW)
			vs_replay_check_fail(r, a, VS_CHECK_RULE,
				"id %llu at 0x%x takes unit at 0x%x, which the hardware reserves",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned)(d->base + (uint32_t)u * d->unit));
		else
			vs_replay_check_fail(r, a, VS_CHECK_OVERLAP, "id %llu at 0x%x overlaps id %llu (trace line %llu) at 0x%x",
				(unsigned long long)x->pub.id, (unsigned)(d->base + pl->offset),
				(unsigned long long)r->slab[owner - 1].pub.id,
				(unsigned long long)r->slab[owner - 1].pub.line,
				(unsigned)(d->base + (uint32_t)u * d->unit));
		return -1;
	}
	return 0;
}

/* A fresh record for the current alloc event, placed by pl in arena a. */
static void rec_fill(vs_replay *r, rec *x, int a, const vs_placement *pl)
{
	x->pub.id = r->ev.id;
	x->pub.arena = (uint32_t)a;
	x->pub.pl = *pl;
	x->pub.req = r->ev.req;
	x->pub.line = r->ev.line;
	x->pub.event = r->events;
	x->pub.refs = 1;
	x->seq = ++r->seq;
	vs_hw_footprint(&r->ar[a].arena.decl, &x->pub.req, pl->offset, pl->granted, &x->fp);
}

/* The heaps an allocation is offered to, in order, as The Simpsons: Hit &
 * Run routes: the named allocator, or the top of the heap stack, through
 * the small rule and search lists. The event's arena becomes the first
 * (the default heap when there is none); *from is where routing began. */
static uint32_t route_alloc(vs_replay *r, uint8_t *order, uint32_t *from)
{
	vs_event *ev = &r->ev;
	uint32_t n;

	*from = ev->route >= 0 ? (uint32_t)ev->route : heap_mgr_current(&r->heaps);
	if (ev->search_len) {
		/* the call's own list: radMemorySetUsableAllocators, then
		 * ALLOCATOR_SEARCH */
		heap_mgr_set_usable(&r->heaps, ev->search, ev->search_len);
		*from = HEAP_MGR_SEARCH;
	}
	n = heap_mgr_route(&r->heaps, *from, ev->req.size, order);
	ev->arena = n ? order[0] : (int)r->heaps.default_id;
	/* radMemoryAlloc returns NULL for 0 bytes (heap_mgr_alloc too): the
	 * heap routed to fails it without being asked */
	return ev->req.size == 0 ? 0 : n;
}

/* A strategy that places each allocation where the game did, given an
 * allocation without the address: the replay cannot go on. */
static int needs_at(vs_replay *r, const arena_run *ar)
{
	snprintf(r->err, sizeof r->err, "%s:%llu: error: %s places each allocation where the game put "
		"it, and id %llu has no at= (the address the game's allocator returned, or at=none)",
		vs_trace_name(r->rd), (unsigned long long)r->ev.line, ar->strat->name, (unsigned long long)r->ev.id);
	return -1;
}

/* Counts where the heap manager's rules sent an allocation that arena a
 * placed: to the small heap, or down a search list. */
static void count_route(vs_replay *r, int a, uint32_t from)
{
	arena_run *ar = &r->ar[a];

	if ((uint32_t)a == r->heaps.small_id && from != r->heaps.small_id)
		ar->m.routed_small++;
	else if (from >= VS_ROUTE_SEARCH0 && !r->heaps.no_route)
		ar->m.routed_search++;
}

/* An allocation no strategy placed: counted by its kind of failure, and
 * its id remembered as failed (s: the id's entry when it failed before). */
static int alloc_failed(vs_replay *r, int a, const id_slot *s, int status)
{
	vs_event *ev = &r->ev;
	arena_run *ar = &r->ar[a];
	vs_fail_kind fk;

	vs_replay_refresh_metrics(ar);
	fk = classify(r, a, &ev->req, status);
	ar->m.failures++;
	ar->m.fail[fk]++;
	if (fk != VS_FAIL_INVALID && (!ar->m.smallest_failed || ev->req.size < ar->m.smallest_failed))
		ar->m.smallest_failed = ev->req.size;
	if ((s && s->handle == FAILED_HANDLE ? vs_replay_id_put(r, ev->id, FAILED_HANDLE, (uint32_t)a) :
		vs_replay_failed_put(r, ev->id, (uint32_t)a)))
		return vs_replay_out_of_memory(r);
	if (fk == VS_FAIL_INVALID) {
		char what[96];
		vs_request_describe(&ev->req, what, sizeof what);
		if (vs_replay_diag(r, VS_DIAG_INVALID, "id %llu (%s): %s refuses it as invalid",
			(unsigned long long)ev->id, what, ar->strat->name))
			return -1;
	}
	if (ev->req.has_at == VS_AT_ADDR && vs_replay_diag(r, VS_DIAG_DIVERGENCE,
		"id %llu: the game got 0x%x, %s failed (%s)", (unsigned long long)ev->id, (unsigned)ev->req.at,
		ar->strat->name, vs_replay_fail_kind_name(fk)))
		return -1;
	vs_replay_notify(r, status, 1, fk, NULL);
	return 0;
}

/* A hit hands out data already loaded: when a live record's data starts
 * where the hit is, the id joins that record. 1 when it did, 0 when no
 * record has the data, -1 when out of memory. */
static int join_loaded(vs_replay *r, int a, const vs_placement *pl, int status)
{
	arena_run *ar = &r->ar[a];
	uint32_t owner = vs_arena_owner_at(&ar->arena, pl->offset / ar->arena.decl.unit);
	rec *x;

	if (owner == VS_OWNER_NONE || owner > r->slab_len || r->slab[owner - 1].pub.pl.offset != pl->offset ||
		(r->slab[owner - 1].pub.retained && !ar->strat->released))
		return 0;
	x = &r->slab[owner - 1];
	if (x->pub.retained) {
		/* kept since the game freed it, its data still there: taken
		 * back (ABI 4 released), by this id from now on */
		x->pub.retained = 0;
		ar->m.retained_bytes -= x->pub.pl.block_size;
		vs_replay_account(ar, x, +1);
		if (!x->pub.broken)
			vs_replay_mark_rec(r, x, owner, 0);
		x->pub.id = r->ev.id;
		x->pub.line = r->ev.line;
	} else {
		x->pub.refs++;
	}
	ar->m.shared_hits++;
	if (vs_replay_id_put(r, r->ev.id, owner, (uint32_t)a))
		return vs_replay_out_of_memory(r);
	vs_replay_notify(r, status, 0, VS_FAIL_OOM, &x->pub);
	return 1;
}

/* A hit on data the strategy keeps loaded itself (BG tile 0) takes
 * nothing, so it is neither marked nor counted. Hits on the same data
 * share one record: the first makes the fresh record h that record, the
 * others let h go and join it. 0, or -1 when out of memory. */
static int join_held(vs_replay *r, int a, uint32_t h, const vs_placement *pl, int status)
{
	arena_run *ar = &r->ar[a];
	uint32_t j, slot = 8;
	rec *x;

	for (j = 0; j < 8; j++) {
		uint32_t d = ar->detached[j];
		if (d && r->slab[d - 1].pub.pl.offset == pl->offset) {
			vs_replay_rec_release(r, h);
			r->slab[d - 1].pub.refs++;
			ar->m.shared_hits++;
			if (vs_replay_id_put(r, r->ev.id, d, (uint32_t)a))
				return vs_replay_out_of_memory(r);
			vs_replay_notify(r, status, 0, VS_FAIL_OOM, &r->slab[d - 1].pub);
			return 0;
		}
		if (!d && slot == 8)
			slot = j;
	}
	if (slot < 8)
		ar->detached[slot] = h;
	x = &r->slab[h - 1];
	rec_fill(r, x, a, pl);
	x->detached = 1;
	ar->m.shared_hits++;
	if (vs_replay_id_put(r, r->ev.id, h, (uint32_t)a))
		return vs_replay_out_of_memory(r);
	vs_replay_notify(r, status, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}

/* Record h becomes the allocation placed at pl: its payload, its id (s
 * and gap: where vs_replay_id_find_gap found it or would put it), its
 * place in the map and its bytes when the checks pass, and what it adds
 * to the metrics. 0, or -1 when out of memory. */
static int add_rec(vs_replay *r, int a, uint32_t h, const vs_placement *pl, const id_slot *s, const id_gap *gap)
{
	vs_event *ev = &r->ev;
	arena_run *ar = &r->ar[a];
	rec *x = &r->slab[h - 1];

	rec_fill(r, x, a, pl);
	if (ev->data && ev->data_len) {
		x->payload = malloc(ev->data_len);
		if (!x->payload)
			return -1;
		memcpy(x->payload, ev->data, ev->data_len);
		x->payload_len = ev->data_len;
	}
	if (s ? vs_replay_id_put(r, ev->id, h, (uint32_t)a) : vs_replay_id_put_gap(r, gap, ev->id, h, (uint32_t)a))
		return -1;
	if (check_placement(r, a, x)) {
		x->pub.broken = 1;
	} else {
		if (x->taken == TAKEN_NOT)
			vs_replay_mark_rec(r, x, h, 0);
		else if (r->cfg.on_mark)
			vs_replay_tell_rec(r, x, h);
		if (ar->bytes)
			vs_replay_write_bytes(ar, x);
	}
	ar->m.allocs++;
	ar->cur_loaded += x->pub.pl.granted;
	vs_replay_account(ar, x, +1);
	if ((uint64_t)pl->block_offset + pl->block_size > ar->m.high_water)
		ar->m.high_water = (uint64_t)pl->block_offset + pl->block_size;
	if (x->fp.stride && !x->pub.broken && vs_hw_footprint_end(&x->fp) > ar->m.high_water)
		ar->m.high_water = vs_hw_footprint_end(&x->fp);
	vs_replay_refresh_metrics(ar);
	return 0;
}

/* The strategy placed it, and the game's allocator put it elsewhere
 * (at=) or failed: a divergence. -1 when strict makes it fatal. */
static int tell_divergence(vs_replay *r, int a, const vs_placement *pl)
{
	const vs_event *ev = &r->ev;
	const arena_run *ar = &r->ar[a];

	if (ev->req.has_at == VS_AT_ADDR && ev->req.at - ar->arena.decl.base != pl->offset)
		return vs_replay_diag(r, VS_DIAG_DIVERGENCE, "id %llu: the game got 0x%x, %s gave 0x%x",
			(unsigned long long)ev->id, (unsigned)ev->req.at, ar->strat->name,
			(unsigned)(ar->arena.decl.base + pl->offset));
	if (ev->req.has_at == VS_AT_FAILED)
		return vs_replay_diag(r, VS_DIAG_DIVERGENCE, "id %llu: the game's allocator failed, %s gave 0x%x",
			(unsigned long long)ev->id, ar->strat->name, (unsigned)(ar->arena.decl.base + pl->offset));
	return 0;
}

/* Books what arena a's strategy placed: a hit on loaded data joins the id
 * to the data's record, anything else is a fresh record. 0, or -1 when the
 * replay stops. */
static int book_placement(vs_replay *r, int a, const vs_placement *pl, int status, const id_slot *s,
	const id_gap *gap)
{
	arena_run *ar = &r->ar[a];
	int loaded = pl->shared && pl->offset < ar->arena.decl.size;
	uint32_t h;
	int rc;

	if (loaded && (rc = join_loaded(r, a, pl, status)) != 0)
		return rc < 0 ? -1 : 0;
	h = vs_replay_rec_new(r);
	if (!h)
		return vs_replay_out_of_memory(r);
	if (loaded && vs_arena_owner_at(&ar->arena, pl->offset / ar->arena.decl.unit) == VS_OWNER_ALLOC)
		return join_held(r, a, h, pl, status);
	if (add_rec(r, a, h, pl, s, gap))
		return vs_replay_out_of_memory(r);
	if (tell_divergence(r, a, pl))
		return -1;
	vs_replay_notify(r, status, 0, VS_FAIL_OOM, &r->slab[h - 1].pub);
	return 0;
}

/* `alloc`: routed through the heaps when the trace has them, offered to
 * the strategy (each routed heap's in turn), then booked, or counted as a
 * failure. */
int vs_replay_do_alloc(vs_replay *r)
{
	vs_event *ev = &r->ev;
	vs_placement pl;
	id_gap gap;
	id_slot *s = vs_replay_id_find_gap(r, ev->id, &gap);
	uint8_t order[HEAP_MGR_LIST_MAX];
	uint32_t n = 1, k, from = 0;
	arena_run *ar;
	int a, status;

	if (r->heaps_on)
		n = route_alloc(r, order, &from);
	if (s && s->handle != FAILED_HANDLE) {
		if (vs_replay_diag(r, VS_DIAG_DUPLICATE_ID, "alloc of id %llu, which is live (allocated at line %llu)",
			(unsigned long long)ev->id, (unsigned long long)r->slab[s->handle - 1].pub.line))
			return -1;
		vs_replay_notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	a = ev->arena;
	ar = &r->ar[a];
	status = VS_ERR_UNSUPPORTED; /* no heap to route to */
	for (k = 0; k < n; k++) {
		if (r->heaps_on) {
			a = order[k];
			ev->arena = a;
		}
		ar = &r->ar[a];
		if ((ar->strat->flags & VS_STRAT_NEEDS_AT) && !ev->req.has_at)
			return needs_at(r, ar);
		memset(&pl, 0, sizeof pl);
		status = vs_replay_strat_alloc(r, a, &ev->req, &pl);
		if (ar->strat->released && vs_replay_apply_released(r, a))
			return -1;
		vs_replay_refresh_held_call(r, a);
		if (status >= 0)
			break;
	}
	if (ar->strat->moves && vs_replay_apply_moves(r, a))
		return -1;
	if (status < 0)
		return alloc_failed(r, a, s, status);
	if (r->heaps_on)
		count_route(r, a, from);
	if (pl.block_size == 0) {
		pl.block_offset = pl.offset;
		pl.block_size = pl.granted;
	}
	return book_placement(r, a, &pl, status, s, &gap);
}

int vs_replay_do_free(vs_replay *r)
{
	const vs_event *ev = &r->ev;
	id_slot *s = vs_replay_id_find(r, ev->id);
	uint32_t h;
	rec *x;
	arena_run *ar;
	int status;
	int64_t bad;

	if (!s) {
		int twice = vs_replay_freed_recently(r, ev->id);
		if (vs_replay_diag(r, twice ? VS_DIAG_DOUBLE_FREE : VS_DIAG_UNKNOWN_ID, "free of id %llu, which is %s",
			(unsigned long long)ev->id, twice ? "already freed" : "not live"))
			return -1;
		vs_replay_notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	if (s->handle == FAILED_HANDLE) {
		r->ev.arena = (int)s->arena;
		vs_replay_id_del(r, s);
		vs_replay_freed_push(r, ev->id);
		if (vs_replay_diag(r, VS_DIAG_FREE_FAILED, "free of id %llu, whose allocation failed",
			(unsigned long long)ev->id))
			return -1;
		vs_replay_notify(r, VS_ERR_INVALID, 0, VS_FAIL_OOM, NULL);
		return 0;
	}
	h = s->handle;
	x = &r->slab[h - 1];
	ar = &r->ar[x->pub.arena];
	r->ev.arena = (int)x->pub.arena;
	vs_replay_id_del(r, s);
	vs_replay_freed_push(r, ev->id);
	ar->m.frees++;
	if (x->pub.refs > 1) {
		/* one release of shared data: the strategy counts it too */
		x->pub.refs--;
		status = vs_replay_strat_free(r, (int)x->pub.arena, &x->pub.pl);
		vs_replay_refresh_held_call(r, (int)x->pub.arena);
		if (status < 0 && vs_replay_diag(r, VS_DIAG_STRATEGY, "%s refused to release id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_strategy_status_name(status)))
			return -1;
		vs_replay_notify(r, status, 0, VS_FAIL_OOM, &x->pub);
		return 0;
	}
	r->released = 1; /* the last reference: whatever the strategy says, the game let go */
	if (!x->pub.broken && !x->detached && ar->bytes && (bad = vs_replay_verify_bytes(ar, x)) >= 0)
		vs_replay_check_fail(r, (int)x->pub.arena, VS_CHECK_BYTES,
			"id %llu (allocated at line %llu): byte at 0x%x changed before its free",
			(unsigned long long)x->pub.id, (unsigned long long)x->pub.line,
			(unsigned)(ar->arena.decl.base + vs_hw_footprint_at(&x->fp, (uint32_t)bad)));
	vs_replay_unwatch(ar, x); /* the strategy's free may write into it now */
	status = r->realloc_held ? VS_OK : vs_replay_strat_free(r, (int)x->pub.arena, &x->pub.pl);
	if (x->detached) {
		vs_live gone = x->pub; /* observers see the arena after the free */
		if (status < 0 && vs_replay_diag(r, VS_DIAG_STRATEGY, "%s refused to release id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_strategy_status_name(status)))
			return -1;
		vs_replay_drop_rec(r, h);
		vs_replay_refresh_held_call(r, (int)gone.arena);
		vs_replay_notify(r, status, 0, VS_FAIL_OOM, &gone);
		return 0;
	}
	if (status == VS_RETAINED || status == VS_ERR_LOST) {
		/* still held by the allocator (frame/static heaps) or lost to it */
		vs_replay_account(ar, x, -1);
		x->pub.retained = 1;
		ar->m.retained_bytes += x->pub.pl.block_size;
		if (!x->pub.broken)
			vs_replay_mark_rec(r, x, h, 1);
		if (status == VS_ERR_LOST && vs_replay_diag(r, VS_DIAG_STRATEGY,
			"%s lost the region of id %llu: free failed (%s), the memory is gone until reset",
			ar->strat->name, (unsigned long long)ev->id, vs_strategy_status_name(status)))
			return -1;
	} else {
		vs_live gone; /* observers see the arena after the free: a copy for them alone */
		if (r->cfg.observer)
			gone = x->pub;
		if (status < 0 && vs_replay_diag(r, VS_DIAG_STRATEGY, "%s refused to free id %llu: %s", ar->strat->name,
			(unsigned long long)ev->id, vs_strategy_status_name(status)))
			return -1;
		vs_replay_drop_rec(r, h);
		/* a strategy may compact inside its free (NightFox's Lib) */
		if ((ar->strat->flags & VS_STRAT_FREE_MOVES) && ar->strat->moves &&
		    vs_replay_apply_moves(r, (int)(ar - r->ar)))
			return -1;
		if (ar->stranded)
			vs_replay_rereserve(r, (int)(ar - r->ar));
		vs_replay_refresh_held_call(r, (int)(ar - r->ar));
		vs_replay_refresh_metrics(ar);
		vs_replay_notify(r, status, 0, VS_FAIL_OOM, &gone);
		return 0;
	}
	vs_replay_refresh_held_call(r, (int)(ar - r->ar));
	vs_replay_refresh_metrics(ar);
	vs_replay_notify(r, status, 0, VS_FAIL_OOM, &x->pub);
	return 0;
}
