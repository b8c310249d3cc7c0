/* SPDX-License-Identifier: Zlib */
/* viewer.h - the live viewer: the SDL2 window over a recorded timeline of a
 * replay (timeline.h), which seeks through checkpoints.
 */
#ifndef VRAMSIM_VIEWER_H
#define VRAMSIM_VIEWER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/out_file.h"
#include "engine/replay.h"
#include "viewer/timeline.h"

union SDL_Event;

/* Live mode (vramsim play, docs/play.md): a game runs beside the views and
 * the trace grows while the window is open. The timeline follows the trace
 * (vs_timeline_follow); the cursor stays at the newest event while it is
 * there, and can be moved back to look (End follows again). */
typedef struct vs_viewer_live {
	void *ud;
	int screen_w, screen_h;  /* the game's picture, in pixels */
	int scale;               /* drawn at this integer scale (0: the largest up to 4 that fits) */
	/* Before each window frame: runs the game for dt seconds (dt < 0: one
	 * frame, for scripted runs), writing the trace. 0 to go on, 1 when the
	 * game stopped (its last picture stays), -1 on an error (the window
	 * closes; the message is the source's to give). */
	int (*tick)(void *ud, double dt);
	/* The picture: screen_w x screen_h pixels of R, G, B and one unused byte. */
	const uint8_t *(*screen)(void *ud);
	/* An input event offered to the game before the viewer (keys, game
	 * controllers): 1 when the game took it. */
	int (*event)(void *ud, const union SDL_Event *e);
	/* The game's part of the top line (frame, paused, keys, ...). */
	void (*status)(void *ud, char *buf, size_t len);
	/* Optional (NULL): where the picture is drawn, told each time the
	 * window is laid out: its top left corner in window pixels and its
	 * scale (the mouse on the DS touch screen). */
	void (*placed)(void *ud, int x, int y, int scale);
	/* The game's keys for the bottom line (NULL: the GBA's defaults). */
	const char *keys_hint;
} vs_viewer_live;

/* A scripted run's outputs, made together by the caller (docs/viewer.md:
 * a script's screenshots and its log appear together; vramsim play's trace
 * and keys with them). The caller opens its own in f[0 .. n-1] (the log);
 * the viewer writes each screenshot of the script at its frame into the
 * next f[n], finished, and counts it in n; the caller adds what it writes
 * after the window (play's trace and keys), then commits f[0 .. n-1] in
 * one vs_out_commit, or aborts them. On an error (vs_viewer_run returns 2)
 * the viewer's screenshots are gone and n is back to the caller's count.
 * Fixed in memory: out_file.c tracks each open output by its address. */
#define VS_VIEWER_SHOTS_MAX 32
typedef struct vs_viewer_outs {
	vs_out_file f[1 + VS_VIEWER_SHOTS_MAX + 2]; /* the log, the screenshots, play's trace and keys */
	int n;
	int shot_failed; /* the run ended on a screenshot that could not be written */
	int log_failed;  /* the run ended on a write to the log that failed */
} vs_viewer_outs;

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
	/* Timings and script output, opened by the caller (NULL: standard
	 * output). A write to it that fails ends the run (2): the viewer
	 * finishes the log then, while errno still says why (out_file.h). */
	vs_out_file *log;
	vs_viewer_outs *outs;                /* needed with a script: where its screenshots go */
	int no_vsync;
	/* How frames reach the window: 0 auto (the window's own framebuffer,
	 * sending changed rectangles, when the renderer would draw in
	 * software; else an SDL_Renderer texture), 1 texture, 2 framebuffer. */
	int present;
	/* Tests: each frame is also drawn in full and compared with the
	 * incremental one; a difference is logged and makes the run return 1. */
	int check_redraw;
	/* vramsim play: the game beside the views; NULL for a trace on disk.
	 * The trace (above) is the one the game's capture writes as it runs. */
	const vs_viewer_live *live;
	const char *title;                   /* the window title's last part (NULL: "vramsim view") */
	const char *name;                    /* what the trace is called (NULL: its file's name) */
} vs_viewer_opts;

/* 1 with a message in err when there is no display to show the window on
 * and no script to drive it (what vs_viewer_run checks first), else 0. */
int vs_viewer_no_display(const vs_viewer_opts *o, char *err, size_t errlen);

/* Opens the window and runs until closed. Returns 0, 1 when a script
 * `expect` failed, 2 on error (message in err). */
int vs_viewer_run(const vs_viewer_opts *o, char *err, size_t errlen);

#endif
