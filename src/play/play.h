/* SPDX-License-Identifier: Zlib */
/* play.h - a GBA or DS game played live, its session kept as a capture
 * (`vramsim play`, docs/play.md). No window: the window is the viewer's
 * (viewer/viewer.h, live mode), and tests drive a session headless.
 *
 * Each frame runs the game with the keys (and on the DS the stylus) held,
 * hands the frame's snapshot to the console's capture inference
 * (capture/capture.h, capture/capture_ds.h) exactly as `vramsim capture`
 * does, and keeps the input. The capture's trace grows in a temporary file
 * (vs_play_live_path) that the viewer reads in follow mode while the game
 * runs: what it shows at frame N is what capture wrote up to frame N, late
 * by the capture's delay (max(grace, lookback) frames). At the end the
 * session writes the trace that `vramsim capture GAME --frames N --input
 * KEYS [--state FILE]` writes, byte for byte, and KEYS: the input it got.
 */
#ifndef VRAMSIM_PLAY_H
#define VRAMSIM_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/out_file.h"
#include "capture/capture.h"
#include "console/common/input_script.h"

typedef struct vs_play vs_play;
typedef struct vs_play_console vs_play_console;

typedef struct vs_play_opts {
	const char *rom;
	const char *state;            /* savestate to start from (mGBA's, DeSmuME's), or NULL */
	const vs_input_script *input; /* keys played back until taken over, or NULL */
	vs_capture_options capture;   /* as `capture` takes them (the DS: grace and lookback) */
	unsigned audio_rate;          /* sound kept at this many samples a second (0: none; GBA only) */
} vs_play_opts;

/* A frame's input: VS_KEY_* bits and the stylus on the DS touch screen
 * at (x, y) when touch is 1. */
typedef struct vs_play_input {
	uint16_t keys;
	uint8_t touch, x, y;
} vs_play_input;

/* Opens the ROM (and the savestate) on the emulator of its console (a DS
 * ROM by its header: the DS, else the GBA) and starts the capture into a
 * fresh temporary file. NULL with err. */
vs_play *vs_play_open(const vs_play_opts *o, char *err, size_t errlen);
/* Closes everything and removes the temporary file. */
void vs_play_close(vs_play *p);

/* The console: its name ("GBA", "DS"), frames a second, VS_KEY_* bits,
 * whether it has a touch screen. */
const char *vs_play_console_name(const vs_play *p);
double vs_play_fps(const vs_play *p);
uint16_t vs_play_key_mask(const vs_play *p);
int vs_play_has_touch(const vs_play *p);

/* Runs one frame. The input is the input script's while it plays (see
 * vs_play_take_over), else the player's `in` (keys the console lacks and a
 * touch without a touch screen dropped). Returns 0, 1 when the game
 * faulted or stopped in this frame (it is not captured; the session ends
 * there: vs_play_fault says why and at which frame), -1 when the capture
 * could not be written or memory ran out (err). */
int vs_play_frame(vs_play *p, const vs_play_input *in, char *err, size_t errlen);
/* The input the next frame holds when the player gives `in`. */
vs_play_input vs_play_next_input(const vs_play *p, const vs_play_input *in);
/* The player takes over from the input script from the next frame on. */
void vs_play_take_over(vs_play *p);
/* 1 while the input script plays. */
int vs_play_scripted(const vs_play *p);
/* Frames captured so far. */
uint32_t vs_play_frames(const vs_play *p);
/* Why the game stopped, with its frame, or NULL. */
const char *vs_play_fault(const vs_play *p);

/* The growing trace: a file another reader may follow once
 * vs_play_live_ready is 1 (its header and first frame are written). */
const char *vs_play_live_path(const vs_play *p);
int vs_play_live_ready(const vs_play *p);

/* The game's last picture: *w x *h pixels of 4 bytes, R, G, B, unused (the
 * DS: both screens, the top one above the touch screen). */
const uint8_t *vs_play_screen(const vs_play *p, unsigned *w, unsigned *h);

/* Up to max stereo samples of sound (audio_rate) since the last call, left
 * and right interleaved in buf; returns how many (0 without audio_rate, or
 * on the DS, whose sound is not kept). */
size_t vs_play_audio(vs_play *p, int16_t *buf, size_t max);

/* Writes the machine's state as a savestate of its emulator (mGBA's,
 * DeSmuME's: what --state reads), whole or not at all. 0, or -1 with err. */
int vs_play_save_state(vs_play *p, const char *path, char *err, size_t errlen);

/* Ends the capture (no frame runs after it) and writes the trace to
 * trace_path and the keys as an input script to keys_path (either NULL: not
 * written) into out[0] and out[1], in that order, finished but not
 * committed: the caller commits them with its other outputs of the run
 * (vs_out_commit: all or none, base/out_file.h) or aborts them. How many
 * (0 to 2), or -1 with err (none left). */
int vs_play_finish(vs_play *p, const char *trace_path, const char *keys_path, vs_out_file *out, char *err,
	size_t errlen);
/* Without ending the session: the trace and keys of the frames so far, as
 * vs_play_finish would write them now, committed, both or neither; the
 * game goes on. 0, or -1 with err. */
int vs_play_write(vs_play *p, const char *trace_path, const char *keys_path, char *err, size_t errlen);

#endif
