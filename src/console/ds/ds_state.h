/* SPDX-License-Identifier: Zlib */
/* ds_state.h - reads a DeSmuME savestate, as the libretro core's
 * retro_serialize writes it, into a vs_ds_frame and main RAM.
 *
 * Layout (DeSmuME 0.9.11, savestate version 12, uncompressed): a 32-byte
 * header (magic "DeSmuME SState\0", version, emulator version, length,
 * compressed length 0xFFFFFFFF), then chunks {u32 id; u32 size; data}
 * ended by a lone u32 0xFFFFFFFF. Most chunks are tagged: a run of
 * {char tag[4]; u32 elem_size; u32 count; bytes}; the others are raw. What
 * is read, from where: docs/capture.md ("The DS emulator"). Every length
 * is checked against the buffer: a truncated or hostile state is refused
 * with the reason, never read past (tests/fuzz/fuzz_ds_state.c).
 */
#ifndef VRAMSIM_DS_STATE_H
#define VRAMSIM_DS_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "capture/ds_frame.h"

#define VS_DS_MAIN_RAM_BYTES 0x400000u /* 4 MiB at 0x02000000 */
#define VS_DS_MAIN_RAM_BASE 0x02000000u
#define VS_DS_STATE_VERSION 12u
#define VS_DS_STATE_MAX (64u * 1024 * 1024) /* far above any state seen (11.3 MB) */

typedef struct vs_ds_state {
	const uint8_t *main_ram;   /* VS_DS_MAIN_RAM_BYTES inside the buffer */
	const uint8_t *rom_header; /* the 512-byte header of the ROM it was made with */
	uint32_t rom_size;         /* and that ROM's size */
	uint32_t length;           /* bytes of the buffer the state takes */
} vs_ds_state;

/* Walks buf[0..size). Fills f (when not NULL) and st. 0, or -1 with the
 * reason in err ("not a DeSmuME savestate: ...", "truncated: ..."). */
int vs_ds_state_parse(const uint8_t *buf, size_t size, vs_ds_frame *f, vs_ds_state *st, char *err, size_t errlen);

/* The data of tag `tag` (4 characters) of tagged chunk `chunk` when it
 * is exactly `bytes` long; NULL when absent or the state is not one. */
const uint8_t *vs_ds_state_tag(const uint8_t *buf, size_t size, uint32_t chunk, const char *tag, uint32_t bytes);

/* Where the 2D video hardware of a frame is, in a savestate or in the
 * emulator's own memory (ds_direct.h): the ARM9 I/O page (0x2000 bytes),
 * the ARM7 one (0x10000, or NULL: X and Y read as not held), POWCNT1's six
 * flags (one byte each), VCOUNT (u32), OAM, palettes and the banks. */
typedef struct vs_ds_video_src {
	const uint8_t *io9, *io7, *power[6], *vcount, *oam, *palette, *lcdc;
} vs_ds_video_src;

/* Fills every field of f but the 3D ones (the polygon list, DISP3DCNT,
 * TEXIMAGE_PARAM, PLTT_BASE), which it leaves as they are. */
void vs_ds_state_fill_video(const vs_ds_video_src *s, vs_ds_frame *f);

#endif
