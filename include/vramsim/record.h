/* SPDX-License-Identifier: Zlib */
/* record.h - header-only trace recorder for GBA and DS homebrew.
 *
 * A game includes this file and calls a VS_REC_* macro beside each call to
 * its allocators. Each macro formats one line of trace format v1
 * (docs/trace-format.md) and prints it through mGBA's debug-log registers;
 * `vramsim record GAME.gba --frames N -o TRACE` runs the game headless and
 * writes those lines out as a trace, which replays under the `recorded`
 * strategy as the game placed it and under any other strategy for comparison.
 *
 *   VS_REC_BEGIN();                                   // "vramsim-trace 1"
 *   VS_REC_ARENA("obj", "gba-obj", "mode=0");         // "arena obj gba-obj mode=0"
 *   VS_REC_SPRITE(id, "obj", "player", 32, 32, 4, a); // "alloc 7 obj sprite 32x32 4bpp at=0x06010400 tag=player"
 *   VS_REC_BYTES(id, "bg", "hud", 2048, a);           // "alloc 8 bg 2048 at=... tag=hud"
 *   VS_REC_TILE(id, "bg", "level", rom, 4, a);        // "alloc 9 bg tile 12 4bpp at=... tag=level"
 *   VS_REC_TILE_DATA(id, "bg", "level", rom, 4, a, p);// the same, with data= the tile's 32 (64) bytes at p
 *   VS_REC_MAP(id, "bg", "bg0", 0, 256, 256, a);      // "alloc 10 bg map text 256x256 at=..." (1: affine)
 *   VS_REC_TILES(id, "bg", "sky", 96, 4, 0, a);       // "alloc 11 bg tiles 96 4bpp at=...": a tile set, whole
 *   VS_REC_CELLS(id, "bg", "sky", 32, 32, 0, a);      // "alloc 12 bg cells 32x32 at=...": a map, whole (1: affine)
 *   VS_REC_TEX(id, "tex", "hero", 64, 64, "16c", key);// a DS texture; key: the NNSGfdTexKey returned
 *   VS_REC_PLTT(id, "pal", "hero", 16, 0, key);       // a DS palette; key: the NNSGfdPlttKey (1: 4-colour)
 *   VS_REC_FREE(id);                                  // "free 7"
 *
 * The DS's 2D engines and bank registers (docs/trace-format.md):
 *
 *   VS_REC_ARENA("obj", "ds-obj", "banks=B0 boundary=128"); // engine A OBJ VRAM
 *   VS_REC_SPRITE(id, "obj", "hero", 32, 32, 16, a);  // bpp 16: "sprite 32x32 bmp", a bitmap sprite
 *   VS_REC_TILE_CB(id, "bg", "lvl", rom, 8, 2, a);    // "tile 12 8bpp cb=2": character base 2 (0-15)
 *   VS_REC_EXTPAL(id, "xpal", "sky", 256, off);       // "pltt 256 at=0x00002000": an extended palette at its offset
 *   VS_REC_TEX_AT(id, "tex", "hero", 64, 64, "16c", off); // a texture at a texture-space offset (libnds)
 *   VS_REC_TEX4X4_AT(id, "tex", "level", 3072, off);  // "alloc 7 tex tex 3072 4x4 tag=level at=...":
 *                                                     //   4x4 texel data of several textures at once
 *   VS_REC_PLTT_AT(id, "pal", "hero", 16, 0, off);    // "pltt 16 at=...": a texture palette at its offset
 *   VS_REC_REALLOC_PLTT_AT(id, "pal", "hero", 4, 1, off); // "realloc ... pltt 4 4c at=...": one replaced
 *   VS_REC_REALLOC_TEX(id, "tex", "hero", 64, 32, "16c", off); // "realloc 7 tex tex 64x32 16c at=...":
 *                                                     //   glTexImage2D again on a bound texture
 *   VS_REC_REALLOC(id, "obj", "hud", 2048, a);        // "realloc 8 obj 2048 at=..."
 *   VS_REC_VRAMCNT('B', 0x89);                        // "vramcnt B 0x89": VRAMCNT_B written
 *   VS_REC_LOCK('A');  VS_REC_UNLOCK('A');            // "lock A", "unlock A" (glLockVRAMBank)
 *   VS_REC_MOVE(id, a);                               // "move 7 to=0x06010000": the game moved it, whole
 *   VS_REC_FRAME();                                   // "frame"
 *   VS_REC_LINE("save level1");                       // any statement, as text
 *
 * A game on the NITRO-System (NNS_Gfd) VRAM managers records each call of
 * NNS_GfdAllocTexVram(size, is4x4comp, opt) and NNS_GfdAllocPlttVram(size,
 * is4pltt, opt) with its arguments and the key it returned; the key is
 * the id (textures 0x1KKKKKKKK, palettes 0x2KKKKKKKK, so the two never
 * meet), and the frees name the key the game passes:
 *
 *   VS_REC_NNS_TEX("tex", size, is4x4comp, opt, key);  // "alloc 0x100c00010 tex 3072 at=0x00000080"
 *   VS_REC_NNS_PLTT("pal", size, is4pltt, opt, key);   // "alloc 0x200040002 pal pltt 16 4c opt=1 at=..."
 *   VS_REC_NNS_FREE_TEX(key);  VS_REC_NNS_FREE_PLTT(key); // "free 0x100c00010"; nothing for the error key 0
 *
 * The size written is the key's (the request rounded as the managers
 * round it: 16 bytes for textures, 8 for palettes, 0 as the smallest);
 * a 4x4 texture is "tex WxH 4x4" when its texel bytes are one texture's
 * (16 x a power of two), else "tex N 4x4": the 4x4 textures of a block
 * uploaded at once (docs/embedding.md).
 *
 * The address a is what the game's allocator returned: VS_REC_FAILED when it
 * returned nothing (the line says at=none, and the replay fails the request
 * as the game did), VS_REC_NO_AT to leave at= out. For the DS macros the
 * NITRO-System key carries the address (bits 0-15, in 8-byte units) and the
 * error key 0 means the call failed. The arena may be NULL in a trace that
 * declares one arena; the tag (1-63 of A-Z a-z 0-9 _-./:) may be NULL.
 * An id is any number not live at the time: the address itself will do.
 * A game whose allocator moves live allocations (gba-obj-compact with
 * vramsim/sprite_handles.h) records each move after copying the data and
 * before the line of the allocation that needed the room.
 *
 * Wrapping an allocator takes one line beside each call:
 *
 *   tile = obj_alloc(&map, tiles);
 *   VS_REC_SPRITE(tile, "obj", "enemy", 16, 16, 4,
 *       tile == NONE ? VS_REC_FAILED : 0x06010000 + tile * 32);
 *   ...
 *   obj_free(&map, tile);
 *   VS_REC_FREE(tile);
 *
 * Lines carry the prefix "@vs " so the recorder can tell them from the game's
 * other debug prints, and are cut at 250 characters: a 64-byte 8bpp tile's
 * data= (128 hex digits) fits, longer payloads do not.
 *
 * Where the lines go: by default mGBA's debug registers. On a console, or an
 * emulator without them, the enable register does not answer 0x1DEA and every
 * macro does nothing but that one probe. A game (or a DS emulator's debug
 * port, or a host test) may route the lines elsewhere by defining, before
 * including this file, VS_REC_PUTS(line) to a statement that prints one
 * NUL-terminated line. Define VS_REC_DISABLE to compile the macros away.
 *
 * On the Nintendo DS (VS_REC_DS defined, or ARM9, which libnds and BlocksDS
 * builds of ARM9 code define) the lines go to a ring in main RAM that
 * `vramsim record GAME.nds` reads after every frame (docs/embedding.md):
 *
 *   struct { char magic[8] = "vsRING1\0"; uint32_t self, size, written,
 *            reserved; uint8_t data[size]; }
 *
 * self is the ring's own address, size VS_REC_RING_SIZE (a power of two
 * from 256 to 1 MiB; 64 KiB unless defined), written the bytes ever
 * written (mod 2^32); stream byte i is at data[i % size]. Each line goes in
 * as a trace file holds it, without the prefix, ended by '\n', and written
 * moves on after its bytes are stored. The ring is one weak symbol
 * (vs_rec_ring) however many files include this one; its header is
 * written at the first line, so the loaded program holds no copy of the
 * magic. More than size bytes in one frame overflow it, and the recording
 * fails (the host says so): a bigger ring, or fewer lines a frame.
 *
 * Freestanding C99 (only <stdint.h>; the DS ring, GCC's weak attribute);
 * each translation unit probes once.
 */
#ifndef VRAMSIM_RECORD_H
#define VRAMSIM_RECORD_H

#include <stdint.h>

#define VS_REC_NO_AT 0xFFFFFFFFu  /* leave at= out */
#define VS_REC_FAILED 0xFFFFFFFEu /* the allocator returned nothing: at=none */
#define VS_REC_PREFIX "@vs "

#if !defined(VS_REC_PUTS) && !defined(VS_REC_DISABLE) && (defined(VS_REC_DS) || defined(ARM9))
#define VS_REC_RING_ 1
#endif

#ifdef VS_REC_RING_
#ifndef VS_REC_RING_SIZE
#define VS_REC_RING_SIZE 65536u
#endif
#if (VS_REC_RING_SIZE) < 256 || (VS_REC_RING_SIZE) > 1048576 || ((VS_REC_RING_SIZE) & ((VS_REC_RING_SIZE) - 1))
#error "VS_REC_RING_SIZE must be a power of two from 256 to 1048576"
#endif

/* The DS transport: see "Where the lines go" above. */
typedef struct vs_rec_ring_t {
	uint8_t magic[8];
	uint32_t self;
	uint32_t size;
	uint32_t written;
	uint32_t reserved;
	uint8_t data[VS_REC_RING_SIZE];
} vs_rec_ring_t;

__attribute__((weak, aligned(4))) vs_rec_ring_t vs_rec_ring;

/* Writes the header: size and self first, the magic last, byte by byte
 * (immediate stores, so no copy of the magic sits in the program). */
static inline void vs_rec_ring_open_(volatile vs_rec_ring_t *r)
{
	r->size = VS_REC_RING_SIZE;
	r->written = 0;
	r->reserved = 0;
	r->self = (uint32_t)(uintptr_t)r;
	r->magic[0] = 'v';
	r->magic[1] = 's';
	r->magic[2] = 'R';
	r->magic[3] = 'I';
	r->magic[4] = 'N';
	r->magic[5] = 'G';
	r->magic[6] = '1';
	r->magic[7] = 0;
}

/* One line and its '\n': the bytes, then written. */
static inline void vs_rec_ring_put_(const char *s)
{
	volatile vs_rec_ring_t *r = &vs_rec_ring;
	uint32_t w, i;

	if (r->self != (uint32_t)(uintptr_t)r)
		vs_rec_ring_open_(r);
	w = r->written;
	for (i = 0; s[i]; i++)
		r->data[(w + i) & (VS_REC_RING_SIZE - 1u)] = (uint8_t)s[i];
	r->data[(w + i) & (VS_REC_RING_SIZE - 1u)] = '\n';
	r->written = w + i + 1u;
}
#endif

/* mGBA's debug-log registers. */
#define VS_MGBA_ENABLE (*(volatile uint16_t *)0x04FFF780)
#define VS_MGBA_FLAGS (*(volatile uint16_t *)0x04FFF700)
#define VS_MGBA_STRING ((volatile char *)0x04FFF600)
#define VS_MGBA_STRING_MAX 256u

/* mGBA's debug levels. */
enum { VS_MGBA_FATAL = 0, VS_MGBA_ERROR = 1, VS_MGBA_WARN = 2, VS_MGBA_INFO = 3, VS_MGBA_DEBUG = 4 };

/* 0 not probed yet, 1 present, 2 absent. */
static uint8_t vs_rec_state_;

/* Enables mGBA's debug log; 1 when it answered (always, with VS_REC_PUTS). */
static inline int vs_mgba_open(void)
{
#if defined(VS_REC_PUTS) || defined(VS_REC_RING_)
	vs_rec_state_ = 1;
#else
	if (!vs_rec_state_) {
		VS_MGBA_ENABLE = 0xC0DE;
		vs_rec_state_ = VS_MGBA_ENABLE == 0x1DEA ? 1 : 2;
	}
#endif
	return vs_rec_state_ == 1;
}

/* Prints one line at a level (cut at 255 characters). */
static inline void vs_mgba_print(int level, const char *s)
{
	volatile char *d = VS_MGBA_STRING;
	uint32_t i;

	if (!vs_mgba_open())
		return;
	for (i = 0; i < VS_MGBA_STRING_MAX - 1 && s[i]; i++)
		d[i] = s[i];
	d[i] = 0;
	VS_MGBA_FLAGS = (uint16_t)(0x100 | (level & 7));
}

/* A line being built. */
typedef struct vs_rec_buf {
	char s[252];
	uint32_t n;
} vs_rec_buf;

static inline void vs_rec_str(vs_rec_buf *b, const char *s)
{
	while (*s && b->n < sizeof b->s - 1)
		b->s[b->n++] = *s++;
	b->s[b->n] = 0;
}

static inline void vs_rec_dec(vs_rec_buf *b, uint32_t v)
{
	char t[11];
	int i = 10;

	t[i] = 0;
	do {
		t[--i] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	vs_rec_str(b, t + i);
}

static inline void vs_rec_hex(vs_rec_buf *b, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	char t[11];
	int i;

	t[0] = '0';
	t[1] = 'x';
	for (i = 0; i < 8; i++)
		t[2 + i] = digits[(v >> (28 - 4 * i)) & 15u];
	t[10] = 0;
	vs_rec_str(b, t);
}

static inline void vs_rec_start(vs_rec_buf *b)
{
	b->n = 0;
	vs_rec_str(b, VS_REC_PREFIX);
}

static inline void vs_rec_emit(vs_rec_buf *b)
{
#if defined(VS_REC_PUTS)
	VS_REC_PUTS(b->s);
#elif defined(VS_REC_RING_)
	vs_rec_ring_put_(b->s + sizeof VS_REC_PREFIX - 1u);
#else
	vs_mgba_print(VS_MGBA_INFO, b->s);
#endif
}

static inline void vs_rec_line_(const char *text)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, text);
	vs_rec_emit(&b);
}

/* "alloc ID [ARENA] " */
static inline void vs_rec_alloc_head_(vs_rec_buf *b, uint32_t id, const char *arena)
{
	vs_rec_start(b);
	vs_rec_str(b, "alloc ");
	vs_rec_dec(b, id);
	vs_rec_str(b, " ");
	if (arena) {
		vs_rec_str(b, arena);
		vs_rec_str(b, " ");
	}
}

/* "VERB ID [ARENA] ", verb "alloc " or "realloc ": the DS's calls (the
 * GBA's keep the head above, whose cycles a game's VBlank counts) */
static inline void vs_rec_head_(vs_rec_buf *b, const char *verb, uint32_t id, const char *arena)
{
	vs_rec_start(b);
	vs_rec_str(b, verb);
	vs_rec_dec(b, id);
	vs_rec_str(b, " ");
	if (arena) {
		vs_rec_str(b, arena);
		vs_rec_str(b, " ");
	}
}

/* " tag=T at=ADDR" (or at=none), leaving the line open for data= */
static inline void vs_rec_alloc_keys_(vs_rec_buf *b, const char *tag, uint32_t at)
{
	if (tag && *tag) {
		vs_rec_str(b, " tag=");
		vs_rec_str(b, tag);
	}
	if (at == VS_REC_FAILED) {
		vs_rec_str(b, " at=none");
	} else if (at != VS_REC_NO_AT) {
		vs_rec_str(b, " at=");
		vs_rec_hex(b, at);
	}
}

static inline void vs_rec_bpp_(vs_rec_buf *b, uint32_t bpp)
{
	vs_rec_str(b, bpp == 8 ? " 8bpp" : " 4bpp");
}

/* "WxH" */
static inline void vs_rec_dims_(vs_rec_buf *b, uint32_t w, uint32_t h)
{
	vs_rec_dec(b, w);
	vs_rec_str(b, "x");
	vs_rec_dec(b, h);
}

/* bpp 4 or 8; 16 is a DS bitmap sprite ("bmp"). The GBA's calls are
 * written as they were before the DS's came: a game's VBlank budget
 * counts their cycles. */
static inline void vs_rec_sprite_(uint32_t id, const char *arena, const char *tag, uint32_t w, uint32_t h,
	uint32_t bpp, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "sprite ");
	vs_rec_dims_(&b, w, h);
	vs_rec_str(&b, bpp == 8 ? " 8bpp" : bpp == 16 ? " bmp" : " 4bpp");
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

static inline void vs_rec_bytes_(const char *verb, uint32_t id, const char *arena, const char *tag, uint32_t size,
	uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_head_(&b, verb, id, arena);
	vs_rec_dec(&b, size);
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* A BG tile by ROM index; data (may be 0) adds the tile's 32 (64) bytes. */
static inline void vs_rec_tile_(uint32_t id, const char *arena, const char *tag, uint32_t rom, uint32_t bpp,
	uint32_t at, const uint8_t *data)
{
	static const char digits[] = "0123456789abcdef";
	vs_rec_buf b;
	uint32_t i, n = bpp == 8 ? 64u : 32u;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "tile ");
	vs_rec_dec(&b, rom);
	vs_rec_bpp_(&b, bpp);
	vs_rec_alloc_keys_(&b, tag, at);
	if (data) {
		vs_rec_str(&b, " data=");
		for (i = 0; i < n && b.n + 2 < sizeof b.s; i++) {
			b.s[b.n++] = digits[data[i] >> 4];
			b.s[b.n++] = digits[data[i] & 15u];
		}
		b.s[b.n] = 0;
	}
	vs_rec_emit(&b);
}

/* The same with cb, the charblock (GBA, 0-3) or character base (DS, 0-15)
 * its BG draws from */
static inline void vs_rec_tile_cb_(uint32_t id, const char *arena, const char *tag, uint32_t rom, uint32_t bpp,
	uint32_t cb, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "tile ");
	vs_rec_dec(&b, rom);
	vs_rec_bpp_(&b, bpp);
	vs_rec_str(&b, " cb=");
	vs_rec_dec(&b, cb);
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

static inline void vs_rec_map_(uint32_t id, const char *arena, const char *tag, int affine, uint32_t w,
	uint32_t h, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, affine ? "map affine " : "map text ");
	vs_rec_dims_(&b, w, h);
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* A tile set of n tiles uploaded whole (Butano's regular_bg_tiles_ptr,
 * affine_bg_tiles_ptr): "tiles N 4bpp|8bpp [affine]"; n counts tiles of
 * the depth (64 bytes at 8bpp) */
static inline void vs_rec_tiles_(uint32_t id, const char *arena, const char *tag, uint32_t n, uint32_t bpp,
	int affine, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "tiles ");
	vs_rec_dec(&b, n);
	vs_rec_bpp_(&b, bpp);
	if (affine)
		vs_rec_str(&b, " affine");
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* A map of w x h cells uploaded whole (Butano's regular_bg_map_ptr,
 * affine_bg_map_ptr): "cells WxH [affine]" */
static inline void vs_rec_cells_(uint32_t id, const char *arena, const char *tag, uint32_t w, uint32_t h,
	int affine, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "cells ");
	vs_rec_dims_(&b, w, h);
	if (affine)
		vs_rec_str(&b, " affine");
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* The address in a NITRO-System texture or palette key (bits 0-15 in
 * 8-byte units); the error key 0 is a failed call. */
static inline uint32_t vs_rec_key_at_(uint32_t key)
{
	return key ? (key & 0xFFFFu) << 3 : VS_REC_FAILED;
}

/* A texture at address at (an offset in texture space; VS_REC_FAILED,
 * VS_REC_NO_AT as for the others) */
static inline void vs_rec_tex_(const char *verb, uint32_t id, const char *arena, const char *tag, uint32_t w,
	uint32_t h, const char *format, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_head_(&b, verb, id, arena);
	vs_rec_str(&b, "tex ");
	vs_rec_dims_(&b, w, h);
	vs_rec_str(&b, " ");
	vs_rec_str(&b, format);
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* "alloc ID [ARENA] tex N 4x4 [tag=T] at=A": 4x4 texel data by its size */
static inline void vs_rec_tex4x4_(uint32_t id, const char *arena, const char *tag, uint32_t bytes, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_head_(&b, "alloc ", id, arena);
	vs_rec_str(&b, "tex ");
	vs_rec_dec(&b, bytes);
	vs_rec_str(&b, " 4x4");
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

static inline void vs_rec_pltt_(const char *verb, uint32_t id, const char *arena, const char *tag, uint32_t colours,
	int four, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_head_(&b, verb, id, arena);
	vs_rec_str(&b, "pltt ");
	vs_rec_dec(&b, colours);
	if (four)
		vs_rec_str(&b, " 4c");
	vs_rec_alloc_keys_(&b, tag, at);
	vs_rec_emit(&b);
}

/* "0xNKKKKKKKK": the NNS macros' ids, kind N 1 (texture) or 2 (palette)
 * above the 32 bits of the key K */
static inline void vs_rec_nns_id_(vs_rec_buf *b, uint32_t kind, uint32_t key)
{
	static const char digits[] = "0123456789abcdef";
	char t[12];
	int i;

	t[0] = '0';
	t[1] = 'x';
	t[2] = digits[kind & 15u];
	for (i = 0; i < 8; i++)
		t[3 + i] = digits[(key >> (28 - 4 * i)) & 15u];
	t[11] = 0;
	vs_rec_str(b, t);
}

/* The size an NNS manager takes for a request: rounded up to its unit, a
 * request of 0 as one unit (NNSi_GfdGetTexKeyRoundupSize and the palette's) */
static inline uint32_t vs_rec_nns_round_(uint32_t size, uint32_t unit)
{
	return size ? (size + unit - 1u) & ~(unit - 1u) : unit;
}

/* NNS_GfdAllocTexVram(size, is4x4comp, opt) returned key: "alloc 0x1KEY
 * [ARENA] N|tex WxH 4x4|tex N 4x4 [opt=OPT] at=ADDR|none" */
static inline void vs_rec_nns_tex_(const char *arena, uint32_t size, int is4x4comp, uint32_t opt, uint32_t key)
{
	vs_rec_buf b;
	uint32_t bytes = key ? ((key >> 16) & 0x7FFFu) << 4 : vs_rec_nns_round_(size, 16u);
	uint32_t w = 8, h = 8;

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "alloc ");
	vs_rec_nns_id_(&b, 1u, key);
	vs_rec_str(&b, " ");
	if (arena) {
		vs_rec_str(&b, arena);
		vs_rec_str(&b, " ");
	}
	if (is4x4comp) {
		/* one texture of w x h texels holds w * h / 4 bytes */
		while (w * h / 4u < bytes && h <= 1024u) {
			if (w < h)
				w *= 2u;
			else
				h *= 2u;
		}
		vs_rec_str(&b, "tex ");
		if (w * h / 4u == bytes && h <= 1024u)
			vs_rec_dims_(&b, w, h);
		else
			vs_rec_dec(&b, bytes);
		vs_rec_str(&b, " 4x4");
	} else {
		vs_rec_dec(&b, bytes);
	}
	if (opt) {
		vs_rec_str(&b, " opt=");
		vs_rec_dec(&b, opt);
	}
	vs_rec_alloc_keys_(&b, (const char *)0, key ? (key & 0xFFFFu) << 3 : VS_REC_FAILED);
	vs_rec_emit(&b);
}

/* NNS_GfdAllocPlttVram(size, is4pltt, opt) returned key: "alloc 0x2KEY
 * [ARENA] pltt N [4c]|8 [opt=OPT] at=ADDR|none" (8 bytes of a palette
 * not for 4-colour textures are bytes: "pltt 4" means a 4-colour one) */
static inline void vs_rec_nns_pltt_(const char *arena, uint32_t size, int is4pltt, uint32_t opt, uint32_t key)
{
	vs_rec_buf b;
	uint32_t bytes = key ? (key >> 16) << 3 : vs_rec_nns_round_(size, 8u);

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "alloc ");
	vs_rec_nns_id_(&b, 2u, key);
	vs_rec_str(&b, " ");
	if (arena) {
		vs_rec_str(&b, arena);
		vs_rec_str(&b, " ");
	}
	if (!is4pltt && bytes == 8u) {
		vs_rec_str(&b, "8");
	} else {
		vs_rec_str(&b, "pltt ");
		vs_rec_dec(&b, bytes / 2u);
		if (is4pltt)
			vs_rec_str(&b, " 4c");
	}
	if (opt) {
		vs_rec_str(&b, " opt=");
		vs_rec_dec(&b, opt);
	}
	vs_rec_alloc_keys_(&b, (const char *)0, key ? (key & 0xFFFFu) << 3 : VS_REC_FAILED);
	vs_rec_emit(&b);
}

/* NNS_GfdFree*Vram(key): "free 0xNKEY"; the error key 0 allocated nothing */
static inline void vs_rec_nns_free_(uint32_t kind, uint32_t key)
{
	vs_rec_buf b;

	if (!key || !vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "free ");
	vs_rec_nns_id_(&b, kind, key);
	vs_rec_emit(&b);
}

/* "vramcnt B 0x89", "lock B", "unlock B": bank a letter 'A'-'I' */
static inline void vs_rec_bank_(const char *verb, char bank, int value)
{
	static const char digits[] = "0123456789abcdef";
	vs_rec_buf b;
	char letter[2];

	if (!vs_mgba_open())
		return;
	letter[0] = bank;
	letter[1] = 0;
	vs_rec_start(&b);
	vs_rec_str(&b, verb);
	vs_rec_str(&b, " ");
	vs_rec_str(&b, letter);
	if (value >= 0) {
		char v[6] = { ' ', '0', 'x', digits[(value >> 4) & 15], digits[value & 15], 0 };
		vs_rec_str(&b, v);
	}
	vs_rec_emit(&b);
}

static inline void vs_rec_free_(uint32_t id)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "free ");
	vs_rec_dec(&b, id);
	vs_rec_emit(&b);
}

static inline void vs_rec_move_(uint32_t id, uint32_t to)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "move ");
	vs_rec_dec(&b, id);
	vs_rec_str(&b, " to=");
	vs_rec_hex(&b, to);
	vs_rec_emit(&b);
}

static inline void vs_rec_arena_(const char *name, const char *kind, const char *keys)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_start(&b);
	vs_rec_str(&b, "arena ");
	vs_rec_str(&b, name);
	vs_rec_str(&b, " ");
	vs_rec_str(&b, kind);
	if (keys && *keys) {
		vs_rec_str(&b, " ");
		vs_rec_str(&b, keys);
	}
	vs_rec_emit(&b);
}

#ifdef VS_REC_DISABLE
#define VS_REC_BEGIN() ((void)0)
#define VS_REC_ARENA(name, kind, keys) ((void)0)
#define VS_REC_SPRITE(id, arena, tag, w, h, bpp, at) ((void)0)
#define VS_REC_BYTES(id, arena, tag, size, at) ((void)0)
#define VS_REC_TILE(id, arena, tag, rom, bpp, at) ((void)0)
#define VS_REC_TILE_DATA(id, arena, tag, rom, bpp, at, data) ((void)0)
#define VS_REC_MAP(id, arena, tag, affine, w, h, at) ((void)0)
#define VS_REC_TILES(id, arena, tag, n, bpp, affine, at) ((void)0)
#define VS_REC_CELLS(id, arena, tag, w, h, affine, at) ((void)0)
#define VS_REC_TEX(id, arena, tag, w, h, format, key) ((void)0)
#define VS_REC_PLTT(id, arena, tag, colours, four, key) ((void)0)
#define VS_REC_TILE_CB(id, arena, tag, rom, bpp, cb, at) ((void)0)
#define VS_REC_EXTPAL(id, arena, tag, colours, at) ((void)0)
#define VS_REC_PLTT_AT(id, arena, tag, colours, four, at) ((void)0)
#define VS_REC_REALLOC_PLTT_AT(id, arena, tag, colours, four, at) ((void)0)
#define VS_REC_TEX_AT(id, arena, tag, w, h, format, at) ((void)0)
#define VS_REC_TEX4X4_AT(id, arena, tag, bytes, at) ((void)0)
#define VS_REC_REALLOC_TEX(id, arena, tag, w, h, format, at) ((void)0)
#define VS_REC_REALLOC(id, arena, tag, size, at) ((void)0)
#define VS_REC_VRAMCNT(bank, value) ((void)0)
#define VS_REC_LOCK(bank) ((void)0)
#define VS_REC_UNLOCK(bank) ((void)0)
#define VS_REC_FREE(id) ((void)0)
#define VS_REC_MOVE(id, to) ((void)0)
#define VS_REC_FRAME() ((void)0)
#define VS_REC_LINE(text) ((void)0)
#define VS_REC_NNS_TEX(arena, size, is4x4comp, opt, key) ((void)0)
#define VS_REC_NNS_PLTT(arena, size, is4pltt, opt, key) ((void)0)
#define VS_REC_NNS_FREE_TEX(key) ((void)0)
#define VS_REC_NNS_FREE_PLTT(key) ((void)0)
#else
#define VS_REC_BEGIN() vs_rec_line_("vramsim-trace 1")
#define VS_REC_ARENA(name, kind, keys) vs_rec_arena_((name), (kind), (keys))
#define VS_REC_SPRITE(id, arena, tag, w, h, bpp, at) vs_rec_sprite_((id), (arena), (tag), (w), (h), (bpp), (at))
#define VS_REC_BYTES(id, arena, tag, size, at) vs_rec_bytes_("alloc ", (id), (arena), (tag), (size), (at))
#define VS_REC_TILE(id, arena, tag, rom, bpp, at) \
	vs_rec_tile_((id), (arena), (tag), (rom), (bpp), (at), (const uint8_t *)0)
#define VS_REC_TILE_DATA(id, arena, tag, rom, bpp, at, data) \
	vs_rec_tile_((id), (arena), (tag), (rom), (bpp), (at), (data))
#define VS_REC_MAP(id, arena, tag, affine, w, h, at) vs_rec_map_((id), (arena), (tag), (affine), (w), (h), (at))
#define VS_REC_TILES(id, arena, tag, n, bpp, affine, at) \
	vs_rec_tiles_((id), (arena), (tag), (n), (bpp), (affine) != 0, (at))
#define VS_REC_CELLS(id, arena, tag, w, h, affine, at) \
	vs_rec_cells_((id), (arena), (tag), (w), (h), (affine) != 0, (at))
#define VS_REC_TEX(id, arena, tag, w, h, format, key) \
	vs_rec_tex_("alloc ", (id), (arena), (tag), (w), (h), (format), vs_rec_key_at_(key))
#define VS_REC_PLTT(id, arena, tag, colours, four, key) \
	vs_rec_pltt_("alloc ", (id), (arena), (tag), (colours), (four), vs_rec_key_at_(key))
#define VS_REC_TILE_CB(id, arena, tag, rom, bpp, cb, at) \
	vs_rec_tile_cb_((id), (arena), (tag), (rom), (bpp), (cb), (at))
#define VS_REC_EXTPAL(id, arena, tag, colours, at) vs_rec_pltt_("alloc ", (id), (arena), (tag), (colours), 0, (at))
#define VS_REC_PLTT_AT(id, arena, tag, colours, four, at) \
	vs_rec_pltt_("alloc ", (id), (arena), (tag), (colours), (four), (at))
#define VS_REC_REALLOC_PLTT_AT(id, arena, tag, colours, four, at) \
	vs_rec_pltt_("realloc ", (id), (arena), (tag), (colours), (four), (at))
#define VS_REC_TEX_AT(id, arena, tag, w, h, format, at) \
	vs_rec_tex_("alloc ", (id), (arena), (tag), (w), (h), (format), (at))
#define VS_REC_TEX4X4_AT(id, arena, tag, bytes, at) \
	vs_rec_tex4x4_((id), (arena), (tag), (uint32_t)(bytes), (at))
#define VS_REC_REALLOC_TEX(id, arena, tag, w, h, format, at) \
	vs_rec_tex_("realloc ", (id), (arena), (tag), (w), (h), (format), (at))
#define VS_REC_REALLOC(id, arena, tag, size, at) vs_rec_bytes_("realloc ", (id), (arena), (tag), (size), (at))
#define VS_REC_VRAMCNT(bank, value) vs_rec_bank_("vramcnt", (bank), (int)((value) & 0xFF))
#define VS_REC_LOCK(bank) vs_rec_bank_("lock", (bank), -1)
#define VS_REC_UNLOCK(bank) vs_rec_bank_("unlock", (bank), -1)
#define VS_REC_FREE(id) vs_rec_free_(id)
#define VS_REC_MOVE(id, to) vs_rec_move_((id), (to))
#define VS_REC_FRAME() vs_rec_line_("frame")
#define VS_REC_LINE(text) vs_rec_line_(text)
#define VS_REC_NNS_TEX(arena, size, is4x4comp, opt, key) \
	vs_rec_nns_tex_((arena), (uint32_t)(size), (is4x4comp) != 0, (uint32_t)(opt), (uint32_t)(key))
#define VS_REC_NNS_PLTT(arena, size, is4pltt, opt, key) \
	vs_rec_nns_pltt_((arena), (uint32_t)(size), (is4pltt) != 0, (uint32_t)(opt), (uint32_t)(key))
#define VS_REC_NNS_FREE_TEX(key) vs_rec_nns_free_(1u, (uint32_t)(key))
#define VS_REC_NNS_FREE_PLTT(key) vs_rec_nns_free_(2u, (uint32_t)(key))
#endif

#endif
