/* SPDX-License-Identifier: Zlib */
/* test_play.c - a play session (play/play.h) kept as a capture.
 *
 *  - the demo ROM played for a few hundred frames with keys given frame by
 *    frame: the trace the session writes is the one `capture --input` of
 *    the keys it writes gives, byte for byte (vs_gba_capture, which the
 *    command runs), and a timeline following the live trace as it grew
 *    recorded the same events as one reading the written trace; the same
 *    for the session written half way while it went on (the write key);
 *  - an input script plays until the player takes over: the keys written
 *    are the script's up to there and the player's after;
 *  - a ROM that crashes mid-session: the session says at which frame, and
 *    the trace and keys up to it are written whole and replay as above;
 *  - a savestate saved in the session starts another where it was;
 *  - sound kept, a frame's samples each frame, leaves the trace as it is;
 *  - `vramsim play` in its window, headless (SDL's dummy driver) with a
 *    script of keys: the trace and keys it writes on exit, and `vramsim
 *    capture --input` of those keys writes the same trace; an input script
 *    played back and taken over in the window; what it refuses (no
 *    display, a bad key map) with exit 2. The DS: test_play_ds.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "capture/capture.h"
#include "console/common/input_script.h"
#include "console/gba/gba_emu.h"
#include "play/play.h"
#include "play_session.h"
#include "viewer/timeline.h"

#define DEMO_ROM vs_test_rom("demo.gba")
#define FRAMES 300u

/* What the player holds on frame i of the demo: through the title screen,
 * then walking and jumping. */
static uint16_t demo_keys(uint32_t i)
{
	if (i >= 40 && i < 44)
		return VS_KEY_START;
	if (i >= 90 && i < 180)
		return VS_KEY_RIGHT | (i >= 120 && i < 126 ? VS_KEY_A : 0);
	if (i >= 200 && i < 260)
		return VS_KEY_LEFT;
	return 0;
}

/* The player's input of keys alone. */
static const vs_play_input *keys_in(uint16_t keys)
{
	static vs_play_input in;

	in.keys = keys;
	in.touch = in.x = in.y = 0;
	return &in;
}

static vs_play *open_session(const char *rom, const char *state, const vs_input_script *input)
{
	return play_session(rom, state, input, 0);
}

static void no_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* A timeline of trace with each arena's default strategy, following it or
 * not. */
static vs_timeline *timeline_of(const char *trace, int follow)
{
	vs_replay_config cfg;
	vs_timeline *h;
	char err[1024];

	vs_replay_config_default(&cfg);
	cfg.message = no_message;
	h = vs_timeline_open(trace, 1, &cfg, err, sizeof err);
	ck_assert_msg(h != NULL, "%s", err);
	vs_timeline_follow(h, follow);
	return h;
}

START_TEST(test_session_is_a_capture)
{
	const char *trace = vs_test_path("play.trace"), *keys = vs_test_path("play.keys");
	const char *mid = vs_test_path("mid.trace"), *mid_keys = vs_test_path("mid.keys");
	vs_play *p = open_session(DEMO_ROM, NULL, NULL);
	vs_timeline *live = NULL, *whole;
	uint64_t seen = 0;
	char err[1024];
	uint32_t i;
	int rc;

	for (i = 0; i < FRAMES; i++) {
		/* written half way (the write key) while the session goes on */
		if (i == FRAMES / 2)
			ck_assert_msg(vs_play_write(p, mid, mid_keys, err, sizeof err) == 0, "%s", err);
		ck_assert_uint_eq(vs_play_next_input(p, keys_in(demo_keys(i))).keys, demo_keys(i));
		ck_assert_msg(vs_play_frame(p, keys_in(demo_keys(i)), err, sizeof err) == 0, "frame %u: %s", i, err);
		if (!live && vs_play_live_ready(p))
			live = timeline_of(vs_play_live_path(p), 1);
		if (live) {
			/* what is written so far is recorded, and more comes */
			while ((rc = vs_timeline_record(live, 256)) == 1)
				;
			ck_assert_msg(rc == 2, "frame %u: record gave %d: %s", i, rc,
				vs_timeline_error(live, 0) ? vs_timeline_error(live, 0) : "no error");
			ck_assert_uint_ge(vs_timeline_recorded(live), seen);
			seen = vs_timeline_recorded(live);
		}
	}
	ck_assert_ptr_nonnull(live);
	ck_assert_uint_gt(seen, 100);
	ck_assert_uint_eq(vs_play_frames(p), FRAMES);
	ck_assert_ptr_null(vs_play_fault(p));
	play_finish(p, trace, keys);
	/* the end of the live trace: the frames capture still held */
	vs_timeline_follow(live, 0);
	while ((rc = vs_timeline_record(live, 4096)) == 1)
		;
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_gt(vs_timeline_recorded(live), seen);
	vs_play_close(p);
	whole = timeline_of(trace, 0);
	while ((rc = vs_timeline_record(whole, 4096)) == 1)
		;
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(vs_timeline_recorded(whole), vs_timeline_recorded(live));
	ck_assert_uint_eq(vs_timeline_frame_count(whole), FRAMES);
	for (i = 1; i <= vs_timeline_recorded(whole); i++)
		HOT_CMP(vs_timeline_event(whole, i)->type, ==, vs_timeline_event(live, i)->type);
	vs_timeline_free(live);
	vs_timeline_free(whole);
	play_same_as_capture(DEMO_ROM, trace, keys, NULL, FRAMES);
	play_same_as_capture(DEMO_ROM, mid, mid_keys, NULL, FRAMES / 2);
	{
		char *k = vs_test_slurp(keys);
		ck_assert_ptr_nonnull(strstr(k, "\n40-43 start\n90-119 right\n120-125 a right\n126-179 right\n200-259 left\n"));
		free(k);
	}
}
END_TEST

/* Sound kept: 48,000 samples a second come out, a frame's worth each
 * frame, and the trace is the same as without. */
START_TEST(test_audio)
{
	static int16_t buf[2 * 4096];
	const char *trace = vs_test_path("audio.trace"), *keys = vs_test_path("audio.keys");
	vs_play *p = play_session(DEMO_ROM, NULL, NULL, 48000);
	char err[1024];
	size_t total = 0, n;
	uint32_t i;

	for (i = 0; i < 120; i++) {
		ck_assert_int_eq(vs_play_frame(p, keys_in(demo_keys(i)), err, sizeof err), 0);
		n = vs_play_audio(p, buf, 4096);
		/* the first frame's sound starts with the machine, part way */
		HOT_ASSERT(i == 0 ? n > 0 && n < 900 : n >= 795 && n <= 815, "frame %u: %zu samples", i, n);
		total += i ? n : 0;
	}
	/* 48,000 a second at the console's 59.7275 frames: 803.65 a frame */
	ck_assert_uint_ge(total, 119 * 800);
	ck_assert_uint_le(total, 119 * 807);
	play_finish(p, trace, keys);
	vs_play_close(p);
	play_same_as_capture(DEMO_ROM, trace, keys, NULL, 120);
	/* without sound asked for, none */
	p = open_session(DEMO_ROM, NULL, NULL);
	ck_assert_int_eq(vs_play_frame(p, keys_in(0), err, sizeof err), 0);
	ck_assert_uint_eq(vs_play_audio(p, buf, 4096), 0);
	vs_play_close(p);
}
END_TEST

START_TEST(test_take_over)
{
	const char *script_path = vs_test_file(0, "play-take-over.input", "10-30 right\n50-60 a\n");
	const char *trace = vs_test_path("over.trace"), *keys = vs_test_path("over.keys");
	vs_input_script script = { NULL, 0 };
	vs_play *p;
	char err[1024], *k;
	uint32_t i;

	ck_assert_msg(vs_input_script_load(script_path, &script, err, sizeof err) == 0, "%s", err);
	p = open_session(DEMO_ROM, NULL, &script);
	for (i = 0; i < 80; i++) {
		/* the player holds B all along, unheard until taking over at 55 */
		if (i == 55)
			vs_play_take_over(p);
		ck_assert_int_eq(vs_play_scripted(p), i < 55);
		ck_assert_int_eq(vs_play_frame(p, keys_in(VS_KEY_B), err, sizeof err), 0);
	}
	play_finish(p, trace, keys);
	vs_play_close(p);
	k = vs_test_slurp(keys);
	ck_assert_ptr_nonnull(strstr(k, "\n10-30 right\n50-54 a\n55-79 b\n"));
	free(k);
	play_same_as_capture(DEMO_ROM, trace, keys, NULL, 80);
	vs_input_script_free(&script);
}
END_TEST

/* Shows a frame, waits for A, then jumps outside memory. */
static const char *crashing_rom(void)
{
	static const uint32_t code[] = {
		0xE3A00301u, /* mov r0, #0x04000000 */
		0xE3A01000u, /* mov r1, #0 */
		0xE1C010B0u, /* strh r1, [r0]: DISPCNT 0, shown */
		0xE2803E13u, /* add r3, r0, #0x130: KEYINPUT */
		0xE1D320B0u, /* loop: ldrh r2, [r3] */
		0xE3120001u, /* tst r2, #1: A up */
		0x1AFFFFFCu, /* bne loop */
		0xE3A0040Fu, /* mov r0, #0x0F000000 */
		0xE12FFF10u, /* bx r0 */
	};
	static unsigned char rom[0x200];
	const char *path = vs_test_path("crash.gba");
	FILE *fp;
	size_t i;

	memset(rom, 0, sizeof rom);
	rom[0] = 0x2E, rom[3] = 0xEA; /* b 0xC0 */
	rom[0xB2] = 0x96;
	for (i = 0; i < sizeof code / sizeof code[0]; i++)
		for (int b = 0; b < 4; b++)
			rom[0xC0 + 4 * i + (size_t)b] = (unsigned char)(code[i] >> (8 * b));
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(rom, 1, sizeof rom, fp), sizeof rom);
	fclose(fp);
	return path;
}

START_TEST(test_crash_keeps_the_session)
{
	const char *rom = crashing_rom(), *trace = vs_test_path("crash.trace"), *keys = vs_test_path("crash.keys");
	vs_play *p = open_session(rom, NULL, NULL);
	char err[1024];
	uint32_t i;

	for (i = 0; i < 20; i++)
		ck_assert_int_eq(vs_play_frame(p, keys_in(0), err, sizeof err), 0);
	ck_assert_int_eq(vs_play_frame(p, keys_in(VS_KEY_A), err, sizeof err), 1);
	ck_assert_ptr_nonnull(vs_play_fault(p));
	ck_assert_msg(strstr(vs_play_fault(p), "frame 20: the program crashed") != NULL, "%s", vs_play_fault(p));
	/* nothing more runs */
	ck_assert_int_eq(vs_play_frame(p, keys_in(0), err, sizeof err), 1);
	ck_assert_uint_eq(vs_play_frames(p), 20);
	play_finish(p, trace, keys);
	vs_play_close(p);
	play_same_as_capture(rom, trace, keys, NULL, 20);
}
END_TEST

START_TEST(test_savestate)
{
	const char *state = vs_test_path("play.ss"), *trace = vs_test_path("state.trace");
	const char *keys = vs_test_path("state.keys");
	vs_play *p = open_session(DEMO_ROM, NULL, NULL);
	char err[1024];
	uint32_t i;

	for (i = 0; i < 60; i++)
		ck_assert_int_eq(vs_play_frame(p, keys_in(demo_keys(i)), err, sizeof err), 0);
	ck_assert_msg(vs_play_save_state(p, state, err, sizeof err) == 0, "%s", err);
	vs_play_close(p);
	p = open_session(DEMO_ROM, state, NULL);
	for (i = 0; i < 60; i++)
		ck_assert_int_eq(vs_play_frame(p, keys_in(demo_keys(i + 60)), err, sizeof err), 0);
	play_finish(p, trace, keys);
	vs_play_close(p);
	play_same_as_capture(DEMO_ROM, trace, keys, state, 60);
	{
		char *t = vs_test_slurp(trace);
		ck_assert_ptr_nonnull(strstr(t, "# capture: frames=60 input=1 ranges state=" ));
		free(t);
	}
	/* a savestate path that cannot be written says so */
	p = open_session(DEMO_ROM, NULL, NULL);
	ck_assert_int_eq(vs_play_save_state(p, "/nonexistent-dir/x.ss", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.ss"));
	vs_play_close(p);
}
END_TEST

/* ---- the command, in its window -------------------------------------------- */

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

static char out[16384], err[16384];

START_TEST(test_window_session)
{
	const char *trace = vs_test_path("window.trace"), *keys = vs_test_path("window.keys");
	const char *shot = vs_test_path("window.png"), *log = vs_test_path("window.log"), *script;
	char *k, *logged, sc[1024];

	snprintf(sc, sizeof sc, "wait 20\nkeydown Return\nwait 3\nkeyup Return\nwait 30\nkeydown Right\nwait 40\n"
		"key x\nwait 30\nkeyup Right\nkey space\nexpect title demo.gba\nkey .\nkey .\nscreenshot %s\n"
		"key space\nkeydown Left\nwait 20\nkeyup Left\nquit\n", shot);
	script = vs_test_file(1, "play-window.script", sc);
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_msg(cli("play '%s' -s gba-obj-compact --script '%s' -o '%s' --keys-out '%s' --log '%s'", DEMO_ROM,
		script, trace, keys, log) == 0, "%s", err);
	ck_assert(vs_test_exists(shot));
	k = vs_test_slurp(keys);
	/* the keys at the frames the script pressed them, the two steps paused */
	ck_assert_ptr_nonnull(strstr(k, " start\n"));
	ck_assert_ptr_nonnull(strstr(k, " a right\n"));
	ck_assert_ptr_nonnull(strstr(k, " left\n"));
	free(k);
	logged = vs_test_slurp(log);
	ck_assert_ptr_nonnull(strstr(logged, "game frames in"));
	free(logged);
	play_recaptured(DEMO_ROM, trace, keys);
}
END_TEST

/* A ROM's name goes into the keys file's first comment: escaped, so a
 * newline in it cannot end the comment and start a line of keys that
 * capture --input would press. */
START_TEST(test_window_rom_name_in_keys)
{
	const char *rom = vs_test_path("odd\n0-99 start\n.gba"), *keys = vs_test_path("odd.keys");
	const char *script = vs_test_file(1, "play-odd.script", "wait 10\nquit\n");
	char cmd[4096], *k;

	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", DEMO_ROM, rom);
	ck_assert_int_eq(system(cmd), 0);
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_msg(cli("play '%s' --script '%s' -o '%s' --keys-out '%s' --log /dev/null", rom, script,
		vs_test_path("odd.trace"), keys) == 0, "%s", err);
	k = vs_test_slurp(keys);
	ck_assert_ptr_nonnull(k);
	ck_assert_msg(vs_test_count_lines(k, "0-99") == 0 && strstr(k, "odd\\x0a0-99 start\\x0a.gba"), "%s", k);
	free(k);
}
END_TEST

START_TEST(test_window_input_take_over)
{
	const char *input = vs_test_file(0, "play-window.input", "60-63 start\n100-300 right\n");
	const char *script = vs_test_file(1, "play-take.script", "wait 150\nkeydown z\nwait 10\nkeyup z\nkey F6\nwait 10\n"
		"quit\n");
	const char *trace = vs_test_path("take.trace"), *keys = vs_test_path("take.keys");
	char *k;

	setenv("SDL_VIDEODRIVER", "dummy", 1);
	/* with sound, to a device that plays nothing */
	setenv("SDL_AUDIODRIVER", "dummy", 1);
	ck_assert_msg(cli("play '%s' --audio --input '%s' --script '%s' -o '%s' --keys-out '%s' --log /dev/null",
		DEMO_ROM, input, script, trace, keys) == 0, "%s", err);
	k = vs_test_slurp(keys);
	/* the script's keys until b was pressed, then b alone: right stopped */
	ck_assert_ptr_nonnull(strstr(k, "\n60-63 start\n100-"));
	ck_assert_msg(strstr(k, " right\n") && strstr(k, " b\n") && !strstr(k, "300 right"), "%s", k);
	free(k);
	play_recaptured(DEMO_ROM, trace, keys);
}
END_TEST

START_TEST(test_window_refusals)
{
	const char *bad_map = vs_test_file(0, "play-bad.keys", "# mine\na = X\nstart = Nokey\n");
	const char *trace = vs_test_path("refused.trace");

	/* the script would keep a session going for hours: an output that is an
	 * input, or both outputs one file, must be refused before it starts */
	const char *script = vs_test_file(1, "play-long.script", "wait 100000000\nquit\n");
	const char *rom = vs_test_path("play-self.gba"), *keys = vs_test_path("play-self.keys");
	char cmd[4096], again[2048];
	int k;

	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_int_eq(cli("play '%s' --script /dev/null --keymap '%s' -o '%s'", DEMO_ROM, bad_map, trace), 2);
	ck_assert_msg(strstr(err, "play-bad.keys:3:9: error: unknown key 'Nokey'") != NULL, "%s", err);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s' && cp '%s' '%s.kept' && cp '%s' '%s.kept'", DEMO_ROM, rom, rom, rom,
		script, script);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(again, sizeof again, "%.*s/.%s", (int)(strrchr(keys, '/') - keys), keys, strrchr(keys, '/'));
	for (k = 0; k < 3; k++) {
		int rc = k == 0 ? cli("play '%s' --script '%s' -o '%s'", rom, script, rom) :
			k == 1 ? cli("play '%s' --script '%s' --keys-out '%s'", rom, script, script) :
			cli("play '%s' --script '%s' -o '%s' --keys-out '%s'", rom, script, keys, again);
		ck_assert_msg(rc == 2 && strstr(err, k < 2 ? "which this run reads" : "another output of this run"),
			"case %d: exit %d: %s", k, rc, err);
		ck_assert_msg(strstr(out, "game frames") == NULL, "case %d: the session ran: %s", k, out);
	}
	snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s.kept' && cmp -s '%s' '%s.kept'", rom, rom, script, script);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert(!vs_test_exists(keys));
	/* a line of the script that is no command: refused before the session,
	 * nothing written (it ran on to that line, exit 1, both files made) */
	script = vs_test_file(1, "play-typo.script", "wait 5\nwiat 5\nquit\n");
	ck_assert_int_eq(cli("play '%s' --script '%s' -o '%s' --keys-out '%s'", DEMO_ROM, script, trace, keys), 2);
	ck_assert_msg(strstr(err, "play-typo.script:2: cannot read 'wiat 5'") != NULL, "%s", err);
	ck_assert(!vs_test_exists(trace) && !vs_test_exists(keys));
	unsetenv("SDL_VIDEODRIVER");
	unsetenv("DISPLAY");
	setenv("WAYLAND_DISPLAY", "", 1);
	ck_assert_int_eq(cli("play '%s' -o '%s'", DEMO_ROM, trace), 2);
	ck_assert_msg(strstr(err, "vramsim play: no display") != NULL, "%s", err);
	ck_assert(!vs_test_exists(trace));
}
END_TEST

/* Every output of the session (-o, --keys-out, --log, the script's
 * screenshots) is made in one commit: a trace that cannot be written
 * leaves the log as it was, a log that cannot be written the trace and
 * keys, each said once with its file and why (the log was replaced before
 * the trace failed, which was said without its file; a log that failed
 * was followed by an empty "vramsim play: " line and the trace and keys
 * written). A screenshot that cannot be written keeps the session's trace
 * and keys, as docs/play.md says (none of them was written). */
START_TEST(test_window_writes_fail)
{
	const char *trace = vs_test_path("fail.trace"), *keys = vs_test_path("fail.keys");
	const char *log = vs_test_path("fail.log"), *shot = vs_test_path("fail.png"), *script;
	char sc[1024];
	int k;

	setenv("SDL_VIDEODRIVER", "dummy", 1);
	snprintf(sc, sizeof sc, "wait 5\nscreenshot %s\nprint\nquit\n", shot);
	script = vs_test_file(1, "play-fail.script", sc);
	for (k = 0; k < 3; k++) {
		const char *bad = k == 0 ? "-o /dev/full" : k == 1 ? "--log /dev/full" : "--keys-out /dev/full";
		ck_assert_str_eq(vs_test_file(2, "fail.trace", "old\n"), trace);
		ck_assert_str_eq(vs_test_file(3, "fail.keys", "old\n"), keys);
		ck_assert_str_eq(vs_test_file(4, "fail.log", "old\n"), log);
		ck_assert_str_eq(vs_test_file(5, "fail.png", "old\n"), shot);
		ck_assert_int_eq(cli("play '%s' --script '%s' %s %s%s %s%s %s%s -q", DEMO_ROM, script, bad,
			k == 0 ? "" : "-o ", k == 0 ? "" : trace, k == 1 ? "" : "--log ", k == 1 ? "" : log,
			k == 2 ? "" : "--keys-out ", k == 2 ? "" : keys), 2);
		ck_assert_msg(strstr(err, "vramsim play: cannot write /dev/full: No space left on device\n") &&
			vs_test_count(err, "\n") == 1, "case %d: %s", k, err);
		ck_assert_msg(vs_test_holds(trace, "old\n"), "case %d: the trace was replaced", k);
		ck_assert_msg(vs_test_holds(keys, "old\n"), "case %d: the keys were replaced", k);
		ck_assert_msg(vs_test_holds(log, "old\n"), "case %d: the log was replaced", k);
		ck_assert_msg(vs_test_holds(shot, "old\n"), "case %d: the screenshot was replaced", k);
		ck_assert(!vs_test_temporary_left(trace) && !vs_test_temporary_left(keys) &&
			!vs_test_temporary_left(log) && !vs_test_temporary_left(shot));
	}
	/* a screenshot that cannot be written: the session is kept, the log and
	 * the other screenshots are not made */
	snprintf(sc, sizeof sc, "wait 5\nscreenshot %s\nscreenshot /dev/full\nquit\n", shot);
	script = vs_test_file(1, "play-fail.script", sc);
	ck_assert_int_eq(cli("play '%s' --script '%s' -o '%s' --keys-out '%s' --log '%s' -q", DEMO_ROM, script, trace,
		keys, log), 2);
	ck_assert_msg(strstr(err, "play-fail.script:3: screenshot /dev/full: cannot write /dev/full: No space left on "
		"device\n") && vs_test_count(err, "vramsim play:") == 1, "%s", err);
	ck_assert(vs_test_holds(log, "old\n") && vs_test_holds(shot, "old\n"));
	play_recaptured(DEMO_ROM, trace, keys);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("play");
	TCase *tc = tcase_create("session");

	vs_test_require(vs_test_rom_missing("demo.gba", NULL));
	tcase_add_test(tc, test_session_is_a_capture);
	tcase_add_test(tc, test_take_over);
	tcase_add_test(tc, test_audio);
	tcase_add_test(tc, test_crash_keeps_the_session);
	tcase_add_test(tc, test_savestate);
	suite_add_tcase(s, tc);
	tc = vs_test_tcase_apart(s, "window", NULL);
	tcase_add_test(tc, test_window_session);
	tcase_add_test(tc, test_window_rom_name_in_keys);
	tcase_add_test(tc, test_window_input_take_over);
	tcase_add_test(tc, test_window_refusals);
	tcase_add_test(tc, test_window_writes_fail);
	return vs_test_main(s);
}
