/* SPDX-License-Identifier: Zlib */
/* hw_ds.c - DS texture and texture-palette placement rules (ds-vram.md). */
#include <stdio.h>

#include "vram/hw.h"
#include "vram/hw_gba.h"
#include "vram/request.h"

enum { BANK_E = 4, BANK_F = 5, BANK_G = 6 };

int vs_hw_ds_pltt_slot_mapped(const vs_arena_decl *a, unsigned slot)
{
	/* E is 64 KiB: it covers palette slots 0-3 whatever its offset. */
	if (a->ds_bank_slot[BANK_E] != 0xFF && slot < 4)
		return 1;
	return a->ds_bank_slot[BANK_F] == slot || a->ds_bank_slot[BANK_G] == slot;
}

int vs_hw_ds_tex_slot_mapped(const vs_arena_decl *a, unsigned slot)
{
	unsigned bank;

	for (bank = 0; bank < 4; bank++)
		if (a->ds_bank_slot[bank] == slot)
			return 1;
	return 0;
}

int vs_hw_ds_tex_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	unsigned s;

	if (off % 8) {
		snprintf(why, whylen, "texture at 0x%x is not 8-byte aligned", (unsigned)off);
		return -1;
	}
	for (s = off / 0x20000u; len && s <= (off + len - 1) / 0x20000u; s++) {
		if (!vs_hw_ds_tex_slot_mapped(a, s)) {
			snprintf(why, whylen, "texture [0x%x, 0x%x) uses texture slot %u, which no bank maps",
				(unsigned)off, (unsigned)(off + len), s);
			return -1;
		}
	}
	if (rq->shape == VS_REQ_TEX && rq->u.tex.format == VS_TEX_4X4) {
		int in0 = off + len <= 0x20000u, in2 = off >= 0x40000u && off + len <= 0x60000u;
		if (!in0 && !in2) {
			snprintf(why, whylen, "4x4 texel data at [0x%x, 0x%x) lies outside slots 0 and 2",
				(unsigned)off, (unsigned)(off + len));
			return -1;
		}
		if (!vs_hw_ds_tex_slot_mapped(a, 1)) {
			snprintf(why, whylen, "4x4 texture needs its index data in slot 1, which no bank maps");
			return -1;
		}
	}
	return 0;
}

int vs_hw_ds_pltt_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	int four = rq->shape == VS_REQ_PLTT && rq->u.pltt.four;
	unsigned need = four ? 8 : 16, s;

	if (off % need) {
		snprintf(why, whylen, "%s at 0x%x is not %u-byte aligned",
			four ? "4-colour palette" : "palette", (unsigned)off, need);
		return -1;
	}
	if (four && off + len > 0x10000u) {
		snprintf(why, whylen, "4-colour palette [0x%x, 0x%x) ends past 0x10000",
			(unsigned)off, (unsigned)(off + len));
		return -1;
	}
	for (s = off / 0x4000u; len && s <= (off + len - 1) / 0x4000u; s++) {
		if (!vs_hw_ds_pltt_slot_mapped(a, s)) {
			snprintf(why, whylen, "palette [0x%x, 0x%x) uses palette slot %u, which no bank maps",
				(unsigned)off, (unsigned)(off + len), s);
			return -1;
		}
	}
	return 0;
}

/* ---- the 2D engines (GBATEK "DS Video OBJs", "DS Video BG Modes") ---- */

/* Bytes a bitmap OBJ matrix row takes in 2D bitmap mapping: 128 or 256
 * dots of 2 bytes; 0 in 1D. */
static uint32_t bmp_row_bytes(const vs_arena_decl *a)
{
	switch (a->ds_obj_bmp) {
	case VS_DS_BMP_2D_128: return 256u;
	case VS_DS_BMP_2D_256: return 512u;
	default: return 0;
	}
}

int vs_hw_ds_obj_rows(const vs_arena_decl *a, const vs_request *rq, uint32_t *row_bytes, uint32_t *rows,
	uint32_t *stride)
{
	unsigned w, h, bpp = rq->u.sprite.bpp;

	if (a->kind != VS_ARENA_DS_OBJ || rq->shape != VS_REQ_SPRITE ||
	    !vs_request_sprite_dims(rq->u.sprite.shape, rq->u.sprite.size, &w, &h))
		return 0;
	if (bpp == 16 && bmp_row_bytes(a)) {
		*row_bytes = w * 2u;
		*rows = h;
		*stride = bmp_row_bytes(a);
		return 1;
	}
	if ((bpp == 4 || bpp == 8) && a->gba_obj_2d) {
		*row_bytes = w * bpp;
		*rows = h / 8u;
		*stride = VS_GBA_OBJ_2D_STRIDE;
		return 1;
	}
	return 0;
}

static int obj_bitmap_check(const vs_arena_decl *a, uint32_t off, uint32_t row_bytes, char *why, size_t whylen)
{
	uint32_t stride = bmp_row_bytes(a), unit, tile;

	if (stride) {
		/* 2D: tile bits 0-3 (0-4) are x / 8 dots, the rest y / 8 dots */
		uint32_t x = off % stride, y = off / stride;
		if (off % 16u || y % 8u) {
			snprintf(why, whylen, "bitmap sprite at 0x%x is not on an 8x8-dot block of the %u-dot-wide "
				"bitmap matrix", (unsigned)off, (unsigned)(stride / 2u));
			return -1;
		}
		if (x + row_bytes > stride) {
			snprintf(why, whylen, "bitmap sprite at 0x%x (dot column %u) is %u dots wide: its rows would "
				"wrap past the %u-dot-wide bitmap matrix", (unsigned)off, (unsigned)(x / 2u),
				(unsigned)(row_bytes / 2u), (unsigned)(stride / 2u));
			return -1;
		}
		tile = x / 16u + y / 8u * (stride / 16u);
	} else {
		unit = a->ds_obj_bmp == VS_DS_BMP_1D_256 ? 256u : 128u;
		if (off % unit) {
			snprintf(why, whylen, "bitmap sprite at 0x%x is not on the %u-byte 1D bitmap boundary",
				(unsigned)off, (unsigned)unit);
			return -1;
		}
		tile = off / unit;
	}
	if (tile > 1023u) {
		snprintf(why, whylen, "bitmap sprite at 0x%x would be tile number %u: OAM holds 0-1023",
			(unsigned)off, (unsigned)tile);
		return -1;
	}
	return 0;
}

int vs_hw_ds_obj_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	uint32_t boundary = 32u * (a->ds_obj_boundary ? a->ds_obj_boundary : 1u), row_bytes, rows, stride;
	int sprite = rq->shape == VS_REQ_SPRITE;

	(void)len;
	if (off % 32u) {
		snprintf(why, whylen, "OBJ data at 0x%x is not on a 32-byte tile boundary", (unsigned)off);
		return -1;
	}
	if (!sprite)
		return 0;
	if (rq->u.sprite.bpp == 16) {
		if (!vs_hw_ds_obj_rows(a, rq, &row_bytes, &rows, &stride))
			row_bytes = len;
		return obj_bitmap_check(a, off, row_bytes, why, whylen);
	}
	if (a->gba_obj_2d)
		return vs_hw_gba_obj_check(a, rq, off, len, why, whylen);
	if (off % boundary) {
		snprintf(why, whylen, "sprite at 0x%x is not on the %u-byte 1D tile boundary", (unsigned)off,
			(unsigned)boundary);
		return -1;
	}
	if (off / boundary > 1023u) {
		snprintf(why, whylen, "sprite at 0x%x would be tile number %u: with a %u-byte boundary OAM reaches "
			"0x%x", (unsigned)off, (unsigned)(off / boundary), (unsigned)boundary, (unsigned)(1024u * boundary));
		return -1;
	}
	if (rq->u.sprite.bpp == 8 && off % 64u) {
		snprintf(why, whylen, "8bpp sprite at odd tile %u (1D mapping needs an even tile number)",
			(unsigned)(off / 32u));
		return -1;
	}
	return 0;
}

int vs_hw_ds_bg_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	uint32_t char0 = a->ds_engine == VS_DS_ENGINE_A ? a->ds_bg_char64k * 0x10000u : 0;
	uint32_t screen0 = a->ds_engine == VS_DS_ENGINE_A ? a->ds_bg_screen64k * 0x10000u : 0;

	(void)len;
	if (off % 32u) {
		snprintf(why, whylen, "BG data at 0x%x is not on a 32-byte boundary", (unsigned)off);
		return -1;
	}
	if (rq->shape == VS_REQ_TILE) {
		unsigned bpp = rq->u.tile.bpp, cb;
		uint32_t unit = bpp == 8 ? 64u : 32u, base, num;
		if (off % unit || (rq->u.tile.affine && bpp != 8)) {
			snprintf(why, whylen, "%ubpp %stile at 0x%x is not on a %u-byte tile boundary", bpp,
				rq->u.tile.affine ? "affine " : "", (unsigned)off, (unsigned)unit);
			return -1;
		}
		if (off < char0) {
			snprintf(why, whylen, "BG tile at 0x%x lies below the character base 0x%x DISPCNT sets",
				(unsigned)off, (unsigned)char0);
			return -1;
		}
		/* BGxCNT's character base: 16 KiB steps 0-15 from DISPCNT's */
		cb = rq->u.tile.cb1 ? rq->u.tile.cb1 - 1u : (off - char0) / 0x4000u;
		if (cb > 15u)
			cb = 15u;
		base = char0 + cb * 0x4000u;
		num = off >= base ? (off - base) / unit : 0xFFFFFFFFu;
		if (num > (rq->u.tile.affine ? 255u : 1023u)) {
			snprintf(why, whylen, "BG tile at 0x%x is out of reach of character base %u (0x%x): a map entry "
				"holds tile numbers 0-%u", (unsigned)off, cb, (unsigned)base, rq->u.tile.affine ? 255u : 1023u);
			return -1;
		}
		return 0;
	}
	if (rq->shape == VS_REQ_BGMAP) {
		if (off % 0x800u || off < screen0 || (off - screen0) / 0x800u > 31u) {
			snprintf(why, whylen, "BG map at 0x%x is not a screen base: 2 KiB steps 0-31 from 0x%x",
				(unsigned)off, (unsigned)screen0);
			return -1;
		}
	}
	return 0;
}

int vs_hw_ds_extpal_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen)
{
	(void)a;
	(void)rq;
	(void)len;
	if (off % 512u) {
		snprintf(why, whylen, "extended palette data at 0x%x is not on a 256-colour palette (512 bytes)",
			(unsigned)off);
		return -1;
	}
	return 0;
}
