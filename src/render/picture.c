/* SPDX-License-Identifier: Zlib */
/* picture.c - whole pictures: title, headings, maps or plots, legends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"
#include "base/grow.h"
#include "vram/arena.h"
#include "render/history.h"
#include "render/picture.h"

#define MARGIN 10
#define TITLE_H (2 * VS_FONT_H + 6)
#define LINE_H (VS_FONT_H + 3)
#define SWATCH 8
#define PLOT_W 1024
#define HEAT_H 256
#define CHART_H 200
/* heatmaps and charts: the plot and the axes' margins (history_impl.h) */
#define HISTORY_W (PLOT_W + VS__PLOT_LEFT + VS__PLOT_RIGHT)

/* ---- legends ----------------------------------------------------------- */

typedef struct legend_item {
	char text[VS_TAG_MAX + 24];
	uint32_t colour;
	int kind;     /* vs_unit_kind for the swatch pattern, or -1: plain colour */
	int is_map;
} legend_item;

typedef struct legend {
	legend_item *it;
	int n, cap;
} legend;

/* Tags listed in a legend: a picture of a trace with thousands of tags
 * keeps a legend of bounded size (and time to build it). */
#define LEGEND_TAGS 64

static void legend_add(legend *L, const char *text, uint32_t colour, int kind, int is_map)
{
	if (L->n == L->cap && vs_grow_int(&L->it, sizeof *L->it, &L->cap, (size_t)L->n + 1, 16))
		return;
	snprintf(L->it[L->n].text, sizeof L->it[0].text, "%s", text);
	L->it[L->n].colour = colour;
	L->it[L->n].kind = kind;
	L->it[L->n].is_map = is_map;
	L->n++;
}

/* Lays items out left to right in rows of width w; draws them when im is
 * not NULL. Returns the height used. */
static int legend_flow(vs_image *im, int x0, int y0, int w, const legend *L)
{
	int x = x0, y = y0, k;

	if (!L->n)
		return 0;
	for (k = 0; k < L->n; k++) {
		int iw = SWATCH + 4 + vs_image_text_width(L->it[k].text, 1) + 12;
		if (x > x0 && x + iw > x0 + w) {
			x = x0;
			y += LINE_H;
		}
		if (im) {
			int sx, sy;
			vs__box(im, (vs_rect){ x - 1, y - 1, SWATCH + 2, SWATCH + 2 }, VS_BOX_SWATCH, L->it[k].text);
			vs_image_frame(im, (vs_rect){ x - 1, y - 1, SWATCH + 2, SWATCH + 2 }, VS_RGB_DIM);
			for (sy = 0; sy < SWATCH; sy++)
				for (sx = 0; sx < SWATCH; sx++)
					vs_image_put(im, x + sx, y + sy,
						L->it[k].kind < 0 ? L->it[k].colour :
						vs_colour_unit_pixel((vs_unit_kind)L->it[k].kind, L->it[k].colour, L->it[k].is_map, sx, sy));
			vs_image_text(im, x + SWATCH + 4, y, L->it[k].text, VS_RGB_TEXT, 1);
		}
		x += iw;
	}
	return y - y0 + LINE_H;
}

static int cmp_item(const void *a, const void *b)
{
	return strcmp(((const legend_item *)a)->text, ((const legend_item *)b)->text);
}

static void kind_legend(legend *L, int bg)
{
	legend_add(L, "free", VS_RGB_FREE, VS_UNIT_FREE, 0);
	legend_add(L, "slack (granted, not asked)", 0x9AA5B8FFu, VS_UNIT_SLACK, 0);
	legend_add(L, "overhead", 0x9AA5B8FFu, VS_UNIT_OVERHEAD, 0);
	legend_add(L, "retained", 0x9AA5B8FFu, VS_UNIT_RETAINED, 0);
	legend_add(L, "reserved by hardware", 0, VS_UNIT_RESERVED, 0);
	if (bg)
		legend_add(L, "BG map (lined) vs tiles (solid)", 0x9AA5B8FFu, VS_UNIT_DATA, 1);
}

/* ---- occupancy --------------------------------------------------------- */

/* The legend of a colouring other than by tag: its bins. */
static void bins_legend(vs_colour_by by, legend *L)
{
	const char *name;
	uint32_t c;
	int k, n = vs_colour_by_bin(by, 0, &name, &c);

	for (k = 0; k < n; k++) {
		vs_colour_by_bin(by, k, &name, &c);
		legend_add(L, name, c, VS_UNIT_DATA, 0);
	}
}

static void tags_of_arena(const vs_render_src *s, legend *L)
{
	const vs_arena *a = s->arena;
	uint32_t u, last = VS_OWNER_NONE;
	int k, before = L->n, dsidx = 0, more = 0;
	vs_own_run run;

	for (u = 0; vs_arena_run_at(a, u, &run) == 0; u = run.first + run.count) {
		uint32_t o = run.owner;
		const vs_live *l;
		const char *name;
		char text[VS_TAG_MAX + 24];
		if (run.kind == VS_UNIT_INDEX)
			dsidx = 1;
		if (o == VS_OWNER_NONE || o == VS_OWNER_HW || o == VS_OWNER_ALLOC || o == last)
			continue;
		last = o;
		l = s->owner ? s->owner(s->ud, o) : NULL;
		name = l && l->req.tag && s->tag_name ? s->tag_name(s->ud, l->req.tag) : NULL;
		snprintf(text, sizeof text, "%s", name && *name ? name : "(untagged)");
		for (k = before; k < L->n; k++)
			if (strcmp(L->it[k].text, text) == 0)
				break;
		if (k < L->n)
			continue;
		if (L->n - before == LEGEND_TAGS)
			more = 1;
		else
			legend_add(L, text, vs_colour_tag_id(l ? l->req.tag : 0), VS_UNIT_DATA, 0);
	}
	if (L->n - before > 1)
		qsort(L->it + before, (size_t)(L->n - before), sizeof *L->it, cmp_item);
	if (more)
		legend_add(L, "more tags, not listed", VS_RGB_DIM, -1, 0);
	if (dsidx)
		legend_add(L, "4x4 index data (slot 1, owner's colour)", 0x9AA5B8FFu, VS_UNIT_INDEX, 0);
}

static void metrics_line(char *buf, size_t n, const vs_metrics *m)
{
	snprintf(buf, n, "live %llu B (granted %llu) of %llu usable; free %llu B in %llu extents, largest %llu; "
		"frag %.1f%%; failures %llu",
		(unsigned long long)m->live_bytes, (unsigned long long)m->granted_bytes,
		(unsigned long long)m->usable_bytes, (unsigned long long)m->free_bytes,
		(unsigned long long)m->free_extents, (unsigned long long)m->largest_free, m->frag * 100.0,
		(unsigned long long)m->failures);
}

static void heading(char *buf, size_t n, const vs_arena_decl *d, const char *strategy)
{
	if (d->kind == VS_ARENA_GBA_OBJ || d->kind == VS_ARENA_GBA_BG)
		snprintf(buf, n, "arena %s: %s mode %u%s, strategy %s", d->name, vs_arena_kind_name(d->kind),
			(unsigned)d->gba_mode, d->kind == VS_ARENA_GBA_OBJ && d->gba_obj_2d ? " 2D mapping" : "",
			strategy ? strategy : "?");
	else
		snprintf(buf, n, "arena %s: %s, strategy %s", d->name, vs_arena_kind_name(d->kind),
			strategy ? strategy : "?");
}

#define STRIP_H 12

/* The replay's time line under a map: failures as red ticks, a white
 * cursor at the event shown. */
static void event_strip(vs_image *im, int x, int y, int w, const vs_history *hs, int arena, uint64_t event)
{
	size_t nf, k;
	const uint64_t *f = vs_history_failures(hs, arena, &nf);

	vs__box(im, (vs_rect){ x, y - 1, w, STRIP_H - 3 }, VS_BOX_PLOT, "time line");
	vs_image_fill(im, (vs_rect){ x, y, w, STRIP_H - 4 }, VS_RGB_FREE);
	for (k = 0; k < nf; k++)
		vs_image_vline(im, vs__history_x(hs, x, w, f[k]), y, y + STRIP_H - 5, VS_RGB_FAIL);
	if (event > vs__history_base(hs))
		vs_image_vline(im, vs__history_x(hs, x, w, event), y - 1, y + STRIP_H - 4, VS_RGB_CURSOR);
}

/* The boxes of a map's panels (their cells and frame), for the box hook. */
static void map_boxes(const vs_image *im, int x, int y, const vs_layout *L)
{
	int i;

	for (i = 0; i < L->npanels; i++) {
		const vs_layout_panel *p = &L->panel[i];
		int pw = p->cols * (p->cw + p->gap) - p->gap, ph = p->rows * (p->ch + p->gap + p->row_gap) - p->gap - p->row_gap;
		vs__box(im, (vs_rect){ x + p->x - 1, y + p->y - 1, pw + 2, ph + 2 }, VS_BOX_PLOT, p->label);
	}
}

/* A picture's title: twice the font's size, or once when that is too wide
 * for w (a long trace name), and then, when even that is, its middle left
 * out for "...": its start says what the picture is, its end which trace
 * (two traces' titles differ there, not in their folders). */
static void title_text(vs_image *im, int x, int y, int w, const char *title)
{
	size_t len = strlen(title), head = len / 2 < 16 ? len / 2 : 16, tail = len - head;
	char buf[512];

	if (vs_image_text_width(title, 2) <= w) {
		vs_image_text(im, x, y, title, VS_RGB_TEXT, 2);
		return;
	}
	if (tail > sizeof buf - head - 4)
		tail = sizeof buf - head - 4;
	snprintf(buf, sizeof buf, "%s", title);
	while (vs_image_text_width(buf, 1) > w && tail > 0) {
		tail--;
		snprintf(buf, sizeof buf, "%.*s...%s", (int)head, title, title + len - tail);
	}
	vs_image_text(im, x, y + VS_FONT_H / 2, buf, VS_RGB_TEXT, 1);
}

int vs_picture_occupancy(vs_image *out, const vs_render_src *src, int n, const char *title, const vs_history *fails)
{
	vs_layout *lay;
	legend *leg;
	int i, w = 480, h, y, ok = 0;
	char buf[512];

	if (n <= 0)
		return -1;
	lay = calloc((size_t)n, sizeof *lay);
	leg = calloc((size_t)n, sizeof *leg);
	if (!lay || !leg)
		goto done;
	for (i = 0; i < n; i++) {
		vs_arena_decl d = src[i].arena->decl;
		if (src[i].shown && src[i].shown < d.size)
			d.size = src[i].shown; /* the part ever used */
		if (vs_layout_make(&lay[i], &d, 0, 0))
			goto done;
		if (lay[i].w > w)
			w = lay[i].w;
	}
	if (title && vs_image_text_width(title, 2) > w)
		w = vs_image_text_width(title, 2);
	for (i = 0; i < n; i++)
		if (src[i].metrics) {
			metrics_line(buf, sizeof buf, src[i].metrics);
			if (vs_image_text_width(buf, 1) > w)
				w = vs_image_text_width(buf, 1);
		}
	if (w < 600)
		w = 600;
	h = MARGIN + TITLE_H;
	for (i = 0; i < n; i++) {
		if (src[i].colour_by)
			bins_legend(src[i].colour_by, &leg[i]);
		else
			tags_of_arena(&src[i], &leg[i]);
		kind_legend(&leg[i], src[i].arena->decl.kind == VS_ARENA_GBA_BG);
		if (fails)
			legend_add(&leg[i], "failed request (time line)", VS_RGB_FAIL, -1, 0);
		h += 3 * LINE_H + lay[i].h + 6 + (fails ? STRIP_H + 4 : 0) + legend_flow(NULL, 0, 0, w, &leg[i]) + 10;
	}
	h += MARGIN;
	if (vs_image_init(out, w + 2 * MARGIN, h, VS_RGB_BG))
		goto done;
	y = MARGIN;
	vs_image_text(out, MARGIN, y, title ? title : "occupancy", VS_RGB_TEXT, 2);
	y += TITLE_H;
	for (i = 0; i < n; i++) {
		const vs_render_src *s = &src[i];
		heading(buf, sizeof buf, &s->arena->decl, s->strategy);
		vs_image_text(out, MARGIN, y, buf, VS_RGB_TEXT, 1);
		y += LINE_H;
		if (s->shown && s->shown < s->arena->decl.size)
			snprintf(buf, sizeof buf, "after event %llu (frame %llu); shown: the first %u bytes, up to the "
				"high-water mark (--whole for all)", (unsigned long long)s->event, (unsigned long long)s->frame,
				(unsigned)s->shown);
		else
			snprintf(buf, sizeof buf, "after event %llu (frame %llu)", (unsigned long long)s->event,
				(unsigned long long)s->frame);
		vs_image_text(out, MARGIN, y, buf, VS_RGB_DIM, 1);
		y += LINE_H;
		if (s->metrics) {
			metrics_line(buf, sizeof buf, s->metrics);
			vs_image_text(out, MARGIN, y, buf, s->metrics->failures ? VS_RGB_FAIL : VS_RGB_DIM, 1);
		}
		y += LINE_H;
		vs_render_arena(out, MARGIN, y, &lay[i], s);
		map_boxes(out, MARGIN, y, &lay[i]);
		y += lay[i].h + 6;
		if (fails) {
			event_strip(out, MARGIN, y, lay[i].w, fails, i, s->event);
			y += STRIP_H + 4;
		}
		y += legend_flow(out, MARGIN, y, w, &leg[i]) + 10;
	}
	ok = 1;
done:
	if (leg)
		for (i = 0; i < n; i++)
			free(leg[i].it);
	free(leg);
	free(lay);
	return ok ? 0 : -1;
}

/* ---- heatmap and chart -------------------------------------------------- */

static void history_tags(const vs_history *hs, legend *L)
{
	uint32_t t, c;

	int more = 0;

	for (t = 0; t < vs__history_tag_count(hs); t++) {
		const char *name = vs__history_tag(hs, t, &c);
		if (name && L->n == LEGEND_TAGS)
			more = 1;
		else if (name)
			legend_add(L, name, c, -1, 0);
	}
	if (L->n > 1)
		qsort(L->it, (size_t)L->n, sizeof *L->it, cmp_item);
	if (more)
		legend_add(L, "more tags, not listed", VS_RGB_DIM, -1, 0);
}

int vs_picture_heatmap(vs_image *out, const vs_history *hs, vs_heat_mode mode, const char *title)
{
	legend L;
	int i, n = vs_history_arena_count(hs), w = HISTORY_W, h, y, k;
	char buf[256];

	memset(&L, 0, sizeof L);
	if (mode == VS_HEAT_OWNER && vs_history_colour_by(hs)) {
		bins_legend(vs_history_colour_by(hs), &L);
		legend_add(&L, "free", VS_RGB_FREE, -1, 0);
		legend_add(&L, "overhead", VS_RGB_OVERHEAD, -1, 0);
	} else if (mode == VS_HEAT_OWNER) {
		history_tags(hs, &L);
		legend_add(&L, "free", VS_RGB_FREE, -1, 0);
		legend_add(&L, "overhead", VS_RGB_OVERHEAD, -1, 0);
	} else {
		for (k = 0; k <= 4; k++) {
			static const char *const names[] = { "0%", "25%", "50%", "75%", "100% in use" };
			legend_add(&L, names[k], vs__occ_ramp((uint8_t)(k * 255 / 4)), -1, 0);
		}
	}
	legend_add(&L, "reserved by hardware", VS_RGB_RESERVED, -1, 0);
	legend_add(&L, "failed request (tick)", VS_RGB_FAIL, -1, 0);
	h = MARGIN + TITLE_H;
	for (i = 0; i < n; i++)
		h += LINE_H + HEAT_H + 9 + 12 + 8;
	h += legend_flow(NULL, 0, 0, w, &L) + MARGIN;
	if (vs_image_init(out, w + 2 * MARGIN, h, VS_RGB_BG)) {
		free(L.it);
		return -1;
	}
	y = MARGIN;
	title_text(out, MARGIN, y, w, title ? title : "heatmap");
	y += TITLE_H;
	for (i = 0; i < n; i++) {
		static const char *const by[] = { "owner tag", "size", "age", "depth" };
		snprintf(buf, sizeof buf, "arena %s: %s over time (x: %s, y: address)", vs__history_arena_name(hs, i),
			mode == VS_HEAT_OWNER ? by[vs_history_colour_by(hs)] : "occupancy", vs_history_frames(hs) ? "frames" :
			"events");
		vs_image_text(out, MARGIN, y, buf, VS_RGB_TEXT, 1);
		y += LINE_H;
		vs_history_draw_heatmap(out, (vs_rect){ MARGIN, y, w, HEAT_H + 9 + 12 }, hs, i, mode, 0);
		y += HEAT_H + 9 + 12 + 8;
	}
	legend_flow(out, MARGIN, y, w, &L);
	free(L.it);
	return 0;
}

int vs_picture_chart(vs_image *out, const vs_history *hs, const char *title)
{
	legend L;
	int i, n = vs_history_arena_count(hs), w = HISTORY_W, h, y;
	char buf[256];

	memset(&L, 0, sizeof L);
	legend_add(&L, "live bytes", VS_RGB_LIVE, -1, 0);
	legend_add(&L, "largest free extent", VS_RGB_LARGEST, -1, 0);
	legend_add(&L, "fragmentation (right axis)", VS_RGB_FRAG, -1, 0);
	legend_add(&L, "failed request (tick)", VS_RGB_FAIL, -1, 0);
	h = MARGIN + TITLE_H;
	for (i = 0; i < n; i++)
		h += 2 * LINE_H + CHART_H + 9 + 12 + 8;
	h += legend_flow(NULL, 0, 0, w, &L) + MARGIN;
	if (vs_image_init(out, w + 2 * MARGIN, h, VS_RGB_BG)) {
		free(L.it);
		return -1;
	}
	y = MARGIN;
	title_text(out, MARGIN, y, w, title ? title : "chart");
	y += TITLE_H;
	for (i = 0; i < n; i++) {
		uint64_t nf = vs_history_failure_count(hs, i);
		snprintf(buf, sizeof buf, "arena %s: live bytes, largest free extent, fragmentation", vs__history_arena_name(hs, i));
		vs_image_text(out, MARGIN, y, buf, VS_RGB_TEXT, 1);
		y += LINE_H;
		snprintf(buf, sizeof buf, "peak live at event %llu, peak fragmentation at event %llu, %llu failed requests",
			(unsigned long long)vs_history_peak_live_event(hs, i),
			(unsigned long long)vs_history_peak_frag_event(hs, i), (unsigned long long)nf);
		vs_image_text(out, MARGIN, y, buf, nf ? VS_RGB_FAIL : VS_RGB_DIM, 1);
		y += LINE_H;
		vs_history_draw_chart(out, (vs_rect){ MARGIN, y, w, CHART_H + 9 + 12 }, hs, i, 0);
		y += CHART_H + 9 + 12 + 8;
	}
	legend_flow(out, MARGIN, y, w, &L);
	free(L.it);
	return 0;
}

int vs_picture_hcat(vs_image *out, const vs_image *a, const vs_image *b)
{
	int w = a->w + b->w + 2, h = a->h > b->h ? a->h : b->h;

	if (vs_image_init(out, w, h, VS_RGB_BG))
		return -1;
	vs_image_blit(out, 0, 0, a);
	vs_image_vline(out, a->w, 0, h - 1, VS_RGB_GRID);
	vs_image_blit(out, a->w + 2, 0, b);
	return 0;
}
