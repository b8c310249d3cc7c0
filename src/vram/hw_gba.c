/* SPDX-License-Identifier: Zlib */
/* hw_gba.c - GBA OBJ and BG VRAM placement rules (gba-vram.md). */
#include <stdio.h>

#include "vram/hw.h"
#include "vram/hw_gba.h"

int vs_hw_gba_obj_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	uint32_t tile = off / 32;
	vs_footprint fp;

	/* rows apart only in 2D mapping: 1D needs no footprint */
	fp.stride = 0;
	fp.row_bytes = len;
	if (a->gba_obj_2d)
		vs_hw_footprint(a, rq, off, len, &fp);
	if (off % 32) {
		snprintf(why, whylen, "OBJ data at 0x%x is not on a 32-byte tile boundary", (unsigned)off);
		return -1;
	}
	if (a->gba_mode >= 3 && tile < 512) {
		snprintf(why, whylen, "OBJ tile %u is below 512, which bitmap mode %u does not draw",
			(unsigned)tile, (unsigned)a->gba_mode);
		return -1;
	}
	/* Only 2D mapping drops the low bit of an 8bpp sprite's tile number;
	 * 1D mapping multiplies the whole number by 32 (the AGB Programming
	 * Manual's OBJ attribute 2, "bit 0 fixed at 0 in 2-dimensional mapping
	 * mode"; mGBA's renderers mask it only without DISPCNT bit 6), so
	 * Butano's 8bpp sprites after an odd 4bpp one draw right. */
	if (rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8 && (tile & 1) && fp.stride) {
		snprintf(why, whylen, "8bpp sprite at odd tile %u (2D mapping ignores the tile number's low bit: "
			"the hardware would draw it from tile %u)", (unsigned)tile, (unsigned)tile - 1u);
		return -1;
	}
	/* 2D: the tile matrix is 32 wide, and a sprite's row that crossed its
	 * right edge would go on in the next matrix row, not in its own */
	if (fp.stride && tile % 32u + fp.row_bytes / 32u > 32u) {
		snprintf(why, whylen, "2D sprite at tile %u (column %u) is %u tiles wide: its rows would wrap past "
			"column 31 of the 32x32 tile matrix", (unsigned)tile, (unsigned)(tile % 32u),
			(unsigned)(fp.row_bytes / 32u));
		return -1;
	}
	return 0;
}

int vs_hw_gba_bg_tile_reach(unsigned charblock, unsigned bpp, int affine, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	uint32_t unit = bpp == 8 ? 64u : 32u, base, num;

	if (bpp != 4 && bpp != 8) {
		snprintf(why, whylen, "BG tiles are 4bpp or 8bpp, not %ubpp", bpp);
		return -1;
	}
	if ((uint64_t)off + len > VS_GBA_BG_BYTES) {
		snprintf(why, whylen, "BG tile at 0x%x runs past the 64 KiB BG area (it would not read OBJ VRAM)",
			(unsigned)off);
		return -1;
	}
	if (off % unit) {
		snprintf(why, whylen, "%ubpp tile at 0x%x is not on a %u-byte tile boundary", bpp, (unsigned)off,
			(unsigned)unit);
		return -1;
	}
	if (affine && bpp != 8) {
		snprintf(why, whylen, "affine BG tiles are always 8bpp, not %ubpp", bpp);
		return -1;
	}
	if (charblock == VS_GBA_CHARBLOCK_ANY) {
		/* The nearest charblock at or below the tile is the most lenient. */
		charblock = off / VS_GBA_CHARBLOCK_BYTES;
	} else if (charblock > 3) {
		snprintf(why, whylen, "charblock %u does not exist (0-3)", charblock);
		return -1;
	}
	base = charblock * VS_GBA_CHARBLOCK_BYTES;
	if (off < base) {
		snprintf(why, whylen, "BG tile at 0x%x lies below its charblock %u (0x%x)", (unsigned)off, charblock,
			(unsigned)base);
		return -1;
	}
	num = (off - base) / unit;
	if (num > (affine ? 255u : 1023u)) {
		snprintf(why, whylen, "%s BG tile at 0x%x is tile number %u of charblock %u; the map entry holds %s",
			affine ? "affine" : "text", (unsigned)off, (unsigned)num, charblock,
			affine ? "0-255" : "0-1023");
		return -1;
	}
	return 0;
}

int vs_hw_gba_bg_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	if (off % 32) {
		snprintf(why, whylen, "BG data at 0x%x is not on a 32-byte boundary", (unsigned)off);
		return -1;
	}
	if ((rq->shape == VS_REQ_TILE || rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_TILESET ||
		rq->shape == VS_REQ_CELLS) && a->gba_mode >= 3) {
		snprintf(why, whylen, "bitmap mode %u has no tiled backgrounds: no place for a BG %s",
			(unsigned)a->gba_mode, rq->shape == VS_REQ_TILE || rq->shape == VS_REQ_TILESET ? "tile" : "map");
		return -1;
	}
	/* a tile set: its tiles numbered from a charblock, 8bpp ones in 64 bytes */
	if (rq->shape == VS_REQ_TILESET && rq->u.tileset.bpp == 8 && off % 64) {
		snprintf(why, whylen, "8bpp BG tiles at 0x%x are not on a 64-byte tile", (unsigned)off);
		return -1;
	}
	if (rq->shape == VS_REQ_TILE)
		return vs_hw_gba_bg_tile_reach(rq->u.tile.cb1 ? rq->u.tile.cb1 - 1u : VS_GBA_CHARBLOCK_ANY,
			rq->u.tile.bpp, rq->u.tile.affine, off, len, why, whylen);
	if (rq->shape == VS_REQ_BGMAP || rq->shape == VS_REQ_CELLS) {
		if (off % VS_GBA_SCREENBLOCK_BYTES) {
			snprintf(why, whylen, "BG map at 0x%x is not on a 2 KiB screenblock boundary", (unsigned)off);
			return -1;
		}
		if ((uint64_t)off + len > VS_GBA_BG_BYTES) {
			snprintf(why, whylen, "BG map at 0x%x runs past screenblock 31", (unsigned)off);
			return -1;
		}
	}
	return 0;
}
