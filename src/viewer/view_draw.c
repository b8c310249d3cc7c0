/* SPDX-License-Identifier: Zlib */
/* view_draw.c - composing a frame: the top line, each side's arena maps and
 * chart, the legend, the timeline, the status line, the hover box and the
 * help.
 *
 * Every frame is composed on the CPU into one RGBA canvas with the
 * renderer (arena maps, charts, text in its bitmap font); only the regions
 * whose inputs changed are drawn again (docs/viewer.md, "Drawing only what
 * changed"). The canvas is also what a screenshot writes, so a screenshot
 * is the same with any video driver, or none that shows.
 */
#include <stdio.h>
#include <string.h>

#include "viewer_int.h"
#include "base/grow.h"
#include "vram/arena.h"
#include "render/history.h"

/* ---- owners for the renderer ------------------------------------------ */

static const vs_live *owner_of(void *ud, uint32_t owner)
{
	viewer *v = ud;
	const vs_tl_alloc *al;

	if (owner == v->scratch_owner && owner)
		return &v->scratch;
	al = vs_timeline_alloc(v->tl, owner);
	if (!al)
		return NULL;
	memset(&v->scratch, 0, sizeof v->scratch);
	v->scratch.id = al->id;
	v->scratch.req = al->req;
	v->scratch.line = al->line;
	v->scratch.event = al->event;
	v->scratch.refs = 1;
	v->scratch_owner = owner;
	return &v->scratch;
}

static const char *tag_of(void *ud, uint32_t tag)
{
	viewer *v = ud;

	return vs_replay_tag_name(vs_timeline_replay(v->tl, 0), tag);
}

/* ---- drawing only what changed ------------------------------------------ */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

#define HASH0 0xcbf29ce484222325ull

static uint64_t hash_u64(uint64_t h, uint64_t x)
{
	return hash_bytes(h, &x, sizeof x);
}

static uint64_t hash_text(const char *s, uint32_t rgba)
{
	return hash_u64(hash_bytes(HASH0, s, strlen(s)), rgba);
}

/* Canvas pixels that the window has not got yet. */
static void add_dirty(viewer *v, vs_rect r)
{
	int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
	int x1 = r.x + r.w > v->W ? v->W : r.x + r.w, y1 = r.y + r.h > v->H ? v->H : r.y + r.h;
	SDL_Rect *d;

	if (v->dirty_all || x1 <= x0 || y1 <= y0)
		return;
	if (v->ndirty == VIEW_MAX_DIRTY) {
		v->dirty_all = 1;
		return;
	}
	d = &v->dirty[v->ndirty++];
	d->x = x0;
	d->y = y0;
	d->w = x1 - x0;
	d->h = y1 - y0;
}

static int damaged(const viewer *v, vs_rect r)
{
	int i;

	for (i = 0; i < v->ndamage; i++)
		if (rect_overlap(v->damage[i], r))
			return 1;
	return 0;
}

/* Whether a region is drawn this frame: when its inputs' hash changed,
 * something over it went away, or everything is drawn. If so it is cleared
 * to bg (what a full frame has under it) and will be sent. */
static int region_begin(viewer *v, region *g, vs_rect r, uint64_t h, uint32_t bg)
{
	if (!v->force && g->valid && g->hash == h && !damaged(v, r))
		return 0;
	g->hash = h;
	g->valid = 1;
	draw_fill(&v->canvas, r, bg);
	add_dirty(v, r);
	return 1;
}

/* ---- drawing ------------------------------------------------------------- */

/* vs_image_fill, a row at a time: the whole canvas is cleared every frame. */
void draw_fill(vs_image *im, vs_rect r, uint32_t rgba)
{
	int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
	int x1 = r.x + r.w > im->w ? im->w : r.x + r.w, y1 = r.y + r.h > im->h ? im->h : r.y + r.h, x, y;
	uint8_t px[4], *row;

	if (x1 <= x0 || y1 <= y0)
		return;
	px[0] = (uint8_t)(rgba >> 24);
	px[1] = (uint8_t)(rgba >> 16);
	px[2] = (uint8_t)(rgba >> 8);
	px[3] = (uint8_t)rgba;
	row = im->px + ((size_t)y0 * im->w + x0) * 4;
	for (x = 0; x < x1 - x0; x++)
		memcpy(row + x * 4, px, 4);
	for (y = y0 + 1; y < y1; y++)
		memcpy(im->px + ((size_t)y * im->w + x0) * 4, row, (size_t)(x1 - x0) * 4);
}

static void darken(vs_image *im, vs_rect r)
{
	int x, y;

	for (y = r.y; y < r.y + r.h; y++) {
		uint8_t *p;
		if (y < 0 || y >= im->h)
			continue;
		for (x = r.x < 0 ? 0 : r.x; x < r.x + r.w && x < im->w; x++) {
			p = im->px + ((size_t)y * im->w + x) * 4;
			p[0] = (uint8_t)(p[0] / 4);
			p[1] = (uint8_t)(p[1] / 4);
			p[2] = (uint8_t)(p[2] / 4);
		}
	}
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= 10u * 1024 * 1024)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b >= 10u * 1024)
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
}

/* Text cut to max_w pixels (ending in '~' when cut). */
void draw_text_fit(viewer *v, int x, int y, const char *s, uint32_t rgba, int max_w)
{
	char buf[512];
	size_t n = strlen(s), lo = 0, hi;

	if (max_w <= 0)
		return;
	if (vs_image_text_width(s, v->ts) <= max_w) {
		vs_image_text(&v->canvas, x, y, s, rgba, v->ts);
		return;
	}
	/* the longest start that fits with its '~' (widths from the font) */
	hi = n < sizeof buf - 2 ? n : sizeof buf - 2;
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		memcpy(buf, s, mid);
		buf[mid] = '~';
		buf[mid + 1] = 0;
		if (vs_image_text_width(buf, v->ts) <= max_w)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (lo == 0)
		return;
	memcpy(buf, s, lo);
	buf[lo] = '~';
	buf[lo + 1] = 0;
	vs_image_text(&v->canvas, x, y, buf, rgba, v->ts);
}

static void draw_top(viewer *v)
{
	char buf[512], rec[96] = "", live[256];
	uint64_t at = vs_timeline_at(v->tl);
	const vs_tl_event *ev = vs_timeline_event(v->tl, at);

	if (v->live) {
		/* the game's state instead of the trace's playing speed */
		v->live->status(v->live->ud, live, sizeof live);
	} else {
		if (!vs_timeline_complete(v->tl))
			snprintf(rec, sizeof rec, "  recording %llu/~%llu", (unsigned long long)vs_timeline_recorded(v->tl),
				(unsigned long long)v->est_events);
		snprintf(live, sizeof live, "%s %g ev/s%s", v->playing ? "playing" : "paused", view_speed(v), rec);
	}
	snprintf(buf, sizeof buf, "%s  event %llu/%llu  frame %llu  line %u%s%s  %s   ? help",
		v->trace_name, (unsigned long long)at, (unsigned long long)view_total(v),
		(unsigned long long)vs_timeline_frame_at(v->tl, at), ev ? (unsigned)ev->line : 0,
		ev ? " " : "", ev ? vs_trace_event_name((vs_event_type)ev->type) : "", live);
	if (ev && ev->type == VS_EV_COUNT)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (stopped)");
	if (region_begin(v, &v->top_g, v->top, hash_text(buf, VS_RGB_TEXT), RGB_PANEL))
		draw_text_fit(v, 8, 4, buf, VS_RGB_TEXT, v->W - 16);
}

/* The game's picture (live mode), scaled by whole pixels; it changes most
 * frames, so it is drawn and sent every frame. */
static void draw_game(viewer *v)
{
	const uint8_t *src = v->live->screen(v->live->ud);
	int sw = v->live->screen_w, k = v->game_scale, x, y;
	int w = v->game.x + v->game.w > v->W ? v->W - v->game.x : v->game.w;
	int h = v->game.y + v->game.h > v->H ? v->H - v->game.y : v->game.h;

	if (!src || w <= 0 || h <= 0)
		return;
	for (y = 0; y < h; y++) {
		const uint8_t *row = src + (size_t)(y / k) * (size_t)sw * 4;
		uint8_t *out = v->canvas.px + ((size_t)(v->game.y + y) * (size_t)v->W + (size_t)v->game.x) * 4;
		for (x = 0; x < w; x++, out += 4) {
			const uint8_t *px = row + (size_t)(x / k) * 4;
			out[0] = px[0];
			out[1] = px[1];
			out[2] = px[2];
			out[3] = 0xFF;
		}
	}
	add_dirty(v, v->game);
}

/* The chart from its cache, and the cursor at the current event. */
static void draw_chart(viewer *v, side_pane *p, const vs_history *hs, uint64_t at)
{
	uint64_t rec = vs_timeline_recorded(v->tl), h;
	int x;

	if (!p->chart_img.px || p->chart_img.w != p->chart.w || p->chart_img.h != p->chart.h ||
		p->chart_img_arena != v->chart_arena ||
		(p->chart_img_events != rec && (vs_timeline_complete(v->tl) || (v->live && v->sc) ||
			SDL_TICKS_PASSED(SDL_GetTicks(), p->chart_img_time + 500)))) {
		vs_image_fini(&p->chart_img);
		if (vs_image_init(&p->chart_img, p->chart.w, p->chart.h, VS_RGB_BG))
			return;
		vs_history_draw_chart(&p->chart_img, rect_make(0, 0, p->chart.w, p->chart.h), hs, v->chart_arena, 0);
		p->chart_img_arena = v->chart_arena;
		p->chart_img_events = rec;
		p->chart_img_time = SDL_GetTicks();
		p->chart_gen++;
	}
	x = vs_history_time_x(hs, p->chart, at);
	h = hash_u64(hash_u64(HASH0, p->chart_gen), (uint64_t)(int64_t)x);
	if (!region_begin(v, &p->chart_g, p->chart, h, VS_RGB_BG))
		return;
	vs_image_blit(&v->canvas, p->chart.x, p->chart.y, &p->chart_img);
	vs_image_vline(&v->canvas, x, p->chart.y, p->chart.y + p->chart.h - 12, VS_RGB_CURSOR);
}

typedef struct snap_cmp {
	const arena_pane *ap;
	uint32_t i;
} snap_cmp;

static int run_differs(void *ud, const vs_own_run *run)
{
	snap_cmp *c = ud;
	const vs_own_run *s;

	if (c->i >= c->ap->snap_n)
		return 1;
	s = &c->ap->snap[c->i];
	if (s->first != run->first || s->count != run->count || s->owner != run->owner ||
		s->kind != run->kind)
		return 1;
	c->i++;
	return 0;
}

static int snap_run(void *ud, const vs_own_run *run)
{
	arena_pane *ap = ud;

	if (ap->snap_n == ap->snap_cap &&
		vs_grow_u32(&ap->snap, sizeof *ap->snap, &ap->snap_cap, (size_t)ap->snap_n + 1, 64))
		return 1;
	ap->snap[ap->snap_n++] = *run;
	return 0;
}

/* Whether the map differs from the one last drawn (owners are event
 * numbers, the same allocation at every point in time, so equal maps are
 * equal pictures); the snapshot of its runs is brought up to date. */
static int map_changed(arena_pane *ap, const vs_arena *ar, int64_t hov)
{
	snap_cmp c;

	c.ap = ap;
	c.i = 0;
	if (ap->snap_valid && ap->snap_hover == hov && vs_arena_runs(ar, 0, ar->nunits, run_differs, &c) == 0 &&
		c.i == ap->snap_n)
		return 0;
	ap->snap_n = 0;
	ap->snap_valid = vs_arena_runs(ar, 0, ar->nunits, snap_run, ap) == 0;
	ap->snap_hover = hov;
	return 1;
}

static void draw_side(viewer *v, int s)
{
	side_pane *p = &v->sp[s];
	vs_replay *r = vs_timeline_replay(v->tl, s);
	uint64_t at = vs_timeline_at(v->tl);
	const vs_history *hs = vs_timeline_render_history(v->tl, s);
	int a, fk = vs_timeline_failure(v->tl, s, at);
	char buf[256];

	snprintf(buf, sizeof buf, "%s%s%s", v->o->label[s][0] ? v->o->label[s] : vs_replay_strategy(r, 0)->name,
		fk >= 0 ? "  FAILED: " : "", fk >= 0 ? vs_replay_fail_kind_name((vs_fail_kind)fk) : "");
	if (region_begin(v, &p->label_g, p->label, hash_text(buf, fk >= 0 ? VS_RGB_FAIL : VS_RGB_TEXT), VS_RGB_BG))
		draw_text_fit(v, p->label.x, p->label.y, buf, fk >= 0 ? VS_RGB_FAIL : VS_RGB_TEXT, p->label.w);
	for (a = 0; a < v->narenas; a++) {
		arena_pane *ap = &p->ar[a];
		const vs_arena *ar = vs_timeline_arena(v->tl, s, a);
		const vs_tl_sample *sm = &vs_timeline_series(v->tl, s, a)[at];
		char live[16], fr[16], lg[16];
		vs_render_src src;
		int64_t hov;
		fmt_bytes(live, sizeof live, sm->live);
		fmt_bytes(fr, sizeof fr, sm->free);
		fmt_bytes(lg, sizeof lg, sm->largest);
		snprintf(buf, sizeof buf, "%s%s%s%s: live %s  free %s  largest %s  frag %.3f", ar->decl.name,
			v->narenas > 1 ? " (" : "", v->narenas > 1 ? vs_replay_strategy(r, a)->name : "",
			v->narenas > 1 ? ")" : "", live, fr, lg,
			sm->free ? 1.0 - (double)sm->largest / (double)sm->free : 0.0);
		/* one row short: the hover outline of a top cell reaches that row */
		if (region_begin(v, &ap->title_g, rect_make(ap->title.x, ap->title.y, ap->title.w, ap->title.h - 1),
				hash_text(buf, VS_RGB_DIM), VS_RGB_BG))
			draw_text_fit(v, ap->title.x, ap->title.y + 1, buf, VS_RGB_DIM, ap->title.w);
		if (!ap->ok) {
			vs_image_text(&v->canvas, ap->map.x, ap->map.y, "(window too small)", VS_RGB_DIM, v->ts);
			continue;
		}
		hov = v->hover_side == s && v->hover_arena == a ? v->hover_unit : -1;
		if (!map_changed(ap, ar, hov) && !v->force && !damaged(v, rect_inflate(ap->map, 1)))
			continue;
		draw_fill(&v->canvas, rect_inflate(ap->map, 1), VS_RGB_BG);
		add_dirty(v, rect_inflate(ap->map, 1));
		memset(&src, 0, sizeof src);
		src.arena = ar;
		src.owner = owner_of;
		src.tag_name = tag_of;
		src.ud = v;
		src.strategy = vs_replay_strategy(r, a)->name;
		src.event = at;
		src.frame = vs_timeline_frame_at(v->tl, at);
		vs_render_arena(&v->canvas, ap->map.x, ap->map.y, &ap->L, &src);
		if (hov >= 0) {
			vs_rect c;
			if (vs_layout_unit_rect(&ap->L, (uint32_t)hov, &c) == 0)
				vs_image_frame(&v->canvas,
					rect_make(ap->map.x + c.x - 1, ap->map.y + c.y - 1, c.w + 2, c.h + 2), RGB_HOVER);
		}
	}
	if (v->narenas) {
		snprintf(buf, sizeof buf, "%s: live bytes, largest free, fragmentation%s",
			vs_timeline_arena(v->tl, s, v->chart_arena)->decl.name, layout_many(v) ?
			(v->live ? " (click a strip: map it)" : " (Tab or click a strip: map it)") : v->narenas > 1 ? " (Tab: next arena)" : "");
		if (region_begin(v, &p->chart_title_g, p->chart_title, hash_text(buf, VS_RGB_DIM), VS_RGB_BG))
			draw_text_fit(v, p->chart_title.x, p->chart_title.y + 1, buf, VS_RGB_DIM, p->chart_title.w);
		if (p->chart.w > 40 && p->chart.h > 30)
			draw_chart(v, p, hs, at);
	}
}

static void draw_legend(viewer *v)
{
	vs_replay *r = vs_timeline_replay(v->tl, 0);
	int x = v->legend.x, box = v->lh - 4, range_w, range_x;
	uint32_t t;
	char range[160];
	uint64_t lo, hi, total = view_total(v);
	static const struct { int kind; const char *name; } kinds[] = {
		{ VS_UNIT_FREE, "free" }, { VS_UNIT_SLACK, "slack" }, { VS_UNIT_OVERHEAD, "overhead" },
		{ VS_UNIT_RETAINED, "retained" }, { VS_UNIT_RESERVED, "reserved" }
	};
	size_t k;
	uint64_t h = hash_u64(HASH0, (uint64_t)v->legend.w);
	int xt, ntags = 0;

	/* right: what the timeline below shows */
	layout_range(v, &lo, &hi);
	if (v->tl_span)
		snprintf(range, sizeof range, "timeline: events %llu-%llu of %llu, frames %llu-%llu, zoom x%.0f",
			(unsigned long long)lo, (unsigned long long)hi, (unsigned long long)total,
			(unsigned long long)vs_timeline_frame_at(v->tl, lo), (unsigned long long)vs_timeline_frame_at(v->tl, hi),
			(double)total / (double)(hi - lo));
	else
		snprintf(range, sizeof range, "timeline: events 0-%llu, frames 0-%llu", (unsigned long long)total,
			(unsigned long long)vs_timeline_frame_at(v->tl, total));
	range_w = vs_image_text_width(range, v->ts);
	range_x = v->legend.x + v->legend.w - range_w;
	h = hash_u64(hash_text(range, v->tl_span ? VS_RGB_TEXT : VS_RGB_DIM), h);
	/* the tags that fit; they are known as recording reaches them */
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		x += box + 4 + vs_image_text_width(kinds[k].name, v->ts) + 10;
	xt = x;
	for (t = 1;; t++) {
		const char *name = vs_replay_tag_name(r, t);
		int w;
		if (!name || !*name)
			break;
		w = box + 4 + vs_image_text_width(name, v->ts) + 10;
		if (xt + w > range_x - 10)
			break;
		xt += w;
		ntags++;
		h = hash_bytes(h, name, strlen(name) + 1);
	}
	if (!region_begin(v, &v->legend_g, v->legend, h, VS_RGB_BG))
		return;
	if (range_x > v->legend.x + v->legend.w / 3)
		vs_image_text(&v->canvas, range_x, v->legend.y, range, v->tl_span ? VS_RGB_TEXT : VS_RGB_DIM, v->ts);
	x = v->legend.x;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int i, j;
		for (j = 0; j < box; j++)
			for (i = 0; i < box; i++)
				vs_image_put(&v->canvas, x + i, v->legend.y + j,
					vs_colour_unit_pixel((vs_unit_kind)kinds[k].kind, VS_RGB_UNTAGGED, 0, i, j));
		x += box + 4;
		x += vs_image_text(&v->canvas, x, v->legend.y, kinds[k].name, VS_RGB_DIM, v->ts) + 10;
	}
	for (t = 1; (int)t <= ntags; t++) {
		const char *name = vs_replay_tag_name(r, t);
		vs_image_fill(&v->canvas, rect_make(x, v->legend.y, box, box), vs_colour_tag_id(t));
		x += box + 4;
		x += vs_image_text(&v->canvas, x, v->legend.y, name, VS_RGB_TEXT, v->ts) + 10;
	}
}

static void draw_timeline(viewer *v)
{
	vs_rect t = v->timeline;
	uint64_t rec = vs_timeline_recorded(v->tl), at = vs_timeline_at(v->tl), lo, hi;
	int s, band = (t.h - 4) / (v->nsides ? v->nsides : 1), xr, xc;
	uint64_t f, h;

	layout_range(v, &lo, &hi);
	xr = rec >= lo ? layout_time_x(v, rec) : t.x - 1;
	xc = at >= lo && at <= hi ? layout_time_x(v, at) : -100; /* no cursor outside the window */
	/* the cursor reaches 2 pixels out */
	h = hash_u64(hash_u64(hash_u64(hash_u64(hash_u64(HASH0, rec), view_total(v)), (uint64_t)(int64_t)xc), lo), hi);
	if (!region_begin(v, &v->timeline_g, rect_inflate(t, 2), h, VS_RGB_BG))
		return;
	draw_fill(&v->canvas, t, RGB_TL_TODO);
	draw_fill(&v->canvas, rect_make(t.x, t.y, xr - t.x + 1, t.h), RGB_TL_DONE);
	/* frames every so often: light ticks when they would not crowd */
	if (vs_timeline_frame_at(v->tl, hi) - vs_timeline_frame_at(v->tl, lo) < (uint64_t)t.w / 4) {
		for (f = vs_timeline_next_frame(v->tl, lo ? lo - 1 : 0); f && f <= hi; f = vs_timeline_next_frame(v->tl, f))
			vs_image_vline(&v->canvas, layout_time_x(v, f), t.y + t.h - 3, t.y + t.h - 1, VS_RGB_GRID);
	}
	for (s = 0; s < v->nsides; s++) {
		size_t n, k;
		const uint32_t *fails = vs_timeline_failures(v->tl, s, &n);
		int last = -1;
		for (k = 0; k < n; k++) {
			int x;
			if (fails[k] < lo || fails[k] > hi)
				continue;
			x = layout_time_x(v, fails[k]);
			if (x == last)
				continue;
			last = x;
			vs_image_vline(&v->canvas, x, t.y + 2 + s * band, t.y + 1 + (s + 1) * band, VS_RGB_FAIL);
		}
	}
	if (xc >= 0)
		vs_image_fill(&v->canvas, rect_make(xc - 1, t.y - 2, 3, t.h + 4), VS_RGB_CURSOR);
	vs_image_frame(&v->canvas, t, VS_RGB_GRID);
}

static void draw_status(viewer *v)
{
	char buf[256];

	if (v->prompt) {
		snprintf(buf, sizeof buf, "%s %s_   (Enter: go, Escape: cancel)",
			v->prompt == PROMPT_FRAME ? "go to frame:" : "find tag or id (NAME, tag=NAME, N, id=N):",
			v->prompt_text);
		if (region_begin(v, &v->status_g, v->status, hash_text(buf, VS_RGB_LIVE), VS_RGB_BG))
			draw_text_fit(v, v->status.x, v->status.y + 2, buf, VS_RGB_LIVE, v->status.w);
		return;
	}
	if (v->message[0] && SDL_TICKS_PASSED(SDL_GetTicks(), v->message_until) && !v->sc)
		v->message[0] = 0;
	if (v->message[0]) {
		if (region_begin(v, &v->status_g, v->status, hash_text(v->message, VS_RGB_TEXT), VS_RGB_BG))
			draw_text_fit(v, v->status.x, v->status.y + 2, v->message, VS_RGB_TEXT, v->status.w);
		return;
	}
	snprintf(buf, sizeof buf, "failures: ");
	{
		int s;
		for (s = 0; s < v->nsides; s++) {
			size_t n;
			vs_timeline_failures(v->tl, s, &n);
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%zu", s ? " / " : "", n);
		}
	}
	if (v->live)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "   game: %s; space pause, . a frame, Tab fast, F5 "
			"savestate; f failure, l list, End: now, q quit", v->live->keys_hint ? v->live->keys_hint :
			"arrows x z Return Backspace a s");
	else
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s", "   space play, arrows step, f next failure, "
			"l failure list, g go to frame, / find, z zoom, ? help");
	if (region_begin(v, &v->status_g, v->status, hash_text(buf, VS_RGB_DIM), VS_RGB_BG))
		draw_text_fit(v, v->status.x, v->status.y + 2, buf, VS_RGB_DIM, v->status.w);
}

/* Where the hover box goes (w 0: no box). */
static vs_rect hover_rect(viewer *v)
{
	int i, w = 0, h, x, y;

	if (!v->nhover)
		return rect_make(0, 0, 0, 0);
	for (i = 0; i < v->nhover; i++) {
		int tw = vs_image_text_width(v->hover[i], v->ts);
		if (tw > w)
			w = tw;
	}
	w += 12;
	h = v->nhover * v->lh + 10;
	x = v->mx + 16;
	y = v->my + 16;
	if (x + w > v->W)
		x = v->mx - w - 8;
	if (x < 0)
		x = 0;
	if (y + h > v->H)
		y = v->my - h - 8;
	if (y < 0)
		y = 0;
	return rect_make(x, y, w, h);
}

static uint64_t hover_hash(viewer *v, vs_rect b)
{
	uint64_t h = hash_bytes(HASH0, &b, sizeof b);
	int i;

	for (i = 0; i < v->nhover; i++)
		h = hash_bytes(h, v->hover[i], strlen(v->hover[i]) + 1);
	return h;
}

static void draw_hover(viewer *v, vs_rect b)
{
	int i;

	if (b.w <= 0)
		return;
	draw_fill(&v->canvas, b, 0x000000FFu);
	vs_image_frame(&v->canvas, b, VS_RGB_DIM);
	for (i = 0; i < v->nhover; i++)
		vs_image_text(&v->canvas, b.x + 6, b.y + 5 + i * v->lh, v->hover[i], i ? VS_RGB_TEXT : VS_RGB_CURSOR, v->ts);
	add_dirty(v, b);
}

static const char *const help_lines[] = {
	"vramsim view - keys",
	"",
	"space            play / pause",
	"right / left     one event forward / back",
	"shift+right/left one frame forward / back (to the next 'frame' event)",
	"up / down, + -   faster / slower (events per second)",
	"page up / down   100 events back / forward (x10 with shift)",
	"home / end       start / end of the trace",
	"f / shift+f      next / previous failure (either side)",
	"tab              chart the next arena (more than two: and map it in full)",
	"z / shift+z      zoom the timeline in / out (around the cursor)",
	", / .            pan a zoomed timeline back / forward (shift: a page)",
	"w                the whole trace on the timeline again",
	"g                go to frame N (type N, Enter)",
	"/ or ctrl+f      find the next alloc or free of a tag or id",
	"n / shift+n      next / previous of what was last found",
	"l                failure list: up/down, page up/down, home/end or a",
	"                 click select a failure and go there; escape closes it",
	"s  or  F12       screenshot (PNG in the screenshot folder)",
	"? or h or F1     this help (any key closes it)",
	"q / escape       quit",
	"",
	"mouse: hover a unit for its owner; click or drag on the timeline or",
	"a chart to seek; the wheel on the timeline zooms (sideways or with",
	"shift it pans), elsewhere it steps. Red ticks on the timeline are",
	"failed allocations (one row per strategy).",
};

static void draw_help(viewer *v)
{
	int n = (int)(sizeof help_lines / sizeof help_lines[0]), i, w = 0, h, x, y;

	for (i = 0; i < n; i++) {
		int tw = vs_image_text_width(help_lines[i], v->ts);
		if (tw > w)
			w = tw;
	}
	w += 40;
	h = n * v->lh + 30;
	darken(&v->canvas, rect_make(0, 0, v->W, v->H));
	x = (v->W - w) / 2;
	y = (v->H - h) / 2;
	draw_fill(&v->canvas, rect_make(x, y, w, h), RGB_PANEL);
	vs_image_frame(&v->canvas, rect_make(x, y, w, h), VS_RGB_TEXT);
	for (i = 0; i < n; i++)
		vs_image_text(&v->canvas, x + 20, y + 15 + i * v->lh, help_lines[i], i ? VS_RGB_TEXT : VS_RGB_LIVE, v->ts);
}

/* Draws the frame into the canvas. Only the regions whose inputs changed
 * are drawn again (and listed in v->dirty for present_frame()); with force,
 * or while the help darkens everything, all of it is. */
void draw_compose(viewer *v, int force)
{
	vs_rect box;
	uint64_t hh;
	int s, i, box_changed;

	/* overlays (help, failure list) are drawn over everything each frame */
	v->force = force || v->redraw_all || v->cramped || v->help || v->help_drawn || v->fails_open ||
		v->fails_drawn;
	v->ndamage = 0;
	hover_update(v);
	box = hover_rect(v);
	hh = hover_hash(v, box);
	box_changed = hh != v->hover_hash || box.w != v->hover_box.w;
	if (v->force) {
		draw_fill(&v->canvas, rect_make(0, 0, v->W, v->H), VS_RGB_BG);
		v->dirty_all = 1;
	} else if (box_changed && v->hover_box.w > 0) {
		/* what the old box covered is drawn again */
		draw_fill(&v->canvas, v->hover_box, VS_RGB_BG);
		add_dirty(v, v->hover_box);
		v->damage[v->ndamage++] = v->hover_box;
	}
	draw_top(v);
	if (v->live)
		draw_game(v);
	for (s = 0; s < v->nsides; s++)
		draw_side(v, s);
	draw_legend(v);
	draw_timeline(v);
	draw_status(v);
	if (v->fails_open)
		fails_draw(v);
	v->fails_drawn = v->fails_open;
	if (box.w > 0) {
		int under = v->force || box_changed;
		for (i = 0; i < v->ndirty && !under; i++)
			under = rect_overlap(box,
				rect_make(v->dirty[i].x, v->dirty[i].y, v->dirty[i].w, v->dirty[i].h));
		if (under || v->dirty_all)
			draw_hover(v, box);
	}
	v->hover_box = box;
	v->hover_hash = hh;
	if (v->help)
		draw_help(v);
	v->help_drawn = v->help;
	v->redraw_all = 0;
}

/* --check-redraw: the same frame drawn in full must be the same pixels. */
void draw_check_frame(viewer *v)
{
	vs_image keep = v->canvas;
	SDL_Rect dirty[VIEW_MAX_DIRTY];
	int nd = v->ndirty, all = v->dirty_all;
	size_t i, n;

	if (!v->check.px || v->check.w != v->W || v->check.h != v->H) {
		vs_image_fini(&v->check);
		if (vs_image_init(&v->check, v->W, v->H, VS_RGB_BG))
			return;
	}
	memcpy(dirty, v->dirty, sizeof dirty);
	v->canvas = v->check;
	draw_compose(v, 1);
	v->check = v->canvas;
	v->canvas = keep;
	memcpy(v->dirty, dirty, sizeof dirty);
	v->ndirty = nd;
	v->dirty_all = all;
	if (memcmp(v->check.px, v->canvas.px, (size_t)v->W * (size_t)v->H * 4) == 0)
		return;
	n = (size_t)v->W * (size_t)v->H;
	for (i = 0; i < n && memcmp(v->check.px + i * 4, v->canvas.px + i * 4, 4) == 0; i++)
		;
	if (!v->check_bad++)
		view_log(v, "redraw check: frame %llu at event %llu differs from a full redraw at (%d, %d)",
			(unsigned long long)v->frames, (unsigned long long)vs_timeline_at(v->tl), (int)(i % (size_t)v->W),
			(int)(i / (size_t)v->W));
}
