/* SPDX-License-Identifier: Zlib */
/* record.h - header-only trace recorder for GBA homebrew.
 *
 * A game includes this file and calls the VS_REC_* macros where it calls its
 * allocators. Each macro formats one line of trace format v1
 * (docs/trace-format.md) and prints it through mGBA's debug-log registers;
 * `vramsim record GAME.gba --frames N -o TRACE` runs the game headless and
 * writes those lines out as a trace.
 *
 *   VS_REC_BEGIN();                              // "vramsim-trace 1"
 *   VS_REC_ARENA("obj", "gba-obj", "mode=0");    // "arena obj gba-obj mode=0"
 *   VS_REC_SPRITE(id, 32, 32, 4, tile_addr);     // "alloc 7 sprite 32x32 4bpp at=0x06010400"
 *   VS_REC_BYTES(id, "bg", 2048, addr);          // "alloc 8 bg 2048 at=0x06000800"
 *   VS_REC_TILE(id, "bg", rom_index, 4, addr);   // "alloc 9 bg tile 12 4bpp at=0x..."
 *   VS_REC_TILE_DATA(id, "bg", rom, 4, addr, p); // the same, with data= the tile's 32 (64) bytes at p
 *   VS_REC_MAP(id, "bg", 0, 256, 256, addr);     // "alloc 10 bg map text 256x256 at=0x..." (1: affine)
 *   VS_REC_FREE(id);                             // "free 7"
 *   VS_REC_FRAME();                              // "frame"
 *   VS_REC_LINE("save level1");                  // any statement, as text
 *
 * An `at` of VS_REC_NO_AT leaves at= out; an arena name of NULL leaves the
 * arena out (traces that declare one arena). Lines carry the prefix "@vs "
 * so the recorder can tell them from the game's other debug prints; lines
 * are cut at 250 characters: a 64-byte 8bpp tile's data= (128 hex digits)
 * fits, longer payloads (a sprite's graphics) do not.
 *
 * On a console, or an emulator without mGBA's registers, the enable register
 * does not answer 0x1DEA and every macro does nothing but that one probe.
 * Define VS_REC_DISABLE to compile the macros away entirely.
 *
 * Freestanding C99 (only <stdint.h>); each translation unit probes once.
 */
#ifndef VRAMSIM_RECORD_H
#define VRAMSIM_RECORD_H

#include <stdint.h>

#define VS_REC_NO_AT 0xFFFFFFFFu
#define VS_REC_PREFIX "@vs "

/* mGBA's debug-log registers. */
#define VS_MGBA_ENABLE (*(volatile uint16_t *)0x04FFF780)
#define VS_MGBA_FLAGS (*(volatile uint16_t *)0x04FFF700)
#define VS_MGBA_STRING ((volatile char *)0x04FFF600)
#define VS_MGBA_STRING_MAX 256u

/* mGBA's debug levels. */
enum { VS_MGBA_FATAL = 0, VS_MGBA_ERROR = 1, VS_MGBA_WARN = 2, VS_MGBA_INFO = 3, VS_MGBA_DEBUG = 4 };

/* 0 not probed yet, 1 present, 2 absent. */
static uint8_t vs_rec_state_;

/* Enables mGBA's debug log; 1 when it answered. */
static inline int vs_mgba_open(void)
{
	if (!vs_rec_state_) {
		VS_MGBA_ENABLE = 0xC0DE;
		vs_rec_state_ = VS_MGBA_ENABLE == 0x1DEA ? 1 : 2;
	}
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
	vs_mgba_print(VS_MGBA_INFO, b->s);
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

static inline void vs_rec_alloc_tail_(vs_rec_buf *b, uint32_t at)
{
	if (at != VS_REC_NO_AT) {
		vs_rec_str(b, " at=");
		vs_rec_hex(b, at);
	}
	vs_rec_emit(b);
}

static inline void vs_rec_sprite_(uint32_t id, const char *arena, uint32_t w, uint32_t h,
	uint32_t bpp, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "sprite ");
	vs_rec_dec(&b, w);
	vs_rec_str(&b, "x");
	vs_rec_dec(&b, h);
	vs_rec_str(&b, bpp == 8 ? " 8bpp" : " 4bpp");
	vs_rec_alloc_tail_(&b, at);
}

static inline void vs_rec_bytes_(uint32_t id, const char *arena, uint32_t size, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_dec(&b, size);
	vs_rec_alloc_tail_(&b, at);
}

static inline void vs_rec_tile_(uint32_t id, const char *arena, uint32_t rom, uint32_t bpp, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "tile ");
	vs_rec_dec(&b, rom);
	vs_rec_str(&b, bpp == 8 ? " 8bpp" : " 4bpp");
	vs_rec_alloc_tail_(&b, at);
}

/* As vs_rec_tile_, with the tile's bytes as data=HEX (32 or 64 bytes). */
static inline void vs_rec_tile_data_(uint32_t id, const char *arena, uint32_t rom, uint32_t bpp, uint32_t at,
	const uint8_t *data)
{
	static const char digits[] = "0123456789abcdef";
	vs_rec_buf b;
	uint32_t i, n = bpp == 8 ? 64u : 32u;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, "tile ");
	vs_rec_dec(&b, rom);
	vs_rec_str(&b, bpp == 8 ? " 8bpp" : " 4bpp");
	if (at != VS_REC_NO_AT) {
		vs_rec_str(&b, " at=");
		vs_rec_hex(&b, at);
	}
	vs_rec_str(&b, " data=");
	for (i = 0; i < n && b.n + 2 < sizeof b.s; i++) {
		b.s[b.n++] = digits[data[i] >> 4];
		b.s[b.n++] = digits[data[i] & 15u];
	}
	b.s[b.n] = 0;
	vs_rec_emit(&b);
}

static inline void vs_rec_map_(uint32_t id, const char *arena, int affine, uint32_t w, uint32_t h, uint32_t at)
{
	vs_rec_buf b;

	if (!vs_mgba_open())
		return;
	vs_rec_alloc_head_(&b, id, arena);
	vs_rec_str(&b, affine ? "map affine " : "map text ");
	vs_rec_dec(&b, w);
	vs_rec_str(&b, "x");
	vs_rec_dec(&b, h);
	vs_rec_alloc_tail_(&b, at);
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
#define VS_REC_SPRITE(id, w, h, bpp, at) ((void)0)
#define VS_REC_SPRITE_IN(arena, id, w, h, bpp, at) ((void)0)
#define VS_REC_BYTES(id, arena, size, at) ((void)0)
#define VS_REC_TILE(id, arena, rom, bpp, at) ((void)0)
#define VS_REC_TILE_DATA(id, arena, rom, bpp, at, data) ((void)0)
#define VS_REC_MAP(id, arena, affine, w, h, at) ((void)0)
#define VS_REC_FREE(id) ((void)0)
#define VS_REC_FRAME() ((void)0)
#define VS_REC_LINE(text) ((void)0)
#else
#define VS_REC_BEGIN() vs_rec_line_("vramsim-trace 1")
#define VS_REC_ARENA(name, kind, keys) vs_rec_arena_((name), (kind), (keys))
#define VS_REC_SPRITE(id, w, h, bpp, at) vs_rec_sprite_((id), (const char *)0, (w), (h), (bpp), (at))
#define VS_REC_SPRITE_IN(arena, id, w, h, bpp, at) vs_rec_sprite_((id), (arena), (w), (h), (bpp), (at))
#define VS_REC_BYTES(id, arena, size, at) vs_rec_bytes_((id), (arena), (size), (at))
#define VS_REC_TILE(id, arena, rom, bpp, at) vs_rec_tile_((id), (arena), (rom), (bpp), (at))
#define VS_REC_TILE_DATA(id, arena, rom, bpp, at, data) \
	vs_rec_tile_data_((id), (arena), (rom), (bpp), (at), (data))
#define VS_REC_MAP(id, arena, affine, w, h, at) vs_rec_map_((id), (arena), (affine), (w), (h), (at))
#define VS_REC_FREE(id) vs_rec_free_(id)
#define VS_REC_FRAME() vs_rec_line_("frame")
#define VS_REC_LINE(text) vs_rec_line_(text)
#endif

#endif
