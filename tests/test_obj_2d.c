/* SPDX-License-Identifier: Zlib */
/* test_obj_2d.c - 2D OBJ tile mapping: a gba-obj arena declared map=2d.
 *
 * There a sprite is a rectangle of the 32x32 tile matrix, not a run: the
 * trace declares it, the engine holds, checks, writes and frees exactly the
 * rectangle, `recorded` places it, every 1D-only strategy is refused the
 * arena, and capture writes one allocation per 2D sprite.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "vram/hw.h"
#include "engine/replay.h"
#include "trace/trace.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"

#define HEAD "vramsim-trace 1\narena obj gba-obj map=2d\n"
#define OBJ0 0x06010000u

/* ---- replaying a trace held in a string ------------------------------------ */

typedef vs_test_replay run;

/* Opens a replay of text under a strategy (NULL: the arena's default);
 * returns NULL with err when vs_replay_new refuses. */
static vs_replay *run_open(run *x, const char *text, const char *strategy, char *err, size_t errlen)
{
	vs_replay_config cfg;

	vs_replay_config_default(&cfg);
	/* every strategy here keeps off the bytes; write them anyway, the
	 * tests read them (rows of a rectangle) */
	cfg.check_bytes = VS_BYTES_ALWAYS;
	if (strategy) {
		cfg.strategy[0] = vs_strategy_find(strategy);
		ck_assert_ptr_nonnull(cfg.strategy[0]);
	}
	return vs_test_replay_open(x, text, "t.trace", &cfg, err, errlen);
}

/* Replays text under `recorded` to the end (or to event until). */
static void run_recorded(run *x, const char *text, uint64_t until)
{
	char err[1024];

	ck_assert_msg(run_open(x, text, "recorded", err, sizeof err) != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(x->r, until) >= 0, "%s", vs_replay_error(x->r));
}

static void run_close(run *x)
{
	vs_test_replay_close(x);
}

static const vs_arena *obj_arena(const run *x)
{
	return vs_replay_arena(x->r, 0);
}

/* Trace id holding a tile, 0 when free. */
static uint64_t tile_id(const run *x, uint32_t tile)
{
	const vs_live *l = vs_replay_live_by_owner(x->r, vs_arena_owner_at(obj_arena(x), tile));

	return l ? l->id : 0;
}

/* Every tile of the matrix belongs to id exactly when it lies in the
 * rectangle of w x rows tiles at tile t0. */
static void assert_rect(const run *x, uint64_t id, uint32_t t0, uint32_t w, uint32_t rows)
{
	uint32_t t;

	for (t = 0; t < 1024; t++) {
		int in = t >= t0 && (t - t0) / 32u < rows && (t - t0) % 32u < w && t % 32u >= t0 % 32u;
		ck_assert_msg((tile_id(x, t) == id) == in, "tile %u: owner id %llu, id %llu %s", (unsigned)t,
			(unsigned long long)tile_id(x, t), (unsigned long long)id, in ? "should own it" : "should not");
	}
}

/* ---- the trace format -------------------------------------------------------- */

START_TEST(declare_parse_write_round_trip)
{
	static const char text[] = "vramsim-trace 1\n"
		"arena obj gba-obj mode=1 map=2d\n"
		"arena obj1 gba-obj map=1d\n"
		"alloc 1 obj sprite 32x16 4bpp tag=a at=0x6010000\n";
	char err[1024], *buf = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)text, strlen(text), "rb"), *out = open_memstream(&buf, &len);
	vs_trace_reader *rd = vs_trace_open_stream(in, "t.trace", err, sizeof err);
	const vs_trace_header *h;
	vs_event ev;

	ck_assert_msg(rd != NULL, "%s", err);
	h = vs_trace_header_of(rd);
	ck_assert_int_eq(h->arenas[0].gba_obj_2d, 1);
	ck_assert_int_eq(h->arenas[0].gba_mode, 1);
	ck_assert_int_eq(h->arenas[1].gba_obj_2d, 0);
	ck_assert_int_eq(vs_trace_write_header(out, h), 0);
	ck_assert_int_eq(vs_trace_next(rd, &ev), 1);
	ck_assert_int_eq(vs_trace_write_event(out, h, &ev), 0);
	fclose(out);
	/* canonical: map=2d kept, the default map=1d left out */
	ck_assert_str_eq(buf, "vramsim-trace 1\narena obj gba-obj mode=1 map=2d\narena obj1 gba-obj\n"
		"alloc 1 obj sprite 32x16 4bpp tag=a at=0x6010000\n");
	vs_trace_close(rd);
	fclose(in);
	free(buf);
}
END_TEST

static void assert_header_error(const char *arena_line, const char *want)
{
	char text[256], err[1024];
	FILE *in;
	vs_trace_reader *rd;

	snprintf(text, sizeof text, "vramsim-trace 1\n%s\n", arena_line);
	in = fmemopen(text, strlen(text), "rb");
	rd = vs_trace_open_stream(in, "t.trace", err, sizeof err);
	ck_assert_msg(rd == NULL, "'%s' was accepted", arena_line);
	ck_assert_msg(strstr(err, want) != NULL, "'%s': got '%s', want '%s'", arena_line, err, want);
	fclose(in);
}

START_TEST(declare_errors_name_line_and_column)
{
	assert_header_error("arena obj gba-obj map=3d", "t.trace:2:23: error: map: expected 1d or 2d");
	assert_header_error("arena obj gba-obj map=", "t.trace:2:23: error: map: expected 1d or 2d");
	assert_header_error("arena bg gba-bg map=2d", "t.trace:2:17: error: map= applies to gba-obj and ds-obj arenas");
	assert_header_error("arena t ds-tex map=2d", "t.trace:2:16: error: map= applies to gba-obj and ds-obj arenas");
	assert_header_error("arena obj gba-obj map=2d map=1d", "t.trace:2:26: error: map= given twice");
}
END_TEST

/* ---- the engine ---------------------------------------------------------------- */

START_TEST(sprite_holds_exactly_its_rectangle)
{
	run x;
	vs_footprint fp;
	vs_arena_decl d;
	vs_request rq;

	/* 32x16 4bpp at tile 2: tiles 2-5 and 34-37; an 8x8 between its rows
	 * would be inside; one in the gap beside row 0 and one in the row
	 * between two rows of a taller sprite are not */
	run_recorded(&x, HEAD
		"alloc 1 sprite 32x16 4bpp at=0x06010040\n"
		"alloc 2 sprite 16x8 4bpp at=0x060100c0\n"   /* tiles 6-7: beside row 0 */
		"alloc 3 sprite 8x32 4bpp at=0x06010800\n"   /* tiles 64, 96, 128, 160 */
		"alloc 4 sprite 32x8 4bpp at=0x06010c20\n"   /* tiles 97-100: between rows of 3 */
		"alloc 5 bytes 64 at=0x06010060\n", 0);   /* tiles 3-4: inside 1 */
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_OVERLAP), 1);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 1);
	assert_rect(&x, 1, 2, 4, 2);
	ck_assert_uint_eq(tile_id(&x, 6), 2);
	ck_assert_uint_eq(tile_id(&x, 7), 2);
	ck_assert_uint_eq(tile_id(&x, 96), 3);
	ck_assert_uint_eq(tile_id(&x, 160), 3);
	ck_assert_uint_eq(tile_id(&x, 65), 0);
	ck_assert_uint_eq(tile_id(&x, 97), 4);
	ck_assert_uint_eq(tile_id(&x, 100), 4);
	ck_assert_uint_eq(tile_id(&x, 101), 0);
	/* what the metrics count is the rectangles' tiles */
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->live_bytes, 256 + 64 + 128 + 128 + 64);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->free_bytes, 32768 - (256 + 64 + 128 + 128));
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->high_water, 161u * 32u);
	ck_assert_ptr_nonnull(strstr(x.msgs, "t.trace:7: error: integrity: overlap: event 5, strategy recorded: id 5 at "
		"0x6010060 overlaps id 1 (trace line 3)"));
	run_close(&x);

	/* the footprint the engine and strategies share */
	vs_arena_decl_default(&d, VS_ARENA_GBA_OBJ);
	d.gba_obj_2d = 1;
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_SPRITE;
	rq.u.sprite.shape = 1; /* wide */
	rq.u.sprite.size = 3;  /* 64x32 */
	rq.u.sprite.bpp = 8;
	ck_assert_int_eq(vs_request_derive_size(&rq), 0);
	vs_hw_footprint(&d, &rq, 0x40, rq.size, &fp);
	ck_assert_uint_eq(fp.rows, 4);
	ck_assert_uint_eq(fp.row_bytes, 512);
	ck_assert_uint_eq(fp.stride, 1024);
	ck_assert_uint_eq(vs_hw_footprint_end(&fp), 0x40 + 3 * 1024 + 512);
	ck_assert_uint_eq(vs_hw_footprint_at(&fp, 513), 0x40 + 1024 + 1);
	d.gba_obj_2d = 0;
	vs_hw_footprint(&d, &rq, 0x40, rq.size, &fp);
	ck_assert_uint_eq(fp.rows, 1);
	ck_assert_uint_eq(fp.stride, 0);
	ck_assert_uint_eq(fp.row_bytes, 2048);
}
END_TEST

START_TEST(overlap_between_rows_names_the_line)
{
	run x;

	run_recorded(&x, HEAD
		"alloc 1 sprite 16x32 4bpp at=0x06010000\n" /* tiles 0-1, 32-33, 64-65, 96-97 */
		"frame\n"
		"alloc 2 sprite 32x8 4bpp at=0x06010840\n", 0); /* tiles 66-69: fine */
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	run_close(&x);
	run_recorded(&x, HEAD
		"alloc 1 sprite 16x32 4bpp at=0x06010000\n"
		"frame\n"
		"alloc 2 sprite 32x8 4bpp at=0x06010820\n", 0); /* tiles 65-68: row 2 of 1 */
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_OVERLAP), 1);
	ck_assert_msg(strstr(x.msgs, "t.trace:5: error: integrity: overlap: event 3, strategy recorded: id 2 at 0x6010820 "
		"overlaps id 1 (trace line 3) at 0x6010820") != NULL, "%s", x.msgs);
	run_close(&x);
}
END_TEST

START_TEST(sprite_8bpp_rectangle_and_odd_tile)
{
	run x;

	run_recorded(&x, HEAD "alloc 1 sprite 16x16 8bpp at=0x06010800\n", 0); /* tile 64: 64-67, 96-99 */
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	assert_rect(&x, 1, 64, 4, 2);
	run_close(&x);
	run_recorded(&x, HEAD "frame\nalloc 1 sprite 16x16 8bpp at=0x06010820\n", 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_RULE), 1);
	ck_assert_msg(strstr(x.msgs, "t.trace:4: error: integrity: hardware rule: event 2, strategy recorded: id 1 at "
		"0x6010820: 8bpp sprite at odd tile 65 (2D mapping ignores the tile number's low bit") != NULL, "%s", x.msgs);
	run_close(&x);
}
END_TEST

START_TEST(wrap_past_column_31_and_tile_1023)
{
	run x;

	run_recorded(&x, HEAD
		"alloc 1 sprite 32x16 4bpp at=0x06010380\n"  /* tile 28: columns 28-31, fine */
		"alloc 2 sprite 32x16 4bpp at=0x06010ba0\n"  /* tile 93: columns 29-32 */
		"alloc 3 sprite 16x32 8bpp at=0x06017c00\n"  /* tile 992: rows at 992, 1024... */
		"alloc 4 sprite 64x64 4bpp at=0x06017040\n", 0); /* tile 898: rows 28-35 */
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_RULE), 1);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_BOUNDS), 2);
	ck_assert_msg(strstr(x.msgs, "t.trace:4: error: integrity: hardware rule: event 2, strategy recorded: id 2 at "
		"0x6010ba0: 2D sprite at tile 93 (column 29) is 4 tiles wide: its rows would wrap past column 31 of the "
		"32x32 tile matrix") != NULL, "%s", x.msgs);
	ck_assert_msg(strstr(x.msgs, "t.trace:5: error: integrity: out of bounds: event 3, strategy recorded: id 3: "
		"2D sprite at tile 992 runs past tile 1023") != NULL, "%s", x.msgs);
	ck_assert_ptr_nonnull(strstr(x.msgs, "t.trace:6: error: integrity: out of bounds"));
	assert_rect(&x, 1, 28, 4, 2);
	/* a broken placement takes nothing */
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->free_bytes, 32768 - 256);
	run_close(&x);
}
END_TEST

START_TEST(bytes_written_row_by_row_and_freed)
{
	char text[1024], hex[300];
	const vs_arena *a;
	unsigned i;
	run x;

	for (i = 0; i < 128; i++)
		snprintf(hex + 2 * i, 3, "%02x", i + 1);
	snprintf(text, sizeof text, HEAD
		"alloc 1 sprite 16x16 4bpp at=0x06010100 data=%s\n"  /* tiles 8-9, 40-41 */
		"alloc 2 bytes 128 at=0x06010140\n"                  /* tiles 10-13: beside row 0 */
		"alloc 3 sprite 32x8 4bpp at=0x06010400\n"           /* tiles 32-35: left of row 1 */
		"free 2\nfree 3\nfree 1\n", hex);
	run_recorded(&x, text, 3);
	a = obj_arena(&x);
	for (i = 0; i < 64; i++) {
		ck_assert_uint_eq(a->bytes[0x100 + i], i + 1);
		ck_assert_uint_eq(a->bytes[0x500 + i], 64 + i + 1);
	}
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->high_water, 0x540);
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_total(x.r), 0);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->free_bytes, 32768);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->free_extents, 1);
	ck_assert_uint_eq(vs_replay_metrics(x.r, 0)->live_count, 0);
	run_close(&x);
}
END_TEST

/* A byte of a rectangle's second row changed behind its back is found at
 * its free, and named by its address in that row. */
START_TEST(bytes_changed_found_in_the_rows)
{
	run x;

	run_recorded(&x, HEAD "alloc 1 sprite 16x16 4bpp at=0x06010000\nframe\nfree 1\n", 2);
	((vs_arena *)obj_arena(&x))->bytes[0x400 + 5] ^= 0xFF; /* row 1 (tile 32), byte 5 */
	ck_assert_int_eq(vs_replay_run(x.r, 0), 0);
	ck_assert_uint_eq(vs_replay_check_count(x.r, VS_CHECK_BYTES), 1);
	ck_assert_msg(strstr(x.msgs, "byte at 0x6010405 changed before its free") != NULL, "%s", x.msgs);
	run_close(&x);
}
END_TEST

/* A rule failure is told from fragmentation by the places a rectangle could
 * take, not by free runs. */
START_TEST(any_legal_place_is_a_rectangle)
{
	vs_arena a;
	vs_arena_decl d;
	vs_request rq;
	char err[256];
	uint32_t row;

	vs_arena_decl_default(&d, VS_ARENA_GBA_OBJ);
	d.gba_obj_2d = 1;
	ck_assert_int_eq(vs_arena_init(&a, &d, err, sizeof err), 0);
	/* every other matrix row taken: free runs of 32 tiles, no two rows */
	for (row = 0; row < 32; row += 2)
		vs_arena_mark(&a, row * 1024u, 1024u, 1u, VS_UNIT_DATA);
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_SPRITE;
	rq.u.sprite.shape = 1; /* wide 32x8: one row */
	rq.u.sprite.size = 1;
	rq.u.sprite.bpp = 4;
	vs_request_derive_size(&rq);
	ck_assert_int_eq(vs_hw_any_legal(&a, &rq, rq.size), 1);
	rq.u.sprite.shape = 0; /* 16x16: two rows */
	vs_request_derive_size(&rq);
	ck_assert_int_eq(vs_hw_any_legal(&a, &rq, rq.size), 0);
	a.decl.gba_obj_2d = 0; /* in 1D the same 128 bytes fit in a run */
	ck_assert_int_eq(vs_hw_any_legal(&a, &rq, rq.size), 1);
	vs_arena_fini(&a);
}
END_TEST

/* ---- strategies ----------------------------------------------------------------- */

START_TEST(one_d_strategies_refused)
{
	char err[1024];
	size_t i;
	run x;
	int refused = 0;

	for (i = 0; i < vs_strategy_count(); i++) {
		const vs_strategy *s = vs_strategy_at(i);
		if (!vs_strategy_manages(s, VS_ARENA_GBA_OBJ))
			continue;
		err[0] = '\0';
		if (s->flags & VS_STRAT_OBJ_2D) {
			ck_assert_msg(run_open(&x, HEAD "alloc 1 sprite 8x8 4bpp at=0x06010000\n", s->name, err,
				sizeof err) != NULL, "%s: %s", s->name, err);
			vs_replay_free(x.r);
		} else {
			ck_assert_msg(run_open(&x, HEAD "alloc 1 sprite 8x8 4bpp\n", s->name, err, sizeof err) == NULL,
				"%s accepted a 2D arena", s->name);
			ck_assert_msg(strstr(err, "places sprites for 1D OBJ mapping only") && strstr(err, "recorded"),
				"%s", err);
			refused++;
		}
		fclose(x.in);
	}
	ck_assert_int_ge(refused, 6);
	ck_assert_ptr_nonnull(vs_strategy_find("recorded"));
	ck_assert(vs_strategy_find("recorded")->flags & VS_STRAT_OBJ_2D);
}
END_TEST

static char out[65536], errs[65536];

START_TEST(cli_refusal_message_and_exit_code)
{
	const char *path = vs_test_file(0, "obj2d.trace", HEAD
		"alloc 1 sprite 32x32 4bpp tag=a at=0x06010000\n"
		"alloc 2 sprite 16x16 8bpp tag=b at=0x06010080\n"
		"frame\nfree 1\n");
	char args[1024];

	snprintf(args, sizeof args, "replay '%s' --strategy gba-obj-map", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 2);
	ck_assert_msg(strstr(errs, "vramsim replay: strategy 'gba-obj-map' places sprites for 1D OBJ mapping only, and "
		"arena 'obj' declares 2D mapping (map=2d), where a sprite takes a rectangle of the 32x32 tile matrix; "
		"strategies for 2D: recorded\n") != NULL, "%s", errs);
	snprintf(args, sizeof args, "replay '%s' --strategy obj=gba-obj-ends", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 2);
	ck_assert_msg(strstr(errs, "strategy 'gba-obj-ends' places sprites for 1D OBJ mapping only") != NULL, "%s", errs);
	snprintf(args, sizeof args, "replay '%s' --strategy recorded", path);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs) == 0, "%s%s", out, errs);
	/* with none named, the arena gets a strategy that takes it */
	snprintf(args, sizeof args, "replay '%s'", path);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs) == 0, "%s%s", out, errs);
	ck_assert_ptr_nonnull(strstr(out, "strategy recorded"));
	/* compare leaves 1D-only strategies out, and refuses one named */
	snprintf(args, sizeof args, "compare '%s' --no-timing -f csv", path);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs) == 0, "%s%s", out, errs);
	ck_assert_ptr_nonnull(strstr(out, "recorded"));
	ck_assert_ptr_null(strstr(out, "gba-obj-"));
	snprintf(args, sizeof args, "compare '%s' --no-timing --strategy gba-obj-buddy", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 2);
	ck_assert_msg(strstr(errs, "strategy 'gba-obj-buddy' places sprites for 1D OBJ mapping only") != NULL, "%s", errs);
	snprintf(args, sizeof args, "fmt '%s'", path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs), 0);
	ck_assert_ptr_nonnull(strstr(out, "arena obj gba-obj map=2d\n"));
	/* pictures draw the rectangles' tiles from the ownership map */
	snprintf(args, sizeof args, "render '%s' --strategy recorded --at 3 -o '%s/tests/obj2d-pictures'", path,
		VS_BINARY_DIR);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs) == 0, "%s%s", out, errs);
	ck_assert_ptr_nonnull(strstr(out, "occupancy.png"));
	remove(path);
}
END_TEST

/* ---- capture ----------------------------------------------------------------------- */

#define D_1D 0x0040u
#define D_OBJ 0x1000u
#define A_8BPP 0x2000u

/* OAM entry i: a sprite of shape (0 square, 1 wide, 2 tall) and size 0-3 on tile. */
static void obj(vs_gba_frame *f, unsigned i, unsigned tile, unsigned shape, unsigned size, unsigned flags)
{
	vs_test_oam_obj(f, i, tile, shape, size, flags, 16, 16);
}

typedef struct cap {
	vs_gba_frame *f;
	vs_capture *c;
	FILE *fp;
	char *text;
	size_t len;
} cap;

static void cap_open(cap *k, unsigned dispcnt)
{
	vs_capture_options o;
	char err[256];

	memset(k, 0, sizeof *k);
	k->f = vs_test_frame_new(dispcnt);
	vs_capture_options_default(&o);
	o.bg = 0;
	k->fp = open_memstream(&k->text, &k->len);
	ck_assert_ptr_nonnull(k->fp);
	k->c = vs_capture_new(&o, k->fp, NULL, err, sizeof err);
	ck_assert_msg(k->c != NULL, "%s", err);
}

static void cap_frames(cap *k, int n)
{
	while (n-- > 0)
		ck_assert_int_eq(vs_capture_frame(k->c, k->f), 0);
}

static void cap_close(cap *k)
{
	ck_assert_int_eq(vs_capture_finish(k->c), 0);
	vs_capture_free(k->c);
	fclose(k->fp);
	free(k->f);
}

START_TEST(capture_one_allocation_per_sprite)
{
	cap k;
	run x;
	const vs_live *l;

	cap_open(&k, D_OBJ);
	obj(k.f, 0, 0, 0, 2, 0);       /* 32x32 4bpp: tiles 0-3 of rows 0-3 */
	obj(k.f, 1, 4, 1, 2, 0);       /* 32x16 4bpp beside it: tiles 4-7 of rows 0-1 */
	obj(k.f, 2, 68, 0, 1, A_8BPP); /* 16x16 8bpp under that: tiles 68-71, 100-103 */
	obj(k.f, 3, 129, 2, 1, A_8BPP); /* 8x32 8bpp on an odd tile: 128-129 of rows 4-7 */
	obj(k.f, 4, 33, 0, 0, 0);      /* 8x8 inside the first */
	cap_frames(&k, 3);
	vs_test_oam_hide(k.f, 1);
	cap_frames(&k, 6);
	cap_close(&k);
	ck_assert_ptr_nonnull(strstr(k.text, "arena obj gba-obj map=2d\n"));
	ck_assert_int_eq(vs_test_count_lines(k.text, "alloc "), 4);
	ck_assert_int_eq(vs_test_count_lines(k.text, "free "), 1);
	ck_assert_ptr_nonnull(strstr(k.text, "sprite 32x32 4bpp"));
	ck_assert_ptr_nonnull(strstr(k.text, "sprite 32x16 4bpp"));
	ck_assert_ptr_nonnull(strstr(k.text, "sprite 16x16 8bpp"));
	ck_assert_ptr_nonnull(strstr(k.text, "sprite 8x32 8bpp"));
	ck_assert_ptr_nonnull(strstr(k.text, "at=0x6011000\n")); /* tile 128: the low bit dropped */
	run_recorded(&x, k.text, 0);
	ck_assert_msg(vs_replay_check_total(x.r) == 0 && vs_replay_diag_total(x.r) == 0, "%s\n%s", x.msgs, k.text);
	assert_rect(&x, 1, 0, 4, 4);
	l = vs_replay_live_by_owner(x.r, vs_arena_owner_at(obj_arena(&x), 100));
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(l->req.u.sprite.bpp, 8);
	ck_assert_uint_eq(tile_id(&x, 4), 0); /* freed */
	ck_assert_uint_eq(tile_id(&x, 128 + 3 * 32 + 1), tile_id(&x, 128));
	run_close(&x);
	free(k.text);
}
END_TEST

/* Random 2D sprites, shown and hidden: whatever capture makes of them
 * (rectangles, joins, rows wrapping past column 31, clips at tile 1023)
 * replays under recorded with no integrity error and no diagnostic. */
START_TEST(capture_random_2d_replays_clean)
{
	vs_rng g = { 0x2d0b0000u + (uint64_t)_i };
	unsigned n, i;
	cap k;
	run x;

	cap_open(&k, D_OBJ | (_i == 3 ? 4u : 0u));
	for (n = 0; n < 120; n++) {
		for (i = 0; i < 24; i++) {
			unsigned pick = vs_rng_below(&g, 4);
			if (pick == 0)
				vs_test_oam_hide(k.f, i);
			else if (pick == 1)
				obj(k.f, i, vs_rng_below(&g, 1024), vs_rng_below(&g, 3), vs_rng_below(&g, 4),
					vs_rng_below(&g, 2) ? A_8BPP : 0);
		}
		if (_i == 2 && n % 40 == 39)
			k.f->io[VS_IO_DISPCNT] ^= D_1D; /* a mapping change */
		cap_frames(&k, 1);
	}
	cap_close(&k);
	run_recorded(&x, k.text, 0);
	ck_assert_msg(vs_replay_check_total(x.r) == 0 && vs_replay_diag_total(x.r) == 0, "%s", x.msgs);
	run_close(&x);
	free(k.text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("obj_2d");
	TCase *fmt = tcase_create("format"), *eng = tcase_create("engine"), *str = tcase_create("strategies"),
		*capt = tcase_create("capture");

	tcase_add_test(fmt, declare_parse_write_round_trip);
	tcase_add_test(fmt, declare_errors_name_line_and_column);
	tcase_add_test(eng, sprite_holds_exactly_its_rectangle);
	tcase_add_test(eng, overlap_between_rows_names_the_line);
	tcase_add_test(eng, sprite_8bpp_rectangle_and_odd_tile);
	tcase_add_test(eng, wrap_past_column_31_and_tile_1023);
	tcase_add_test(eng, bytes_written_row_by_row_and_freed);
	tcase_add_test(eng, bytes_changed_found_in_the_rows);
	tcase_add_test(eng, any_legal_place_is_a_rectangle);
	tcase_add_test(str, one_d_strategies_refused);
	tcase_set_timeout(str, 60);
	tcase_add_test(str, cli_refusal_message_and_exit_code);
	tcase_add_test(capt, capture_one_allocation_per_sprite);
	tcase_set_timeout(capt, 60);
	tcase_add_loop_test(capt, capture_random_2d_replays_clean, 0, 4);
	suite_add_tcase(s, fmt);
	suite_add_tcase(s, eng);
	suite_add_tcase(s, str);
	suite_add_tcase(s, capt);
	return vs_test_main(s);
}
