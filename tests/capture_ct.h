/* SPDX-License-Identifier: Zlib */
/* capture_ct.h - the GBA capture tests' harness (test_capture.c,
 * test_capture_rules.c): frames built by hand, a capture of them and its
 * trace read back event by event, and a replay of it under `recorded`. */
#ifndef VS_TEST_CAPTURE_CT_H
#define VS_TEST_CAPTURE_CT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

#define D_1D 0x0040u
#define D_BLANK 0x0080u
#define D_OBJ 0x1000u
#define D_BG(n) (0x0100u << (n))
#define OBJ0 0x06010000u
#define A_AFFINE 0x0100u
#define A_DOUBLE 0x0200u
#define A_8BPP 0x2000u

/* ---- frames --------------------------------------------------------------- */

static inline void obj(vs_gba_frame *f, unsigned i, unsigned tile, unsigned shape, unsigned size, unsigned flags)
{
	vs_test_oam_obj(f, i, tile, shape, size, flags, 16, 16);
}

/* Nonzero bytes that differ with seed. */
static inline void fill(uint8_t *p, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 0x9E3779B9u;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)(1u + x % 255u);
	}
}

static inline void obj_tiles(vs_gba_frame *f, unsigned tile, unsigned n, unsigned seed)
{
	fill(f->vram + 0x10000 + tile * 32u, n * 32u, seed);
}

/* ---- a capture and its trace read back ------------------------------------ */

typedef struct ev {
	vs_event_type type;
	uint64_t id;
	int frame;
	vs_request req;
	char tag[VS_TAG_MAX];
} ev;

/* One capture: the frame the test edits, the trace and its events. */
typedef struct ct {
	vs_gba_frame *f;
	vs_capture *c;
	FILE *fp;
	char *text;
	size_t len;
	vs_capture_stats st;
	vs_trace_header h;
	ev *v;
	size_t n, cap;
} ct;

/* Starts with every OAM entry hidden; NULL options: OBJ only, defaults. */
static inline void ct_open(ct *t, unsigned dispcnt, const vs_capture_options *o)
{
	vs_capture_options d;
	char err[256];

	memset(t, 0, sizeof *t);
	t->f = vs_test_frame_new(dispcnt);
	if (!o) {
		vs_capture_options_default(&d);
		d.bg = 0;
		o = &d;
	}
	t->fp = open_memstream(&t->text, &t->len);
	ck_assert_ptr_nonnull(t->fp);
	t->c = vs_capture_new(o, t->fp, "# ROM: TEST\ngame code ABCD", err, sizeof err);
	ck_assert_msg(t->c != NULL, "%s", err);
}

static inline void ct_frames(ct *t, int n)
{
	while (n-- > 0)
		ck_assert_int_eq(vs_capture_frame(t->c, t->f), 0);
}

static inline void ct_event(ct *t, const vs_event *x, int frame)
{
	ev *y;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->v = realloc(t->v, t->cap * sizeof *t->v);
		ck_assert_ptr_nonnull(t->v);
	}
	y = &t->v[t->n++];
	y->type = x->type;
	y->id = x->id;
	y->frame = frame;
	y->req = x->req;
	snprintf(y->tag, sizeof y->tag, "%s", x->tag ? x->tag : "");
	ck_assert_msg(x->type != VS_EV_ALLOC || (x->req.has_at == VS_AT_ADDR && x->tag[0]), "alloc without at= or tag=");
}

/* Finishes the capture and reads the trace back, frame by frame. */
static inline void ct_close(ct *t)
{
	vs_trace_reader *rd;
	vs_event x;
	char err[1024];
	int rc, frame = 0;
	FILE *in;

	ck_assert_int_eq(vs_capture_finish(t->c), 0);
	vs_capture_stats_get(t->c, &t->st);
	vs_capture_free(t->c);
	fclose(t->fp);
	in = fmemopen(t->text, t->len, "rb");
	rd = vs_trace_open_stream(in, "capture", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s\n%s", err, t->text);
	t->h = *vs_trace_header_of(rd);
	while ((rc = vs_trace_next(rd, &x)) > 0) {
		if (x.type == VS_EV_FRAME)
			frame++;
		else
			ct_event(t, &x, frame);
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(in);
}

static inline void ct_free(ct *t)
{
	free(t->f);
	free(t->text);
	free(t->v);
}

/* n frames of what the test set up, then the trace. */
static inline void ct_run(ct *t, int n)
{
	ct_frames(t, n);
	ct_close(t);
}

/* The trace's `frame` lines. */
static inline int frame_lines(const ct *t)
{
	const char *p = t->text;
	int n = 0;

	while ((p = strstr(p, "\nframe\n")) != NULL) {
		n++;
		p += 6;
	}
	return n;
}

/* Events of a type in a frame (-1: any). */
static inline int count(const ct *t, vs_event_type type, int frame)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		n += t->v[i].type == type && (frame < 0 || t->v[i].frame == frame);
	return n;
}

/* The first alloc at an address, or NULL. */
static inline const ev *alloc_at(const ct *t, uint32_t at)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_ALLOC && t->v[i].req.at == at)
			return &t->v[i];
	return NULL;
}

static inline const ev *must_alloc(const ct *t, uint32_t at)
{
	const ev *a = alloc_at(t, at);

	ck_assert_msg(a != NULL, "no allocation at 0x%x", (unsigned)at);
	return a;
}

/* Frame of the free of id, -1 if never freed. */
static inline int freed_at(const ct *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_FREE && t->v[i].id == id)
			return t->v[i].frame;
	return -1;
}

static inline vs_capture_options opts(int obj_on, int bg_on)
{
	vs_capture_options o;

	vs_capture_options_default(&o);
	o.obj = obj_on;
	o.bg = bg_on;
	return o;
}

/* ---- replaying a capture ------------------------------------------------- */

static inline void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* What a replay of the trace under `recorded` found. */
typedef struct outcome {
	uint64_t checks, overlaps, diags, frames;
} outcome;

/* Under a strategy (with options, or NULL) for every arena. */
static inline outcome replay_under(const ct *t, const char *strategy, const char *options, int check_bytes)
{
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *rp;
	char err[1024];
	FILE *in = fmemopen(t->text, t->len, "rb");
	outcome out;

	rd = vs_trace_open_stream(in, "capture", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = cfg.strategy[1] = vs_strategy_find(strategy);
	cfg.options[0] = cfg.options[1] = options;
	ck_assert_msg(cfg.strategy[0] != NULL, "no strategy %s", strategy);
	cfg.message = quiet;
	cfg.check_bytes = check_bytes;
	rp = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(rp != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(rp, 0), 0);
	out.checks = vs_replay_check_total(rp);
	out.overlaps = vs_replay_check_count(rp, VS_CHECK_OVERLAP);
	out.diags = vs_replay_diag_total(rp);
	out.frames = vs_replay_frames(rp);
	vs_replay_free(rp);
	fclose(in);
	return out;
}

static inline outcome replay_recorded(const ct *t, int check_bytes)
{
	return replay_under(t, "recorded", NULL, check_bytes);
}

static inline void bg_on(vs_gba_frame *f, unsigned n, unsigned cb, unsigned sbb, unsigned size, unsigned flags)
{
	f->io[VS_IO_DISPCNT] |= (uint16_t)D_BG(n);
	f->io[VS_IO_BG0CNT + n] = (uint16_t)(cb << 2 | sbb << 8 | size << 14 | flags);
}

static inline void text_cell(vs_gba_frame *f, unsigned sbb, unsigned tx, unsigned ty, unsigned entry)
{
	vs_test_put16(f->vram + sbb * 2048u + ty * 64u + tx * 2u, entry);
}

static inline void bg_tile(vs_gba_frame *f, unsigned cb, unsigned tile, unsigned bytes, unsigned seed)
{
	fill(f->vram + cb * 0x4000u + tile * bytes, bytes, seed);
}

/* A BG-only capture in display mode `mode`. */
static inline void bg_open(ct *t, unsigned mode)
{
	vs_capture_options o = opts(0, 1);

	ct_open(t, mode, &o);
}

/* An OBJ-only capture in mode 0 with 1D mapping. */
static inline void obj_open(ct *t, unsigned grace, int sheet)
{
	vs_capture_options o = opts(1, 0);

	o.grace = grace;
	o.sheet = sheet;
	ct_open(t, D_OBJ | D_1D, &o);
}

#endif
