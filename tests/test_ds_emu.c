/* SPDX-License-Identifier: Zlib */
/* test_ds_emu.c - the DS emulator driver on the DeSmuME libretro core.
 *
 * ROMs made here (tests/ds_test_rom.h: a valid header around a few ARM
 * instructions) run: every frame ends at VCOUNT 262, the keys and the touch
 * of an input script reach the machine, main RAM holds the ARM9 binary,
 * a record.h ring in RAM comes out of `vramsim record` whole, on standard
 * output with nothing of the core's chatter, and an unfinished last line is
 * held back. A program that halts the
 * machine (an undefined instruction: DeSmuME stops) ends the run naming the
 * frame; savestates load, and one of another ROM, truncated or of another
 * emulator is refused; bad ROMs and scripts exit 2 and leave nothing at the
 * output path (an old file there kept); the ROM given as the output of
 * record or capture is refused and kept. Skipped without the core
 * (Debian: libretro-desmume; $VRAMSIM_DESMUME_CORE).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "ds_test_rom.h"
#include "console/ds/ds_emu.h"

/* Read by ASan at start-up (nothing without it): the core, run in this
 * process, deletes with delete what it made with new[] (its bug; vramsim
 * allows it the same way, src/cli/main.c). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "alloc_dealloc_mismatch=0";
}

static char out[1 << 16], err[1 << 14];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

#define TRACE_TEXT "vramsim-trace 1\narena main ds-obj banks=A0 boundary=128\n" \
	"alloc 1 main sprite 32x32 8bpp tag=player\nalloc 2 main sprite 8x16 4bpp tag=hud\nfree 1\n"

static const uint32_t loop_code[] = { ARM_LOOP };
/* Counts down about 4 million times (some frames), then halts. */
static const uint32_t quit_code[] = { ARM_MOV_R0_4M, ARM_SUBS_R0_1, ARM_BNE_BACK1, ARM_UDF };
static const uint32_t halt_code[] = { ARM_UDF };

/* A ROM file made here (slot: the vs_test_path slot it names). */
static const char *rom_file(const char *name, const uint32_t *code, size_t n, const char *ring)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *path = vs_test_path("%s.nds", name);

	ds_test_rom_make(rom, name, code, n, ring);
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	return path;
}

static const char *old_file(const char *name)
{
	const char *path = vs_test_path("%s", name);

	ck_assert_int_eq(ds_test_write(path, "old\n", 4), 0);
	return path;
}

static void assert_old(const char *path)
{
	char *s = vs_test_slurp(path);

	ck_assert_str_eq(s, "old\n");
	free(s);
}

/* The value of a tag of chunk 5 in a savestate (the touch position is
 * there and nowhere in vs_ds_frame). */
static uint32_t chunk5_tag(const uint8_t *st, size_t n, const char *tag)
{
	size_t i;

	for (i = 0; i + 16 <= n; i++)
		if (memcmp(st + i, tag, 4) == 0 && st[i + 4] <= 4 && st[i + 8] == 1) {
			uint32_t v = 0, k;

			for (k = 0; k < st[i + 4]; k++)
				v |= (uint32_t)st[i + 12 + k] << (8 * k);
			return v;
		}
	ck_abort_msg("no tag %s", tag);
	return 0;
}

START_TEST(test_runs_with_input)
{
	const char *rom = rom_file("vsloop", loop_code, 1, NULL);
	const char *script = vs_test_file(0, "ds.input", "0-3 a x touch 100,50\n4 y\n");
	vs_input_script s;
	vs_emu_play play;
	vs_ds_emu *e;
	const vs_ds_frame *f;
	uint32_t i;
	char e2[512];

	ck_assert_int_eq(vs_input_script_load(script, &s, err, sizeof err), 0);
	memset(&play, 0, sizeof play);
	play.frames = 8;
	play.input = &s;
	e = vs_ds_play_open(rom, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	ck_assert_str_eq(vs_ds_emu_rom(e)->title, "vsloop");
	ck_assert_str_eq(vs_ds_emu_rom(e)->code, "VSTE");
	/* one emulator a process: the core is global state */
	ck_assert_ptr_null(vs_ds_play_open(rom, &play, e2, sizeof e2));
	ck_assert_ptr_nonnull(strstr(e2, "one DS emulator per process"));
	for (i = 0; i < play.frames; i++) {
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		f = vs_ds_emu_frame(e);
		ck_assert_uint_eq(f->vcount, 262);
		if (i <= 3)
			ck_assert_uint_eq(f->keys, VS_KEY_A | VS_KEY_X);
		if (i == 3) {
			size_t n;
			const uint8_t *st = vs_ds_emu_savestate(e, &n);

			/* the core keeps the stylus in 1/16 pixel units */
			ck_assert_uint_eq(chunk5_tag(st, n, "_TPX") >> 4, 100);
			ck_assert_uint_eq(chunk5_tag(st, n, "_TPY") >> 4, 50);
		}
		if (i == 4)
			ck_assert_uint_eq(f->keys, VS_KEY_Y);
		if (i == 5)
			ck_assert_uint_eq(f->keys, 0);
	}
	/* main RAM holds the ARM9 binary where the header loads it */
	ck_assert_uint_eq(vs_ds_emu_main_ram(e)[0], 0xFE);
	ck_assert_uint_eq(vs_ds_emu_main_ram(e)[3], 0xEA);
	vs_ds_emu_close(e);
	vs_input_script_free(&s);
}
END_TEST

START_TEST(test_record_ring)
{
	const char *rom = rom_file("vsring", loop_code, 1, TRACE_TEXT);
	const char *trace = vs_test_path("ring.trace");
	char *got;

	ck_assert_int_eq(cli("record '%s' --frames 3 -o '%s'", rom, trace), 0);
	got = vs_test_slurp(trace);
	ck_assert_str_eq(got, TRACE_TEXT);
	free(got);
	ck_assert_ptr_nonnull(strstr(err, "3 frames, 5 trace lines (ring at 0x02000100"));
	/* on standard output: the trace and nothing of the core's printing */
	ck_assert_int_eq(cli("record '%s' --frames 2 -o - --quiet", rom), 0);
	ck_assert_str_eq(out, TRACE_TEXT);
}
END_TEST

/* The ROM given as the output of record or capture: refused before the run
 * (exit 2; with --frames this large a refusal only when the trace is written
 * would run the case past its timeout), the ROM kept byte for byte. */
START_TEST(test_output_is_the_rom)
{
	static uint8_t want[DS_TEST_ROM_BYTES];
	const char *rom = rom_file("vsself", loop_code, 1, TRACE_TEXT);
	int run;

	ds_test_rom_make(want, "vsself", loop_code, 1, TRACE_TEXT);
	for (run = 0; run < 2; run++) {
		size_t n = 0;
		FILE *fp;
		char *got;
		int rc = run ? cli("capture '%s' --frames 100000000 -o '%s'", rom, rom) :
			cli("record '%s' --frames 100000000 -o '%s'", rom, rom);

		ck_assert_msg(rc == 2 && strstr(err, "which this run reads") != NULL, "%s: exit %d: %s",
			run ? "capture" : "record", rc, err);
		fp = fopen(rom, "rb");
		ck_assert_ptr_nonnull(fp);
		got = vs_test_slurp_stream(fp, &n);
		fclose(fp);
		ck_assert_msg(n == sizeof want && memcmp(got, want, n) == 0, "%s: the ROM changed (%zu bytes)",
			run ? "capture" : "record", n);
		free(got);
	}
}
END_TEST

/* vs_ds_record in this process (each `vramsim record` boots the core
 * afresh, which the sanitizer build makes slow): no ring, an unfinished
 * last line, a program that halts at once. */
START_TEST(test_record_in_process)
{
	vs_emu_play play;
	vs_ds_recorder rec;
	FILE *fp = tmpfile();
	char *got;

	ck_assert_ptr_nonnull(fp);
	memset(&play, 0, sizeof play);
	play.frames = 2;
	ck_assert_int_eq(vs_ds_record(rom_file("vsloop", loop_code, 1, NULL), &play, fp, &rec, err, sizeof err), 0);
	ck_assert_uint_eq(rec.ring, 0);
	ck_assert_uint_eq(rec.lines, 0);
	ck_assert_int_eq(vs_ds_record(rom_file("vspart", loop_code, 1, "vramsim-trace 1\nalloc 1"), &play, fp, &rec,
		err, sizeof err), 0);
	ck_assert_uint_eq(rec.ring, 0x02000100u);
	ck_assert_uint_eq(rec.lines, 1);
	ck_assert_uint_eq(rec.partial, 7);
	got = vs_test_slurp_stream(fp, NULL);
	ck_assert_str_eq(got, "vramsim-trace 1\n");
	free(got);
	fclose(fp);
	play.frames = 600;
	ck_assert_int_eq(vs_ds_record(rom_file("vshalt", halt_code, 1, NULL), &play, stdout, &rec, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "vshalt.nds: frame 0: the program never ran a whole frame") != NULL, "%s", err);
}
END_TEST

/* Entries in a folder but . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

START_TEST(test_program_stops)
{
	const char *trace = old_file("stop.trace"), *tmp = vs_test_path("tmpdir");

	/* the core's private folder goes, on this error path too */
	ck_assert_int_eq(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);
	ck_assert_int_eq(cli("record '%s' --frames 600 -o '%s'", rom_file("vsquit", quit_code, 4, TRACE_TEXT),
		trace), 2);
	ck_assert_msg(strstr(err, "the program stopped (the frame ended at VCOUNT") != NULL, "%s", err);
	ck_assert_msg(strstr(err, ": frame 0:") == NULL, "%s", err);
	assert_old(trace);
	ck_assert_int_eq(entries(tmp), 0);
	rmdir(tmp);
}
END_TEST

/* A savestate written by the core after some frames, to a file. */
static const char *state_file(const char *rom, const char *name, uint32_t frames, size_t *len)
{
	vs_emu_play play;
	vs_ds_emu *e;
	const uint8_t *st;
	const char *path = vs_test_path("%s", name);
	uint32_t i;

	memset(&play, 0, sizeof play);
	e = vs_ds_play_open(rom, &play, err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	for (i = 0; i < frames; i++)
		ck_assert_msg(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
	st = vs_ds_emu_savestate(e, len);
	ck_assert_int_eq(ds_test_write(path, st, *len), 0);
	vs_ds_emu_close(e);
	return path;
}

/* The offset of chunk id's data in a savestate (its size in *size). */
static size_t chunk_at(const uint8_t *st, size_t n, uint32_t id, uint32_t *size)
{
	size_t pos = 32;

	while (pos + 8 <= n) {
		uint32_t c = ds_test_get32(st + pos), len = ds_test_get32(st + pos + 4);
		if (c == id) {
			*size = len;
			return pos + 8;
		}
		ck_assert_uint_ne(c, 0xFFFFFFFFu);
		pos += 8 + len;
	}
	ck_abort_msg("no chunk %u", (unsigned)id);
	return 0;
}

/* The savestate st with the word at off set to v (put back after) as
 * bad, refused before DeSmuME starts: exit 2, why said, the old trace
 * kept. */
static void word_refused(const char *ring, uint8_t *st, size_t len, size_t off, uint32_t v, const char *bad,
	const char *trace, const char *why)
{
	uint32_t keep = ds_test_get32(st + off);

	ds_test_put32(st + off, v);
	ck_assert_int_eq(ds_test_write(bad, st, len), 0);
	ds_test_put32(st + off, keep);
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 3 -o '%s'", ring, bad, trace), 2);
	ck_assert_msg(strstr(err, why) != NULL, "%s", err);
	assert_old(trace);
}

/* Savestates DeSmuME takes and then cannot run from, found by mutating
 * one: the run ends with the frame and exit 2, not a hang or a crash, and
 * leaves nothing (an old file kept). A timestamp of the hardware's event
 * scheduler (chunk 51) made huge: the first frame never ends, and the
 * guard's watchdog (2 s of CPU here) stops it. A cartridge slot's state
 * whose stream is longer than its chunk (140): DeSmuME would allocate it
 * whole and die; refused before it starts. The MMU's chunk (61) with a
 * firmware or a backup chip's buffer larger than the chunk: DeSmuME would
 * overflow its heap or allocate it whole; refused before it starts. */
static void states_that_stop_the_core(const char *ring, const char *state, size_t len)
{
	const char *trace = old_file("guard.trace"), *bad = vs_test_path("bad.dst");
	size_t at;
	uint32_t size;
	uint8_t *st;

	st = (uint8_t *)vs_test_slurp(state);
	ck_assert_ptr_nonnull(st);
	at = chunk_at(st, len, 51, &size);
	ck_assert_uint_gt(size, 233);
	st[at + 232] = 0xA2;
	ck_assert_int_eq(ds_test_write(bad, st, len), 0);
	st[at + 232] = 0;
	setenv("VRAMSIM_EMU_GUARD_CPU", "2", 1);
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 3 -o '%s'", ring, bad, trace), 2);
	unsetenv("VRAMSIM_EMU_GUARD_CPU");
	ck_assert_msg(strstr(err, "vsring.nds: frame 0: DeSmuME ran 2 s of CPU in one call without returning") != NULL,
		"%s", err);
	assert_old(trace);
	ck_assert(!vs_test_temporary_left(trace));
	/* DeSmuME crashing inside a frame's call (the guard's test hook) */
	vs_test_core_crash(1);
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 5 -o '%s'", ring, state, trace), 2);
	vs_test_core_crash(0);
	ck_assert_msg(strstr(err, "vsring.nds: frame 2: DeSmuME crashed (SIGSEGV): a ROM or savestate it cannot run")
		!= NULL, "%s", err);
	assert_old(trace);
	ck_assert(!vs_test_temporary_left(trace));
	/* the MMU's chunk (61): DeSmuME gives the firmware as many bytes as the
	 * chunk has and reads the size it is told (an overflow of its heap,
	 * which AddressSanitizer saw and which crashed it), and allocates the
	 * backup chip's buffers whole; refused before it starts */
	at = chunk_at(st, len, 61, &size);
	ck_assert_uint_gt(size, 2612);
	ck_assert_uint_eq(ds_test_get32(st + at + 2607), 0x40000u); /* the firmware's size */
	word_refused(ring, st, len, at + 2608, 0xFFFFFFFFu, bad, trace, "bad.dst: not a DeSmuME savestate: the firmware's "
		"size in the MMU's chunk (61) is not what the chunk holds at byte ");
	word_refused(ring, st, len, at + 28, 0x7FFFFFF0u, bad, trace, /* the backup chip's first buffer */
		"the backup chip's memory runs past the MMU's chunk (61)");
	word_refused(ring, st, len, at, 7u, bad, trace, /* an older MMU state's layout */
		"the MMU's state (chunk 61) is of another version");
	ck_assert(!vs_test_temporary_left(trace));
	at = chunk_at(st, len, 140, &size);
	word_refused(ring, st, len, at + 8, 0xFFFFFFFFu, bad, trace, "a cartridge slot's state runs past its chunk");
	free(st);
}

START_TEST(test_savestates)
{
	const char *ring = rom_file("vsring", loop_code, 1, TRACE_TEXT);
	const char *other = rom_file("vsother", loop_code, 1, NULL);
	const char *trace = old_file("state.trace"), *state, *cut;
	size_t len;
	char *got, *bytes;

	state = state_file(ring, "ring.dst", 5, &len);
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 2 -o '%s' --quiet", ring, state, trace), 0);
	got = vs_test_slurp(trace);
	ck_assert_str_eq(got, TRACE_TEXT);
	free(got);
	trace = old_file("state.trace");
	/* of another ROM */
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 2 -o '%s'", other, state, trace), 2);
	ck_assert_msg(strstr(err, "a savestate of another ROM (\"vsring\" VSTE") != NULL, "%s", err);
	assert_old(trace);
	/* truncated */
	bytes = vs_test_slurp(state);
	cut = vs_test_path("cut.dst");
	ck_assert_int_eq(ds_test_write(cut, bytes, len / 2), 0);
	free(bytes);
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 2 -o '%s'", ring, cut, trace), 2);
	ck_assert_msg(strstr(err, "truncated") != NULL, "%s", err);
	assert_old(trace);
	/* of another emulator */
	ck_assert_int_eq(cli("record '%s' --state '%s' --frames 2 -o '%s'", ring, other, trace), 2);
	ck_assert_msg(strstr(err, "not a DeSmuME savestate") != NULL, "%s", err);
	assert_old(trace);
	states_that_stop_the_core(ring, state, len);
}
END_TEST

START_TEST(test_bad_input)
{
	static uint8_t rom[DS_TEST_ROM_BYTES];
	const char *trace = old_file("bad.trace"), *path;

	/* not an NDS file, named .nds */
	path = vs_test_file(1, "random.nds", "just some text, long enough to be anything at all\n");
	ck_assert_int_eq(cli("record '%s' -o '%s'", path, trace), 2);
	ck_assert_msg(strstr(err, "random.nds: not a DS ROM") != NULL, "%s", err);
	assert_old(trace);
	/* truncated inside the header */
	ds_test_rom_make(rom, "vscut", loop_code, 1, NULL);
	path = vs_test_path("cut.nds");
	ck_assert_int_eq(ds_test_write(path, rom, 0x180), 0);
	ck_assert_int_eq(cli("record '%s' -o '%s'", path, trace), 2);
	ck_assert_msg(strstr(err, "shorter than the 512-byte header") != NULL, "%s", err);
	assert_old(trace);
	/* the ARM9 binary's size past the file, routed by its header (no .nds) */
	ds_test_put32(rom + 0x2C, 0x100000);
	ds_test_rom_seal(rom);
	path = vs_test_path("big.bin");
	ck_assert_int_eq(ds_test_write(path, rom, sizeof rom), 0);
	ck_assert_int_eq(cli("record '%s' -o '%s'", path, trace), 2);
	ck_assert_msg(strstr(err, "the ARM9 binary (0x100000 bytes at offset 0x200) lies outside the file") != NULL,
		"%s", err);
	assert_old(trace);
	/* an unknown key, and a DS key in a GBA run */
	path = vs_test_file(2, "bad.input", "0-3 a\n4 z\n");
	ck_assert_int_eq(cli("record '%s' --input '%s' -o '%s'", rom_file("vsloop", loop_code, 1, NULL), path, trace),
		2);
	ck_assert_msg(strstr(err, "bad.input:2:3: error: unknown key 'z'") != NULL, "%s", err);
	assert_old(trace);
	if (vs_test_exists(VS_BINARY_DIR "/vramsim-gba.so")) {
		path = vs_test_file(2, "ds.input", "0-3 a\n4 b x\n");
		ck_assert_int_eq(cli("record '%s' --frames 5 --input '%s' -o '%s'", vs_test_file(3, "game.gba", "x"),
			path, trace), 2);
		ck_assert_msg(strstr(err, "ds.input:2:5: error: a DS key or touch in a GBA run") != NULL, "%s", err);
		assert_old(trace);
	}
}
END_TEST

START_TEST(test_no_core)
{
	const char *trace = old_file("nocore.trace");

	setenv("VRAMSIM_DESMUME_CORE", "/nowhere/desmume_libretro.so", 1);
	ck_assert_int_eq(cli("record '%s' -o '%s'", rom_file("vsloop", loop_code, 1, NULL), trace), 2);
	unsetenv("VRAMSIM_DESMUME_CORE");
	ck_assert_msg(strstr(err, "install the Debian package libretro-desmume") != NULL, "%s", err);
	assert_old(trace);
}
END_TEST

/* A program that exits with the emulator open leaves no folder either. */
START_TEST(test_exit_removes_folder)
{
	const char *tmp = vs_test_path("exitdir"), *rom = rom_file("vsloop", loop_code, 1, NULL);
	vs_emu_play play;
	pid_t pid;
	int status;

	ck_assert_int_eq(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);
	memset(&play, 0, sizeof play);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		vs_ds_emu *e = vs_ds_play_open(rom, &play, err, sizeof err);

		exit(e && entries(tmp) == 1 && vs_ds_play_frame(e, &play, 0, err, sizeof err) == 0 ? 0 : 3);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(entries(tmp), 0);
	rmdir(tmp);
}
END_TEST

/* Nor does Ctrl-C (or SIGTERM) with the emulator open: the folder and the
 * core's save file in it go, and the process dies of the signal. */
START_TEST(test_signal_removes_folder)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	const char *tmp = vs_test_path("sigdir"), *rom = rom_file("vsloop", loop_code, 1, NULL);
	size_t i;

	ck_assert_int_eq(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		vs_emu_play play;
		pid_t pid;
		int status;
		memset(&play, 0, sizeof play);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			vs_ds_emu *e;
			signal(sigs[i], SIG_DFL);
			e = vs_ds_play_open(rom, &play, err, sizeof err);
			if (!e || entries(tmp) != 1 || vs_ds_play_frame(e, &play, 0, err, sizeof err) != 0)
				_exit(3);
			raise(sigs[i]);
			_exit(4);
		}
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i], "status %d", status);
		ck_assert_int_eq(entries(tmp), 0);
	}
	rmdir(tmp);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ds_emu");
	TCase *tc = tcase_create("emu");

	/* each `vramsim record` boots the core (about 0.7 s of CPU): the cases
	 * that run it most are tests of their own */
	tcase_add_test(tc, test_runs_with_input);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_no_core);
	tcase_add_test(tc, test_exit_removes_folder);
	tcase_add_test(tc, test_signal_removes_folder);
	suite_add_tcase(s, tc);
	/* the driver opened, run, recorded from and closed in this process: the
	 * one case the sanitizer tree scans for leaks (tests/CMakeLists.txt) */
	tc = vs_test_tcase_apart(s, "leaks", NULL);
	tcase_add_test(tc, test_record_in_process);
	tc = vs_test_tcase_apart(s, "record", NULL);
	tcase_add_test(tc, test_record_ring);
	tcase_add_test(tc, test_output_is_the_rom);
	tc = vs_test_tcase_apart(s, "stops", NULL);
	tcase_add_test(tc, test_program_stops);
	tc = vs_test_tcase_apart(s, "states", NULL);
	tcase_add_test(tc, test_savestates);
	return s;
}

int main(void)
{
	ds_test_require_core();
	return vs_test_main(suite());
}
