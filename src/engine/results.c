/* SPDX-License-Identifier: Zlib */
/* results.c - every call's result out of a replay: failures, per-tag
 * table, event log (JSON Lines) and series (CSV). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "engine/results.h"
#include "base/text.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"

#define MSGS_MAX 8    /* diagnostics kept for one event's log line */
#define MSG_LEN 512

typedef struct tag_table {
	vs_tag_stats *v;
	uint32_t n;
} tag_table;

/* What an arena did since the last series row. */
typedef struct window {
	uint64_t allocs, frees, failures, loaded, moved;
} window;

struct vs_results {
	FILE *events, *series;
	int write_failed;
	vs_message_fn pass;      /* the message function found in the config */
	void *pass_ud;
	vs_failure *fail;
	size_t nfail, fail_cap;
	uint64_t fail_total;
	tag_table tags[VS_TRACE_MAX_ARENAS];
	vs_peak peak[VS_TRACE_MAX_ARENAS];
	uint64_t frag_fails[VS_TRACE_MAX_ARENAS], moves_known[VS_TRACE_MAX_ARENAS], move_bytes[VS_TRACE_MAX_ARENAS];
	uint64_t seen_moves[VS_TRACE_MAX_ARENAS], seen_moved[VS_TRACE_MAX_ARENAS]; /* metrics at the last event */
	uint32_t tag_span;
	window win[2][VS_TRACE_MAX_ARENAS]; /* since the last frame row, since the last event row */
	uint64_t rows_at;        /* event of the last series row */
	FILE *by_event;          /* rows per event, kept until a frame statement shows the trace has frames */
	int framed;              /* a frame statement was seen: rows per frame */
	int oom;
	char msg[MSGS_MAX][MSG_LEN];
	int nmsg;
	uint64_t msg_extra;      /* messages of this event past MSGS_MAX */
};

vs_results *vs_results_new(FILE *events, FILE *series)
{
	vs_results *x = calloc(1, sizeof *x);

	if (x) {
		x->events = events;
		x->series = series;
	}
	return x;
}

void vs_results_free(vs_results *x)
{
	int a;

	if (!x)
		return;
	for (a = 0; a < VS_TRACE_MAX_ARENAS; a++)
		free(x->tags[a].v);
	if (x->by_event)
		fclose(x->by_event);
	free(x->fail);
	free(x);
}

/* ---- collecting -------------------------------------------------------- */

static vs_tag_stats *tag_stats(vs_results *x, uint32_t arena, uint32_t tag)
{
	tag_table *t = &x->tags[arena];

	if (tag >= t->n) {
		uint32_t n = t->n;
		if (vs_grow_u32(&t->v, sizeof *t->v, &t->n, (size_t)tag + 1, 16)) {
			x->oom = 1;
			return NULL;
		}
		memset(t->v + n, 0, (t->n - n) * sizeof *t->v);
	}
	if (tag >= x->tag_span)
		x->tag_span = tag + 1;
	return &t->v[tag];
}

/* The fewest bytes that must move for size bytes to fit in arena a: over
 * every window of units long enough, the granted bytes of the live
 * allocations it touches (each once per run of its units); a window may
 * not hold units the hardware or the allocator keep, or freed memory an
 * allocator retains. A lower bound: the moved allocations must still find
 * room elsewhere (checked only as total free bytes), and hardware placement
 * rules are not applied to the window.
 *
 * The arena is read as segments (maximal runs of one owner, or of free
 * units) between walls (units no window may hold). A window's price only
 * drops when its start passes a segment's end, so the cheapest window
 * starts where a zone or a segment starts: two pointers over segments, the
 * cost of a failure proportional to the runs, not to the arena's size. */
typedef struct move_seg {
	uint32_t first, end;  /* units [first, end) */
	uint32_t owner;
	int wall;
	uint64_t cost;        /* granted bytes of its allocation, 0 when free */
} move_seg;

typedef struct move_segs {
	const vs_replay *r;
	move_seg *v;
	size_t n, cap;
	int oom;
} move_segs;

static int add_run(void *ud, const vs_own_run *run)
{
	move_segs *m = ud;
	uint32_t o = run->owner;
	const vs_live *l = NULL;
	int wall = o == VS_OWNER_HW || o == VS_OWNER_ALLOC || run->kind == VS_UNIT_RETAINED ||
		(o != VS_OWNER_NONE && (!(l = vs_replay_live_by_owner(m->r, o)) || l->retained));
	move_seg *g = m->n ? &m->v[m->n - 1] : NULL;

	if (g && g->end == run->first && g->wall == wall && (wall || g->owner == o)) {
		g->end = run->first + run->count;
		return 0;
	}
	if (m->n == m->cap && vs_grow(&m->v, sizeof *m->v, &m->cap, m->n + 1, 256)) {
		m->oom = 1;
		return 1;
	}
	g = &m->v[m->n++];
	g->first = run->first;
	g->end = run->first + run->count;
	g->owner = o;
	g->wall = wall;
	g->cost = !wall && o != VS_OWNER_NONE ? l->pl.granted : 0;
	return 0;
}

static uint64_t fewest_to_move(const vs_replay *r, int a, uint64_t size)
{
	const vs_arena *A = vs_replay_arena(r, a);
	uint64_t n = (size + A->decl.unit - 1) / A->decl.unit, best = VS_MOVE_UNKNOWN, cost = 0, free_units;
	move_segs m = { r, NULL, 0, 0, 0 };
	size_t i, j = 0;

	if (n == 0 || n > A->nunits)
		return VS_MOVE_UNKNOWN;
	vs_arena_runs(A, 0, A->nunits, add_run, &m);
	if (m.oom) {
		free(m.v);
		return VS_MOVE_UNKNOWN;
	}
	free_units = vs_replay_metrics(r, a)->free_bytes / A->decl.unit;
	/* window [m.v[i].first, +n) covers segments i..j-1; cost is theirs */
	for (i = 0; i < m.n; i++) {
		uint64_t end;
		if (m.v[i].wall) {
			j = i + 1;
			cost = 0;
			continue;
		}
		if (j < i + 1) {
			j = i;
			cost = 0;
		}
		end = (uint64_t)m.v[i].first + n;
		while (j < m.n && !m.v[j].wall && m.v[j].first < end)
			cost += m.v[j++].cost;
		/* short of n units before a wall or the end: no window here */
		if (m.v[j - 1].end >= end && cost < best && cost / A->decl.unit <= free_units)
			best = cost;
		cost -= m.v[i].cost;
	}
	free(m.v);
	return best;
}

static void keep_failure(vs_results *x, vs_replay *r, const vs_outcome *o)
{
	const vs_metrics *m = vs_replay_metrics(r, o->ev->arena);
	uint64_t move = VS_MOVE_UNKNOWN;
	vs_failure *f;

	if (o->fail_kind == VS_FAIL_FRAGMENTED) {
		move = fewest_to_move(r, o->ev->arena, o->ev->req.size);
		x->frag_fails[o->ev->arena]++;
		if (move != VS_MOVE_UNKNOWN) {
			x->moves_known[o->ev->arena]++;
			x->move_bytes[o->ev->arena] += move;
		}
	}
	x->fail_total++;
	if (x->nfail == VS_RESULTS_FAILURES_KEPT)
		return;
	if (x->nfail == x->fail_cap && vs_grow(&x->fail, sizeof *x->fail, &x->fail_cap, x->nfail + 1, 64)) {
		x->oom = 1;
		return;
	}
	f = &x->fail[x->nfail++];
	f->event = o->event;
	f->line = o->ev->line;
	f->frame = vs_replay_frames(r);
	f->id = o->ev->id;
	f->arena = (uint32_t)o->ev->arena;
	f->tag = o->ev->req.tag;
	f->req = o->ev->req;
	f->kind = o->fail_kind;
	f->status = o->status;
	f->free_bytes = m->free_bytes;
	f->largest_free = m->largest_free;
	f->to_move = move;
}

static void count(vs_results *x, vs_replay *r, const vs_outcome *o)
{
	const vs_event *ev = o->ev;
	vs_tag_stats *t;
	window *w, *e;

	if (ev->arena < 0 || ev->arena >= vs_replay_arena_count(r))
		return;
	w = x->win[0] + ev->arena;
	e = x->win[1] + ev->arena;
	if (ev->type == VS_EV_ALLOC) {
		if (!(t = tag_stats(x, (uint32_t)ev->arena, ev->req.tag)))
			return;
		if (o->failed) {
			t->failures++;
			w->failures++;
			e->failures++;
			keep_failure(x, r, o);
			return;
		}
		if (!o->live)
			return; /* a misuse (a live id), not a call */
		t->allocs++;
		w->allocs++;
		e->allocs++;
		if (o->live->refs == 1) { /* new data, not a hit on data already there */
			t->live_bytes += o->live->req.size;
			if (t->live_bytes > t->peak_live)
				t->peak_live = t->live_bytes;
			w->loaded += o->live->pl.granted;
			e->loaded += o->live->pl.granted;
		}
	} else if (ev->type == VS_EV_FREE && o->live) {
		if (!(t = tag_stats(x, (uint32_t)ev->arena, o->live->req.tag)))
			return;
		t->frees++;
		w->frees++;
		e->frees++;
		if (o->released && t->live_bytes >= o->live->req.size)
			t->live_bytes -= o->live->req.size;
	}
}

/* ---- the event log ------------------------------------------------------ */

static void log_event(vs_results *x, vs_replay *r, const vs_outcome *o, uint64_t nmoves, uint64_t moved)
{
	const vs_event *ev = o->ev;
	FILE *fp = x->events;
	char what[128];
	int i;

	fprintf(fp, "{\"event\":%llu,\"line\":%llu,\"frame\":%llu,\"kind\":\"%s\"", (unsigned long long)o->event,
		(unsigned long long)ev->line, (unsigned long long)vs_replay_frames(r), vs_trace_event_name(ev->type));
	if (ev->arena >= 0 && ev->arena < vs_replay_arena_count(r)) {
		fputs(",\"arena\":", fp);
		vs_text_json(fp, vs_replay_arena(r, ev->arena)->decl.name);
	}
	if (ev->type == VS_EV_ALLOC || ev->type == VS_EV_FREE || ev->type == VS_EV_MOVE) {
		const vs_request *rq = ev->type == VS_EV_ALLOC ? &ev->req : o->live ? &o->live->req : NULL;
		fprintf(fp, ",\"id\":%llu", (unsigned long long)ev->id);
		if (rq && rq->tag) {
			fputs(",\"tag\":", fp);
			vs_text_json(fp, vs_replay_tag_name(r, rq->tag));
		}
		if (rq) {
			vs_request_describe(rq, what, sizeof what);
			fputs(",\"request\":", fp);
			vs_text_json(fp, what);
			fprintf(fp, ",\"bytes\":%u", (unsigned)rq->size);
		}
		fputs(",\"status\":", fp);
		vs_text_json(fp, vs_strategy_status_name(o->status));
		fprintf(fp, ",\"code\":%d", o->status);
		if (o->live) {
			const vs_arena_decl *d = &vs_replay_arena(r, (int)o->live->arena)->decl;
			fprintf(fp, ",\"offset\":%u,\"address\":%llu,\"granted\":%u,\"key\":%u", (unsigned)o->live->pl.offset,
				(unsigned long long)d->base + o->live->pl.offset, (unsigned)o->live->pl.granted,
				(unsigned)o->live->pl.key);
			if (ev->type == VS_EV_ALLOC)
				fprintf(fp, ",\"hit\":%s", o->live->refs > 1 || o->live->pl.shared ? "true" : "false");
			else if (ev->type == VS_EV_FREE)
				fprintf(fp, ",\"released\":%s", o->released ? "true" : "false");
		}
		if (o->failed) {
			const vs_metrics *m = vs_replay_metrics(r, ev->arena);
			fputs(",\"key\":0,\"failure\":", fp); /* the error key: what NNS_GfdAlloc* return */
			vs_text_json(fp, vs_replay_fail_kind_name(o->fail_kind));
			fprintf(fp, ",\"free_bytes\":%llu,\"largest_free\":%llu", (unsigned long long)m->free_bytes,
				(unsigned long long)m->largest_free);
		}
	} else if (ev->name) {
		fputs(",\"name\":", fp);
		vs_text_json(fp, ev->name);
	}
	if (nmoves)
		fprintf(fp, ",\"moves\":%llu,\"moved_bytes\":%llu", (unsigned long long)nmoves, (unsigned long long)moved);
	if (x->nmsg) {
		fputs(",\"diagnostics\":[", fp);
		for (i = 0; i < x->nmsg; i++) {
			if (i)
				fputc(',', fp);
			vs_text_json(fp, x->msg[i]);
		}
		fputc(']', fp);
		if (x->msg_extra)
			fprintf(fp, ",\"diagnostics_not_shown\":%llu", (unsigned long long)x->msg_extra);
	}
	fputs("}\n", fp);
	if (ferror(fp))
		x->write_failed = 1;
}

/* ---- the series --------------------------------------------------------- */

static void series_header(FILE *fp, const char *x_axis)
{
	fprintf(fp, "%s,arena,live,granted,free,largest_free,free_extents,fragmentation,allocations,frees,"
		"failures,bytes_loaded,bytes_moved\n", x_axis);
}

/* One row per arena at x-axis value at, into fp, counting window set k
 * (0 frames, 1 events), which restarts. */
static void series_rows(vs_results *x, vs_replay *r, FILE *fp, uint64_t at, int k)
{
	int a;

	for (a = 0; a < vs_replay_arena_count(r); a++) {
		const vs_metrics *m = vs_replay_metrics(r, a);
		window *w = &x->win[k][a];
		fprintf(fp, "%llu,", (unsigned long long)at);
		vs_text_csv(fp, vs_replay_arena(r, a)->decl.name);
		fprintf(fp, ",%llu,%llu,%llu,%llu,%llu,%.6f,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)m->live_bytes,
			(unsigned long long)m->granted_bytes, (unsigned long long)m->free_bytes,
			(unsigned long long)m->largest_free, (unsigned long long)m->free_extents, m->frag,
			(unsigned long long)w->allocs, (unsigned long long)w->frees, (unsigned long long)w->failures,
			(unsigned long long)w->loaded, (unsigned long long)w->moved);
		memset(w, 0, sizeof *w);
	}
	if (ferror(fp))
		x->write_failed = 1;
}

/* Whether the trace has frames is known at its first frame statement: rows
 * per event go to a scratch file until then, and are dropped when one comes
 * (the first frame's row sums those events). */
static void series_event(vs_results *x, vs_replay *r, const vs_outcome *o)
{
	if (o->ev->type == VS_EV_FRAME) {
		if (!x->framed) {
			x->framed = 1;
			if (x->by_event)
				fclose(x->by_event);
			x->by_event = NULL;
			series_header(x->series, "frame");
		}
		series_rows(x, r, x->series, vs_replay_frames(r), 0);
		x->rows_at = o->event;
		return;
	}
	if (x->framed)
		return;
	if (!x->by_event) {
		if (!(x->by_event = tmpfile())) {
			x->write_failed = 1;
			return;
		}
		series_header(x->by_event, "event");
	}
	series_rows(x, r, x->by_event, o->event, 1);
	x->rows_at = o->event;
}

/* ---- hooks -------------------------------------------------------------- */

static void track_peak(vs_results *x, vs_replay *r, const vs_outcome *o)
{
	const vs_metrics *m;
	vs_peak *p;

	if (o->ev->arena < 0 || o->ev->arena >= vs_replay_arena_count(r))
		return;
	m = vs_replay_metrics(r, o->ev->arena);
	p = &x->peak[o->ev->arena];
	if (m->live_bytes <= p->live_bytes)
		return;
	p->event = o->event;
	p->live_bytes = m->live_bytes;
	p->free_extents = m->free_extents;
	p->largest_free = m->largest_free;
	p->internal = (m->granted_bytes >= m->live_bytes ? m->granted_bytes - m->live_bytes : 0) + m->overhead_bytes;
}

/* Moves since the last event, per arena (a strategy's, at an alloc or a
 * frame; a game's): into the windows and, for the log, *n and *bytes. */
static void count_moves(vs_results *x, vs_replay *r, uint64_t *n, uint64_t *bytes)
{
	int a;

	*n = *bytes = 0;
	for (a = 0; a < vs_replay_arena_count(r); a++) {
		const vs_metrics *m = vs_replay_metrics(r, a);
		uint64_t dn = m->moves - x->seen_moves[a], db = m->moved_bytes - x->seen_moved[a];
		x->win[0][a].moved += db;
		x->win[1][a].moved += db;
		*n += dn;
		*bytes += db;
		x->seen_moves[a] = m->moves;
		x->seen_moved[a] = m->moved_bytes;
	}
}

static void on_event(void *ud, vs_replay *r, const vs_outcome *o)
{
	vs_results *x = ud;
	uint64_t nmoves, moved;

	count(x, r, o);
	count_moves(x, r, &nmoves, &moved);
	track_peak(x, r, o);
	if (x->events)
		log_event(x, r, o, nmoves, moved);
	x->nmsg = 0;
	x->msg_extra = 0;
	if (x->series)
		series_event(x, r, o);
}

static void on_message(void *ud, const char *line)
{
	vs_results *x = ud;

	if (x->nmsg < MSGS_MAX)
		snprintf(x->msg[x->nmsg++], MSG_LEN, "%s", line);
	else
		x->msg_extra++;
	if (x->pass)
		x->pass(x->pass_ud, line);
	else
		fprintf(stderr, "%s\n", line);
}

void vs_results_attach(vs_results *x, vs_replay_config *cfg)
{
	x->pass = cfg->message;
	x->pass_ud = cfg->message_ud;
	cfg->observer = on_event;
	cfg->observer_ud = x;
	cfg->message = on_message;
	cfg->message_ud = x;
}

int vs_results_finish(vs_results *x, vs_replay *r)
{
	char buf[8192];
	size_t n;

	if (x->series && x->framed && vs_replay_events(r) > x->rows_at)
		series_rows(x, r, x->series, vs_replay_frames(r) + 1, 0); /* the events after the last frame */
	if (x->series && !x->framed) {
		if (!x->by_event)
			series_header(x->series, "event"); /* an empty trace: the header alone */
		else if (fflush(x->by_event) == 0 && fseek(x->by_event, 0, SEEK_SET) == 0)
			while ((n = fread(buf, 1, sizeof buf, x->by_event)) > 0)
				if (fwrite(buf, 1, n, x->series) != n)
					x->write_failed = 1;
		if (x->by_event && ferror(x->by_event))
			x->write_failed = 1;
	}
	if (x->by_event)
		fclose(x->by_event);
	x->by_event = NULL;
	if (x->series && ferror(x->series))
		x->write_failed = 1;
	return x->write_failed || x->oom ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------ */

uint64_t vs_results_failure_total(const vs_results *x) { return x->fail_total; }
size_t vs_results_failure_count(const vs_results *x) { return x->nfail; }
const vs_failure *vs_results_failure(const vs_results *x, size_t i) { return i < x->nfail ? &x->fail[i] : NULL; }
uint32_t vs_results_tag_span(const vs_results *x) { return x->tag_span; }

const vs_tag_stats *vs_results_tag(const vs_results *x, uint32_t arena, uint32_t tag)
{
	const vs_tag_stats *t;

	if (arena >= VS_TRACE_MAX_ARENAS || tag >= x->tags[arena].n)
		return NULL;
	t = &x->tags[arena].v[tag];
	return t->allocs || t->failures || t->frees ? t : NULL;
}

const vs_peak *vs_results_peak(const vs_results *x, int arena)
{
	return arena >= 0 && arena < VS_TRACE_MAX_ARENAS ? &x->peak[arena] : NULL;
}

void vs_results_moves(const vs_results *x, int a, uint64_t *frag_failures, uint64_t *computed, uint64_t *bytes)
{
	*frag_failures = a >= 0 && a < VS_TRACE_MAX_ARENAS ? x->frag_fails[a] : 0;
	*computed = a >= 0 && a < VS_TRACE_MAX_ARENAS ? x->moves_known[a] : 0;
	*bytes = a >= 0 && a < VS_TRACE_MAX_ARENAS ? x->move_bytes[a] : 0;
}
