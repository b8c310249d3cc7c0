/* SPDX-License-Identifier: Zlib */
/* test_gba_hw.c - the GBA placement rules, each with a case that holds and
 * one that breaks it (gba-vram.md). */
#include <string.h>

#include "support.h"
#include "vram/hw.h"
#include "vram/hw_gba.h"
#include "vram/request.h"
#include "vram/arena.h"

static vs_arena_decl arena(vs_arena_kind kind, unsigned mode)
{
	vs_arena_decl d;

	vs_arena_decl_default(&d, kind);
	d.gba_mode = (uint8_t)mode;
	return d;
}

#define OK(d, rq, off) ck_assert_msg(vs_hw_check(&(d), &(rq), (off), (rq).size, why, sizeof why) == 0, "%s", why)
#define BAD(d, rq, off) ck_assert_int_eq(vs_hw_check(&(d), &(rq), (off), (rq).size, why, sizeof why), -1)

START_TEST(obj_8bpp_even_tiles)
{
	vs_arena_decl d = arena(VS_ARENA_GBA_OBJ, 0);
	vs_request s8 = vs_test_sprite_rq(0, 1, 8), s4 = vs_test_sprite_rq(0, 1, 4);
	char why[200];

	OK(d, s8, 2 * 32);
	OK(d, s8, 3 * 32); /* 1D mapping takes the whole tile number (Butano's 8bpp after an 8x8) */
	d.gba_obj_2d = 1;
	BAD(d, s8, 3 * 32); /* 2D mapping drops its low bit */
	ck_assert_ptr_nonnull(strstr(why, "odd tile 3"));
	d.gba_obj_2d = 0;
	OK(d, s4, 3 * 32); /* 4bpp sprites may start anywhere */
	BAD(d, s4, 3 * 32 + 16); /* not on a tile */
}
END_TEST

START_TEST(obj_bitmap_modes_from_512)
{
	char why[200];
	vs_request s4 = vs_test_sprite_rq(0, 0, 4);
	unsigned mode;

	for (mode = 0; mode <= 5; mode++) {
		vs_arena_decl d = arena(VS_ARENA_GBA_OBJ, mode);
		OK(d, s4, 512 * 32);
		if (mode >= 3)
			BAD(d, s4, 511 * 32);
		else
			OK(d, s4, 511 * 32);
	}
}
END_TEST

START_TEST(bg_tiles_in_reach)
{
	vs_arena_decl d = arena(VS_ARENA_GBA_BG, 0);
	vs_request t4 = vs_test_tile_rq(7, 4), t8 = vs_test_tile_rq(7, 8);
	char why[200];

	OK(d, t4, 0x7FE0);
	OK(d, t8, 0xFFC0);
	BAD(d, t8, 0xFFE0); /* 8bpp tiles are 64-byte units */
	/* With a known charblock: a text 4bpp BG reaches 1024 x 32 bytes. */
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(0, 4, 0, 0x7FE0, 32, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(0, 4, 0, 0x8000, 32, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "tile number 1024"));
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(2, 4, 0, 0x8000, 32, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(2, 4, 0, 0x7FE0, 32, why, sizeof why), -1); /* below it */
	/* 8bpp text tiles reach the whole 64 KiB from charblock 0... */
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(0, 8, 0, 0xFFC0, 64, why, sizeof why), 0);
	/* ...but never past it: it would not read OBJ VRAM. */
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(3, 8, 0, 0x10000, 64, why, sizeof why), -1);
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(VS_GBA_CHARBLOCK_ANY, 4, 0, 0xFFE0, 64, why, sizeof why), -1);
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(9, 4, 0, 0, 32, why, sizeof why), -1);
}
END_TEST

START_TEST(bg_affine_tiles)
{
	char why[200];

	/* Affine: tile numbers 0-255 of 64 bytes, 8bpp only. */
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(1, 8, 1, 0x4000 + 255 * 64, 64, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(1, 8, 1, 0x4000 + 256 * 64, 64, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "0-255"));
	ck_assert_int_eq(vs_hw_gba_bg_tile_reach(1, 4, 1, 0x4000, 32, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "8bpp"));
}
END_TEST

START_TEST(bg_maps_on_screenblocks)
{
	vs_arena_decl d = arena(VS_ARENA_GBA_BG, 0);
	vs_request m0 = vs_test_map_rq(0, 0), m3 = vs_test_map_rq(0, 3), a0 = vs_test_map_rq(1, 0);
	char why[200];

	OK(d, m0, 0xF800);
	BAD(d, m0, 0xF820);
	OK(d, a0, 0x800);
	BAD(d, a0, 0x900); /* a 256-byte affine map still starts on a screenblock */
	OK(d, m3, 0xE000);
	BAD(d, m3, 0xF000); /* SC0-SC3 would run past screenblock 31 */
}
END_TEST

START_TEST(bg_bitmap_modes_have_no_tiles)
{
	vs_arena_decl d = arena(VS_ARENA_GBA_BG, 3);
	vs_request t4 = vs_test_tile_rq(7, 4), m0 = vs_test_map_rq(0, 0), raw;
	char why[200];

	d.size = 0x14000; /* the 80 KiB frame area */
	BAD(d, t4, 0);
	BAD(d, m0, 0);
	memset(&raw, 0, sizeof raw);
	raw.size = 64;
	OK(d, raw, 0x12000); /* plain bytes of the frame area are not judged */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gba_hw");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, obj_8bpp_even_tiles);
	tcase_add_test(tc, obj_bitmap_modes_from_512);
	tcase_add_test(tc, bg_tiles_in_reach);
	tcase_add_test(tc, bg_affine_tiles);
	tcase_add_test(tc, bg_maps_on_screenblocks);
	tcase_add_test(tc, bg_bitmap_modes_have_no_tiles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
