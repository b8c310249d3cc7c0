/* SPDX-License-Identifier: Zlib */
/* request.h - sizes and names of requests, from the hardware's tables.
 * The request itself is the plug-in interface's (include/vramsim/request.h).
 */
#ifndef VS_VRAM_REQUEST_H
#define VS_VRAM_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/request.h"

/* Byte sizes of the shapes a request carries, from the hardware tables
 * (gba-vram.md, ds-vram.md). Each returns 0 when the shape is not one the
 * hardware has. */
uint32_t vs_request_sprite_bytes(unsigned shape, unsigned size, unsigned bpp);
/* Width and height in pixels of an OAM shape/size, or 0. */
int vs_request_sprite_dims(unsigned shape, unsigned size, unsigned *w, unsigned *h);
/* Shape and size field for a width x height sprite; -1 if none has it. */
int vs_request_sprite_from_dims(unsigned w, unsigned h, unsigned *shape, unsigned *size);
uint32_t vs_request_bgmap_bytes(unsigned affine, unsigned size);
uint32_t vs_request_tex_bytes(unsigned format, unsigned width, unsigned height);
/* For 4x4 textures: bytes of slot-1 palette-index data (texel bytes / 2). */
uint32_t vs_request_tex_index_bytes(unsigned format, unsigned width, unsigned height);
const char *vs_request_tex_format_name(unsigned format);
int vs_request_tex_format_parse(const char *s, unsigned *format);

/* Fills size from the shape (for shapes that have one). Returns 0, or -1
 * when the shape is impossible (then size is left as is). */
int vs_request_derive_size(vs_request *rq);

/* Human form of a request's shape: "sprite 32x16 8bpp", "tex 128x64 16c",
 * "1200 bytes". Returns the length written (snprintf rules). */
int vs_request_describe(const vs_request *rq, char *buf, size_t len);

#endif
