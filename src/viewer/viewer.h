/* SPDX-License-Identifier: Zlib */
/* viewer.h - the live viewer: the SDL2 window over a recorded timeline of a
 * replay (timeline.h), which seeks through checkpoints.
 */
#ifndef VRAMSIM_VIEWER_H
#define VRAMSIM_VIEWER_H

#include <stdio.h>

#include "engine/replay.h"
#include "viewer/timeline.h"

typedef struct vs_viewer_opts {
	const char *trace;
	int nsides;
	vs_replay_config cfg[VS_VIEW_MAX_SIDES];
	char label[VS_VIEW_MAX_SIDES][160];  /* shown over each side */
	int width, height;                   /* window size (0: 1280x800) */
	/* Scripted input (docs/viewer.md): the whole trace is recorded first,
	 * then the commands run one per frame; the window closes at the end. */
	const char *script;
	const char *shot_dir;                /* screenshot key writes here ("." if NULL) */
	FILE *log;                           /* timings, script output (NULL: stdout) */
	int no_vsync;
	/* How frames reach the window: 0 auto (the window's own framebuffer,
	 * sending changed rectangles, when the renderer would draw in
	 * software; else an SDL_Renderer texture), 1 texture, 2 framebuffer. */
	int present;
	/* Tests: each frame is also drawn in full and compared with the
	 * incremental one; a difference is logged and makes the run return 1. */
	int check_redraw;
} vs_viewer_opts;

/* Opens the window and runs until closed. Returns 0, 1 when a script
 * `expect` failed, 2 on error (message in err). */
int vs_viewer_run(const vs_viewer_opts *o, char *err, size_t errlen);

#endif
