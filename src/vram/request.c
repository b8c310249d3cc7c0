/* SPDX-License-Identifier: Zlib */
/* request.c - byte sizes from the hardware's shape tables. */
#include <stdio.h>
#include <string.h>

#include "vram/request.h"

/* OAM shape x size -> width, height in pixels (gba-vram.md "Objects"). */
static const uint8_t sprite_w[3][4] = { { 8, 16, 32, 64 }, { 16, 32, 32, 64 }, { 8, 8, 16, 32 } };
static const uint8_t sprite_h[3][4] = { { 8, 16, 32, 64 }, { 8, 8, 16, 32 }, { 16, 32, 32, 64 } };

int vs_request_sprite_dims(unsigned shape, unsigned size, unsigned *w, unsigned *h)
{
	if (shape > 2 || size > 3)
		return 0;
	*w = sprite_w[shape][size];
	*h = sprite_h[shape][size];
	return 1;
}

uint32_t vs_request_sprite_bytes(unsigned shape, unsigned size, unsigned bpp)
{
	unsigned w, h;

	/* 16: a DS bitmap sprite, a direct colour per dot */
	if ((bpp != 4 && bpp != 8 && bpp != 16) || !vs_request_sprite_dims(shape, size, &w, &h))
		return 0;
	return w * h * bpp / 8;
}

int vs_request_sprite_from_dims(unsigned w, unsigned h, unsigned *shape, unsigned *size)
{
	unsigned s, z;

	for (s = 0; s < 3; s++)
		for (z = 0; z < 4; z++)
			if (sprite_w[s][z] == w && sprite_h[s][z] == h) {
				*shape = s;
				*size = z;
				return 0;
			}
	return -1;
}

uint32_t vs_request_bgmap_bytes(unsigned affine, unsigned size)
{
	static const uint32_t text[4] = { 0x800, 0x1000, 0x1000, 0x2000 };
	static const uint32_t aff[4] = { 0x100, 0x400, 0x1000, 0x4000 };

	if (size > 3)
		return 0;
	return affine ? aff[size] : text[size];
}

static unsigned tex_bpp(unsigned format)
{
	static const uint8_t bpp[8] = { 0, 8, 2, 4, 8, 2, 8, 16 };

	return format < 8 ? bpp[format] : 0;
}

static int tex_dim_ok(unsigned d)
{
	unsigned n;

	for (n = 8; n <= 1024; n *= 2)
		if (d == n)
			return 1;
	return 0;
}

uint32_t vs_request_tex_bytes(unsigned format, unsigned width, unsigned height)
{
	if (!tex_bpp(format) || !tex_dim_ok(width) || !tex_dim_ok(height))
		return 0;
	return (uint32_t)width * height * tex_bpp(format) / 8;
}

uint32_t vs_request_tex_index_bytes(unsigned format, unsigned width, unsigned height)
{
	return format == VS_TEX_4X4 ? vs_request_tex_bytes(format, width, height) / 2 : 0;
}

static const char *const tex_names[8] = { NULL, "a3i5", "4c", "16c", "256c", "4x4", "a5i3", "direct" };

const char *vs_request_tex_format_name(unsigned format)
{
	return format > 0 && format < 8 ? tex_names[format] : "?";
}

int vs_request_tex_format_parse(const char *s, unsigned *format)
{
	unsigned f;

	for (f = 1; f < 8; f++)
		if (strcmp(s, tex_names[f]) == 0) {
			*format = f;
			return 0;
		}
	return -1;
}

int vs_request_derive_size(vs_request *rq)
{
	uint32_t n = 0;

	switch (rq->shape) {
	case VS_REQ_BYTES:
		return 0;
	case VS_REQ_SPRITE:
		n = vs_request_sprite_bytes(rq->u.sprite.shape, rq->u.sprite.size, rq->u.sprite.bpp);
		break;
	case VS_REQ_TILE:
		n = rq->u.tile.bpp == 4 ? 32 : rq->u.tile.bpp == 8 ? 64 : 0;
		break;
	case VS_REQ_BGMAP:
		n = vs_request_bgmap_bytes(rq->u.bgmap.affine, rq->u.bgmap.size);
		break;
	case VS_REQ_TEX:
		if (!rq->u.tex.width && rq->u.tex.format == VS_TEX_4X4) /* by its size */
			return rq->size && rq->size <= VS_TEX_4X4_MAX_BYTES ? 0 : -1;
		n = vs_request_tex_bytes(rq->u.tex.format, rq->u.tex.width, rq->u.tex.height);
		break;
	case VS_REQ_PLTT:
		n = (uint32_t)rq->u.pltt.colours * 2;
		break;
	case VS_REQ_TILESET:
		n = (uint32_t)rq->u.tileset.count * (rq->u.tileset.bpp == 4 ? 32u : rq->u.tileset.bpp == 8 ? 64u : 0u);
		break;
	case VS_REQ_CELLS:
		n = (uint32_t)rq->u.cells.width * rq->u.cells.height * (rq->u.cells.affine ? 1u : 2u);
		break;
	}
	if (n == 0)
		return -1;
	rq->size = n;
	return 0;
}

int vs_request_describe(const vs_request *rq, char *buf, size_t len)
{
	unsigned w = 0, h = 0;

	switch (rq->shape) {
	case VS_REQ_SPRITE:
		vs_request_sprite_dims(rq->u.sprite.shape, rq->u.sprite.size, &w, &h);
		if (rq->u.sprite.bpp == 16)
			return snprintf(buf, len, "sprite %ux%u bmp", w, h);
		return snprintf(buf, len, "sprite %ux%u %ubpp", w, h, (unsigned)rq->u.sprite.bpp);
	case VS_REQ_TILE:
		return snprintf(buf, len, "tile %u %ubpp%s", (unsigned)rq->u.tile.rom, (unsigned)rq->u.tile.bpp,
			rq->u.tile.affine ? " affine" : "");
	case VS_REQ_BGMAP: {
		static const char *const text[4] = { "256x256", "512x256", "256x512", "512x512" };
		static const char *const aff[4] = { "128x128", "256x256", "512x512", "1024x1024" };
		return snprintf(buf, len, "map %s %s", rq->u.bgmap.affine ? "affine" : "text",
			(rq->u.bgmap.affine ? aff : text)[rq->u.bgmap.size & 3]);
	}
	case VS_REQ_TEX:
		if (!rq->u.tex.width)
			return snprintf(buf, len, "tex %u %s", (unsigned)rq->size, vs_request_tex_format_name(rq->u.tex.format));
		return snprintf(buf, len, "tex %ux%u %s", (unsigned)rq->u.tex.width, (unsigned)rq->u.tex.height,
			vs_request_tex_format_name(rq->u.tex.format));
	case VS_REQ_PLTT:
		return snprintf(buf, len, "pltt %u%s", (unsigned)rq->u.pltt.colours,
			rq->u.pltt.four && rq->u.pltt.colours != 4 ? " 4c" : "");
	case VS_REQ_TILESET:
		return snprintf(buf, len, "tiles %u %ubpp%s", (unsigned)rq->u.tileset.count, (unsigned)rq->u.tileset.bpp,
			rq->u.tileset.affine ? " affine" : "");
	case VS_REQ_CELLS:
		return snprintf(buf, len, "cells %ux%u%s", (unsigned)rq->u.cells.width, (unsigned)rq->u.cells.height,
			rq->u.cells.affine ? " affine" : "");
	case VS_REQ_BYTES:
	default:
		return snprintf(buf, len, "%u", (unsigned)rq->size);
	}
}
