/* SPDX-License-Identifier: Zlib */
/* test_capture_cli.c - `vramsim capture` and `vramsim record` with input
 * scripts and savestates, and every kind of bad input they meet: a file
 * that is not a ROM, a ROM that crashes or turns the console off, a bad
 * input script, a savestate of another ROM. Each exits 2 with a message
 * and leaves nothing at the output path (an old file there is kept). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support.h"
#include "console/gba/gba_emu.h"

#define DEMO_ROM vs_test_rom("demo.gba")

static char out[4096], err[8192];

#define tmp_path(name) vs_test_path("capture-cli-%s", name)

/* A minimal cartridge: a branch over the header to ARM code at 0xC0. */
static const char *tiny_rom(const char *name, const uint32_t *code, size_t n)
{
	static unsigned char rom[0x200];
	const char *path = tmp_path(name);
	FILE *fp;
	size_t i;

	memset(rom, 0, sizeof rom);
	rom[0] = 0x2E, rom[3] = 0xEA; /* b 0xC0 */
	rom[0xB2] = 0x96;
	for (i = 0; i < n; i++) {
		rom[0xC0 + 4 * i] = (unsigned char)code[i];
		rom[0xC1 + 4 * i] = (unsigned char)(code[i] >> 8);
		rom[0xC2 + 4 * i] = (unsigned char)(code[i] >> 16);
		rom[0xC3 + 4 * i] = (unsigned char)(code[i] >> 24);
	}
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(rom, 1, sizeof rom, fp), sizeof rom);
	fclose(fp);
	return path;
}

/* Runs capture and record with extra arguments: both exit 2, say `says`,
 * and leave the old file at the output path as it was. */
static void both_refuse(const char *rom, const char *extra, const char *says)
{
	static const char *const cmds[] = { "capture", "record" };
	const char *trace = tmp_path("kept.trace");
	char args[2048];
	FILE *fp;
	int i;

	for (i = 0; i < 2; i++) {
		fp = fopen(trace, "wb");
		ck_assert_ptr_nonnull(fp);
		fputs("old\n", fp);
		fclose(fp);
		snprintf(args, sizeof args, "%s '%s' --frames 30 %s -o '%s'", cmds[i], rom, extra, trace);
		ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
		ck_assert_msg(strstr(err, says) != NULL, "%s: expected '%s' in: %s", args, says, err);
		fp = fopen(trace, "rb");
		ck_assert_ptr_nonnull(fp);
		ck_assert_ptr_nonnull(fgets(out, sizeof out, fp));
		ck_assert_str_eq(out, "old\n");
		ck_assert_ptr_null(fgets(out, sizeof out, fp));
		fclose(fp);
		/* no temporary file left beside it */
		snprintf(args, sizeof args, "ls '%s/tests/' | grep -c '%s.tmp' >'%s'", VS_BINARY_DIR,
			strrchr(trace, '/') + 1, tmp_path("ls"));
		ck_assert_int_ne(system(args), -1);
		fp = fopen(tmp_path("ls"), "rb");
		ck_assert_ptr_nonnull(fp);
		ck_assert_ptr_nonnull(fgets(out, sizeof out, fp));
		fclose(fp);
		ck_assert_str_eq(out, "0\n");
	}
}

START_TEST(test_not_a_rom)
{
	const char *path = tmp_path("text.gba");
	FILE *fp = fopen(path, "wb");

	ck_assert_ptr_nonnull(fp);
	for (int i = 0; i < 40; i++)
		fputs("this is a text file, not a cartridge\n", fp);
	fclose(fp);
	both_refuse(path, "", "not a GBA ROM image");
	both_refuse(tmp_path("no-such.gba"), "", "no-such.gba: cannot open");
}
END_TEST

START_TEST(test_crashing_roms)
{
	static const uint32_t jump[] = { 0xE3A0040Fu /* mov r0, #0x0F000000 */, 0xE12FFF10u /* bx r0 */ };
	static const uint32_t undef[] = { 0xE7F000F0u /* udf */, 0xEAFFFFFEu /* b . */ };
	static const uint32_t stop[] = { 0xEF030000u /* swi 3: Stop */, 0xEAFFFFFEu };

	both_refuse(tiny_rom("jump.gba", jump, 2), "", "frame 0: the program crashed: it jumped outside memory");
	both_refuse(tiny_rom("undef.gba", undef, 2), "", "the program crashed: it ran an undefined instruction");
	both_refuse(tiny_rom("stop.gba", stop, 2), "", "turned the console off (BIOS Stop)");
}
END_TEST

START_TEST(test_bad_scripts)
{
	const char *unknown = vs_test_file(0, "capture-cli-unknown.input", "# keys\n10-20 right\n30 jump\n");
	const char *overlap = vs_test_file(1, "capture-cli-overlap.input", "10-20 right\n15-25 a\n");
	char extra[1024];

	snprintf(extra, sizeof extra, "--input '%s'", unknown);
	both_refuse(DEMO_ROM, extra, "capture-cli-unknown.input:3:4: error:");
	snprintf(extra, sizeof extra, "--input '%s'", overlap);
	both_refuse(DEMO_ROM, extra, "capture-cli-overlap.input:2:");
	snprintf(extra, sizeof extra, "--input '%s'", tmp_path("no-such.input"));
	both_refuse(DEMO_ROM, extra, "no-such.input");
}
END_TEST

/* A write that fails (a file size limit standing for a full disk) names
 * the file that could not be written and why, and leaves no output. */
START_TEST(test_write_fails)
{
	static const char *const cmds[] = { "capture", "record" };
	static const char *const files[] = { "the capture's", "the recording's" };
	const char *trace = tmp_path("limited.trace");
	int i;

	/* record said only "error writing the trace" */
	for (i = 0; i < 2; i++) {
		remove(trace);
		ck_assert_int_eq(vs_test_cli_limited(20, err, sizeof err, "%s '%s' --frames 600 -o '%s'", cmds[i], DEMO_ROM,
			trace), 2);
		ck_assert_msg(strstr(err, files[i]) && strstr(err, "unnamed temporary file") && strstr(err, "File too large"),
			"%s: %s", cmds[i], err);
		ck_assert(!vs_test_exists(trace));
	}
	/* standard output closed or full: said once, exit 2 (record's trace
	 * went into its own spool and it exited 0, before; a failure said by
	 * the module was said again by vramsim) */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "%s '%s' --frames 60 -o - >&-", cmds[i],
			DEMO_ROM), 2);
		ck_assert_msg(vs_test_count(err, "cannot write standard output: Bad file descriptor") == 1, "%s", err);
		ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "%s '%s' --frames 60 -o - >/dev/full",
			cmds[i], DEMO_ROM), 2);
		ck_assert_msg(vs_test_count(err, "cannot write standard output") == 1, "%s", err);
	}
}
END_TEST

/* An output that is one of the run's inputs (the ROM, the input script, the
 * savestate) is refused before the run, by any name (standard output
 * appended to the ROM too), and the input kept:
 * with --frames this large, a refusal only when the trace is written would
 * run the case past its timeout. */
START_TEST(test_output_is_an_input)
{
	static const char *const cmds[] = { "capture", "record" };
	const char *rom = tmp_path("self.gba"), *keys = vs_test_file(1, "capture-cli-self.keys", "0 a\n");
	const char *state = vs_test_file(2, "capture-cli-self.state", "not read: the output is refused first\n");
	char cmd[2048], other[2048], args[8192];
	int c, k;

	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", DEMO_ROM, rom);
	ck_assert_int_eq(system(cmd), 0);
	/* the ROM by another name: its folder, then ".", then its name */
	snprintf(other, sizeof other, "%.*s/.%s", (int)(strrchr(rom, '/') - rom), rom, strrchr(rom, '/'));
	for (c = 0; c < 2; c++)
		for (k = 0; k < 5; k++) {
			const char *input = k == 1 ? keys : k == 2 ? state : rom;
			snprintf(cmd, sizeof cmd, "cp '%s' '%s.kept'", input, input);
			ck_assert_int_eq(system(cmd), 0);
			/* k 4: -o -, standard output appended to the ROM */
			snprintf(args, sizeof args, "%s '%s' --frames 100000000 --input '%s' --state '%s' -o '%s'%s%s", cmds[c],
				rom, keys, state, k == 4 ? "-" : k == 3 ? other : input, k == 4 ? " >>" : "", k == 4 ? rom : "");
			ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
			ck_assert_msg(strstr(err, "which this run reads") != NULL, "%s: %s", args, err);
			snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s.kept'", input, input);
			ck_assert_msg(system(cmd) == 0, "%s: the input changed", args);
		}
}
END_TEST

/* A savestate taken in the demo starts a capture there; one of another ROM,
 * or a file that is not a savestate, is refused. */
START_TEST(test_savestates)
{
	static const uint32_t loop[] = { 0xEAFFFFFEu };
	char state[600], other[600], trace[600], fifo[600], cut[600]; /* tmp_path's slots are reused */
	char e_msg[512], args[2048], extra[1024];
	vs_gba_emu *e;
	FILE *fp;

	snprintf(state, sizeof state, "%s", tmp_path("demo.ss"));
	snprintf(other, sizeof other, "%s", tmp_path("other.ss"));
	snprintf(trace, sizeof trace, "%s", tmp_path("from-state.trace"));
	snprintf(fifo, sizeof fifo, "%s", tmp_path("fifo.ss"));
	snprintf(cut, sizeof cut, "%s", tmp_path("cut.ss"));

	e = vs_gba_emu_open_file(DEMO_ROM, e_msg, sizeof e_msg);
	ck_assert_msg(e != NULL, "%s", e_msg);
	ck_assert_uint_eq(vs_gba_emu_run_frames(e, 300), 300);
	ck_assert_msg(vs_gba_emu_save_state(e, state, e_msg, sizeof e_msg) == 0, "%s", e_msg);
	vs_gba_emu_close(e);
	e = vs_gba_emu_open_file(tiny_rom("loop.gba", loop, 1), e_msg, sizeof e_msg);
	ck_assert_msg(e != NULL, "%s", e_msg);
	vs_gba_emu_run_frames(e, 2);
	ck_assert_int_eq(vs_gba_emu_save_state(e, other, e_msg, sizeof e_msg), 0);
	vs_gba_emu_close(e);

	/* From the demo's own state: the world is loaded, the display on. */
	snprintf(args, sizeof args, "capture '%s' --frames 60 --state '%s' -o '%s'", DEMO_ROM, state, trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	fp = fopen(trace, "rb");
	ck_assert_ptr_nonnull(fp);
	{
		char line[512], named[600];
		int blank = 0, state_named = 0, maps = 0;

		snprintf(named, sizeof named, "state=%s", strrchr(state, '/') + 1);
		while (fgets(line, sizeof line, fp)) {
			blank |= strstr(line, "force-blanked") && !strstr(line, " 0 force-blanked");
			state_named |= strstr(line, named) != NULL;
			maps += strstr(line, " bg map ") != NULL;
		}
		ck_assert_int_eq(blank, 0);
		ck_assert_int_eq(state_named, 1);
		ck_assert_int_eq(maps, 2);
	}
	fclose(fp);
	snprintf(args, sizeof args, "replay '%s' --strategy recorded", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);

	snprintf(extra, sizeof extra, "--state '%s'", other);
	both_refuse(DEMO_ROM, extra, "not a savestate of this ROM");
	snprintf(extra, sizeof extra, "--state '%s'", DEMO_ROM);
	both_refuse(DEMO_ROM, extra, "not a savestate of this ROM");
	snprintf(extra, sizeof extra, "--state '%s'", tmp_path("no-such.ss"));
	both_refuse(DEMO_ROM, extra, "no-such.ss: cannot open");
	/* what libmgba's file layer called missing or empty, and a state cut
	 * short, which it loaded as another ROM's: each by its own reason */
	snprintf(extra, sizeof extra, "--state '%s'", VS_BINARY_DIR);
	both_refuse(DEMO_ROM, extra, "cannot read: not a regular file");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0); /* refused before it is opened: no writer needed */
	snprintf(extra, sizeof extra, "--state '%s'", fifo);
	both_refuse(DEMO_ROM, extra, "cannot read: not a regular file");
	snprintf(args, sizeof args, "head -c 1000 '%s' > '%s'", state, cut);
	ck_assert_int_eq(system(args), 0);
	snprintf(extra, sizeof extra, "--state '%s'", cut);
	both_refuse(DEMO_ROM, extra, "cut.ss: truncated: a savestate of the GBA is ");
}
END_TEST

/* A savestate libmgba accepts whose video event lies 2^31 cycles away (its
 * "next event" at 0x1F4 of mGBA's GBASerializedState, include/mgba/internal/
 * gba/serialize.h) never reaches a new frame: both commands give up after
 * a few frames' cycles, naming the frame, instead of running for minutes. */
START_TEST(test_state_never_ends_a_frame)
{
	static const uint32_t loop[] = { 0xEAFFFFFEu };
	const char *rom = tiny_rom("stuck.gba", loop, 1), *state = tmp_path("stuck.ss");
	char e_msg[512], extra[1024];
	unsigned char b[4] = { 0xFF, 0xFF, 0xFF, 0x7F };
	vs_gba_emu *e;
	FILE *fp;

	e = vs_gba_emu_open_file(rom, e_msg, sizeof e_msg);
	ck_assert_msg(e != NULL, "%s", e_msg);
	vs_gba_emu_run_frames(e, 2);
	ck_assert_int_eq(vs_gba_emu_save_state(e, state, e_msg, sizeof e_msg), 0);
	vs_gba_emu_close(e);
	fp = fopen(state, "r+b");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0x1F4, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(b, 1, 4, fp), 4);
	fclose(fp);
	snprintf(extra, sizeof extra, "--state '%s'", state);
	both_refuse(rom, extra, "frame 2: no new frame after");
}
END_TEST

/* A ROM that never shows a frame (force-blanked from reset) is no capture
 * of a game: the trace is written, and the command says so and exits 1. */
START_TEST(test_never_shown)
{
	static const uint32_t loop[] = { 0xEAFFFFFEu };
	const char *rom = tiny_rom("blank.gba", loop, 1), *trace = tmp_path("blank.trace");
	char args[2048];

	snprintf(args, sizeof args, "capture '%s' --frames 30 -o '%s'", rom, trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	ck_assert_msg(strstr(err, "none of the 30 frames showed anything") != NULL, "%s", err);
	ck_assert(vs_test_exists(trace));
	remove(trace);
}
END_TEST

/* Keys from a script reach the hardware's KEYINPUT (0 bits held) on the
 * frames the script names. */
START_TEST(test_keys_reach_keyinput)
{
	static const uint32_t loop[] = { 0xEAFFFFFEu };
	const char *path = vs_test_file(3, "capture-cli-keyinput.input", "2-3 start\n5 right a l\n");
	vs_input_script script;
	vs_emu_play play = { .frames = 8, .input = &script };
	char msg[512];
	vs_gba_emu *e;
	uint32_t f;

	ck_assert_int_eq(vs_input_script_load(path, &script, msg, sizeof msg), 0);
	e = vs_gba_play_open(tiny_rom("keys.gba", loop, 1), &play, msg, sizeof msg);
	ck_assert_msg(e != NULL, "%s", msg);
	for (f = 0; f < play.frames; f++) {
		uint16_t want = f == 2 || f == 3 ? VS_KEY_START : f == 5 ? VS_KEY_RIGHT | VS_KEY_A | VS_KEY_L : 0;

		vs_gba_play_keys(e, &play, f);
		ck_assert_uint_eq(vs_gba_emu_run_frames(e, 1), 1);
		ck_assert_uint_eq(vs_gba_emu_read16(e, 0x04000130u), (uint16_t)(~want & 0x3FFu));
	}
	vs_gba_emu_close(e);
	vs_input_script_free(&script);
}
END_TEST

/* The same capture twice is the same file; the header names the script. */
START_TEST(test_input_and_determinism)
{
	const char *script = vs_test_file(2, "capture-cli-keys.input", "# hold start, then walk\n0-9 start\n20-40 right a\n");
	const char *a = tmp_path("a.trace"), *b = tmp_path("b.trace");
	char args[2048];

	snprintf(args, sizeof args, "capture '%s' --frames 200 --input '%s' -o '%s'", DEMO_ROM, script, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "200 frames"));
	snprintf(args, sizeof args, "capture '%s' --frames 200 --input '%s' -o '%s' --quiet", DEMO_ROM, script, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_str_eq(err, "");
	snprintf(args, sizeof args, "cmp -s '%s' '%s'", a, b);
	ck_assert_int_eq(system(args), 0);
	/* progress: on a terminal, or always when asked; never with --quiet */
	setenv("VRAMSIM_PROGRESS", "always", 1);
	snprintf(args, sizeof args, "capture '%s' --frames 200 --input '%s' -o '%s'", DEMO_ROM, script, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "\rcapture: 64 of 200 frames, "), "%s", err); /* the first; later ones 4 a second */
	snprintf(args, sizeof args, "capture '%s' --frames 200 --input '%s' -o '%s' --quiet", DEMO_ROM, script, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_str_eq(err, "");
	unsetenv("VRAMSIM_PROGRESS");
	snprintf(args, sizeof args, "cmp -s '%s' '%s'", a, b);
	ck_assert_int_eq(system(args), 0);
	snprintf(args, sizeof args, "grep -q '^# capture: frames=200 input=2 ranges$' '%s'", a);
	ck_assert_int_eq(system(args), 0);
	/* usage errors */
	snprintf(args, sizeof args, "capture '%s' -o '%s'", DEMO_ROM, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--frames N is required"));
	snprintf(args, sizeof args, "capture '%s' --frames 10 --grace 0 -o '%s'", DEMO_ROM, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "capture '%s' --frames 10 --arenas sprites -o '%s'", DEMO_ROM, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--arenas takes obj, bg or obj,bg"));
	snprintf(args, sizeof args, "capture '%s' --frames 120 --arenas bg -o '%s'", DEMO_ROM, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "grep -q '^arena obj' '%s'", a);
	ck_assert_int_ne(system(args), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("capture_cli");
	TCase *tc = tcase_create("cli");
	TCase *demo = vs_test_tcase_apart(s, "demo_rom", vs_test_rom_missing("demo.gba", NULL));

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(demo, 120);
	tcase_add_test(tc, test_not_a_rom);
	tcase_add_test(tc, test_crashing_roms);
	tcase_add_test(tc, test_keys_reach_keyinput);
	tcase_add_test(tc, test_state_never_ends_a_frame);
	tcase_add_test(tc, test_never_shown);
	tcase_add_test(demo, test_bad_scripts);
	tcase_add_test(demo, test_write_fails);
	tcase_add_test(demo, test_savestates);
	tcase_add_test(demo, test_output_is_an_input);
	tcase_add_test(demo, test_input_and_determinism);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
