/* SPDX-License-Identifier: Zlib */
/* test_ds_direct.c - the DS driver reads the video hardware straight from
 * DeSmuME's memory (console/ds/ds_direct.h) and gives what the savestate
 * gives.
 *
 * A 2D ROM made here (engine A sprites changed every 8 frames, no 3D):
 * after the first frame every frame is read without the savestate; what
 * is read equals, byte for byte, a savestate taken at the same moment on
 * several frames; its capture is byte for byte the capture with the
 * savestate read every frame (VRAMSIM_DS_READ=savestate). The DS demo ROM
 * (both engines and textured 3D, its polygon lists never empty): its
 * frames read directly too, all but the first; on several frames the frame
 * read, DISP3DCNT, TEXIMAGE_PARAM, PLTT_BASE and the polygons included,
 * equals the savestate's; the same capture through both paths; with the
 * search made to fail (VRAMSIM_DS_READ=miss) the driver says why, falls
 * back to the savestate, and captures the same trace. A 3D ROM made here (a triangle whose texture changes every
 * frame, so that the two lists always differ): a savestate tells which
 * list is the one saved, once or twice; the others are read directly,
 * and on five frames equal the savestate's.
 *
 * Skipped without the DeSmuME core; the demo's case without the demo ROM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "base/compiler_hints.h"
#include "ds_demo_run.h"
#include "ds_test_rom.h"
#include "capture/capture_ds.h"
#include "console/ds/ds_emu.h"
#include "console/ds/ds_state.h"

/* six changes of the sprites; two under AddressSanitizer, where the
 * savestate path's runs are ten times slower (its every frame is an 11 MB
 * savestate: 0.17 s of CPU each) */
#if defined(VS_ASAN)
#define SPRITE_FRAMES 18u
#define LAST_TILE 8u
#else
#define SPRITE_FRAMES 50u
#define LAST_TILE 24u /* 4 * ((frames / 8) % 8) at the 48th line 192 */
#endif
/* set-up, 3D, and engine A's sprite churn (every 4th frame) */
#if defined(VS_ASAN)
#define DEMO_FRAMES 12u
#else
#define DEMO_FRAMES 30u
#endif

/* The 2D program (ARM, assembled with arm-none-eabi-as -mcpu=arm946e-s):
 * bank A to engine A's OBJ, engine A on with OBJ and 1D tiles, every OAM
 * entry hidden; then at each line 192 a frame count, and every 8th frame
 * entry 0 (16x16, 16 colours) on tile 4 * ((frames / 8) % 8), its 128
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
	0xE3150007u, /* tst r5, #7 */
	0x1A000017u, /* bne leave */
	0xE1A061A5u, /* lsr r6, r5, #3 */
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
	0xE3150008u, /* tst r5, #8 */
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

/* The 3D program (assembled likewise): POWCNT1 with both 3D engines on,
 * DISP3DCNT texture mapping on; then at each line 192 one triangle drawn
 * with TEXIMAGE_PARAM (format 2, offset the frame count & 7) and PLTT_BASE
 * (the frame count) of its own, and SWAP_BUFFERS: its two polygon lists
 * differ on every frame. */
static const uint32_t triangle_code[] = {
	0xE59F108Cu, /* start: ldr r1, =0x04000304 */
	0xE59F008Cu, /* ldr r0, =0x020F */
	0xE1C100B0u, /* strh r0, [r1] */
	0xE59F1088u, /* ldr r1, =0x04000060 */
	0xE3A00001u, /* mov r0, #1 */
	0xE1C100B0u, /* strh r0, [r1] */
	0xE3A05000u, /* mov r5, #0 */
	0xE59F307Cu, /* ldr r3, =0x04000006 */
	0xE59F407Cu, /* ldr r4, =0x04000400 */
	0xE1D300B0u, /* frame: ldrh r0, [r3] */
	0xE35000C0u, /* cmp r0, #192 */
	0x1AFFFFFCu, /* bne frame */
	0xE2855001u, /* add r5, r5, #1 */
	0xE59F006Cu, /* ldr r0, =0x001F00C0 */
	0xE58400A4u, /* str r0, [r4, #0xA4] */
	0xE2050007u, /* and r0, r5, #7 */
	0xE3800302u, /* orr r0, r0, #0x08000000 */
	0xE58400A8u, /* str r0, [r4, #0xA8] */
	0xE58450ACu, /* str r5, [r4, #0xAC] */
	0xE3A00000u, /* mov r0, #0 */
	0xE5840100u, /* str r0, [r4, #0x100] */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE3A00B02u, /* mov r0, #0x800 */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE3A00000u, /* mov r0, #0 */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE3A00302u, /* mov r0, #0x08000000 */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE3A00000u, /* mov r0, #0 */
	0xE584008Cu, /* str r0, [r4, #0x8C] */
	0xE5840104u, /* str r0, [r4, #0x104] */
	0xE5840140u, /* str r0, [r4, #0x140] */
	0xE1D300B0u, /* leave: ldrh r0, [r3] */
	0xE35000C0u, /* cmp r0, #192 */
	0x0AFFFFFCu, /* beq leave */
	0xEAFFFFE3u, /* b frame */
	0x04000304u, 0x0000020Fu, 0x04000060u, 0x04000006u, 0x04000400u, 0x001F00C0u, /* the literals */
};

static char err[1024];
static uint32_t last_polys; /* of the last frame capture() read */

/* The frame just read equals the one a savestate taken now gives: every
 * field capture reads, the 3D ones included. */
static void same_as_savestate(vs_ds_emu *e, uint32_t frame)
{
	static vs_ds_frame want;
	const vs_ds_frame *got = vs_ds_emu_frame(e);
	vs_ds_state st;
	const uint8_t *buf;
	size_t len;
	uint32_t i;

	buf = vs_ds_emu_savestate(e, &len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(vs_ds_state_parse(buf, len, &want, &st, err, sizeof err), 0);
	ck_assert_msg(memcmp(got->vramcnt, want.vramcnt, sizeof want.vramcnt) == 0, "frame %u: VRAMCNT", frame);
	ck_assert_msg(memcmp(got->dispcnt, want.dispcnt, sizeof want.dispcnt) == 0, "frame %u: DISPCNT", frame);
	ck_assert_msg(memcmp(got->bgcnt, want.bgcnt, sizeof want.bgcnt) == 0, "frame %u: BGCNT", frame);
	ck_assert_uint_eq(got->powcnt1, want.powcnt1);
	ck_assert_uint_eq(got->disp3dcnt, want.disp3dcnt);
	ck_assert_uint_eq(got->teximage_param, want.teximage_param);
	ck_assert_uint_eq(got->pltt_base, want.pltt_base);
	ck_assert_uint_eq(got->keys, want.keys);
	ck_assert_uint_eq(got->vcount, want.vcount);
	ck_assert_msg(memcmp(got->oam, want.oam, sizeof want.oam) == 0, "frame %u: OAM", frame);
	ck_assert_msg(memcmp(got->palette, want.palette, sizeof want.palette) == 0, "frame %u: palettes", frame);
	ck_assert_msg(memcmp(got->lcdc, want.lcdc, sizeof want.lcdc) == 0, "frame %u: VRAM", frame);
	ck_assert_uint_eq(got->polys_total, want.polys_total);
	ck_assert_uint_eq(got->polys_n, want.polys_n);
	for (i = 0; i < want.polys_n; i++) {
		ck_assert_uint_eq(got->polys[i].vertices, want.polys[i].vertices);
		ck_assert_uint_eq(got->polys[i].poly_attr, want.polys[i].poly_attr);
		ck_assert_uint_eq(got->polys[i].tex_param, want.polys[i].tex_param);
		ck_assert_uint_eq(got->polys[i].tex_palette, want.polys[i].tex_palette);
	}
}

static const char *sprite_rom(void)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *path = vs_test_path("vssprites.nds");

	ds_test_rom_make(rom, "vssprites", sprite_code, sizeof sprite_code / sizeof sprite_code[0], NULL);
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	return path;
}

/* A run of the ROM's first frames with VRAMSIM_DS_READ set to mode
 * (NULL: unset), each frame fed to DS capture as `vramsim capture` feeds
 * it; with `check`, what is read directly is compared with a savestate on
 * the frames it names (a list ended by 0: frame numbers + 1). The trace
 * (free it), the frames read each way in *n, the driver's note in note,
 * and of the last frame VRAMCNT_A and OAM entry 0's tile in last. */
static char *capture(const char *rom, uint32_t frames, const char *mode, const uint32_t *check,
	vs_ds_read_counts *n, char *note, size_t notelen, uint8_t last[2])
{
	vs_ds_capture *c;
	vs_emu_play play;
	vs_ds_emu *e;
	FILE *out = tmpfile();
	uint32_t i, k;
	char *text;

	ck_assert_ptr_nonnull(out);
	if (mode)
		setenv("VRAMSIM_DS_READ", mode, 1);
	else
		unsetenv("VRAMSIM_DS_READ");
	memset(&play, 0, sizeof play);
	play.frames = frames;
	e = vs_ds_play_open(rom, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	c = vs_ds_capture_new(NULL, out, "test_ds_direct", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	for (i = 0; i < frames; i++) {
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		ck_assert_int_eq(vs_ds_capture_frame(c, vs_ds_emu_frame(e)), 0);
		for (k = 0; check && check[k]; k++)
			if (check[k] == i + 1) {
				same_as_savestate(e, i);
				ck_assert_msg(vs_ds_emu_direct_check(e, err, sizeof err) == 0, "frame %u: %s", i, err);
			}
	}
	unsetenv("VRAMSIM_DS_READ");
	ck_assert_int_eq(vs_ds_capture_finish(c), 0);
	vs_ds_capture_free(c);
	*n = vs_ds_emu_counts(e);
	snprintf(note, notelen, "%s", vs_ds_emu_read_note(e) ? vs_ds_emu_read_note(e) : "");
	last_polys = vs_ds_emu_frame(e)->polys_n;
	last[0] = vs_ds_emu_frame(e)->vramcnt[0];
	last[1] = vs_ds_emu_frame(e)->oam[4];
	vs_ds_emu_close(e);
	rewind(out);
	text = vs_test_slurp_stream(out, NULL);
	fclose(out);
	ck_assert_ptr_nonnull(text);
	return text;
}

/* Before and after changes, and between them (frame numbers + 1). */
static const uint32_t sprite_checks[] = { 2, 9, 10, 13, SPRITE_FRAMES, 0 };

START_TEST(test_sprites)
{
	const char *rom = sprite_rom();
	vs_ds_read_counts n;
	char note[300], *direct, *state;
	uint8_t last[2];

	direct = capture(rom, SPRITE_FRAMES, NULL, sprite_checks, &n, note, sizeof note, last);
	ck_assert_msg(note[0] == '\0', "%s", note);
	/* what capture read of the last frame: bank A, entry 0 on its tile */
	ck_assert_uint_eq(last[0], 0x82);
	ck_assert_uint_eq(last[1], LAST_TILE);
	ck_assert_uint_eq(n.state, 1); /* the first frame's, which the search starts from */
	ck_assert_uint_eq(n.direct, SPRITE_FRAMES - 1);
	/* the sprites are in it: allocations on engine A's OBJ, and frees */
	ck_assert_ptr_nonnull(strstr(direct, "\nalloc "));
	ck_assert_ptr_nonnull(strstr(direct, "\nfree "));
	state = capture(rom, SPRITE_FRAMES, "savestate", NULL, &n, note, sizeof note, last);
	ck_assert_uint_eq(n.state, SPRITE_FRAMES);
	ck_assert_str_eq(direct, state);
	/* the search made to fail is the demo's case (test_demo): both ROMs
	 * need the same toolchain, and the fallback does not depend on them */
	free(direct);
	free(state);
	unlink(rom);
}
END_TEST

/* A triangle whose texture changes every frame: both lists hold one,
 * different, on every frame; a savestate tells which is the one saved
 * once or twice, the frames after are read directly, and equal the
 * savestate's. */
START_TEST(test_triangle)
{
	static const uint32_t checks[] = { 2, 3, 4, 10, 30, 0 };
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *path = vs_test_path("vstriangle.nds");
	vs_ds_read_counts n;
	char note[300], *direct;
	uint8_t last[2];

	ds_test_rom_make(rom, "vstriangle", triangle_code, sizeof triangle_code / sizeof triangle_code[0], NULL);
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	direct = capture(path, 30, NULL, checks, &n, note, sizeof note, last);
	ck_assert_msg(note[0] == '\0', "%s", note);
	ck_assert_uint_eq(last_polys, 1);
	ck_assert_uint_ge(n.state, 2);
	ck_assert_uint_le(n.state, 3);
	ck_assert_uint_eq(n.direct, 30 - n.state);
	free(direct);
	unlink(path);
}
END_TEST

START_TEST(test_demo)
{
	static const uint32_t checks[] = { 1, 4, 8, 9, DEMO_FRAMES, 0 };
	vs_ds_read_counts n;
	char note[300], *direct, *state, *miss;
	uint8_t last[2];

	direct = capture(DS_DEMO_ROM, DEMO_FRAMES, NULL, checks, &n, note, sizeof note, last);
	ck_assert_uint_eq(last[0], DS_DEMO_VRAMCNT_A);
	/* found; its lists hold the demo's quads on every frame, read directly
	 * but for the first (the search's) and, should the two lists differ,
	 * at most two that tell which one the savestate saves */
	ck_assert_msg(note[0] == '\0', "%s", note);
	ck_assert_uint_ge(n.state, 1);
	ck_assert_uint_le(n.state, 3);
	ck_assert_uint_eq(n.direct, DEMO_FRAMES - n.state);
	/* textures: the 3D fields were read and used */
	ck_assert_ptr_nonnull(strstr(direct, "\nalloc "));
	ck_assert_ptr_nonnull(strstr(direct, "ds-tex"));
	state = capture(DS_DEMO_ROM, DEMO_FRAMES, "savestate", NULL, &n, note, sizeof note, last);
	ck_assert_uint_eq(n.state, DEMO_FRAMES);
	ck_assert_str_eq(direct, state);
	miss = capture(DS_DEMO_ROM, DEMO_FRAMES, "miss", NULL, &n, note, sizeof note, last);
	ck_assert_msg(strstr(note, "MMU struct not found") != NULL, "%s", note);
	ck_assert_uint_eq(n.direct, 0);
	ck_assert_str_eq(miss, state);
	free(direct);
	free(state);
	free(miss);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_direct");
	TCase *tc = tcase_create("direct");

	tcase_add_test(tc, test_sprites);
	tcase_add_test(tc, test_triangle);
	suite_add_tcase(s, tc);
	tc = vs_test_tcase_apart(s, "demo", access(DS_DEMO_ROM, R_OK) == 0 ? NULL :
		"the DS demo ROM (" DS_DEMO_ROM "; built with arm-none-eabi-gcc)");
	tcase_add_test(tc, test_demo);
	return s;
}

int main(void)
{
	ds_test_require_core();
	return vs_test_main(suite());
}
