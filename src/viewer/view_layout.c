/* SPDX-License-Identifier: Zlib */
/* view_layout.c - where things are in the window: its regions laid out for
 * its size, the timeline's window (zoom and pan), and the points the mouse
 * and the script go by (an event on the timeline, a unit's cell).
 */
#include <stdio.h>
#include <string.h>

#include "viewer_int.h"
#include "vram/arena.h"

/* ---- layout ------------------------------------------------------------ */

/* The one place text height comes from: every row of text is laid out
 * with it, so a taller font moves the layout with it. */
static int line_height(int ts)
{
	return VS_FONT_H * ts + 2;
}

/* Live mode: the game's picture in a column at the left, at the given
 * scale or the largest (up to 4) that leaves the views three fifths of the
 * width. Returns the column's width (0: no game). */
static int live_column(viewer *v, int pad, int y, int h)
{
	int sw, sh, k;

	v->game = rect_make(0, 0, 0, 0);
	if (!v->live)
		return 0;
	sw = v->live->screen_w;
	sh = v->live->screen_h;
	k = v->live->scale;
	if (k <= 0)
		for (k = 4; k > 1 && (sw * k > v->W * 2 / 5 || sh * k > h); k--)
			;
	v->game_scale = k;
	v->game = rect_make(pad, y, sw * k, sh * k);
	if (v->live->placed)
		v->live->placed(v->live->ud, pad, y, k);
	return pad + sw * k;
}

#define STRIP_H 12 /* a compact arena's occupancy strip */
/* render/layout.c draws a panel's label this far above the panel */
#define PANEL_LABEL_H (VS_FONT_H + 3)

int layout_many(const viewer *v)
{
	return v->narenas > 2;
}

/* A compact map: the whole arena in one row of cells w pixels wide, each
 * cell as many units as it takes (a cell's colour is its first unit's).
 * Returns 0, or -1 when there is nothing to show. */
static int strip_layout(vs_layout *L, const vs_arena_decl *d, int w)
{
	uint32_t n = d->unit ? d->size / d->unit : 0, upc;
	vs_layout_panel *p = &L->panel[0];

	memset(L, 0, sizeof *L);
	L->kind = d->kind;
	if (!n || w < 1)
		return -1;
	upc = (n + (uint32_t)w - 1) / (uint32_t)w;
	L->npanels = 1;
	p->nunits = n;
	p->upc = upc;
	p->cols = (int)((n + upc - 1) / upc);
	p->rows = 1;
	p->cw = w / p->cols > 0 ? w / p->cols : 1;
	p->ch = STRIP_H;
	L->w = p->cols * p->cw;
	L->h = STRIP_H;
	return 0;
}

static int label_x(const vs_layout_panel *p)
{
	return p->x - p->margin;
}

/* How wide panel i's label may be: up to the next label on its row, or
 * the map's right edge. */
static int label_room(const vs_layout *L, int i, int map_w)
{
	const vs_layout_panel *p = &L->panel[i];
	int j, end = map_w;

	for (j = 0; j < L->npanels; j++) {
		const vs_layout_panel *q = &L->panel[j];
		if (q->y == p->y && label_x(q) > label_x(p) && label_x(q) - 6 < end)
			end = label_x(q) - 6;
	}
	return end - label_x(p);
}

/* Form k of a label, shorter as k grows: 0 in full; 1 without its address
 * ("@...") and notes ("(...)"); 2 without its first word as well ("bank",
 * "tex"); 3 the shortest word of form 2 ("A", "1"); 4 nothing. */
static void label_form(const char *full, int k, char *out, size_t len)
{
	char words[8][40];
	int n = 0, i, paren = 0, first = 0, best = -1;
	const char *s = full;

	out[0] = 0;
	if (k == 0) {
		snprintf(out, len, "%s", full);
		return;
	}
	while (*s && n < 8) {
		size_t w = strcspn(s, " ");
		if (w && w < sizeof words[0]) {
			int skip = paren || s[0] == '@' || s[0] == '(';
			paren = (paren || s[0] == '(') && s[w - 1] != ')';
			if (!skip)
				snprintf(words[n++], sizeof words[0], "%.*s", (int)w, s);
		}
		s += w;
		s += strspn(s, " ");
	}
	if (k >= 4 || !n)
		return;
	first = k >= 2 && n > 1;
	if (k == 3) {
		for (i = first; i < n; i++)
			if (best < 0 || strlen(words[i]) < strlen(words[best]))
				best = i;
		snprintf(out, len, "%s", words[best]);
		return;
	}
	for (i = first; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i > first ? " " : "", words[i]);
}

/* Panel labels cut to forms that fit before the next label (DS banks sit
 * side by side in narrow panels); the full ones are kept for the hover.
 * Labels that fit are left as they are, and so are the GBA's, whose
 * pictures (tests, docs) stay as they were. */
static void fit_labels(arena_pane *ap)
{
	int i, k, gba = ap->L.kind == VS_ARENA_GBA_OBJ || ap->L.kind == VS_ARENA_GBA_BG;

	for (i = 0; i < ap->L.npanels; i++) {
		vs_layout_panel *p = &ap->L.panel[i];
		int room = label_room(&ap->L, i, ap->map.w);
		char full[sizeof p->label];
		memcpy(full, p->label, sizeof full);
		memcpy(ap->full_label[i], full, sizeof full);
		for (k = 0; !gba && vs_image_text_width(p->label, 1) > room && k < 4; k++)
			label_form(full, k + 1, p->label, sizeof p->label);
	}
}

/* Two arenas (the GBA's): each gets an equal share of the maps' height. */
static void place_even(viewer *v, side_pane *p, int s, int x, int y, int colw, int maps_h)
{
	int a, per = v->narenas ? maps_h / v->narenas : maps_h;

	for (a = 0; a < v->narenas; a++) {
		arena_pane *ap = &p->ar[a];
		const vs_arena *ar = vs_timeline_arena(v->tl, s, a);
		ap->compact = 0;
		ap->title = rect_make(x, y, colw, v->lh);
		ap->map = rect_make(x, y + v->lh, colw, per - v->lh - 4);
		ap->ok = ap->map.h > 0 && vs_layout_make(&ap->L, &ar->decl, ap->map.w, ap->map.h) == 0;
		if (ap->ok)
			fit_labels(ap);
		else
			v->cramped = 1;
		y += per;
	}
	p->chart_title = rect_make(x, y, colw, v->lh);
}

/* More arenas (a DS trace has up to six): the arena in focus gets its full
 * map, every other one a title and an occupancy strip, in trace order; a
 * focus whose map does not fit is a strip as well. */
static void place_focus(viewer *v, side_pane *p, int s, int x, int y, int colw, int maps_h)
{
	int a, w, strip_row = v->lh + STRIP_H + 6, big_h = maps_h - (v->narenas - 1) * strip_row;
	uint32_t largest = 1;

	for (a = 0; a < v->narenas; a++)
		if (vs_timeline_arena(v->tl, s, a)->decl.size > largest)
			largest = vs_timeline_arena(v->tl, s, a)->decl.size;

	for (a = 0; a < v->narenas; a++) {
		arena_pane *ap = &p->ar[a];
		const vs_arena *ar = vs_timeline_arena(v->tl, s, a);
		ap->title = rect_make(x, y, colw, v->lh);
		if (a == v->chart_arena) {
			ap->map = rect_make(x, y + v->lh, colw, big_h - v->lh - 4);
			ap->compact = 0;
			ap->ok = ap->map.h > 0 && vs_layout_make(&ap->L, &ar->decl, ap->map.w, ap->map.h) == 0;
			if (ap->ok) {
				fit_labels(ap);
				y += big_h;
				continue;
			}
		}
		/* strips to one scale: the largest arena across the column */
		w = (int)((double)(colw - 2) * ar->decl.size / largest);
		ap->compact = 1;
		ap->map = rect_make(x + 1, y + v->lh + 1, w > 16 ? w : 16, STRIP_H);
		ap->ok = strip_layout(&ap->L, &ar->decl, ap->map.w) == 0;
		if (!ap->ok)
			v->cramped = 1;
		y += a == v->chart_arena && big_h > strip_row ? big_h : strip_row;
	}
	p->chart_title = rect_make(x, y, colw, v->lh);
}

static void relayout(viewer *v)
{
	int pad = 8, s, colw, content_y, content_h, maps_h, x0;

	v->ts = v->W >= 2200 && v->H >= 1300 ? 2 : 1; /* the 8x13 font reads at 1:1; 2x on a big window */
	v->lh = line_height(v->ts);
	v->top = rect_make(0, 0, v->W, v->lh + 8);
	v->status = rect_make(pad, v->H - v->lh - 6, v->W - 2 * pad, v->lh + 4);
	v->timeline = rect_make(pad, v->status.y - 30, v->W - 2 * pad, 26);
	v->legend = rect_make(pad, v->timeline.y - v->lh - 6, v->W - 2 * pad, v->lh + 2);
	content_y = v->top.h + 4;
	content_h = v->legend.y - 4 - content_y;
	x0 = live_column(v, pad, content_y, content_h);
	colw = (v->W - x0 - pad * (v->nsides + 1)) / v->nsides;
	v->cramped = 0;
	v->redraw_all = 1;
	v->show_all = 1;
	/* the maps' share of the height; the chart has the rest */
	maps_h = (content_h - v->lh) * (layout_many(v) ? 74 : 62) / 100;
	for (s = 0; s < v->nsides; s++) {
		side_pane *p = &v->sp[s];
		int x = x0 + pad + s * (colw + pad);
		p->col = rect_make(x, content_y, colw, content_h);
		p->label = rect_make(x, content_y, colw, v->lh);
		if (layout_many(v))
			place_focus(v, p, s, x, content_y + v->lh + 2, colw, maps_h);
		else
			place_even(v, p, s, x, content_y + v->lh + 2, colw, maps_h);
		p->chart = rect_make(x, p->chart_title.y + v->lh, colw, content_y + content_h - p->chart_title.y - v->lh);
	}
}

void layout_focus(viewer *v, int arena)
{
	if (arena < 0 || arena >= v->narenas || arena == v->chart_arena)
		return;
	v->chart_arena = arena;
	if (layout_many(v) && v->W > 0)
		relayout(v);
}

void layout_report(viewer *v)
{
	int s, a, i;

	for (s = 0; s < v->nsides; s++)
		for (a = 0; a < v->narenas; a++) {
			arena_pane *ap = &v->sp[s].ar[a];
			view_log(v, "pane %d %d %s %s %d %d %d %d in %d %d", s + 1, a, vs_timeline_arena(v->tl, s, a)->decl.name,
				!ap->ok ? "none" : ap->compact ? "strip" : "map", ap->map.x, ap->map.y, ap->ok ? ap->L.w : 0,
				ap->ok ? ap->L.h : 0, ap->map.w, ap->map.h);
			for (i = 0; ap->ok && i < ap->L.npanels; i++) {
				const vs_layout_panel *p = &ap->L.panel[i];
				if (!p->label[0])
					continue;
				view_log(v, "label %d %d %d %d %d %d %s", s + 1, a, ap->map.x + label_x(p),
					ap->map.y + p->y - PANEL_LABEL_H, vs_image_text_width(p->label, 1), VS_FONT_H, p->label);
			}
		}
}

int layout_resize(viewer *v, int w, int h)
{
	if (w < 160)
		w = 160;
	if (h < 120)
		h = 120;
	/* a canvas, its check copy and the picture shown: 768 MiB at most */
	if (w > 8192)
		w = 8192;
	if (h > 8192)
		h = 8192;
	if (v->canvas.px && v->canvas.w == w && v->canvas.h == h)
		return 0;
	vs_image_fini(&v->canvas);
	if (vs_image_init(&v->canvas, w, h, VS_RGB_BG))
		return -1;
	v->W = w;
	v->H = h;
	if (v->tex)
		SDL_DestroyTexture(v->tex);
	v->tex = NULL;
	if (v->ren) {
		v->tex = SDL_CreateTexture(v->ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, w, h);
		if (!v->tex)
			return -1;
	}
	relayout(v);
	return 0;
}

int layout_unit_centre(viewer *v, int side, int arena, uint32_t unit, int *x, int *y)
{
	arena_pane *ap;
	vs_rect r;

	if (side < 0 || side >= v->nsides || arena < 0 || arena >= v->narenas)
		return -1;
	ap = &v->sp[side].ar[arena];
	if (!ap->ok || vs_layout_unit_rect(&ap->L, unit, &r))
		return -1;
	*x = ap->map.x + r.x + r.w / 2;
	*y = ap->map.y + r.y + r.h / 2;
	return 0;
}

/* ---- the timeline's window: zoom and pan ------------------------------- */

#define ZOOM_MIN_SPAN 8 /* events across the timeline at the deepest zoom */

void layout_range(const viewer *v, uint64_t *lo, uint64_t *hi)
{
	uint64_t total = view_total(v);

	if (!v->tl_span || v->tl_span >= total) {
		*lo = 0;
		*hi = total;
		return;
	}
	*lo = v->tl_lo > total - v->tl_span ? total - v->tl_span : v->tl_lo;
	*hi = *lo + v->tl_span;
}

/* A window of span events from lo, kept inside the trace; as wide as the
 * trace is the whole trace again. */
static void set_window(viewer *v, uint64_t lo, uint64_t span)
{
	uint64_t total = view_total(v);

	if (span < ZOOM_MIN_SPAN)
		span = ZOOM_MIN_SPAN;
	if (span >= total) {
		v->tl_lo = v->tl_span = 0;
		return;
	}
	v->tl_lo = lo > total - span ? total - span : lo;
	v->tl_span = span;
}

/* Halves (in) or doubles the window, event e staying where it is shown. */
void layout_zoom(viewer *v, uint64_t e, int in)
{
	uint64_t lo, hi, span, nspan, off;

	layout_range(v, &lo, &hi);
	span = hi - lo;
	if (!span)
		return;
	if (in && span <= ZOOM_MIN_SPAN) {
		view_say(v, "zoomed in all the way: %d events", ZOOM_MIN_SPAN);
		return;
	}
	e = e < lo ? lo : e > hi ? hi : e;
	nspan = in ? span / 2 : span * 2;
	off = (uint64_t)((double)(e - lo) / (double)span * (double)nspan + 0.5);
	set_window(v, e > off ? e - off : 0, nspan);
}

/* Moves a zoomed window by quarters of its width (negative: back). */
void layout_pan(viewer *v, int quarters)
{
	uint64_t lo, hi, d;

	if (!v->tl_span)
		return;
	layout_range(v, &lo, &hi);
	d = (hi - lo) / 4 * (uint64_t)(quarters < 0 ? -quarters : quarters);
	if (!d)
		d = 1;
	set_window(v, quarters < 0 ? (lo > d ? lo - d : 0) : lo + d, hi - lo);
}

/* When the cursor moves out of a zoomed window (playing, stepping,
 * jumping) the window goes with it; a window panned away from a cursor
 * that stays put stays. */
void layout_follow(viewer *v)
{
	uint64_t at = vs_timeline_at(v->tl), lo, hi, span;

	if (at == v->follow_at)
		return;
	v->follow_at = at;
	if (!v->tl_span)
		return;
	layout_range(v, &lo, &hi);
	span = hi - lo;
	if (at > hi)
		set_window(v, at - span / 8, span);
	else if (at < lo)
		set_window(v, at > span - span / 8 ? at - (span - span / 8) : 0, span);
}

/* Where the timeline shows event e (its window's ends for events outside it). */
int layout_time_x(viewer *v, uint64_t e)
{
	uint64_t lo, hi;

	layout_range(v, &lo, &hi);
	if (hi <= lo)
		return v->timeline.x;
	e = e < lo ? lo : e > hi ? hi : e;
	return v->timeline.x + (int)((double)(e - lo) / (double)(hi - lo) * (v->timeline.w - 1) + 0.5);
}

uint64_t layout_time_event(viewer *v, int x)
{
	uint64_t lo, hi;
	double f;

	layout_range(v, &lo, &hi);
	if (v->timeline.w <= 1)
		return lo;
	f = (double)(x - v->timeline.x) / (double)(v->timeline.w - 1);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return lo + (uint64_t)(f * (double)(hi - lo) + 0.5);
}

/* (A zoomed timeline: events outside its window are at its ends.) */
void layout_timeline_point(viewer *v, uint64_t event, int *x, int *y)
{
	*x = layout_time_x(v, event);
	*y = v->timeline.y + v->timeline.h / 2;
}
