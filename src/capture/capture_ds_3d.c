/* SPDX-License-Identifier: Zlib */
/* capture_ds_3d.c - the textures and texture palettes the frame's polygon
 * list names (GBATEK "DS 3D Texture Attributes", "DS 3D Texture Formats";
 * docs/capture.md, DS part).
 *
 * Each textured polygon's TEXIMAGE_PARAM gives its texture's offset (bits
 * 0-15, in 8 bytes), size (8 << bits 20-22, 8 << bits 23-25) and format
 * (26-28); a 4x4 texture also holds index data in slot 1, half its texel
 * bytes. PLTT_BASE gives its palette's offset (in 16 bytes, 8 for
 * 4-colour); the format its colours, and for 4x4 the highest palette offset
 * its blocks' index data names.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_ds_int.h"
#include "vram/request.h"

/* Colours a palette of each format holds (4x4: at least). */
static const uint16_t format_colours[8] = { 0, 32, 4, 16, 256, 4, 8, 0 };

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Colours a 4x4 texture's blocks take from its palette base: each block's
 * index entry (bits 0-13) is an offset in 4-byte steps, and a block uses
 * up to 4 colours from there. The index data lies in slot 1 of the texture
 * arena, where tie_w units begin at tie. */
static uint32_t colours_4x4(const vs_ds_capture *c, const cap_ds_arena *tex, const cap_ds_fp *fp)
{
	uint32_t u, k, top = 4;

	for (u = fp->tie; u < fp->tie + fp->tie_w && u < tex->units; u++) {
		const uint8_t *p;
		if (tex->lcdc_of[u] == CAP_DS_NONE)
			continue;
		p = c->f->lcdc + tex->lcdc_of[u];
		for (k = 0; k < tex->unit; k += 2) {
			uint32_t off = (p[k] | (uint32_t)p[k + 1] << 8) & 0x3FFFu;
			if (off * 2u + 4u > top)
				top = off * 2u + 4u;
		}
	}
	return top;
}

/* A texture's footprint (in 8-byte units) and request. */
static void texture(cap_ds_fp *fp, vs_request *rq, uint32_t param)
{
	unsigned format = (param >> 26) & 7u, w = 8u << ((param >> 20) & 7u), h = 8u << ((param >> 23) & 7u);
	uint32_t off = (param & 0xFFFFu) * 8u;

	memset(rq, 0, sizeof *rq);
	rq->shape = VS_REQ_TEX;
	rq->u.tex.format = (uint8_t)format;
	rq->u.tex.width = (uint16_t)w;
	rq->u.tex.height = (uint16_t)h;
	vs_request_derive_size(rq);
	memset(fp, 0, sizeof *fp);
	fp->start = off / 8u;
	fp->w = rq->size / 8u;
	fp->rows = 1;
	if (format != VS_TEX_4X4)
		return;
	/* slot 0 texels: index data at 0x20000 + off / 2; slot 2: 0x30000 + (off - 0x40000) / 2 */
	if (off + rq->size <= 0x20000u)
		fp->tie = (0x20000u + off / 2u) / 8u;
	else if (off >= 0x40000u && off + rq->size <= 0x60000u)
		fp->tie = (0x30000u + (off - 0x40000u) / 2u) / 8u;
	else
		return;
	fp->tie_w = rq->size / 2u / 8u;
}

static void palette(vs_ds_capture *c, uint32_t param, uint32_t base)
{
	cap_ds_arena *tex = &c->ar[VS_DS_CAP_TEX], *pl = &c->ar[VS_DS_CAP_PLTT];
	unsigned format = (param >> 26) & 7u;
	uint32_t colours = format_colours[format], off;
	vs_request rq;
	cap_ds_fp fp;

	if (!colours)
		return; /* direct colour */
	if (format == VS_TEX_4X4) {
		vs_request trq;
		texture(&fp, &trq, param);
		colours = colours_4x4(c, tex, &fp);
	}
	off = format == VS_TEX_4C ? (base & 0x1FFFu) * 8u : (base & 0x1FFFu) * 16u;
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_PLTT;
	rq.u.pltt.colours = (uint16_t)(colours > 0xFFFFu ? 0xFFFFu : colours);
	rq.u.pltt.four = format == VS_TEX_4C;
	vs_request_derive_size(&rq);
	memset(&fp, 0, sizeof fp);
	fp.start = off / 8u;
	fp.w = (colours * 2u + 7u) / 8u;
	fp.rows = 1;
	/* `pltt 4` reads back as a 4-colour texture's palette: 4 colours of
	 * another format (a 4x4 texture's least) are written as bytes */
	cap_ds_want_add(c, pl, &fp, colours == 4 && format != VS_TEX_4C ? NULL : &rq, NULL);
}

/* The frame's textured polygons, each texture and each (format, palette)
 * pair read once. A frame whose list is empty (an engine drawing below 60
 * fps fills it every other frame or less) says nothing about what the game
 * holds; with texture mapping off (DISP3DCNT bit 0) nothing textured is
 * drawn. */
void cap_ds_3d_frame(vs_ds_capture *c, const vs_ds_frame *f)
{
	uint32_t *params = c->tex_keys;
	uint64_t *pals = c->pltt_keys;
	cap_ds_arena *tex = &c->ar[VS_DS_CAP_TEX], *pl = &c->ar[VS_DS_CAP_PLTT];
	uint32_t i, n = f->polys_n < VS_DS_POLYS_MAX ? f->polys_n : VS_DS_POLYS_MAX, np = 0, npal = 0;
	vs_request rq;
	cap_ds_fp fp;

	if (!n)
		return;
	c->st.list_frames++;
	c->st.polys += n;
	c->st.polys_cut += f->polys_total > n ? f->polys_total - n : 0;
	tex->learn = pl->learn = 1;
	for (i = 0; i < n; i++) {
		uint32_t param = f->polys[i].tex_param;
		if (!((param >> 26) & 7u))
			continue;
		c->st.polys_textured++;
		if (!(f->disp3dcnt & 1u))
			continue;
		params[np++] = param;
		pals[npal++] = (uint64_t)(param & 0x1FFFFFFFu) << 13 | (f->polys[i].tex_palette & 0x1FFFu);
	}
	qsort(params, np, sizeof *params, u32_cmp);
	for (i = 0; i < np; i++) {
		if (i && params[i] == params[i - 1])
			continue;
		texture(&fp, &rq, params[i]);
		cap_ds_want_add(c, tex, &fp, &rq, NULL);
	}
	/* pairs (texture parameter, palette base) */
	qsort(pals, npal, sizeof *pals, u64_cmp);
	for (i = 0; i < npal; i++)
		if (!i || pals[i] != pals[i - 1])
			palette(c, (uint32_t)(pals[i] >> 13), (uint32_t)(pals[i] & 0x1FFFu));
}
