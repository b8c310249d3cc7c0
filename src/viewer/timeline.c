/* SPDX-License-Identifier: Zlib */
/* timeline.c - a replay recorded once, seekable through checkpoints.
 *
 * Every ownership change becomes a delta (arena, unit range, owner, kind)
 * with the owner turned from the replay's record handle (reused after a
 * free) into the number of the event that made the allocation (never
 * reused). A mirror of the maps, kept with those owners while recording, is
 * run-length encoded into a checkpoint every few hundred events, sooner when
 * many units changed, later for huge arenas, so that a seek costs at most
 * one decode of the maps plus about one map's worth of deltas.
 */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "viewer/timeline.h"
#include "vram/arena.h"
#include "render/history.h"

#define CK_EVENTS 256u        /* checkpoint at least this often (small arenas) */
#define CK_MIN_UNITS 4096u    /* ... and when this many units changed */

typedef struct delta {
	uint32_t owner, first, count;
	uint8_t arena, kind;
} delta;

typedef struct run {
	uint32_t owner, len;
	uint8_t kind;
} run;

typedef struct checkpoint {
	uint64_t event;
	size_t run0;  /* first run in the pool; arenas follow each other */
} checkpoint;

/* A free event and the alloc event it ends (0: no alloc of its id seen). */
typedef struct tl_free {
	uint64_t id;
	uint32_t event, alloc;
} tl_free;

/* id -> the last alloc event with that id, while recording (a free looks
 * its allocation up here; the replay forgets records once freed). */
typedef struct id_slot {
	uint64_t id;
	uint32_t event;  /* 0: empty */
} id_slot;

typedef struct side {
	vs_timeline *h;
	int index;
	vs_replay *r;
	vs_trace_reader *rd; /* the replay's (vs_timeline_follow) */
	vs_history *hs;  /* the renderer's samples for charts */
	int stopped;
	/* the observer's note about the event being replayed */
	int seen;
	vs_tl_event ev;
	uint64_t id;
	vs_request req;
	int failed;
	int fail_kind;
	/* the maps as recording left them, owners as event numbers */
	vs_ownmap *mo[VS_TRACE_MAX_ARENAS];
	/* the maps at the viewing position */
	vs_arena view[VS_TRACE_MAX_ARENAS];
	delta *d;
	size_t nd, capd;
	uint32_t *evd;  /* evd[e]: deltas recorded by the end of event e */
	size_t capevd;
	checkpoint *ck;
	size_t nck, capck;
	run *runs;
	size_t nruns, capruns;
	uint64_t units_since;
	uint32_t *fails;
	uint8_t *fail_kind_of;
	size_t nfails, capfails, capfk;
	vs_tl_sample *series[VS_TRACE_MAX_ARENAS];
	size_t capseries[VS_TRACE_MAX_ARENAS];
} side;

struct vs_timeline {
	int nsides, narenas;
	side s[VS_VIEW_MAX_SIDES];
	uint64_t recorded, at;
	int complete, oom;
	int follow;      /* vs_timeline_follow */
	uint64_t total_units, ck_units, ck_events;
	vs_tl_event *ev;
	size_t capev;
	vs_tl_alloc *allocs;
	size_t nallocs, capallocs;
	uint32_t *frames;
	size_t nframes, capframes;
	tl_free *frees;
	size_t nfrees, capfrees;
	id_slot *ids;
	size_t nids, capids;  /* capids: a power of two, or 0 */
};

/* The first capacity of every array the timeline grows (vs_grow). */
#define FIRST 256

static void on_mark(void *ud, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	side *s = ud;
	vs_timeline *h = s->h;
	const vs_arena *a;
	uint32_t first, last;
	delta *d;

	if (!s->r || arena < 0 || arena >= h->narenas || h->oom)
		return;
	a = &s->view[arena];
	if (len == 0 || off >= a->decl.size)
		return;
	if (len > a->decl.size - off)
		len = a->decl.size - off;
	first = off / a->decl.unit;
	last = (off + len - 1) / a->decl.unit;
	if (owner != VS_OWNER_NONE && owner != VS_OWNER_HW && owner != VS_OWNER_ALLOC) {
		const vs_live *l = vs_replay_live_by_owner(s->r, owner);
		owner = l ? (uint32_t)l->event : VS_OWNER_HW;
	}
	if (vs_grow(&s->d, sizeof *s->d, &s->capd, s->nd + 1, FIRST)) {
		h->oom = 1;
		return;
	}
	d = &s->d[s->nd++];
	d->owner = owner;
	d->first = first;
	d->count = last - first + 1;
	d->arena = (uint8_t)arena;
	d->kind = (uint8_t)kind;
	if (vs_ownmap_set(s->mo[arena], first, d->count, owner, kind))
		h->oom = 1;
	s->units_since += d->count;
	vs_history_mark(s->hs, arena, off, len, owner, kind);
}

static void on_event(void *ud, vs_replay *r, const vs_outcome *o)
{
	side *s = ud;

	s->seen = 1;
	vs_history_observe(s->hs, r, o);
	s->ev.line = o->ev->line > UINT32_MAX ? UINT32_MAX : (uint32_t)o->ev->line;
	s->ev.type = (uint8_t)o->ev->type;
	s->ev.arena = (int8_t)o->ev->arena;
	s->id = o->ev->id;
	if (o->ev->type == VS_EV_ALLOC)
		s->req = o->ev->req;
	s->failed = o->failed;
	s->fail_kind = (int)o->fail_kind;
}

static int keep_run(void *ud, const vs_own_run *own)
{
	side *s = ud;
	run *rn;

	if (vs_grow(&s->runs, sizeof *s->runs, &s->capruns, s->nruns + 1, FIRST))
		return -1;
	rn = &s->runs[s->nruns++];
	rn->owner = own->owner;
	rn->len = own->count;
	rn->kind = (uint8_t)own->kind;
	return 0;
}

static int checkpoint_now(side *s, uint64_t event)
{
	vs_timeline *h = s->h;
	int a;

	if (vs_grow(&s->ck, sizeof *s->ck, &s->capck, s->nck + 1, FIRST))
		return -1;
	s->ck[s->nck].event = event;
	s->ck[s->nck].run0 = s->nruns;
	for (a = 0; a < h->narenas; a++)
		if (vs_ownmap_walk(s->mo[a], 0, s->view[a].nunits, 0, keep_run, s))
			return -1;
	s->nck++;
	s->units_since = 0;
	return 0;
}

static void restore_checkpoint(side *s, size_t ci)
{
	vs_timeline *h = s->h;
	const run *rn = &s->runs[s->ck[ci].run0];
	int a;

	for (a = 0; a < h->narenas; a++) {
		vs_arena *v = &s->view[a];
		uint32_t u = 0;
		vs_ownmap_clear(v->own);
		while (u < v->nunits) {
			if (rn->kind != VS_UNIT_FREE && vs_ownmap_set(v->own, u, rn->len, rn->owner, (vs_unit_kind)rn->kind))
				h->oom = 1; /* no memory for the view: seen as a failed recording */
			u += rn->len;
			rn++;
		}
	}
}

static void apply_deltas(side *s, uint64_t from, uint64_t to)
{
	size_t i;

	for (i = s->evd[from]; i < s->evd[to]; i++) {
		const delta *d = &s->d[i];
		vs_arena *v = &s->view[d->arena];
		if (vs_ownmap_set(v->own, d->first, d->count, d->owner, (vs_unit_kind)d->kind))
			s->h->oom = 1;
	}
}

/* ---- id -> alloc event: open addressing, linear probing ---------------- */

static size_t id_home(uint64_t id, size_t mask)
{
	id *= 0x9E3779B97F4A7C15ull;
	return (size_t)(id ^ (id >> 32)) & mask;
}

static size_t id_find(const vs_timeline *h, uint64_t id)
{
	size_t mask = h->capids - 1, i = id_home(id, mask);

	while (h->ids[i].event && h->ids[i].id != id)
		i = (i + 1) & mask;
	return i;
}

static int id_put(vs_timeline *h, uint64_t id, uint32_t event)
{
	size_t i;

	if ((h->nids + 1) * 2 > h->capids) {
		size_t ncap = h->capids ? h->capids * 2 : 1024, k;
		id_slot *old = h->ids, *nw = calloc(ncap, sizeof *nw);
		size_t ocap = h->capids;
		if (!nw)
			return -1;
		h->ids = nw;
		h->capids = ncap;
		for (k = 0; k < ocap; k++)
			if (old[k].event)
				h->ids[id_find(h, old[k].id)] = old[k];
		free(old);
	}
	i = id_find(h, id);
	if (!h->ids[i].event)
		h->nids++;
	h->ids[i].id = id;
	h->ids[i].event = event;
	return 0;
}

/* The alloc event of id, removed from the table; 0 when none. */
static uint32_t id_take(vs_timeline *h, uint64_t id)
{
	size_t mask, i, j;
	uint32_t event;

	if (!h->capids)
		return 0;
	mask = h->capids - 1;
	i = id_find(h, id);
	event = h->ids[i].event;
	if (!event)
		return 0;
	/* backward shift: later slots whose home is not in (i, j] move up */
	for (j = (i + 1) & mask; h->ids[j].event; j = (j + 1) & mask) {
		size_t k = id_home(h->ids[j].id, mask);
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			h->ids[i] = h->ids[j];
			i = j;
		}
	}
	h->ids[i].event = 0;
	h->nids--;
	return event;
}

vs_timeline *vs_timeline_open(const char *trace, int nsides, const vs_replay_config *cfg, char *err, size_t errlen)
{
	vs_timeline *h;
	int i, a;

	if (nsides < 1 || nsides > VS_VIEW_MAX_SIDES) {
		snprintf(err, errlen, "the viewer shows 1 or 2 strategies, not %d", nsides);
		return NULL;
	}
	h = calloc(1, sizeof *h);
	if (!h)
		goto oom;
	h->nsides = nsides;
	for (i = 0; i < nsides; i++) {
		side *s = &h->s[i];
		vs_replay_config c = cfg[i];
		vs_trace_reader *rd = vs_trace_open(trace, err, errlen);
		vs_replay *r;

		s->h = h;
		s->index = i;
		s->rd = rd;
		if (!rd)
			goto fail;
		s->hs = vs_history_new(0, 0);
		if (!s->hs) {
			vs_trace_close(rd);
			goto oom;
		}
		c.observer = on_event;
		c.observer_ud = s;
		c.on_mark = on_mark;
		c.mark_ud = s;
		r = vs_replay_new(rd, &c, err, errlen);
		if (!r)
			goto fail;
		h->narenas = vs_replay_arena_count(r);
		for (a = 0; a < h->narenas; a++) {
			const vs_arena *ra = vs_replay_arena(r, a);
			vs_arena *v = &s->view[a];
			/* the start: reserved units only; no record owns anything yet */
			if (vs_arena_init_view(v, ra) || !(s->mo[a] = vs_ownmap_copy(ra->own))) {
				s->r = r;
				goto oom;
			}
			if (i == 0)
				h->total_units += ra->nunits;
			if (vs_grow(&s->series[a], sizeof *s->series[a], &s->capseries[a], 1, FIRST))
				goto oom;
		}
		s->r = r;
	}
	h->ck_units = h->total_units > CK_MIN_UNITS ? h->total_units : CK_MIN_UNITS;
	h->ck_events = h->total_units / 16 > CK_EVENTS ? h->total_units / 16 : CK_EVENTS;
	if (vs_grow(&h->ev, sizeof *h->ev, &h->capev, 1, FIRST))
		goto oom;
	memset(&h->ev[0], 0, sizeof h->ev[0]);
	for (i = 0; i < nsides; i++) {
		side *s = &h->s[i];
		if (vs_grow(&s->evd, sizeof *s->evd, &s->capevd, 1, FIRST) || checkpoint_now(s, 0))
			goto oom;
		s->evd[0] = 0;
		for (a = 0; a < h->narenas; a++) {
			const vs_metrics *m = vs_replay_metrics(s->r, a);
			s->series[a][0].live = (uint32_t)m->live_bytes;
			s->series[a][0].free = (uint32_t)m->free_bytes;
			s->series[a][0].largest = (uint32_t)m->largest_free;
		}
	}
	return h;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	vs_timeline_free(h);
	return NULL;
}

void vs_timeline_free(vs_timeline *h)
{
	int i, a;

	if (!h)
		return;
	for (i = 0; i < h->nsides; i++) {
		side *s = &h->s[i];
		for (a = 0; a < VS_TRACE_MAX_ARENAS; a++) {
			vs_ownmap_free(s->mo[a]);
			vs_arena_fini(&s->view[a]);
			free(s->series[a]);
		}
		if (s->r)
			vs_replay_free(s->r);
		if (s->hs)
			vs_history_free(s->hs);
		free(s->d);
		free(s->evd);
		free(s->ck);
		free(s->runs);
		free(s->fails);
		free(s->fail_kind_of);
	}
	free(h->ev);
	free(h->allocs);
	free(h->frames);
	free(h->frees);
	free(h->ids);
	free(h);
}

/* Books the event every side just replayed (or skipped, once stopped). */
static int book_event(vs_timeline *h)
{
	uint64_t e = h->recorded + 1;
	const side *src = NULL;
	vs_tl_event *ev;
	int i, a;

	if (e > UINT32_MAX - 1)
		return -1;
	if (vs_grow(&h->ev, sizeof *h->ev, &h->capev, e + 1, FIRST))
		return -1;
	for (i = 0; i < h->nsides && !src; i++)
		if (h->s[i].seen)
			src = &h->s[i];
	ev = &h->ev[e];
	if (src) {
		*ev = src->ev;
	} else {
		memset(ev, 0, sizeof *ev);
		ev->type = VS_EV_COUNT;
		ev->arena = -1;
	}
	if (src && ev->type == VS_EV_ALLOC) {
		vs_tl_alloc *al;
		if (vs_grow(&h->allocs, sizeof *h->allocs, &h->capallocs, h->nallocs + 1, FIRST))
			return -1;
		al = &h->allocs[h->nallocs++];
		al->id = src->id;
		al->req = src->req;
		al->event = (uint32_t)e;
		al->line = ev->line;
		if (id_put(h, src->id, (uint32_t)e))
			return -1;
	}
	if (src && ev->type == VS_EV_FREE) {
		tl_free *f;
		if (vs_grow(&h->frees, sizeof *h->frees, &h->capfrees, h->nfrees + 1, FIRST))
			return -1;
		f = &h->frees[h->nfrees++];
		f->id = src->id;
		f->event = (uint32_t)e;
		f->alloc = id_take(h, src->id);
	}
	if (src && ev->type == VS_EV_FRAME) {
		if (vs_grow(&h->frames, sizeof *h->frames, &h->capframes, h->nframes + 1, FIRST))
			return -1;
		h->frames[h->nframes++] = (uint32_t)e;
	}
	for (i = 0; i < h->nsides; i++) {
		side *s = &h->s[i];
		if (vs_grow(&s->evd, sizeof *s->evd, &s->capevd, e + 1, FIRST))
			return -1;
		s->evd[e] = (uint32_t)s->nd;
		if (s->seen && s->failed) {
			if (vs_grow(&s->fails, sizeof *s->fails, &s->capfails, s->nfails + 1, FIRST) ||
				vs_grow(&s->fail_kind_of, 1, &s->capfk, s->nfails + 1, FIRST))
				return -1;
			s->fails[s->nfails] = (uint32_t)e;
			s->fail_kind_of[s->nfails++] = (uint8_t)s->fail_kind;
		}
		for (a = 0; a < h->narenas; a++) {
			vs_tl_sample *sm;
			if (vs_grow(&s->series[a], sizeof *s->series[a], &s->capseries[a], e + 1, FIRST))
				return -1;
			sm = &s->series[a][e];
			if (s->stopped) {
				*sm = s->series[a][e - 1];
			} else {
				const vs_metrics *m = vs_replay_metrics(s->r, a);
				sm->live = (uint32_t)m->live_bytes;
				sm->free = (uint32_t)m->free_bytes;
				sm->largest = (uint32_t)m->largest_free;
			}
		}
		if ((s->units_since >= h->ck_units || e - s->ck[s->nck - 1].event >= h->ck_events) &&
			checkpoint_now(s, e))
			return -1;
	}
	h->recorded = e;
	return 0;
}

/* Gives back what doubling reserved beyond the final sizes. */
static void shrink(void *pp, size_t *cap, size_t n, size_t elem)
{
	void **p = pp;
	void *q;

	if (n == 0 || n >= *cap)
		return;
	q = realloc(*p, n * elem);
	if (q) {
		*p = q;
		*cap = n;
	}
}

static void trim(vs_timeline *h)
{
	size_t e = (size_t)h->recorded + 1;
	int i, a;

	shrink(&h->ev, &h->capev, e, sizeof *h->ev);
	shrink(&h->allocs, &h->capallocs, h->nallocs, sizeof *h->allocs);
	shrink(&h->frames, &h->capframes, h->nframes, sizeof *h->frames);
	shrink(&h->frees, &h->capfrees, h->nfrees, sizeof *h->frees);
	/* every later free is booked: the id table is done with */
	free(h->ids);
	h->ids = NULL;
	h->nids = h->capids = 0;
	for (i = 0; i < h->nsides; i++) {
		side *s = &h->s[i];
		shrink(&s->d, &s->capd, s->nd, sizeof *s->d);
		shrink(&s->evd, &s->capevd, e, sizeof *s->evd);
		shrink(&s->ck, &s->capck, s->nck, sizeof *s->ck);
		shrink(&s->runs, &s->capruns, s->nruns, sizeof *s->runs);
		shrink(&s->fails, &s->capfails, s->nfails, sizeof *s->fails);
		shrink(&s->fail_kind_of, &s->capfk, s->nfails, 1);
		for (a = 0; a < h->narenas; a++)
			shrink(&s->series[a], &s->capseries[a], e, sizeof *s->series[a]);
	}
}

static int all_stopped(const vs_timeline *h)
{
	int i;

	for (i = 0; i < h->nsides; i++)
		if (!h->s[i].stopped)
			return 0;
	return 1;
}

int vs_timeline_record(vs_timeline *h, uint64_t n)
{
	uint64_t k;
	int i;

	if (h->oom)
		return -1;
	for (k = 0; k < n && !h->complete; k++) {
		int advanced = 0;
		for (i = 0; i < h->nsides; i++) {
			side *s = &h->s[i];
			uint64_t before;
			int rc;
			s->seen = 0;
			s->failed = 0;
			if (s->stopped)
				continue;
			before = vs_replay_events(s->r);
			rc = vs_replay_step(s->r);
			if (vs_replay_events(s->r) > before)
				advanced = 1;
			if (rc < 0 || (rc == 0 && !h->follow))
				s->stopped = rc < 0 ? 2 : 1;
		}
		if (h->oom)
			return -1;
		if (!advanced && h->follow && !all_stopped(h))
			return 2; /* all that is written is recorded: more may come */
		if (!advanced) {
			for (i = 0; i < h->nsides; i++)
				if (vs_history_finish(h->s[i].hs, h->s[i].r))
					h->oom = 1;
			h->complete = 1;
			trim(h);
			break;
		}
		if (book_event(h)) {
			h->oom = 1;
			return -1;
		}
	}
	return h->complete ? 0 : 1;
}

void vs_timeline_follow(vs_timeline *h, int on)
{
	int i;

	h->follow = on;
	for (i = 0; i < h->nsides; i++)
		if (!h->s[i].stopped)
			vs_trace_follow(h->s[i].rd, on);
}

int vs_timeline_complete(const vs_timeline *h)
{
	return h->complete;
}

uint64_t vs_timeline_recorded(const vs_timeline *h)
{
	return h->recorded;
}

const char *vs_timeline_error(const vs_timeline *h, int side_i)
{
	if (side_i < 0 || side_i >= h->nsides || h->s[side_i].stopped != 2)
		return NULL;
	return vs_replay_error(h->s[side_i].r);
}


const vs_history *vs_timeline_render_history(const vs_timeline *h, int side_i)
{
	return side_i >= 0 && side_i < h->nsides ? h->s[side_i].hs : NULL;
}

vs_replay *vs_timeline_replay(const vs_timeline *h, int side_i)
{
	return side_i >= 0 && side_i < h->nsides ? h->s[side_i].r : NULL;
}

int vs_timeline_arena_count(const vs_timeline *h)
{
	return h->narenas;
}

/* Last checkpoint at or before event. */
static size_t find_checkpoint(const side *s, uint64_t event)
{
	size_t lo = 0, hi = s->nck;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ck[mid].event <= event)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint64_t vs_timeline_seek(vs_timeline *h, uint64_t event)
{
	int i;

	if (event > h->recorded)
		event = h->recorded;
	if (event == h->at)
		return event;
	for (i = 0; i < h->nsides; i++) {
		side *s = &h->s[i];
		size_t ci = find_checkpoint(s, event);
		if (event > h->at && s->ck[ci].event <= h->at) {
			/* no checkpoint in between: the deltas are the short way */
			apply_deltas(s, h->at, event);
		} else {
			restore_checkpoint(s, ci);
			apply_deltas(s, s->ck[ci].event, event);
		}
	}
	h->at = event;
	return event;
}

uint64_t vs_timeline_at(const vs_timeline *h)
{
	return h->at;
}

const vs_arena *vs_timeline_arena(const vs_timeline *h, int side_i, int arena)
{
	if (side_i < 0 || side_i >= h->nsides || arena < 0 || arena >= h->narenas)
		return NULL;
	return &h->s[side_i].view[arena];
}

const vs_tl_alloc *vs_timeline_alloc(const vs_timeline *h, uint32_t owner)
{
	size_t lo = 0, hi = h->nallocs;

	if (owner == VS_OWNER_NONE || owner == VS_OWNER_HW || owner == VS_OWNER_ALLOC)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->allocs[mid].event < owner)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nallocs && h->allocs[lo].event == owner ? &h->allocs[lo] : NULL;
}

const vs_tl_event *vs_timeline_event(const vs_timeline *h, uint64_t event)
{
	return event >= 1 && event <= h->recorded ? &h->ev[event] : NULL;
}

/* Index of the first element > x in an ascending array. */
static size_t upper(const uint32_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vs_timeline_failure(const vs_timeline *h, int side_i, uint64_t event)
{
	const side *s;
	size_t i;

	if (side_i < 0 || side_i >= h->nsides || event == 0)
		return -1;
	s = &h->s[side_i];
	i = upper(s->fails, s->nfails, event);
	return i > 0 && s->fails[i - 1] == event ? s->fail_kind_of[i - 1] : -1;
}

uint64_t vs_timeline_next_failure(const vs_timeline *h, uint64_t after)
{
	uint64_t best = 0;
	int i;

	for (i = 0; i < h->nsides; i++) {
		const side *s = &h->s[i];
		size_t k = upper(s->fails, s->nfails, after);
		if (k < s->nfails && (!best || s->fails[k] < best))
			best = s->fails[k];
	}
	return best;
}

uint64_t vs_timeline_prev_failure(const vs_timeline *h, uint64_t before)
{
	uint64_t best = 0;
	int i;

	if (before == 0)
		return 0;
	for (i = 0; i < h->nsides; i++) {
		const side *s = &h->s[i];
		size_t k = upper(s->fails, s->nfails, before - 1);
		if (k > 0 && s->fails[k - 1] > best)
			best = s->fails[k - 1];
	}
	return best;
}

const uint32_t *vs_timeline_failures(const vs_timeline *h, int side_i, size_t *n)
{
	*n = h->s[side_i].nfails;
	return h->s[side_i].fails;
}

uint64_t vs_timeline_next_frame(const vs_timeline *h, uint64_t after)
{
	size_t k = upper(h->frames, h->nframes, after);

	return k < h->nframes ? h->frames[k] : 0;
}

uint64_t vs_timeline_prev_frame(const vs_timeline *h, uint64_t before)
{
	size_t k;

	if (before == 0)
		return 0;
	k = upper(h->frames, h->nframes, before - 1);
	return k > 0 ? h->frames[k - 1] : 0;
}

uint64_t vs_timeline_frame_at(const vs_timeline *h, uint64_t event)
{
	return upper(h->frames, h->nframes, event);
}

uint64_t vs_timeline_frame_event(const vs_timeline *h, uint64_t n)
{
	return n >= 1 && n <= h->nframes ? h->frames[n - 1] : 0;
}

uint64_t vs_timeline_frame_count(const vs_timeline *h)
{
	return h->nframes;
}

/* Index of the first alloc / free after event e. */
static size_t allocs_after(const vs_timeline *h, uint64_t e)
{
	size_t lo = 0, hi = h->nallocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->allocs[mid].event <= e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t frees_after(const vs_timeline *h, uint64_t e)
{
	size_t lo = 0, hi = h->nfrees;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->frees[mid].event <= e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int alloc_matches(const vs_tl_alloc *al, int by_id, uint64_t key)
{
	return al && (by_id ? al->id == key : al->req.tag == key);
}

static int free_matches(const vs_timeline *h, const tl_free *f, int by_id, uint64_t key)
{
	if (by_id)
		return f->id == key;
	return f->alloc && alloc_matches(vs_timeline_alloc(h, f->alloc), 0, key);
}

const vs_tl_alloc *vs_timeline_event_alloc(const vs_timeline *h, uint64_t event)
{
	const vs_tl_event *ev = vs_timeline_event(h, event);
	size_t k;

	if (!ev)
		return NULL;
	if (ev->type == VS_EV_ALLOC)
		return vs_timeline_alloc(h, (uint32_t)event);
	if (ev->type != VS_EV_FREE)
		return NULL;
	k = frees_after(h, event);
	if (k == 0 || h->frees[k - 1].event != event || !h->frees[k - 1].alloc)
		return NULL;
	return vs_timeline_alloc(h, h->frees[k - 1].alloc);
}

uint64_t vs_timeline_find(const vs_timeline *h, uint64_t from, int dir, int by_id, uint64_t key)
{
	size_t a = allocs_after(h, dir > 0 ? from : (from ? from - 1 : 0));
	size_t f = frees_after(h, dir > 0 ? from : (from ? from - 1 : 0));
	uint64_t best_a = 0, best_f = 0;

	if (dir > 0) {
		for (; a < h->nallocs && !best_a; a++)
			if (alloc_matches(&h->allocs[a], by_id, key))
				best_a = h->allocs[a].event;
		for (; f < h->nfrees && !best_f; f++)
			if (free_matches(h, &h->frees[f], by_id, key))
				best_f = h->frees[f].event;
		if (!best_a || !best_f)
			return best_a | best_f;
		return best_a < best_f ? best_a : best_f;
	}
	if (from == 0)
		return 0;
	while (a > 0 && !best_a) {
		a--;
		if (alloc_matches(&h->allocs[a], by_id, key))
			best_a = h->allocs[a].event;
	}
	while (f > 0 && !best_f) {
		f--;
		if (free_matches(h, &h->frees[f], by_id, key))
			best_f = h->frees[f].event;
	}
	return best_a > best_f ? best_a : best_f;
}

const vs_tl_sample *vs_timeline_series(const vs_timeline *h, int side_i, int arena)
{
	if (side_i < 0 || side_i >= h->nsides || arena < 0 || arena >= h->narenas)
		return NULL;
	return h->s[side_i].series[arena];
}

size_t vs_timeline_bytes(const vs_timeline *h)
{
	size_t n = sizeof *h + h->capev * sizeof *h->ev + h->capallocs * sizeof *h->allocs +
		h->capframes * sizeof *h->frames + h->capfrees * sizeof *h->frees + h->capids * sizeof *h->ids;
	int i, a;

	for (i = 0; i < h->nsides; i++) {
		const side *s = &h->s[i];
		n += s->capd * sizeof *s->d + s->capevd * sizeof *s->evd + s->capck * sizeof *s->ck +
			s->capruns * sizeof *s->runs + s->capfails * sizeof *s->fails + s->capfk;
		for (a = 0; a < h->narenas; a++)
			n += s->capseries[a] * sizeof *s->series[a] + vs_ownmap_bytes(s->mo[a]) +
				vs_arena_meta_bytes(&s->view[a]);
	}
	return n;
}

size_t vs_timeline_checkpoints(const vs_timeline *h)
{
	return h->s[0].nck;
}
