/* SPDX-License-Identifier: Zlib */
/* test_ds_direct.c - the DS driver reads the video hardware straight from
 * DeSmuME's memory (console/ds/ds_direct.h) and gives what the savestate
 * gives.
 *
 * A 2D ROM made here (engine A sprites changed every 16 frames, no 3D):
 * after the first frame every frame is read without the savestate; what
 * is read equals, byte for byte, a savestate taken at the same moment on
 * several frames; its capture is byte for byte the capture with the
 * savestate read every frame (VRAMSIM_DS_READ=savestate); with the search
 * made to fail (VRAMSIM_DS_READ=miss) the driver says why, falls back to
 * the savestate, and captures the same trace. The DS demo ROM (both
 * engines and textured 3D, its polygon lists never empty): the savestate
 * on every frame, the lists found all the same (their polygons are
 * compared with the savestate's), and the same capture through both paths.
 *
 * Under AddressSanitizer the polygon lists' block is the sanitizer's
 * allocation, which the search does not recognise (it knows glibc's): the
 * driver falls back, and the cases check that it does, and that the
 * traces are still the same. Skipped without the DeSmuME core; the demo's
 * case without the demo ROM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "ds_demo_run.h"
#include "ds_test_rom.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"

#if defined(__SANITIZE_ADDRESS__)
#define DIRECT 0
#else
#define DIRECT 1
#endif

/* six changes of the sprites; two under the sanitizer, where every frame
 * takes the savestate, ten times slower */
#define SPRITE_FRAMES (DIRECT ? 100u : 40u)
#define DEMO_FRAMES 30u    /* set-up, 3D, and engine A's sprite churn */

/* The 2D program (ARM, assembled with arm-none-eabi-as -mcpu=arm946e-s):
 * bank A to engine A's OBJ, engine A on with OBJ and 1D tiles, every OAM
 * entry hidden; then at each line 192 a frame count, and every 16th frame
 * entry 0 (16x16, 16 colours) on tile 4 * ((frames / 16) % 8), its 128
 * bytes filled with the count, and entry 1 (8x8, tile 100) shown on every
 * other change. */
static const uint32_t sprite_code[] = {
	0xE59F10B8u, /* ldr r1, =0x04000240 */
	0xE3A00082u, /* mov r0, #0x82 */
	0xE5C10000u, /* strb r0, [r1]: VRAMCNT_A */
	0xE3A01301u, /* mov r1, #0x04000000 */
	0xE59F00ACu, /* ldr r0, =0x00011010 */
	0xE5810000u, /* str r0, [r1]: DISPCNT A */
	0xE3A01407u, /* mov r1, #0x07000000 */
	0xE3A00C02u, /* mov r0, #0x200 */
	0xE3A02080u, /* mov r2, #128 */
	0xE0C100B8u, /* hide: strh r0, [r1], #8 */
	0xE2522001u, /* subs r2, r2, #1 */
	0x1AFFFFFCu, /* bne hide */
	0xE3A05000u, /* mov r5, #0 */
	0xE59F308Cu, /* ldr r3, =0x04000006 (VCOUNT) */
	0xE1D300B0u, /* frame: ldrh r0, [r3] */
	0xE35000C0u, /* cmp r0, #192 */
	0x1AFFFFFCu, /* bne frame */
	0xE2855001u, /* add r5, r5, #1 */
	0xE315000Fu, /* tst r5, #15 */
	0x1A000017u, /* bne leave */
	0xE1A06225u, /* lsr r6, r5, #4 */
	0xE2066007u, /* and r6, r6, #7 */
	0xE1A06106u, /* lsl r6, r6, #2 */
	0xE3A01519u, /* mov r1, #0x06400000 */
	0xE0811286u, /* add r1, r1, r6, lsl #5 */
	0xE1850805u, /* orr r0, r5, r5, lsl #16 */
	0xE3A02020u, /* mov r2, #32 */
	0xE4810004u, /* fill: str r0, [r1], #4 */
	0xE2522001u, /* subs r2, r2, #1 */
	0x1AFFFFFCu, /* bne fill */
	0xE3A01407u, /* mov r1, #0x07000000 */
	0xE3A00010u, /* mov r0, #16 */
	0xE1C100B0u, /* strh r0, [r1]: y 16 */
	0xE59F0040u, /* ldr r0, =0x4020 */
	0xE1C100B2u, /* strh r0, [r1, #2]: x 32, 16x16 */
	0xE1C160B4u, /* strh r6, [r1, #4]: the tile */
	0xE3150010u, /* tst r5, #16 */
	0x03A00C02u, /* moveq r0, #0x200 */
	0x13A00030u, /* movne r0, #48 */
	0xE1C100B8u, /* strh r0, [r1, #8] */
	0xE3A00040u, /* mov r0, #64 */
	0xE1C100BAu, /* strh r0, [r1, #10] */
	0xE3A00064u, /* mov r0, #100 */
	0xE1C100BCu, /* strh r0, [r1, #12] */
	0xE1D300B0u, /* leave: ldrh r0, [r3] */
	0xE35000C0u, /* cmp r0, #192 */
	0x0AFFFFFCu, /* beq leave */
	0xEAFFFFDDu, /* b frame */
	0x04000240u, 0x00011010u, 0x04000006u, 0x00004020u, /* the literals */
};

static char err[1024];

static const char *sprite_rom(void)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *path = vs_test_path("vssprites.nds");

	ds_test_rom_make(rom, "vssprites", sprite_code, sizeof sprite_code / sizeof sprite_code[0], NULL);
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	return path;
}

/* The trace `vramsim capture` writes of the ROM's first frames, read with
 * VRAMSIM_DS_READ set to mode (NULL: unset). Free it. */
static char *capture(const char *rom, uint32_t frames, const char *mode)
{
	const char *path = vs_test_path("direct-%s.trace", mode ? mode : "default");
	vs_ds_capture_stats st;
	vs_ds_play play;
	FILE *out = fopen(path, "w");
	char *text;

	ck_assert_ptr_nonnull(out);
	if (mode)
		setenv("VRAMSIM_DS_READ", mode, 1);
	else
		unsetenv("VRAMSIM_DS_READ");
	memset(&play, 0, sizeof play);
	play.frames = frames;
	ck_assert_msg(vs_ds_emu_capture(rom, &play, NULL, out, &st, err, sizeof err) == 0, "%s", err);
	unsetenv("VRAMSIM_DS_READ");
	ck_assert_int_eq(fclose(out), 0);
	text = vs_test_slurp(path);
	unlink(path);
	return text;
}

START_TEST(test_sprites_direct)
{
	const char *rom = sprite_rom();
	vs_ds_play play;
	vs_ds_emu *e;
	vs_ds_read_counts n;
	uint32_t i, checked = 0;

	unsetenv("VRAMSIM_DS_READ");
	memset(&play, 0, sizeof play);
	play.frames = SPRITE_FRAMES;
	e = vs_ds_play_open(rom, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	for (i = 0; i < play.frames; i++) {
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		/* before and after changes, and between them */
		if (DIRECT && (i == 1 || i == 16 || i == 17 || i == 40 || i == 79 || i + 1 == play.frames)) {
			ck_assert_msg(vs_ds_emu_direct_check(e, err, sizeof err) == 0, "frame %u: %s", i, err);
			checked++;
		}
	}
	n = vs_ds_emu_counts(e);
	if (DIRECT) {
		ck_assert_msg(vs_ds_emu_read_note(e) == NULL, "%s", vs_ds_emu_read_note(e));
		ck_assert_uint_eq(n.state, 1); /* the first frame's, which the search starts from */
		ck_assert_uint_eq(n.direct, SPRITE_FRAMES - 1);
		ck_assert_uint_eq(checked, 6);
		/* what capture reads of the last frame: entry 0 on tile 4 * 6 */
		ck_assert_uint_eq(vs_ds_emu_frame(e)->oam[4], 24);
		ck_assert_uint_eq(vs_ds_emu_frame(e)->vramcnt[0], 0x82);
	} else {
		ck_assert_ptr_nonnull(vs_ds_emu_read_note(e));
		ck_assert_uint_eq(n.state, SPRITE_FRAMES);
		ck_assert_int_eq(vs_ds_emu_direct_check(e, err, sizeof err), -1);
	}
	vs_ds_emu_close(e);
	unlink(rom);
}
END_TEST

START_TEST(test_sprites_same_trace)
{
	const char *rom = sprite_rom();
	char *direct = capture(rom, SPRITE_FRAMES, NULL), *state = capture(rom, SPRITE_FRAMES, "savestate");
	char *miss = capture(rom, SPRITE_FRAMES, "miss");

	/* the sprites are in it: allocations on engine A's OBJ, and frees */
	ck_assert_ptr_nonnull(strstr(direct, "\nalloc "));
	ck_assert_ptr_nonnull(strstr(direct, "\nfree "));
	ck_assert_str_eq(direct, state);
	ck_assert_str_eq(miss, state);
	free(direct);
	free(state);
	free(miss);
	unlink(rom);
}
END_TEST

/* The search made to fail: the reason, and the savestate every frame. */
START_TEST(test_fallback)
{
	const char *rom = sprite_rom();
	vs_ds_play play;
	vs_ds_emu *e;
	uint32_t i;

	setenv("VRAMSIM_DS_READ", "miss", 1);
	memset(&play, 0, sizeof play);
	play.frames = 10;
	e = vs_ds_play_open(rom, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	for (i = 0; i < play.frames; i++)
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
	unsetenv("VRAMSIM_DS_READ");
	ck_assert_ptr_nonnull(vs_ds_emu_read_note(e));
	ck_assert_ptr_nonnull(strstr(vs_ds_emu_read_note(e), "MMU struct not found"));
	ck_assert_uint_eq(vs_ds_emu_counts(e).state, 10);
	ck_assert_uint_eq(vs_ds_emu_counts(e).direct, 0);
	ck_assert_int_eq(vs_ds_emu_direct_check(e, err, sizeof err), -1);
	vs_ds_emu_close(e);
	unlink(rom);
}
END_TEST

START_TEST(test_demo_same_trace)
{
	vs_ds_play play;
	vs_ds_emu *e;
	uint32_t i;
	char *direct, *state;

	unsetenv("VRAMSIM_DS_READ");
	memset(&play, 0, sizeof play);
	play.frames = 8;
	e = vs_ds_play_open(DS_DEMO_ROM, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	for (i = 0; i < play.frames; i++)
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
	/* the lists hold the demo's quads: the savestate every frame */
	ck_assert_uint_eq(vs_ds_emu_counts(e).direct, 0);
	ck_assert_uint_gt(vs_ds_emu_frame(e)->polys_n, 0);
	if (DIRECT)
		ck_assert_msg(vs_ds_emu_direct_check(e, err, sizeof err) == 0, "%s", err);
	vs_ds_emu_close(e);
	direct = capture(DS_DEMO_ROM, DEMO_FRAMES, NULL);
	state = capture(DS_DEMO_ROM, DEMO_FRAMES, "savestate");
	ck_assert_ptr_nonnull(strstr(direct, "\nalloc "));
	ck_assert_str_eq(direct, state);
	free(direct);
	free(state);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_direct");
	TCase *tc = tcase_create("direct");

	tcase_add_test(tc, test_sprites_direct);
	tcase_add_test(tc, test_sprites_same_trace);
	tcase_add_test(tc, test_fallback);
	suite_add_tcase(s, tc);
	tc = vs_test_tcase_apart(s, "demo", access(DS_DEMO_ROM, R_OK) == 0 ? NULL :
		"the DS demo ROM (" DS_DEMO_ROM "; built with arm-none-eabi-gcc)");
	tcase_add_test(tc, test_demo_same_trace);
	return s;
}

int main(void)
{
	static char why[600];

	if (vs_ds_core_available(why, sizeof why) < 0)
		vs_test_require(why);
	return vs_test_main(suite());
}
