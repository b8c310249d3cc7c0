/* SPDX-License-Identifier: Zlib */
/* support.h - shared helpers for the check-based suites. */
#ifndef VS_TEST_SUPPORT_H
#define VS_TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/capture.h"
#include "engine/replay.h"
#include "render/image.h"

/* Runs a suite, prints check's summary, returns the process exit code:
 * failure if a case failed, else VS_TEST_SKIP if a case it was asked to run
 * cannot run here (vs_test_tcase_apart), else success. */
int vs_test_main(Suite *s);

/* ---- what a suite needs ------------------------------------------------
 * A test that cannot run here is reported by ctest as skipped, never as
 * passed: every suite's test has SKIP_RETURN_CODE 77 (tests/CMakeLists.txt).
 * A "missing" argument is NULL when the thing is there, else a message
 * saying what is missing and how to get it. */
#define VS_TEST_SKIP 77

/* For a suite whose every case needs something: called first in main,
 * prints "skipped: missing" and exits VS_TEST_SKIP when missing is set. */
void vs_test_require(const char *missing);

/* A TCase that ctest runs as a test of its own, SUITE.NAME, while the
 * suite's own test runs the rest: for the cases that need something the
 * others do not (then that test skips when missing is set), or that take
 * long enough to want their own timeout (missing NULL). It is added to s
 * and tagged with its name, a string literal: tests/CMakeLists.txt reads it
 * from the source. */
TCase *vs_test_tcase_apart(Suite *s, const char *name, const char *missing);

/* NULL when the build tree has each GBA ROM named (gba/NAME, or in
 * $VRAMSIM_GBA_ROM_DIR when set; the list ends with NULL), else what is
 * missing. */
const char *vs_test_rom_missing(const char *name, ...) __attribute__((sentinel));
/* Where GBA ROM `name` is (as vs_test_rom_missing looks; static storage,
 * valid until the next call). */
const char *vs_test_rom(const char *name);

/* A folder of ../shared/workloads (beside the checkout; $VRAMSIM_WORKLOADS_DIR
 * when set), and NULL when it is there, else what is missing. */
const char *vs_test_workloads(const char *set);
const char *vs_test_workloads_missing(const char *set);

/* The full path of program name found on $PATH, or NULL (static storage). */
const char *vs_test_program(const char *name);

/* Writes text to a fresh file under the build tree and returns its path
 * (static storage, valid until the next call with the same slot 0-7). */
const char *vs_test_file(int slot, const char *name, const char *text);

/* A path in the build tree's tests/ folder, its name formatted as printf
 * does after "tmp-RUN-PID-" (RUN: the suite's process, PID: the case's):
 * one suite's cases may run in two ctest tests at once
 * (vs_test_tcase_apart), and a case check forks starts with none of them.
 * vs_test_main removes the run's when every case has passed, and keeps
 * them (saying so) when one failed. Static storage: eight slots, reused
 * in turn. */
const char *vs_test_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 when something is at path: a file, a folder, a link (even dangling). */
int vs_test_exists(const char *path);

/* 1 when a temporary file of path's (PATH.tmp-PID, as an output is written
 * before it takes its name) is left in path's folder. */
int vs_test_temporary_left(const char *path);

/* Runs the vramsim executable with arguments (a shell-quoted string, which
 * may end in redirections of its own: `>&-` closes standard output);
 * captures stdout and stderr (each truncated to cap bytes) and returns the
 * exit status, or -1 if it did not exit normally. */
int vs_test_run_cli(const char *args, char *out, size_t outcap, char *err, size_t errcap);
/* The same with the arguments formatted as printf does. A suite calls it
 * through its own cli(): #define cli(...) vs_test_cli(out, sizeof out, err,
 * sizeof err, __VA_ARGS__), with out and err the suite's arrays. */
int vs_test_cli(char *out, size_t outcap, char *err, size_t errcap, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Runs the vramsim executable with arguments formatted as printf does,
 * under a file size limit of blocks (of 512 bytes: `ulimit -f`), standing
 * for a disk that fills: writes past it fail with EFBIG. Its standard
 * error in err (cut to errcap), its output dropped; returns its exit
 * status. */
int vs_test_cli_limited(unsigned blocks, char *err, size_t errcap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* 1 when the file at path holds exactly text (an old output kept). */
int vs_test_holds(const char *path, const char *text);

/* How many times needle is in text (not overlapping), and how many of
 * text's lines begin with prefix. */
int vs_test_count(const char *text, const char *needle);
int vs_test_count_lines(const char *text, const char *prefix);

/* A growing text buffer, for traces a test generates: vs_test_put appends
 * as printf does; s is NUL-ended (free it). */
typedef struct vs_test_text {
	char *s;
	size_t len, cap;
} vs_test_text;
void vs_test_put(vs_test_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Deterministic random numbers for long randomised sequences. */
typedef struct vs_rng { uint64_t s; } vs_rng;
uint32_t vs_rng_next(vs_rng *r);
uint32_t vs_rng_below(vs_rng *r, uint32_t n);

/* check's ck_assert reports every passing check to the parent (a message
 * written and read back); in loops over tiles, blocks and units that is
 * most of a suite's time, so hot loops check first and report failures only. */
#define HOT_ASSERT(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)
#define HOT_CMP(X, OP, Y) do { intmax_t hot_x = (intmax_t)(X), hot_y = (intmax_t)(Y); \
	HOT_ASSERT(hot_x OP hot_y, "Assertion '%s' failed: %s == %jd, %s == %jd", #X " " #OP " " #Y, #X, hot_x, #Y, \
		hot_y); } while (0)

/* normal, or longer when VRAMSIM_SOAK is set (the soak target); a quarter
 * of normal (at least 1) in a sanitizer build. */
unsigned vs_test_soak(unsigned normal, unsigned longer);
/* With on, the vramsim runs that follow crash inside the emulator core's
 * call of frame 2 (emu_guard.h's test hook), AddressSanitizer leaving the
 * fault to the guard; with 0, back as before. */
void vs_test_core_crash(int on);

/* A file's whole content, NUL-ended (free it). */
char *vs_test_slurp(const char *path);
/* A stream's whole content from its start (flushed first), NUL-ended (free
 * it); len, when not NULL, gets its length. */
char *vs_test_slurp_stream(FILE *fp, size_t *len);
/* The PNG at path, read whole (the case fails when it cannot be); the
 * caller frees its pixels. */
vs_image vs_test_png(const char *path);

/* Reads trace text and writes it back in canonical form into buf (NUL-ended,
 * cut at cap); a trace the reader refuses fails the test. */
void vs_test_reformat(const char *text, char *buf, size_t cap);

/* Replays a trace (the file at name, or the stream in when not NULL) with
 * `recorded` on every arena: it must run to the end with no integrity
 * error. Returns the replay for further checks (vs_replay_free it). */
vs_replay *vs_test_replay_recorded(const char *name, FILE *in);

/* A replay over trace text held in a string, its messages collected. */
typedef struct vs_test_replay {
	vs_replay *r;
	FILE *in;
	char msgs[8192]; /* every message line, each ending in '\n' (cut at the size) */
	size_t mlen;
	int rc;          /* free for the suite: a run's result */
} vs_test_replay;

/* Opens text as trace `name` and sets up a replay with cfg (its message
 * callback is set to collect into x->msgs). Returns x->r, or NULL with err
 * when vs_replay_new refuses; a trace the reader refuses fails the test. */
vs_replay *vs_test_replay_open(vs_test_replay *x, const char *text, const char *name, vs_replay_config *cfg,
	char *err, size_t errlen);
void vs_test_replay_close(vs_test_replay *x);

/* Replays text (trace "b.trace") with strategy and its options on the first
 * arena, whole, into x; a reader or replay error or an integrity failure
 * fails the test. Returns x->r (close x after). */
vs_replay *vs_test_replay_run(vs_test_replay *x, const char *strategy, const char *text, const char *options);

/* The arena a live allocation is in, or -1 when id is not live. */
int vs_test_arena_of(vs_replay *r, uint64_t id);
/* Its offset in the arena, or -1 when it is not live (or only retained,
 * its strategy keeping the bytes after the trace freed it). */
long vs_test_offset_of(vs_replay *r, uint64_t id);

/* Requests as the trace reader makes them, size derived from the shape: a
 * GBA sprite (OAM shape 0-2, size field 0-3), a BG tile reference (ROM
 * index), a BG map (size field 0-3), a DS texture, a DS palette. */
vs_request vs_test_sprite_rq(unsigned shape, unsigned size, unsigned bpp);
vs_request vs_test_tile_rq(uint32_t rom, unsigned bpp);
vs_request vs_test_map_rq(unsigned affine, unsigned size);
vs_request vs_test_tex_rq(unsigned format, unsigned width, unsigned height);
vs_request vs_test_pltt_rq(unsigned colours, int four);

/* Synthetic VBlank snapshots for capture: a frame with DISPCNT set and all
 * 128 OAM entries hidden (calloc'd: free it); a little-endian halfword; OAM
 * entry i as a sprite of shape (0 square, 1 wide, 2 tall) and size 0-3 on
 * tile at (x, y), attr0 flags or'ed in; OAM entry i hidden. */
vs_gba_frame *vs_test_frame_new(unsigned dispcnt);
void vs_test_put16(uint8_t *p, unsigned v);
void vs_test_oam_obj(vs_gba_frame *f, unsigned i, unsigned tile, unsigned shape, unsigned size, unsigned flags,
	unsigned x, unsigned y);
void vs_test_oam_hide(vs_gba_frame *f, unsigned i);

#endif
