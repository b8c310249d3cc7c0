/* SPDX-License-Identifier: Zlib */
/* test_cli_gba.c - `vramsim cycles` and `vramsim record`: exit codes,
 * messages, and every GBA strategy's placements on the emulated GBA equal
 * to the host replay's over long random traces.
 *
 * Built only with libmgba. The cases that run the GBA ROMs are a TCase of
 * their own, skipped (ctest) where they were not built.
 */
#define _GNU_SOURCE /* mkfifo, alarm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "console/gba/gba_emu.h"

static char out[1 << 16], err[1 << 16];

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

static const char *quickstart(void)
{
	return VS_SOURCE_DIR "/traces/obj-quickstart.trace";
}

/* ---- random traces ----------------------------------------------------- */

static const unsigned dims[12][2] = {
	{ 8, 8 }, { 16, 16 }, { 32, 32 }, { 64, 64 }, { 16, 8 }, { 32, 8 },
	{ 32, 16 }, { 64, 32 }, { 8, 16 }, { 8, 32 }, { 16, 32 }, { 32, 64 },
};

/* Sprites of every shape and depth come and go; the scene fills up so
 * allocations fail too; a reset now and then; frame markers. mode 3 puts
 * the first usable tile at 512. */
static const char *obj_trace(uint64_t seed, unsigned events, unsigned mode)
{
	vs_rng rng = { seed };
	uint64_t live[256];
	unsigned nlive = 0, i, id = 1;
	vs_test_text t = { NULL, 0, 0 };
	const char *path;

	vs_test_put(&t, "vramsim-trace 1\narena obj gba-obj mode=%u\n", mode);
	for (i = 0; i < events; i++) {
		uint32_t r = vs_rng_below(&rng, 100);

		if (r < 2) {
			vs_test_put(&t, "frame\n");
		} else if (i == events / 2) {
			vs_test_put(&t, "reset\n");
			nlive = 0;
		} else if (nlive && (r < 45 || nlive == 256)) {
			unsigned k = vs_rng_below(&rng, nlive);

			vs_test_put(&t, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			unsigned d = vs_rng_below(&rng, 12), big = d == 3 || d == 7 || d == 11;

			if (big && vs_rng_below(&rng, 3))
				d = vs_rng_below(&rng, 3); /* big sprites are rarer */
			vs_test_put(&t, "alloc %u sprite %ux%u %ubpp\n", id, dims[d][0], dims[d][1],
				vs_rng_below(&rng, 4) ? 4u : 8u);
			live[nlive++] = id++;
		}
	}
	path = vs_test_file(1, "cli-gba-obj.trace", t.s);
	free(t.s);
	return path;
}

/* A scrolling BG: tile references with many hits (a small ROM set), tile 0
 * among them, 8bpp tiles, maps taken and given back, ROM indices the
 * manager refuses, frame markers. */
static const char *bg_trace(uint64_t seed, unsigned events)
{
	vs_rng rng = { seed };
	uint64_t live[2048];
	unsigned nlive = 0, i, id = 1;
	vs_test_text t = { NULL, 0, 0 };
	const char *path;

	vs_test_put(&t, "vramsim-trace 1\narena bg gba-bg mode=0\n");
	for (i = 0; i < events; i++) {
		uint32_t r = vs_rng_below(&rng, 1000);

		if (r < 20) {
			vs_test_put(&t, "frame\n");
		} else if (nlive && (r < 430 || nlive == 2048)) {
			unsigned k = vs_rng_below(&rng, nlive);

			vs_test_put(&t, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else if (r < 445) {
			static const char *const maps[] = { "256x256", "512x256", "256x512", "512x512" };

			vs_test_put(&t, "alloc %u map text %s\n", id, maps[vs_rng_below(&rng, 4)]);
			live[nlive++] = id++;
		} else if (r < 447) {
			vs_test_put(&t, "alloc %u tile %u 4bpp\n", id, 5000 + vs_rng_below(&rng, 100)); /* past the ROM set */
			live[nlive++] = id++;
		} else {
			/* ROM 1-599 are 4bpp, 600-899 8bpp: one depth per index */
			unsigned rom = vs_rng_below(&rng, 20) == 0 ? 0 : 1 + vs_rng_below(&rng, 899);

			vs_test_put(&t, "alloc %u tile %u %ubpp\n", id, rom, rom >= 600 ? 8u : 4u);
			live[nlive++] = id++;
		}
	}
	path = vs_test_file(2, "cli-gba-bg.trace", t.s);
	free(t.s);
	return path;
}

/* ---- tests ---------------------------------------------------------------- */

START_TEST(help_says_what_this_build_has)
{
	ck_assert_int_eq(cli("cycles --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: vramsim cycles TRACE"));
	ck_assert_ptr_nonnull(strstr(out, "gba-obj-map, gba-obj-first-fit, gba-obj-best-fit-end, gba-obj-buddy, "
		"gba-obj-snug, gba-obj-ends, gba-obj-compact, gba-bg-tiles, gba-bg-tiles-split"));
	ck_assert_ptr_nonnull(strstr(out, "this build: libmgba: yes\n"));
	ck_assert_int_eq(cli("record --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: vramsim record GAME.gba"));
	ck_assert_ptr_nonnull(strstr(out, "this build: libmgba: "));
}
END_TEST

START_TEST(usage_errors)
{
	ck_assert_int_eq(cli("cycles"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no trace given"));
	ck_assert_int_eq(cli("cycles %s --code sideways", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "'sideways' is not thumb, arm or both"));
	ck_assert_int_eq(cli("cycles %s --max-frames -3", quickstart()), 2);
	ck_assert_int_eq(cli("cycles %s --frob", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '--frob'"));
	ck_assert_int_eq(cli("record"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no ROM given"));
	ck_assert_int_eq(cli("record x.gba -o x.trace"), 2);
	ck_assert_ptr_nonnull(strstr(err, "--frames N is required"));
	ck_assert_int_eq(cli("record x.gba --frames 10"), 2);
	ck_assert_ptr_nonnull(strstr(err, "-o TRACE is required"));
	ck_assert_int_eq(cli("record x.gba --frames ten -o x.trace"), 2);
}
END_TEST

/* The trace and strategy errors come before the ROMs are run. (Without
 * libmgba there is no gba module: tests/modules.cmake checks what vramsim
 * says then.) */
START_TEST(cycles_errors)
{
	const char *bad = vs_test_file(3, "cli-gba-bad.trace",
		"vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\nalloc 2 sprit 8x8 4bpp\n");
	const char *ram = vs_test_file(4, "cli-gba-ram.trace",
		"vramsim-trace 1\narena h ram size=65536\nalloc 1 16\nfree 1\n");

	ck_assert_int_eq(cli("cycles %s --strategy nope", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown strategy 'nope'"));
	ck_assert_int_eq(cli("cycles %s --strategy gba-bg-tiles", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "gba-bg-tiles"));
	ck_assert_int_eq(cli("cycles %s --arena nope", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "no arena 'nope'"));
	/* a DS sprite arena on the GBA: its boundary=128 is not the GBA
	 * build's, and 1473 placements read as differences (exit 1) */
	ck_assert_int_eq(cli("cycles %s/traces/ds-sprites.trace -s gba-obj-first-fit", VS_SOURCE_DIR), 2);
	ck_assert_msg(strstr(err, "arena 'main' is a DS arena (ds-obj)") != NULL, "%s", err);
	/* two -s: the first was dropped unsaid, the run measured the second */
	ck_assert_int_eq(cli("cycles %s -s gba-obj-buddy -s gba-obj-map", quickstart()), 2);
	ck_assert_msg(strstr(err, "one strategy at a time") != NULL, "%s", err);
	/* a strategy with no GBA build */
	ck_assert_int_eq(cli("cycles %s", ram), 2);
	ck_assert_ptr_nonnull(strstr(err, "GBA build"));
	ck_assert_int_eq(cli("cycles %s", bad), 2);
	ck_assert_msg(strstr(err, "cli-gba-bad.trace:4:9: error: unknown request 'sprit'") != NULL, "%s", err);
	ck_assert_int_eq(cli("cycles %s/tests/no-such.trace", VS_BINARY_DIR), 2);
	ck_assert_ptr_nonnull(strstr(err, "no-such.trace"));
}
END_TEST

/* The ROMs missing: exit 2 naming the place and what to do. A ROM whose
 * allocator answers differently: exit 1 naming each trace line. */
START_TEST(cycles_rom_missing_and_differing)
{
	char dir[1024];

	ck_assert_int_eq(setenv("VRAMSIM_GBA_ROM_DIR", VS_BINARY_DIR "/no-such-dir", 1), 0);
	ck_assert_int_eq(cli("cycles %s", quickstart()), 2);
	ck_assert_msg(strstr(err, "no cycles ROM at " VS_BINARY_DIR "/no-such-dir/cycles-thumb.gba") != NULL,
		"%s", err);
	ck_assert_ptr_nonnull(strstr(err, "gcc-arm-none-eabi"));
	snprintf(dir, sizeof dir, "%s/gba/skew", VS_BINARY_DIR);
	ck_assert_int_eq(setenv("VRAMSIM_GBA_ROM_DIR", dir, 1), 0);
	ck_assert_int_eq(cli("cycles %s", quickstart()), 1);
	ck_assert_msg(strstr(err, "obj-quickstart.trace:6: error: id 1: the GBA placed it at 0x06010020, "
		"the host at 0x06010000") != NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(out, "of the GBA's allocations differ from the host replay"));
	ck_assert_int_eq(unsetenv("VRAMSIM_GBA_ROM_DIR"), 0);
	ck_assert_int_eq(cli("cycles %s", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "placements: the GBA's equal the host replay's (14 calls)"));
}
END_TEST

/* Every OBJ strategy, both code placements, tile and bitmap modes: long
 * random traces whose every placement on the GBA equals the host's. */
START_TEST(cycles_obj_strategies_equal_host)
{
	static const char *const strategies[] = {
		"gba-obj-map", "gba-obj-first-fit", "gba-obj-best-fit-end", "gba-obj-buddy", "gba-obj-snug",
		"gba-obj-ends"
	};
	unsigned mode;
	size_t k;

	for (mode = 0; mode <= 3; mode += 3) {
		/* a quarter in the sanitizer tree: the emulator is not instrumented,
		 * and the host's side shows its errors in the first requests */
		const char *path = obj_trace(100 + mode, vs_test_soak(3000, 3000), mode);

		for (k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
			int rc = cli("cycles %s --strategy %s --code both", path, strategies[k]);

			ck_assert_msg(rc == 0, "%s mode %u: exit %d\n%.1500s%.1500s", strategies[k], mode, rc, out, err);
			ck_assert_ptr_nonnull(strstr(out, "allocator code Thumb in ROM, WAITCNT=0x4317"));
			ck_assert_ptr_nonnull(strstr(out, "allocator code ARM in IWRAM"));
			ck_assert_msg(strstr(out, "placements: the GBA's equal the host replay's") != NULL, "%s", out);
			ck_assert_ptr_nonnull(strstr(out, "\nalloc "));
			ck_assert_ptr_nonnull(strstr(out, "\nfree "));
			ck_assert_ptr_nonnull(strstr(out, "\nreset "));
			ck_assert_ptr_nonnull(strstr(out, "worst frame"));
		}
	}
}
END_TEST

/* The number after `key` in out (the first line holding it), or -1. */
static double number_after(const char *from, const char *key)
{
	const char *p = strstr(from, key);

	return p ? strtod(p + strlen(key), NULL) : -1.0;
}

/* gba-obj-compact moves sprites: at frames (within its budget) and when a
 * request needs room. On the GBA every move is a DMA3 copy inside VRAM,
 * every sprite's bytes are checked after it moves, and after every call
 * and frame each slot's start must equal the host's. The DMA3 cost per
 * word must be the model's (docs/gba.md): 4 cycles VRAM to VRAM, 6 ROM to
 * VRAM, within 0.25 cycles; beside its words each move costs the model's
 * VS_CYCLES_MOVE_EACH (the loop that programs DMA3 for each sprite) within
 * 15%, so the batches cost the model's figure within 5%. */
START_TEST(cycles_compact_moves_equal_host)
{
	unsigned mode;

	for (mode = 0; mode <= 3; mode += 3) {
		/* a quarter in the sanitizer tree, as above: 750 events still make
		 * hundreds of moves in dozens of calls, for the DMA figures */
		const char *path = obj_trace(300 + mode, vs_test_soak(3000, 3000), mode), *arm;
		int rc = cli("cycles %s --strategy gba-obj-compact --code both", path);
		double moved, measured, ratio, words, each;

		ck_assert_msg(rc == 0, "mode %u: exit %d\n%.2000s%.1500s", mode, rc, out, err);
		arm = strstr(out, "allocator code ARM in IWRAM");
		ck_assert_ptr_nonnull(arm);
		ck_assert_msg(strstr(out, "placements: the GBA's equal the host replay's") != NULL &&
			strstr(out, "and every sprite's place after each call and its moves") != NULL, "%s", out);
		ck_assert_ptr_nonnull(strstr(out, "\nframe "));
		ck_assert_ptr_nonnull(strstr(out, "\ncall "));
		ck_assert_ptr_nonnull(strstr(arm, "\ncall "));
		moved = number_after(out, "\nmoves: ");
		measured = number_after(out, "words (32-bit); measured ");
		ratio = number_after(out, "measured / model ");
		words = number_after(out, " calls, ");
		ck_assert_msg(moved > 0 && measured > 0 && words > 0, "%s", out);
		each = (measured - words * VS_CYCLES_MOVE_WORD) / moved;
		ck_assert_msg(each >= 0.85 * VS_CYCLES_MOVE_EACH && each <= 1.15 * VS_CYCLES_MOVE_EACH,
			"%.1f cycles a move beside its words\n%s", each, out);
		ck_assert_msg(ratio >= 0.95 && ratio <= 1.05, "measured / model %.3f\n%s", ratio, out);
		ck_assert_msg(number_after(out, "VRAM to VRAM ") >= 3.75 && number_after(out, "VRAM to VRAM ") <= 4.25,
			"%s", out);
		ck_assert_msg(number_after(out, "ROM to VRAM ") >= 5.75 && number_after(out, "ROM to VRAM ") <= 6.25,
			"%s", out);
		/* ARM in IWRAM: the same moves (the DMA loop is the same Thumb code) */
		ck_assert_msg(number_after(arm, "\nmoves: ") == moved, "%s", out);
	}
}
END_TEST

/* OBJ VRAM full of 16 sprites of 64 tiles; the 1st and 3rd freed; a
 * request of 128 tiles that only a slide makes room for: sprite 2 moves
 * down into the first gap, and the slide stops there, the two gaps joined. */
static const char *full_then_slide(void)
{
	vs_test_text t = { NULL, 0, 0 };
	const char *path;
	unsigned i;

	vs_test_put(&t, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 1; i <= 16; i++)
		vs_test_put(&t, "alloc %u sprite 64x64 4bpp\n", i);
	vs_test_put(&t, "free 1\nfree 3\nalloc 17 sprite 64x64 8bpp\n");
	path = vs_test_file(7, "cli-gba-slide.trace", t.s);
	free(t.s);
	return path;
}

/* A GBA that skips compact's frame-boundary slide: its alloc results may
 * still agree for a while, but the sprites sit elsewhere after the first
 * frame where the host slid some: exit 1 naming that frame's line. */
START_TEST(cycles_compact_differing)
{
	char dir[1024];
	const char *path = vs_test_file(6, "cli-gba-compact.trace", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 16x16 4bpp\nalloc 2 sprite 16x16 4bpp\nfree 1\nframe\nalloc 3 sprite 8x8 4bpp\n");

	ck_assert_int_eq(cli("cycles %s --strategy gba-obj-compact", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "moves: 1 sprites moved by DMA3 inside VRAM in 1 calls, 32 words"));
	snprintf(dir, sizeof dir, "%s/gba/skew", VS_BINARY_DIR);
	ck_assert_int_eq(setenv("VRAMSIM_GBA_ROM_DIR", dir, 1), 0);
	ck_assert_int_eq(cli("cycles %s --strategy gba-obj-compact", path), 1);
	ck_assert_int_eq(unsetenv("VRAMSIM_GBA_ROM_DIR"), 0);
	ck_assert_msg(strstr(err, "cli-gba-compact.trace:6: error: after the frame (and its 1 moves on the host), "
		"the GBA's sprites sit elsewhere than the host's") != NULL, "%s", err);
	/* and then the next allocation lands elsewhere too */
	ck_assert_msg(strstr(err, "cli-gba-compact.trace:7: error: id 3: the GBA placed it at 0x06010000, "
		"the host at 0x06010080") != NULL, "%s", err);
	/* a request that needs a slide: 16 sprites of 64 tiles fill OBJ VRAM,
	 * two are freed, 128 tiles are asked for; the skewed build spoils a
	 * word of the first sprite it moves, which the GBA finds */
	ck_assert_int_eq(setenv("VRAMSIM_GBA_ROM_DIR", dir, 1), 0);
	ck_assert_int_eq(cli("cycles %s --strategy gba-obj-compact", full_then_slide()), 1);
	ck_assert_int_eq(unsetenv("VRAMSIM_GBA_ROM_DIR"), 0);
	ck_assert_msg(strstr(err, "cli-gba-slide.trace:21: error: after the alloc of id 17, a sprite's bytes in the "
		"GBA's VRAM are not those written before it moved") != NULL, "%s", err);
	ck_assert_int_eq(cli("cycles %s --strategy gba-obj-compact", full_then_slide()), 0);
	ck_assert_msg(strstr(out, "moves: 1 sprites moved by DMA3 inside VRAM in 1 calls, 512 words") != NULL, "%s",
		out);
}
END_TEST

/* Both BG tile managers: hits (shared placements) and loads, tile 0, maps,
 * refusals, all equal on the GBA, hit for hit. */
START_TEST(cycles_bg_strategies_equal_host)
{
	static const char *const strategies[] = { "gba-bg-tiles", "gba-bg-tiles-split" };
	const char *path;
	size_t k;

	path = bg_trace(7, vs_test_soak(6000, 6000)); /* a quarter in the sanitizer tree */
	ck_assert_int_eq(cli("replay %s --strategy gba-bg-tiles", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "shared hits"));
	for (k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
		int rc = cli("cycles %s --strategy %s --code both", path, strategies[k]);

		ck_assert_msg(rc == 0, "%s: exit %d\n%.1500s%.1500s", strategies[k], rc, out, err);
		ck_assert_msg(strstr(out, "placements: the GBA's equal the host replay's") != NULL, "%s", out);
		ck_assert_ptr_nonnull(strstr(out, "allocator code ARM in IWRAM"));
	}
	/* init with new options mid-trace: the GBA re-initialises with them
	 * (the 8bpp tile moves from 0x06007000 to 0x06000400) */
	path = vs_test_file(5, "cli-gba-init.trace", "vramsim-trace 1\narena bg gba-bg strategy=gba-bg-tiles-split\n"
		"alloc 1 tile 5 4bpp\nalloc 2 tile 600 8bpp at=0x06007000\ninit bg bytes4=1024\n"
		"alloc 3 tile 600 8bpp at=0x06000400\nalloc 4 tile 5 4bpp\nreset\nalloc 5 tile 600 8bpp\n");
	ck_assert_int_eq(cli("replay %s --strict", path), 0);
	ck_assert_int_eq(cli("cycles %s --code both", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "placements: the GBA's equal the host replay's (7 calls)"));
	path = bg_trace(7, vs_test_soak(6000, 6000));
	/* a 4bpp region of another size: the parameter reaches the GBA */
	ck_assert_int_eq(cli("cycles %s --strategy gba-bg-tiles-split:bytes4=8K", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "placements: the GBA's equal the host replay's"));
}
END_TEST

START_TEST(record_exit_codes)
{
	char path[1024], *before, *after;
	FILE *fp;
	char head[128] = "";

	snprintf(path, sizeof path, "%s/tests/tmp-cli-record.trace", VS_BINARY_DIR);
	ck_assert_int_eq(cli("record %s/gba/no-such.gba --frames 5 -o %s", VS_BINARY_DIR, path), 2);
	ck_assert_ptr_nonnull(strstr(err, "no-such.gba"));
	/* the demo: a well-formed trace */
	ck_assert_int_eq(cli("record %s --frames 200 -o %s", vs_test_rom("demo.gba"), path), 0);
	ck_assert_msg(strstr(err, "200 frames") != NULL, "%s", err);
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_gt(fread(head, 1, sizeof head - 1, fp), 0);
	fclose(fp);
	ck_assert_int_eq(strncmp(head, "vramsim-trace 1\narena obj gba-obj strategy=gba-obj-map\n", 55), 0);
	ck_assert_int_eq(cli("replay %s", path), 0);
	/* to a FIFO: written through once, never opened again to be checked
	 * (that would wait for a writer forever) */
	{
		char fifo[1100], got[1100], *a, *b;
		pid_t pid;
		int st;
		snprintf(fifo, sizeof fifo, "%s.fifo", path);
		snprintf(got, sizeof got, "%s.got", path);
		remove(fifo);
		ck_assert_int_eq(mkfifo(fifo, 0600), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			alarm(60);
			execl("/bin/sh", "sh", "-c", "cat \"$0\" > \"$1\"", fifo, got, (char *)NULL);
			_exit(127);
		}
		ck_assert_int_eq(cli("record %s --frames 200 -o %s --quiet", vs_test_rom("demo.gba"), fifo), 0);
		ck_assert_msg(err[0] == '\0', "--quiet printed: %s", err);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		a = vs_test_slurp(path);
		b = vs_test_slurp(got);
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		remove(fifo);
		remove(got);
	}
	/* the recorded trace measured on the GBA, BG arena chosen by name */
	ck_assert_int_eq(cli("cycles %s --arena bg", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "arena bg (gba-bg), strategy gba-bg-tiles"));
	ck_assert_ptr_nonnull(strstr(out, "placements: the GBA's equal the host replay's"));
	/* libmgba crashing inside a frame: the guard's last word, exit 2, the
	 * trace from before untouched and no temporary file beside it */
	before = vs_test_slurp(path);
	ck_assert_ptr_nonnull(before);
	vs_test_core_crash(1);
	ck_assert_int_eq(cli("record %s --frames 5 -o %s", vs_test_rom("demo.gba"), path), 2);
	vs_test_core_crash(0);
	ck_assert_msg(strstr(err, "demo.gba: frame 2: libmgba crashed (SIGSEGV): a ROM or savestate it cannot run")
		!= NULL, "%s", err);
	after = vs_test_slurp(path);
	ck_assert_ptr_nonnull(after);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	ck_assert(!vs_test_temporary_left(path));
	ck_assert_int_eq(cli("replay %s", path), 0);
	/* a ROM that prints no trace (the cycles ROM greets, nothing more) */
	ck_assert_int_eq(cli("record %s --frames 3 -o %s --quiet", vs_test_rom("cycles-thumb.gba"), path), 1);
	ck_assert_ptr_nonnull(strstr(err, "printed no trace lines")); /* a failure is said even when quiet */
	remove(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cli_gba");
	TCase *tc = tcase_create("cli_gba");
	TCase *roms = vs_test_tcase_apart(s, "gba_roms",
		vs_test_rom_missing("cycles-thumb.gba", "cycles-arm.gba", "demo.gba", NULL));

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(roms, 120);
	tcase_add_test(tc, help_says_what_this_build_has);
	tcase_add_test(tc, usage_errors);
	tcase_add_test(roms, cycles_errors);
	tcase_add_test(roms, cycles_rom_missing_and_differing);
	tcase_add_test(roms, cycles_obj_strategies_equal_host);
	tcase_add_test(roms, cycles_bg_strategies_equal_host);
	tcase_add_test(roms, cycles_compact_moves_equal_host);
	tcase_add_test(roms, cycles_compact_differing);
	tcase_add_test(roms, record_exit_codes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
