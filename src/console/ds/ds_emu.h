/* SPDX-License-Identifier: Zlib */
/* ds_emu.h - plays a Nintendo DS game headless for `record` and `capture`.
 *
 * On top of ds_core.h (the DeSmuME libretro core, one per process): the
 * ROM is checked before the emulator starts (ds_rom.h), a savestate may be
 * loaded first, each frame gets the keys and touch of an input script, and
 * after each frame the video hardware is read into a vs_ds_frame and main
 * RAM: straight from the emulator's memory (ds_direct.h), from its
 * savestate (ds_state.h) on the few frames that memory cannot tell (see
 * vs_ds_direct_read) and on every frame when it was not found
 * (docs/capture.md). A program that stops (it quit, or turned the
 * console off: the frame no longer ends at VCOUNT 262) ends the run with an
 * error naming the frame. This is what the DS capture feeder builds on.
 */
#ifndef VRAMSIM_DS_EMU_H
#define VRAMSIM_DS_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/capture_ds.h"
#include "capture/ds_frame.h"
#include "console/common/emu_play.h"
#include "console/common/input_script.h"
#include "console/ds/ds_rom.h"
#include "console/ds/ds_state.h"

#define VS_DS_VCOUNT_END 262u /* where every frame of a running program ends */

typedef struct vs_ds_emu vs_ds_emu;


/* Checks the ROM, starts the emulator and loads play->state. NULL with
 * err: not a DS ROM (the reason), no emulator core (names the package),
 * another emulator open in this process, a savestate that is not one, is
 * truncated, or was made with another ROM. */
vs_ds_emu *vs_ds_play_open(const char *rom, const vs_emu_play *play, char *err, size_t errlen);
void vs_ds_emu_close(vs_ds_emu *e);

/* Plays frame number `frame` (0: the first): sets its keys and touch, runs
 * it and reads the state (vs_ds_emu_read). 0, or -1 with err ("frame N:
 * ..."): the program stopped, the state could not be read. */
int vs_ds_play_frame(vs_ds_emu *e, const vs_emu_play *play, uint32_t frame, char *err, size_t errlen);

/* The last frame read, main RAM (VS_DS_MAIN_RAM_BYTES from 0x02000000) at
 * its end, and the ROM. Valid until the next frame or close. Main RAM read
 * straight from the machine shows a vs_ds_emu_write_main_ram at once.
 * On a frame read without the savestate the polygon list is empty and
 * DISP3DCNT, TEXIMAGE_PARAM and PLTT_BASE are the last savestate's. */
const vs_ds_frame *vs_ds_emu_frame(const vs_ds_emu *e);
const uint8_t *vs_ds_emu_main_ram(const vs_ds_emu *e);
const vs_ds_rom_info *vs_ds_emu_rom(const vs_ds_emu *e);
/* The savestate of the machine now, as retro_serialize wrote it (a file
 * of it is a --state), and its length: the last frame's, or taken now when
 * that frame was read without one. NULL when no frame has run or the core
 * cannot save. */
const uint8_t *vs_ds_emu_savestate(vs_ds_emu *e, size_t *len);

/* The picture of the frames run from now on (vramsim play): both screens,
 * the top one above, *w x *h (256 x 384) pixels of R, G, B, unused. Keep
 * returns -1 when out of memory; video NULL before keep. */
int vs_ds_emu_keep_video(vs_ds_emu *e);
const uint8_t *vs_ds_emu_video(const vs_ds_emu *e, unsigned *w, unsigned *h);

/* Writes len bytes into main RAM at addr (0x02000000 + offset) of the
 * machine, between frames: the savestate last read (vs_ds_emu_snapshot)
 * with those bytes changed, loaded back. What vs_ds_emu_main_ram shows
 * stays as read until the next frame. 0, or -1 with err (no frame read
 * yet, outside main RAM, the core refused the state). */
int vs_ds_emu_write_main_ram(vs_ds_emu *e, uint32_t addr, const void *data, size_t len, char *err, size_t errlen);

/* The steps of vs_ds_play_frame, apart (to measure them): the input of a
 * frame, one frame of emulation alone, and the state read after it: read
 * takes the emulator's memory directly when it can and the savestate when
 * it must; snapshot takes the savestate always. After the first savestate
 * read looks for the emulator's memory, unless VRAMSIM_DS_READ is
 * "savestate" (the savestate every frame) or "miss" (the search made to
 * fail): test hooks. */
void vs_ds_emu_input(vs_ds_emu *e, const vs_emu_play *play, uint32_t frame);
void vs_ds_emu_run(vs_ds_emu *e);
int vs_ds_emu_read(vs_ds_emu *e, uint32_t frame, char *err, size_t errlen);
int vs_ds_emu_snapshot(vs_ds_emu *e, uint32_t frame, char *err, size_t errlen);

/* Frames read each way so far. */
typedef struct vs_ds_read_counts {
	uint64_t direct, state;
} vs_ds_read_counts;
vs_ds_read_counts vs_ds_emu_counts(const vs_ds_emu *e);
/* After the first frame: NULL when the emulator's memory is read
 * directly, else why not (the savestate is read every frame). */
const char *vs_ds_emu_read_note(const vs_ds_emu *e);
/* The same of the last emulator closed in this process that ran a frame
 * (what `vramsim capture` reports after vs_ds_emu_capture). */
const char *vs_ds_emu_last_note(void);
/* Compares what is read directly with a savestate taken now, byte for
 * byte (tests). 0, or -1 with err (also when nothing is read directly). */
int vs_ds_emu_direct_check(vs_ds_emu *e, char *err, size_t errlen);

/* ---- record (include/vramsim/record.h's DS ring, ds_ring.h) ---------------- */

typedef struct vs_ds_recorder {
	uint64_t lines, bytes; /* trace lines and bytes written */
	uint32_t ring;         /* where the ring was found; 0 if never */
	uint32_t ring_frame;   /* the frame it was found after */
	size_t partial;        /* bytes of a last line left without '\n' (not written) */
} vs_ds_recorder;

/* Plays the ROM and writes the trace lines its ring carries to out.
 * Returns 0, or -1 with err (unreadable ROM or savestate, the program
 * stopped, the ring overflowed or broke, write error). */
int vs_ds_record(const char *rom, const vs_emu_play *play, FILE *out, vs_ds_recorder *rec, char *err,
	size_t errlen);

/* ---- capture (capture/capture_ds.h) ------------------------------------------ */

/* Plays the ROM and writes the trace DS capture infers from its frames to
 * out, the ROM's title, game code and SHA-256 and the summary at its top;
 * the counts in stats when not NULL. Returns 0, or -1 with err (unreadable
 * ROM or savestate, the program stopped, write error). */
int vs_ds_emu_capture(const char *rom, const vs_emu_play *play, const vs_ds_capture_options *o, FILE *out,
	vs_ds_capture_stats *stats, char *err, size_t errlen);
/* The comment vs_ds_emu_capture puts at the top of the trace of a run of
 * the ROM (its path, its header's info), its last line the run line
 * "capture: frames=N[ input=K ranges][ state=FILE]"; vramsim play writes
 * the same. */
void vs_ds_capture_header(const vs_ds_rom_info *info, const char *rom, const vs_emu_play *play, char *buf,
	size_t len);

#endif
