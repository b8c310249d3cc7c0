/* SPDX-License-Identifier: Zlib */
/* ds_bench.c - what a frame of a DS game costs on the DeSmuME libretro
 * core: emulation alone, then with the savestate taken (retro_serialize)
 * and read into a vs_ds_frame as record and capture do, then the reading
 * alone (vs_ds_state_parse of the last state, again and again).
 *
 *   build/vs_ds_bench GAME.nds [FRAMES]      (FRAMES a phase, default 600)
 *
 * The game first runs 60 frames to get past its start-up. CPU time of this
 * process (user + system) per frame, in milliseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console/ds/ds_emu.h"

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	vs_ds_play play;
	vs_ds_emu *e;
	uint32_t frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 600, i, at = 0;
	double t0, run, snap, parse;
	const uint8_t *st;
	vs_ds_frame *f = malloc(sizeof *f);
	vs_ds_state info;
	char err[1024];
	size_t len;

	if (argc < 2 || !frames) {
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
	at = 60;
	t0 = cpu_ms();
	for (i = 0; i < frames; i++)
		vs_ds_emu_run(e);
	run = (cpu_ms() - t0) / frames;
	t0 = cpu_ms();
	for (i = 0; i < frames; i++) {
		vs_ds_emu_run(e);
		if (vs_ds_emu_snapshot(e, at + frames + i, err, sizeof err) < 0) {
			fprintf(stderr, "vs_ds_bench: %s\n", err);
			vs_ds_emu_close(e);
			free(f);
			return 2;
		}
	}
	snap = (cpu_ms() - t0) / frames;
	st = vs_ds_emu_savestate(e, &len);
	t0 = cpu_ms();
	for (i = 0; i < frames && f; i++)
		if (vs_ds_state_parse(st, len, f, &info, err, sizeof err) < 0)
			break;
	parse = (cpu_ms() - t0) / frames;
	printf("%s: %u frames a phase; CPU ms a frame: emulation %.3f (%.0f fps), with serialize and parse %.3f "
		"(%.0f fps); the parse alone %.3f; savestate %zu bytes\n", argv[1], (unsigned)frames, run, 1e3 / run,
		snap, 1e3 / snap, parse, len);
	vs_ds_emu_close(e);
	free(f);
	return 0;
}
