/* SPDX-License-Identifier: Zlib */
/* image.h - RGBA images, and text in the built-in font (font.c).
 *
 * A vs_image is plain RGBA bytes, row-major, no stride padding
 * (SDL_PIXELFORMAT_RGBA32 / PNG_COLOR_TYPE_RGBA order). Colours are
 * 0xRRGGBBAA in a uint32_t (vs_image_get/put convert). The 8x13 bitmap font
 * makes a picture the same bytes on every machine.
 */
#ifndef VS_RENDER_IMAGE_H
#define VS_RENDER_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* ---- images ---------------------------------------------------------- */

typedef struct vs_image {
	int w, h;
	uint8_t *px; /* w*h*4 bytes: R, G, B, A per pixel, rows top to bottom */
} vs_image;

typedef struct vs_rect { int x, y, w, h; } vs_rect;

/* Allocates w x h pixels filled with rgba. Returns 0, or -1 (no memory, bad size). */
int vs_image_init(vs_image *im, int w, int h, uint32_t rgba);
void vs_image_fini(vs_image *im);
uint32_t vs_image_get(const vs_image *im, int x, int y);   /* 0 outside */
void vs_image_put(vs_image *im, int x, int y, uint32_t rgba); /* clipped */
void vs_image_fill(vs_image *im, vs_rect r, uint32_t rgba);  /* clipped */
void vs_image_frame(vs_image *im, vs_rect r, uint32_t rgba); /* 1-pixel outline */
void vs_image_hline(vs_image *im, int x0, int x1, int y, uint32_t rgba);
void vs_image_vline(vs_image *im, int x, int y0, int y1, uint32_t rgba);
void vs_image_line(vs_image *im, int x0, int y0, int x1, int y1, uint32_t rgba);
/* Copies src into dst at (x, y), clipped. */
void vs_image_blit(vs_image *dst, int x, int y, const vs_image *src);

/* ---- text (font.c) --------------------------------------------------- */

#define VS_FONT_W 8  /* advance per character at scale 1: the 8x13 font's cell */
#define VS_FONT_H 13 /* line height at scale 1 (11 above the baseline, 2 below) */

/* Draws ASCII 32-126 (others as '?'); '\n' starts a new line. Returns the
 * width in pixels of the longest line drawn. */
int vs_image_text(vs_image *im, int x, int y, const char *s, uint32_t rgba, int scale);
int vs_image_text_width(const char *s, int scale);

/* Every box a picture puts something in: text, a legend's swatch, a plot or
 * map. A hook set here is told of each one drawn (tests check that no two
 * overlap and none leaves the image); NULL stops it. One hook for the
 * process, not for threads drawing at once: for tests and debugging. */
typedef enum vs_box_kind { VS_BOX_TEXT = 0, VS_BOX_SWATCH, VS_BOX_PLOT } vs_box_kind;
typedef void (*vs_box_fn)(void *ud, const vs_image *im, vs_rect box, vs_box_kind kind, const char *what);
void vs_image_box_hook(vs_box_fn fn, void *ud);

#endif
