/* SPDX-License-Identifier: Zlib */
/* ds_bench.c - what a frame of a DS game costs on the DeSmuME libretro
 * core, phase by phase. Each phase boots the ROM afresh, runs 60 frames to
 * get past its start-up, then times FRAMES frames: the same frames each
 * time (the emulation is deterministic), so the phases compare.
 *  1. emulation alone (retro_run);
 *  2. emulation and the savestate (retro_serialize) walked into a
 *     vs_ds_frame after every frame: the savestate path;
 *  3. emulation and the frame read as record and capture read it: from
 *     the emulator's memory directly, the savestate only on frames that
 *     memory cannot tell (vs_ds_direct_read): the direct path (the search for that
 *     memory, once, at the end of the start-up, is timed apart);
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

enum { EMULATION, SAVESTATE, DIRECT };

typedef struct phase_out {
	double ms;              /* CPU ms a frame */
	double search;          /* the search's CPU ms (DIRECT) */
	uint64_t state_frames;  /* of the timed frames, those that took the savestate */
	char note[300];         /* why the memory was not found (DIRECT), or "" */
} phase_out;

/* One phase: the ROM booted, 60 frames, then `frames` frames read `how`,
 * captured when capture is set. 0, or -1 with err. */
static int run_phase(const char *rom, int how, int capture, uint32_t frames, phase_out *po, char *err,
	size_t errlen)
{
	vs_emu_play play;
	vs_ds_emu *e;
	vs_ds_capture *c = NULL;
	FILE *null = fopen("/dev/null", "w");
	vs_ds_read_counts n0;
	double t0;
	uint32_t i;
	int rc = -1;

	memset(&play, 0, sizeof play);
	memset(po, 0, sizeof *po);
	if (!null || !(e = vs_ds_play_open(rom, &play, err, errlen))) {
		if (null)
			fclose(null);
		return -1;
	}
	for (i = 0; i + 1 < 60; i++)
		vs_ds_emu_run(e);
	vs_ds_emu_run(e);
	t0 = cpu_ms();
	/* the first read of the direct path looks for the emulator's memory */
	if (how == DIRECT && vs_ds_emu_read(e, 59, err, errlen) < 0)
		goto done;
	po->search = cpu_ms() - t0;
	if (how == DIRECT && vs_ds_emu_read_note(e))
		snprintf(po->note, sizeof po->note, "%s", vs_ds_emu_read_note(e));
	if (capture && !(c = vs_ds_capture_new(NULL, null, NULL, err, errlen)))
		goto done;
	n0 = vs_ds_emu_counts(e);
	t0 = cpu_ms();
	for (i = 0; i < frames; i++) {
		vs_ds_emu_run(e);
		if (how == SAVESTATE && vs_ds_emu_snapshot(e, 60 + i, err, errlen) < 0)
			goto done;
		if (how == DIRECT && vs_ds_emu_read(e, 60 + i, err, errlen) < 0)
			goto done;
		if (c && vs_ds_capture_frame(c, vs_ds_emu_frame(e)) < 0) {
			snprintf(err, errlen, "capture failed at frame %u", (unsigned)(60 + i));
			goto done;
		}
	}
	po->ms = (cpu_ms() - t0) / frames;
	po->state_frames = vs_ds_emu_counts(e).state - n0.state;
	if (c && vs_ds_capture_finish(c) < 0)
		snprintf(err, errlen, "capture failed at its end");
	else
		rc = 0;
done:
	vs_ds_capture_free(c);
	vs_ds_emu_close(e);
	fclose(null);
	return rc;
}

int main(int argc, char **argv)
{
	uint32_t frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 600, i;
	phase_out run, snap, direct, capture, capture2;
	double t0, parse, copy;
	const uint8_t *st;
	vs_ds_frame *f = malloc(sizeof *f);
	vs_ds_state info;
	vs_emu_play play;
	vs_ds_emu *e = NULL;
	char err[1024];
	uint8_t *dst = NULL;
	size_t len;
	int rc = 2;

	if (argc < 2 || !frames || !f) {
		fprintf(stderr, "usage: vs_ds_bench GAME.nds [FRAMES]\n");
		return 2;
	}
	if (run_phase(argv[1], EMULATION, 0, frames, &run, err, sizeof err) < 0
		|| run_phase(argv[1], SAVESTATE, 0, frames, &snap, err, sizeof err) < 0
		|| run_phase(argv[1], DIRECT, 0, frames, &direct, err, sizeof err) < 0
		|| run_phase(argv[1], SAVESTATE, 1, frames, &capture, err, sizeof err) < 0
		|| run_phase(argv[1], DIRECT, 1, frames, &capture2, err, sizeof err) < 0)
		goto done;
	/* the walk and the copy, on a savestate of the ROM */
	memset(&play, 0, sizeof play);
	if (!(e = vs_ds_play_open(argv[1], &play, err, sizeof err)))
		goto done;
	for (i = 0; i < 60; i++)
		vs_ds_emu_run(e);
	if (vs_ds_emu_snapshot(e, 59, err, sizeof err) < 0)
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
	printf("%s: frames 60-%u; CPU ms a frame: emulation %.3f (%.0f fps); with the savestate walked %.3f; read "
		"directly %.3f (the search, once: %.1f ms%s%s); capture with the savestate %.3f (%.2fx emulation); "
		"capture read directly %.3f (%.2fx emulation; %llu of %u frames took the savestate); the walk alone "
		"%.3f; one memcpy of the savestate's %zu bytes %.3f\n", argv[1], (unsigned)(59 + frames), run.ms,
		1e3 / run.ms, snap.ms, direct.ms, direct.search, direct.note[0] ? "; not found: " : "", direct.note,
		capture.ms, capture.ms / run.ms, capture2.ms, capture2.ms / run.ms,
		(unsigned long long)capture2.state_frames, (unsigned)frames, parse, len, copy);
	rc = 0;
done:
	if (rc)
		fprintf(stderr, "vs_ds_bench: %s\n", err);
	vs_ds_emu_close(e);
	free(dst);
	free(f);
	return rc;
}
