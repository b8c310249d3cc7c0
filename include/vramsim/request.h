/* SPDX-License-Identifier: Zlib */
/* request.h - what a game asks an allocator for, in the hardware's terms.
 *
 * A request always carries its byte size; where the hardware gives the
 * data a shape (a sprite, a BG tile, a BG map, a DS texture or palette) the
 * shape rides along, so rules can be checked and pictures drawn the way a
 * developer thinks of the data.
 */
#ifndef VRAMSIM_REQUEST_H
#define VRAMSIM_REQUEST_H

#include <stddef.h>
#include <stdint.h>

typedef enum vs_req_shape {
	VS_REQ_BYTES = 0, /* plain bytes */
	VS_REQ_SPRITE,    /* GBA or DS OBJ graphics: OAM shape, size, bpp */
	VS_REQ_TILE,      /* GBA or DS BG tile by ROM index and bpp */
	VS_REQ_BGMAP,     /* GBA BG map: text or affine, size field 0-3 */
	VS_REQ_TEX,       /* DS texture: format, width, height */
	VS_REQ_PLTT,      /* DS palette: colours, 4-colour flag */
	VS_REQ_TILESET,   /* GBA BG: a set of N tiles at one depth, uploaded whole */
	VS_REQ_CELLS      /* GBA BG map of W x H cells, text or affine */
} vs_req_shape;

typedef enum vs_dir {
	VS_DIR_ANY = 0,
	VS_DIR_LOW,
	VS_DIR_HIGH
} vs_dir;

/* DS texture formats, numbered as TEXIMAGE_PARAM bits 26-28. */
enum {
	VS_TEX_A3I5 = 1, VS_TEX_4C = 2, VS_TEX_16C = 3, VS_TEX_256C = 4,
	VS_TEX_4X4 = 5, VS_TEX_A5I3 = 6, VS_TEX_DIRECT = 7
};
/* The most 4x4 texel data one request holds: one texture slot (0 or 2). */
#define VS_TEX_4X4_MAX_BYTES 0x20000u

/* OAM shapes. */
enum { VS_OBJ_SQUARE = 0, VS_OBJ_WIDE = 1, VS_OBJ_TALL = 2 };

typedef struct vs_request {
	uint32_t size;     /* bytes requested */
	uint32_t align;    /* byte alignment the caller needs; 0 or 1 for none */
	vs_dir dir;        /* low / high end, for allocators that take one */
	uint32_t opt;      /* raw option word passed through (NNS opt) */
	vs_req_shape shape;
	union {
		struct { uint8_t shape, size, bpp; } sprite;       /* bpp 4 or 8; 16: a DS bitmap sprite */
		/* cb1: charblock the BG draws from, plus one (0: not given);
		 * affine: for an affine BG (tile numbers 0-255, 8bpp) */
		struct { uint32_t rom; uint8_t bpp, cb1, affine; } tile;
		struct { uint8_t affine, size; } bgmap;            /* size field 0-3 */
		/* width and height 0: a 4x4 texture given by its texel bytes
		 * (size; `tex N 4x4`), several textures uploaded as one block */
		struct { uint8_t format; uint16_t width, height; } tex;
		struct { uint16_t colours; uint8_t four; } pltt;   /* four: for 4-colour textures */
		/* count tiles of bpp 4 or 8 (affine: 8bpp, for an affine BG) */
		struct { uint16_t count; uint8_t bpp, affine; } tileset;
		struct { uint16_t width, height; uint8_t affine; } cells; /* 2 bytes a text cell, 1 affine */
	} u;
	uint32_t tag;      /* interned owner tag (see vs_tags in trace.h); 0 = none */
	/* What the game's own allocator answered (at= in a trace), so a replay
	 * can place as the game did (the `recorded` strategy) and report where
	 * another strategy differs. Appended: older plug-ins never read it. */
	uint32_t at;       /* VS_AT_ADDR: the address (arena base + offset) */
	uint8_t has_at;    /* VS_AT_NONE, VS_AT_ADDR or VS_AT_FAILED */
	/* A `realloc` of a live allocation (glTexImage2D again on a bound
	 * texture): has_prev 1 and prev_key its placement's key. Only a
	 * strategy with VS_STRAT_REALLOC is given one; it answers for both,
	 * keeping the old place or freeing it and placing anew, as its library
	 * does. Appended: older plug-ins never read it. */
	uint8_t has_prev;
	uint32_t prev_key;
} vs_request;

/* What a trace says of the game's own answer to a request. */
enum {
	VS_AT_NONE = 0,  /* nothing: no at= */
	VS_AT_ADDR = 1,  /* at=ADDR: the game got this address */
	VS_AT_FAILED = 2 /* at=none: the game's allocator returned nothing */
};

#endif
