/* SPDX-License-Identifier: Zlib */
/* test_play_ds.c - a play session of a DS game (play/play.h on DeSmuME).
 *
 *  - the DS demo ROM played with keys (x and y among them) and the stylus
 *    given frame by frame: the trace the session writes is the one
 *    `capture --input` of the input it writes gives, byte for byte
 *    (vs_ds_emu_capture, which the command runs), and so is the session
 *    written half way while it went on (the write key);
 *  - a savestate saved in the session (DeSmuME's) starts another where it
 *    was, and `capture --state` of it agrees; that one plays an input
 *    script of keys and the stylus until the player takes over;
 *  - a program that stops mid-session: the session says at which frame,
 *    and the trace and input up to it replay as above;
 *  - `vramsim play GAME.nds` in its window, headless (SDL's dummy driver),
 *    with a script of keys and the mouse held and dragged on the touch
 *    screen: the trace and keys it writes on exit, `vramsim capture
 *    --input` of them gives the same trace; the savestate key; what it
 *    refuses (GBA-only options, no emulator core) with exit 2.
 * Frames are few: the emulator reads an 11 MB savestate each frame, and
 * the sanitizer tree runs this too.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"
#include "console/common/input_script.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"
#include "ds_demo_run.h"
#include "ds_test_rom.h"
#include "play/play.h"
#include "play_session.h"

#define ROM DS_DEMO_ROM
#define PLAY_MODULE VS_BINARY_DIR "/vramsim-play.so"

/* What the player gives on frame i: keys, x and y, and the stylus held
 * then dragged, keys held with it and after it; each over as few frames
 * as show it (a frame is 20 ms of CPU in the sanitizer tree, and each
 * session is captured again). */
static vs_play_input demo_input(uint32_t i)
{
	vs_play_input in = { 0, 0, 0, 0 };

	if (i >= 1 && i < 3)
		in.keys = VS_KEY_X;
	if (i >= 3 && i < 9) {
		in.touch = 1;
		in.x = (uint8_t)(40 + 4 * (i - 3));
		in.y = (uint8_t)(150 - (i - 3));
	}
	if (i >= 5 && i < 7)
		in.keys |= VS_KEY_A | VS_KEY_RIGHT;
	if (i >= 9 && i < 11)
		in.keys = VS_KEY_Y | VS_KEY_L;
	return in;
}

static vs_play *open_session_input(const char *rom, const char *state, const vs_input_script *input)
{
	return play_session(rom, state, input, 0);
}

static vs_play *open_session(const char *rom, const char *state)
{
	return play_session(rom, state, NULL, 0);
}

/* The savestate saved in the session starts a second session, which an
 * input script of keys and the stylus plays until the player takes over. */
static void play_from_savestate(const char *state)
{
	const char *trace = vs_test_path("state.trace"), *keys = vs_test_path("state.keys");
	const char *input = vs_test_file(0, "play-ds.input", "1-2 x touch 200,10\n3-5 b\n");
	vs_input_script script = { NULL, 0 };
	vs_play *p;
	vs_play_input in;
	char err[1024], *t;
	uint32_t i;

	ck_assert_msg(vs_input_script_load(input, &script, err, sizeof err) == 0, "%s", err);
	p = open_session_input(ROM, state, &script);
	for (i = 0; i < 7; i++) {
		/* the player's input is unheard until taking over at 4 */
		if (i == 4)
			vs_play_take_over(p);
		in = demo_input(i + 1);
		ck_assert_int_eq(vs_play_frame(p, &in, err, sizeof err), 0);
	}
	play_finish(p, trace, keys);
	vs_play_close(p);
	vs_input_script_free(&script);
	t = vs_test_slurp(keys);
	ck_assert_msg(strstr(t, "\n1-2 x touch 200,10\n3 b\n4 a right touch 48,148\n5 a right touch 52,147\n"
		"6 touch 56,146\n") != NULL, "%s", t);
	free(t);
	play_same_as_capture(ROM, trace, keys, state, 7);
	t = vs_test_slurp(trace);
	ck_assert_msg(strstr(t, "# capture: frames=7 input=") && strstr(t, "play.dst\n"), "%.400s", t);
	free(t);
}

/* A session, its trace written half way and at the end, each the capture
 * of its keys; a savestate saved in it (none before a frame ran) starts
 * another (one session for both: each DeSmuME opened costs 1 s of CPU in
 * the sanitizer tree). */
START_TEST(test_session_is_a_capture)
{
	const char *trace = vs_test_path("ds.trace"), *keys = vs_test_path("ds.keys");
	const char *mid = vs_test_path("ds-mid.trace"), *mid_keys = vs_test_path("ds-mid.keys");
	const char *state = vs_test_path("play.dst");
	vs_play *p = open_session(ROM, NULL);
	vs_play_input in, next;
	unsigned w = 0, h = 0;
	char err[1024], *k;
	uint32_t i;

	ck_assert_str_eq(vs_play_console_name(p), "DS");
	ck_assert(vs_play_has_touch(p));
	ck_assert(vs_play_fps(p) > 59.82 && vs_play_fps(p) < 59.83);
	/* no savestate before a frame ran */
	ck_assert_int_eq(vs_play_save_state(p, state, err, sizeof err), -1);
	ck_assert(!vs_test_exists(state));
	for (i = 0; i < 12; i++) {
		if (i == 4)
			ck_assert_msg(vs_play_save_state(p, state, err, sizeof err) == 0, "%s", err);
		if (i == 6)
			ck_assert_msg(vs_play_write(p, mid, mid_keys, err, sizeof err) == 0, "%s", err);
		in = demo_input(i);
		next = vs_play_next_input(p, &in);
		ck_assert(next.keys == in.keys && next.touch == in.touch && next.x == in.x && next.y == in.y);
		ck_assert_msg(vs_play_frame(p, &in, err, sizeof err) == 0, "frame %u: %s", i, err);
	}
	ck_assert(vs_play_live_ready(p));
	/* both screens, the top one above; the demo shows something */
	ck_assert_ptr_nonnull(vs_play_screen(p, &w, &h));
	ck_assert_uint_eq(w, 256);
	ck_assert_uint_eq(h, 384);
	ck_assert_ptr_null(vs_play_fault(p));
	play_finish(p, trace, keys);
	vs_play_close(p);
	k = vs_test_slurp(keys);
	ck_assert_msg(strstr(k, "\n1-2 x\n3 touch 40,150\n4 touch 44,149\n") && strstr(k, "\n5 a right touch 48,148\n")
		&& strstr(k, "\n9-10 l y\n"), "%s", k);
	free(k);
	play_same_as_capture(ROM, trace, keys, NULL, 12);
	play_same_as_capture(ROM, mid, mid_keys, NULL, 6);
	play_from_savestate(state);
}
END_TEST


/* Counts down a while (a few frames: 1M loops, about 4M cycles; each
 * frame played is played again by the capture), then runs an undefined
 * instruction: DeSmuME stops the machine. */
static const char *stopping_rom(void)
{
	static const uint32_t code[] = { 0xE3A00601u /* mov r0, #0x100000 */, ARM_SUBS_R0_1, ARM_BNE_BACK1, ARM_UDF };
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *path = vs_test_path("stops.nds");

	ds_test_rom_make(rom, "VSSTOP", code, 4, NULL);
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	return path;
}

START_TEST(test_stop_keeps_the_session)
{
	const char *rom = stopping_rom(), *trace = vs_test_path("stop.trace"), *keys = vs_test_path("stop.keys");
	vs_play *p = open_session(rom, NULL);
	vs_play_input in = { VS_KEY_B, 1, 10, 20 };
	char err[1024];
	uint32_t i, frames;
	int rc = 0;

	for (i = 0; i < 120 && rc == 0; i++)
		rc = vs_play_frame(p, &in, err, sizeof err);
	ck_assert_int_eq(rc, 1);
	ck_assert_uint_gt(vs_play_frames(p), 0);
	ck_assert_uint_eq(vs_play_frames(p), i - 1);
	ck_assert_msg(strstr(vs_play_fault(p), "the program stopped") != NULL, "%s", vs_play_fault(p));
	/* nothing more runs */
	ck_assert_int_eq(vs_play_frame(p, &in, err, sizeof err), 1);
	play_finish(p, trace, keys);
	frames = vs_play_frames(p);
	vs_play_close(p);
	play_same_as_capture(rom, trace, keys, NULL, frames);
}
END_TEST

/* ---- the command, in its window -------------------------------------------- */

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

static char out[16384], err[16384];

/* How many files in dir are named demo-N.dst, N a frame. */
static int one_dst(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned frame;
	char end[8];
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		n += sscanf(de->d_name, "demo-%u.%7s", &frame, end) == 2 && strcmp(end, "dst") == 0;
	closedir(d);
	return n;
}

START_TEST(test_window_session)
{
	const char *trace = vs_test_path("window.trace"), *keys = vs_test_path("window.keys");
	const char *states = vs_test_path("states");
	const char *script = vs_test_file(0, "play-ds.script", "wait 8\nkeydown d\nwait 3\nkeyup d\n"
		"mousedown game 30 250\nwait 4\nmove game 60 270\nwait 4\nmouseup game 90 290\n"
		"key c\nmousedown game 10 10\nkey F5\nwait 4\nmouseup game 10 10\nexpect title demo.nds\nquit\n");
	char *k;

	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_int_eq(mkdir(states, 0700), 0);
	ck_assert_msg(cli("play '%s' --script '%s' -o '%s' --keys-out '%s' --states '%s' --log /dev/null --scale 1",
		ROM, script, trace, keys, states) == 0, "%s", err);
	k = vs_test_slurp(keys);
	/* the stylus where the mouse went down on the lower screen, then
	 * dragged; a press on the upper screen is not a touch */
	ck_assert_msg(strstr(k, " x\n") && strstr(k, " touch 30,58\n") && strstr(k, " touch 60,78\n") &&
		strstr(k, " y\n") && !strstr(k, "touch 10,"), "%s", k);
	free(k);
	play_recaptured(ROM, trace, keys);
	/* F5: a DeSmuME savestate named after the frame */
	ck_assert_int_eq(one_dst(states), 1);
}
END_TEST

START_TEST(test_window_refusals)
{
	const char *trace = vs_test_path("refused.trace");

	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_int_eq(cli("play '%s' --script /dev/null --sheet -o '%s'", ROM, trace), 2);
	ck_assert_msg(strstr(err, "--sheet is for a GBA ROM") != NULL, "%s", err);
	ck_assert_int_eq(cli("play '%s' --script /dev/null --arenas obj", ROM), 2);
	ck_assert_msg(strstr(err, "--arenas is for a GBA ROM") != NULL, "%s", err);
	/* no emulator core: named, nothing written */
	setenv("VRAMSIM_DESMUME_CORE", "/nonexistent/desmume_libretro.so", 1);
	ck_assert_int_eq(cli("play '%s' --script /dev/null -o '%s'", ROM, trace), 2);
	unsetenv("VRAMSIM_DESMUME_CORE");
	ck_assert_msg(strstr(err, "install the Debian package libretro-desmume") != NULL, "%s", err);
	ck_assert(!vs_test_exists(trace));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("play_ds");
	TCase *tc = tcase_create("session");
	char why[512];

	snprintf(why, sizeof why, "no DeSmuME libretro core at %s (install libretro-desmume)", vs_ds_core_path());
	ds_demo_sanitizer_env();
	vs_test_require(!vs_test_exists(ROM) ? ROM " was not built (install gcc-arm-none-eabi and rebuild)"
		: !vs_test_exists(vs_ds_core_path()) ? why : NULL);
	tcase_add_test(tc, test_session_is_a_capture);
	tcase_add_test(tc, test_stop_keeps_the_session);
	suite_add_tcase(s, tc);
	tc = vs_test_tcase_apart(s, "window", NULL);
	tcase_add_test(tc, test_window_session);
	tcase_add_test(tc, test_window_refusals);
	return vs_test_main(s);
}
