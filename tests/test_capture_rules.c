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

int main(void)
{
	Suite *s = suite_create("capture_rules");
	TCase *tc = tcase_create("promises");

	tcase_add_test(tc, odd_8bpp_tile_in_1d);
	tcase_add_test(tc, sheet_in_bitmap_mode);
	tcase_add_test(tc, zero_tile_shared_by_depths);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
