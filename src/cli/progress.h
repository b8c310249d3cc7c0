/* SPDX-License-Identifier: Zlib */
/* progress.h - progress on standard error for the vramsim sub-commands
 * (progress.c): shown only when it is a terminal, not quiet, and the work
 * has run for a second. */
#ifndef VS_CLI_PROGRESS_H
#define VS_CLI_PROGRESS_H

#include <stdint.h>

#include "engine/replay.h"

typedef struct vs_progress {
	int on, shown, runs; /* runs: done and total count units (replays, frames), not trace bytes */
	const char *what, *unit;
	double start, last;
} vs_progress;
void vs_progress_start(vs_progress *p, const char *what, int quiet);
/* done of total (bytes, or 0 when unknown) and events so far; cheap to call often. */
void vs_progress_update(vs_progress *p, uint64_t done, uint64_t total, uint64_t events);
void vs_progress_end(vs_progress *p);

/* An emulator's run (record, capture): counts frames. vs_progress_start_frames
 * starts p; vs_progress_frames is the callback a play description takes, with
 * p as its data. */
void vs_progress_start_frames(vs_progress *p, const char *what, int quiet);
void vs_progress_frames(void *p, uint32_t done, uint32_t frames);

/* vs_replay_run with a progress line (what: the command's name). */
int vs_progress_replay(vs_replay *r, uint64_t until, const char *what, int quiet);

#endif
