/* SPDX-License-Identifier: Zlib */
/* test_ds_demo.c - one run of the DS demo ROM in DeSmuME's libretro core
 * (console/ds/ds_emu.h), read three ways after each frame: its record.h
 * ring, as `vramsim record` reads it, dating each line by the frame it
 * arrived in; its status block; and the frame, fed to DS capture
 * (capture/capture_ds.h), as `vramsim capture` does.
 *
 * The ring's trace against the emulated DS's video memory. After every
 * frame the demo's status block says frame F's step is done (step F ends
 * inside emulator frame F). At chosen frames, before and after each event
 * of the timeline (docs/ds.md), the trace so far is walked and:
 *  - VRAMCNT holds the demo's banks (I and D change at the remap);
 *  - every live allocation but the BG maps holds, where its at= and its
 *    arena's bank put it in the LCDC image, the replay's pattern for its id
 *    (the bytes the demo wrote before recording the line);
 *  - what is allocated is on screen: each live sprite is drawn by an OAM
 *    entry of its engine naming its tile, each BG map entry in view names a
 *    live tile, and each live texture is drawn by a polygon of the 3D list
 *    with its palette, as TEXIMAGE_PARAM and PLTT_BASE give them.
 *
 * Capture against the ring's trace, as test_capture_demo proves it for the
 * GBA:
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
 * In the sanitizer tree a quarter of the frames run (ds_demo_run.h): the
 * chosen frames within them are checked, and the remap is not reached.
 * Skipped without the ROM or the DeSmuME core. `vramsim record` and
 * `vramsim capture` of the demo are test_ds_demo_cli's.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "ds_test_rom.h"
#include "capture/capture_ds.h"
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

#define MAX_IDS 4096u

typedef struct alloc_at {
	uint8_t live, arena, map;
	uint32_t at, bytes;
} alloc_at;

typedef struct ctx {
	const vs_test_text *text; /* the trace so far */
	alloc_at a[MAX_IDS];
	const vs_ds_frame *f;
	uint32_t frame;
	int remapped;
} ctx;

static void walk_trace(ctx *c)
{
	char err[1024];
	FILE *fp = fmemopen(c->text->s, c->text->len, "rb");
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "demo", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	memset(c->a, 0, sizeof c->a);
	c->remapped = 0;
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		if (ev.type == VS_EV_ALLOC && ev.req.has_at == VS_AT_ADDR) {
			HOT_CMP(ev.id, <, MAX_IDS);
			c->a[ev.id] = (alloc_at){ 1, (uint8_t)ev.arena, ev.req.shape == VS_REQ_BGMAP, ev.req.at,
				ev.req.size };
		} else if (ev.type == VS_EV_FREE) {
			c->a[ev.id].live = 0;
		} else if (ev.type == VS_EV_VRAMCNT) {
			c->remapped = 1;
		}
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(fp);
}

/* Where an allocation's first byte is in the LCDC image. */
static uint32_t lcdc_of(const ctx *c, const alloc_at *x)
{
	switch (x->arena) {
	case OBJA: return VS_DS_LCDC_B + (x->at - 0x06400000u);
	case OBJB: return (c->remapped ? VS_DS_LCDC_D : VS_DS_LCDC_I) + (x->at - 0x06600000u);
	case BGA: return VS_DS_LCDC_F + (x->at - 0x06000000u);
	case BGB: return VS_DS_LCDC_C + (x->at - 0x06200000u);
	case TEX: return VS_DS_LCDC_A + x->at;
	default: return VS_DS_LCDC_E + x->at;
	}
}

/* The replay's bytes for id (replay_records.c), as the demo writes them. */
static void check_pattern(const ctx *c, uint32_t id, const alloc_at *x)
{
	uint64_t z = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	uint32_t w0 = (uint32_t)(z >> 32) ^ (uint32_t)z, i, at = lcdc_of(c, x), bad = UINT32_MAX;

	HOT_CMP(at + x->bytes, <=, VS_DS_LCDC_BYTES);
	for (i = 0; i < x->bytes && bad == UINT32_MAX; i++) {
		uint32_t w = w0 + (i / 4) * 0x9E3779B1u;

		if (c->f->lcdc[at + i] != (uint8_t)(w >> (8 * (i % 4))))
			bad = i;
	}
	HOT_ASSERT(bad == UINT32_MAX, "frame %u: id %u (arena %u, at=0x%08x) byte %u differs", c->frame, id,
		x->arena, x->at, bad);
}

static int oam_names(const ctx *c, int engine, uint32_t tile)
{
	const uint8_t *o = c->f->oam + 0x400 * engine;
	int i;

	for (i = 0; i < 128; i++) {
		uint16_t a0 = (uint16_t)(o[8 * i] | o[8 * i + 1] << 8);
		uint16_t a2 = (uint16_t)(o[8 * i + 4] | o[8 * i + 5] << 8);

		if ((a0 & 0x0300u) != 0x0200u && (a2 & 0x3FFu) == tile)
			return 1;
	}
	return 0;
}

static int polygon_draws(const ctx *c, uint32_t tex_at, uint32_t pal_at, int four)
{
	uint32_t i;

	for (i = 0; i < c->f->polys_n; i++)
		if ((c->f->polys[i].tex_param & 0xFFFFu) << 3 == tex_at &&
			c->f->polys[i].tex_palette << (four ? 3 : 4) == pal_at)
			return 1;
	return 0;
}

/* Each BG map entry in view names a live tile of its engine. */
static void check_map(const ctx *c, uint32_t map_id)
{
	const alloc_at *m = &c->a[map_id];
	uint32_t k, id;

	for (k = 0; k < 32u * 24u; k++) {
		uint32_t at = lcdc_of(c, m) + 2 * k;
		uint32_t tile = c->f->lcdc[at] | (uint32_t)c->f->lcdc[at + 1] << 8, found = 0;

		for (id = 1; id < MAX_IDS && !found; id++)
			found = c->a[id].live && c->a[id].arena == m->arena && !c->a[id].map &&
				(c->a[id].at & 0xFFFFu) == tile * 32u;
		if (!found)
			ck_abort_msg("frame %u: map %u entry %u names tile %u, not a live one", c->frame, map_id, k,
				tile);
	}
}

static void check_frame(ctx *c)
{
	uint32_t id, pal_id;

	walk_trace(c);
	ck_assert_uint_eq(c->f->vramcnt[0], DS_DEMO_VRAMCNT_A);
	ck_assert_uint_eq(c->f->vramcnt[1], DS_DEMO_VRAMCNT_B);
	ck_assert_uint_eq(c->f->vramcnt[2], DS_DEMO_VRAMCNT_C);
	ck_assert_uint_eq(c->f->vramcnt[3], c->remapped ? DS_DEMO_VRAMCNT_D1 : DS_DEMO_VRAMCNT_D0);
	ck_assert_uint_eq(c->f->vramcnt[4], DS_DEMO_VRAMCNT_E);
	ck_assert_uint_eq(c->f->vramcnt[5], DS_DEMO_VRAMCNT_F);
	ck_assert_uint_eq(c->f->vramcnt[8], c->remapped ? DS_DEMO_VRAMCNT_I1 : DS_DEMO_VRAMCNT_I0);
	for (id = 1; id < MAX_IDS; id++) {
		const alloc_at *x = &c->a[id];

		if (!x->live)
			continue;
		if (x->map) {
			check_map(c, id);
			continue;
		}
		check_pattern(c, id, x);
		if (x->arena == OBJA || x->arena == OBJB)
			HOT_ASSERT(oam_names(c, x->arena, (x->at & 0xFFFFFu) / (x->arena == OBJA ? 128u : 32u)),
				"frame %u: sprite %u at 0x%08x is in no OAM entry", c->frame, id, x->at);
		if (x->arena == TEX) {
			/* the demo allocates each texture's palette right after it */
			pal_id = id + 1;
			HOT_ASSERT(c->a[pal_id].live && c->a[pal_id].arena == PAL, "texture %u has no palette", id);
			HOT_ASSERT(polygon_draws(c, x->at, c->a[pal_id].at, c->a[pal_id].bytes == 8),
				"frame %u: texture %u at 0x%x is on no polygon (%u in the list)", c->frame, id, x->at,
				c->f->polys_n);
		}
	}
}

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

/* The status block after emulator frame i (0-based): step i + 1 is done. */
static void check_status(vs_ds_emu *e, uint32_t i)
{
	const ds_demo_status *st = (const ds_demo_status *)(vs_ds_emu_main_ram(e) + (DS_DEMO_STATUS_ADDR - 0x02000000u));
	uint32_t steps = i + 1 < DS_DEMO_FRAMES ? i + 1 : DS_DEMO_FRAMES;

	if (st->magic != DS_DEMO_MAGIC || st->busy || st->steps != steps || st->done != (steps == DS_DEMO_FRAMES))
		ck_abort_msg("frame %u: status magic 0x%08x busy %u steps %u done %u", i + 1, st->magic, st->busy,
			st->steps, st->done);
}

/* One run: the ring into j, checked against VRAM at the chosen frames, the
 * frames into a capture written to cap. */
static void run(joint *j, vs_test_text *cap)
{
	static const uint32_t at[] = { 1, 59, 60, 119, 120, 150, 179, 180, 181, 200, 240, 270, 300, 330 };
	vs_emu_play play = { frames_run, NULL, NULL, NULL, NULL };
	char err[1024], *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	vs_ds_emu *e = vs_ds_play_open(DS_DEMO_ROM, &play, err, sizeof err);
	vs_ds_capture *c;
	vs_ds_ring ring;
	ctx *v = calloc(1, sizeof *v);
	uint32_t i, next = 0;

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(v);
	ck_assert_msg(e != NULL, "%s", err);
	v->text = &j->text;
	c = vs_ds_capture_new(NULL, out, NULL, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	vs_ds_ring_init(&ring);
	for (i = 0; i < play.frames; i++) {
		HOT_ASSERT(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		j->frame = i;
		HOT_ASSERT(vs_ds_ring_step(&ring, vs_ds_emu_main_ram(e), VS_DS_MAIN_RAM_BYTES, i, sink, j, err,
			sizeof err) == 0, "%s", err);
		check_status(e, i);
		if (next < sizeof at / sizeof at[0] && at[next] == i + 1) {
			v->f = vs_ds_emu_frame(e);
			v->frame = i + 1;
			check_frame(v);
			next++;
		}
		HOT_ASSERT(vs_ds_capture_frame(c, vs_ds_emu_frame(e)) == 0, "frame %u: capture failed", i);
	}
	if (play.frames > DS_DEMO_FRAMES)
		ck_assert_uint_eq(next, sizeof at / sizeof at[0]);
	else
		ck_assert_uint_ge(next, 3);
	free(v);
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

START_TEST(record_vram_and_capture_agree)
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
	printf("test_ds_demo: %u frames: %zu captured allocations all recorded; %zu recorded allocations "
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
	Suite *s = suite_create("ds_demo");
	TCase *tc = tcase_create("core");

	vs_test_require(vs_test_exists(DS_DEMO_ROM) ? NULL
		: DS_DEMO_ROM " was not built (install gcc-arm-none-eabi and rebuild)");
	ds_test_require_core();
	tcase_add_test(tc, record_vram_and_capture_agree);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
