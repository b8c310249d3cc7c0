/* SPDX-License-Identifier: Zlib */
/* hw_gba.h - GBA placement rules that need more than a request carries.
 *
 * vs_request says which ROM tile and depth a BG tile is, but not which
 * background (charblock, text or affine) will draw it. These functions take
 * that context explicitly; vs_hw_gba_bg_check passes the request's cb= and
 * affine flag, and the most favourable charblock when the trace gives none.
 */
#ifndef VRAMSIM_HW_GBA_H
#define VRAMSIM_HW_GBA_H

#include <stddef.h>
#include <stdint.h>

#define VS_GBA_BG_BYTES 0x10000u      /* the 64 KiB BG area of tile modes */
#define VS_GBA_CHARBLOCK_BYTES 0x4000u
#define VS_GBA_SCREENBLOCK_BYTES 0x800u
#define VS_GBA_CHARBLOCK_ANY 0xFFu    /* not known: any charblock at or below the tile */
#define VS_GBA_OBJ_2D_STRIDE 1024u    /* 2D OBJ mapping: a sprite row starts 32 tiles after the one above */

/* Whether a BG tile at [off, off+len) can be drawn by a background whose
 * character base is charblock (0-3, or VS_GBA_CHARBLOCK_ANY): it lies at
 * or after the charblock, inside the 64 KiB, on its tile size, and its tile
 * number from the charblock fits the map entry: 0-1023 for a text BG (in
 * 32-byte units for 4bpp, 64-byte units for 8bpp), 0-255 and 8bpp only for
 * an affine BG. Returns 0, or -1 with the broken rule in why. */
int vs_hw_gba_bg_tile_reach(unsigned charblock, unsigned bpp, int affine, uint32_t off, uint32_t len,
	char *why, size_t whylen);

#endif
