/* SPDX-License-Identifier: Zlib */
/* ds_direct.h - the DS video hardware read straight from the emulator's
 * memory, without a savestate.
 *
 * The core is loaded into this process, and DeSmuME keeps the VRAM banks,
 * OAM, palettes, both I/O pages and DISP3DCNT in one global struct (MMU), POWCNT1 and
 * VCOUNT in another (nds), and the 3D polygon lists in one heap block
 * (polylists): all in memory this process can read. The library is
 * stripped, so they are found by their contents: after a savestate, the
 * core's writable mappings (/proc/self/maps) are searched for a window of
 * the state's main RAM, of its `nds` fields and of the last texture
 * parameters given (gfx3d.cpp's statics), and every block the
 * layouts below derive from them is compared byte for byte with the
 * savestate. The layouts are DeSmuME's (desmume/src/MMU.h, NDSSystem.h,
 * gfx3d.h, libretro/desmume2015 at 2fb4b68); the lists' block is sized by
 * glibc's malloc or AddressSanitizer's. Another build of the core or
 * another C library does not match, and the caller keeps to the savestate.
 */
#ifndef VRAMSIM_DS_DIRECT_H
#define VRAMSIM_DS_DIRECT_H

#include <stddef.h>
#include <stdint.h>

#include "capture/ds_frame.h"

typedef struct vs_ds_direct vs_ds_direct;

/* Finds the blocks from a savestate the core wrote just now (nothing run
 * since). NULL with the reason in why when any does not match or
 * memory runs out. `miss` makes the search fail on purpose (a test hook:
 * it looks for bytes that are not there). */
vs_ds_direct *vs_ds_direct_find(const uint8_t *state, size_t len, int miss, char *why, size_t whylen);
void vs_ds_direct_free(vs_ds_direct *d);

/* Compares every located block with a savestate taken at the same moment.
 * 0, or -1 with what differs in why. */
int vs_ds_direct_check(const vs_ds_direct *d, const uint8_t *state, size_t len, char *why, size_t whylen);

/* Fills f as the savestate would: 1. 0 when this frame needs the
 * savestate: it draws (its polygon lists are not empty) and either which
 * of the two lists the savestate saves cannot be told yet (they differ,
 * and more than one of the core's words may be `polylist`) or the words
 * that hold the last TEXIMAGE_PARAM and PLTT_BASE were not found. On a
 * frame with empty lists and those words not found, f's TEXIMAGE_PARAM
 * and PLTT_BASE are left as they are. */
int vs_ds_direct_read(const vs_ds_direct *d, vs_ds_frame *f);

/* After a frame read from the savestate (f, from state): what it tells
 * of which list is `polylist`, and another search for the texture words
 * when they were not found (a few times at most). */
void vs_ds_direct_learn(vs_ds_direct *d, const uint8_t *state, size_t len, const vs_ds_frame *f);

/* Main RAM (4 MiB from 0x02000000) as the machine holds it now. */
const uint8_t *vs_ds_direct_main_ram(const vs_ds_direct *d);

#endif
