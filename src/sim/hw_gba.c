/* hw_gba.c - GBA OBJ and BG VRAM placement rules (gba-vram.md). */
#include <stdio.h>

#include "vramsim/hw.h"

int vs_hw_gba_obj_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	uint32_t tile = off / 32;

	(void)len;
	if (off % 32) {
		snprintf(why, whylen, "OBJ data at 0x%x is not on a 32-byte tile boundary", (unsigned)off);
		return -1;
	}
	if (a->gba_mode >= 3 && tile < 512) {
		snprintf(why, whylen, "OBJ tile %u is below 512, which bitmap mode %u does not draw",
			(unsigned)tile, (unsigned)a->gba_mode);
		return -1;
	}
	if (rq->shape == VS_REQ_SPRITE && rq->u.sprite.bpp == 8 && (tile & 1)) {
		snprintf(why, whylen, "8bpp sprite at odd tile %u (1D mapping needs an even tile number)",
			(unsigned)tile);
		return -1;
	}
	return 0;
}

int vs_hw_gba_bg_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	(void)a;
	(void)len;
	if (off % 32) {
		snprintf(why, whylen, "BG data at 0x%x is not on a 32-byte boundary", (unsigned)off);
		return -1;
	}
	if (rq->shape == VS_REQ_TILE && rq->u.tile.bpp == 8 && (off % 64)) {
		snprintf(why, whylen, "8bpp tile at 0x%x is not on a 64-byte tile boundary", (unsigned)off);
		return -1;
	}
	if (rq->shape == VS_REQ_BGMAP && (off % 0x800)) {
		snprintf(why, whylen, "BG map at 0x%x is not on a 2 KiB screenblock boundary", (unsigned)off);
		return -1;
	}
	return 0;
}
