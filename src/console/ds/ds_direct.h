/* SPDX-License-Identifier: Zlib */
/* ds_direct.h - the DS video hardware read straight from the emulator's
 * memory, without a savestate.
 *
 * The core is loaded into this process, and DeSmuME keeps the VRAM banks,
 * OAM, palettes and both I/O pages in one global struct (MMU), POWCNT1 and
 * VCOUNT in another (nds), and the 3D polygon lists in one heap block
 * (polylists): all in memory this process can read. The library is
 * stripped, so they are found by their contents: after a savestate, the
 * core's writable mappings (/proc/self/maps) are searched for a window of
 * the state's main RAM and of its `nds` fields, and every block the
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

/* Whether both of DeSmuME's polygon lists are empty: then the savestate's
 * list (the one being built) is empty too, and the frame needs nothing
 * only the savestate holds. */
int vs_ds_direct_lists_empty(const vs_ds_direct *d);

/* Fills f as the savestate would, but for its 3D fields: the polygon list
 * is set empty (call it when vs_ds_direct_lists_empty), DISP3DCNT,
 * TEXIMAGE_PARAM and PLTT_BASE are left as they are. */
void vs_ds_direct_read(const vs_ds_direct *d, vs_ds_frame *f);

/* Main RAM (4 MiB from 0x02000000) as the machine holds it now. */
const uint8_t *vs_ds_direct_main_ram(const vs_ds_direct *d);

#endif
