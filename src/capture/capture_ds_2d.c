/* SPDX-License-Identifier: Zlib */
/* capture_ds_2d.c - the footprints one 2D engine reads in a frame: its OAM
 * entries' graphics, its layers' maps, characters and bitmaps, and the
 * extended palettes they take (GBATEK "DS Video OBJs", "DS Video BG
 * Modes"; docs/capture.md, DS part).
 */
#include <string.h>

#include "capture_ds_int.h"
#include "vram/request.h"

#define OAM_ENTRIES 128u
#define MATRIX_UNITS 1024u   /* the 2D tile matrix: 32x32 tiles, 32 KiB */
#define EXTPAL_SLOT_UNITS 16u /* a BG extended palette slot: sixteen 512-byte palettes */

enum { KIND_OFF, KIND_TEXT, KIND_AFFINE, KIND_EXT, KIND_LARGE };

int cap_ds_2d_shown(const vs_ds_frame *f, unsigned engine)
{
	uint32_t d = f->dispcnt[engine];

	/* forced blank, display mode 0 (off) or 2-3 (engine A showing VRAM or
	 * main memory directly), or the engine powered off */
	return !(d & 0x80u) && ((d >> 16) & 3u) == 1u && ((f->powcnt1 >> (engine ? 9u : 1u)) & 1u);
}

static unsigned rd16(const uint8_t *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static void fp_run(cap_ds_fp *fp, uint32_t start, uint32_t w)
{
	memset(fp, 0, sizeof *fp);
	fp->start = start;
	fp->w = w;
	fp->rows = 1;
}

/* ---- OBJ ------------------------------------------------------------------------- */

static vs_request sprite_rq(unsigned shape, unsigned size, unsigned bpp)
{
	vs_request rq;

	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_SPRITE;
	rq.u.sprite.shape = (uint8_t)shape;
	rq.u.sprite.size = (uint8_t)size;
	rq.u.sprite.bpp = (uint8_t)bpp;
	vs_request_derive_size(&rq);
	return rq;
}

/* A tile sprite: 1D, tile x the boundary and its bytes in a run; 2D, the
 * GBA's rectangle of the 32x32 tile matrix (the tile's low bit ignored at
 * 8bpp), a run per row when its rows would cross column 31. Written as a
 * sprite when the arena's declaration reads OBJ VRAM the same way. */
static void tile_obj(vs_ds_capture *c, cap_ds_arena *a, uint32_t d, unsigned tile, unsigned shape, unsigned size,
	unsigned bpp)
{
	unsigned w, h, rw, rows, t0, r;
	vs_request rq = sprite_rq(shape, size, bpp);
	cap_ds_fp fp;

	vs_request_sprite_dims(shape, size, &w, &h);
	if ((d >> 4) & 1u) {
		unsigned boundary = 1u << ((d >> 20) & 3u); /* in 32-byte units */
		int same = !a->decl.gba_obj_2d && a->decl.ds_obj_boundary == boundary;
		fp_run(&fp, tile * boundary, w * h * bpp / 8u / 32u);
		cap_ds_want_add(c, a, &fp, same ? &rq : NULL, NULL);
		return;
	}
	rw = w / 8u * (bpp / 4u);
	rows = h / 8u;
	t0 = tile & (bpp == 8 ? 0x3FEu : 0x3FFu);
	if (t0 % 32u + rw <= 32u) {
		int cut = t0 + (rows - 1u) * 32u + rw > MATRIX_UNITS;
		memset(&fp, 0, sizeof fp);
		fp.start = t0;
		fp.w = rw;
		fp.rows = cut ? (MATRIX_UNITS - t0 + 31u) / 32u : rows;
		fp.stride = 32u;
		c->st.clipped += (uint64_t)cut;
		cap_ds_want_add(c, a, &fp, a->decl.gba_obj_2d && !cut ? &rq : NULL, NULL);
		return;
	}
	c->st.wrapped++;
	for (r = 0; r < rows && t0 + r * 32u < MATRIX_UNITS; r++) {
		fp_run(&fp, t0 + r * 32u, rw);
		cap_ds_want_add(c, a, &fp, NULL, NULL);
	}
}

/* A bitmap sprite (16 bits a dot): 1D, tile x 128 or 256 bytes and its
 * bytes in a run; 2D, a rectangle of the 128- or 256-dot-wide bitmap matrix,
 * a row of dots a row. One on an odd 8-dot column starts mid-unit: its rows
 * are written as bytes over the units they touch. */
static void bitmap_obj(vs_ds_capture *c, cap_ds_arena *a, uint32_t d, unsigned engine, unsigned tile,
	unsigned shape, unsigned size)
{
	vs_request rq = sprite_rq(shape, size, 16);
	unsigned w, h;
	cap_ds_fp fp;

	vs_request_sprite_dims(shape, size, &w, &h);
	if ((d >> 6) & 1u) {
		int big = engine == 0 && ((d >> 22) & 1u);
		unsigned bmp = big ? VS_DS_BMP_1D_256 : VS_DS_BMP_1D_128;
		fp_run(&fp, tile * (big ? 8u : 4u), w * h * 2u / 32u);
		cap_ds_want_add(c, a, &fp, a->decl.ds_obj_bmp == bmp ? &rq : NULL, NULL);
	} else {
		unsigned dots = (d >> 5) & 1u ? 256u : 128u, cols = dots / 8u;
		unsigned bmp = dots == 256u ? VS_DS_BMP_2D_256 : VS_DS_BMP_2D_128;
		uint32_t off = (tile % cols) * 16u + (tile / cols) * 8u * dots * 2u;
		memset(&fp, 0, sizeof fp);
		fp.start = off / 32u;
		fp.w = (off % 32u + w * 2u + 31u) / 32u;
		fp.rows = h;
		fp.stride = dots * 2u / 32u;
		c->st.odd_bitmap += (uint64_t)(off % 32u != 0);
		cap_ds_want_add(c, a, &fp, off % 32u == 0 && a->decl.ds_obj_bmp == bmp ? &rq : NULL, NULL);
	}
}

/* Rule 1 on each engine's OAM, and the OBJ extended palette a 256-colour
 * sprite takes (attribute 2 bits 12-15) when DISPCNT bit 31 is set. */
static void obj_frame(vs_ds_capture *c, const vs_ds_frame *f, unsigned engine)
{
	cap_ds_arena *a = &c->ar[VS_DS_CAP_OBJ_A + engine], *pal = &c->ar[VS_DS_CAP_OBJPAL_A + engine];
	uint32_t d = f->dispcnt[engine], i;
	vs_request prq;
	cap_ds_fp fp;

	/* the OBJ layer off shows nothing, and so says nothing */
	if (!((d >> 12) & 1u))
		return;
	a->learn = pal->learn = 1;
	memset(&prq, 0, sizeof prq);
	prq.shape = VS_REQ_PLTT;
	prq.u.pltt.colours = 256;
	vs_request_derive_size(&prq);
	for (i = 0; i < OAM_ENTRIES; i++) {
		const uint8_t *p = f->oam + engine * 0x400u + i * 8u;
		unsigned a0 = rd16(p), a1 = rd16(p + 2), a2 = rd16(p + 4);
		unsigned shape = a0 >> 14, size = a1 >> 14, tile = a2 & 0x3FFu, bpp = a0 & 0x2000u ? 8u : 4u;
		if ((a0 & 0x300u) == 0x200u)
			continue; /* not affine, disabled */
		if (shape == 3) {
			c->st.bad_shape++;
			continue;
		}
		c->st.obj_entries++;
		if (((a0 >> 10) & 3u) == 3u) {
			bitmap_obj(c, a, d, engine, tile, shape, size);
			continue;
		}
		tile_obj(c, a, d, tile, shape, size, bpp);
		if (bpp == 8 && ((d >> 31) & 1u)) {
			fp_run(&fp, a2 >> 12, 1);
			cap_ds_want_add(c, pal, &fp, &prq, NULL);
		}
	}
}

/* ---- BG ---------------------------------------------------------------------------- */

/* What layer n is in BG mode `mode` (GBATEK "DS Video BG Modes"); BG0 of
 * engine A shows the 3D engine's picture when DISPCNT bit 3 is set. */
static int layer_kind(uint32_t d, unsigned engine, unsigned n)
{
	static const uint8_t modes[8][4] = {
		{ KIND_TEXT, KIND_TEXT, KIND_TEXT, KIND_TEXT },
		{ KIND_TEXT, KIND_TEXT, KIND_TEXT, KIND_AFFINE },
		{ KIND_TEXT, KIND_TEXT, KIND_AFFINE, KIND_AFFINE },
		{ KIND_TEXT, KIND_TEXT, KIND_TEXT, KIND_EXT },
		{ KIND_TEXT, KIND_TEXT, KIND_AFFINE, KIND_EXT },
		{ KIND_TEXT, KIND_TEXT, KIND_EXT, KIND_EXT },
		{ KIND_TEXT, KIND_OFF, KIND_LARGE, KIND_OFF },
		{ KIND_OFF, KIND_OFF, KIND_OFF, KIND_OFF },
	};
	unsigned mode = d & 7u;

	if (!((d >> (8u + n)) & 1u) || (engine == 0 && n == 0 && ((d >> 3) & 1u)))
		return KIND_OFF;
	if (engine == 1 && mode == 6)
		return KIND_OFF;
	return modes[mode][n];
}

/* The bank byte at BG arena offset off, or NULL where no bank maps it. */
static const uint8_t *bg_byte(const vs_ds_capture *c, const cap_ds_arena *a, uint32_t off)
{
	uint32_t u = off / a->unit;

	if (u >= a->units || a->lcdc_of[u] == CAP_DS_NONE)
		return NULL;
	return c->f->lcdc + a->lcdc_of[u] + off % a->unit;
}

/* One layer's map entries: the highest tile number named and the extended
 * palettes named (16-bit entries, bits 12-15). Returns 0 when the map lies
 * where no bank maps it. */
static int scan_map(const vs_ds_capture *c, const cap_ds_arena *a, uint32_t at, uint32_t bytes, int wide,
	uint32_t *max_tile, uint32_t *pals)
{
	uint32_t i;

	*max_tile = 0;
	*pals = 0;
	for (i = 0; i < bytes; i += wide ? 2u : 1u) {
		const uint8_t *p = bg_byte(c, a, at + i);
		unsigned e;
		if (!p)
			return 0;
		e = wide ? rd16(p) : *p;
		if (wide) {
			*pals |= 1u << (e >> 12);
			e &= 0x3FFu;
		}
		if (e > *max_tile)
			*max_tile = e;
	}
	return 1;
}

static void want_bytes(vs_ds_capture *c, cap_ds_arena *a, uint32_t at, uint32_t bytes, const vs_request *rq,
	const char *tag)
{
	cap_ds_fp fp;

	fp_run(&fp, at / 32u, (bytes + 31u) / 32u);
	cap_ds_want_add(c, a, &fp, rq, tag);
}

/* The characters [at, at + bytes) but the layer's own map, when it lies
 * among them (a game that keeps both in one block): the parts before and
 * after it. */
static void chars_around_map(vs_ds_capture *c, cap_ds_arena *a, uint32_t at, uint32_t bytes, uint32_t map,
	uint32_t map_bytes, const char *tag)
{
	uint32_t end = at + bytes, map_end = map + map_bytes;

	if (map >= end || map_end <= at) {
		want_bytes(c, a, at, bytes, NULL, tag);
		return;
	}
	if (map > at)
		want_bytes(c, a, at, map - at, NULL, tag);
	if (end > map_end)
		want_bytes(c, a, map_end, end - map_end, NULL, tag);
}

/* A tiled layer: its map at its screen base, and its characters from its
 * character base up to the last tile its map names; a 256-colour layer
 * with DISPCNT bit 30 set takes the extended palettes its map names from
 * its slot (BG0 and BG1 slot 2 and 3 with BGxCNT bit 13). Characters
 * and map that overlap otherwise than that are joined into one range. */
static void tiled_layer(vs_ds_capture *c, unsigned engine, unsigned n, int kind)
{
	cap_ds_arena *a = &c->ar[VS_DS_CAP_BG_A + engine], *pal = &c->ar[VS_DS_CAP_BGPAL_A + engine];
	uint32_t d = c->f->dispcnt[engine], cnt = c->f->bgcnt[engine][n], size = cnt >> 14, max_tile, pals, slot, p;
	uint32_t char0 = engine == 0 ? ((d >> 24) & 7u) * 0x10000u : 0, screen0 = engine == 0 ? ((d >> 27) & 7u) * 0x10000u : 0;
	uint32_t map = screen0 + ((cnt >> 8) & 31u) * 0x800u, chars = char0 + ((cnt >> 2) & 15u) * 0x4000u, bytes;
	int wide = kind != KIND_AFFINE, bpp8 = kind != KIND_TEXT || (cnt & 0x80u);
	vs_request rq, prq;
	cap_ds_fp fp;
	char tag[16];

	memset(&rq, 0, sizeof rq);
	if (kind == KIND_EXT) {
		bytes = (128u << size) / 8u * ((128u << size) / 8u) * 2u; /* affine, 16-bit entries */
		rq.size = bytes;
	} else {
		rq.shape = VS_REQ_BGMAP;
		rq.u.bgmap.affine = kind == KIND_AFFINE;
		rq.u.bgmap.size = (uint8_t)size;
		vs_request_derive_size(&rq);
		bytes = rq.size;
	}
	if (!scan_map(c, a, map, bytes, wide, &max_tile, &pals)) {
		a->st->unmapped++;
		return;
	}
	snprintf(tag, sizeof tag, "bg%u", n);
	want_bytes(c, a, map, bytes, kind == KIND_EXT ? NULL : &rq, tag);
	snprintf(tag, sizeof tag, "bg%u-chars", n);
	chars_around_map(c, a, chars, (max_tile + 1u) * (bpp8 ? 64u : 32u), map, bytes, tag);
	if (!bpp8 || kind == KIND_AFFINE || !((d >> 30) & 1u))
		return;
	slot = n < 2 && (cnt & 0x2000u) ? n + 2u : n;
	memset(&prq, 0, sizeof prq);
	prq.shape = VS_REQ_PLTT;
	prq.u.pltt.colours = 256;
	vs_request_derive_size(&prq);
	for (p = 0; p < 16; p++) {
		if (!((pals >> p) & 1u))
			continue;
		fp_run(&fp, slot * EXTPAL_SLOT_UNITS + p, 1);
		cap_ds_want_add(c, pal, &fp, &prq, NULL);
	}
}

/* A bitmap layer: an extended BG with BGxCNT bit 7 set (256 colours, or
 * direct colour with bit 2), at its screen base in 16 KiB steps, sized by
 * bits 14-15; or mode 6's large bitmap, 512 KiB from the start. */
static void bitmap_layer(vs_ds_capture *c, unsigned engine, unsigned n, int kind)
{
	static const uint16_t dims[4][2] = { { 128, 128 }, { 256, 256 }, { 512, 256 }, { 512, 512 } };
	cap_ds_arena *a = &c->ar[VS_DS_CAP_BG_A + engine];
	uint32_t cnt = c->f->bgcnt[engine][n], size = cnt >> 14;
	char tag[16];

	snprintf(tag, sizeof tag, "bg%u-bitmap", n);
	if (kind == KIND_LARGE)
		want_bytes(c, a, 0, 512u * 1024u, NULL, tag);
	else
		want_bytes(c, a, ((cnt >> 8) & 31u) * 0x4000u, (uint32_t)dims[size][0] * dims[size][1] * (cnt & 4u ? 2u : 1u),
			NULL, tag);
}

static void bg_frame(vs_ds_capture *c, const vs_ds_frame *f, unsigned engine)
{
	unsigned n;

	c->ar[VS_DS_CAP_BG_A + engine].learn = 1;
	c->ar[VS_DS_CAP_BGPAL_A + engine].learn = 1;
	for (n = 0; n < 4; n++) {
		int kind = layer_kind(f->dispcnt[engine], engine, n);
		if (kind == KIND_OFF)
			continue;
		c->st.bg_layers++;
		if (kind == KIND_LARGE || (kind == KIND_EXT && (f->bgcnt[engine][n] & 0x80u)))
			bitmap_layer(c, engine, n, kind);
		else
			tiled_layer(c, engine, n, kind);
	}
}

void cap_ds_2d_frame(vs_ds_capture *c, const vs_ds_frame *f, unsigned engine)
{
	obj_frame(c, f, engine);
	bg_frame(c, f, engine);
}
