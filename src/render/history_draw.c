/* SPDX-License-Identifier: Zlib */
/* history_draw.c - heatmaps and charts of a vs_history, with axes. */
#include <stdio.h>
#include <string.h>

#include "history_impl.h"
#include "render/history.h"

#define TICK_H 6

static vs_rect plot_of(vs_rect r)
{
	/* the margins (history_impl.h) */
	vs_rect p = { r.x + VS__PLOT_LEFT, r.y + VS__PLOT_TOP, r.w - VS__PLOT_LEFT - VS__PLOT_RIGHT,
		r.h - VS__PLOT_TOP - VS__PLOT_BOTTOM };

	if (p.w < 1)
		p.w = 1;
	if (p.h < 1)
		p.h = 1;
	return p;
}

/* Pixel x of a plot w wide shows the state after event B + (x + 1) * T / w,
 * B the events before the window (0 without one), T the events in it. */
int vs__history_x(const vs_history *hs, int x0, int w, uint64_t ev)
{
	uint64_t b = vs__history_base(hs), t = vs__history_span(hs);

	if (ev <= b)
		return x0;
	ev -= b;
	if (ev > t)
		ev = t;
	return x0 + (int)((ev * (uint64_t)w - 1) / t);
}

int vs_history_time_x(const vs_history *hs, vs_rect r, uint64_t event)
{
	vs_rect p = plot_of(r);

	return vs__history_x(hs, p.x, p.w, event);
}

uint64_t vs_history_time_event(const vs_history *hs, vs_rect r, int x)
{
	vs_rect p = plot_of(r);
	uint64_t b = vs__history_base(hs), t = vs__history_span(hs);

	if (x < p.x)
		return b;
	if (x >= p.x + p.w)
		return vs_history_windowed(hs) ? vs_history_last_event(hs) : vs_history_events(hs);
	return b + (uint64_t)(x - p.x + 1) * t / (uint64_t)p.w;
}

static void fmt_bytes(char *buf, size_t n, uint64_t v)
{
	if (v >= 1048576 && v % 1048576 == 0)
		snprintf(buf, n, "%lluM", (unsigned long long)(v / 1048576));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, n, "%lluK", (unsigned long long)(v / 1024));
	else if (v >= 10240)
		snprintf(buf, n, "%lluK", (unsigned long long)(v / 1024));
	else
		snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* Ticks under the plot, in frames when the trace has them (people think in
 * frames), else events: the start, three between, and the end with its
 * unit (a window: its first and last); a label that would touch the one
 * before is left out. */
static void time_ticks(vs_image *im, const vs_history *hs, vs_rect r, vs_rect p, int y)
{
	int frames = vs_history_frames(hs) > 0, n = vs_history_columns(hs), k, right = -1000;
	int win = vs_history_windowed(hs);
	uint64_t start = !win ? 0 : frames ? vs__history_first_frame(hs) : vs_history_first_event(hs);
	char buf[64];

	if (win && n > 0)
		snprintf(buf, sizeof buf, "%s %llu-%llu", frames ? "frames" : "events", (unsigned long long)start,
			(unsigned long long)(frames ? vs_history_column_frame(hs, n - 1) : vs_history_last_event(hs)));
	else
		snprintf(buf, sizeof buf, "%llu %s", (unsigned long long)(frames ? vs_history_frames(hs) :
			vs_history_events(hs)), frames ? "frames" : "events");
	vs_image_text(im, p.x + p.w - vs_image_text_width(buf, 1), y, buf, VS_RGB_DIM, 1);
	for (k = 0; k < 4 && n > 0; k++) {
		int c = (int)((int64_t)k * (n - 1) / 4), x, w;
		uint64_t ev = k ? vs_history_column_event(hs, c) : 0;
		uint64_t v = k ? (frames ? vs_history_column_frame(hs, c) : ev) : start;
		char lab[24];
		x = k ? vs_history_time_x(hs, r, ev) : p.x;
		snprintf(lab, sizeof lab, "%llu", (unsigned long long)v);
		w = vs_image_text_width(lab, 1);
		vs_image_vline(im, x, p.y + p.h + 1, p.y + p.h + 2, VS_RGB_DIM);
		x = k ? x - w / 2 : x;
		if (x <= right + VS_FONT_W || x + w >= p.x + p.w - vs_image_text_width(buf, 1) - VS_FONT_W)
			continue;
		vs_image_text(im, x, y, lab, VS_RGB_DIM, 1);
		right = x + w;
	}
}

static void time_axis(vs_image *im, const vs_history *hs, vs_rect r, uint64_t cursor_event, int arena)
{
	vs_rect p = plot_of(r);
	size_t nf, k;
	const uint64_t *f = vs_history_failures(hs, arena, &nf);
	int y = p.y + p.h + 3;

	vs__box(im, (vs_rect){ p.x - 1, p.y - 2 - TICK_H, p.w + 2, p.h + 3 + TICK_H }, VS_BOX_PLOT,
		"plot, its frame and failure ticks");
	vs_image_frame(im, (vs_rect){ p.x - 1, p.y - 1, p.w + 2, p.h + 2 }, VS_RGB_GRID);
	time_ticks(im, hs, r, p, y);
	/* failure ticks above the plot, one per failed request's pixel column */
	for (k = 0; k < nf; k++) {
		int x = vs_history_time_x(hs, r, f[k]);
		vs_image_vline(im, x, p.y - 2 - TICK_H, p.y - 2, VS_RGB_FAIL);
	}
	if (cursor_event) {
		int x = vs_history_time_x(hs, r, cursor_event);
		vs_image_vline(im, x, p.y - 2 - TICK_H, p.y + p.h, VS_RGB_CURSOR);
	}
}

uint32_t vs__occ_ramp(uint8_t o)
{
	/* dark to amber to near white, by occupancy */
	unsigned r, g, b;

	if (o < 128) {
		r = 0x23 + (0xF0 - 0x23) * o / 127;
		g = 0x27 + (0x90 - 0x27) * o / 127;
		b = 0x2F - (0x2F - 0x20) * o / 127;
	} else {
		unsigned k = (unsigned)(o - 128);
		r = 0xF0 + (0xFF - 0xF0) * k / 127;
		g = 0x90 + (0xF0 - 0x90) * k / 127;
		b = 0x20 + (0xD0 - 0x20) * k / 127;
	}
	return (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | 0xFFu;
}

void vs_history_draw_heatmap(vs_image *im, vs_rect r, const vs_history *hs, int i, vs_heat_mode mode,
	uint64_t cursor_event)
{
	vs_rect p = plot_of(r);
	int ncols = vs_history_columns(hs), rows, x, y, c = 0;
	uint64_t b = vs__history_base(hs), t = vs__history_span(hs);
	char buf[32];

	if (i < 0 || i >= vs_history_arena_count(hs) || ncols == 0)
		return;
	rows = vs__history_rows(hs, i);
	for (x = 0; x < p.w; x++) {
		uint64_t e = b + (uint64_t)(x + 1) * t / (uint64_t)p.w;
		const uint32_t *cells;
		const uint8_t *occ;
		while (c < ncols - 1 && vs_history_column_event(hs, c) < e)
			c++;
		cells = vs__history_cells(hs, i, c);
		occ = vs__history_occ(hs, i, c);
		for (y = 0; y < p.h; y++) {
			int row = (int)((int64_t)y * rows / p.h);
			uint32_t px;
			if (mode == VS_HEAT_OCCUPANCY)
				px = cells[row] == VS_RGB_RESERVED ? VS_RGB_RESERVED : vs__occ_ramp(occ[row]);
			else
				px = cells[row];
			vs_image_put(im, p.x + x, p.y + y, px);
		}
	}
	/* address axis: low addresses at the top, as in the occupancy maps */
	snprintf(buf, sizeof buf, "%08X", (unsigned)vs__history_arena_base(hs, i));
	vs_image_text(im, r.x + 2, p.y, buf, VS_RGB_DIM, 1);
	snprintf(buf, sizeof buf, "%08X", (unsigned)(vs__history_arena_base(hs, i) + vs__history_arena_size(hs, i) - 1));
	vs_image_text(im, r.x + 2, p.y + p.h - VS_FONT_H, buf, VS_RGB_DIM, 1);
	vs_image_text(im, r.x + 2, p.y + p.h / 2 - 4, "address", VS_RGB_DIM, 1);
	time_axis(im, hs, r, cursor_event, i);
}

static int val_y(vs_rect p, double v, double vmax)
{
	double f = vmax > 0 ? v / vmax : 0;
	int y;

	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	y = p.y + p.h - 1 - (int)(f * (p.h - 1) + 0.5);
	return y;
}

void vs_history_draw_chart(vs_image *im, vs_rect r, const vs_history *hs, int i, uint64_t cursor_event)
{
	vs_rect p = plot_of(r);
	int ncols = vs_history_columns(hs), c, k;
	double vmax;
	char buf[32];
	int px_prev = -1, yl_prev = 0, yf_prev = 0, yg_prev = 0;

	if (i < 0 || i >= vs_history_arena_count(hs) || ncols == 0)
		return;
	vmax = (double)vs__history_arena_usable(hs, i);
	if (vmax <= 0)
		vmax = 1;
	vs_image_fill(im, p, VS_RGB_FREE);
	for (k = 1; k < 4; k++)
		vs_image_hline(im, p.x, p.x + p.w - 1, p.y + p.h * k / 4, VS_RGB_GRID);
	for (c = 0; c < ncols; c++) {
		uint64_t live, largest;
		double frag;
		int x = vs_history_time_x(hs, r, vs_history_column_event(hs, c));
		int yl, yg, yf;
		vs_history_column_metrics(hs, i, c, &live, &largest, &frag);
		yl = val_y(p, (double)live, vmax);
		yg = val_y(p, (double)largest, vmax);
		yf = val_y(p, frag, 1.0);
		if (px_prev < 0) {
			/* start at the left edge */
			px_prev = p.x;
			yl_prev = yl;
			yg_prev = yg;
			yf_prev = yf;
		}
		vs_image_line(im, px_prev, yg_prev, x, yg, VS_RGB_LARGEST);
		vs_image_line(im, px_prev, yf_prev, x, yf, VS_RGB_FRAG);
		vs_image_line(im, px_prev, yl_prev, x, yl, VS_RGB_LIVE);
		px_prev = x;
		yl_prev = yl;
		yg_prev = yg;
		yf_prev = yf;
	}
	fmt_bytes(buf, sizeof buf, (uint64_t)vmax);
	vs_image_text(im, r.x + 2, p.y, buf, VS_RGB_DIM, 1);
	vs_image_text(im, r.x + 2, p.y + p.h - VS_FONT_H, "0", VS_RGB_DIM, 1);
	vs_image_text(im, r.x + 2, p.y + p.h / 2 - 4, "bytes", VS_RGB_DIM, 1);
	vs_image_text(im, p.x + p.w + 4, p.y, "100%", VS_RGB_FRAG, 1);
	vs_image_text(im, p.x + p.w + 4, p.y + p.h - VS_FONT_H, "0%", VS_RGB_FRAG, 1);
	time_axis(im, hs, r, cursor_event, i);
}
