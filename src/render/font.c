/* SPDX-License-Identifier: Zlib */
/* font.c - the X11 "misc-fixed" 8x13 bitmap font (public domain) for
 * ASCII 32-126, built in (font_8x13.h, made by tools/font/pcf2c.py) so
 * pictures are the same bytes on every machine. */
#include "render/render.h"

#include "font_8x13.h"
#include "history_impl.h"

static vs_box_fn box_fn;
static void *box_ud;

void vs_image_box_hook(vs_box_fn fn, void *ud)
{
	box_fn = fn;
	box_ud = ud;
}

void vs__box(const vs_image *im, vs_rect r, vs_box_kind kind, const char *what)
{
	if (box_fn && im)
		box_fn(box_ud, im, r, kind, what);
}

int vs_image_text(vs_image *im, int x, int y, const char *s, uint32_t rgba, int scale)
{
	int cx = x, cy = y, widest = 0, col, row;
	const char *text = s;

	if (scale < 1)
		scale = 1;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const uint8_t *g;
		if (c == '\n') {
			if (cx - x > widest)
				widest = cx - x;
			cx = x;
			cy += VS_FONT_H * scale;
			continue;
		}
		if (c < 32 || c > 126)
			c = '?';
		g = font_8x13[c - 32];
		for (row = 0; row < VS_FONT_H; row++)
			for (col = 0; col < VS_FONT_W; col++)
				if (g[row] & (0x80u >> col))
					vs_image_fill(im, (vs_rect){ cx + col * scale, cy + row * scale, scale, scale }, rgba);
		cx += VS_FONT_W * scale;
	}
	if (cx - x > widest)
		widest = cx - x;
	if (widest)
		vs__box(im, (vs_rect){ x, y, widest, cy - y + VS_FONT_H * scale }, VS_BOX_TEXT, text);
	return widest;
}

int vs_image_text_width(const char *s, int scale)
{
	int n = 0, widest = 0;

	if (scale < 1)
		scale = 1;
	for (; *s; s++) {
		if (*s == '\n') {
			if (n > widest)
				widest = n;
			n = 0;
		} else {
			n++;
		}
	}
	if (n > widest)
		widest = n;
	return widest * VS_FONT_W * scale;
}
