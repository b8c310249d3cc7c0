/* SPDX-License-Identifier: Zlib */
/* image.c - RGBA images and the few drawing primitives the pictures need. */
#include <stdlib.h>
#include <string.h>

#include "render/render.h"

int vs_image_init(vs_image *im, int w, int h, uint32_t rgba)
{
	size_t n;

	im->w = im->h = 0;
	im->px = NULL;
	if (w <= 0 || h <= 0 || w > 32768 || h > 32768)
		return -1;
	n = (size_t)w * (size_t)h;
	im->px = malloc(n * 4);
	if (!im->px)
		return -1;
	im->w = w;
	im->h = h;
	vs_image_fill(im, (vs_rect){ 0, 0, w, h }, rgba);
	return 0;
}

void vs_image_fini(vs_image *im)
{
	free(im->px);
	im->px = NULL;
	im->w = im->h = 0;
}

uint32_t vs_image_get(const vs_image *im, int x, int y)
{
	const uint8_t *p;

	if (x < 0 || y < 0 || x >= im->w || y >= im->h)
		return 0;
	p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void vs_image_put(vs_image *im, int x, int y, uint32_t rgba)
{
	uint8_t *p;

	if (x < 0 || y < 0 || x >= im->w || y >= im->h)
		return;
	p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4;
	p[0] = (uint8_t)(rgba >> 24);
	p[1] = (uint8_t)(rgba >> 16);
	p[2] = (uint8_t)(rgba >> 8);
	p[3] = (uint8_t)rgba;
}

/* One pixel's bytes, then doubling copies: a run of n pixels of one colour. */
static void fill_run(uint8_t *p, size_t n, uint32_t rgba)
{
	size_t done = 1;

	if (!n)
		return;
	p[0] = (uint8_t)(rgba >> 24);
	p[1] = (uint8_t)(rgba >> 16);
	p[2] = (uint8_t)(rgba >> 8);
	p[3] = (uint8_t)rgba;
	while (done < n) {
		size_t k = done < n - done ? done : n - done;
		memcpy(p + done * 4, p, k * 4);
		done += k;
	}
}

/* Row at a time: the first row is filled, the others copied from it. */
void vs_image_fill(vs_image *im, vs_rect r, uint32_t rgba)
{
	int y, x0 = r.x, y0 = r.y, x1 = r.x + r.w, y1 = r.y + r.h;
	size_t stride, len;
	uint8_t *row;

	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > im->w)
		x1 = im->w;
	if (y1 > im->h)
		y1 = im->h;
	if (x1 <= x0 || y1 <= y0)
		return;
	stride = (size_t)im->w * 4;
	len = (size_t)(x1 - x0) * 4;
	row = im->px + (size_t)y0 * stride + (size_t)x0 * 4;
	fill_run(row, (size_t)(x1 - x0), rgba);
	for (y = y0 + 1; y < y1; y++)
		memcpy(row + (size_t)(y - y0) * stride, row, len);
}

void vs_image_hline(vs_image *im, int x0, int x1, int y, uint32_t rgba)
{
	int x;

	if (x1 < x0) {
		x = x0;
		x0 = x1;
		x1 = x;
	}
	if (y < 0 || y >= im->h || x1 < 0 || x0 >= im->w)
		return;
	if (x0 < 0)
		x0 = 0;
	if (x1 >= im->w)
		x1 = im->w - 1;
	fill_run(im->px + ((size_t)y * (size_t)im->w + (size_t)x0) * 4, (size_t)(x1 - x0 + 1), rgba);
}

void vs_image_vline(vs_image *im, int x, int y0, int y1, uint32_t rgba)
{
	int y;
	uint8_t *p;

	if (y1 < y0) {
		y = y0;
		y0 = y1;
		y1 = y;
	}
	if (x < 0 || x >= im->w || y1 < 0 || y0 >= im->h)
		return;
	if (y0 < 0)
		y0 = 0;
	if (y1 >= im->h)
		y1 = im->h - 1;
	p = im->px + ((size_t)y0 * (size_t)im->w + (size_t)x) * 4;
	for (y = y0; y <= y1; y++, p += (size_t)im->w * 4) {
		p[0] = (uint8_t)(rgba >> 24);
		p[1] = (uint8_t)(rgba >> 16);
		p[2] = (uint8_t)(rgba >> 8);
		p[3] = (uint8_t)rgba;
	}
}

void vs_image_frame(vs_image *im, vs_rect r, uint32_t rgba)
{
	if (r.w <= 0 || r.h <= 0)
		return;
	vs_image_hline(im, r.x, r.x + r.w - 1, r.y, rgba);
	vs_image_hline(im, r.x, r.x + r.w - 1, r.y + r.h - 1, rgba);
	vs_image_vline(im, r.x, r.y, r.y + r.h - 1, rgba);
	vs_image_vline(im, r.x + r.w - 1, r.y, r.y + r.h - 1, rgba);
}

/* Bresenham: integer steps only, so every machine draws the same pixels. */
void vs_image_line(vs_image *im, int x0, int y0, int x1, int y1, uint32_t rgba)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int e = dx + dy, e2;

	for (;;) {
		vs_image_put(im, x0, y0, rgba);
		if (x0 == x1 && y0 == y1)
			break;
		e2 = 2 * e;
		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

void vs_image_blit(vs_image *dst, int x, int y, const vs_image *src)
{
	int row, x0 = 0, x1 = src->w;

	if (x < 0)
		x0 = -x;
	if (x + x1 > dst->w)
		x1 = dst->w - x;
	if (x1 <= x0)
		return;
	for (row = 0; row < src->h; row++) {
		int dy = y + row;
		if (dy < 0 || dy >= dst->h)
			continue;
		memcpy(dst->px + ((size_t)dy * (size_t)dst->w + (size_t)(x + x0)) * 4,
			src->px + ((size_t)row * (size_t)src->w + (size_t)x0) * 4, (size_t)(x1 - x0) * 4);
	}
}
