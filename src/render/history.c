/* SPDX-License-Identifier: Zlib */
/* history.c - a bounded record of a replay for heatmaps and charts.
 *
 * Samples are taken every `stride` events; when the columns fill up, pairs
 * merge and the stride doubles, so a replay of any length costs at most
 * `columns` samples per arena. A sample redraws only the address rows whose
 * units changed since the last one (told by on_mark), so sampling stays
 * cheap even for the 64 Ki-unit DS texture space.
 *
 * A window (--from / --to) limits what is drawn: every event is observed,
 * so rows changed before the window are dirty at its first sample, but
 * columns, failures and peaks come only from the events inside it; `base`
 * (the events before it) is the time axis' offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "render/history.h"
#include "render/render.h"
#include "render/window.h"
#include "vram/arena.h"

#define ROW_SAMPLES 16
#define FAIL_KEEP 65536u /* failure events kept per arena (ticks on a time line) */

typedef struct harena {
	uint32_t nunits, unit, base, size;
	uint64_t usable;
	int rows;
	uint32_t *cell;    /* cols_max * rows colours, column-major */
	uint8_t *occ;      /* cols_max * rows occupancy 0-255 */
	uint32_t *cur_cell;
	uint8_t *cur_occ;
	uint8_t *dirty;
	uint32_t step_m;   /* the row length in units step[] is for, 0 none */
	uint32_t step[ROW_SAMPLES]; /* where a row's samples are: no division per sample */
	uint64_t *live, *largest;
	double *frag;
	int b_any;         /* the bucket being filled */
	uint64_t b_live, b_largest;
	double b_frag;
	uint64_t *fail;
	size_t nfail, capfail;
	uint64_t fail_gap;    /* events between two failures kept (1, then 2, 4...) */
	uint64_t fail_total;  /* events with a failure, all of them */
	uint64_t peak_live, peak_live_ev, peak_frag_ev;
	double peak_frag;
	char name[VS_NAME_MAX];
} harena;

typedef struct htag {
	uint32_t colour;
	uint8_t known, seen;
	char *name;
} htag;

struct vs_history {
	int cols_max, rows_max;
	int bound, marks_seen, nomem;
	int narenas;
	int ncols;
	uint64_t stride, events, frames;
	uint64_t *col_event;
	uint64_t *col_frame;    /* frame statements before each column's event */
	harena a[VS_TRACE_MAX_ARENAS];
	htag *tags;
	uint32_t ntags;
	const vs_replay *r; /* valid while bound and the replay lives */
	vs_colour_by colour_by;
	vs_window win;
	uint64_t base;          /* events before the window: the x offset */
	uint64_t first_ev, last_ev, first_frame; /* drawn: first and last event, frame at the first */
	uint64_t frames_total;  /* frame statements in all the events observed */
	int in, closed;         /* the event being reported is drawn; the window has ended */
};

vs_history *vs_history_new(int columns, int rows)
{
	vs_history *hs = calloc(1, sizeof *hs);

	if (!hs)
		return NULL;
	if (columns <= 0)
		columns = 1024;
	if (rows <= 0)
		rows = 256;
	hs->cols_max = columns < 4 ? 4 : columns & ~1; /* even, so pairs merge */
	hs->rows_max = rows;
	hs->stride = 1;
	return hs;
}

static void arena_fini(harena *a)
{
	free(a->cell);
	free(a->occ);
	free(a->cur_cell);
	free(a->cur_occ);
	free(a->dirty);
	free(a->live);
	free(a->largest);
	free(a->frag);
	free(a->fail);
}

void vs_history_free(vs_history *hs)
{
	int i;
	uint32_t t;

	if (!hs)
		return;
	for (i = 0; i < hs->narenas; i++)
		arena_fini(&hs->a[i]);
	for (t = 0; t < hs->ntags; t++)
		free(hs->tags[t].name);
	free(hs->tags);
	free(hs->col_event);
	free(hs->col_frame);
	free(hs);
}

static int bind(vs_history *hs, const vs_replay *r)
{
	int i;

	hs->r = r;
	if (hs->bound)
		return hs->nomem ? -1 : 0;
	hs->bound = 1;
	hs->narenas = vs_replay_arena_count(r);
	hs->col_event = calloc((size_t)hs->cols_max, sizeof *hs->col_event);
	hs->col_frame = calloc((size_t)hs->cols_max, sizeof *hs->col_frame);
	if (!hs->col_event || !hs->col_frame)
		hs->nomem = 1;
	for (i = 0; i < hs->narenas && !hs->nomem; i++) {
		harena *a = &hs->a[i];
		const vs_arena *ar = vs_replay_arena(r, i);
		size_t cells;
		a->nunits = ar->nunits;
		a->unit = ar->decl.unit;
		a->base = ar->decl.base;
		a->size = ar->decl.size;
		a->usable = ar->usable_bytes;
		snprintf(a->name, sizeof a->name, "%s", ar->decl.name);
		a->rows = (int)(a->nunits < (uint32_t)hs->rows_max ? a->nunits : (uint32_t)hs->rows_max);
		if (a->rows < 1)
			a->rows = 1;
		cells = (size_t)hs->cols_max * (size_t)a->rows;
		a->cell = calloc(cells, sizeof *a->cell);
		a->occ = calloc(cells, 1);
		a->cur_cell = calloc((size_t)a->rows, sizeof *a->cur_cell);
		a->cur_occ = calloc((size_t)a->rows, 1);
		a->dirty = malloc((size_t)a->rows);
		a->live = calloc((size_t)hs->cols_max, sizeof *a->live);
		a->largest = calloc((size_t)hs->cols_max, sizeof *a->largest);
		a->frag = calloc((size_t)hs->cols_max, sizeof *a->frag);
		if (!a->cell || !a->occ || !a->cur_cell || !a->cur_occ || !a->dirty || !a->live || !a->largest ||
			!a->frag) {
			hs->nomem = 1;
			break;
		}
		memset(a->dirty, 1, (size_t)a->rows);
	}
	return hs->nomem ? -1 : 0;
}

void vs_history_mark(void *ud, int arena, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	vs_history *hs = ud;
	harena *a;
	uint64_t u0, u1;
	int y0, y1;

	(void)owner;
	(void)kind;
	hs->marks_seen = 1;
	if (!hs->bound || arena < 0 || arena >= hs->narenas || !len)
		return;
	a = &hs->a[arena];
	if (!a->dirty || !a->unit)
		return;
	u0 = off / a->unit;
	u1 = ((uint64_t)off + len - 1) / a->unit;
	if (u1 >= a->nunits)
		u1 = a->nunits - 1;
	if (u0 > u1)
		return;
	/* one row of slack either side for the rounding of row bounds */
	y0 = (int)(u0 * (uint64_t)a->rows / a->nunits) - 1;
	y1 = (int)(u1 * (uint64_t)a->rows / a->nunits) + 1;
	if (y0 < 0)
		y0 = 0;
	if (y1 >= a->rows)
		y1 = a->rows - 1;
	memset(a->dirty + y0, 1, (size_t)(y1 - y0 + 1));
}

static uint32_t mix(uint32_t a, uint32_t b, unsigned wa, unsigned wb)
{
	unsigned i, out = 0;

	if (wa + wb == 0)
		return a;
	for (i = 8; i < 32; i += 8) {
		unsigned x = (a >> i & 255) * wa + (b >> i & 255) * wb;
		out |= (x / (wa + wb)) << i;
	}
	return out | 0xFFu;
}

static htag *tag_entry(vs_history *hs, uint32_t tag)
{
	if (tag >= hs->ntags) {
		uint32_t n = hs->ntags;
		if (vs_grow_u32(&hs->tags, sizeof *hs->tags, &hs->ntags, (size_t)tag + 1, 16))
			return NULL;
		memset(hs->tags + n, 0, (hs->ntags - n) * sizeof *hs->tags);
	}
	return &hs->tags[tag];
}

static uint32_t owner_colour(vs_history *hs, uint32_t owner)
{
	const vs_live *l = vs_replay_live_by_owner(hs->r, owner);
	uint32_t tag = l ? l->req.tag : 0;
	htag *t;

	if (hs->colour_by)
		return vs_colour_live(l, hs->colour_by, hs->events);
	t = tag_entry(hs, tag);

	if (!t)
		return VS_RGB_UNTAGGED;
	if (!t->known) {
		const char *name = tag ? vs_replay_tag_name(hs->r, tag) : NULL;
		t->known = 1;
		t->colour = vs_colour_tag_id(tag);
		if (name && !t->name) {
			t->name = malloc(strlen(name) + 1);
			if (t->name)
				memcpy(t->name, name, strlen(name) + 1);
		}
	}
	t->seen = 1;
	return t->colour;
}

static void sample_row(vs_history *hs, const vs_arena *ar, harena *a, int y)
{
	uint32_t u0 = (uint32_t)((uint64_t)y * a->nunits / (uint32_t)a->rows);
	uint32_t u1 = (uint32_t)((uint64_t)(y + 1) * a->nunits / (uint32_t)a->rows);
	uint32_t m = u1 > u0 ? u1 - u0 : 1, k = m < ROW_SAMPLES ? m : ROW_SAMPLES, i, d = 0, nd = 0;
	uint32_t owners[ROW_SAMPLES], count[ROW_SAMPLES], best = 0, bestn = 0;
	uint8_t kinds[ROW_SAMPLES];
	unsigned used = 0, reserved = 0;
	uint32_t c;
	vs_own_run run = { 0, 0, VS_OWNER_NONE, VS_UNIT_FREE };

	if (m != a->step_m) {
		for (i = 0; i < k; i++)
			a->step[i] = (uint32_t)((uint64_t)i * m / k);
		a->step_m = m;
	}
	/* The row shows the owner of the most used samples, with the kind of
	 * its first one (ties: the owner sampled first). Counted per owner
	 * (owners[], kinds[] and count[] in the order first sampled) as the
	 * samples are taken: samples go up, so one map look-up and one search
	 * of the owners per run, the owner seen last tried first. */
	for (i = 0; i < k; i++) {
		uint32_t u = u0 + a->step[i];
		if (u >= a->nunits)
			u = a->nunits - 1;
		if (u - run.first >= run.count) {
			vs_arena_run_at(ar, u, &run);
			if (run.kind != VS_UNIT_FREE && run.kind != VS_UNIT_RESERVED) {
				for (d = nd; d > 0 && owners[d - 1] != run.owner; d--)
					;
				if (!d) {
					owners[nd] = run.owner;
					kinds[nd] = (uint8_t)run.kind;
					count[nd++] = 0;
					d = nd;
				}
			}
		}
		if (run.kind == VS_UNIT_RESERVED) {
			reserved++;
		} else if (run.kind != VS_UNIT_FREE) {
			used++;
			count[d - 1]++;
		}
	}
	if (!used) {
		a->cur_occ[y] = 0;
		a->cur_cell[y] = reserved * 2 > k ? VS_RGB_RESERVED : VS_RGB_FREE;
		return;
	}
	for (d = 0; d < nd; d++)
		if (count[d] > bestn) {
			bestn = count[d];
			best = d;
		}
	switch (kinds[best]) {
	case VS_UNIT_OVERHEAD:
		c = VS_RGB_OVERHEAD;
		break;
	case VS_UNIT_SLACK:
		c = mix(owner_colour(hs, owners[best]), VS_RGB_FREE, 1, 1);
		break;
	case VS_UNIT_RETAINED:
		c = mix(owner_colour(hs, owners[best]), VS_RGB_FREE, 1, 3);
		break;
	default:
		c = owner_colour(hs, owners[best]);
		break;
	}
	a->cur_occ[y] = (uint8_t)(used * 255 / k);
	a->cur_cell[y] = mix(c, VS_RGB_FREE, used, k - used);
}

static void merge(vs_history *hs)
{
	int c, i, half = hs->cols_max / 2;

	for (c = 0; c < half; c++) {
		hs->col_event[c] = hs->col_event[2 * c + 1];
		hs->col_frame[c] = hs->col_frame[2 * c + 1];
		for (i = 0; i < hs->narenas; i++) {
			harena *a = &hs->a[i];
			size_t rows = (size_t)a->rows;
			memmove(a->cell + (size_t)c * rows, a->cell + (size_t)(2 * c + 1) * rows, rows * sizeof *a->cell);
			memmove(a->occ + (size_t)c * rows, a->occ + (size_t)(2 * c + 1) * rows, rows);
			a->live[c] = a->live[2 * c] > a->live[2 * c + 1] ? a->live[2 * c] : a->live[2 * c + 1];
			a->largest[c] = a->largest[2 * c] < a->largest[2 * c + 1] ? a->largest[2 * c] : a->largest[2 * c + 1];
			a->frag[c] = a->frag[2 * c] > a->frag[2 * c + 1] ? a->frag[2 * c] : a->frag[2 * c + 1];
		}
	}
	hs->ncols = half;
	hs->stride *= 2;
}

/* A column: the state now, as the state after event ev in frame. */
static void take_sample(vs_history *hs, const vs_replay *r, uint64_t ev, uint64_t frame)
{
	int i, y, c;

	if (hs->ncols == hs->cols_max)
		merge(hs);
	c = hs->ncols++;
	hs->col_event[c] = ev;
	hs->col_frame[c] = hs->frames = frame;
	for (i = 0; i < hs->narenas; i++) {
		harena *a = &hs->a[i];
		const vs_arena *ar = vs_replay_arena(r, i);
		const vs_metrics *m = vs_replay_metrics(r, i);
		for (y = 0; y < a->rows; y++)
			if (a->dirty[y] || !hs->marks_seen) {
				sample_row(hs, ar, a, y);
				a->dirty[y] = 0;
			}
		memcpy(a->cell + (size_t)c * (size_t)a->rows, a->cur_cell, (size_t)a->rows * sizeof *a->cell);
		memcpy(a->occ + (size_t)c * (size_t)a->rows, a->cur_occ, (size_t)a->rows);
		if (!a->b_any) {
			a->b_live = m->live_bytes;
			a->b_largest = m->largest_free;
			a->b_frag = m->frag;
		}
		a->live[c] = a->b_live;
		a->largest[c] = a->b_largest;
		a->frag[c] = a->b_frag;
		a->b_any = 0;
	}
}

static void note_metrics(vs_history *hs, const vs_replay *r)
{
	int i;

	for (i = 0; i < hs->narenas; i++) {
		harena *a = &hs->a[i];
		const vs_metrics *m = vs_replay_metrics(r, i);
		if (!a->b_any) {
			a->b_any = 1;
			a->b_live = m->live_bytes;
			a->b_largest = m->largest_free;
			a->b_frag = m->frag;
		} else {
			if (m->live_bytes > a->b_live)
				a->b_live = m->live_bytes;
			if (m->largest_free < a->b_largest)
				a->b_largest = m->largest_free;
			if (m->frag > a->b_frag)
				a->b_frag = m->frag;
		}
		if (m->live_bytes > a->peak_live) {
			a->peak_live = m->live_bytes;
			a->peak_live_ev = hs->events;
		}
		if (m->frag > a->peak_frag) {
			a->peak_frag = m->frag;
			a->peak_frag_ev = hs->events;
		}
	}
}

static void note_failure(vs_history *hs, const vs_outcome *o)
{
	harena *a;

	if (!o->failed || !o->ev || o->ev->arena < 0 || o->ev->arena >= hs->narenas)
		return;
	a = &hs->a[o->ev->arena];
	if (!a->nfail || a->fail[a->nfail - 1] != o->event)
		a->fail_total++;
	if (!a->fail_gap)
		a->fail_gap = 1;
	if (a->nfail == FAIL_KEEP) {
		/* memory stays bounded with millions of failures: every
		 * other one goes, later ones are kept twice as far apart */
		size_t k;
		for (k = 0; 2 * k < a->nfail; k++)
			a->fail[k] = a->fail[2 * k];
		a->nfail = k;
		a->fail_gap *= 2;
	}
	if (!a->nfail || o->event >= a->fail[a->nfail - 1] + a->fail_gap) {
		/* out of memory: this failure is not marked */
		if (a->nfail == a->capfail)
			vs_grow(&a->fail, sizeof *a->fail, &a->capfail, a->nfail + 1, 64);
		if (a->nfail < a->capfail)
			a->fail[a->nfail++] = o->event;
	}
}

/* The last column is at the window's last event (the state has not
 * changed since: a frame statement ends a window of frames). */
static void close_window(vs_history *hs, const vs_replay *r, uint64_t frame)
{
	if (!hs->closed && hs->first_ev && (!hs->ncols || hs->col_event[hs->ncols - 1] != hs->last_ev))
		take_sample(hs, r, hs->last_ev, frame);
	hs->closed = 1;
}

/* Whether event ev (frames after it) is drawn; opens the window at its
 * first event (peaks start there) and closes it after its last. */
static int enter(vs_history *hs, const vs_replay *r, uint64_t ev, uint64_t frames)
{
	const vs_window *w = &hs->win;
	uint64_t at = w->unit == VS_WINDOW_FRAMES ? frames : ev;
	int i;

	if (hs->closed)
		return 0;
	if (w->unit == VS_WINDOW_ALL) {
		hs->last_ev = ev;
		return 1;
	}
	if (w->has_from && at < w->from)
		return 0;
	if (w->has_to && at > w->to) {
		close_window(hs, r, w->unit == VS_WINDOW_FRAMES ? w->to : frames);
		return 0;
	}
	if (!hs->first_ev) {
		hs->first_ev = ev;
		hs->first_frame = frames;
		/* a window of events starts at its number, one of frames at the
		 * frame statement that opens it (frame 0 at the start) */
		hs->base = w->unit == VS_WINDOW_EVENTS ? (w->has_from ? w->from - 1 : 0) :
			w->has_from && w->from ? ev - 1 : 0;
		for (i = 0; i < hs->narenas; i++) {
			const vs_metrics *m = vs_replay_metrics(r, i);
			hs->a[i].peak_live = m->live_bytes;
			hs->a[i].peak_live_ev = ev;
			hs->a[i].peak_frag = m->frag;
			hs->a[i].peak_frag_ev = ev;
		}
	}
	hs->last_ev = ev;
	return 1;
}

void vs_history_observe(vs_history *hs, vs_replay *r, const vs_outcome *o)
{
	uint64_t frames;

	if (bind(hs, r))
		return;
	if (o->event <= hs->events) {
		/* another report for the same event (one per arena) */
		if (hs->in) {
			note_failure(hs, o);
			note_metrics(hs, r);
		}
		return;
	}
	hs->events = o->event;
	frames = vs_replay_frames(r);
	if (frames > hs->frames_total)
		hs->frames_total = frames;
	if (!(hs->in = enter(hs, r, o->event, frames)))
		return;
	note_failure(hs, o);
	note_metrics(hs, r);
	if ((hs->events - hs->base) % hs->stride == 0)
		take_sample(hs, r, hs->events, frames);
	if (hs->win.unit == VS_WINDOW_EVENTS && hs->win.has_to && hs->events == hs->win.to)
		close_window(hs, r, frames);
}

static void observe_cb(void *ud, vs_replay *r, const vs_outcome *o)
{
	vs_history_observe(ud, r, o);
}

void vs_history_attach(vs_history *hs, vs_replay_config *cfg)
{
	cfg->observer = observe_cb;
	cfg->observer_ud = hs;
	cfg->on_mark = vs_history_mark;
	cfg->mark_ud = hs;
}

int vs_history_finish(vs_history *hs, const vs_replay *r)
{
	uint64_t n = vs_replay_events(r), frames = vs_replay_frames(r);

	if (bind(hs, r))
		return -1;
	if (hs->events < n)
		hs->events = n;
	if (frames > hs->frames_total)
		hs->frames_total = frames;
	if (hs->win.unit == VS_WINDOW_ALL) {
		hs->last_ev = hs->events;
		if (!hs->ncols || hs->col_event[hs->ncols - 1] != hs->events) {
			note_metrics(hs, r);
			take_sample(hs, r, hs->events, frames);
		}
		return 0;
	}
	/* a window still open runs to the end (events no observer was told of
	 * included, as without one) */
	if (!hs->closed && hs->first_ev) {
		if (!hs->win.has_to || (hs->win.unit == VS_WINDOW_EVENTS ? n : frames) <= hs->win.to)
			hs->last_ev = n;
		close_window(hs, r, frames);
	}
	return 0;
}

uint64_t vs_history_events(const vs_history *hs) { return hs->events; }
int vs_history_arena_count(const vs_history *hs) { return hs->narenas; }
int vs_history_columns(const vs_history *hs) { return hs->ncols; }

uint64_t vs_history_failure_count(const vs_history *hs, int i)
{
	return i >= 0 && i < hs->narenas ? hs->a[i].fail_total : 0;
}

const uint64_t *vs_history_failures(const vs_history *hs, int i, size_t *n)
{
	if (i < 0 || i >= hs->narenas) {
		*n = 0;
		return NULL;
	}
	*n = hs->a[i].nfail;
	return hs->a[i].fail;
}

uint64_t vs_history_peak_live_event(const vs_history *hs, int i)
{
	return i >= 0 && i < hs->narenas ? hs->a[i].peak_live_ev : 0;
}

uint64_t vs_history_peak_frag_event(const vs_history *hs, int i)
{
	return i >= 0 && i < hs->narenas ? hs->a[i].peak_frag_ev : 0;
}

uint64_t vs_history_column_event(const vs_history *hs, int c)
{
	return c >= 0 && c < hs->ncols ? hs->col_event[c] : 0;
}

uint64_t vs_history_column_frame(const vs_history *hs, int c)
{
	return c >= 0 && c < hs->ncols ? hs->col_frame[c] : 0;
}

uint64_t vs_history_frames(const vs_history *hs)
{
	return hs->win.unit == VS_WINDOW_ALL ? hs->frames : hs->frames_total;
}

void vs_history_set_window(vs_history *hs, const vs_window *w)
{
	hs->win = *w;
}

int vs_history_windowed(const vs_history *hs)
{
	return hs->win.unit != VS_WINDOW_ALL;
}

uint64_t vs_history_first_event(const vs_history *hs)
{
	return hs->win.unit == VS_WINDOW_ALL ? (hs->events ? 1 : 0) : hs->first_ev;
}

uint64_t vs_history_last_event(const vs_history *hs)
{
	return hs->win.unit == VS_WINDOW_ALL ? hs->events : hs->first_ev ? hs->last_ev : 0;
}

void vs_history_window_describe(const vs_history *hs, char *buf, size_t len)
{
	if (hs->win.unit == VS_WINDOW_ALL || !hs->first_ev || !hs->ncols)
		snprintf(buf, len, "%s", "");
	else if (hs->win.unit == VS_WINDOW_FRAMES)
		snprintf(buf, len, "frames %llu-%llu", (unsigned long long)hs->first_frame,
			(unsigned long long)hs->col_frame[hs->ncols - 1]);
	else
		snprintf(buf, len, "events %llu-%llu", (unsigned long long)hs->first_ev, (unsigned long long)hs->last_ev);
}

int vs_history_window_check(const vs_history *hs, char *err, size_t errlen)
{
	const vs_window *w = &hs->win;
	int frames = w->unit == VS_WINDOW_FRAMES, k;
	uint64_t have = frames ? hs->frames_total : hs->events;

	if (w->unit == VS_WINDOW_ALL)
		return 0;
	if (frames && !hs->frames_total) {
		snprintf(err, errlen, "the trace has no frame statements: give --from and --to in events "
			"(it has %llu)", (unsigned long long)hs->events);
		return -1;
	}
	for (k = 0; k < 2; k++) {
		uint64_t v = k ? w->to : w->from;
		if (!(k ? w->has_to : w->has_from) || v <= have)
			continue;
		if (frames)
			snprintf(err, errlen, "--%s f:%llu is past the trace's end: it has frames 0 to %llu (%llu frame "
				"statements)", k ? "to" : "from", (unsigned long long)v, (unsigned long long)have,
				(unsigned long long)have);
		else
			snprintf(err, errlen, "--%s %llu is past the trace's end: it has %llu events", k ? "to" : "from",
				(unsigned long long)v, (unsigned long long)have);
		return -1;
	}
	if (!hs->first_ev) {
		snprintf(err, errlen, "no event of the trace is in the window");
		return -1;
	}
	return 0;
}

void vs_history_column_metrics(const vs_history *hs, int i, int c, uint64_t *live, uint64_t *largest, double *frag)
{
	*live = *largest = 0;
	*frag = 0;
	if (i < 0 || i >= hs->narenas || c < 0 || c >= hs->ncols)
		return;
	*live = hs->a[i].live[c];
	*largest = hs->a[i].largest[c];
	*frag = hs->a[i].frag[c];
}

/* ---- internals the drawing code shares (history_draw.c) ---------------- */
#include "history_impl.h"

int vs__history_rows(const vs_history *hs, int i) { return hs->a[i].rows; }
const uint32_t *vs__history_cells(const vs_history *hs, int i, int c)
{
	return hs->a[i].cell + (size_t)c * (size_t)hs->a[i].rows;
}
const uint8_t *vs__history_occ(const vs_history *hs, int i, int c)
{
	return hs->a[i].occ + (size_t)c * (size_t)hs->a[i].rows;
}
const char *vs__history_arena_name(const vs_history *hs, int i) { return hs->a[i].name; }
uint32_t vs__history_arena_base(const vs_history *hs, int i) { return hs->a[i].base; }
uint32_t vs__history_arena_size(const vs_history *hs, int i) { return hs->a[i].size; }
uint64_t vs__history_arena_usable(const vs_history *hs, int i) { return hs->a[i].usable; }
uint32_t vs__history_tag_count(const vs_history *hs) { return hs->ntags; }
uint64_t vs__history_base(const vs_history *hs) { return hs->base; }
uint64_t vs__history_span(const vs_history *hs)
{
	uint64_t n = hs->win.unit == VS_WINDOW_ALL ? hs->events : hs->last_ev > hs->base ? hs->last_ev - hs->base : 0;
	return n ? n : 1;
}
uint64_t vs__history_first_frame(const vs_history *hs) { return hs->first_frame; }
const char *vs__history_tag(const vs_history *hs, uint32_t t, uint32_t *colour)
{
	if (t >= hs->ntags || !hs->tags[t].seen)
		return NULL;
	*colour = hs->tags[t].colour;
	return hs->tags[t].name ? hs->tags[t].name : "(untagged)";
}

void vs_history_set_colour_by(vs_history *hs, vs_colour_by by) { hs->colour_by = by; }
vs_colour_by vs_history_colour_by(const vs_history *hs) { return hs->colour_by; }
