/* SPDX-License-Identifier: Zlib */
/* ds_bench.c - what a frame of a DS game costs on the DeSmuME libretro
 * core, phase by phase, FRAMES frames each (after 60 to get past the
 * game's start-up):
 *  1. emulation alone (retro_run);
 *  2. emulation and the savestate (retro_serialize) walked into a
 *     vs_ds_frame after every frame (the savestate path);
 *  3. emulation and the frame read as record and capture read it: from
 *     the emulator's memory directly, the savestate only on frames whose
 *     3D polygon lists are not empty (the direct path; the search for that
 *     memory, once, is timed apart before it);
 *  4. the savestate path and DS capture's inference on every frame, the
 *     trace going to /dev/null;
 *  5. the direct path and the same: what `vramsim capture GAME.nds` costs
 *     a frame;
 * then, on the last savestate, again and again: the walk alone
 * (vs_ds_state_parse), and one memcpy of the savestate's bytes.
 *
 *   build/vs_ds_bench GAME.nds [FRAMES]      (FRAMES a phase, default 600)
 *
 * CPU time of this process (user + system) per frame, in milliseconds, and
 * capture's cost as a multiple of emulation's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/capture_ds.h"
#include "console/ds/ds_emu.h"

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Phases 2 to 5 from frame `at`: emulation and the frame read (the
 * savestate every frame, or the direct path when direct), and capture when
 * c is not NULL. Returns CPU ms a frame, or a negative number on error. */
static double run_phase(vs_ds_emu *e, int direct, vs_ds_capture *c, uint32_t at, uint32_t frames, char *err,
	size_t errlen)
{
	double t0 = cpu_ms();
	uint32_t i;

	for (i = 0; i < frames; i++) {
		vs_ds_emu_run(e);
		if ((direct ? vs_ds_emu_read(e, at + i, err, errlen) : vs_ds_emu_snapshot(e, at + i, err, errlen)) < 0)
			return -1;
		if (c && vs_ds_capture_frame(c, vs_ds_emu_frame(e)) < 0) {
			snprintf(err, errlen, "capture failed at frame %u", (unsigned)(at + i));
			return -1;
		}
	}
	return (cpu_ms() - t0) / frames;
}

int main(int argc, char **argv)
{
	vs_ds_play play;
	vs_ds_emu *e;
	vs_ds_capture *c = NULL, *c2 = NULL;
	uint32_t frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 600, i;
	double t0, run, snap, search, direct, capture, capture2, parse, copy;
	vs_ds_read_counts n0, n1;
	const uint8_t *st;
	vs_ds_frame *f = malloc(sizeof *f);
	vs_ds_state info;
	char err[1024];
	uint8_t *dst = NULL;
	FILE *null = fopen("/dev/null", "w");
	size_t len;
	int rc = 2;

	if (argc < 2 || !frames || !f || !null) {
		fprintf(stderr, "usage: vs_ds_bench GAME.nds [FRAMES]\n");
		return 2;
	}
	memset(&play, 0, sizeof play);
	e = vs_ds_play_open(argv[1], &play, err, sizeof err);
	if (!e) {
		fprintf(stderr, "vs_ds_bench: %s\n", err);
		return 2;
	}
	for (i = 0; i < 60; i++)
		vs_ds_emu_run(e);
	t0 = cpu_ms();
	for (i = 0; i < frames; i++)
		vs_ds_emu_run(e);
	run = (cpu_ms() - t0) / frames;
	snap = run_phase(e, 0, NULL, 60 + frames, frames, err, sizeof err);
	if (snap < 0)
		goto done;
	/* the first direct read looks for the emulator's memory */
	vs_ds_emu_run(e);
	t0 = cpu_ms();
	if (vs_ds_emu_read(e, 60 + 2 * frames, err, sizeof err) < 0)
		goto done;
	search = cpu_ms() - t0;
	direct = run_phase(e, 1, NULL, 61 + 2 * frames, frames, err, sizeof err);
	if (direct < 0 || !(c = vs_ds_capture_new(NULL, null, NULL, err, sizeof err))
		|| !(c2 = vs_ds_capture_new(NULL, null, NULL, err, sizeof err)))
		goto done;
	capture = run_phase(e, 0, c, 61 + 3 * frames, frames, err, sizeof err);
	n0 = vs_ds_emu_counts(e);
	capture2 = capture < 0 ? -1 : run_phase(e, 1, c2, 61 + 4 * frames, frames, err, sizeof err);
	n1 = vs_ds_emu_counts(e);
	if (capture2 < 0 || vs_ds_capture_finish(c) < 0 || vs_ds_capture_finish(c2) < 0)
		goto done;
	st = vs_ds_emu_savestate(e, &len);
	t0 = cpu_ms();
	for (i = 0; i < frames; i++)
		if (vs_ds_state_parse(st, len, f, &info, err, sizeof err) < 0)
			goto done;
	parse = (cpu_ms() - t0) / frames;
	if (!(dst = malloc(len)))
		goto done;
	t0 = cpu_ms();
	for (i = 0; i < frames; i++) {
		memcpy(dst, st, len);
		__asm__ volatile("" : : "r"(dst) : "memory"); /* the copy is not optimised away */
	}
	copy = (cpu_ms() - t0) / frames;
	printf("%s: %u frames a phase; CPU ms a frame: emulation %.3f (%.0f fps); with the savestate walked %.3f; "
		"read directly %.3f (the search, once: %.1f ms%s%s); capture with the savestate %.3f (%.2fx emulation); "
		"capture read directly %.3f (%.2fx emulation; %llu of %u frames took the savestate); the walk alone "
		"%.3f; one memcpy of the savestate's %zu bytes %.3f\n", argv[1], (unsigned)frames, run, 1e3 / run, snap,
		direct, search, vs_ds_emu_read_note(e) ? "; not found: " : "",
		vs_ds_emu_read_note(e) ? vs_ds_emu_read_note(e) : "", capture, capture / run, capture2, capture2 / run,
		(unsigned long long)(n1.state - n0.state), (unsigned)frames, parse, len, copy);
	rc = 0;
done:
	if (rc)
		fprintf(stderr, "vs_ds_bench: %s\n", err);
	vs_ds_capture_free(c);
	vs_ds_capture_free(c2);
	vs_ds_emu_close(e);
	fclose(null);
	free(dst);
	free(f);
	return rc;
}
