/* SPDX-License-Identifier: Zlib */
/* png.h - PNG files of images (png.c): written the same bytes for the same image.
 */
#ifndef VS_RENDER_PNG_H
#define VS_RENDER_PNG_H

#include <stddef.h>
#include <stdio.h>

#include "render/image.h"

/* ---- PNG (png.c) ----------------------------------------------------- */

/* Writes im as an 8-bit RGBA PNG with fixed settings and no time or text
 * chunks: the same image gives the same bytes. Returns 0, or -1. */
int vs_png_write(FILE *fp, const vs_image *im);
/* Reads an 8-bit PNG (any libpng-readable colour type, expanded to RGBA)
 * into im. Returns 0, or -1 with a message in err. */
int vs_png_read(const char *path, vs_image *im, char *err, size_t errlen);

#endif
