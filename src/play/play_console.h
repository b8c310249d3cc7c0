/* SPDX-License-Identifier: Zlib */
/* play_console.h - what a console gives the play session (play.c): its
 * emulator and its capture behind one table, so the session, its keys,
 * its live trace and the files it writes are one code for the GBA
 * (play_gba.c) and the DS (play_ds.c). Only play/ uses it. */
#ifndef VRAMSIM_PLAY_CONSOLE_H
#define VRAMSIM_PLAY_CONSOLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "console/common/emu_play.h"
#include "play/play.h"

/* A console's emulator and its capture, as one. */
typedef struct play_machine play_machine;

struct vs_play_console {
	const char *name;  /* "GBA", "DS" */
	double fps;        /* the console's frames a second */
	uint16_t keys;     /* the VS_KEY_* bits it has */
	int touch;         /* it has a touch screen */
	const char *state_kind; /* what its savestates are ("an mGBA savestate") */
	/* Starts the emulator from start (its savestate); NULL with err. */
	play_machine *(*open)(const vs_play_opts *o, const vs_emu_play *start, char *err, size_t errlen);
	/* Closes the emulator and the capture. */
	void (*close)(play_machine *m);
	/* The capture's header comment for the run `run` says (its frames,
	 * input ranges and savestate), as `capture` writes it. */
	void (*header)(play_machine *m, const vs_emu_play *run, char *buf, size_t len);
	/* Starts the capture into out. 0, or -1 with err. */
	int (*capture_start)(play_machine *m, FILE *out, const char *header, char *err, size_t errlen);
	/* Runs frame number `frame` with the input and captures it: 0, 1 the
	 * game stopped in it (why in fault: not captured), -1 the capture
	 * could not be written. */
	int (*frame)(play_machine *m, const vs_play_input *in, uint32_t frame, char *fault, size_t len);
	/* The console's capture inference (vs_capture, vs_ds_capture): the
	 * machine's, and copies of it that are finished apart while it goes on. */
	void *(*capture)(play_machine *m);
	/* A copy of c that writes to out from here on; NULL: out of memory. */
	void *(*capture_copy)(const void *c, FILE *out);
	/* Writes c's buffered frames and summary: 0 or -1. */
	int (*capture_finish)(void *c);
	void (*capture_free)(void *c); /* c NULL: nothing */
	const uint8_t *(*video)(const play_machine *m, unsigned *w, unsigned *h);
	/* Sound kept at rate samples a second: the same as play.h's; NULL: none. */
	size_t (*audio)(play_machine *m, int16_t *buf, size_t max);
	/* Whether there is a state to save yet: 0, or -1 with err (NULL: always). */
	int (*state_ready)(play_machine *m, char *err, size_t errlen);
	/* Writes the machine's state as a savestate into fp, open on the file
	 * named `name` (libmgba writes by name): 0, or -1 with err. */
	int (*write_state)(play_machine *m, FILE *fp, const char *name, char *err, size_t errlen);
};

extern const vs_play_console vs_play_gba;
extern const vs_play_console vs_play_ds;

#endif
