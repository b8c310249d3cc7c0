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

#include "play/play.h"

/* A console's emulator and its capture, as one. */
typedef struct play_machine play_machine;

struct vs_play_console {
	const char *name;  /* "GBA", "DS" */
	double fps;        /* the console's frames a second */
	uint16_t keys;     /* the VS_KEY_* bits it has */
	int touch;         /* it has a touch screen */
	const char *state_kind; /* what its savestates are ("an mGBA savestate") */
	/* Starts the emulator (and o->state); NULL with err. */
	play_machine *(*open)(const vs_play_opts *o, char *err, size_t errlen);
	/* Closes the emulator and the capture. */
	void (*close)(play_machine *m);
	/* The capture's header comment for a run of `frames` frames with
	 * `nranges` input ranges, as `capture` writes it. */
	void (*header)(play_machine *m, uint32_t frames, size_t nranges, char *buf, size_t len);
	/* Starts the capture into out. 0, or -1 with err. */
	int (*capture_start)(play_machine *m, FILE *out, const char *header, char *err, size_t errlen);
	/* Runs frame number `frame` with the input and captures it: 0, 1 the
	 * game stopped in it (why in fault: not captured), -1 the capture
	 * could not be written. */
	int (*frame)(play_machine *m, const vs_play_input *in, uint32_t frame, char *fault, size_t len);
	/* Writes the capture's buffered frames and summary: 0 or -1. */
	int (*capture_finish)(play_machine *m);
	/* Writes to out what finishing now would write, the capture going on
	 * (a copy of it finished): 0, or -1 with err. */
	int (*capture_finish_copy)(play_machine *m, FILE *out, char *err, size_t errlen);
	const uint8_t *(*video)(const play_machine *m, unsigned *w, unsigned *h);
	/* Sound kept at rate samples a second: the same as play.h's; NULL: none. */
	size_t (*audio)(play_machine *m, int16_t *buf, size_t max);
	/* Writes the machine's state as a savestate to path, whole or not at all. */
	int (*save_state)(play_machine *m, const char *path, char *err, size_t errlen);
};

extern const vs_play_console vs_play_gba;
extern const vs_play_console vs_play_ds;

#endif
