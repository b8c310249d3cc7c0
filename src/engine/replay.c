/* SPDX-License-Identifier: Zlib */
/* replay.c - runs trace events through strategies over arena models: the
 * set-up, the event loop, the metrics and the public calls. The rest is in
 * replay_*.c, by what each holds (replay_int.h lists them).
 *
 * Books kept, independent of any strategy:
 *  - a slab of live records; the ownership map of each arena holds record
 *    handles (slab index + 1), so a unit tells who holds it
 *    (replay_records.c);
 *  - an id table from trace ids to records (several ids may share one
 *    record: BG tile hits), plus failed ids, so misuse can be diagnosed;
 *  - a ring of recently freed ids, to tell a double free from an unknown id
 *    without remembering every id a long trace ever used (both
 *    replay_ids.c);
 *  - named saves per arena (allocation sequence number, and the strategy's
 *    own state where it has save/restore; replay_states.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_int.h"
#include "strategies/registry.h"

void vs_replay_config_default(vs_replay_config *c)
{
	memset(c, 0, sizeof *c);
	c->check_bytes = 1;
	c->check_rules = 1;
	c->max_messages = 20;
}

/* ---- metrics ------------------------------------------------------------ */

void vs_replay_refresh_metrics(arena_run *ar)
{
	vs_metrics *m = &ar->m;
	uint32_t largest, runs, nfree;

	/* the map's own counts, as vs_arena_free_stats gives them, one call
	 * away instead of three; the division only when they moved */
	vs_ownmap_stats(ar->arena.own, &largest, &runs, &nfree);
	m->free_extents = runs;
	if ((uint64_t)nfree * ar->arena.decl.unit != m->free_bytes ||
		(uint64_t)largest * ar->arena.decl.unit != m->largest_free || !ar->frag_known) {
		m->free_bytes = (uint64_t)nfree * ar->arena.decl.unit;
		m->largest_free = (uint64_t)largest * ar->arena.decl.unit;
		m->frag = m->free_bytes ? 1.0 - (double)m->largest_free / (double)m->free_bytes : 0.0;
		ar->frag_known = 1;
	}
	m->ram_bytes = ar->strat->ram ? ar->strat->ram(ar->state) : ar->strat->state_size;
	if (m->ram_bytes > m->peak_ram)
		m->peak_ram = m->ram_bytes;
	if (m->live_bytes > m->peak_live)
		m->peak_live = m->live_bytes;
	if (m->granted_bytes > m->peak_granted)
		m->peak_granted = m->granted_bytes;
}

void vs_replay_account(arena_run *ar, const rec *x, int sign)
{
	vs_metrics *m = &ar->m;
	uint64_t size = x->pub.req.size, granted = x->pub.pl.granted;
	uint64_t over = x->pub.pl.block_size > granted ? x->pub.pl.block_size - granted : 0;

	if (sign > 0) {
		m->live_count++;
		m->live_bytes += size;
		m->granted_bytes += granted;
		m->overhead_bytes += over;
	} else {
		m->live_count--;
		m->live_bytes -= size;
		m->granted_bytes -= granted;
		m->overhead_bytes -= over;
	}
}

static void tick_metrics(vs_replay *r)
{
	int i;

	for (i = 0; i < r->narenas; i++) {
		vs_metrics *m = &r->ar[i].m;
		m->events++;
		m->frag_sum += m->frag;
		if (m->frag > m->peak_frag) {
			m->peak_frag = m->frag;
			m->peak_frag_event = r->events;
		}
	}
}

/* ---- set-up ------------------------------------------------------------- */

static int setup_arena(vs_replay *r, int i, char *err, size_t errlen)
{
	const vs_trace_header *h = vs_trace_header_of(r->rd);
	arena_run *ar = &r->ar[i];
	const vs_strategy *s = r->cfg.strategy[i];
	const char *opts = r->cfg.options[i];
	char why[512];
	int from_trace = 0;

	if (!s && h->strategy[i][0]) {
		s = vs_strategy_find(h->strategy[i]);
		if (!s) {
			snprintf(err, errlen, "%s:%llu: error: arena '%s' names unknown strategy '%s' (see 'vramsim "
				"strategies')", vs_trace_name(r->rd), (unsigned long long)h->arena_line[i], h->arenas[i].name,
				h->strategy[i]);
			return -1;
		}
	}
	if (!s)
		s = vs_strategy_default_for(&h->arenas[i]);
	if (!s) {
		snprintf(err, errlen, "%s: no strategy manages arena '%s' of kind %s", vs_trace_name(r->rd),
			h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
		return -1;
	}
	if (!vs_strategy_manages(s, h->arenas[i].kind)) {
		snprintf(err, errlen, "strategy '%s' cannot manage arena '%s' of kind %s", s->name,
			h->arenas[i].name, vs_arena_kind_name(h->arenas[i].kind));
		return -1;
	}
	if (vs_strategy_refuses(s, &h->arenas[i], why, sizeof why)) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	/* A trace's options= belong to the strategy it names (or, naming none,
	 * to the kind's default); another strategy starts with none. */
	{
		const char *hint = h->strategy[i][0] ? h->strategy[i] : "";
		const vs_strategy *owner = *hint ? vs_strategy_find(hint) : vs_strategy_default_for(&h->arenas[i]);
		ar->takes_trace_options = owner == s; /* its `init` lines' options too */
		if (!(opts && *opts)) {
			opts = owner == s ? h->options[i] : "";
			from_trace = owner == s && h->options_col[i];
		}
	}
	snprintf(ar->options, sizeof ar->options, "%s", opts);
	snprintf(ar->setup_options, sizeof ar->setup_options, "%s", opts);
	if (vs_arena_init(&ar->arena, &h->arenas[i], why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", vs_trace_name(r->rd), why);
		return -1;
	}
	ar->strat = s;
	ar->state = calloc(1, s->state_size ? s->state_size : 1);
	if (!ar->state) {
		snprintf(err, errlen, "out of memory for strategy '%s'", s->name);
		return -1;
	}
	ar->bytes = r->cfg.check_bytes == VS_BYTES_ALWAYS ||
		(r->cfg.check_bytes && !(s->flags & VS_STRAT_NO_MEM));
#ifdef HEAP_WATCH_STORES
	/* its stores seen (moves would have to carry the watch along: none
	 * of the strategies that say so moves) */
	ar->seen = ar->bytes && r->cfg.check_bytes == VS_BYTES_CHECKED && (s->flags & VS_STRAT_STORES_SEEN) &&
		!s->moves && !(s->flags & VS_STRAT_NEEDS_AT);
	if (ar->seen && vs_replay_watch_init(ar)) {
		snprintf(err, errlen, "out of memory for the watch over arena '%s'", h->arenas[i].name);
		return -1;
	}
#endif
	if (vs_replay_strat_init(ar, why, sizeof why)) {
		char at[600] = "";
		if (from_trace) /* the trace's own options=: said at their place */
			snprintf(at, sizeof at, "%s:%llu:%u: error: ", vs_trace_name(r->rd),
				(unsigned long long)h->arena_line[i], (unsigned)h->options_col[i]);
		snprintf(err, errlen, "%sstrategy '%s' refused arena '%s': %s", at, s->name, h->arenas[i].name,
			why[0] ? why : "init failed");
		if (s->fini)
			s->fini(ar->state);
		free(ar->state);
		ar->state = NULL;
		return -1;
	}
	ar->m.usable_bytes = ar->arena.usable_bytes;
	vs_replay_refresh_held(r, i);
	vs_replay_refresh_metrics(ar);
	return 0;
}

/* The trace's heaps and search lists, in the heap manager's own routing code:
 * arena i is heap id i, search list k is id VS_ROUTE_SEARCH0 + k. */
static void setup_heaps(vs_replay *r)
{
	const vs_trace_header *h = vs_trace_header_of(r->rd);
	int i;

	heap_mgr_init(&r->heaps, 0);
	if (!h->heaps)
		return;
	for (i = 0; i < h->narenas; i++) {
		heap_mgr_attach(&r->heaps, (uint32_t)i);
		if (h->keep_small >> i & 1)
			heap_mgr_set_roles(&r->heaps, (uint32_t)i, HEAP_ROLE_KEEPS_SMALL);
	}
	for (i = 0; i < h->nsearch; i++)
		heap_mgr_set_search(&r->heaps, VS_ROUTE_SEARCH0 + (uint32_t)i, h->search[i], h->search_len[i]);
	heap_mgr_set_small(&r->heaps, h->small_arena >= 0 ? (uint32_t)h->small_arena : HEAP_NIL);
	heap_mgr_set_default(&r->heaps, h->default_arena >= 0 ? (uint32_t)h->default_arena : 0);
	heap_mgr_set_no_route(&r->heaps, (uint32_t)h->no_route);
}

vs_replay *vs_replay_new(vs_trace_reader *rd, const vs_replay_config *cfg, char *err, size_t errlen)
{
	vs_replay *r = calloc(1, sizeof *r);
	int i;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		vs_trace_close(rd);
		return NULL;
	}
	r->rd = rd;
	r->heaps_on = vs_trace_header_of(rd)->heaps; /* read here, not at each allocation (a call) */
	if (cfg)
		r->cfg = *cfg;
	else
		vs_replay_config_default(&r->cfg);
	if (r->cfg.max_messages <= 0)
		r->cfg.max_messages = 20;
	r->ids_cap = 1024;
	r->ids = calloc(r->ids_cap, sizeof *r->ids);
	r->freed = calloc(FREED_RING, sizeof *r->freed);
	r->failed = calloc(FAILED_RING, sizeof *r->failed);
	if (!r->ids || !r->freed || !r->failed) {
		snprintf(err, errlen, "out of memory");
		vs_replay_free(r);
		return NULL;
	}
	r->narenas = vs_trace_header_of(rd)->narenas;
	for (i = 0; i < r->narenas; i++) {
		if (setup_arena(r, i, err, errlen)) {
			vs_replay_free(r);
			return NULL;
		}
	}
	setup_heaps(r);
	return r;
}

void vs_replay_free(vs_replay *r)
{
	int i;
	uint32_t h;

	if (!r)
		return;
	for (i = 0; i < r->narenas; i++) {
		arena_run *ar = &r->ar[i];
		if (ar->state && ar->strat && ar->strat->fini)
			ar->strat->fini(ar->state);
		free(ar->state);
		vs_replay_free_saves(ar);
		vs_replay_watch_fini(ar);
		free(ar->held);
		free(ar->spare);
		vs_arena_fini(&ar->arena);
	}
	for (h = 1; h <= r->slab_len; h++)
		if (r->slab[h - 1].in_use)
			free(r->slab[h - 1].payload);
	free(r->slab);
	free(r->ids);
	free(r->freed);
	free(r->failed);
	vs_trace_close(r->rd);
	free(r);
}

/* ---- events ------------------------------------------------------------- */

/* One event: 1 when it was replayed, 0 at the end of the trace, -1 on an
 * error (vs_replay_error says which). */
static VS_ALWAYS_INLINE int step(vs_replay *r)
{
	int rc, i, lo, hi;

	if (r->err[0])
		return -1;
	rc = vs_trace_next(r->rd, &r->ev);
	if (rc == 0)
		return 0;
	if (rc < 0) {
		snprintf(r->err, sizeof r->err, "%s", vs_trace_error(r->rd));
		return -1;
	}
	r->events++;
	switch (r->ev.type) {
	case VS_EV_ALLOC:
		rc = vs_replay_do_alloc(r);
		break;
	case VS_EV_FREE:
		rc = vs_replay_do_free(r);
		break;
	case VS_EV_PUSH:
		rc = 0;
		if (heap_mgr_push(&r->heaps, (uint32_t)r->ev.route) != HEAP_OK)
			rc = vs_replay_diag(r, VS_DIAG_HEAP_STACK, "push of '%s': the heap stack is full (%u deep)",
				vs_trace_route_name(vs_trace_header_of(r->rd), r->ev.route), (unsigned)HEAP_MGR_STACK_MAX);
		if (rc == 0)
			vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_MOVE:
		rc = vs_replay_do_move(r);
		break;
	case VS_EV_REALLOC:
		rc = vs_replay_do_realloc(r);
		break;
	case VS_EV_VRAMCNT:
		rc = vs_replay_do_vramcnt(r);
		break;
	case VS_EV_LOCK:
	case VS_EV_UNLOCK:
		rc = vs_replay_do_lock(r);
		break;
	case VS_EV_POP: {
		/* Pop removes the top whatever the name says (seed 004) */
		const vs_trace_header *hd = vs_trace_header_of(r->rd);
		uint32_t top = 0;
		int pr = heap_mgr_pop(&r->heaps, (uint32_t)r->ev.route, &top);
		rc = 0;
		if (pr == HEAP_MGR_POP_OTHER)
			rc = vs_replay_diag(r, VS_DIAG_HEAP_STACK, "pop of '%s', but '%s' was on top (removed)",
				vs_trace_route_name(hd, r->ev.route), vs_trace_route_name(hd, (int)top));
		else if (pr != HEAP_OK)
			rc = vs_replay_diag(r, VS_DIAG_HEAP_STACK, "pop of '%s' from an empty heap stack",
				vs_trace_route_name(hd, r->ev.route));
		if (rc == 0)
			vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	}
	case VS_EV_INIT:
		rc = vs_replay_do_init(r, r->ev.arena);
		if (rc == 0)
			vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_FRAME:
		r->frames++;
		rc = vs_replay_end_frame(r);
		if (!rc)
			vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
	case VS_EV_RESET:
		lo = r->ev.arena >= 0 ? r->ev.arena : 0;
		hi = r->ev.arena >= 0 ? r->ev.arena + 1 : r->narenas;
		rc = 0;
		for (i = lo; i < hi && rc == 0; i++)
			rc = r->ev.type == VS_EV_SAVE ? vs_replay_do_save(r, i) :
				r->ev.type == VS_EV_RESTORE ? vs_replay_do_restore(r, i) : vs_replay_do_reset(r, i);
		if (rc && !r->err[0])
			vs_replay_out_of_memory(r);
		if (rc == 0)
			vs_replay_notify(r, VS_OK, 0, VS_FAIL_OOM, NULL);
		break;
	default:
		rc = 0;
		break;
	}
	tick_metrics(r);
	return rc ? -1 : 1;
}

/* A step is one pass of vs_replay_run's loop, so that the loop and an
 * event's work are one function (step, in line) whichever is called. A
 * step that was a function of its own went into the loop at the link only
 * where nothing else called it, and then only as the inliner's order of
 * work allowed; else a call every event (3-5% of vs_bench's instructions). */
int vs_replay_step(vs_replay *r)
{
	return vs_replay_run(r, r->events + 1);
}

int vs_replay_run(vs_replay *r, uint64_t until)
{
	int rc;

	do {
		if (until && r->events >= until)
			return 1;
		rc = step(r);
	} while (rc == 1);
	return rc;
}

const char *vs_replay_error(const vs_replay *r) { return r->err; }
const vs_trace_header *vs_replay_header(const vs_replay *r) { return vs_trace_header_of(r->rd); }
int vs_replay_arena_count(const vs_replay *r) { return r->narenas; }
const vs_arena *vs_replay_arena(const vs_replay *r, int i) { return &r->ar[i].arena; }
const vs_strategy *vs_replay_strategy(const vs_replay *r, int i) { return r->ar[i].strat; }
void *vs_replay_strategy_state(vs_replay *r, int i) { return r->ar[i].state; }
const vs_metrics *vs_replay_metrics(const vs_replay *r, int i) { return &r->ar[i].m; }
uint64_t vs_replay_events(const vs_replay *r) { return r->events; }
uint64_t vs_replay_frames(const vs_replay *r) { return r->frames; }
uint64_t vs_replay_diag_count(const vs_replay *r, vs_diag_kind k) { return r->diag[k]; }
uint64_t vs_replay_check_count(const vs_replay *r, vs_check_kind k) { return r->check[k]; }
const char *vs_replay_tag_name(const vs_replay *r, uint32_t tag) { return vs_trace_tag_name(r->rd, tag); }
const vs_trace_reader *vs_replay_reader(const vs_replay *r) { return r->rd; }

uint64_t vs_replay_check_total(const vs_replay *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < VS_CHECK_KINDS; k++)
		n += r->check[k];
	return n;
}

uint64_t vs_replay_diag_total(const vs_replay *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < VS_DIAG_KINDS; k++)
		n += r->diag[k];
	return n;
}

const vs_live *vs_replay_live_by_owner(const vs_replay *r, uint32_t owner)
{
	if (owner == VS_OWNER_NONE || owner == VS_OWNER_HW || owner > r->slab_len || !r->slab[owner - 1].in_use)
		return NULL;
	return &r->slab[owner - 1].pub;
}

void vs_replay_live_walk(const vs_replay *r, void (*fn)(void *ud, const vs_live *l), void *ud)
{
	uint32_t h;

	for (h = 1; h <= r->slab_len; h++)
		if (r->slab[h - 1].in_use)
			fn(ud, &r->slab[h - 1].pub);
}
