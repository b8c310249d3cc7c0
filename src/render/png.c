/* SPDX-License-Identifier: Zlib */
/* png.c - PNG export and import with libpng. Fixed settings and no time or
 * text chunks, so the same image always gives the same file bytes. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "base/text.h"
#include "render/render.h"
#include "render/png.h"

/* libpng's own handler prints "libpng error: Write Error" to stderr: the
 * caller says it, naming the file and the reason (the stream's). */
static void quiet_error(png_structp png, png_const_charp msg)
{
	(void)msg;
	png_longjmp(png, 1);
}

int vs_png_write(FILE *fp, const vs_image *im)
{
	png_structp png;
	png_infop info;
	int y;

	if (!im->px || im->w <= 0 || im->h <= 0)
		return -1;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, quiet_error, NULL);
	if (!png)
		return -1;
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return -1;
	}
	png_init_io(png, fp);
	/* Pinned: zlib level, strategy, window and one filter, whatever the
	 * library's defaults are on this machine. */
	png_set_compression_level(png, 6);
	png_set_compression_strategy(png, 0 /* Z_DEFAULT_STRATEGY */);
	png_set_compression_window_bits(png, 15);
	png_set_compression_mem_level(png, 8);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
	png_set_IHDR(png, info, (png_uint_32)im->w, (png_uint_32)im->h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
		PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < im->h; y++)
		png_write_row(png, im->px + (size_t)y * (size_t)im->w * 4);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 0;
}

int vs_png_read(const char *path, vs_image *im, char *err, size_t errlen)
{
	png_image pi;

	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	im->px = NULL;
	im->w = im->h = 0;
	if (!png_image_begin_read_from_file(&pi, path)) {
		vs_text_path_msg(err, errlen, path, "%s", pi.message);
		return -1;
	}
	pi.format = PNG_FORMAT_RGBA;
	if (vs_image_init(im, (int)pi.width, (int)pi.height, 0)) {
		png_image_free(&pi);
		vs_text_path_msg(err, errlen, path, "image too large");
		return -1;
	}
	if (!png_image_finish_read(&pi, NULL, im->px, 0, NULL)) {
		vs_text_path_msg(err, errlen, path, "%s", pi.message);
		vs_image_fini(im);
		return -1;
	}
	return 0;
}
