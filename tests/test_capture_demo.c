/* SPDX-License-Identifier: Zlib */
/* test_capture_demo.c - capture agrees with what the game recorded.
 *
 * The demo ROM (tools/demo-rom) records every call of its allocators with
 * record.h. One emulator run both records it and captures it, so each
 * recorded line is dated by the frame it was printed in and the two traces
 * speak of the same frames with the same input:
 *  - every allocation capture infers (sprites, maps, BG tile references) is
 *    a recorded allocation at the same address and size, live at that frame;
 *  - every recorded sprite that lived longer than the grace period, and every
 *    recorded tile reference that lived long enough to scroll on screen, is
 *    in the capture at the same address, at an overlapping time;
 *  - both traces replay under `recorded` with no integrity error;
 *  - `vramsim record` and `vramsim capture` write the same traces as this run.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "console/gba/gba_emu.h"
#include "vramsim/record.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "vram/request.h"

#define DEMO_ROM vs_test_rom("demo.gba")
#define FRAMES 400u
#define NEVER UINT32_MAX

/* One allocation's life: where, how big, from which frame to which
 * (NEVER: live at the end). */
typedef struct life {
	int arena;      /* 0 obj, 1 bg */
	vs_req_shape shape;
	uint32_t at, bytes, from, to;
	uint64_t id;
} life;

typedef struct lives {
	life *v;
	size_t n, cap;
} lives;

/* The recorder's side: the trace text and the frame of each of its lines. */
typedef struct joint {
	FILE *rec;
	uint32_t *line_frame;
	size_t lines, cap;
	uint32_t frame;
} joint;

static void on_line(void *ud, int level, const char *line)
{
	joint *j = ud;
	size_t plen = sizeof VS_REC_PREFIX - 1;

	(void)level;
	if (strncmp(line, VS_REC_PREFIX, plen) != 0)
		return;
	fprintf(j->rec, "%s\n", line + plen);
	if (j->lines == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 4096;
		j->line_frame = realloc(j->line_frame, j->cap * sizeof *j->line_frame);
		ck_assert_ptr_nonnull(j->line_frame);
	}
	j->line_frame[j->lines++] = j->frame;
}

static uint32_t req_bytes(const vs_request *q)
{
	switch (q->shape) {
	case VS_REQ_SPRITE:
		return vs_request_sprite_bytes(q->u.sprite.shape, q->u.sprite.size, q->u.sprite.bpp);
	case VS_REQ_TILE:
		return q->u.tile.bpp * 8u;
	case VS_REQ_BGMAP:
		return vs_request_bgmap_bytes(q->u.bgmap.affine, q->u.bgmap.size);
	default:
		return q->size;
	}
}

/* Reads a trace's allocations and frees. frames: each line's frame, or
 * NULL to count `frame` lines (capture dates its events that way). */
static void read_lives(const char *path, const uint32_t *frames, size_t nframes, lives *out)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_event ev;
	uint32_t frame = 0;
	int rc;

	ck_assert_msg(rd != NULL, "%s", err);
	memset(out, 0, sizeof *out);
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		uint32_t f = frame;
		size_t i;

		if (frames) {
			ck_assert_uint_le(ev.line, nframes);
			f = frames[ev.line - 1];
		}
		if (ev.type == VS_EV_FRAME) {
			frame++;
		} else if (ev.type == VS_EV_ALLOC && ev.req.has_at == VS_AT_ADDR) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 1024;
				out->v = realloc(out->v, out->cap * sizeof *out->v);
				ck_assert_ptr_nonnull(out->v);
			}
			out->v[out->n++] = (life){ ev.arena, ev.req.shape, ev.req.at, req_bytes(&ev.req), f, NEVER, ev.id };
		} else if (ev.type == VS_EV_FREE) {
			for (i = out->n; i-- > 0;)
				if (out->v[i].id == ev.id && out->v[i].to == NEVER) {
					out->v[i].to = f;
					break;
				}
		}
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
}

static int live_at(const life *l, uint32_t frame)
{
	return l->from <= frame && frame < l->to;
}

static int overlap(const life *a, uint32_t from, uint32_t to)
{
	return a->from < to && from < a->to;
}

static const char *what(const life *l)
{
	static const char *const names[] = { "bytes", "sprite", "tile", "map", "tex", "pltt" };

	return names[l->shape];
}

/* Every inferred allocation is a recorded one, live then, same place. */
static size_t capture_in_record(const lives *cap, const lives *rec)
{
	size_t i, j, n = 0;

	for (i = 0; i < cap->n; i++) {
		const life *c = &cap->v[i];

		for (j = 0; j < rec->n; j++) {
			const life *r = &rec->v[j];

			if (r->arena == c->arena && r->shape == c->shape && r->at == c->at && r->bytes == c->bytes &&
				live_at(r, c->from))
				break;
		}
		ck_assert_msg(j < rec->n, "captured %s %u bytes at 0x%x from frame %u: no recorded allocation there then",
			what(c), (unsigned)c->bytes, (unsigned)c->at, (unsigned)c->from);
		n++;
	}
	return n;
}

/* Every recorded allocation that lived longer than min_frames is in the
 * capture at the same place at an overlapping time (a free shows one
 * frame late: the demo writes OAM before its allocator runs). */
static size_t record_in_capture(const lives *rec, const lives *cap, vs_req_shape shape, uint32_t min_frames)
{
	size_t i, j, n = 0;

	for (i = 0; i < rec->n; i++) {
		const life *r = &rec->v[i];
		uint32_t end = r->to == NEVER ? FRAMES : r->to;

		if (r->shape != shape || end - r->from <= min_frames)
			continue;
		for (j = 0; j < cap->n; j++) {
			const life *c = &cap->v[j];

			if (c->arena == r->arena && c->at == r->at && c->bytes == r->bytes &&
				overlap(c, r->from, r->to == NEVER ? NEVER : r->to + 1))
				break;
		}
		ck_assert_msg(j < cap->n, "recorded %s id %llu at 0x%x, frames %u-%u: not in the capture", what(r),
			(unsigned long long)r->id, (unsigned)r->at, (unsigned)r->from, (unsigned)end);
		n++;
	}
	return n;
}

/* The trace without its comment lines (the header names the run). */
static char *events_of(const char *path)
{
	char *text = vs_test_slurp(path), *out = calloc(1, strlen(text) + 1), *p = text, *q = out;

	ck_assert_ptr_nonnull(out);
	while (*p) {
		size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0);

		if (*p != '#') {
			memcpy(q, p, n);
			q += n;
		}
		p += n;
	}
	free(text);
	return out;
}

START_TEST(test_capture_agrees_with_record)
{
	char rec_path[512], cap_path[512], cli_rec[512], cli_cap[512], args[2048], err[1024];
	char out[256], errs[4096];
	vs_gba_emu *e;
	vs_gba_frame *f = malloc(sizeof *f);
	vs_capture_options o;
	vs_capture_stats st;
	vs_capture *c;
	joint j;
	FILE *cap;
	lives rec, capl;
	size_t n_cap, n_sprites, n_tiles;
	char *a, *b;
	uint32_t i;

	ck_assert_ptr_nonnull(f);
	snprintf(rec_path, sizeof rec_path, "%s/tests/capture-demo.rec.trace", VS_BINARY_DIR);
	snprintf(cap_path, sizeof cap_path, "%s/tests/capture-demo.cap.trace", VS_BINARY_DIR);
	memset(&j, 0, sizeof j);
	j.rec = fopen(rec_path, "wb");
	cap = fopen(cap_path, "wb");
	ck_assert_ptr_nonnull(j.rec);
	ck_assert_ptr_nonnull(cap);
	e = vs_gba_emu_open_file(DEMO_ROM, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	vs_gba_emu_set_log(e, on_line, &j);
	vs_capture_options_default(&o);
	c = vs_capture_new(&o, cap, NULL, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	for (i = 0; i < FRAMES; i++) {
		j.frame = i;
		vs_gba_emu_set_keys(e, 0);
		vs_gba_emu_frame_snapshot(e, f);
		ck_assert_ptr_null(vs_gba_emu_fault(e));
		ck_assert_int_eq(vs_capture_frame(c, f), 0);
	}
	ck_assert_int_eq(vs_capture_finish(c), 0);
	vs_capture_stats_get(c, &st);
	vs_capture_free(c);
	vs_gba_emu_close(e);
	fclose(cap);
	fclose(j.rec);
	free(f);

	/* The demo shows what its allocators placed at VBlank: no change
	 * while drawn once its world is up, no stray tile-0 sprites. */
	ck_assert_uint_eq(st.zero_entries_max, 0);
	/* it changes VRAM mid-frame only while it loads, in forced blank (how
	 * many such frames depends on how long loading takes) */
	ck_assert_uint_eq(st.mid_frame_shown, 0);
	ck_assert_uint_le(st.mid_frame, st.blank_frames);
	ck_assert_uint_eq(st.mode_changes, 0);
	ck_assert_int_eq(st.sheet_suspected, 0); /* one allocation per sprite, no sheet */

	read_lives(rec_path, j.line_frame, j.lines, &rec);
	read_lives(cap_path, NULL, 0, &capl);
	n_cap = capture_in_record(&capl, &rec);
	n_sprites = record_in_capture(&rec, &capl, VS_REQ_SPRITE, o.grace);
	/* a column scrolls on screen within 16 pixels of loading: 32 frames
	 * for the slower layer */
	n_tiles = record_in_capture(&rec, &capl, VS_REQ_TILE, 40);
	record_in_capture(&rec, &capl, VS_REQ_BGMAP, 0);
	printf("test_capture_demo: %u frames: %zu captured allocations all recorded; %zu recorded sprites and %zu "
		"tile references all captured\n", FRAMES, n_cap, n_sprites, n_tiles);
	ck_assert_uint_gt(n_sprites, 30);
	ck_assert_uint_gt(n_tiles, 300);
	vs_replay_free(vs_test_replay_recorded(rec_path, NULL));
	vs_replay_free(vs_test_replay_recorded(cap_path, NULL));

	/* The commands write what this run wrote. */
	snprintf(cli_rec, sizeof cli_rec, "%s/tests/capture-demo.cli-rec.trace", VS_BINARY_DIR);
	snprintf(cli_cap, sizeof cli_cap, "%s/tests/capture-demo.cli-cap.trace", VS_BINARY_DIR);
	snprintf(args, sizeof args, "record '%s' --frames %u -o '%s'", DEMO_ROM, FRAMES, cli_rec);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 0);
	a = vs_test_slurp(rec_path);
	b = vs_test_slurp(cli_rec);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	snprintf(args, sizeof args, "capture '%s' --frames %u -o '%s'", DEMO_ROM, FRAMES, cli_cap);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 0);
	a = events_of(cap_path);
	b = events_of(cli_cap);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	b = vs_test_slurp(cli_cap);
	ck_assert_ptr_nonnull(strstr(b, "# ROM: title \"VRAMSIM\", game code VSIM, SHA-256 "));
	ck_assert_ptr_nonnull(strstr(b, "# capture summary: "));
	ck_assert(strstr(b, "# capture summary: ") < strstr(b, "\narena "));
	free(b);

	remove(rec_path);
	remove(cap_path);
	remove(cli_rec);
	remove(cli_cap);
	free(rec.v);
	free(capl.v);
	free(j.line_frame);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("capture_demo");
	TCase *tc = tcase_create("agree");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_capture_agrees_with_record);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	vs_test_require(vs_test_rom_missing("demo.gba", NULL));
	return vs_test_main(suite());
}
