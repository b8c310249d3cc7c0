/* SPDX-License-Identifier: Zlib */
/* ds_core.h - the DeSmuME libretro core, loaded with dlopen and run headless.
 *
 * Debian's libretro-desmume (DeSmuME 0.9.11 as a libretro core) is loaded
 * at run time, from $VRAMSIM_DESMUME_CORE or the path the build names
 * (cmake/parts/ds.cmake: Debian's multiarch libretro folder), so
 * nothing of it is needed to build. The core keeps the whole machine in
 * global state: one emulator runs per process at a time, and a second open
 * is refused while one is open. Each emulator gets a private temporary
 * directory for the core's save and system files (the core crashes in
 * retro_serialize without one), removed on close. The core prints to
 * standard output on every serialize; its output goes to /dev/null so a
 * trace written to standard output stays clean.
 */
#ifndef VRAMSIM_DS_CORE_H
#define VRAMSIM_DS_CORE_H

#include <stddef.h>
#include <stdint.h>

#define VS_DS_CORE_PACKAGE "libretro-desmume"

typedef struct vs_ds_core vs_ds_core;

/* The core's path: $VRAMSIM_DESMUME_CORE when set, else the default. */
const char *vs_ds_core_path(void);
/* Whether the core can be loaded: 0, or -1 with err naming the package. */
int vs_ds_core_available(char *err, size_t errlen);

/* Loads the core (once per process) and the ROM file, powered on. NULL
 * with err: no core, another emulator open, the core refused the ROM. */
vs_ds_core *vs_ds_core_open(const char *rom_path, char *err, size_t errlen);
void vs_ds_core_close(vs_ds_core *c);

/* What the next frames read: VS_KEY_* bits (input_script.h, x and y
 * included) and the stylus on the touch screen (x 0-255, y 0-191). */
void vs_ds_core_set_input(vs_ds_core *c, uint16_t keys, int touch, unsigned x, unsigned y);
/* The picture (vramsim play): both screens, the top one above, each
 * 256 x 192. Kept from the next frame on once asked for (it costs a
 * conversion a frame); -1 when out of memory. vs_ds_core_video gives
 * *w x *h pixels of R, G, B, unused, or NULL when not kept. */
#define VS_DS_VIDEO_W 256u
#define VS_DS_VIDEO_H 384u
int vs_ds_core_keep_video(vs_ds_core *c);
const uint8_t *vs_ds_core_video(const vs_ds_core *c, unsigned *w, unsigned *h);
/* Runs one frame: retro_run, which returns at the end of VBlank. */
void vs_ds_core_run(vs_ds_core *c);
/* The machine's state as retro_serialize writes it (a DeSmuME savestate);
 * the buffer is the core's until the next call or close. NULL with err. */
const uint8_t *vs_ds_core_serialize(vs_ds_core *c, size_t *size, char *err, size_t errlen);
/* Loads a savestate. -1 with err when the core refuses it. */
int vs_ds_core_unserialize(vs_ds_core *c, const void *data, size_t size, char *err, size_t errlen);

#endif
