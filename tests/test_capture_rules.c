/* SPDX-License-Identifier: Zlib */
/* test_capture_rules.c - capture's promises on crafted frames: what the
 * hardware allows is inferred so that the trace replays under `recorded`
 * with no integrity error (an 8bpp sprite on an odd tile in 1D mapping,
 * --sheet in a bitmap mode, the all-zero tile shared by a 4bpp and an 8bpp
 * layer), and the engine-view options of docs/capture.md, a test a rule.
 */
#include "capture_ct.h"

/* Replayed under `recorded`: no integrity error, no diagnostic. */
static void replays_clean(const ct *t)
{
	outcome o = replay_recorded(t, 1);

	if (o.checks || o.diags) {
		FILE *fp = fopen("capture_rules_failed.trace", "w");
		if (fp) {
			fwrite(t->text, 1, t->len, fp);
			fclose(fp);
		}
	}
	ck_assert_msg(o.checks == 0 && o.diags == 0, "%llu checks, %llu diagnostics (the trace: "
		"capture_rules_failed.trace)", (unsigned long long)o.checks, (unsigned long long)o.diags);
}

/* 1D mapping takes an 8bpp sprite's whole tile number: one after a 4bpp
 * 8x8 sprite starts on an odd tile, and draws right. */
START_TEST(odd_8bpp_tile_in_1d)
{
	const ev *a;
	ct t;

	obj_open(&t, 3, 0);
	obj(t.f, 0, 0, 0, 0, 0);        /* 8x8 4bpp: tile 0 */
	obj(t.f, 1, 1, 0, 1, A_8BPP);   /* 16x16 8bpp: tiles 1-8 */
	obj_tiles(t.f, 0, 9, 5);
	ct_run(&t, 2);
	a = must_alloc(&t, OBJ0 + 32);
	ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
	ck_assert_uint_eq(a->req.size, 256);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* In a bitmap mode the frame buffer lies on OBJ tiles 0-511: drawing it is
 * no sprite sheet upload. */
START_TEST(sheet_in_bitmap_mode)
{
	size_t i;
	ct t;
	vs_capture_options o = opts(1, 0);

	o.sheet = 1;
	ct_open(&t, 3 | D_OBJ | D_1D, &o);
	ct_frames(&t, 1);
	fill(t.f->vram + 0x10000, 0x2C00, 9);  /* mode 3's frame buffer runs to 0x12C00: tiles 0-351 */
	obj_tiles(t.f, 600, 16, 10);           /* a sheet above the floor */
	obj(t.f, 0, 600, 0, 1, 0);
	ct_frames(&t, 2);
	fill(t.f->vram + 0x10000, 0x2C00, 11); /* the next picture */
	ct_run(&t, 2);
	for (i = 0; i < t.n; i++)
		if (t.v[i].type == VS_EV_ALLOC)
			ck_assert_uint_ge(t.v[i].req.at, OBJ0 + 512 * 32);
	ck_assert_ptr_nonnull(must_alloc(&t, OBJ0 + 600 * 32));
	ck_assert_uint_eq(t.st.sheets, 1);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* The all-zero tile is one tile at both depths: an 8bpp and a 4bpp layer on
 * the same charblock naming tile 0. The 8bpp layer comes first, the 4bpp
 * one shares its tile 0 and also names tile 1 (the zero 8bpp tile's second
 * half), then the 8bpp layer goes, and comes back. */
START_TEST(zero_tile_shared_by_depths)
{
	vs_capture_options o = opts(0, 1);
	ct t;

	ct_open(&t, 0, &o);
	bg_on(t.f, 2, 0, 28, 0, 0x80);       /* 8bpp, every cell tile 0 */
	ct_frames(&t, 1);
	bg_on(t.f, 1, 0, 30, 0, 0);          /* 4bpp, every cell tile 0 */
	text_cell(t.f, 30, 3, 3, 1);         /* and one tile 1 */
	ct_frames(&t, 2);
	t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(2);
	ct_frames(&t, 2);
	t.f->io[VS_IO_DISPCNT] |= (uint16_t)D_BG(2);
	ct_frames(&t, 2);
	t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(1);
	ct_frames(&t, 2);
	ct_close(&t);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* The affine walk, a cell at a time, finds exactly the cells the hardware
 * samples pixel by pixel: random rotations, scales, reference points, map
 * sizes, with and without wraparound, every cell naming its own tile. */
START_TEST(affine_cells_as_sampled)
{
	vs_rng g = { 0xaff1e000u + (uint64_t)_i };
	static uint8_t hit[128 * 128];
	unsigned round;

	for (round = 0; round < 8; round++) {
		unsigned size = vs_rng_below(&g, 4), wrap = vs_rng_below(&g, 2), cells = (16u << size) * (16u << size);
		int64_t side = 128 << size, pa, pb, pc, pd, x0, y0, px, py;
		uint32_t i, want = 0, io = VS_IO_BG2PA;
		ct t;

		bg_open(&t, 1);
		bg_on(t.f, 2, 0, 0, size, wrap << 13);
		for (i = 0; i < cells && i < 256; i++)
			t.f->vram[i] = (uint8_t)i;           /* cell i names tile i, all zero: ROM tile 0 */
		for (i = 0; i < 8; i++)
			t.f->io[io + i] = (uint16_t)vs_rng_next(&g);
		t.f->io[io + 5] &= 0x0FFF;
		t.f->io[io + 7] &= 0x0FFF;
		if (round % 2)                            /* small steps: many pixels a cell */
			for (i = 0; i < 4; i++)
				t.f->io[io + i] = (uint16_t)(int16_t)((int)vs_rng_below(&g, 1024) - 512);
		pa = (int16_t)t.f->io[io], pb = (int16_t)t.f->io[io + 1];
		pc = (int16_t)t.f->io[io + 2], pd = (int16_t)t.f->io[io + 3];
		x0 = (int32_t)((t.f->io[io + 4] | (uint32_t)t.f->io[io + 5] << 16) << 4) >> 4; /* 28 bits, signed */
		y0 = (int32_t)((t.f->io[io + 6] | (uint32_t)t.f->io[io + 7] << 16) << 4) >> 4;
		memset(hit, 0, sizeof hit);
		for (py = 0; py < 160; py++)
			for (px = 0; px < 240; px++) {
				int64_t sx = x0 + pa * px + pb * py, sy = y0 + pc * px + pd * py;
				int64_t mx = sx >= 0 ? sx / 256 : -((-sx + 255) / 256), my = sy >= 0 ? sy / 256 : -((-sy + 255) / 256);
				if (wrap) {
					mx &= side - 1;
					my &= side - 1;
				} else if (mx < 0 || my < 0 || mx >= side || my >= side) {
					continue;
				}
				i = (uint32_t)((my / 8) * (side / 8) + mx / 8);
				want += !hit[i];
				hit[i] = 1;
			}
		ct_run(&t, 1);
		ck_assert_msg(t.st.bg_refs + t.st.bg_conflicts == want, "round %u: %llu references (%llu on VRAM held "
			"otherwise), %u cells sampled", round, (unsigned long long)t.st.bg_refs,
			(unsigned long long)t.st.bg_conflicts, (unsigned)want);
		ct_free(&t);
	}
}
END_TEST

/* ---- an engine's view (docs/capture.md) ------------------------------------- */

static void engine_open(ct *t, int keep_hidden, int uploads, int alloc_first)
{
	vs_capture_options o = opts(1, 0);

	o.keep_hidden = keep_hidden;
	o.uploads = uploads;
	o.alloc_first = alloc_first;
	ct_open(t, D_OBJ | D_1D, &o);
}

/* --keep-hidden: a sprite hidden at frame 3 keeps its tiles until the game
 * writes them at 12 (freed there); without it, freed at 3. */
START_TEST(keep_hidden_until_overwritten)
{
	int keep;

	for (keep = 0; keep < 2; keep++) {
		const ev *a;
		ct t;

		engine_open(&t, keep, 0, 0);
		obj(t.f, 0, 8, 0, 1, 0);
		obj_tiles(t.f, 8, 4, 30);
		ct_frames(&t, 3);
		vs_test_oam_hide(t.f, 0);
		ct_frames(&t, 9);
		obj_tiles(t.f, 10, 1, 31);
		ct_run(&t, 4);
		a = must_alloc(&t, OBJ0 + 8 * 32);
		ck_assert_int_eq(freed_at(&t, a->id), keep ? 12 : 3);
		ck_assert_int_eq(strstr(t.text, "lookback=4 keep-hidden\n") != NULL, keep);
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* --uploads: graphics uploaded long before they are shown are allocated at
 * the upload, once even when it spans two frames, and never before the
 * last free on their tiles. */
START_TEST(uploads_date_allocations)
{
	int up;

	for (up = 0; up < 2; up++) {
		const ev *a, *b;
		ct t;

		engine_open(&t, 0, up, 0);
		obj_tiles(t.f, 16, 2, 40);     /* a 16x16 sprite's tiles, half at frame 0 */
		ct_frames(&t, 1);
		obj_tiles(t.f, 18, 2, 41);     /* the other half at 1 */
		ct_frames(&t, 19);
		obj(t.f, 0, 16, 0, 1, 0);      /* shown from 20 to 29 */
		ct_frames(&t, 10);
		vs_test_oam_hide(t.f, 0);      /* freed at 30 */
		ct_frames(&t, 4);
		obj_tiles(t.f, 16, 4, 42);     /* new graphics there at 34, shown at 50 */
		ct_frames(&t, 16);
		obj(t.f, 0, 16, 0, 1, 0);
		ct_run(&t, 3);
		a = must_alloc(&t, OBJ0 + 16 * 32);
		ck_assert_int_eq(a->frame, up ? 0 : 20);
		ck_assert_int_eq(freed_at(&t, a->id), 30);
		ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 2);
		b = &t.v[t.n - 1];
		ck_assert_int_eq(b->type, VS_EV_ALLOC);
		ck_assert_int_eq(b->frame, up ? 34 : 50);
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* --alloc-first: in the frame where sprite A goes and B comes, B's alloc
 * line comes before A's free; C, on tiles freed that frame, after it. */
START_TEST(alloc_first_order)
{
	int first;

	for (first = 0; first < 2; first++) {
		const char *fa, *fb, *fc;
		char want[64];
		ct t;

		engine_open(&t, 0, 0, first);
		obj(t.f, 0, 0, 0, 1, 0);        /* A: tiles 0-3 */
		obj(t.f, 1, 100, 0, 1, 0);      /* D: tiles 100-103 */
		obj_tiles(t.f, 0, 4, 50);
		obj_tiles(t.f, 100, 4, 51);
		ct_frames(&t, 5);
		vs_test_oam_hide(t.f, 0);       /* A goes at 5 (free dated 5) */
		vs_test_oam_hide(t.f, 1);       /* D goes at 5 */
		obj(t.f, 2, 40, 0, 1, 0);       /* B comes at 5, elsewhere */
		obj_tiles(t.f, 40, 4, 52);
		ct_frames(&t, 1);
		obj(t.f, 3, 100, 0, 0, 0);      /* C: 8x8 on D's first tile, rewritten: D freed at 5, C at 6 */
		obj_tiles(t.f, 100, 1, 53);
		ct_run(&t, 6);
		fa = strstr(t.text, "free 1\n");
		snprintf(want, sizeof want, "alloc 3 sprite 16x16");
		fb = strstr(t.text, want);
		ck_assert_ptr_nonnull(fa);
		ck_assert_ptr_nonnull(fb);
		ck_assert_int_eq(fb < fa, first);
		fc = strstr(t.text, "alloc 4 sprite 8x8");
		ck_assert_ptr_nonnull(fc);
		ck_assert(fc > strstr(t.text, "free 2\n"));
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* ---- --uploads: uploads never shown ------------------------------------------ */

/* The allocation at a tile, checked to be an unseen upload: bytes of n tiles. */
static const ev *unseen_at(const ct *t, unsigned tile, unsigned n)
{
	const ev *a = must_alloc(t, OBJ0 + tile * 32u);

	ck_assert_int_eq(a->req.shape, VS_REQ_BYTES);
	ck_assert_uint_eq(a->req.size, n * 32u);
	return a;
}

/* 16 tiles uploaded at 2 under forced blank and never shown are an
 * allocation from 2, live to the end; a sprite's tiles uploaded at 5 and
 * shown at 6 are the sprite's, dated 5. Without --uploads: no trace of the
 * 16 tiles. */
START_TEST(uploads_never_shown_allocated)
{
	int up;

	for (up = 0; up < 2; up++) {
		const ev *a, *b;
		ct t;

		engine_open(&t, 0, up, 0);
		t.f->io[VS_IO_DISPCNT] |= D_BLANK;
		ct_frames(&t, 2);
		obj_tiles(t.f, 0, 16, 90);
		ct_frames(&t, 3);
		t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BLANK;
		obj_tiles(t.f, 16, 4, 91);
		ct_frames(&t, 1);
		obj(t.f, 0, 16, 0, 1, 0);
		ct_run(&t, 4);
		b = must_alloc(&t, OBJ0 + 16 * 32);
		ck_assert_int_eq(b->req.shape, VS_REQ_SPRITE);
		ck_assert_int_eq(b->frame, 5);
		ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 1 + up);
		ck_assert_uint_eq(t.st.unseen, (unsigned)up);
		if (up) {
			a = unseen_at(&t, 0, 16);
			ck_assert_int_eq(a->frame, 2);
			ck_assert_int_eq(freed_at(&t, a->id), -1);
			ck_assert_ptr_nonnull(strstr(t.text, "1 uploads no sprite showed allocated from their upload"));
		} else {
			ck_assert_ptr_null(alloc_at(&t, OBJ0));
		}
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* An upload's extent: the run of tiles written in one frame outside live
 * allocations, cut by an owned range (a shown sprite on 4-7, rewritten in
 * place: its own), an unchanged tile (9) and an all-zero tile (14, written
 * zero over the bytes of frame 0: a clear). Frame 10 writes 0-8, 10-13, 14
 * (zero), 15-16: the runs 0-3, 8, 10-13 and 15-16. */
START_TEST(uploads_extent_cut)
{
	ct t;

	engine_open(&t, 0, 1, 0);
	obj_tiles(t.f, 4, 4, 92);
	obj_tiles(t.f, 14, 1, 93);
	obj(t.f, 0, 4, 0, 1, 0);
	ct_frames(&t, 10);
	obj_tiles(t.f, 0, 9, 94);
	obj_tiles(t.f, 10, 4, 95);
	memset(t.f->vram + 0x10000 + 14 * 32, 0, 32);
	obj_tiles(t.f, 15, 2, 96);
	ct_run(&t, 3);
	ck_assert_int_eq(unseen_at(&t, 0, 4)->frame, 10);
	ck_assert_int_eq(unseen_at(&t, 8, 1)->frame, 10);
	ck_assert_int_eq(unseen_at(&t, 10, 4)->frame, 10);
	ck_assert_int_eq(unseen_at(&t, 15, 2)->frame, 10);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, OBJ0 + 4 * 32)->id), -1);
	/* tile 14 alone, written at 0, was an upload of its own until the clear */
	ck_assert_int_eq(freed_at(&t, unseen_at(&t, 14, 1)->id), 10);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 6);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* An unseen upload ends when any of its tiles is written: A (0-7, at 2)
 * when 2-3 get new bytes at 10 (which are the next upload, from 10), B
 * (20-23, at 2) when 22-23 are cleared at 12 (no upload). */
START_TEST(uploads_end_when_overwritten)
{
	const ev *a, *b;
	ct t;

	engine_open(&t, 0, 1, 0);
	ct_frames(&t, 2);
	obj_tiles(t.f, 0, 8, 97);
	obj_tiles(t.f, 20, 4, 98);
	ct_frames(&t, 8);
	obj_tiles(t.f, 2, 2, 99);
	ct_frames(&t, 2);
	memset(t.f->vram + 0x10000 + 22 * 32, 0, 64);
	ct_run(&t, 3);
	a = unseen_at(&t, 0, 8);
	b = unseen_at(&t, 20, 4);
	ck_assert_int_eq(a->frame, 2);
	ck_assert_int_eq(freed_at(&t, a->id), 10);
	ck_assert_int_eq(b->frame, 2);
	ck_assert_int_eq(freed_at(&t, b->id), 12);
	ck_assert_int_eq(unseen_at(&t, 2, 2)->frame, 10);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 3);
	ck_assert_uint_eq(t.st.unseen_ended, 2);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* A sprite shown on an unseen upload takes its tiles, dated at the upload:
 * all of it (tiles 0-3 at 2, a 16x16 sprite on them at 10: one sprite
 * allocation from 2) or part of it (tiles 8-23 at 2, a 16x16 sprite on
 * 12-15 at 10: the sprite from 2, and 8-11 and 16-23 each a run from 2). */
START_TEST(uploads_taken_by_sprites)
{
	const ev *a, *b;
	ct t;

	engine_open(&t, 0, 1, 0);
	ct_frames(&t, 2);
	obj_tiles(t.f, 0, 4, 100);
	obj_tiles(t.f, 8, 16, 101);
	ct_frames(&t, 8);
	obj(t.f, 0, 0, 0, 1, 0);
	obj(t.f, 1, 12, 0, 1, 0);
	ct_run(&t, 3);
	a = must_alloc(&t, OBJ0);
	b = must_alloc(&t, OBJ0 + 12 * 32);
	ck_assert_int_eq(a->req.shape, VS_REQ_SPRITE);
	ck_assert_int_eq(b->req.shape, VS_REQ_SPRITE);
	ck_assert_int_eq(a->frame, 2);
	ck_assert_int_eq(b->frame, 2);
	ck_assert_int_eq(unseen_at(&t, 8, 4)->frame, 2);
	ck_assert_int_eq(unseen_at(&t, 16, 8)->frame, 2);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 4);
	ck_assert_int_eq(count(&t, VS_EV_FREE, -1), 0);
	ck_assert_uint_eq(t.st.unseen_taken, 2);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* An unseen upload older than the output waits (600 frames) is written;
 * shown later, it is handed over to a sprite showing exactly its range
 * (no new allocation: the sprite holds it, and frees it when it goes), and
 * ended by a sprite showing only part of it (freed then, the sprite from
 * then on). */
START_TEST(uploads_written_then_shown)
{
	int exact;

	for (exact = 0; exact < 2; exact++) {
		const ev *a, *b;
		ct t;

		engine_open(&t, 0, 1, 0);
		ct_frames(&t, 2);
		obj_tiles(t.f, 0, 4, 102);
		ct_frames(&t, 698);
		obj(t.f, 0, 0, 0, exact ? 1 : 0, 0);  /* 16x16 on all four tiles, or 8x8 on the first */
		ct_frames(&t, 5);
		vs_test_oam_hide(t.f, 0);
		ct_run(&t, 5);
		a = unseen_at(&t, 0, 4);
		ck_assert_int_eq(a->frame, 2);
		ck_assert_int_eq(freed_at(&t, a->id), exact ? 705 : 700);
		ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), exact ? 1 : 2);
		if (!exact) {
			b = &t.v[t.n - 1];
			while (b->type != VS_EV_ALLOC)
				b--;
			ck_assert_int_eq(b->req.shape, VS_REQ_SPRITE);
			ck_assert_int_eq(b->frame, 700);
			ck_assert_int_eq(freed_at(&t, b->id), 705);
		}
		ck_assert_uint_eq(t.st.unseen_handed, (unsigned)exact);
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* ---- --uploads on BG VRAM ----------------------------------------------------- */

#define BG0_AT 0x06000000u

static void bg_uploads_open(ct *t, int uploads)
{
	vs_capture_options o = opts(0, 1);

	o.uploads = uploads;
	ct_open(t, 0, &o);
}

/* The k-th alloc at an address, in trace order, or NULL. */
static const ev *nth_alloc_at(const ct *t, uint32_t at, int k)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].type == VS_EV_ALLOC && t->v[i].req.at == at && k-- == 0)
			return &t->v[i];
	return NULL;
}

static int nth_alloc_frame(const ct *t, uint32_t at, int k)
{
	const ev *a = nth_alloc_at(t, at, k);

	ck_assert_msg(a != NULL, "no allocation %d at 0x%x", k, (unsigned)at);
	return a->frame;
}

/* --uploads, BG: tile 5 uploaded at 0 and its map cell written at 2 are
 * shown at 10: the RAM tile's reference is dated 0, the map 2 (the zero
 * tile, never written, 10). Shown again at 30 after a free at 20, tile 5
 * is dated at its new upload (24) and the unchanged map at 30; a second
 * cell naming tile 5 at 40 shares the live tile and is not dated back. */
START_TEST(bg_uploads_date_tiles_and_maps)
{
	int up;

	for (up = 0; up < 2; up++) {
		uint32_t tile5 = BG0_AT + 5 * 32, map = BG0_AT + 28 * 2048;
		ct t;

		bg_uploads_open(&t, up);
		bg_tile(t.f, 0, 5, 32, 60);
		ct_frames(&t, 2);
		text_cell(t.f, 28, 3, 3, 5);
		ct_frames(&t, 8);
		bg_on(t.f, 0, 0, 28, 0, 0);                   /* shown 10-19 */
		ct_frames(&t, 10);
		t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(0); /* freed at 20 */
		ct_frames(&t, 4);
		bg_tile(t.f, 0, 5, 32, 61);                   /* new graphics at 24 */
		ct_frames(&t, 6);
		t.f->io[VS_IO_DISPCNT] |= (uint16_t)D_BG(0);  /* shown again at 30 */
		ct_frames(&t, 10);
		text_cell(t.f, 28, 4, 3, 5);                  /* a second cell on tile 5 at 40 */
		ct_run(&t, 2);
		ck_assert_int_eq(nth_alloc_frame(&t, tile5, 0), up ? 0 : 10);
		ck_assert_int_eq(nth_alloc_frame(&t, tile5, 1), up ? 24 : 30);
		ck_assert_int_eq(nth_alloc_frame(&t, tile5, 2), 40);
		ck_assert_ptr_null(nth_alloc_at(&t, tile5, 3));
		ck_assert_int_eq(nth_alloc_frame(&t, map, 0), up ? 2 : 10);
		ck_assert_int_eq(nth_alloc_frame(&t, map, 1), 30);
		ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT, 0), 10);
		ck_assert_int_eq(must_alloc(&t, map)->req.shape, VS_REQ_BGMAP);
		ck_assert_uint_eq(t.st.bg_refs_dated, up ? 2 : 0);
		ck_assert_uint_eq(t.st.bg_maps_dated, up ? 1 : 0);
		ck_assert_int_eq(strstr(t.text, "maps dated back to their upload") != NULL, up);
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* --uploads, BG: an 8bpp tile is dated at the first change of either of
 * its RAM tiles (halves written at 1 and 2: dated 1), and never before the
 * last free on them: 8bpp tile 4 is RAM tiles 8 and 9; 9 was written at 0,
 * but 8 was a 4bpp layer's until 20, so tile 4 shown at 30 is dated 20. */
START_TEST(bg_uploads_not_before_free)
{
	int up;

	for (up = 0; up < 2; up++) {
		ct t;

		bg_uploads_open(&t, up);
		bg_tile(t.f, 0, 9, 32, 70);
		ct_frames(&t, 1);
		bg_tile(t.f, 0, 20, 32, 71);                  /* 8bpp tile 10, first half at 1 */
		ct_frames(&t, 1);
		bg_tile(t.f, 0, 21, 32, 72);                  /* second half at 2 */
		ct_frames(&t, 1);
		bg_tile(t.f, 0, 8, 32, 73);                   /* 4bpp tile 8 at 3 */
		text_cell(t.f, 28, 0, 0, 8);
		ct_frames(&t, 7);
		bg_on(t.f, 0, 0, 28, 0, 0);                   /* BG0 shows tile 8, 10-19 */
		ct_frames(&t, 10);
		t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(0);
		ct_frames(&t, 10);
		text_cell(t.f, 30, 0, 0, 4);
		text_cell(t.f, 30, 1, 0, 10);
		bg_on(t.f, 1, 0, 30, 0, 0x80);                /* BG1, 8bpp, from 30 */
		ct_run(&t, 5);
		ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT + 8 * 32, 0), up ? 3 : 10);
		ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT + 8 * 32, 1), up ? 20 : 30);
		ck_assert_int_eq(nth_alloc_at(&t, BG0_AT + 8 * 32, 1)->req.u.tile.bpp, 8);
		ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT + 20 * 32, 0), up ? 1 : 30);
		replays_clean(&t);
		ct_free(&t);
	}
}
END_TEST

/* --uploads, BG: what a bitmap mode draws over the tiles is a picture, not
 * an upload. Tile 5 gets bytes in mode 3 frames (3-6); back in mode 0, a
 * cell naming it at 7 is dated 7, not 3. */
START_TEST(bg_uploads_not_from_pictures)
{
	ct t;

	bg_uploads_open(&t, 1);
	bg_on(t.f, 0, 0, 28, 0, 0);                       /* mode 0, every cell on the zero tile */
	ct_frames(&t, 3);
	t.f->io[VS_IO_DISPCNT] = (uint16_t)(3 | D_BG(2)); /* a bitmap picture, 3-6 */
	fill(t.f->vram, 0x4000, 80);
	ct_frames(&t, 4);
	t.f->io[VS_IO_DISPCNT] = 0;
	bg_on(t.f, 0, 0, 28, 0, 0);
	text_cell(t.f, 28, 2, 2, 5);
	ct_run(&t, 3);
	ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT + 5 * 32, 0), 7);
	replays_clean(&t);
	ct_free(&t);
}
END_TEST

/* ---- --uploads: BG uploads no layer shows -------------------------------------------- */

/* Replayed under `recorded` clean, and under every BG strategy with no
 * integrity error (they refuse what they cannot place: failures, not
 * errors). */
static void replays_clean_bg(const ct *t)
{
	static const char *const strat[][2] = {{"gba-bg-tiles", NULL}, {"gba-bg-tiles-split", NULL},
		{"butano-bg-blocks", NULL}, {"butano-bg-blocks", "version=10"}};
	size_t i;

	replays_clean(t);
	for (i = 0; i < sizeof strat / sizeof strat[0]; i++)
		ck_assert_msg(replay_under(t, strat[i][0], strat[i][1], 1).checks == 0, "%s: integrity error", strat[i][0]);
}

/* n RAM tiles of new bytes from unit on. */
static void bg_units(vs_gba_frame *f, unsigned unit, unsigned n, unsigned seed)
{
	fill(f->vram + unit * 32u, n * 32u, seed);
}

/* A BG run at a RAM tile (BG0_AT + unit * 32), of a request kind and bytes. */
static const ev *bg_run_at(const ct *t, unsigned unit, vs_req_shape shape, unsigned bytes)
{
	const ev *a = must_alloc(t, BG0_AT + unit * 32u);

	ck_assert_int_eq(a->req.shape, shape);
	ck_assert_uint_eq(a->req.size, bytes);
	return a;
}

/* BG0 (4bpp, charblock 0, map at screen block 28) and BG1 (8bpp, charblock
 * 1, map at 26) shown from 0, on the zero tile. */
static void two_layers(ct *t)
{
	bg_on(t->f, 0, 0, 28, 0, 0);
	bg_on(t->f, 1, 1, 26, 0, 0x80);
}

/* Uploads at 2 that no layer shows are allocations from 2, live to the end,
 * of the kind the registers tell: RAM tiles 10-17 only BG0 reaches (tiles
 * 8 4bpp), 1100-1103 only BG1 (tiles 2 8bpp), 1201-1203 only BG1 but not on
 * a 64-byte tile (bytes), 600-603 both (bytes). Without --uploads: none. */
START_TEST(bg_uploads_never_shown_allocated)
{
	int up;

	for (up = 0; up < 2; up++) {
		const ev *a;
		ct t;

		bg_uploads_open(&t, up);
		two_layers(&t);
		ct_frames(&t, 2);
		bg_units(t.f, 10, 8, 110);
		bg_units(t.f, 600, 4, 111);
		bg_units(t.f, 1100, 4, 112);
		bg_units(t.f, 1201, 3, 113);
		ct_run(&t, 5);
		ck_assert_uint_eq(t.st.bg_unseen, up ? 4u : 0u);
		if (!up) {
			ck_assert_ptr_null(alloc_at(&t, BG0_AT + 10 * 32));
			ct_free(&t);
			continue;
		}
		a = bg_run_at(&t, 10, VS_REQ_TILESET, 8 * 32);
		ck_assert_int_eq(a->req.u.tileset.count, 8);
		ck_assert_int_eq(a->req.u.tileset.bpp, 4);
		ck_assert_int_eq(a->frame, 2);
		ck_assert_int_eq(freed_at(&t, a->id), -1);
		a = bg_run_at(&t, 1100, VS_REQ_TILESET, 4 * 32);
		ck_assert_int_eq(a->req.u.tileset.count, 2);
		ck_assert_int_eq(a->req.u.tileset.bpp, 8);
		ck_assert_int_eq(bg_run_at(&t, 1201, VS_REQ_BYTES, 3 * 32)->frame, 2);
		ck_assert_int_eq(bg_run_at(&t, 600, VS_REQ_BYTES, 4 * 32)->frame, 2);
		ck_assert_uint_eq(t.st.bg_unseen_tilesets, 2);
		ck_assert_ptr_nonnull(strstr(t.text, "4 uploads no layer showed allocated from their upload (2 tile sets"));
		replays_clean_bg(&t);
		ct_free(&t);
	}
}
END_TEST

/* An upload's extent: RAM tiles written at 10 outside live allocations,
 * cut by one a reference holds (5, shown since 0), an unchanged one (9)
 * and an all-zero one (12, cleared at 10: the run it was from 0 ends).
 * Frame 10 writes 2-4, 6-8, 10-11, 12 (zero) and 13-14. */
START_TEST(bg_uploads_extent_cut)
{
	ct t;

	bg_uploads_open(&t, 1);
	bg_on(t.f, 0, 0, 28, 0, 0);
	bg_units(t.f, 5, 1, 120);
	text_cell(t.f, 28, 0, 0, 5);
	bg_units(t.f, 12, 1, 121);
	ct_frames(&t, 10);
	bg_units(t.f, 2, 3, 122);
	bg_units(t.f, 6, 3, 123);
	bg_units(t.f, 10, 2, 124);
	memset(t.f->vram + 12 * 32, 0, 32);
	bg_units(t.f, 13, 2, 125);
	ct_run(&t, 3);
	ck_assert_int_eq(bg_run_at(&t, 2, VS_REQ_TILESET, 3 * 32)->frame, 10);
	ck_assert_int_eq(bg_run_at(&t, 6, VS_REQ_TILESET, 3 * 32)->frame, 10);
	ck_assert_int_eq(bg_run_at(&t, 10, VS_REQ_TILESET, 2 * 32)->frame, 10);
	ck_assert_int_eq(bg_run_at(&t, 13, VS_REQ_TILESET, 2 * 32)->frame, 10);
	ck_assert_int_eq(freed_at(&t, bg_run_at(&t, 12, VS_REQ_TILESET, 32)->id), 10);
	ck_assert_int_eq(freed_at(&t, must_alloc(&t, BG0_AT + 5 * 32)->id), -1);
	ck_assert_uint_eq(t.st.bg_unseen, 5);
	replays_clean_bg(&t);
	ct_free(&t);
}
END_TEST

/* Screen blocks a BGxCNT names (BG1, not shown: 256x256 at block 30; BG2,
 * not shown: 512x256 at 20-21) go whole, zero entries and all: one cell
 * written in block 30 at 2 is a `cells 32x32` from 2, cells in 20 and 21 a
 * `cells 64x32`. Block 31, which no BGxCNT names, is RAM tiles: the one
 * written is 32 bytes. A block written all zero is no upload. */
START_TEST(bg_uploads_map_blocks)
{
	const ev *a;
	ct t;

	bg_uploads_open(&t, 1);
	bg_on(t.f, 0, 0, 28, 0, 0);
	t.f->io[VS_IO_BG0CNT + 1] = (uint16_t)(30u << 8);
	t.f->io[VS_IO_BG0CNT + 2] = (uint16_t)(20u << 8 | 1u << 14);
	ct_frames(&t, 2);
	text_cell(t.f, 30, 4, 4, 7);
	text_cell(t.f, 20, 1, 0, 8);
	text_cell(t.f, 21, 1, 31, 9);
	text_cell(t.f, 31, 0, 0, 10);
	ct_run(&t, 4);
	a = bg_run_at(&t, 30 * 64, VS_REQ_CELLS, 2048);
	ck_assert_int_eq(a->req.u.cells.width, 32);
	ck_assert_int_eq(a->frame, 2);
	a = bg_run_at(&t, 20 * 64, VS_REQ_CELLS, 4096);
	ck_assert_int_eq(a->req.u.cells.width, 64);
	ck_assert_int_eq(a->req.u.cells.height, 32);
	ck_assert_int_eq(bg_run_at(&t, 31 * 64, VS_REQ_BYTES, 32)->frame, 2);
	ck_assert_uint_eq(t.st.bg_unseen_maps, 2);
	ck_assert_int_eq(count(&t, VS_EV_ALLOC, -1), 3 + 1 + 600); /* BG0's map and 600 cells on the zero tile */
	replays_clean_bg(&t);
	ct_free(&t);
}
END_TEST

/* A run ends when any of its RAM tiles is written: A (10-17, at 2) when
 * 12-13 get new bytes at 10 (the next upload, from 10), B (20-23, at 2)
 * when 22-23 are cleared at 12 (no upload). */
START_TEST(bg_uploads_end_when_overwritten)
{
	const ev *a, *b;
	ct t;

	bg_uploads_open(&t, 1);
	bg_on(t.f, 0, 0, 28, 0, 0);
	ct_frames(&t, 2);
	bg_units(t.f, 10, 8, 130);
	bg_units(t.f, 20, 4, 131);
	ct_frames(&t, 8);
	bg_units(t.f, 12, 2, 132);
	ct_frames(&t, 2);
	memset(t.f->vram + 22 * 32, 0, 64);
	ct_run(&t, 3);
	a = bg_run_at(&t, 10, VS_REQ_TILESET, 8 * 32);
	b = bg_run_at(&t, 20, VS_REQ_TILESET, 4 * 32);
	ck_assert_int_eq(freed_at(&t, a->id), 10);
	ck_assert_int_eq(freed_at(&t, b->id), 12);
	ck_assert_int_eq(bg_run_at(&t, 12, VS_REQ_TILESET, 2 * 32)->frame, 10);
	ck_assert_uint_eq(t.st.bg_unseen, 3);
	ck_assert_uint_eq(t.st.bg_unseen_ended, 2);
	replays_clean_bg(&t);
	ct_free(&t);
}
END_TEST

/* A layer shown on a run not yet written takes what it uses, dated at the
 * upload: RAM tiles 10-17 at 2, a cell on tile 12 at 10: the reference from
 * 2, and 10-11 and 13-17 each a run from 2; BG1's map at block 30,
 * uploaded at 2, shown at 10: the map from 2, the run never written. */
START_TEST(bg_uploads_taken_by_layers)
{
	const ev *a;
	ct t;

	bg_uploads_open(&t, 1);
	bg_on(t.f, 0, 0, 28, 0, 0);
	t.f->io[VS_IO_BG0CNT + 1] = (uint16_t)(30u << 8);
	ct_frames(&t, 2);
	bg_units(t.f, 10, 8, 140);
	text_cell(t.f, 30, 2, 2, 12);
	ct_frames(&t, 8);
	text_cell(t.f, 28, 1, 1, 12);
	t.f->io[VS_IO_DISPCNT] |= (uint16_t)D_BG(1);
	ct_run(&t, 3);
	a = must_alloc(&t, BG0_AT + 12 * 32);
	ck_assert_int_eq(a->req.shape, VS_REQ_TILE);
	ck_assert_int_eq(a->frame, 2);
	ck_assert_int_eq(bg_run_at(&t, 10, VS_REQ_TILESET, 2 * 32)->frame, 2);
	ck_assert_int_eq(bg_run_at(&t, 13, VS_REQ_TILESET, 5 * 32)->frame, 2);
	a = must_alloc(&t, BG0_AT + 30 * 2048);
	ck_assert_int_eq(a->req.shape, VS_REQ_BGMAP);
	ck_assert_int_eq(a->frame, 2);
	ck_assert_uint_eq(t.st.bg_unseen, 2);
	ck_assert_uint_eq(t.st.bg_unseen_taken, 2);
	replays_clean_bg(&t);
	ct_free(&t);
}
END_TEST

/* A run older than the output waits (600 frames) is written. Shown later,
 * one a map fills exactly is handed over (no new allocation: the map holds
 * it and frees it when the layer goes); a map over more (512x256 on blocks
 * 30-31) ends it then and is allocated from then, and so does a tile
 * reference on a run of RAM tiles (10-13), whatever its extent. */
START_TEST(bg_uploads_written_then_shown)
{
	int exact;

	for (exact = 0; exact < 2; exact++) {
		const ev *a, *b, *m;
		ct t;

		bg_uploads_open(&t, 1);
		bg_on(t.f, 0, 0, 28, 0, 0);
		t.f->io[VS_IO_BG0CNT + 1] = (uint16_t)(30u << 8);
		ct_frames(&t, 2);
		text_cell(t.f, 30, 2, 2, 1);
		bg_units(t.f, 10, 4, 150);
		ct_frames(&t, 698);
		bg_on(t.f, 1, 0, 30, exact ? 0 : 1, 0);
		text_cell(t.f, 28, 0, 0, 10);
		ct_frames(&t, 5);
		t.f->io[VS_IO_DISPCNT] &= (uint16_t)~D_BG(1);
		ct_run(&t, 5);
		a = bg_run_at(&t, 30 * 64, VS_REQ_CELLS, 2048);
		ck_assert_int_eq(a->frame, 2);
		ck_assert_int_eq(freed_at(&t, a->id), exact ? 705 : 700);
		m = nth_alloc_at(&t, BG0_AT + 30 * 2048, 1);
		ck_assert_int_eq(m != NULL, !exact);
		if (m) {
			ck_assert_int_eq(m->req.shape, VS_REQ_BGMAP);
			ck_assert_int_eq(m->frame, 700);
			ck_assert_int_eq(freed_at(&t, m->id), 705);
		}
		b = bg_run_at(&t, 10, VS_REQ_TILESET, 4 * 32);
		ck_assert_int_eq(freed_at(&t, b->id), 700);
		ck_assert_int_eq(nth_alloc_frame(&t, BG0_AT + 10 * 32, 1), 700);
		ck_assert_uint_eq(t.st.bg_unseen_handed, (unsigned)exact);
		replays_clean_bg(&t);
		ct_free(&t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("capture_rules");
	TCase *tc = tcase_create("promises");

	tcase_add_test(tc, odd_8bpp_tile_in_1d);
	tcase_add_test(tc, sheet_in_bitmap_mode);
	tcase_add_test(tc, zero_tile_shared_by_depths);
	tcase_add_loop_test(tc, affine_cells_as_sampled, 0, 4);
	tcase_add_test(tc, keep_hidden_until_overwritten);
	tcase_add_test(tc, uploads_date_allocations);
	tcase_add_test(tc, alloc_first_order);
	tcase_add_test(tc, uploads_never_shown_allocated);
	tcase_add_test(tc, uploads_extent_cut);
	tcase_add_test(tc, uploads_end_when_overwritten);
	tcase_add_test(tc, uploads_taken_by_sprites);
	tcase_add_test(tc, uploads_written_then_shown);
	tcase_add_test(tc, bg_uploads_date_tiles_and_maps);
	tcase_add_test(tc, bg_uploads_not_before_free);
	tcase_add_test(tc, bg_uploads_not_from_pictures);
	tcase_add_test(tc, bg_uploads_never_shown_allocated);
	tcase_add_test(tc, bg_uploads_extent_cut);
	tcase_add_test(tc, bg_uploads_map_blocks);
	tcase_add_test(tc, bg_uploads_end_when_overwritten);
	tcase_add_test(tc, bg_uploads_taken_by_layers);
	tcase_add_test(tc, bg_uploads_written_then_shown);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
