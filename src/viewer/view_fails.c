/* SPDX-License-Identifier: Zlib */
/* view_fails.c - the failure list panel: every event that failed on some
 * side, merged from the timeline's lists as recording goes on; where it
 * is, how it is drawn, and the keys and mouse it takes while open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_int.h"
#include "vram/request.h"

/* Events that failed on either side, merged (rebuilt as recording goes on). */
static void fails_update(viewer *v)
{
	uint64_t rec = vs_timeline_recorded(v->tl);
	size_t n0 = 0, n1 = 0, i = 0, j = 0, need;
	const uint32_t *a = vs_timeline_failures(v->tl, 0, &n0), *b = NULL;

	if (v->fail_rows_valid && v->fail_rows_rec == rec)
		return;
	if (v->nsides > 1)
		b = vs_timeline_failures(v->tl, 1, &n1);
	need = n0 + n1;
	if (need > v->capfail_rows) {
		uint32_t *q = realloc(v->fail_rows, need * sizeof *q);
		if (!q)
			return;
		v->fail_rows = q;
		v->capfail_rows = need;
	}
	v->nfail_rows = 0;
	while (i < n0 || j < n1) {
		uint32_t e = j >= n1 || (i < n0 && a[i] <= b[j]) ? a[i] : b[j];
		while (i < n0 && a[i] == e)
			i++;
		while (j < n1 && b[j] == e)
			j++;
		v->fail_rows[v->nfail_rows++] = e;
	}
	v->fail_rows_rec = rec;
	v->fail_rows_valid = 1;
	if (v->fail_sel >= v->nfail_rows)
		v->fail_sel = v->nfail_rows ? v->nfail_rows - 1 : 0;
}

/* The failure kinds column: "1: out of memory  2: out of memory" at most. */
#define FAIL_KINDS_W(v) ((v)->nsides > 1 ? 34 : 14)

/* The list's column heads; rows line up with them (fails_row_text). */
static void fails_header(viewer *v, char *buf, size_t len)
{
	snprintf(buf, len, "%7s %6s %6s  %-*s  %-10s  %-22s", "event", "frame", "id", FAIL_KINDS_W(v),
		v->nsides > 1 ? "failed: side 1, side 2" : "failed", "tag", "request");
}

/* The panel: over the right of the arenas and charts, wide enough for a
 * row when the window is. */
static vs_rect fails_panel(viewer *v)
{
	char head[160];
	int y = v->top.h + 4, w = v->W * 2 / 3, need;

	fails_header(v, head, sizeof head);
	need = vs_image_text_width(head, v->ts) + 16;
	if (w < need)
		w = need;
	if (w > v->W - 16)
		w = v->W - 16;
	return rect_make(v->W - 8 - w, y, w, v->legend.y - 4 - y);
}

/* First row's top, and how many rows fit. */
static int fails_rows_y(viewer *v, vs_rect p, int *nvis)
{
	int y0 = p.y + 6 + 2 * v->lh;

	*nvis = (p.y + p.h - 4 - y0) / v->lh;
	if (*nvis < 1)
		*nvis = 1;
	return y0;
}

/* Keeps the selected row in view. */
static void fails_scroll(viewer *v)
{
	int nvis;

	fails_rows_y(v, fails_panel(v), &nvis);
	if (v->fail_sel < v->fail_top)
		v->fail_top = v->fail_sel;
	else if (v->fail_sel >= v->fail_top + (size_t)nvis)
		v->fail_top = v->fail_sel - (size_t)nvis + 1;
}

int fails_row_point(viewer *v, size_t k, int *x, int *y)
{
	vs_rect p = fails_panel(v);
	int nvis, y0 = fails_rows_y(v, p, &nvis);

	fails_update(v);
	if (!v->fails_open || k >= v->nfail_rows || k < v->fail_top || k >= v->fail_top + (size_t)nvis)
		return -1;
	*x = p.x + 3;
	*y = y0 + (int)(k - v->fail_top) * v->lh + v->lh / 2;
	return 0;
}

/* Whether the open failure list covers a point. */
int fails_covers(viewer *v, int x, int y)
{
	return v->fails_open && rect_inside(fails_panel(v), x, y);
}

/* ---- drawing ----------------------------------------------------------- */

static void fails_row_text(viewer *v, size_t k, char *buf, size_t len)
{
	uint64_t e = v->fail_rows[k];
	const vs_tl_alloc *al = vs_timeline_alloc(v->tl, (uint32_t)e);
	const char *tag = al ? vs_replay_tag_name(vs_timeline_replay(v->tl, 0), al->req.tag) : NULL;
	char what[96] = "?", kinds[96] = "";
	int s;

	if (al)
		vs_request_describe(&al->req, what, sizeof what);
	for (s = 0; s < v->nsides; s++) {
		int fk = vs_timeline_failure(v->tl, s, e);
		size_t n = strlen(kinds);
		snprintf(kinds + n, sizeof kinds - n, "%s%s%s", s ? "  " : "", v->nsides > 1 ? (s ? "2: " : "1: ") : "",
			fk >= 0 ? vs_replay_fail_kind_name((vs_fail_kind)fk) : "ok");
	}
	/* the kinds before the request: a narrow window cuts the request */
	snprintf(buf, len, "%7llu %6llu %6llu  %-*s  %-10s  %s", (unsigned long long)e,
		(unsigned long long)vs_timeline_frame_at(v->tl, e), al ? (unsigned long long)al->id : 0ull,
		FAIL_KINDS_W(v), kinds, tag && *tag ? tag : "(none)", what);
}

void fails_draw(viewer *v)
{
	vs_rect p = fails_panel(v);
	int nvis, y0 = fails_rows_y(v, p, &nvis), i;
	char buf[320];

	fails_update(v);
	fails_scroll(v);
	draw_fill(&v->canvas, p, RGB_PANEL);
	vs_image_frame(&v->canvas, p, VS_RGB_DIM);
	snprintf(buf, sizeof buf, "failed requests: %zu%s   (l or escape closes)", v->nfail_rows,
		vs_timeline_complete(v->tl) ? "" : " so far");
	draw_text_fit(v, p.x + 8, p.y + 4, buf, VS_RGB_LIVE, p.w - 16);
	fails_header(v, buf, sizeof buf);
	draw_text_fit(v, p.x + 8, p.y + 4 + v->lh, buf, VS_RGB_DIM, p.w - 16);
	for (i = 0; i < nvis && v->fail_top + (size_t)i < v->nfail_rows; i++) {
		size_t k = v->fail_top + (size_t)i;
		int y = y0 + i * v->lh;
		if (k == v->fail_sel)
			draw_fill(&v->canvas, rect_make(p.x + 1, y, p.w - 2, v->lh), RGB_TL_DONE);
		fails_row_text(v, k, buf, sizeof buf);
		draw_text_fit(v, p.x + 8, y + 1, buf, k == v->fail_sel ? VS_RGB_CURSOR : VS_RGB_TEXT, p.w - 16);
	}
}

/* ---- keys and mouse ---------------------------------------------------- */

static void fails_select(viewer *v, size_t k)
{
	v->fail_sel = k;
	fails_scroll(v);
	view_step_to(v, v->fail_rows[k]);
}

void fails_toggle(viewer *v)
{
	uint64_t at = vs_timeline_at(v->tl);
	size_t k = 0;

	v->fails_open = !v->fails_open;
	if (!v->fails_open)
		return;
	/* the first failure at or after the cursor is selected (not gone to) */
	fails_update(v);
	while (k + 1 < v->nfail_rows && v->fail_rows[k] < at)
		k++;
	v->fail_sel = k;
	fails_scroll(v);
}

/* Keys the open failure list takes; 0 for the rest. */
int fails_key(viewer *v, const SDL_Keysym *k)
{
	size_t n, sel = v->fail_sel;
	int nvis;

	fails_update(v);
	n = v->nfail_rows;
	fails_rows_y(v, fails_panel(v), &nvis);
	switch (k->sym) {
	case SDLK_ESCAPE:
		v->fails_open = 0;
		return 1;
	case SDLK_UP:
		sel = sel ? sel - 1 : 0;
		break;
	case SDLK_DOWN:
		sel = sel + 1 < n ? sel + 1 : sel;
		break;
	case SDLK_PAGEUP:
		sel = sel > (size_t)nvis ? sel - (size_t)nvis : 0;
		break;
	case SDLK_PAGEDOWN:
		sel += (size_t)nvis;
		break;
	case SDLK_HOME:
		sel = 0;
		break;
	case SDLK_END:
		sel = n;
		break;
	case SDLK_RETURN:
	case SDLK_KP_ENTER:
		break;
	default:
		return 0;
	}
	if (n)
		fails_select(v, sel < n ? sel : n - 1);
	return 1;
}

/* A click on the open failure list selects the row under the mouse and
 * goes there; 0 when the list is not under the mouse. */
int fails_click(viewer *v)
{
	int nvis, y0;
	size_t k;

	if (!fails_covers(v, v->mx, v->my))
		return 0;
	y0 = fails_rows_y(v, fails_panel(v), &nvis);
	k = v->my >= y0 ? v->fail_top + (size_t)((v->my - y0) / v->lh) : (size_t)-1;
	fails_update(v);
	if (v->my >= y0 && (v->my - y0) / v->lh < nvis && k < v->nfail_rows)
		fails_select(v, k);
	return 1;
}

/* The wheel over the open failure list scrolls it, three rows a click; 0
 * when the list is not under the mouse. */
int fails_wheel(viewer *v, int y)
{
	if (!fails_covers(v, v->mx, v->my))
		return 0;
	fails_update(v);
	if (y > 0)
		v->fail_top = v->fail_top > 3 ? v->fail_top - 3 : 0;
	else if (y < 0 && v->fail_top + 3 < v->nfail_rows)
		v->fail_top += 3;
	return 1;
}
