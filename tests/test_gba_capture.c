/* SPDX-License-Identifier: Zlib */
/* test_gba_capture.c - vramsim capture on a ROM of our own that does every
 * hard case at known frames.
 *
 * The capture-cases ROM (tools/capture-rom, built as gba/capture-cases.gba)
 * follows a fixed script of scenes whose frames and tiles are in
 * capture_cases.h: uploads before use, nested ranges, one-frame sprites, a
 * sprite sheet, all-zero OAM entries, a parked sprite, affine double-size,
 * changes during the visible lines, identical re-uploads, a scrolling BG and
 * a display mode change. One test checks the ROM does what the table says
 * at the frames the host snapshots (so a failure elsewhere is capture's,
 * not the script's); the others capture it with vs_gba_capture and check
 * each scene's allocations, the counts, and that the trace replays under
 * `recorded` with no integrity error. Skipped (ctest) without libmgba or
 * the ROM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "console/gba/gba_emu.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "../tools/capture-rom/capture_cases.h"
#include "vram/request.h"

#define ROM vs_test_rom("capture-cases.gba")
#define BG_ADDR(cb, tile, bytes) (0x06000000u + (cb) * 0x4000u + (tile) * (bytes))

/* ---- the script itself, frame by frame ---------------------------------------- */

static unsigned rd16(const uint8_t *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static int no_zero_byte(const uint8_t *p, size_t n)
{
	while (n--)
		if (!*p++)
			return 0;
	return 1;
}

static int is_mid(uint32_t k)
{
	return k == CC_MID_OAM1 || k == CC_MID_DISP || k == CC_MID_OAM2;
}

/* Tile of OAM entry 0 when drawn, -1 when disabled. */
static int entry0(const vs_gba_frame *f)
{
	return (rd16(f->oam) & 0x0300u) == 0x0200u ? -1 : (int)(rd16(f->oam + 4) & 0x3FFu);
}

/* What the table says entry 0 shows at frame k. */
static int entry0_expected(uint32_t k)
{
	if (k >= CC_EARLY_SHOW && k < CC_EARLY_END)
		return CC_EARLY_TILE_A;
	if (k >= CC_NEST_BIG && k < CC_NEST_BIG_OFF)
		return CC_NEST_TILE;
	if (k == CC_HUD_A || k == CC_HUD_B)
		return k == CC_HUD_A ? CC_HUD_TILE_A : CC_HUD_TILE_B;
	if (k >= CC_SHEET_FIRST && k < CC_SHEET_END)
		return (int)(CC_SHEET_TILE + 4u * ((k * 3u) % (CC_SHEET_TILES / 4u)));
	if (k >= CC_ZERO_FIRST && k < CC_ZERO_END)
		return 0;
	if (k >= CC_PARK_SHOW && k < CC_PARK_END)
		return CC_PARK_TILE;
	if (k >= CC_AFF_SHOW && k < CC_AFF_END)
		return CC_AFF_TILE;
	if (k >= CC_MID_SHOW && k < CC_MID_END)
		return k == CC_MID_OAM2 ? CC_MID_TILE2 : CC_MID_TILE;
	if (k >= CC_RE_SHOW && k < CC_RE_END && k != CC_RE_GAP)
		return CC_RE_TILE;
	return -1;
}

static unsigned hofs_expected(uint32_t k)
{
	if (k < CC_SCROLL)
		return 0;
	return k < CC_SCROLL + 4u ? 8u * (k - CC_SCROLL + 1u) : k == CC_SCROLL + 4u ? 36u : 40u;
}

/* The ROM in step with the host's snapshots: its status block names the
 * frame being snapshotted, OAM, registers and VRAM are what the table says
 * at each frame, and the driver flags exactly the frames the ROM changed
 * while lines were drawn. */
START_TEST(script_in_step)
{
	static uint8_t re[128];
	char err[512];
	vs_gba_frame *f = malloc(sizeof *f);
	vs_gba_emu *e;
	uint32_t k, cycles;

	ck_assert_ptr_nonnull(f);
	e = vs_gba_emu_open_file(ROM, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	for (k = 0; k < CC_FRAMES; k++) {
		const uint8_t *a = f->vram + 0x10000u;
		unsigned disp;

		vs_gba_emu_frame_snapshot(e, f);
		ck_assert_uint_eq(vs_gba_emu_read32(e, CC_STATUS_ADDR), CC_MAGIC);
		ck_assert_msg(vs_gba_emu_read32(e, CC_STATUS_ADDR + 4) == k, "frame %u: the ROM is at frame %u",
			(unsigned)k, (unsigned)vs_gba_emu_read32(e, CC_STATUS_ADDR + 4));
		ck_assert_msg(f->changed_mid_frame == is_mid(k), "frame %u: changed mid-frame %d", (unsigned)k,
			f->changed_mid_frame);
		disp = f->io[VS_IO_DISPCNT];
		if (k == 0) {
			ck_assert_uint_eq(disp & 0x80u, 0x80u); /* as reset: forced blank */
			continue;
		}
		/* window 0 on from line 80 of one frame: the snapshot has it */
		ck_assert_uint_eq(disp, k >= CC_MODE1 && k < CC_MODE0 ? 0x1541u : k == CC_MID_DISP ? 0x3140u : 0x1140u);
		ck_assert_int_eq(entry0(f), entry0_expected(k));
		ck_assert_uint_eq(f->io[VS_IO_BG0HOFS], hofs_expected(k));
		ck_assert_uint_eq(f->io[VS_IO_BG0HOFS + 1], k >= CC_SCROLL_V ? 8u : 0u);
		/* uploads at their frames, not before */
		ck_assert_int_eq(all_zero(a + CC_EARLY_TILE_A * 32u, 512), k < CC_EARLY_UP);
		ck_assert_int_eq(all_zero(a + CC_EARLY_TILE_B * 32u, 128), k < CC_EARLY_UP_B);
		ck_assert_int_eq(all_zero(a + CC_HUD_TILE_B * 32u, 256), k < CC_HUD_A);
		ck_assert_int_eq(all_zero(a + CC_SHEET_TILE * 32u, CC_SHEET_TILES * 32u), k < CC_SHEET_UP);
		if (k == CC_SHEET_UP)
			ck_assert(no_zero_byte(a + CC_SHEET_TILE * 32u, CC_SHEET_TILES * 32u));
		ck_assert(all_zero(a, 32)); /* the all-zero entries' tile 0 */
		if (k == CC_RE_UP)
			memcpy(re, a + CC_RE_TILE * 32u, sizeof re);
		if (k > CC_RE_UP)
			ck_assert(memcmp(re, a + CC_RE_TILE * 32u, sizeof re) == 0);
		if (k >= CC_ZERO_FIRST && k < CC_ZERO_END) {
			ck_assert(all_zero(f->oam, 8 * CC_ZERO_COUNT - 2));
			ck_assert_uint_eq(rd16(f->oam + 8 * CC_ZERO_COUNT), 0x0200u);
		}
		if (k >= CC_AFF_SHOW && k < CC_AFF_END)
			ck_assert_uint_eq(rd16(f->oam) & 0x0300u, 0x0300u); /* affine, double-size */
	}
	cycles = vs_gba_emu_read32(e, CC_STATUS_ADDR + 8);
	printf("test_gba_capture: the longest frame's work took %u cycles of %u\n", (unsigned)cycles,
		VS_GBA_FRAME_CYCLES);
	ck_assert_uint_lt(cycles, VS_GBA_FRAME_CYCLES);
	ck_assert_uint_gt(cycles, 0);
	vs_gba_emu_close(e);
	free(f);
}
END_TEST

/* ---- captures -------------------------------------------------------------------- */

typedef struct ev {
	vs_event_type type;
	int arena;     /* of the alloc; for a free, of the alloc it ends */
	int frame;
	uint64_t id;
	vs_request req;
	char tag[16];
} ev;

typedef struct cap {
	char *text;
	size_t len;
	vs_capture_stats st;
	ev *v;
	size_t n, cap;
	int obj, bg;   /* arena indices */
	int obj_2d;    /* the obj arena declares 2D mapping */
} cap;

static void add(cap *t, const vs_event *x, int frame)
{
	ev *y;
	size_t i;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->v = realloc(t->v, t->cap * sizeof *t->v);
		ck_assert_ptr_nonnull(t->v);
	}
	y = &t->v[t->n++];
	memset(y, 0, sizeof *y);
	y->type = x->type;
	y->id = x->id;
	y->frame = frame;
	y->arena = x->arena;
	if (x->type == VS_EV_ALLOC) {
		y->req = x->req;
		snprintf(y->tag, sizeof y->tag, "%s", x->tag);
		ck_assert_msg(x->req.has_at == VS_AT_ADDR && x->tag[0], "alloc %llu without at= or tag=",
			(unsigned long long)x->id);
		return;
	}
	for (i = t->n - 1; i-- > 0;)
		if (t->v[i].type == VS_EV_ALLOC && t->v[i].id == x->id) {
			y->arena = t->v[i].arena;
			return;
		}
	ck_abort_msg("free %llu of no allocation", (unsigned long long)x->id);
}

/* Captures the ROM's script (grace 3, lookback 4) and reads the trace back,
 * each event with the frame it is dated at. */
static void capture(cap *t, int sheet)
{
	vs_emu_play play;
	vs_capture_options o;
	vs_trace_reader *rd;
	vs_event x;
	char err[1024];
	int rc, frame = 0;
	FILE *fp;

	memset(t, 0, sizeof *t);
	memset(&play, 0, sizeof play);
	play.frames = CC_FRAMES;
	vs_capture_options_default(&o);
	o.grace = 3;
	o.lookback = 4;
	o.sheet = sheet;
	fp = open_memstream(&t->text, &t->len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_msg(vs_gba_capture(ROM, &play, &o, fp, &t->st, err, sizeof err) == 0, "%s", err);
	fclose(fp);
	fp = fmemopen(t->text, t->len, "rb");
	rd = vs_trace_open_stream(fp, "capture-cases.trace", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	t->obj = vs_trace_arena_index(vs_trace_header_of(rd), "obj");
	t->bg = vs_trace_arena_index(vs_trace_header_of(rd), "bg");
	ck_assert_int_ge(t->obj, 0);
	ck_assert_int_ge(t->bg, 0);
	t->obj_2d = vs_trace_header_of(rd)->arenas[t->obj].gba_obj_2d;
	while ((rc = vs_trace_next(rd, &x)) > 0) {
		if (x.type == VS_EV_FRAME)
			frame++;
		else
			add(t, &x, frame);
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	ck_assert_int_eq(frame, CC_FRAMES);
	ck_assert_uint_eq(t->st.frames, CC_FRAMES);
	vs_trace_close(rd);
	fclose(fp);
}

static void cap_free(cap *t)
{
	free(t->text);
	free(t->v);
}

/* Events of a type in an arena dated in frames [lo, hi). */
static int count(const cap *t, vs_event_type type, int arena, int lo, int hi)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		n += t->v[i].type == type && t->v[i].arena == arena && t->v[i].frame >= lo && t->v[i].frame < hi;
	return n;
}

/* Allocations in an arena whose at= lies in [lo, hi). */
static int allocs_in(const cap *t, int arena, uint32_t lo, uint32_t hi)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		n += t->v[i].type == VS_EV_ALLOC && t->v[i].arena == arena && t->v[i].req.at >= lo &&
			t->v[i].req.at < hi;
	return n;
}

/* The one allocation at an address, which must be there exactly once. */
static const ev *only_alloc(const cap *t, int arena, uint32_t at)
{
	const ev *a = NULL;
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_ALLOC && t->v[i].arena == arena && t->v[i].req.at == at) {
			a = a ? a : &t->v[i];
			n++;
		}
	ck_assert_msg(n == 1, "%d allocations at 0x%x, not one", n, (unsigned)at);
	return a;
}

/* Frame of the free of id, -1 if never freed. */
static int freed_at(const cap *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_FREE && t->v[i].id == id)
			return t->v[i].frame;
	return -1;
}

/* A 4bpp sprite's allocation at tile's address, alive [from, to): its
 * tiles, as a sprite request where the obj arena has the game's 1D mapping
 * (the arenas take the first frame shown, not the force-blanked reset
 * frame: whole_trace checks it). */
static const ev *sprite_life(const cap *t, unsigned tile, unsigned shape, unsigned size, int from, int to)
{
	const ev *a = only_alloc(t, t->obj, CC_OBJ_ADDR(tile));

	ck_assert_msg(a->frame == from, "sprite on tile %u allocated at frame %d, not %d", tile, a->frame, from);
	ck_assert_msg(freed_at(t, a->id) == to, "sprite on tile %u freed at frame %d, not %d", tile,
		freed_at(t, a->id), to);
	ck_assert_msg(a->req.size == vs_request_sprite_bytes(shape, size, 4), "sprite on tile %u: %u bytes, not %u", tile,
		(unsigned)a->req.size, (unsigned)vs_request_sprite_bytes(shape, size, 4));
	if (!t->obj_2d || a->req.shape == VS_REQ_SPRITE) {
		ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
		ck_assert_uint_eq(a->req.u.sprite.shape, shape);
		ck_assert_uint_eq(a->req.u.sprite.size, size);
		ck_assert_uint_eq(a->req.u.sprite.bpp, 4);
	}
	return a;
}

/* The trace under `recorded`: the game's own placement, no diagnostic, no
 * failed check. */
static void replays_as_recorded(const cap *t)
{
	FILE *in = fmemopen(t->text, t->len, "rb");
	vs_replay *rp = vs_test_replay_recorded("capture-cases.trace", in);

	ck_assert_uint_eq(vs_replay_diag_total(rp), 0);
	ck_assert_uint_eq(vs_replay_frames(rp), CC_FRAMES);
	vs_replay_free(rp);
	fclose(in);
}

/* A summary or note line capture wrote, before the first arena line (the
 * driver puts the summary at the top) or anywhere. */
static int has_line(const cap *t, const char *line, int in_header)
{
	const char *p = strstr(t->text, line), *arena = strstr(t->text, "\narena ");

	return p && (!in_header || (arena && p < arena));
}

/* ---- one test per scene, on one capture ---------------------------------------- */

/* Captured once, before the tests of the case fork (an unchecked fixture):
 * each test reads it. */
static cap run;

static void run_setup(void)
{
	capture(&run, 0);
}

static void run_teardown(void)
{
	cap_free(&run);
	memset(&run, 0, sizeof run);
}

START_TEST(early_upload)
{
	/* dated at the upload, freed at the first frame unshown */
	sprite_life(&run, CC_EARLY_TILE_A, 0, 2, CC_EARLY_UP, CC_EARLY_END);
	sprite_life(&run, CC_EARLY_TILE_B, 0, 1, CC_EARLY_UP_B, CC_EARLY_END);
	/* uploaded 6 frames before use: more than the lookback, dated at use */
	sprite_life(&run, CC_EARLY_TILE_C, 0, 1, CC_EARLY_SHOW_C, CC_EARLY_END);
	/* A, B, HUD B (scene 3), the re-uploaded sprite (scene 9) and the 16
	 * ranges of the sheet shown in the 4 frames after its upload */
	ck_assert_uint_eq(run.st.dated_back, 4 + 16);
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.obj, CC_SHEET_UP, CC_SHEET_UP + 1), 16);
}
END_TEST

START_TEST(nested_ranges)
{
	/* the 32x32 only, alive while anything inside it is shown */
	sprite_life(&run, CC_NEST_TILE, 0, 2, CC_NEST_BIG, CC_NEST_END);
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.obj, CC_NEST_BIG, CC_HUD_A), 1);
	ck_assert_int_eq(allocs_in(&run, run.obj, CC_OBJ_ADDR(CC_NEST_TILE + 1u), CC_OBJ_ADDR(CC_NEST_TILE + 16u)), 0);
	/* 8x8 in frames 32-40 (9), 16x16 in 33-40 (8) */
	ck_assert_uint_eq(run.st.nested, 17);
	ck_assert_uint_eq(run.st.partial_overlaps, 0);
	ck_assert_uint_eq(run.st.merged, 0);
}
END_TEST

START_TEST(one_frame_sprites)
{
	sprite_life(&run, CC_HUD_TILE_A, 1, 2, CC_HUD_A, CC_HUD_A + 1);
	/* the back buffer: dated at its upload, one frame before it is shown */
	sprite_life(&run, CC_HUD_TILE_B, 1, 2, CC_HUD_A, CC_HUD_B + 1);
	sprite_life(&run, CC_FLASH_TILE, 0, 0, CC_FLASH, CC_FLASH + 1);
}
END_TEST

START_TEST(sheet_reported)
{
	/* 4 entries switching in each of frames 72-90 */
	ck_assert_uint_eq(run.st.sheet_switches, 4 * (CC_SHEET_END - CC_SHEET_FIRST - 1));
	ck_assert_int_eq(run.st.sheet_suspected, 1);
	ck_assert_msg(has_line(&run, "# capture summary: OBJ: sprite sheet suspected: ", 1), "%s", run.text);
	ck_assert(has_line(&run, "try --sheet\n", 1));
	/* without the option each range shown is its own allocation */
	ck_assert_int_gt(allocs_in(&run, run.obj, CC_OBJ_ADDR(CC_SHEET_TILE),
		CC_OBJ_ADDR(CC_SHEET_TILE + CC_SHEET_TILES)), 70);
	ck_assert_uint_eq(run.st.sheets, 0);
}
END_TEST

START_TEST(zero_entries)
{
	/* five entries, one range: an 8x8 on tile 0 */
	sprite_life(&run, 0, 0, 0, CC_ZERO_FIRST, CC_ZERO_END);
	ck_assert_uint_eq(run.st.zero_entries_max, CC_ZERO_COUNT);
	ck_assert(has_line(&run, "# capture summary: OBJ: at most 5 all-zero OAM entries in one frame", 1));
}
END_TEST

START_TEST(parked_sprite)
{
	/* allocated on screen, held while parked, freed when disabled */
	sprite_life(&run, CC_PARK_TILE, 0, 2, CC_PARK_SHOW, CC_PARK_END);
}
END_TEST

START_TEST(affine_double_size)
{
	const ev *a;

	/* the tiles of a 32x32 (16), not of the 64x64 it is drawn at */
	a = sprite_life(&run, CC_AFF_TILE, 0, 2, CC_AFF_SHOW, CC_AFF_END);
	ck_assert_uint_eq(a->req.size, 16 * 32);
	sprite_life(&run, CC_AFF_NEXT_TILE, 0, 1, CC_AFF_SHOW, CC_AFF_END);
	/* a disabled non-affine entry holds nothing */
	ck_assert_int_eq(allocs_in(&run, run.obj, CC_OBJ_ADDR(CC_AFF_OFF_TILE), CC_OBJ_ADDR(CC_AFF_OFF_TILE + 4u)), 0);
}
END_TEST

START_TEST(mid_frame_changes)
{
	ck_assert_uint_eq(run.st.mid_frame, CC_MID_FRAMES);
	ck_assert(has_line(&run, "# capture summary: 250 frames, 3 changed mid-frame", 1));
	/* sampled at VBlank: the sprite moved in the lower half keeps its range;
	 * the multiplexed one is seen in its one frame only */
	sprite_life(&run, CC_MID_TILE, 0, 1, CC_MID_SHOW, CC_MID_END);
	sprite_life(&run, CC_MID_TILE2, 0, 1, CC_MID_OAM2, CC_MID_OAM2 + 1);
}
END_TEST

START_TEST(identical_reupload)
{
	/* one allocation, from the real upload; rewriting the same bytes is no
	 * upload, and a one-frame gap is within grace */
	sprite_life(&run, CC_RE_TILE, 0, 1, CC_RE_UP, CC_RE_END);
}
END_TEST

START_TEST(bg_scroll)
{
	static const int in[7] = { 20, 20, 20, 20, 20, 0, 30 }, out[7] = { 20, 20, 20, 20, 0, 20, 30 };
	int k;

	/* frame 1: BG0's map and its 30x20 cells on screen */
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.bg, 1, 2), 1 + 600);
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.bg, 2, CC_SCROLL), 0);
	ck_assert_int_eq(count(&run, VS_EV_FREE, run.bg, 0, CC_SCROLL), 0);
	/* a column of 20 cells in and one out per 8 pixels; 4 pixels show 31
	 * columns, 4 more 30 again; 8 pixels down, a row of 30 */
	for (k = 0; k < 7; k++) {
		ck_assert_msg(count(&run, VS_EV_ALLOC, run.bg, CC_SCROLL + k, CC_SCROLL + k + 1) == in[k],
			"frame %d: %d references in", CC_SCROLL + k, count(&run, VS_EV_ALLOC, run.bg, CC_SCROLL + k,
				CC_SCROLL + k + 1));
		ck_assert_msg(count(&run, VS_EV_FREE, run.bg, CC_SCROLL + k, CC_SCROLL + k + 1) == out[k],
			"frame %d: %d references out", CC_SCROLL + k, count(&run, VS_EV_FREE, run.bg, CC_SCROLL + k,
				CC_SCROLL + k + 1));
	}
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.bg, CC_SCROLL_V + 1, CC_MODE1), 0);
	ck_assert_int_eq(count(&run, VS_EV_FREE, run.bg, CC_SCROLL_V + 1, CC_MODE1), 0);
	/* tiles 1-8 and the transparent tile 0 */
	ck_assert_uint_ge(run.st.rom_tiles, 8);
	ck_assert_uint_gt(run.st.bg_hits, 0);
}
END_TEST

START_TEST(mode_change)
{
	const ev *m;
	size_t i;
	int refs = 0;

	ck_assert_uint_eq(run.st.mode_changes, 2);
	ck_assert(has_line(&run, "# capture: frame 220: display mode 0 -> 1", 0));
	ck_assert(has_line(&run, "# capture: frame 230: display mode 1 -> 0", 0));
	ck_assert_uint_eq(run.st.first_mode, 0);
	/* BG2's affine map lives while mode 1 shows it, with the 16x16 cells
	 * the identity transform samples */
	m = only_alloc(&run, run.bg, 0x06000000u + CC_BG2_SBB * 0x800u);
	ck_assert_int_eq(m->req.shape, VS_REQ_BGMAP);
	ck_assert_uint_eq(m->req.u.bgmap.affine, 1);
	ck_assert_uint_eq(m->req.u.bgmap.size, 0);
	ck_assert_int_eq(m->frame, CC_MODE1);
	ck_assert_int_eq(freed_at(&run, m->id), CC_MODE0);
	for (i = 0; i < run.n; i++) {
		const ev *a = &run.v[i];
		if (a->type != VS_EV_ALLOC || strcmp(a->tag, "bg2-tiles") != 0)
			continue;
		refs++;
		ck_assert_int_eq(a->frame, CC_MODE1);
		ck_assert_int_eq(freed_at(&run, a->id), CC_MODE0);
		ck_assert_uint_eq(a->req.u.tile.affine, 1);
		ck_assert_uint_eq(a->req.u.tile.bpp, 8);
		ck_assert_uint_ge(a->req.at, BG_ADDR(CC_BG2_CB, 1, 64));
		ck_assert_uint_lt(a->req.at, BG_ADDR(CC_BG2_CB, 5, 64));
	}
	ck_assert_int_eq(refs, 16 * 16);
	ck_assert_int_eq(count(&run, VS_EV_ALLOC, run.bg, CC_MODE1, CC_MODE1 + 1), 1 + 256);
	ck_assert_int_eq(count(&run, VS_EV_FREE, run.bg, CC_MODE0, CC_MODE0 + 1), 1 + 256);
}
END_TEST

START_TEST(whole_trace)
{
	/* every sprite freed by the end, nothing joined or cut */
	ck_assert_uint_eq(run.st.obj_allocs, run.st.obj_frees);
	ck_assert_uint_eq(run.st.obj_live, 0);
	ck_assert_uint_eq(run.st.clipped + run.st.below_floor + run.st.bad_shape, 0);
	ck_assert_uint_eq(run.st.blank_frames, 1); /* frame 0, as reset */
	/* the reset frame (force-blanked, 2D on paper) does not decide the arenas */
	ck_assert_int_eq(run.st.obj_2d, 0);
	ck_assert_uint_eq(run.st.mapping_changes, 0);
	ck_assert(has_line(&run, "\narena obj gba-obj\n", 0)); /* 1D, mode 0 */
	ck_assert(has_line(&run, "# ROM: title \"VRAMSIM\", game code VSIM", 1));
	replays_as_recorded(&run);
}
END_TEST

/* With --sheet the 288 uploaded tiles are one allocation, from the upload
 * on; the entries switching inside it make none. */
START_TEST(sheet_mode)
{
	const ev *s;
	cap t;

	capture(&t, 1);
	s = only_alloc(&t, t.obj, CC_OBJ_ADDR(CC_SHEET_TILE));
	ck_assert_int_eq(s->frame, CC_SHEET_UP);
	ck_assert_uint_eq(s->req.size, CC_SHEET_TILES * 32u);
	ck_assert_int_eq(freed_at(&t, s->id), -1);
	ck_assert_int_eq(allocs_in(&t, t.obj, CC_OBJ_ADDR(CC_SHEET_TILE), CC_OBJ_ADDR(CC_SHEET_TILE + CC_SHEET_TILES)),
		1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, t.obj, CC_SHEET_UP + 1, CC_SHEET_END + 5), 0);
	ck_assert_uint_ge(t.st.sheets, 1);
	ck_assert_int_eq(t.st.sheet_suspected, 0);
	ck_assert(has_line(&t, "# capture summary: OBJ: ", 1));
	ck_assert(has_line(&t, " sheet allocations\n", 1));
	ck_assert(has_line(&t, "# capture: grace=3 lookback=4 sheet\n", 1));
	replays_as_recorded(&t);
	cap_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_capture");
	TCase *rom = tcase_create("rom");
	TCase *cases = tcase_create("cases");

	tcase_set_timeout(rom, 120);
	tcase_set_timeout(cases, 120);
	tcase_add_unchecked_fixture(cases, run_setup, run_teardown);
	tcase_add_test(rom, script_in_step);
	tcase_add_test(cases, early_upload);
	tcase_add_test(cases, nested_ranges);
	tcase_add_test(cases, one_frame_sprites);
	tcase_add_test(cases, sheet_reported);
	tcase_add_test(cases, zero_entries);
	tcase_add_test(cases, parked_sprite);
	tcase_add_test(cases, affine_double_size);
	tcase_add_test(cases, mid_frame_changes);
	tcase_add_test(cases, identical_reupload);
	tcase_add_test(cases, bg_scroll);
	tcase_add_test(cases, mode_change);
	tcase_add_test(cases, whole_trace);
	tcase_add_test(cases, sheet_mode);
	suite_add_tcase(s, rom);
	suite_add_tcase(s, cases);
	return s;
}

int main(void)
{
	vs_test_require(vs_test_rom_missing("capture-cases.gba", NULL));
	return vs_test_main(suite());
}
