/* viewer.c - the SDL2 window: plays a recorded timeline, seeks, hovers.
 *
 * Every frame is composed on the CPU into one RGBA canvas with the
 * renderer (arena maps, charts, text in its bitmap font) and uploaded to a
 * streaming texture. The canvas is also what a screenshot writes, so a
 * screenshot is the same with any video driver, or none that shows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_int.h"

static const double speeds[] = {
	1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
	100000, 200000, 500000, 1000000
};
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define DEFAULT_SPEED 6 /* 100 events a second */

#define RGB_PANEL 0x1A1D23FFu
#define RGB_TL_DONE 0x2F3540FFu
#define RGB_TL_TODO 0x1A1D23FFu
#define RGB_HOVER 0xFFFFFFFFu

void view_log(viewer *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(v->log, fmt, ap);
	va_end(ap);
	fputc('\n', v->log);
	fflush(v->log);
}

static void say(viewer *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_until = SDL_GetTicks() + 4000;
}

static double ms_since(uint64_t t0)
{
	return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

static void time_add(time_stats *t, double ms)
{
	t->last[t->n % VIEW_TIMES] = (float)ms;
	t->n++;
	t->sum += ms;
	if (ms > t->max)
		t->max = ms;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* 99th percentile of the last VIEW_TIMES samples. */
static double time_p99(const time_stats *t)
{
	static float tmp[VIEW_TIMES];
	size_t n = t->n < VIEW_TIMES ? (size_t)t->n : VIEW_TIMES;

	if (!n)
		return 0;
	memcpy(tmp, t->last, n * sizeof *tmp);
	qsort(tmp, n, sizeof *tmp, cmp_float);
	return tmp[n * 99 / 100];
}

uint64_t view_total(const viewer *v)
{
	uint64_t rec = vs_timeline_recorded(v->tl);

	if (vs_timeline_complete(v->tl))
		return rec;
	return v->est_events > rec ? v->est_events : rec;
}

double view_speed(const viewer *v)
{
	return speeds[v->speed_i];
}

void view_seek(viewer *v, uint64_t event)
{
	uint64_t t0 = SDL_GetPerformanceCounter(), from = vs_timeline_at(v->tl);

	vs_timeline_seek(v->tl, event);
	/* single steps are the common case; time the jumps */
	if (event > from + 1 || event + 1 < from)
		time_add(&v->seek, ms_since(t0));
}

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

/* ---- layout ------------------------------------------------------------ */

static vs_rect rect(int x, int y, int w, int h)
{
	vs_rect r;

	r.x = x;
	r.y = y;
	r.w = w > 0 ? w : 0;
	r.h = h > 0 ? h : 0;
	return r;
}

/* vs_image_fill, a row at a time: the whole canvas is cleared every frame. */
static void fast_fill(vs_image *im, vs_rect r, uint32_t rgba)
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

static int inside(vs_rect r, int x, int y)
{
	return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

static void relayout(viewer *v)
{
	int pad = 8, s, a, y, colw, content_y, content_h, maps_h, per;

	v->ts = v->W >= 1100 && v->H >= 700 ? 2 : 1;
	v->lh = VS_FONT_H * v->ts + 2;
	v->top = rect(0, 0, v->W, v->lh + 8);
	v->status = rect(pad, v->H - v->lh - 6, v->W - 2 * pad, v->lh + 4);
	v->timeline = rect(pad, v->status.y - 30, v->W - 2 * pad, 26);
	v->legend = rect(pad, v->timeline.y - v->lh - 6, v->W - 2 * pad, v->lh + 2);
	content_y = v->top.h + 4;
	content_h = v->legend.y - 4 - content_y;
	colw = (v->W - pad * (v->nsides + 1)) / v->nsides;
	maps_h = (content_h - v->lh) * 62 / 100;
	per = v->narenas ? maps_h / v->narenas : maps_h;
	for (s = 0; s < v->nsides; s++) {
		side_pane *p = &v->sp[s];
		int x = pad + s * (colw + pad);
		p->col = rect(x, content_y, colw, content_h);
		p->label = rect(x, content_y, colw, v->lh);
		y = content_y + v->lh + 2;
		for (a = 0; a < v->narenas; a++) {
			arena_pane *ap = &p->ar[a];
			const vs_arena *ar = vs_timeline_arena(v->tl, s, a);
			ap->title = rect(x, y, colw, v->lh);
			ap->map = rect(x, y + v->lh, colw, per - v->lh - 4);
			ap->ok = ap->map.h > 0 && vs_layout_make(&ap->L, &ar->decl, ap->map.w, ap->map.h) == 0;
			y += per;
		}
		p->chart_title = rect(x, y, colw, v->lh);
		p->chart = rect(x, y + v->lh, colw, content_y + content_h - y - v->lh);
	}
}

static int resize_canvas(viewer *v, int w, int h)
{
	if (w < 160)
		w = 160;
	if (h < 120)
		h = 120;
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

/* ---- hover --------------------------------------------------------------- */

static void unit_place(const vs_arena_decl *d, uint32_t unit, char *buf, size_t len)
{
	uint32_t off = unit * d->unit;

	switch (d->kind) {
	case VS_ARENA_GBA_OBJ:
		snprintf(buf, len, "tile %u", (unsigned)unit);
		break;
	case VS_ARENA_GBA_BG:
		snprintf(buf, len, "charblock %u tile %u, screenblock %u", (unsigned)(off / 0x4000),
			(unsigned)(off % 0x4000 / 32), (unsigned)(off / 0x800));
		break;
	case VS_ARENA_DS_TEX:
		snprintf(buf, len, "texture slot %u +0x%05x, unit %u", (unsigned)(off / 0x20000), (unsigned)(off % 0x20000),
			(unsigned)unit);
		break;
	case VS_ARENA_DS_PLTT:
		snprintf(buf, len, "palette slot %u, colour %u", (unsigned)(off / 0x4000), (unsigned)(off % 0x4000 / 2));
		break;
	default:
		snprintf(buf, len, "unit %u (%u bytes)", (unsigned)unit, (unsigned)d->unit);
		break;
	}
}

static const char *kind_name(int k)
{
	static const char *const names[] = { "free", "data", "slack", "overhead", "4x4 index", "retained", "reserved" };

	return k >= 0 && k <= VS_UNIT_RESERVED ? names[k] : "?";
}

/* The run of units around u held by the same owner (capped scan). */
static void owner_extent(const vs_arena *a, uint32_t u, uint32_t *first, uint32_t *count)
{
	uint32_t o = a->owner[u], lo = u, hi = u, cap = 1u << 20;

	while (lo > 0 && a->owner[lo - 1] == o && u - lo < cap)
		lo--;
	while (hi + 1 < a->nunits && a->owner[hi + 1] == o && hi - u < cap)
		hi++;
	*first = lo;
	*count = hi - lo + 1;
}

static void update_hover(viewer *v)
{
	int s, a;

	v->nhover = 0;
	v->hover_side = -1;
	if (!v->mouse_in || v->help)
		return;
	for (s = 0; s < v->nsides; s++) {
		for (a = 0; a < v->narenas; a++) {
			arena_pane *ap = &v->sp[s].ar[a];
			const vs_arena *ar;
			const vs_arena_decl *d;
			int64_t u;
			uint32_t owner, first, count;
			char place[96];
			if (!ap->ok || !inside(ap->map, v->mx, v->my))
				continue;
			u = vs_layout_unit_at(&ap->L, v->mx - ap->map.x, v->my - ap->map.y);
			if (u < 0)
				continue;
			ar = vs_timeline_arena(v->tl, s, a);
			if ((uint64_t)u >= ar->nunits)
				continue;
			d = &ar->decl;
			v->hover_side = s;
			v->hover_arena = a;
			v->hover_unit = u;
			owner = ar->owner[u];
			unit_place(d, (uint32_t)u, place, sizeof place);
			snprintf(v->hover[v->nhover++], sizeof v->hover[0], "%s 0x%08x  %s  [%s]", d->name,
				(unsigned)(d->base + (uint32_t)u * d->unit), place, kind_name(ar->kind[u]));
			if (owner == VS_OWNER_NONE) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "free");
			} else if (owner == VS_OWNER_HW) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "reserved by the hardware");
			} else if (owner == VS_OWNER_ALLOC) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "kept by the allocator (management)");
			} else {
				const vs_tl_alloc *al = vs_timeline_alloc(v->tl, owner);
				char what[96];
				const char *tag;
				if (!al)
					continue;
				tag = vs_replay_tag_name(vs_timeline_replay(v->tl, 0), al->req.tag);
				vs_request_describe(&al->req, what, sizeof what);
				owner_extent(ar, (uint32_t)u, &first, &count);
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "owner id %llu  tag %s", (unsigned long long)al->id,
					tag && *tag ? tag : "(none)");
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "%s; size %u bytes; held 0x%08x +%u",
					what, (unsigned)al->req.size, (unsigned)(d->base + first * d->unit),
					(unsigned)(count * d->unit));
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "age %llu events (event %u)  allocated at trace line %u",
					(unsigned long long)(vs_timeline_at(v->tl) - al->event), (unsigned)al->event, (unsigned)al->line);
			}
			return;
		}
	}
}

int view_unit_centre(viewer *v, int side, int arena, uint32_t unit, int *x, int *y)
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

/* ---- drawing ------------------------------------------------------------- */

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
static void text_fit(viewer *v, int x, int y, const char *s, uint32_t rgba, int max_w)
{
	char buf[512];
	size_t n = strlen(s);
	int cw = VS_FONT_W * v->ts;

	if (max_w <= 0)
		return;
	if ((int)n * cw <= max_w) {
		vs_text(&v->canvas, x, y, s, rgba, v->ts);
		return;
	}
	n = (size_t)(max_w / cw);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	if (n == 0)
		return;
	memcpy(buf, s, n);
	buf[n - 1] = '~';
	buf[n] = 0;
	vs_text(&v->canvas, x, y, buf, rgba, v->ts);
}

static void draw_top(viewer *v)
{
	char buf[512], rec[96] = "";
	uint64_t at = vs_timeline_at(v->tl);
	const vs_tl_event *ev = vs_timeline_event(v->tl, at);

	fast_fill(&v->canvas, v->top, RGB_PANEL);
	if (!vs_timeline_complete(v->tl))
		snprintf(rec, sizeof rec, "  recording %llu/~%llu", (unsigned long long)vs_timeline_recorded(v->tl),
			(unsigned long long)v->est_events);
	snprintf(buf, sizeof buf, "%s  event %llu/%llu  frame %llu  line %u%s%s  %s %g ev/s%s   ? help",
		v->trace_name, (unsigned long long)at, (unsigned long long)view_total(v),
		(unsigned long long)vs_timeline_frame_at(v->tl, at), ev ? (unsigned)ev->line : 0,
		ev ? " " : "", ev ? vs_event_name((vs_event_type)ev->type) : "", v->playing ? "playing" : "paused",
		speeds[v->speed_i], rec);
	if (ev && ev->type == VS_EV_COUNT)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (stopped)");
	text_fit(v, 8, 4, buf, VS_RGB_TEXT, v->W - 16);
}

/* The chart from its cache, and the cursor at the current event. */
static void draw_chart(viewer *v, side_pane *p, const vs_history *hs, uint64_t at)
{
	uint64_t rec = vs_timeline_recorded(v->tl);
	int x;

	if (!p->chart_img.px || p->chart_img.w != p->chart.w || p->chart_img.h != p->chart.h ||
		p->chart_img_arena != v->chart_arena ||
		(p->chart_img_events != rec && (vs_timeline_complete(v->tl) ||
			SDL_TICKS_PASSED(SDL_GetTicks(), p->chart_img_time + 500)))) {
		vs_image_fini(&p->chart_img);
		if (vs_image_init(&p->chart_img, p->chart.w, p->chart.h, VS_RGB_BG))
			return;
		vs_render_chart(&p->chart_img, rect(0, 0, p->chart.w, p->chart.h), hs, v->chart_arena, 0);
		p->chart_img_arena = v->chart_arena;
		p->chart_img_events = rec;
		p->chart_img_time = SDL_GetTicks();
	}
	vs_image_blit(&v->canvas, p->chart.x, p->chart.y, &p->chart_img);
	x = vs_render_time_x(hs, p->chart, at);
	vs_image_vline(&v->canvas, x, p->chart.y, p->chart.y + p->chart.h - 12, VS_RGB_CURSOR);
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
		fk >= 0 ? "  FAILED: " : "", fk >= 0 ? vs_fail_kind_name((vs_fail_kind)fk) : "");
	text_fit(v, p->label.x, p->label.y, buf, fk >= 0 ? VS_RGB_FAIL : VS_RGB_TEXT, p->label.w);
	for (a = 0; a < v->narenas; a++) {
		arena_pane *ap = &p->ar[a];
		const vs_arena *ar = vs_timeline_arena(v->tl, s, a);
		const vs_tl_sample *sm = &vs_timeline_series(v->tl, s, a)[at];
		char live[16], fr[16], lg[16];
		vs_render_src src;
		fmt_bytes(live, sizeof live, sm->live);
		fmt_bytes(fr, sizeof fr, sm->free);
		fmt_bytes(lg, sizeof lg, sm->largest);
		snprintf(buf, sizeof buf, "%s%s%s%s: live %s  free %s  largest %s  frag %.3f", ar->decl.name,
			v->narenas > 1 ? " (" : "", v->narenas > 1 ? vs_replay_strategy(r, a)->name : "",
			v->narenas > 1 ? ")" : "", live, fr, lg,
			sm->free ? 1.0 - (double)sm->largest / (double)sm->free : 0.0);
		text_fit(v, ap->title.x, ap->title.y + 1, buf, VS_RGB_DIM, ap->title.w);
		if (!ap->ok) {
			vs_text(&v->canvas, ap->map.x, ap->map.y, "(window too small)", VS_RGB_DIM, v->ts);
			continue;
		}
		memset(&src, 0, sizeof src);
		src.arena = ar;
		src.owner = owner_of;
		src.tag_name = tag_of;
		src.ud = v;
		src.strategy = vs_replay_strategy(r, a)->name;
		src.event = at;
		src.frame = vs_timeline_frame_at(v->tl, at);
		vs_render_arena(&v->canvas, ap->map.x, ap->map.y, &ap->L, &src);
		if (v->hover_side == s && v->hover_arena == a) {
			vs_rect c;
			if (vs_layout_unit_rect(&ap->L, (uint32_t)v->hover_unit, &c) == 0)
				vs_image_frame(&v->canvas, rect(ap->map.x + c.x - 1, ap->map.y + c.y - 1, c.w + 2, c.h + 2),
					RGB_HOVER);
		}
	}
	if (v->narenas) {
		snprintf(buf, sizeof buf, "%s: live bytes, largest free, fragmentation%s",
			vs_timeline_arena(v->tl, s, v->chart_arena)->decl.name, v->narenas > 1 ? " (Tab: next arena)" : "");
		text_fit(v, p->chart_title.x, p->chart_title.y + 1, buf, VS_RGB_DIM, p->chart_title.w);
		if (p->chart.w > 40 && p->chart.h > 30)
			draw_chart(v, p, hs, at);
	}
}

static void draw_legend(viewer *v)
{
	vs_replay *r = vs_timeline_replay(v->tl, 0);
	int x = v->legend.x, box = VS_FONT_H * v->ts - 2;
	uint32_t t;
	static const struct { int kind; const char *name; } kinds[] = {
		{ VS_UNIT_FREE, "free" }, { VS_UNIT_SLACK, "slack" }, { VS_UNIT_OVERHEAD, "overhead" },
		{ VS_UNIT_RETAINED, "retained" }, { VS_UNIT_RESERVED, "reserved" }
	};
	size_t k;

	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int i, j;
		for (j = 0; j < box; j++)
			for (i = 0; i < box; i++)
				vs_image_put(&v->canvas, x + i, v->legend.y + j,
					vs_unit_pixel((vs_unit_kind)kinds[k].kind, VS_RGB_UNTAGGED, 0, i, j));
		x += box + 4;
		x += vs_text(&v->canvas, x, v->legend.y, kinds[k].name, VS_RGB_DIM, v->ts) + 10;
	}
	for (t = 1;; t++) {
		const char *name = vs_replay_tag_name(r, t);
		int w;
		if (!name || !*name)
			break;
		w = box + 4 + vs_text_width(name, v->ts) + 10;
		if (x + w > v->legend.x + v->legend.w)
			break;
		vs_image_fill(&v->canvas, rect(x, v->legend.y, box, box), vs_tag_colour(name));
		x += box + 4;
		x += vs_text(&v->canvas, x, v->legend.y, name, VS_RGB_TEXT, v->ts) + 10;
	}
}

static int time_x(viewer *v, uint64_t e)
{
	uint64_t total = view_total(v);

	if (!total)
		return v->timeline.x;
	return v->timeline.x + (int)((double)e / (double)total * (v->timeline.w - 1) + 0.5);
}

static uint64_t time_event(viewer *v, int x)
{
	uint64_t total = view_total(v);
	double f;

	if (v->timeline.w <= 1)
		return 0;
	f = (double)(x - v->timeline.x) / (double)(v->timeline.w - 1);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return (uint64_t)(f * (double)total + 0.5);
}

void view_timeline_point(viewer *v, uint64_t event, int *x, int *y)
{
	*x = time_x(v, event);
	*y = v->timeline.y + v->timeline.h / 2;
}

static void draw_timeline(viewer *v)
{
	vs_rect t = v->timeline;
	uint64_t rec = vs_timeline_recorded(v->tl), at = vs_timeline_at(v->tl);
	int s, band = (t.h - 4) / (v->nsides ? v->nsides : 1), xr = time_x(v, rec), xc;
	uint64_t f;

	fast_fill(&v->canvas, t, RGB_TL_TODO);
	fast_fill(&v->canvas, rect(t.x, t.y, xr - t.x + 1, t.h), RGB_TL_DONE);
	/* frames every so often: light ticks when they would not crowd */
	if (vs_timeline_frame_at(v->tl, rec) < (uint64_t)t.w / 4) {
		for (f = vs_timeline_next_frame(v->tl, 0); f; f = vs_timeline_next_frame(v->tl, f))
			vs_image_vline(&v->canvas, time_x(v, f), t.y + t.h - 3, t.y + t.h - 1, VS_RGB_GRID);
	}
	for (s = 0; s < v->nsides; s++) {
		size_t n, k;
		const uint32_t *fails = vs_timeline_failures(v->tl, s, &n);
		int last = -1;
		for (k = 0; k < n; k++) {
			int x = time_x(v, fails[k]);
			if (x == last)
				continue;
			last = x;
			vs_image_vline(&v->canvas, x, t.y + 2 + s * band, t.y + 1 + (s + 1) * band, VS_RGB_FAIL);
		}
	}
	xc = time_x(v, at);
	vs_image_fill(&v->canvas, rect(xc - 1, t.y - 2, 3, t.h + 4), VS_RGB_CURSOR);
	vs_image_frame(&v->canvas, t, VS_RGB_GRID);
}

static void draw_status(viewer *v)
{
	char buf[256];

	if (v->message[0] && SDL_TICKS_PASSED(SDL_GetTicks(), v->message_until) && !v->sc)
		v->message[0] = 0;
	if (v->message[0]) {
		text_fit(v, v->status.x, v->status.y + 2, v->message, VS_RGB_TEXT, v->status.w);
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
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
		"   space play, arrows step, f next failure, ? help");
	text_fit(v, v->status.x, v->status.y + 2, buf, VS_RGB_DIM, v->status.w);
}

static void draw_hover(viewer *v)
{
	int i, w = 0, h, x, y;

	if (!v->nhover)
		return;
	for (i = 0; i < v->nhover; i++) {
		int tw = vs_text_width(v->hover[i], v->ts);
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
	fast_fill(&v->canvas, rect(x, y, w, h), 0x000000FFu);
	vs_image_frame(&v->canvas, rect(x, y, w, h), VS_RGB_DIM);
	for (i = 0; i < v->nhover; i++)
		vs_text(&v->canvas, x + 6, y + 5 + i * v->lh, v->hover[i], i ? VS_RGB_TEXT : VS_RGB_CURSOR, v->ts);
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
	"tab              chart the next arena",
	"s  or  F12       screenshot (PNG in the screenshot folder)",
	"? or h or F1     this help (any key closes it)",
	"q / escape       quit",
	"",
	"mouse: hover a unit for its owner; click or drag on the timeline or",
	"a chart to seek. Red ticks on the timeline are failed allocations",
	"(one row per strategy).",
};

static void draw_help(viewer *v)
{
	int n = (int)(sizeof help_lines / sizeof help_lines[0]), i, w = 0, h, x, y;

	for (i = 0; i < n; i++) {
		int tw = vs_text_width(help_lines[i], v->ts);
		if (tw > w)
			w = tw;
	}
	w += 40;
	h = n * v->lh + 30;
	darken(&v->canvas, rect(0, 0, v->W, v->H));
	x = (v->W - w) / 2;
	y = (v->H - h) / 2;
	fast_fill(&v->canvas, rect(x, y, w, h), RGB_PANEL);
	vs_image_frame(&v->canvas, rect(x, y, w, h), VS_RGB_TEXT);
	for (i = 0; i < n; i++)
		vs_text(&v->canvas, x + 20, y + 15 + i * v->lh, help_lines[i], i ? VS_RGB_TEXT : VS_RGB_LIVE, v->ts);
}

static void compose(viewer *v)
{
	int s;

	fast_fill(&v->canvas, rect(0, 0, v->W, v->H), VS_RGB_BG);
	update_hover(v);
	draw_top(v);
	for (s = 0; s < v->nsides; s++)
		draw_side(v, s);
	draw_legend(v);
	draw_timeline(v);
	draw_status(v);
	draw_hover(v);
	if (v->help)
		draw_help(v);
}

/* ---- screenshots ----------------------------------------------------- */

static int write_png(viewer *v, const char *path)
{
	char tmp[1100];
	FILE *fp;
	int ok;

	snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)SDL_GetTicks());
	fp = fopen(tmp, "wb");
	if (!fp) {
		say(v, "screenshot: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	ok = vs_png_write(fp, &v->canvas) == 0;
	ok = (fclose(fp) == 0) && ok;
	if (!ok || rename(tmp, path)) {
		remove(tmp);
		say(v, "screenshot: writing %s failed", path);
		return -1;
	}
	say(v, "screenshot written: %s", path);
	view_log(v, "screenshot %s", path);
	return 0;
}

static void screenshot_key(viewer *v)
{
	const char *dir = v->o->shot_dir ? v->o->shot_dir : ".";
	char path[1024];
	FILE *fp;

	/* first free name: vramsim-view-0001.png, ... */
	do {
		snprintf(path, sizeof path, "%s/vramsim-view-%04d.png", dir, ++v->shot_n);
		fp = fopen(path, "rb");
		if (fp)
			fclose(fp);
	} while (fp && v->shot_n < 9999);
	snprintf(v->shot_pending, sizeof v->shot_pending, "%s", path);
}

/* ---- input --------------------------------------------------------------- */

static void step_to(viewer *v, uint64_t e)
{
	v->playing = 0;
	v->acc = 0;
	view_seek(v, e);
}

static void on_key(viewer *v, const SDL_Keysym *k)
{
	int shift = (k->mod & KMOD_SHIFT) != 0;
	uint64_t at = vs_timeline_at(v->tl), e;

	if (v->help) {
		/* '?' arrives as text too: that toggles, so its key is left alone */
		if (k->sym != SDLK_LSHIFT && k->sym != SDLK_RSHIFT && k->sym != SDLK_SLASH && k->sym != SDLK_QUESTION)
			v->help = 0;
		return;
	}
	switch (k->sym) {
	case SDLK_SPACE:
		v->playing = !v->playing;
		v->acc = 0;
		if (v->playing && vs_timeline_complete(v->tl) && at >= vs_timeline_recorded(v->tl))
			view_seek(v, 0);
		break;
	case SDLK_RIGHT:
		if (shift) {
			e = vs_timeline_next_frame(v->tl, at);
			step_to(v, e ? e : vs_timeline_recorded(v->tl));
		} else {
			step_to(v, at + 1);
		}
		break;
	case SDLK_LEFT:
		if (shift)
			step_to(v, vs_timeline_prev_frame(v->tl, at));
		else
			step_to(v, at ? at - 1 : 0);
		break;
	case SDLK_PAGEDOWN:
		step_to(v, at + (shift ? 1000 : 100));
		break;
	case SDLK_PAGEUP:
		e = shift ? 1000 : 100;
		step_to(v, at > e ? at - e : 0);
		break;
	case SDLK_HOME:
		step_to(v, 0);
		break;
	case SDLK_END:
		step_to(v, vs_timeline_recorded(v->tl));
		break;
	case SDLK_UP:
	case SDLK_PLUS:
	case SDLK_EQUALS:
	case SDLK_KP_PLUS:
		if (v->speed_i + 1 < NSPEEDS)
			v->speed_i++;
		break;
	case SDLK_DOWN:
	case SDLK_MINUS:
	case SDLK_KP_MINUS:
		if (v->speed_i > 0)
			v->speed_i--;
		break;
	case SDLK_f:
		e = shift ? vs_timeline_prev_failure(v->tl, at) : vs_timeline_next_failure(v->tl, at);
		if (e)
			step_to(v, e);
		else
			say(v, "no %s failure%s", shift ? "earlier" : "later",
				vs_timeline_complete(v->tl) ? "" : " recorded yet");
		break;
	case SDLK_TAB:
		if (v->narenas)
			v->chart_arena = (v->chart_arena + 1) % v->narenas;
		break;
	case SDLK_s:
	case SDLK_F12:
		screenshot_key(v);
		break;
	case SDLK_h:
	case SDLK_F1:
	case SDLK_QUESTION:
		v->help = 1;
		break;
	case SDLK_q:
	case SDLK_ESCAPE:
		v->quit = 1;
		break;
	default:
		break;
	}
}

static void seek_at_mouse(viewer *v)
{
	int s;

	if (v->dragging == 1) {
		uint64_t e = time_event(v, v->mx);
		view_seek(v, e);
	} else if (v->dragging >= 2) {
		s = v->dragging - 2;
		view_seek(v, vs_render_time_event(vs_timeline_render_history(v->tl, s), v->sp[s].chart, v->mx));
	}
}

static void on_event(viewer *v, const SDL_Event *e)
{
	int s;

	switch (e->type) {
	case SDL_QUIT:
		v->quit = 1;
		break;
	case SDL_KEYDOWN:
		on_key(v, &e->key.keysym);
		break;
	case SDL_TEXTINPUT:
		if (strcmp(e->text.text, "?") == 0)
			v->help = !v->help;
		break;
	case SDL_MOUSEMOTION:
		v->mx = e->motion.x;
		v->my = e->motion.y;
		v->mouse_in = 1;
		if (v->dragging)
			seek_at_mouse(v);
		break;
	case SDL_MOUSEBUTTONDOWN:
		v->mx = e->button.x;
		v->my = e->button.y;
		v->mouse_in = 1;
		if (e->button.button != SDL_BUTTON_LEFT || v->help) {
			v->help = 0;
			break;
		}
		if (inside(rect(v->timeline.x - 4, v->timeline.y - 4, v->timeline.w + 8, v->timeline.h + 8), v->mx, v->my))
			v->dragging = 1;
		for (s = 0; s < v->nsides; s++)
			if (inside(v->sp[s].chart, v->mx, v->my))
				v->dragging = 2 + s;
		if (v->dragging) {
			v->playing = 0;
			seek_at_mouse(v);
		}
		break;
	case SDL_MOUSEBUTTONUP:
		if (e->button.button == SDL_BUTTON_LEFT)
			v->dragging = 0;
		break;
	case SDL_MOUSEWHEEL:
		if (e->wheel.y) {
			uint64_t at = vs_timeline_at(v->tl);
			int64_t d = e->wheel.y > 0 ? -1 : 1;
			step_to(v, d < 0 ? (at ? at - 1 : 0) : at + 1);
		}
		break;
	case SDL_WINDOWEVENT:
		if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e->window.event == SDL_WINDOWEVENT_RESIZED) {
			if (resize_canvas(v, e->window.data1, e->window.data2))
				v->quit = 2;
		} else if (e->window.event == SDL_WINDOWEVENT_LEAVE) {
			v->mouse_in = 0;
		}
		break;
	default:
		break;
	}
}

/* ---- the loop ---------------------------------------------------------- */

static uint64_t count_lines(const char *path)
{
	FILE *fp = fopen(path, "rb");
	static char buf[1 << 16];
	uint64_t n = 0;
	size_t got;

	if (!fp)
		return 0;
	while ((got = fread(buf, 1, sizeof buf, fp)) > 0) {
		const char *p = buf, *end = buf + got;
		while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			n++;
			p++;
		}
	}
	fclose(fp);
	return n;
}

/* Records for about budget_ms. */
static int record_some(viewer *v, double budget_ms)
{
	uint64_t t0 = SDL_GetPerformanceCounter();
	int rc = 1;

	while (rc == 1 && ms_since(t0) < budget_ms)
		rc = vs_timeline_record(v->tl, 512);
	v->record_ms += ms_since(t0);
	if (rc == 0) {
		int s;
		view_log(v, "recorded %llu events in %.0f ms; timeline %.1f MiB, %zu checkpoints per side",
			(unsigned long long)vs_timeline_recorded(v->tl), v->record_ms,
			(double)vs_timeline_bytes(v->tl) / 1048576.0, vs_timeline_checkpoints(v->tl));
		for (s = 0; s < v->nsides; s++)
			if (vs_timeline_error(v->tl, s))
				view_log(v, "side %d stopped: %s", s + 1, vs_timeline_error(v->tl, s));
	}
	return rc;
}

static void play(viewer *v, double dt)
{
	uint64_t at = vs_timeline_at(v->tl), rec = vs_timeline_recorded(v->tl), n;

	if (!v->playing)
		return;
	v->acc += speeds[v->speed_i] * dt;
	n = (uint64_t)v->acc;
	v->acc -= (double)n;
	if (!n)
		return;
	if (at + n >= rec) {
		n = rec - at;
		if (vs_timeline_complete(v->tl))
			v->playing = 0;
	}
	if (n)
		view_seek(v, at + n);
}

static void present(viewer *v)
{
	if (!v->ren || !v->tex)
		return;
	SDL_UpdateTexture(v->tex, NULL, v->canvas.px, v->canvas.w * 4);
	SDL_RenderClear(v->ren);
	SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
	SDL_RenderPresent(v->ren);
}

static void report_times(viewer *v)
{
	view_log(v, "frames %llu: compose mean %.2f ms, p99 %.2f ms, max %.2f ms; whole frame mean %.2f ms, p99 %.2f ms",
		(unsigned long long)v->compose.n, v->compose.n ? v->compose.sum / (double)v->compose.n : 0.0,
		time_p99(&v->compose), v->compose.max, v->frame.n ? v->frame.sum / (double)v->frame.n : 0.0,
		time_p99(&v->frame));
	view_log(v, "present (upload and show): mean %.2f ms, p99 %.2f ms, max %.2f ms",
		v->present.n ? v->present.sum / (double)v->present.n : 0.0, time_p99(&v->present), v->present.max);
	view_log(v, "seeks %llu: mean %.3f ms, p99 %.3f ms, max %.3f ms",
		(unsigned long long)v->seek.n, v->seek.n ? v->seek.sum / (double)v->seek.n : 0.0, time_p99(&v->seek),
		v->seek.max);
}

static void loop(viewer *v)
{
	uint64_t last = SDL_GetPerformanceCounter();
	int scripted = v->sc != NULL, busy = 1;
	Uint32 shown = 0;

	while (!v->quit) {
		uint64_t t0 = SDL_GetPerformanceCounter(), tc;
		double dt = (double)(t0 - last) / (double)SDL_GetPerformanceFrequency();
		SDL_Event e;

		last = t0;
		if (scripted) {
			/* deterministic: the script starts once all is recorded and
			 * every frame is 1/60 s */
			dt = 1.0 / 60.0;
			if (!vs_timeline_complete(v->tl)) {
				if (record_some(v, 1e9) < 0)
					break;
			} else if (!script_step(v, v->sc)) {
				break;
			}
		} else if (!vs_timeline_complete(v->tl)) {
			if (record_some(v, v->playing ? 6.0 : 10.0) < 0) {
				say(v, "out of memory while recording");
				v->playing = 0;
			}
		}
		while (SDL_PollEvent(&e)) {
			on_event(v, &e);
			busy = 1;
		}
		if (v->quit)
			break;
		play(v, dt);
		/* nothing moves: leave the last picture up (half a second at most,
		 * so timed messages still go away) */
		if (!scripted && !busy && !v->playing && vs_timeline_complete(v->tl) &&
			!SDL_TICKS_PASSED(SDL_GetTicks(), shown + 500)) {
			SDL_Delay(10);
			continue;
		}
		busy = 0;
		shown = SDL_GetTicks();
		tc = SDL_GetPerformanceCounter();
		compose(v);
		time_add(&v->compose, ms_since(tc));
		if (v->shot_pending[0]) {
			write_png(v, v->shot_pending);
			v->shot_pending[0] = 0;
		}
		tc = SDL_GetPerformanceCounter();
		present(v);
		time_add(&v->present, ms_since(tc));
		v->frames++;
		if (!scripted && !(SDL_GetWindowFlags(v->win) & SDL_WINDOW_SHOWN))
			SDL_Delay(16);
		if (!scripted && v->o->no_vsync) {
			double spent = ms_since(t0);
			if (spent < 16.0)
				SDL_Delay((Uint32)(16.0 - spent));
		}
		time_add(&v->frame, ms_since(t0));
	}
}

int vs_viewer_run(const vs_viewer_opts *o, char *err, size_t errlen)
{
	static viewer vv;
	viewer *v = &vv;
	const char *base;
	int rc = 0, w = o->width ? o->width : 1280, h = o->height ? o->height : 800;
	Uint32 rflags;

	memset(v, 0, sizeof *v);
	v->o = o;
	v->log = o->log ? o->log : stdout;
	v->nsides = o->nsides;
	v->speed_i = DEFAULT_SPEED;
	v->hover_side = -1;
	base = strrchr(o->trace, '/');
	snprintf(v->trace_name, sizeof v->trace_name, "%s", base ? base + 1 : o->trace);
	if (o->script) {
		v->sc = script_load(o->script, err, errlen);
		if (!v->sc)
			return 2;
	}
	v->tl = vs_timeline_open(o->trace, o->nsides, o->cfg, err, errlen);
	if (!v->tl) {
		script_free(v->sc);
		return 2;
	}
	v->narenas = vs_timeline_arena_count(v->tl);
	v->est_events = count_lines(o->trace);
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		snprintf(err, errlen, "cannot start SDL video (%s); set SDL_VIDEODRIVER=offscreen or dummy to run headless",
			SDL_GetError());
		rc = 2;
		goto out;
	}
	v->win = SDL_CreateWindow("vramsim view", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, w, h,
		SDL_WINDOW_RESIZABLE);
	if (!v->win) {
		snprintf(err, errlen, "cannot open a window: %s", SDL_GetError());
		rc = 2;
		goto out;
	}
	rflags = o->no_vsync || o->script ? 0 : SDL_RENDERER_PRESENTVSYNC;
	v->ren = SDL_CreateRenderer(v->win, -1, rflags);
	if (!v->ren)
		v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
	if (!v->ren) {
		snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
		rc = 2;
		goto out;
	}
	SDL_GetWindowSize(v->win, &w, &h);
	if (resize_canvas(v, w, h)) {
		snprintf(err, errlen, "out of memory for a %dx%d canvas", w, h);
		rc = 2;
		goto out;
	}
	{
		SDL_RendererInfo ri;
		SDL_GetRendererInfo(v->ren, &ri);
		view_log(v, "view: %s, %d side%s, video %s, renderer %s%s, %dx%d", o->trace, v->nsides,
			v->nsides > 1 ? "s" : "", SDL_GetCurrentVideoDriver(), ri.name,
			ri.flags & SDL_RENDERER_PRESENTVSYNC ? " (vsync)" : "", w, h);
	}
	SDL_StartTextInput();
	loop(v);
	report_times(v);
	if (v->quit == 2) {
		snprintf(err, errlen, "out of memory on resize");
		rc = 2;
	} else if (v->script_failed) {
		rc = 1;
	}
out:
	if (v->tex)
		SDL_DestroyTexture(v->tex);
	if (v->ren)
		SDL_DestroyRenderer(v->ren);
	if (v->win)
		SDL_DestroyWindow(v->win);
	SDL_Quit();
	vs_image_fini(&v->canvas);
	vs_image_fini(&v->sp[0].chart_img);
	vs_image_fini(&v->sp[1].chart_img);
	vs_timeline_free(v->tl);
	script_free(v->sc);
	v->tl = NULL;
	v->sc = NULL;
	return rc;
}
