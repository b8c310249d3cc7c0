/* SPDX-License-Identifier: Zlib */
/* test_ds_demo_capture.c - DS capture agrees with what the DS demo
 * recorded, as test_capture_demo proves it for the GBA.
 *
 * The demo ROM (src/console/ds/rom/ds_demo.c) records every call of its
 * allocators in record.h's DS ring. One emulator run (console/ds/ds_emu.h)
 * both reads the ring after each frame, dating each recorded line by the
 * frame it arrived in, and feeds each frame to DS capture
 * (capture/capture_ds.h), so both traces speak of the same frames:
 *  - every sprite, texture and texture palette capture infers is a recorded
 *    allocation of the same arena at the same address and size, live in
 *    the frame capture dates it from;
 *  - every byte of every BG allocation capture infers lies in a recorded
 *    allocation of that engine's BG live then (capture takes a BG's map and
 *    tiles as one range of bytes);
 *  - every recorded allocation that lived longer than capture's grace is in
 *    the capture at an overlapping time: sprites, textures and palettes at
 *    the same address and size, BG maps and tiles inside a captured range
 *    (an allocation freed and replaced in place by one of the same size is
 *    one allocation to capture, docs/capture.md rule 5: the captured one
 *    overlaps both in time);
 *  - the remap's two `vramcnt` lines are in the capture, in frame 180;
 *  - both traces replay under `recorded` with no integrity error.
 * In the sanitizer tree a quarter of the frames run (ds_demo_run.h), so
 * the remap is not reached there. Skipped without the ROM or the DeSmuME
 * core.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "capture/capture_ds.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"
#include "console/ds/ds_ring.h"
#include "trace/trace.h"

#define NEVER UINT32_MAX

static uint32_t frames_run;

enum { OBJA, OBJB, BGA, BGB, TEX, PAL, ARENAS };

/* The demo's arena names and capture's for the same memory. */
static const char *const rec_names[ARENAS] = { "obja", "objb", "bga", "bgb", "tex", "pal" };
static const char *const cap_names[ARENAS] = { "obj-a", "obj-b", "bg-a", "bg-b", "tex", "pltt" };

typedef struct life {
	int arena; /* OBJA.. */
	vs_req_shape shape;
	uint32_t at, bytes, from, to;
	uint64_t id;
} life;

typedef struct lives {
	life *v;
	size_t n, cap;
	uint32_t vramcnt_frame[4];
	uint32_t vramcnts;
} lives;

/* The recorder's side: trace text, and the frame each line arrived in. */
typedef struct joint {
	vs_test_text text;
	uint32_t *line_frame;
	size_t lines, cap;
	uint32_t frame;
} joint;

static int sink(void *ud, const char *text, size_t len)
{
	joint *j = ud;
	size_t i;

	vs_test_put(&j->text, "%.*s", (int)len, text);
	for (i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		if (j->lines == j->cap) {
			j->cap = j->cap ? 2 * j->cap : 1024;
			j->line_frame = realloc(j->line_frame, j->cap * sizeof *j->line_frame);
			ck_assert_ptr_nonnull(j->line_frame);
		}
		j->line_frame[j->lines++] = j->frame;
	}
	return 0;
}

static void add_life(lives *out, const life *l)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 256;
		out->v = realloc(out->v, out->cap * sizeof *out->v);
		ck_assert_ptr_nonnull(out->v);
	}
	out->v[out->n++] = *l;
}

/* Reads a trace's allocations, frees and bank writes. frames: each line's
 * frame, or NULL to count `frame` lines (capture dates its events so). */
static void read_lives(const char *text, const char *const names[ARENAS], const uint32_t *frames,
	size_t nframes, lives *out)
{
	char err[1024];
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");
	vs_trace_reader *rd;
	const vs_trace_header *h;
	int map[VS_TRACE_MAX_ARENAS], i, rc;
	uint32_t frame = 0;
	vs_event ev;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "demo", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	h = vs_trace_header_of(rd);
	for (i = 0; i < h->narenas; i++) {
		int k;

		map[i] = -1;
		for (k = 0; k < ARENAS; k++)
			if (!strcmp(h->arenas[i].name, names[k]))
				map[i] = k;
		ck_assert_msg(map[i] >= 0, "an arena the demo does not have: %s", h->arenas[i].name);
	}
	memset(out, 0, sizeof *out);
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		uint32_t f = frame;
		size_t k;

		if (frames) {
			HOT_CMP(ev.line, <=, nframes);
			f = frames[ev.line - 1];
		}
		if (ev.type == VS_EV_FRAME) {
			frame++;
		} else if (ev.type == VS_EV_ALLOC && ev.req.has_at == VS_AT_ADDR) {
			life l = { map[ev.arena], ev.req.shape, ev.req.at, ev.req.size, f, NEVER, ev.id };

			add_life(out, &l);
		} else if (ev.type == VS_EV_FREE) {
			for (k = out->n; k-- > 0;)
				if (out->v[k].id == ev.id && out->v[k].to == NEVER) {
					out->v[k].to = f;
					break;
				}
		} else if (ev.type == VS_EV_VRAMCNT) {
			HOT_CMP(out->vramcnts, <, 4);
			out->vramcnt_frame[out->vramcnts++] = f;
		}
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(fp);
}

static int is_bg(int arena)
{
	return arena == BGA || arena == BGB;
}

static int live_at(const life *l, uint32_t frame)
{
	return l->from <= frame && frame < l->to;
}

static int overlap(const life *a, uint32_t from, uint32_t to)
{
	return a->from < to && from < a->to;
}

/* Whether every byte of [at, at + bytes) lies in a recorded BG allocation
 * of arena live at frame. */
static int bg_covered(const lives *rec, int arena, uint32_t at, uint32_t bytes, uint32_t frame)
{
	uint32_t p = at;
	size_t j;
	int moved = 1;

	while (p < at + bytes && moved) {
		moved = 0;
		for (j = 0; j < rec->n; j++) {
			const life *r = &rec->v[j];

			if (r->arena == arena && live_at(r, frame) && r->at <= p && p < r->at + r->bytes) {
				p = r->at + r->bytes;
				moved = 1;
			}
		}
	}
	return p >= at + bytes;
}

/* Every inferred allocation is a recorded one (BG: made of recorded ones),
 * live then, same place. */
static size_t capture_in_record(const lives *cap, const lives *rec)
{
	size_t i, j, n = 0;

	for (i = 0; i < cap->n; i++) {
		const life *c = &cap->v[i];

		if (is_bg(c->arena)) {
			HOT_ASSERT(bg_covered(rec, c->arena, c->at, c->bytes, c->from),
				"captured BG range 0x%x-0x%x in arena %s from frame %u: not all recorded then", c->at,
				c->at + c->bytes, cap_names[c->arena], c->from);
			n++;
			continue;
		}
		for (j = 0; j < rec->n; j++) {
			const life *r = &rec->v[j];

			if (r->arena == c->arena && r->shape == c->shape && r->at == c->at && r->bytes == c->bytes &&
				live_at(r, c->from))
				break;
		}
		HOT_ASSERT(j < rec->n,
			"captured %u bytes at 0x%x in arena %s from frame %u: no recorded allocation there then",
			c->bytes, c->at, cap_names[c->arena], c->from);
		n++;
	}
	return n;
}

/* Every recorded allocation of arena that lived longer than min_frames is
 * in the capture at an overlapping time (a free may show a frame late). */
static size_t record_in_capture(const lives *rec, const lives *cap, int arena, uint32_t min_frames)
{
	size_t i, j, n = 0;

	for (i = 0; i < rec->n; i++) {
		const life *r = &rec->v[i];
		uint32_t end = r->to == NEVER ? frames_run : r->to, to = r->to == NEVER ? NEVER : r->to + 1;

		if (r->arena != arena || end - r->from <= min_frames)
			continue;
		for (j = 0; j < cap->n; j++) {
			const life *c = &cap->v[j];

			if (c->arena == r->arena && overlap(c, r->from, to) &&
				(is_bg(arena) ? c->at <= r->at && r->at + r->bytes <= c->at + c->bytes
					      : c->at == r->at && c->bytes == r->bytes))
				break;
		}
		HOT_ASSERT(j < cap->n, "recorded id %llu (%u bytes at 0x%x in %s), frames %u-%u: not in the capture",
			(unsigned long long)r->id, r->bytes, r->at, rec_names[arena], r->from, end);
		n++;
	}
	return n;
}

/* One run: the ring into j, the frames into a capture written to cap. */
static void run(joint *j, vs_test_text *cap)
{
	vs_ds_play play = { frames_run, NULL, NULL, NULL, NULL };
	char err[1024], *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	vs_ds_emu *e = vs_ds_play_open(DS_DEMO_ROM, &play, err, sizeof err);
	vs_ds_capture *c;
	vs_ds_ring ring;
	uint32_t i;

	ck_assert_ptr_nonnull(out);
	ck_assert_msg(e != NULL, "%s", err);
	c = vs_ds_capture_new(NULL, out, NULL, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	vs_ds_ring_init(&ring);
	for (i = 0; i < play.frames; i++) {
		HOT_ASSERT(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		j->frame = i;
		HOT_ASSERT(vs_ds_ring_step(&ring, vs_ds_emu_main_ram(e), VS_DS_MAIN_RAM_BYTES, i, sink, j, err,
			sizeof err) == 0, "%s", err);
		HOT_ASSERT(vs_ds_capture_frame(c, vs_ds_emu_frame(e)) == 0, "frame %u: capture failed", i);
	}
	ck_assert_int_eq(vs_ds_capture_finish(c), 0);
	vs_ds_capture_free(c);
	vs_ds_ring_free(&ring);
	vs_ds_emu_close(e);
	fclose(out);
	vs_test_put(cap, "%s", buf);
	free(buf);
}

/* Both traces replay under `recorded` with no integrity error. */
static void replays_clean(const char *text, const char *name)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");

	ck_assert_ptr_nonnull(fp);
	vs_replay_free(vs_test_replay_recorded(name, fp));
	fclose(fp);
}

START_TEST(capture_agrees_with_record)
{
	joint j;
	vs_test_text cap = { NULL, 0, 0 };
	lives rec, capl;
	size_t n_cap, n_rec = 0;
	int a;

	memset(&j, 0, sizeof j);
	frames_run = ds_demo_frames();
	run(&j, &cap);
	read_lives(j.text.s, rec_names, j.line_frame, j.lines, &rec);
	read_lives(cap.s, cap_names, NULL, 0, &capl);
	n_cap = capture_in_record(&capl, &rec);
	for (a = 0; a < ARENAS; a++)
		n_rec += record_in_capture(&rec, &capl, a, 3);
	printf("test_ds_demo_capture: %u frames: %zu captured allocations all recorded; %zu recorded allocations "
		"shown over 3 frames all captured\n", frames_run, n_cap, n_rec);
	if (frames_run > DS_DEMO_FRAMES) {
		ck_assert_uint_gt(n_cap, 80);
		ck_assert_uint_ge(n_rec, 100);
		/* the remap: both writes, at the frame the demo made them */
		ck_assert_uint_eq(capl.vramcnts, 2);
		ck_assert_uint_eq(rec.vramcnts, 2);
		ck_assert_uint_eq(capl.vramcnt_frame[0], rec.vramcnt_frame[0]);
		ck_assert_uint_eq(capl.vramcnt_frame[1], rec.vramcnt_frame[0]);
	} else {
		ck_assert_uint_gt(n_cap, 20);
		ck_assert_uint_gt(n_rec, 20);
	}
	replays_clean(j.text.s, "ds-demo.rec.trace");
	replays_clean(cap.s, "ds-demo.cap.trace");
	free(rec.v);
	free(capl.v);
	free(j.text.s);
	free(j.line_frame);
	free(cap.s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_capture_demo");
	TCase *tc = tcase_create("core");
	char err[1024];

	vs_test_require(vs_test_exists(DS_DEMO_ROM) ? NULL
		: DS_DEMO_ROM " was not built (install gcc-arm-none-eabi and rebuild)");
	vs_test_require(vs_ds_core_available(err, sizeof err) == 0 ? NULL : err);
	tcase_add_test(tc, capture_agrees_with_record);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
