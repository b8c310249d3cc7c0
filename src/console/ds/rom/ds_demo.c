/* SPDX-License-Identifier: Zlib */
/* ds_demo.c - vramsim's DS demo program, ARM9 side: both 2D engines and
 * the 3D engine, their VRAM placed by the project's allocators (src/alloc,
 * built for the ARM946E-S), every call recorded with include/vramsim/
 * record.h through its DS ring. `vramsim record demo.nds` writes the trace;
 * `vramsim capture demo.nds` infers one from VRAM, OAM and the polygons.
 *
 * The arenas and their allocators:
 *   obja  ds-obj engine=a banks=B0 boundary=128  libnds oamAllocateGfx (libnds_sprite.c, 1D 128)
 *   objb  ds-obj engine=b banks=I0               first fit over 32-byte tiles (gba_obj_first_fit.c)
 *   bga   ds-bg engine=a banks=F0                first fit over 32-byte tiles: a map and 8 tiles
 *   bgb   ds-bg engine=b banks=C0                the same
 *   tex   ds-tex banks=A0                        NITRO-System linked-list texture manager (nns_lnk_tex.c)
 *   pal   ds-pltt banks=E0                       NITRO-System linked-list palette manager (nns_lnk_pltt.c)
 *
 * The timeline, in trace frames (ds_demo.h has the numbers; frame 0 is the
 * set-up, before the first `frame` line):
 *   0    both BGs: a 32x32 map and 8 tiles each; textures 0 (16c 32x32),
 *        1 (16c 64x32), 2 (256c 32x32) with a palette each, uploaded with
 *        banks A and E in LCDC mode and then mapped as texture slot 0 and
 *        palette slots; 4 engine A and 2 engine B sprites
 *   every 4th frame from 4 to 296: engine A churn, one sprite freed or
 *        allocated (slot and size from a fixed LCG: the same every run)
 *   every 8th frame from 8 to 320 but 176-184: engine B churn, the same
 *   60   engine A BG: tiles 0-3 freed, 4 new ones in their place
 *   120  texture 1 and its palette freed; texture 3 (256c 64x64) and its
 *        256-colour palette allocated
 *   150  texture 4 (4c 16x16) and a 4-colour palette
 *   180  the remap: every engine B sprite freed, `vramcnt I 0x80` (LCDC),
 *        `vramcnt D 0x84` (engine B OBJ, 128 KiB); from 192 engine B
 *        sprites come from bank D, 32 KiB of it (first fit restarted)
 *   210  texture 0 and its palette freed; texture 5 (16c 32x64) in
 *   240  engine B BG: tiles 2-5 freed, 4 new ones
 *   270  texture 2 and its palette freed; textures 6 (16c 16x16) and
 *        7 (256c 32x32) with their palettes
 *   300  every engine A sprite freed
 *   330  the script ends (done = 1); the scene stays as it is
 *
 * Every live sprite has an OAM entry, every live BG tile is in its map,
 * every live texture is drawn on a quad with its palette, each frame:
 * what is allocated is on screen. Data goes into VRAM before the line that
 * records it: the replay's own pattern for the id (replay_records.c), so a
 * replay's VRAM can be compared with the console's byte for byte.
 * Texture uploads after the set-up switch bank A (E) to LCDC, write, and
 * switch it back within the step; those flips are not recorded: between
 * frames the bank is always a texture (palette) slot.
 */
#include <stdint.h>

#include "ds_hw.h"
#include "ds_demo.h"
#include "vramsim/alloc/gba_obj_first_fit.h"
#include "vramsim/alloc/libnds_sprite.h"
#include "vramsim/alloc/nns_gfd.h"
#define VS_REC_DS 1
#include "vramsim/record.h"

#define STATUS ((volatile ds_demo_status *)DS_DEMO_STATUS_ADDR)
#define LCDC_A VRAM_LCDC            /* bank A in LCDC mode */
#define LCDC_E (VRAM_LCDC + 0x80000u) /* bank E */

int main(void);

static uint32_t next_id = 1;
static uint32_t rng_state = 20261128u;

static uint32_t rng(uint32_t n)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (rng_state >> 16) % n;
}

/* The replay's bytes for allocation id (replay_records.c, expected_byte),
 * in 32-bit writes: VRAM takes no byte writes. */
static void write_pattern(uint32_t id, uint32_t addr, uint32_t bytes)
{
	uint64_t z = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	uint32_t w0 = (uint32_t)(z >> 32) ^ (uint32_t)z, i;
	volatile uint32_t *p = (volatile uint32_t *)addr;

	for (i = 0; i < bytes / 4; i++)
		p[i] = w0 + i * 0x9E3779B1u;
}

static void wait_vblank(void)
{
	while (REG_VCOUNT >= DS_VBLANK_LINE)
		;
	while (REG_VCOUNT < DS_VBLANK_LINE)
		;
}

/* ---- sprites --------------------------------------------------------- */

#define SPRITES 12u

typedef struct sprite {
	uint32_t id, off; /* off: bytes from the engine's OBJ base */
	uint8_t shape, size, bpp, live;
} sprite;

typedef struct engine_objs {
	const char *arena;
	volatile uint16_t *oam;
	uint32_t base, unit; /* OBJ VRAM base, bytes a tile number counts */
	sprite s[SPRITES];
} engine_objs;

static libnds_sprite objs_a; /* engine A: oamAllocateGfx, 1D with a 128-byte boundary */
static gba_obj_ff objs_b;    /* engine B: first fit over 32-byte tiles */
static engine_objs eng_a = { "obja", OAM_A, VRAM_OBJ_A, 128u, { { 0, 0, 0, 0, 0, 0 } } };
static engine_objs eng_b = { "objb", OAM_B, VRAM_OBJ_B, 32u, { { 0, 0, 0, 0, 0, 0 } } };

static const uint8_t dims[3][4][2] = {
	{ { 8, 8 }, { 16, 16 }, { 32, 32 }, { 64, 64 } },
	{ { 16, 8 }, { 32, 8 }, { 32, 16 }, { 64, 32 } },
	{ { 8, 16 }, { 8, 32 }, { 16, 32 }, { 32, 64 } },
};
static const char *const size_tag[4] = { "spark", "coin", "enemy", "boss" };

/* Places bytes on engine e: a byte offset, or VS_REC_FAILED. */
static uint32_t obj_alloc(engine_objs *e, uint32_t bytes, uint32_t bpp)
{
	if (e == &eng_a) {
		int32_t u = libnds_sprite_alloc(&objs_a, bytes * 8u / bpp,
			bpp == 8 ? LIBNDS_COLOR_256 : LIBNDS_COLOR_16);
		return u < 0 ? VS_REC_FAILED : (uint32_t)u << objs_a.step;
	} else {
		uint16_t t = gba_obj_ff_alloc(&objs_b, (uint16_t)(bytes / 32u), bpp == 8 ? 2 : 1);
		return t == GBA_OBJ_FF_NONE ? VS_REC_FAILED : t * 32u;
	}
}

static void sprite_free(engine_objs *e, sprite *s)
{
	uint32_t w = dims[s->shape][s->size][0], h = dims[s->shape][s->size][1];

	if (e == &eng_a)
		libnds_sprite_free(&objs_a, s->off);
	else
		gba_obj_ff_free(&objs_b, (uint16_t)(s->off / 32u), (uint16_t)(w * h * s->bpp / 8u / 32u));
	VS_REC_FREE(s->id);
	s->live = 0;
}

static void sprite_new(engine_objs *e, sprite *s, uint32_t shape, uint32_t size, uint32_t bpp)
{
	uint32_t w = dims[shape][size][0], h = dims[shape][size][1], bytes = w * h * bpp / 8u;
	uint32_t id = next_id++, off = obj_alloc(e, bytes, bpp);

	if (off == VS_REC_FAILED) {
		/* a failed allocation is part of the trace too */
		VS_REC_SPRITE(id, e->arena, size_tag[size], w, h, bpp, VS_REC_FAILED);
		return;
	}
	s->id = id;
	s->off = off;
	s->shape = (uint8_t)shape;
	s->size = (uint8_t)size;
	s->bpp = (uint8_t)bpp;
	s->live = 1;
	write_pattern(id, e->base + off, bytes); /* data first, then the line */
	VS_REC_SPRITE(id, e->arena, size_tag[size], w, h, bpp, e->base + off);
}

/* One churn step: a slot from the LCG, freed when live, else filled. Big
 * sprites only with `big` (engine B in bank D). */
static void sprite_churn(engine_objs *e, int big)
{
	sprite *s = &e->s[rng(SPRITES)];
	uint32_t shape = rng(3), size = rng(big ? 4 : 3), bpp = rng(4) == 0 ? 8 : 4;

	if (s->live)
		sprite_free(e, s);
	else
		sprite_new(e, s, shape, size, bpp);
}

static void sprites_clear(engine_objs *e)
{
	uint32_t i;

	for (i = 0; i < SPRITES; i++)
		if (e->s[i].live)
			sprite_free(e, &e->s[i]);
}

/* OAM: entry i draws slot i, the rest hidden. */
static void sprites_show(const engine_objs *e)
{
	uint32_t i;

	for (i = 0; i < 128; i++) {
		volatile uint16_t *o = e->oam + 4 * i;
		const sprite *s = i < SPRITES ? &e->s[i] : NULL; /* no pointer past the array's end */

		if (!s || !s->live) {
			o[0] = 0x0200; /* hidden */
			continue;
		}
		o[0] = (uint16_t)((i * 13u) % 150u | (s->bpp == 8 ? 0x2000u : 0u) | (uint16_t)(s->shape << 14));
		o[1] = (uint16_t)((i * 37u) % 220u | (uint16_t)(s->size << 14));
		o[2] = (uint16_t)(s->off / e->unit); /* priority 0: in front */
	}
}

/* ---- BGs: a text BG per engine, a map and 8 tiles ------------------- */

#define BG_TILES 8u

typedef struct bg {
	const char *arena;
	uint32_t base;               /* BG VRAM base of the engine */
	gba_obj_ff ff;               /* its bank's 32-byte tiles */
	uint32_t map_id, map_tile;   /* the map: 64 tiles, 2 KiB aligned */
	uint32_t id[BG_TILES], tile[BG_TILES], rom[BG_TILES];
} bg;

static bg bg_a = { "bga", VRAM_BG_A, { { 0 }, { 0 }, 0 }, 0, 0, { 0 }, { 0 }, { 0 } };
static bg bg_b = { "bgb", VRAM_BG_B, { { 0 }, { 0 }, 0 }, 0, 0, { 0 }, { 0 }, { 0 } };

static void bg_tile_new(bg *b, uint32_t k, uint32_t rom)
{
	uint16_t t = gba_obj_ff_alloc(&b->ff, 1, 1);

	b->id[k] = next_id++;
	b->rom[k] = rom;
	b->tile[k] = t; /* the bank has room for far more than the demo asks */
	write_pattern(b->id[k], b->base + t * 32u, 32u);
	VS_REC_TILE_CB(b->id[k], b->arena, "tiles", rom, 4, 0, b->base + t * 32u);
}

/* The visible 32x24 cells: a diagonal pattern of the 8 tiles. */
static void bg_write_map(const bg *b)
{
	volatile uint16_t *map = (volatile uint16_t *)(b->base + b->map_tile * 32u);
	uint32_t x, y;

	for (y = 0; y < 32; y++)
		for (x = 0; x < 32; x++)
			map[y * 32u + x] = y < 24 ? (uint16_t)b->tile[(x / 2u + y) % BG_TILES] : (uint16_t)b->tile[0];
}

static void bg_init(bg *b, uint32_t tiles_in_bank, uint32_t rom0)
{
	uint32_t k;

	gba_obj_ff_init_span(&b->ff, 0, (uint16_t)tiles_in_bank);
	b->map_tile = gba_obj_ff_alloc(&b->ff, 64, 64);
	b->map_id = next_id++;
	VS_REC_MAP(b->map_id, b->arena, "map", 0, 256, 256, b->base + b->map_tile * 32u);
	for (k = 0; k < BG_TILES; k++)
		bg_tile_new(b, k, rom0 + k);
	bg_write_map(b);
}

/* Tiles first..first+3 freed and replaced (first fit puts the new ones in
 * the same places, under new ids), then the map points at them. */
static void bg_swap(bg *b, uint32_t first, uint32_t rom0)
{
	uint32_t k;

	for (k = first; k < first + 4; k++) {
		gba_obj_ff_free(&b->ff, (uint16_t)b->tile[k], 1);
		VS_REC_FREE(b->id[k]);
	}
	for (k = first; k < first + 4; k++)
		bg_tile_new(b, k, rom0 + k);
	bg_write_map(b);
}

/* ---- 3D: textures and palettes, drawn on quads ---------------------- */

#define TEXTURES 8u
#define NNS_BLOCKS 32u

enum { FMT_4C = 2, FMT_16C = 3, FMT_256C = 4 };

typedef struct texture {
	uint32_t tid, pid; /* trace ids of the texture and its palette */
	nns_tex_key key;
	nns_pltt_key pkey;
	uint16_t w, h;
	uint8_t fmt, live;
} texture;

static union {
	nns_gfd_ctx ctx;
	uint8_t bytes[NNS_GFD_CTX_BYTES(2u * NNS_BLOCKS)];
} gfd;
static texture tex[TEXTURES];

static const char *const fmt_name[5] = { "", "", "4c", "16c", "256c" };

static uint32_t tex_bytes(const texture *t)
{
	return (uint32_t)t->w * t->h * (t->fmt == FMT_4C ? 2u : t->fmt == FMT_16C ? 4u : 8u) / 8u;
}

static uint32_t pltt_colours(const texture *t)
{
	return t->fmt == FMT_4C ? 4u : t->fmt == FMT_16C ? 16u : 256u;
}

/* Allocates texture k and its palette and uploads both with their banks in
 * LCDC mode; the banks are texture and palette slots again after. */
static void tex_new(uint32_t k, unsigned w, unsigned h, unsigned fmt)
{
	texture *t = &tex[k];
	uint32_t colours;

	t->w = (uint16_t)w;
	t->h = (uint16_t)h;
	t->fmt = (uint8_t)fmt;
	colours = pltt_colours(t);
	t->tid = next_id++;
	t->pid = next_id++;
	t->key = nns_gfd_alloc_tex(&gfd.ctx, tex_bytes(t), 0, 0);
	t->pkey = nns_gfd_alloc_pltt(&gfd.ctx, colours * 2u, fmt == FMT_4C, 0);
	REG_VRAMCNT(BANK_A) = VRAM_ENABLE;
	REG_VRAMCNT(BANK_E) = VRAM_ENABLE;
	if (t->key)
		write_pattern(t->tid, LCDC_A + nns_tex_key_addr(t->key), tex_bytes(t));
	if (t->pkey)
		write_pattern(t->pid, LCDC_E + nns_pltt_key_addr(t->pkey), colours * 2u);
	REG_VRAMCNT(BANK_A) = DS_DEMO_VRAMCNT_A;
	REG_VRAMCNT(BANK_E) = DS_DEMO_VRAMCNT_E;
	VS_REC_TEX(t->tid, "tex", "tex", w, h, fmt_name[fmt], t->key);
	VS_REC_PLTT(t->pid, "pal", "tex", colours, fmt == FMT_4C, t->pkey);
	t->live = t->key && t->pkey;
}

static void tex_free(uint32_t k)
{
	texture *t = &tex[k];

	nns_gfd_free_tex(&gfd.ctx, t->key);
	VS_REC_FREE(t->tid);
	nns_gfd_free_pltt(&gfd.ctx, t->pkey);
	VS_REC_FREE(t->pid);
	t->live = 0;
}

static uint32_t log2_size(uint32_t n)
{
	uint32_t s = 0;

	while ((8u << s) < n)
		s++;
	return s;
}

/* Vertex (x, y) in 1/4096ths of the view, with texel coordinate (s, t). */
static void vertex(int32_t x, int32_t y, uint32_t s, uint32_t t)
{
	GFX_TEXCOORD = (s * 16u & 0xFFFFu) | (t * 16u) << 16;
	GFX_VTX_16 = ((uint32_t)x & 0xFFFFu) | (uint32_t)y << 16;
	GFX_VTX_16 = 0; /* z */
}

/* Every live texture on a quad of its own, 4 to a row; then the swap the
 * 3D engine needs every frame. */
static void draw_3d(void)
{
	uint32_t k;

	for (k = 0; k < TEXTURES; k++) {
		const texture *t = &tex[k];
		int32_t x = -3686 + (int32_t)(k % 4u) * 1843, y = 2048 - (int32_t)(k / 4u) * 2458;

		if (!t->live)
			continue;
		GFX_POLYGON_ATTR = 0x001F00C0u | (k << 24); /* both sides, opaque, id k */
		GFX_TEXIMAGE_PARAM = nns_tex_key_addr(t->key) >> 3 | log2_size(t->w) << 20 |
			log2_size(t->h) << 23 | (uint32_t)t->fmt << 26;
		GFX_PLTT_BASE = nns_pltt_key_addr(t->pkey) >> (t->fmt == FMT_4C ? 3 : 4);
		GFX_COLOR = 0x7FFF;
		GFX_BEGIN_VTXS = 1; /* quads */
		vertex(x, y, 0, 0);
		vertex(x + 1638, y, t->w, 0);
		vertex(x + 1638, y - 1638, t->w, t->h);
		vertex(x, y - 1638, 0, t->h);
		GFX_END_VTXS = 0;
	}
	GFX_SWAP_BUFFERS = 0;
}

/* ---- set-up and the script ------------------------------------------ */

static void palettes(void)
{
	uint32_t i;

	PAL_BG_A[0] = 0x2108;
	PAL_BG_B[0] = 0x1084;
	for (i = 1; i < 256; i++) {
		PAL_BG_A[i] = (uint16_t)(0x0010 + i * 0x0421u);
		PAL_BG_B[i] = (uint16_t)(0x4000 + i * 0x0109u);
		PAL_OBJ_A[i] = (uint16_t)(i * 0x0842u + 0x001F);
		PAL_OBJ_B[i] = (uint16_t)(i * 0x0421u + 0x03E0);
	}
}

static void video_init(void)
{
	REG_POWCNT1 = POWCNT1_ALL;
	REG_DISPCNT_A = 0; /* blank while set up: display mode 0 */
	REG_DISPCNT_B = 0;
	REG_VRAMCNT(BANK_A) = VRAM_ENABLE; /* LCDC: the first uploads */
	REG_VRAMCNT(BANK_B) = DS_DEMO_VRAMCNT_B;
	REG_VRAMCNT(BANK_C) = DS_DEMO_VRAMCNT_C;
	REG_VRAMCNT(BANK_D) = DS_DEMO_VRAMCNT_D0;
	REG_VRAMCNT(BANK_E) = VRAM_ENABLE;
	REG_VRAMCNT(BANK_F) = DS_DEMO_VRAMCNT_F;
	REG_VRAMCNT(BANK_G) = 0;
	REG_VRAMCNT(BANK_H) = 0;
	REG_VRAMCNT(BANK_I) = DS_DEMO_VRAMCNT_I0;
	palettes();
	sprites_show(&eng_a);
	sprites_show(&eng_b);
	REG_DISP3DCNT = 1; /* textures on */
	GFX_CLEAR_COLOR = 0x1084u; /* alpha 0: BG1 shows where no polygon is */
	GFX_CLEAR_DEPTH = 0x7FFF;
	GFX_VIEWPORT = 0xBFFF0000u; /* 0,0 to 255,191 */
	GFX_MTX_MODE = 0;           /* projection: identity */
	GFX_MTX_IDENTITY = 0;
	GFX_MTX_MODE = 2;           /* position and vector: identity */
	GFX_MTX_IDENTITY = 0;
}

static void record_arenas(void)
{
	VS_REC_BEGIN();
	VS_REC_ARENA("obja", "ds-obj", "banks=B0 boundary=128 strategy=libnds-sprite");
	VS_REC_ARENA("objb", "ds-obj", "engine=b banks=I0 strategy=gba-obj-first-fit");
	VS_REC_ARENA("bga", "ds-bg", "banks=F0");
	VS_REC_ARENA("bgb", "ds-bg", "engine=b");
	VS_REC_ARENA("tex", "ds-tex", "banks=A0 strategy=nns-lnk-tex");
	VS_REC_ARENA("pal", "ds-pltt", "strategy=nns-lnk-pltt");
}

static void setup(void)
{
	uint32_t i;

	video_init();
	record_arenas();
	libnds_sprite_init(&objs_a, LIBNDS_MAP_1D_128, 0);
	gba_obj_ff_init_span(&objs_b, 0, 512); /* bank I: 16 KiB */
	bg_init(&bg_a, 512, 1);                  /* bank F: 16 KiB */
	bg_init(&bg_b, 1024, 101);               /* bank C, its first 32 KiB */
	nns_gfd_init(&gfd.ctx, 2u * NNS_BLOCKS);
	nns_lnk_tex_init(&gfd.ctx, 0x20000u, 0, 0, NNS_BLOCKS, 1);
	nns_lnk_pltt_init(&gfd.ctx, 0x10000u, NNS_BLOCKS, NNS_BLOCKS, 1);
	tex_new(0, 32, 32, FMT_16C);
	tex_new(1, 64, 32, FMT_16C);
	tex_new(2, 32, 32, FMT_256C);
	for (i = 0; i < 4; i++)
		sprite_new(&eng_a, &eng_a.s[i], i % 3u, 1 + i % 2u, 4);
	for (i = 0; i < 2; i++)
		sprite_new(&eng_b, &eng_b.s[i], 0, 1 + i, 4);
	REG_BGCNT_A(0) = 1;                                         /* 3D, priority 1 */
	REG_BGCNT_A(1) = (uint16_t)(2u | bg_a.map_tile / 64u << 8); /* priority 2, 4bpp, char base 0 */
	REG_BGCNT_B(0) = (uint16_t)(1u | bg_b.map_tile / 64u << 8);
	REG_DISPCNT_A = DISPCNT_DISPLAY_2D | DISPCNT_BG0_3D | DISPCNT_BG(0) | DISPCNT_BG(1) | DISPCNT_OBJ |
		DISPCNT_OBJ_1D | DISPCNT_OBJ_BOUNDARY(2);
	REG_DISPCNT_B = DISPCNT_DISPLAY_2D | DISPCNT_BG(0) | DISPCNT_OBJ | DISPCNT_OBJ_1D;
}

/* The remap: engine B's sprites go, bank I leaves for LCDC and bank D
 * becomes engine B's OBJ VRAM (both at 0x06600000). */
static void remap_engine_b(void)
{
	sprites_clear(&eng_b);
	REG_VRAMCNT(BANK_I) = DS_DEMO_VRAMCNT_I1;
	VS_REC_VRAMCNT('I', DS_DEMO_VRAMCNT_I1);
	REG_VRAMCNT(BANK_D) = DS_DEMO_VRAMCNT_D1;
	VS_REC_VRAMCNT('D', DS_DEMO_VRAMCNT_D1);
	gba_obj_ff_init_span(&objs_b, 0, 1024); /* 32 KiB: what 1D 32-byte tiles reach */
}

/* What trace frame f does (the timeline above). */
static void step(uint32_t f)
{
	if (f % DS_DEMO_SPRITE_A_EVERY == 0 && f < DS_DEMO_SPRITE_A_CLEAR)
		sprite_churn(&eng_a, 0);
	if (f % DS_DEMO_SPRITE_B_EVERY == 0 && f <= DS_DEMO_SPRITE_B_LAST &&
		(f < DS_DEMO_REMAP - 4u || f > DS_DEMO_REMAP + 4u))
		sprite_churn(&eng_b, f > DS_DEMO_REMAP);
	switch (f) {
	case DS_DEMO_BG_A_SWAP: bg_swap(&bg_a, 0, 9); break;
	case DS_DEMO_TEX_SWAP: tex_free(1); tex_new(3, 64, 64, FMT_256C); break;
	case DS_DEMO_TEX_4C: tex_new(4, 16, 16, FMT_4C); break;
	case DS_DEMO_REMAP: remap_engine_b(); break;
	case DS_DEMO_TEX_SWAP2: tex_free(0); tex_new(5, 32, 64, FMT_16C); break;
	case DS_DEMO_BG_B_SWAP: bg_swap(&bg_b, 2, 109); break;
	case DS_DEMO_TEX_SWAP3: tex_free(2); tex_new(6, 16, 16, FMT_16C); tex_new(7, 32, 32, FMT_256C); break;
	case DS_DEMO_SPRITE_A_CLEAR: sprites_clear(&eng_a); break;
	default: break;
	}
}

int main(void)
{
	volatile ds_demo_status *st = STATUS;
	uint32_t f;

	st->busy = 1;
	st->steps = 0;
	st->done = 0;
	st->magic = DS_DEMO_MAGIC;
	setup();
	draw_3d();
	st->busy = 0;
	for (f = 1;; f++) {
		wait_vblank();
		st->busy = 1;
		if (f <= DS_DEMO_FRAMES) {
			VS_REC_FRAME();
			step(f);
			if (f == DS_DEMO_FRAMES)
				VS_REC_LINE("# end of the script");
		}
		/* OAM and the polygons while VBlank lasts */
		sprites_show(&eng_a);
		sprites_show(&eng_b);
		draw_3d();
		if (f <= DS_DEMO_FRAMES)
			st->steps = f;
		st->done = f >= DS_DEMO_FRAMES;
		st->busy = 0;
	}
}
