/* SPDX-License-Identifier: Zlib */
/* test_capture.c - vramsim capture: allocations inferred from hardware state.
 *
 * Each test builds the frames a game would show (OAM entries, tiles, BG
 * control, maps, scroll), runs them through capture and reads the trace
 * back: one test per inference rule of docs/capture.md, then a synthetic
 * game that must replay under `recorded` without an integrity error, and
 * random frames that must always give a trace that reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

#include "capture_ct.h"

/* ---- OBJ rules ------------------------------------------------------------- */

START_TEST(obj_1d_range_exact_text)
{
	char want[1024];
	const ev *a;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 4, 0, 1, 0); /* 16x16 4bpp: tiles 4-7 */
	obj_tiles(t.f, 4, 4, 1);
	ct_frames(&t, 3);
	vs_test_oam_hide(t.f, 0);
	ct_run(&t, 4);
	a = must_alloc(&t, OBJ0 + 4 * 32);
	ck_assert_uint_eq(a->req.size, 128);
	ck_assert_int_eq(strlen(a->tag), 7);
	snprintf(want, sizeof want, "vramsim-trace 1\n# ROM: TEST\n# game code ABCD\n# capture: grace=3 lookback=4\n"
		"# capture: display mode 0 at the first frame shown\narena obj gba-obj\n"
		"alloc 1 sprite 16x16 4bpp tag=%s at=0x6010080\nframe\nframe\nframe\nfree 1\nframe\nframe\nframe\nframe\n"
		"# capture summary:", a->tag);
	ck_assert_msg(strncmp(t.text, want, strlen(want)) == 0, "got:\n%s\nwant:\n%s", t.text, want);
	ck_assert_uint_eq(t.st.obj_allocs, 1);
	ck_assert_uint_eq(t.st.obj_frees, 1);
	ct_free(&t);
}
END_TEST

START_TEST(obj_8bpp_and_nested_entry)
{
	const ev *a;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 8, 0, 1, A_8BPP); /* 16x16 8bpp: tiles 8-15 */
	obj(t.f, 1, 15, 0, 0, 0);     /* 8x8 inside it */
	obj(t.f, 2, 16, 0, 0, 0);     /* 8x8 just after */
	obj_tiles(t.f, 8, 9, 2);
	ct_run(&t, 2);
	a = must_alloc(&t, OBJ0 + 8 * 32);
	ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
	ck_assert_int_eq(a->req.u.sprite.bpp, 8);
	ck_assert_uint_eq(a->req.size, 256);
	must_alloc(&t, OBJ0 + 16 * 32);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ck_assert_uint_eq(t.st.nested, 2);
	ct_free(&t);
}
END_TEST

START_TEST(obj_affine_double_size_and_disabled)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 2, A_AFFINE | A_DOUBLE); /* shown, 32x32 */
	obj(t.f, 1, 100, 0, 2, A_DOUBLE);          /* not affine, bit 9: disabled */
	obj(t.f, 2, 200, 0, 2, A_AFFINE);          /* affine, normal size */
	ct_run(&t, 1);
	ck_assert_uint_eq(must_alloc(&t, OBJ0)->req.size, 512);
	ck_assert_ptr_null(alloc_at(&t, OBJ0 + 100 * 32));
	must_alloc(&t, OBJ0 + 200 * 32);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ck_assert_uint_eq(t.st.obj_entries, 2);
	ct_free(&t);
}
END_TEST

START_TEST(obj_bitmap_floor_and_clip)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D | 3, NULL);
	obj(t.f, 0, 100, 0, 0, 0);      /* below the floor in mode 3 */
	obj(t.f, 1, 600, 0, 1, 0);
	obj(t.f, 2, 960, 0, 3, A_8BPP); /* 64x64 8bpp: 128 tiles from 960 */
	ct_run(&t, 2);
	ck_assert_int_eq(t.h.arenas[0].gba_mode, 3);
	ck_assert_ptr_null(alloc_at(&t, OBJ0 + 100 * 32));
	must_alloc(&t, OBJ0 + 600 * 32);
	ck_assert_int_eq(must_alloc(&t, OBJ0 + 960 * 32)->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 960 * 32)->req.size, 64 * 32);
	ck_assert_uint_eq(t.st.below_floor, 2);
	ck_assert_uint_eq(t.st.clipped, 2);
	ck_assert_ptr_nonnull(strstr(t.text, "2 below the bitmap floor"));
	ct_free(&t);
}
END_TEST

START_TEST(obj_2d_rectangles)
{
	const ev *a, *b;
	ct t;

	ct_open(&t, D_OBJ, NULL);
	obj(t.f, 0, 3, 0, 1, 0);       /* 16x16 4bpp: tiles 3-4 and 35-36 */
	obj(t.f, 1, 65, 0, 1, A_8BPP); /* 16x16 8bpp: low bit ignored, 64-67 and 96-99 */
	obj(t.f, 2, 5, 0, 0, 0);       /* 8x8 beside the first sprite's top row */
	obj(t.f, 3, 36, 0, 0, 0);      /* 8x8 inside the first sprite's bottom row */
	obj_tiles(t.f, 0, 128, 3);
	ct_frames(&t, 2);
	vs_test_oam_hide(t.f, 0);
	vs_test_oam_hide(t.f, 1);
	vs_test_oam_hide(t.f, 2);
	vs_test_oam_hide(t.f, 3);
	ct_run(&t, 4);
	ck_assert_ptr_nonnull(strstr(t.text, "# capture: OBJ uses 2D mapping"));
	ck_assert_ptr_nonnull(strstr(t.text, "arena obj gba-obj map=2d\n"));
	ck_assert_int_eq(t.h.arenas[0].gba_obj_2d, 1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 3);
	a = must_alloc(&t, OBJ0 + 3 * 32);
	b = must_alloc(&t, OBJ0 + 64 * 32);
	must_alloc(&t, OBJ0 + 5 * 32);
	ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(a->req.size, 128);
	ck_assert_int_eq(b->req.shape, VS_REQ_SPRITE);
	ck_assert_int_eq(b->req.u.sprite.bpp, 8);
	ck_assert_uint_eq(b->req.size, 256);
	ck_assert_str_ne(a->tag, b->tag);
	ck_assert_int_eq(freed_at(&t, a->id), 2);
	ck_assert_int_eq(freed_at(&t, b->id), 2);
	ck_assert_uint_eq(t.st.nested, 2);
	ck_assert_int_eq(t.st.obj_2d, 1);
	ct_free(&t);
}
END_TEST

/* 2D shapes that are not one sprite: joined rectangles and rows wrapping
 * past column 31 are written a run of tiles per row. */
START_TEST(obj_2d_joined_and_wrapped)
{
	ct t;

	ct_open(&t, D_OBJ, NULL);
	obj(t.f, 0, 0, 0, 1, 0);  /* 16x16: tiles 0-1, 32-33 */
	obj(t.f, 1, 33, 0, 1, 0); /* 16x16: tiles 33-34, 65-66 */
	obj(t.f, 2, 31, 1, 0, 0); /* 16x8 at column 31: the run 31-32 */
	obj(t.f, 3, 95, 0, 1, 0); /* 16x16 at column 31: runs 95-96 and 127-128 */
	obj(t.f, 4, 200, 0, 1, 0); /* 16x16: tiles 200-201, 232-233 */
	obj(t.f, 5, 201, 0, 1, 0); /* 16x16: tiles 201-202, 233-234; joined: 2 rows of 3 */
	ct_run(&t, 1);
	ck_assert_uint_eq(t.st.wrapped, 2);
	ck_assert_uint_eq(t.st.merged, 3);
	/* 0 meets the run 31-32, then 1: one run, tiles 0-66 */
	ck_assert_int_eq(must_alloc(&t, OBJ0)->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(must_alloc(&t, OBJ0)->req.size, 67 * 32);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 95 * 32)->req.size, 64);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 127 * 32)->req.size, 64);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 200 * 32)->req.size, 96);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 232 * 32)->req.size, 96);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 5);
	ck_assert_str_eq(must_alloc(&t, OBJ0 + 200 * 32)->tag, must_alloc(&t, OBJ0 + 232 * 32)->tag);
	ck_assert_ptr_nonnull(strstr(t.text, "2 2D sprites wrapping past column 31"));
	ck_assert_uint_eq(replay_recorded(&t, 1).checks, 0);
	ct_free(&t);
}
END_TEST

/* A game starts force-blanked with DISPCNT's reset value, 2D and mode 0
 * on paper: blank frames say nothing; the obj arena takes the mapping of
 * the first frame that shows sprites, the arenas the mode of the first
 * frame shown. */
START_TEST(obj_mapping_of_first_sprites)
{
	ct t;

	ct_open(&t, D_BLANK, NULL);
	ct_frames(&t, 2);
	t.f->io[VS_IO_DISPCNT] = D_OBJ | D_1D;
	obj(t.f, 0, 0, 0, 1, 0);
	ct_run(&t, 2);
	ck_assert_int_eq(t.h.arenas[0].gba_obj_2d, 0);
	ck_assert_int_eq(t.st.obj_2d, 0);
	ck_assert_int_eq(must_alloc(&t, OBJ0)->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(t.st.mapping_changes, 0);
	ck_assert_uint_eq(t.st.blank_frames, 2);
	ck_assert_ptr_null(strstr(t.text, "OBJ uses 2D mapping"));
	ck_assert_ptr_null(strstr(t.text, "OBJ mapping 2D -> 1D"));
	ck_assert_int_eq(frame_lines(&t), 4);
	ct_free(&t);

	/* none shown before the header is due: the mapping of the frame then */
	ct_open(&t, D_BLANK, NULL);
	ct_frames(&t, 1);
	t.f->io[VS_IO_DISPCNT] = D_1D;
	ct_run(&t, 5);
	ck_assert_int_eq(t.h.arenas[0].gba_obj_2d, 0);
	ck_assert_ptr_null(strstr(t.text, "OBJ mapping 2D -> 1D"));
	ct_free(&t);

	/* a bitmap game: mode 3 from its first frame shown, after 10 blank */
	ct_open(&t, D_BLANK, NULL);
	ct_frames(&t, 10);
	t.f->io[VS_IO_DISPCNT] = 3 | D_OBJ | D_1D;
	obj(t.f, 0, 512, 0, 1, 0);
	ct_run(&t, 3);
	ck_assert_uint_eq(t.st.first_mode, 3);
	ck_assert_uint_eq(t.st.mode_changes, 0);
	ck_assert_ptr_nonnull(strstr(t.text, "arena obj gba-obj mode=3\n"));
	ck_assert_ptr_nonnull(strstr(t.text, "display mode 3 at the first frame shown"));
	ck_assert_int_eq(frame_lines(&t), 13);
	ck_assert_uint_eq(replay_recorded(&t, 1).checks, 0);
	ct_free(&t);

	/* never shown: the header says so, the frames are all there */
	ct_open(&t, D_BLANK, NULL);
	ct_run(&t, 7);
	ck_assert_ptr_nonnull(strstr(t.text, "no frame showed anything"));
	ck_assert_int_eq(frame_lines(&t), 7);
	ct_free(&t);
}
END_TEST

/* The arena keeps its mapping; sprites of the other are runs. */
START_TEST(obj_mapping_change)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 1, 0);
	ct_frames(&t, 1);
	t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_1D;
	obj(t.f, 0, 64, 0, 1, 0); /* 16x16 2D: tiles 64-65, 96-97 */
	ct_run(&t, 1);
	ck_assert_int_eq(t.h.arenas[0].gba_obj_2d, 0);
	ck_assert_int_eq(must_alloc(&t, OBJ0)->req.shape, VS_REQ_SPRITE);
	ck_assert_int_eq(must_alloc(&t, OBJ0 + 64 * 32)->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 96 * 32)->req.size, 64);
	ck_assert_uint_eq(t.st.mapping_changes, 1);
	ck_assert_ptr_nonnull(strstr(t.text, "OBJ mapping 1D -> 2D (the obj arena's is 1D"));
	ct_free(&t);
}
END_TEST

START_TEST(obj_shared_entries)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 10, 0, 1, 0);
	obj(t.f, 1, 10, 0, 1, 0);
	obj(t.f, 2, 40, 1, 0, 0); /* 16x8: tiles 40-41 */
	obj(t.f, 3, 40, 2, 0, 0); /* 8x16: the same two tiles */
	ct_run(&t, 3);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ck_assert_uint_eq(must_alloc(&t, OBJ0 + 40 * 32)->req.size, 64);
	ct_free(&t);
}
END_TEST

START_TEST(obj_nested_keeps_larger)
{
	const ev *a;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 2, 0); /* 32x32: tiles 0-15 */
	obj(t.f, 1, 5, 0, 0, 0);
	ct_frames(&t, 2);
	vs_test_oam_hide(t.f, 0);
	ct_run(&t, 8);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 1);
	a = must_alloc(&t, OBJ0);
	ck_assert_uint_eq(a->req.size, 512);
	ck_assert_int_eq(freed_at(&t, a->id), -1);
	ck_assert_uint_eq(t.st.nested, 10);
	ct_free(&t);
}
END_TEST

START_TEST(obj_partial_overlap_counted)
{
	const ev *a, *b;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 1, 0);
	obj_tiles(t.f, 0, 8, 4);
	ct_frames(&t, 3);
	obj(t.f, 0, 2, 0, 1, 0); /* tiles 2-5: half over the live 0-3 */
	ct_run(&t, 3);
	a = must_alloc(&t, OBJ0);
	b = must_alloc(&t, OBJ0 + 2 * 32);
	ck_assert_int_eq(freed_at(&t, a->id), 3);
	/* its tiles were written at frame 0, but the range was taken until 3 */
	ck_assert_int_eq(b->frame, 3);
	ck_assert_uint_eq(t.st.partial_overlaps, 1);
	ck_assert_ptr_nonnull(strstr(t.text, "1 partial overlaps"));
	ct_free(&t);
}
END_TEST

/* A at tile 0 leaves after frame 4; B at tile 100 is away for two frames. */
static void grace_game(ct *t, unsigned grace)
{
	obj_open(t, grace, 0);
	obj(t->f, 0, 0, 0, 1, 0);
	obj(t->f, 1, 100, 0, 1, 0);
	obj_tiles(t->f, 0, 4, 5);
	obj_tiles(t->f, 100, 4, 6);
	ct_frames(t, 5);
	vs_test_oam_hide(t->f, 0);
	vs_test_oam_hide(t->f, 1);
	ct_frames(t, 2);
	obj(t->f, 1, 100, 0, 1, 0);
	ct_run(t, 6);
}

START_TEST(obj_grace_and_free_dating)
{
	ct t;

	grace_game(&t, 3);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, OBJ0)->id), 5);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, OBJ0 + 100 * 32)->id), -1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ct_free(&t);
	grace_game(&t, 1);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, OBJ0)->id), 5);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, OBJ0 + 100 * 32)->id), 5);
	/* back at frame 7; its upload (frame 0) is past the lookback */
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 7), 1);
	ct_free(&t);
}
END_TEST

START_TEST(obj_one_frame_sprite)
{
	const ev *a;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	ct_frames(&t, 2);
	obj(t.f, 0, 30, 0, 0, 0);
	obj_tiles(t.f, 30, 1, 7);
	ct_frames(&t, 1);
	vs_test_oam_hide(t.f, 0);
	ct_run(&t, 5);
	a = must_alloc(&t, OBJ0 + 30 * 32);
	ck_assert_int_eq(a->frame, 2);
	ck_assert_int_eq(freed_at(&t, a->id), 3);
	ct_free(&t);
}
END_TEST

START_TEST(obj_animation_in_place)
{
	unsigned i;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 1, 0);
	for (i = 0; i < 12; i++) {
		obj_tiles(t.f, 0, 4, 10u + i);
		ct_frames(&t, 1);
	}
	ct_close(&t);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 1);
	ck_assert_int_eq(count(&t, VS_EV_FREE, -1), 0);
	ct_free(&t);
}
END_TEST

START_TEST(obj_tag_from_graphics)
{
	const ev *a, *b, *c;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj(t.f, 0, 0, 0, 1, 0);
	obj(t.f, 1, 200, 0, 1, 0);
	obj(t.f, 2, 400, 0, 1, 0);
	obj_tiles(t.f, 0, 4, 20);
	obj_tiles(t.f, 200, 4, 20);
	obj_tiles(t.f, 400, 4, 21);
	ct_run(&t, 1);
	a = must_alloc(&t, OBJ0);
	b = must_alloc(&t, OBJ0 + 200 * 32);
	c = must_alloc(&t, OBJ0 + 400 * 32);
	ck_assert_str_eq(a->tag, b->tag);
	ck_assert_str_ne(a->tag, c->tag);
	ck_assert_int_eq(a->tag[0], 'g');
	ck_assert_uint_eq(strspn(a->tag + 1, "0123456789abcdef"), 6);
	ct_free(&t);
}
END_TEST

START_TEST(obj_upload_before_use)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj_tiles(t.f, 500, 4, 30); /* long before: past the lookback */
	ct_frames(&t, 1);
	obj_tiles(t.f, 0, 4, 31);   /* frame 1, shown from 3 */
	ct_frames(&t, 2);
	obj(t.f, 0, 0, 0, 1, 0);
	ct_frames(&t, 7);
	obj(t.f, 1, 500, 0, 1, 0);  /* frame 10 */
	ct_run(&t, 2);
	ck_assert_int_eq(must_alloc(&t, OBJ0)->frame, 1);
	ck_assert_int_eq(must_alloc(&t, OBJ0 + 500 * 32)->frame, 10);
	ck_assert_uint_eq(t.st.dated_back, 1);
	ct_free(&t);
}
END_TEST

/* The upload is dated back, but not before the range's last free. */
START_TEST(obj_upload_not_before_free)
{
	const ev *a;
	ct t;

	obj_open(&t, 1, 0);
	obj(t.f, 0, 0, 0, 1, 0);
	obj_tiles(t.f, 0, 4, 40);
	ct_frames(&t, 1);
	obj_tiles(t.f, 0, 4, 41); /* frame 1: animation of the live sprite */
	ct_frames(&t, 1);
	vs_test_oam_hide(t.f, 0);         /* frame 2: freed */
	ct_frames(&t, 2);
	obj(t.f, 0, 0, 0, 1, 0);  /* frame 4: the tiles' last write (1) is in the lookback */
	ct_run(&t, 2);
	a = must_alloc(&t, OBJ0);
	ck_assert_int_eq(freed_at(&t, a->id), 2);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 2), 1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ct_free(&t);
}
END_TEST

START_TEST(obj_identical_reupload_is_no_change)
{
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	obj_tiles(t.f, 0, 4, 50);
	ct_frames(&t, 3);
	obj_tiles(t.f, 0, 4, 50); /* frame 3: the same bytes again */
	ct_frames(&t, 3);
	obj(t.f, 0, 0, 0, 1, 0);  /* frame 6: a change at 3 would be in the lookback */
	ct_run(&t, 2);
	ck_assert_int_eq(must_alloc(&t, OBJ0)->frame, 6);
	ck_assert_uint_eq(t.st.dated_back, 0);
	ct_free(&t);
}
END_TEST

START_TEST(obj_zero_entries_and_off_screen)
{
	const ev *a;
	ct t;

	ct_open(&t, D_OBJ | D_1D, NULL);
	memset(t.f->oam, 0, sizeof t.f->oam);
	vs_test_oam_obj(t.f, 5, 50, 0, 1, 0, 300, 200); /* parked off screen */
	ct_run(&t, 2);
	a = must_alloc(&t, OBJ0);
	ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(a->req.size, 32);
	must_alloc(&t, OBJ0 + 50 * 32);
	ck_assert_uint_eq(t.st.zero_entries_max, 127);
	ck_assert_ptr_nonnull(strstr(t.text, "at most 127 all-zero OAM entries"));
	ct_free(&t);
}
END_TEST

/* 300 tiles at boot, then OAM switching between them. */
static void sheet_game(ct *t, int sheet)
{
	unsigned i;

	obj_open(t, 3, sheet);
	obj_tiles(t->f, 0, 300, 60);
	ct_frames(t, 1);
	for (i = 1; i <= 40; i++) {
		obj(t->f, 0, (i * 7u) % 296u, 0, 0, 0);
		obj(t->f, 1, (i * 13u) % 290u, 0, 1, 0);
		ct_frames(t, 1);
	}
	ct_close(t);
}

START_TEST(obj_sheet_mode_and_hint)
{
	const ev *a;
	ct t;

	sheet_game(&t, 1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 1);
	ck_assert_int_eq(count(&t, VS_EV_FREE, -1), 0);
	a = must_alloc(&t, OBJ0);
	ck_assert_uint_eq(a->req.size, 300 * 32);
	ck_assert_int_eq(a->frame, 0);
	ck_assert_uint_eq(t.st.sheets, 1);
	ck_assert_ptr_nonnull(strstr(t.text, "1 sheet allocations"));
	ct_free(&t);
	sheet_game(&t, 0);
	ck_assert_int_gt(count(&t, VS_EV_ALLOC, -1), 40);
	ck_assert_int_eq(t.st.sheet_suspected, 1);
	ck_assert_ptr_nonnull(strstr(t.text, "try --sheet"));
	ct_free(&t);
}
END_TEST

/* A sheet rewritten in place, replaced by a different upload, cleared. */
START_TEST(obj_sheet_replaced)
{
	const ev *a;
	ct t;

	obj_open(&t, 3, 1);
	obj_tiles(t.f, 0, 100, 70);
	ct_frames(&t, 2);
	obj_tiles(t.f, 10, 4, 71);   /* inside: rewritten in place */
	ct_frames(&t, 2);
	obj_tiles(t.f, 50, 100, 72); /* over its end: a different upload */
	ct_frames(&t, 2);
	memset(t.f->vram + 0x10000 + 50 * 32, 0, 100 * 32);
	ct_run(&t, 2);
	a = must_alloc(&t, OBJ0);
	ck_assert_int_eq(freed_at(&t, a->id), 4);
	a = must_alloc(&t, OBJ0 + 50 * 32);
	ck_assert_int_eq(a->frame, 4);
	ck_assert_int_eq(freed_at(&t, a->id), 6);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
	ct_free(&t);
}
END_TEST

START_TEST(mid_frame_changes_counted)
{
	vs_capture_options o = opts(1, 1);
	int i;
	ct t;

	ct_open(&t, D_OBJ | D_1D, &o);
	for (i = 0; i < 10; i++) {
		t.f->changed_mid_frame = i % 3 == 0;
		ct_frames(&t, 1);
	}
	ct_close(&t);
	ck_assert_uint_eq(t.st.mid_frame, 4);
	ck_assert_ptr_nonnull(strstr(t.text, "10 frames, 4 changed mid-frame"));
	ct_free(&t);
}
END_TEST

/* ---- BG rules ---------------------------------------------------------------- */

/* Rule 5: VRAM is held once. A 512x512 map at screenblock 30 runs past
 * the BG area (cut, a byte request); a second layer on the same
 * screenblocks is not allocated twice; a 4bpp layer reading tiles an 8bpp
 * layer holds is not referenced; frames of a bitmap mode in a tiled
 * capture are not read. `recorded` replays the trace clean. */
START_TEST(bg_vram_held_once)
{
	const ev *a;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 0, 0, 30, 3, 0);      /* 512x512: screenblocks 30-33 */
	bg_on(t.f, 1, 0, 30, 0, 0);      /* the same screenblock */
	bg_on(t.f, 2, 1, 20, 0, 0x80);   /* 8bpp on charblock 1 */
	bg_on(t.f, 3, 1, 21, 0, 0);      /* 4bpp on charblock 1 */
	bg_tile(t.f, 1, 3, 64, 7);       /* 8bpp tile 3: 0x4000 + 192, RAM tiles 6-7 */
	text_cell(t.f, 20, 0, 0, 3);
	text_cell(t.f, 21, 0, 0, 7);     /* 4bpp tile 7: the 8bpp tile's second half */
	ct_frames(&t, 1);
	t.f->io[VS_IO_DISPCNT] = (uint16_t)((t.f->io[VS_IO_DISPCNT] & ~7u) | 3u);
	ct_run(&t, 2);
	a = must_alloc(&t, 0x06000000 + 30 * 2048);
	ck_assert_int_eq(a->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(a->req.size, 2 * 2048);
	ck_assert_uint_eq(t.st.bg_map_clipped, 1);
	ck_assert_uint_eq(t.st.bg_maps, 3);  /* BG0 (cut), BG2, BG3; not BG1 */
	ck_assert_ptr_nonnull(must_alloc(&t, 0x06004000 + 3 * 64));
	ck_assert_uint_ge(t.st.bg_conflicts, 2); /* BG1's map, BG3's cell on tile 7 */
	ck_assert_uint_eq(t.st.other_kind_frames, 2);
	ck_assert_ptr_nonnull(strstr(t.text, "frames in a bitmap mode, not the arenas' (mode 0): not read"));
	ck_assert_uint_eq(replay_recorded(&t, 0).checks, 0);
	ct_free(&t);
}
END_TEST

START_TEST(bg_map_allocations)
{
	const ev *m0, *m1;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 0, 0, 31, 0, 0);
	bg_on(t.f, 1, 1, 28, 1, 0);
	ct_frames(&t, 2);
	t.f->io[VS_IO_BG0CNT] |= 3; /* priority: the same map */
	ct_frames(&t, 1);
	t.f->io[VS_IO_BG0CNT] = (uint16_t)(30 << 8);
	ct_frames(&t, 1);
	t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(1);
	ct_run(&t, 1);
	m0 = must_alloc(&t, 0x0600F800);
	ck_assert_int_eq(m0->req.shape, VS_REQ_BGMAP);
	ck_assert_str_eq(m0->tag, "bg0");
	ck_assert_int_eq(freed_at(&t, m0->id), 3);
	m1 = must_alloc(&t, 0x0600E000);
	ck_assert_int_eq(m1->req.u.bgmap.size, 1);
	ck_assert_str_eq(m1->tag, "bg1");
	ck_assert_int_eq(freed_at(&t, m1->id), 4);
	ck_assert_int_eq(must_alloc(&t, 0x0600F000)->frame, 3);
	ck_assert_uint_eq(t.st.bg_maps, 3);
	/* all cells name tile 0 of an empty charblock: ROM tile 0, one load, the rest hits */
	ck_assert_uint_eq(t.st.bg_refs_max, 1200);
	ck_assert_ptr_nonnull(strstr(t.text, "alloc 3 tile 0 4bpp cb=0 tag=bg0-tiles at=0x6000000\n"));
	ct_free(&t);
}
END_TEST

START_TEST(bg_text_scroll_column)
{
	unsigned tx, ty;
	size_t i;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 0, 1, 31, 0, 0);
	for (ty = 0; ty < 32; ty++)
		for (tx = 0; tx < 32; tx++) {
			text_cell(t.f, 31, tx, ty, ty * 32 + tx);
			bg_tile(t.f, 1, ty * 32 + tx, 32, ty * 32 + tx + 1);
		}
	ct_frames(&t, 1);
	t.f->io[VS_IO_BG0HOFS] = 8;
	ct_frames(&t, 1);
	t.f->io[VS_IO_BG0HOFS] = 12; /* 31 columns now: one more comes in */
	ct_run(&t, 1);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 0), 1 + 600);
	ck_assert_int_eq(count(&t, VS_EV_FREE, 1), 20);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 1), 20);
	for (i = 0; i < t.n; i++)
		if (t.v[i].type == VS_EV_ALLOC && t.v[i].frame == 1)
			ck_assert_uint_eq((t.v[i].req.at - 0x06004000u) / 32u % 32u, 30);
	ck_assert_int_eq(count(&t, VS_EV_FREE, 2), 0);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 2), 20);
	ck_assert_uint_eq(t.st.rom_tiles, 640);
	ct_free(&t);
}
END_TEST

START_TEST(bg_identity_and_tile_zero)
{
	const ev *a;
	size_t i;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 0, 0, 31, 0, 0);
	bg_tile(t.f, 0, 1, 32, 80);
	bg_tile(t.f, 0, 2, 32, 80); /* the same graphics as tile 1 */
	bg_tile(t.f, 0, 3, 32, 81);
	text_cell(t.f, 31, 1, 0, 1);
	text_cell(t.f, 31, 2, 0, 2);
	text_cell(t.f, 31, 3, 0, 3);
	text_cell(t.f, 31, 4, 0, 1 | 0x0400 | 0x0800 | 0x5000); /* flipped, palette 5 */
	ct_run(&t, 1);
	for (i = 0; i < t.n; i++) {
		a = &t.v[i];
		if (a->type != VS_EV_ALLOC || a->req.shape != VS_REQ_TILE)
			continue;
		switch ((a->req.at - 0x06000000u) / 32u) {
		case 0: ck_assert_uint_eq(a->req.u.tile.rom, 0); break;
		case 1: case 2: ck_assert_uint_eq(a->req.u.tile.rom, 1); break;
		case 3: ck_assert_uint_eq(a->req.u.tile.rom, 2); break;
		default: ck_abort_msg("reference to RAM tile at 0x%x", (unsigned)a->req.at);
		}
	}
	/* 600 cells: 596 on tile 0 (one load), tiles 1 (twice), 2 and 3 */
	ck_assert_uint_eq(t.st.bg_refs, 600);
	ck_assert_uint_eq(t.st.bg_hits, 595 + 1);
	ck_assert_uint_eq(t.st.rom_tiles, 2);
	ct_free(&t);
}
END_TEST

START_TEST(bg_text_8bpp)
{
	const ev *a;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 2, 1, 31, 0, 0x80);
	bg_tile(t.f, 1, 5, 64, 90);
	text_cell(t.f, 31, 0, 0, 5);
	ct_run(&t, 1);
	a = must_alloc(&t, 0x06004000 + 5 * 64);
	ck_assert_int_eq(a->req.u.tile.bpp, 8);
	ck_assert_int_eq(a->req.u.tile.cb1, 2);
	ck_assert_uint_eq(a->req.size, 64);
	ck_assert_uint_eq(a->req.u.tile.rom, 1);
	ck_assert_str_eq(a->tag, "bg2-tiles");
	ct_free(&t);
}
END_TEST

static void affine(vs_gba_frame *f, unsigned n, int pa, int pd, int32_t x, int32_t y)
{
	unsigned io = n == 2 ? VS_IO_BG2PA : VS_IO_BG3PA;

	f->io[io] = (uint16_t)pa;
	f->io[io + 1] = 0;
	f->io[io + 2] = 0;
	f->io[io + 3] = (uint16_t)pd;
	f->io[io + 4] = (uint16_t)((uint32_t)x & 0xFFFF);
	f->io[io + 5] = (uint16_t)((uint32_t)x >> 16 & 0x0FFF);
	f->io[io + 6] = (uint16_t)((uint32_t)y & 0xFFFF);
	f->io[io + 7] = (uint16_t)((uint32_t)y >> 16 & 0x0FFF);
}

/* Tile references of one frame of an affine BG2 whose cells all name tile 7. */
static int affine_refs(unsigned size, int scale, int32_t x, unsigned flags)
{
	int n;
	ct t;

	bg_open(&t, 1);
	bg_on(t.f, 2, 0, 16, size, flags);
	memset(t.f->vram + 16 * 2048, 7, (16u << size) * (16u << size));
	bg_tile(t.f, 0, 7, 64, 100);
	affine(t.f, 2, scale, scale, x, 0);
	ct_run(&t, 1);
	n = count(&t, VS_EV_ALLOC, 0) - 1;
	if (n > 0) {
		const ev *a = must_alloc(&t, 0x06000000 + 7 * 64);
		ck_assert_int_eq(a->req.u.tile.affine, 1);
		ck_assert_int_eq(a->req.u.tile.bpp, 8);
	}
	ck_assert_int_eq(must_alloc(&t, 0x06008000)->req.u.bgmap.affine, 1);
	ct_free(&t);
	return n;
}

START_TEST(bg_affine_layer)
{
	ck_assert_int_eq(affine_refs(0, 0x100, 0, 0), 16 * 16);
	ck_assert_int_eq(affine_refs(0, 0x100, 64 << 8, 0), 8 * 16);
	ck_assert_int_eq(affine_refs(0, 0x100, 64 << 8, 0x2000), 16 * 16); /* wraps */
	ck_assert_int_eq(affine_refs(1, 0x200, 0, 0), 32 * 32);           /* zoomed out: all 256x256 */
	ck_assert_int_eq(affine_refs(1, 0x100, -8 * 256, 0), 29 * 20);    /* 8 pixels left of the map */
	ck_assert_int_eq(affine_refs(0, 0x100, 200 << 8, 0), 0);          /* the map is off screen */
}
END_TEST

START_TEST(bg_streamed_tile)
{
	size_t i;
	ct t;

	bg_open(&t, 0);
	bg_on(t.f, 0, 0, 31, 0, 0);
	for (i = 0; i < 1024; i++)
		vs_test_put16(t.f->vram + 31 * 2048 + i * 2, 1);
	bg_tile(t.f, 0, 1, 32, 110);
	ct_frames(&t, 2);
	bg_tile(t.f, 0, 1, 32, 111);
	ct_run(&t, 1);
	ck_assert_int_eq(count(&t, VS_EV_FREE, 2), 600);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, 2), 600);
	for (i = 0; i < t.n; i++)
		if (t.v[i].type == VS_EV_ALLOC && t.v[i].req.shape == VS_REQ_TILE)
			ck_assert_uint_eq(t.v[i].req.u.tile.rom, t.v[i].frame == 2 ? 2 : 1);
	ck_assert_uint_eq(t.st.bg_streamed, 600);
	ck_assert_uint_eq(t.st.bg_hits, 599 * 2);
	ct_free(&t);
}
END_TEST

/* ---- whole traces ------------------------------------------------------------- */

/* A well-behaved game: a scrolling text layer, sprites uploaded a frame
 * before use, animated in place, leaving, and one sliding half over its
 * own last range. */
static void game_frame(vs_gba_frame *f, unsigned t)
{
	unsigned k;

	f->io[VS_IO_BG0HOFS] = (uint16_t)(t * 3u);
	f->io[VS_IO_BG0HOFS + 1] = (uint16_t)(t / 2u);
	for (k = 0; k < 6; k++) {
		unsigned born = k * 7u, tile = 16u + k * 16u + (t / 40u % 2u) * 512u;
		if (t + 1 == born)
			obj_tiles(f, tile, 16, k + 200);
		if (t < born || t > born + 30u + k * 5u) {
			vs_test_oam_hide(f, k);
			continue;
		}
		obj(f, k, tile, 0, k == 3 ? 1 : 2, k == 3 ? A_8BPP : 0);
		if (t % 4 == 0)
			obj_tiles(f, tile, 4, t + k);
	}
	obj(f, 10, 200 + (t / 20u) * 2u, 0, 1, 0);
	obj(f, 11, 21, 0, 0, 0); /* inside the first sprite while it lives */
}

START_TEST(replays_under_recorded)
{
	vs_capture_options o = opts(1, 1);
	char out[4096], errs[4096], args[600];
	unsigned i, tx, ty;
	outcome o2;
	const char *path;
	ct t;

	ct_open(&t, D_OBJ | D_1D, &o);
	bg_on(t.f, 0, 0, 31, 0, 0);
	for (ty = 0; ty < 32; ty++)
		for (tx = 0; tx < 32; tx++)
			text_cell(t.f, 31, tx, ty, (ty * 5u + tx) % 64u + 1u);
	for (i = 1; i <= 64; i++)
		bg_tile(t.f, 0, i, 32, i % 50u + 300u);
	for (i = 0; i < 120; i++) {
		game_frame(t.f, i);
		ct_frames(&t, 1);
	}
	ct_close(&t);
	ck_assert_uint_gt(t.st.obj_allocs, 6);
	ck_assert_uint_gt(t.st.obj_frees, 3);
	ck_assert_uint_gt(t.st.partial_overlaps, 0);
	ck_assert_uint_gt(t.st.nested, 0);
	ck_assert_uint_gt(t.st.dated_back, 0);
	ck_assert_uint_gt(t.st.bg_hits, 0);
	o2 = replay_recorded(&t, 1);
	ck_assert_uint_eq(o2.checks, 0);
	ck_assert_uint_eq(o2.diags, 0);
	ck_assert_uint_eq(o2.frames, 120);

	path = vs_test_file(0, "capture.trace", t.text);
	snprintf(args, sizeof args, "validate '%s'", path);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, errs, sizeof errs) == 0, "%s%s", out, errs);
	remove(path);
	ct_free(&t);
}
END_TEST

static void scribble(vs_rng *g, uint8_t *p, size_t n, unsigned spans)
{
	while (spans--) {
		size_t at = vs_rng_below(g, (uint32_t)n), len = vs_rng_below(g, 2048), i;
		for (i = at; i < at + len && i < n; i++)
			p[i] = (uint8_t)vs_rng_next(g);
	}
}

/* Random IO, OAM and VRAM: capture never fails, the trace always reads,
 * and its ids are consistent (no free of an id not live, no id reused).
 * Random maps overlap tiles; OBJ allocations never overlap. */
START_TEST(random_frames_always_validate)
{
	vs_rng g = { 0x5eed0000u + (uint64_t)_i };
	vs_capture_options o = opts(1, _i != 2);
	unsigned n, i;
	outcome out;
	ct t;

	o.grace = 1 + vs_rng_below(&g, 5);
	o.lookback = vs_rng_below(&g, 6);
	o.sheet = _i & 1;
	ct_open(&t, 0, &o);
	for (n = 0; n < 200; n++) {
		for (i = 0; i < VS_GBA_IO_HALFWORDS; i++)
			if (vs_rng_below(&g, 8) == 0)
				t.f->io[i] = (uint16_t)vs_rng_next(&g);
		if (vs_rng_below(&g, 4) == 0)
			t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BLANK;
		scribble(&g, t.f->oam, sizeof t.f->oam, vs_rng_below(&g, 3));
		scribble(&g, t.f->vram, sizeof t.f->vram, vs_rng_below(&g, 12));
		t.f->changed_mid_frame = (uint8_t)vs_rng_below(&g, 2);
		ct_frames(&t, 1);
	}
	ct_close(&t);
	ck_assert_uint_eq(t.st.frames, 200);
	out = replay_recorded(&t, 0);
	ck_assert_uint_eq(out.diags, 0);
	ck_assert_uint_eq(out.frames, 200);
	if (!o.bg)
		ck_assert_uint_eq(out.overlaps, 0);
	ct_free(&t);
}
END_TEST

START_TEST(bad_options_refused)
{
	vs_capture_options o = opts(0, 0);
	char err[256];

	ck_assert_ptr_null(vs_capture_new(&o, stdout, NULL, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "neither"));
	o = opts(1, 1);
	o.grace = 0;
	ck_assert_ptr_null(vs_capture_new(&o, stdout, NULL, err, sizeof err));
	o.grace = 3;
	o.lookback = 601;
	ck_assert_ptr_null(vs_capture_new(&o, stdout, NULL, err, sizeof err));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("capture");
	TCase *obj_tc = tcase_create("obj"), *bg_tc = tcase_create("bg"), *whole = tcase_create("whole");

	tcase_add_test(obj_tc, obj_1d_range_exact_text);
	tcase_add_test(obj_tc, obj_8bpp_and_nested_entry);
	tcase_add_test(obj_tc, obj_affine_double_size_and_disabled);
	tcase_add_test(obj_tc, obj_bitmap_floor_and_clip);
	tcase_add_test(obj_tc, obj_2d_rectangles);
	tcase_add_test(obj_tc, obj_2d_joined_and_wrapped);
	tcase_add_test(obj_tc, obj_mapping_of_first_sprites);
	tcase_add_test(obj_tc, obj_mapping_change);
	tcase_add_test(obj_tc, obj_shared_entries);
	tcase_add_test(obj_tc, obj_nested_keeps_larger);
	tcase_add_test(obj_tc, obj_partial_overlap_counted);
	tcase_add_test(obj_tc, obj_grace_and_free_dating);
	tcase_add_test(obj_tc, obj_one_frame_sprite);
	tcase_add_test(obj_tc, obj_animation_in_place);
	tcase_add_test(obj_tc, obj_tag_from_graphics);
	tcase_add_test(obj_tc, obj_upload_before_use);
	tcase_add_test(obj_tc, obj_upload_not_before_free);
	tcase_add_test(obj_tc, obj_identical_reupload_is_no_change);
	tcase_add_test(obj_tc, obj_zero_entries_and_off_screen);
	tcase_add_test(obj_tc, obj_sheet_mode_and_hint);
	tcase_add_test(obj_tc, obj_sheet_replaced);
	tcase_add_test(obj_tc, mid_frame_changes_counted);
	tcase_add_test(bg_tc, bg_map_allocations);
	tcase_add_test(bg_tc, bg_text_scroll_column);
	tcase_add_test(bg_tc, bg_identity_and_tile_zero);
	tcase_add_test(bg_tc, bg_text_8bpp);
	tcase_add_test(bg_tc, bg_affine_layer);
	tcase_add_test(bg_tc, bg_streamed_tile);
	tcase_add_test(bg_tc, bg_vram_held_once);
	tcase_set_timeout(whole, 60);
	tcase_add_test(whole, replays_under_recorded);
	tcase_add_loop_test(whole, random_frames_always_validate, 0, 3);
	tcase_add_test(whole, bad_options_refused);
	suite_add_tcase(s, obj_tc);
	suite_add_tcase(s, bg_tc);
	suite_add_tcase(s, whole);
	return vs_test_main(s);
}
