/* SPDX-License-Identifier: Zlib */
/* emu_play.h - how `record`, `capture` and `play` run a game headless, the
 * same on both consoles: how many frames, the input script, the savestate
 * to start from and a progress callback. Each console's driver takes it
 * (vs_gba_play_open, vs_ds_play_open). */
#ifndef VRAMSIM_EMU_PLAY_H
#define VRAMSIM_EMU_PLAY_H

#include <stdint.h>

#include "console/common/input_script.h"

typedef struct vs_emu_play {
	uint32_t frames;              /* frames to run */
	const vs_input_script *input; /* keys (and on the DS touch) per frame, or NULL for none */
	const char *state;            /* the emulator's savestate to start from, or NULL for power-on */
	/* Optional (NULL): called now and then with the frames played so far. */
	void (*progress)(void *ud, uint32_t done, uint32_t frames);
	void *progress_ud;
} vs_emu_play;

/* Where `record` keeps the lines a game sends until they are checked and
 * copied to the output: an unnamed file tmpfile() makes in /tmp, whatever
 * TMPDIR says. Its name in messages. */
#define VS_RECORD_SPOOL "the recording's unnamed temporary file (tmpfile(), /tmp)"

#endif
