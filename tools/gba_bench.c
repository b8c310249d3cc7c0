/* SPDX-License-Identifier: Zlib */
/* gba_bench.c - what capture costs over the bare emulation of a GBA game.
 *
 *   build/vs_gba_bench GAME.gba [FRAMES] [ROUNDS]   (default 3600 frames, 3 rounds)
 *
 * The game runs 60 frames to get past its start-up and its state is saved;
 * each phase then starts from that state and runs the same FRAMES frames:
 * `run` as record does (whole frames), `snapshot` as capture steps a frame
 * and takes the hardware state at VBlank, `capture` with the inference too
 * (the trace to a temporary file). Phases alternate ROUNDS times and the
 * least CPU time of each is kept, so that a load shared with other programs
 * weighs on all alike. Prints CPU milliseconds a frame and capture / run. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "console/gba/gba_emu.h"

enum { P_RUN, P_SNAPSHOT, P_CAPTURE, PHASES };

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One phase from the saved state: CPU ms, or -1 on an error (in err). */
static double phase(vs_gba_emu *e, const char *state, int which, uint32_t frames, vs_gba_frame *f, char *err,
	size_t errlen)
{
	vs_capture *c = NULL;
	FILE *out = NULL;
	double t0;
	uint32_t i;

	if (vs_gba_emu_load_state(e, state, err, errlen) < 0)
		return -1;
	if (which == P_CAPTURE && (!(out = tmpfile()) || !(c = vs_capture_new(NULL, out, NULL, err, errlen)))) {
		if (out)
			fclose(out);
		else
			snprintf(err, errlen, "no temporary file");
		return -1;
	}
	t0 = cpu_ms();
	for (i = 0; i < frames; i++) {
		if (which == P_RUN)
			vs_gba_emu_run_frames(e, 1);
		else
			vs_gba_emu_frame_snapshot(e, f);
		if (c)
			vs_capture_frame(c, f);
	}
	if (c)
		vs_capture_finish(c);
	t0 = cpu_ms() - t0;
	vs_capture_free(c);
	if (out)
		fclose(out);
	if (vs_gba_emu_fault(e)) {
		snprintf(err, errlen, "%s", vs_gba_emu_fault(e));
		return -1;
	}
	return t0;
}

int main(int argc, char **argv)
{
	static const char *const names[PHASES] = { "run", "snapshot", "capture" };
	uint32_t frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 3600;
	unsigned rounds = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 3, r, p;
	double best[PHASES], ms;
	char err[1024], state[] = "/tmp/vs_gba_bench_XXXXXX";
	vs_gba_frame *f = malloc(sizeof *f);
	vs_gba_emu *e;
	int fd, rc = 0;

	if (argc < 2 || !frames || !rounds || !f) {
		fprintf(stderr, "usage: vs_gba_bench GAME.gba [FRAMES] [ROUNDS]\n");
		return 2;
	}
	e = vs_gba_emu_open_file(argv[1], err, sizeof err);
	if (!e || (fd = mkstemp(state)) < 0) {
		fprintf(stderr, "vs_gba_bench: %s\n", e ? "no temporary file" : err);
		vs_gba_emu_close(e);
		free(f);
		return 2;
	}
	close(fd);
	vs_gba_emu_run_frames(e, 60);
	if (vs_gba_emu_save_state(e, state, err, sizeof err) < 0)
		goto fail;
	for (p = 0; p < PHASES; p++)
		best[p] = -1;
	for (r = 0; r < rounds; r++)
		for (p = 0; p < PHASES; p++) {
			if ((ms = phase(e, state, (int)p, frames, f, err, sizeof err)) < 0)
				goto fail;
			if (best[p] < 0 || ms < best[p])
				best[p] = ms;
		}
	printf("%s: %u frames, best of %u rounds; CPU ms a frame:", argv[1], (unsigned)frames, rounds);
	for (p = 0; p < PHASES; p++)
		printf(" %s %.4f", names[p], best[p] / frames);
	printf("; snapshot/run %.3f, capture/run %.3f\n", best[P_SNAPSHOT] / best[P_RUN], best[P_CAPTURE] / best[P_RUN]);
	goto done;
fail:
	fprintf(stderr, "vs_gba_bench: %s\n", err);
	rc = 2;
done:
	remove(state);
	vs_gba_emu_close(e);
	free(f);
	return rc;
}
