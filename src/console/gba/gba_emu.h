/* SPDX-License-Identifier: Zlib */
/* gba_emu.h - runs GBA programs headless inside libmgba.
 *
 * No window, no BIOS file: mGBA boots the cartridge directly. The driver
 * loads a ROM (a file or an image in memory), runs whole frames, reads and
 * writes the emulated bus between frames and hands the lines the program
 * prints through mGBA's debug-log registers to a callback.
 *
 * The code is built only where libmgba is found: into the gba module that
 * vramsim loads for `cycles` and `record`, and into the tests that run the
 * emulator. One emulator runs at a time per thread (libmgba's logger is
 * process-wide while frames run).
 */
#ifndef VRAMSIM_GBA_EMU_H
#define VRAMSIM_GBA_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/capture.h"
#include "console/gba/gba_cycles.h"
#include "console/common/emu_play.h"
#include "console/common/input_script.h"

/* Cycles of one frame (228 lines x 1232) and of VBlank (68 lines). */
#define VS_GBA_FRAME_CYCLES 280896u
#define VS_GBA_VBLANK_CYCLES 83776u

typedef struct vs_gba_emu vs_gba_emu;

/* A line the program printed ("GBA Debug" category). level is mGBA's
 * debug level, 0 fatal .. 4 debug, as the program wrote it. */
typedef void (*vs_gba_log_fn)(void *ud, int level, const char *line);
/* Checked after every frame; non-zero stops vs_gba_emu_run_until. */
typedef int (*vs_gba_stop_fn)(void *ud, vs_gba_emu *e);

/* Opens a ROM file / a copy of a ROM image and resets the machine. NULL
 * with a message in err on failure, among them an image that is not a GBA
 * cartridge (its header lacks the fixed byte 0x96 at 0xB2). */
vs_gba_emu *vs_gba_emu_open_file(const char *path, char *err, size_t errlen);
vs_gba_emu *vs_gba_emu_open_image(const void *rom, size_t size, char *err, size_t errlen);
void vs_gba_emu_close(vs_gba_emu *e);

void vs_gba_emu_set_log(vs_gba_emu *e, vs_gba_log_fn fn, void *ud);

/* Runs n frames. Returns the frames run: fewer when the program faults. */
uint32_t vs_gba_emu_run_frames(vs_gba_emu *e, uint32_t n);
/* Runs frames until stop returns non-zero (checked after each frame) or
 * max_frames have run or the program faults. Returns 1 when stopped by
 * stop, 0 otherwise. */
int vs_gba_emu_run_until(vs_gba_emu *e, vs_gba_stop_fn stop, void *ud, uint32_t max_frames);
/* Frames run since the reset. */
uint32_t vs_gba_emu_frames(const vs_gba_emu *e);

/* The bus as the CPU sees it (side effects of I/O reads included). */
uint32_t vs_gba_emu_read8(vs_gba_emu *e, uint32_t addr);
uint32_t vs_gba_emu_read16(vs_gba_emu *e, uint32_t addr);
uint32_t vs_gba_emu_read32(vs_gba_emu *e, uint32_t addr);
void vs_gba_emu_write8(vs_gba_emu *e, uint32_t addr, uint8_t v);
void vs_gba_emu_write16(vs_gba_emu *e, uint32_t addr, uint16_t v);
void vs_gba_emu_write32(vs_gba_emu *e, uint32_t addr, uint32_t v);
/* Copies len bytes from the bus at addr (word reads where aligned). */
void vs_gba_emu_read(vs_gba_emu *e, uint32_t addr, void *buf, size_t len);

/* ---- playing a game --------------------------------------------------------- */

/* The keys held from the next frame on: VS_KEY_* bits (input_script.h). */
void vs_gba_emu_set_keys(vs_gba_emu *e, uint16_t keys);
/* Loads a savestate file as mGBA writes it (raw or PNG). -1 with err when
 * it is unreadable, not a GBA savestate, or made with another game. */
int vs_gba_emu_load_state(vs_gba_emu *e, const char *path, char *err, size_t errlen);
/* Writes the machine's state as an mGBA savestate file (mGBA opens it).
 * -1 with err on failure. */
int vs_gba_emu_save_state(vs_gba_emu *e, const char *path, char *err, size_t errlen);
/* Sound (vramsim play --audio): from now on each frame's samples are kept,
 * at rate samples a second, instead of dropped; take them with
 * vs_gba_emu_audio after every frame or few. */
void vs_gba_emu_keep_audio(vs_gba_emu *e, unsigned rate);
/* Up to max stereo samples kept so far, left and right interleaved, into
 * buf (2 * max values); returns how many. */
size_t vs_gba_emu_audio(vs_gba_emu *e, int16_t *buf, size_t max);
/* Why the program can no longer run (it jumped outside memory, executed an
 * undefined instruction, turned the console off with the BIOS Stop call),
 * with the frame; NULL while it runs. Once set, no more frames run. */
const char *vs_gba_emu_fault(const vs_gba_emu *e);

/* The cartridge: header title and game code (printable ASCII, NUL-ended;
 * other bytes become '?') and the SHA-256 of the whole image in hex. */
typedef struct vs_gba_rom_info {
	char title[13];
	char code[5];
	char sha256[65];
	int checksum_ok; /* the header's complement byte (0xBD) matches */
} vs_gba_rom_info;
void vs_gba_emu_rom_info(const vs_gba_emu *e, vs_gba_rom_info *info);

/* Runs one frame and takes the video hardware's state at the VBlank that
 * ends it (what was shown during the frame). f->changed_mid_frame is set
 * when DISPCNT, a BGxCNT or OAM changed while the frame's visible lines
 * were drawn. */
void vs_gba_emu_frame_snapshot(vs_gba_emu *e, vs_gba_frame *f);

/* The picture of the last frame run: *w x *h pixels (240 x 160), rows top
 * to bottom, 4 bytes each: red, green, blue and one unused. */
const uint8_t *vs_gba_emu_video(const vs_gba_emu *e, unsigned *w, unsigned *h);


/* Opens rom and prepares it as play says (savestate loaded). NULL with err. */
vs_gba_emu *vs_gba_play_open(const char *rom, const vs_emu_play *play, char *err, size_t errlen);
/* Sets the keys play's script holds on frame (0: the first frame played). */
void vs_gba_play_keys(vs_gba_emu *e, const vs_emu_play *play, uint32_t frame);

/* ---- the "cycles" program (src/console/gba/rom/cycles.c) -------------------------
 * Replays a request list through an allocator built for the ARM7TDMI and
 * returns, per request, the allocator's result and the CPU cycles of the
 * call. Protocol and request encoding: vramsim/gba_cycles.h. */

typedef struct vs_gba_cycles_info {
	uint32_t waitcnt;  /* WAITCNT the program ran with, as read back */
	uint32_t code;     /* VS_GBA_CODE_THUMB_ROM or VS_GBA_CODE_ARM_IWRAM */
	uint32_t overhead; /* cycles of an empty timed call with 2 arguments (subtracted) */
	uint32_t overhead3, overhead4; /* with 3 and 4 arguments: each call has its own subtracted */
	uint32_t frames;   /* frames the run took */
	/* DMA3 as measured at start-up (vs_gba_mailbox): cycles of one transfer
	 * of 8 and 1,024 words, VRAM to VRAM and ROM to VRAM, and the overhead
	 * subtracted from a batch of moves */
	uint32_t dma_vram8, dma_vram1024, dma_rom8, dma_rom1024, move_overhead;
	uint32_t error, error_index; /* VS_GBA_E_* the program stopped with, and at which request */
} vs_gba_cycles_info;

/* Path of the cycles ROM for a code placement, in the first folder named by:
 * $VRAMSIM_GBA_ROM_DIR, vs_gba_set_rom_dir(), the build tree's gba/ folder
 * (for programs linked in the build tree). Returns buf, or NULL when none is
 * (err says so). */
const char *vs_gba_cycles_rom(int code, char *buf, size_t len, char *err, size_t errlen);
/* The folder of the cycles ROMs (the gba module sets the gba/ folder beside
 * itself, where the ROMs are built and installed). NULL or "" forgets it. */
void vs_gba_set_rom_dir(const char *dir);

/* What this build can do on the GBA side, as lines for a command's help:
 * libmgba (always there: this code is built only with it) and where the
 * ROMs are (or why there are none). */
void vs_gba_status(char *buf, size_t len);

/* Runs count requests on the emulated GBA. results gets count entries
 * times VS_GBA_RESULTS_PER_REQ(strategy), in the order the program answers.
 * max_frames 0 picks a limit from the count. Returns 0, or -1 with err. */
int vs_gba_cycles_run(const char *rom_path, uint32_t strategy, const uint32_t param[4],
	const vs_gba_req *reqs, uint32_t count, vs_gba_result *results,
	vs_gba_cycles_info *info, uint32_t max_frames, char *err, size_t errlen);

/* ---- recording (include/vramsim/record.h on the game's side) ----------
 * Lines the game prints through record.h carry the prefix "@vs "; the
 * recorder writes them, without it, to a trace stream. */

typedef struct vs_gba_recorder {
	FILE *out;          /* trace lines go here */
	FILE *other;        /* the game's other debug lines, or NULL to drop them */
	uint64_t lines;     /* trace lines written */
	uint64_t others;    /* other lines seen */
	int write_error;    /* the errno of the first write to out that failed, or 0 */
} vs_gba_recorder;

/* Routes e's debug log into rec (which must outlive the runs). */
void vs_gba_recorder_attach(vs_gba_recorder *rec, vs_gba_emu *e);

/* Plays the ROM file, writing its trace to out. Returns 0, or -1 with err
 * (unreadable ROM or savestate, the program faulted, write error). */
int vs_gba_record(const char *rom, const vs_emu_play *play, FILE *out, FILE *other,
	vs_gba_recorder *rec, char *err, size_t errlen);

/* ---- capture (vramsim/capture.h) ------------------------------------------- */

/* Plays the ROM file and writes the trace capture infers from its frames to
 * out, with the ROM's title, game code, SHA-256 and the options in the
 * header. stats, if not NULL, gets the counts. Returns 0, or -1 with err
 * (unreadable ROM or savestate, the program faulted, write error). */
int vs_gba_capture(const char *rom, const vs_emu_play *play, const vs_capture_options *o, FILE *out,
	vs_capture_stats *stats, char *err, size_t errlen);
/* The header comment vs_gba_capture gives the trace (vs_capture_new's
 * header_comment): the ROM's name, title, game code and SHA-256, and the
 * run's frames, input ranges and savestate as play says. Its last line is
 * the run's ("capture: frames=N ..."). */
void vs_gba_capture_header(vs_gba_emu *e, const char *rom, const vs_emu_play *play, char *buf, size_t len);

#endif
