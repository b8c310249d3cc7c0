/* SPDX-License-Identifier: Zlib */
/* demo.c - a scripted side-scroller that records its own allocation trace.
 *
 * Two text BGs scroll through a procedural world: BG0 (4bpp, ground and
 * bushes) one pixel a frame, BG1 (8bpp clouds) every other frame. The ROM
 * tiles a column's cells use are referenced through the BG tile manager of
 * 'Gameboy Advance Resource Management' (src/alloc/gba_bg_tiles.c) when the column scrolls in and released
 * when it scrolls out: a tile already in VRAM is a hit, a new one is copied
 * in. Each BG's map is a screenblock the same manager hands out. Sprites
 * come and go at the same time, placed by that article's OBJ allocation map
 * (src/alloc/gba_obj_map.c). Every call is reported with record.h;
 * `vramsim record demo.gba --frames N -o demo.trace` captures the trace and
 * test_gba_emu_record replays it on the host and compares VRAM.
 *
 * What the trace carries as bytes:
 *  - BG tiles: their real graphics, as data= (32 or 64 bytes: the line
 *    holds them). The ROM tile set is procedural (tile_pixels), as a game's
 *    would be a table; tile 0 is the reserved all-transparent tile.
 *  - Sprites: the bytes the simulator writes for an allocation without a
 *    payload (its id pattern, replay.c), since 32-4096 bytes of graphics do
 *    not fit in one 255-character debug-log line.
 *  - Maps: tile numbers the game writes as it scrolls; the trace has the
 *    allocation only, and the test checks that every map entry names a tile
 *    the host has live.
 *
 * After the 600 steps a scene of DEMO_SCENE_STEPS moves sprites: the map's
 * sprites go, and arena "moving" (gba-obj-compact, through
 * vramsim/sprite_handles.h) fills OBJ VRAM with 16 sprites of 64 tiles,
 * frees three in the middle and asks for 128 tiles, which only a slide
 * makes room for; then frees two more, and the next frame's slide closes
 * the gaps. Every move is a DMA3 copy, recorded as `move ID to=ADDR`
 * before the line of the allocation that needed it, and every OAM entry
 * drawing a moved sprite gets its new tile number.
 */
#include <stdint.h>

#include "gba_hw.h"
#include "demo.h"
#include "vramsim/alloc/gba_bg_tiles.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/alloc/gba_obj_compact.h"
#include "vramsim/record.h"
#include "vramsim/sprite_handles.h"

#define BG_VRAM 0x06000000u
#define OBJ_VRAM 0x06010000u
#define BG_PAL ((volatile uint16_t *)0x05000000)
#define OBJ_PAL ((volatile uint16_t *)0x05000200)
#define OAM ((volatile uint16_t *)0x07000000)
#define REG_BG0CNT VS_REG16(0x04000008)
#define REG_BG1CNT VS_REG16(0x0400000A)
#define REG_BG0HOFS VS_REG16(0x04000010)
#define REG_BG1HOFS VS_REG16(0x04000014)
#define STATUS ((volatile demo_status *)DEMO_STATUS_ADDR)
#define MAX_LIVE 40u

int main(void);

/* ---- sprites ------------------------------------------------------------ */

typedef struct sprite {
	uint32_t id;
	uint16_t block;
	uint8_t shape, size, bpp, live;
} sprite;

static gba_obj_map objmap;
static sprite live[MAX_LIVE];
static uint32_t rng_state = 12345u;
static uint32_t next_id = 1;

static uint32_t rng(uint32_t n)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (rng_state >> 16) % n;
}

/* Trace tags by OAM size field, so pictures colour the scene's cast. */
static const char *const size_tag[4] = { "spark", "coin", "enemy", "boss" };

static const uint8_t dims[3][4][2] = {
	{ { 8, 8 }, { 16, 16 }, { 32, 32 }, { 64, 64 } },
	{ { 16, 8 }, { 32, 8 }, { 32, 16 }, { 64, 32 } },
	{ { 8, 16 }, { 8, 32 }, { 16, 32 }, { 32, 64 } },
};

/* The simulator's bytes for allocation `id` (replay.c, expected_byte). */
static void write_pattern(uint32_t id, uint32_t addr, uint32_t bytes)
{
	uint64_t z = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	uint32_t w0 = (uint32_t)(z >> 32) ^ (uint32_t)z, i;
	volatile uint32_t *p = (volatile uint32_t *)addr;

	for (i = 0; i < bytes / 4; i++)
		p[i] = w0 + i * 0x9E3779B1u;
}

static void show_sprites(void)
{
	uint32_t i;

	for (i = 0; i < MAX_LIVE; i++) {
		volatile uint16_t *o = OAM + 4 * i;
		const sprite *s = &live[i];

		if (!s->live) {
			o[0] = 0x0200; /* hidden */
			continue;
		}
		o[0] = (uint16_t)((i * 7u) % 150u | (s->bpp == 8 ? 0x2000u : 0u) | (uint16_t)(s->shape << 14));
		o[1] = (uint16_t)((i * 29u) % 220u | (uint16_t)(s->size << 14));
		o[2] = (uint16_t)(s->block | 1u << 10); /* priority 1: in front of BG1 */
	}
}

static void step_sprites(void)
{
	uint32_t ops = rng(4), k;

	for (k = 0; k < ops; k++) {
		uint32_t slot = rng(MAX_LIVE);
		sprite *s = &live[slot];

		if (s->live) {
			gba_obj_map_free(&objmap, s->block);
			VS_REC_FREE(s->id);
			s->live = 0;
		} else {
			uint32_t shape = rng(3), size = rng(4), bpp = rng(4) == 0 ? 8 : 4;
			uint32_t w, h, bytes;
			uint16_t block;

			if (size == 3 && rng(4))
				size = rng(3); /* big sprites are rarer */
			w = dims[shape][size][0];
			h = dims[shape][size][1];
			bytes = w * h * bpp / 8;
			block = gba_obj_map_alloc(&objmap, (uint16_t)(bytes / 32));
			if (block == GBA_OBJ_MAP_NONE) {
				/* a failed allocation is part of the trace too */
				VS_REC_SPRITE(next_id++, "obj", size_tag[size], w, h, bpp, VS_REC_FAILED);
				continue;
			}
			s->id = next_id++;
			s->block = block;
			s->shape = (uint8_t)shape;
			s->size = (uint8_t)size;
			s->bpp = (uint8_t)bpp;
			s->live = 1;
			/* data first, then the line: a recorded allocation is complete */
			write_pattern(s->id, OBJ_VRAM + block * 32u, bytes);
			VS_REC_SPRITE(s->id, "obj", size_tag[size], w, h, bpp, OBJ_VRAM + block * 32u);
		}
	}
}

/* ---- the scene that moves sprites (gba-obj-compact) ------------------- */

static gba_obj_compact objs;
static vs_spr_handles handles;
static uint32_t scene_id[GBA_OBJ_COMPACT_MAX]; /* trace id of each live slot */
static uint16_t scene_slot[DEMO_SCENE_SPRITES]; /* the slot of scene sprite k */

/* Applies the moves of the last compact call (DMA3, OAM tile numbers) and
 * records them. */
static void scene_moves(void)
{
	uint16_t n, i;
	const gba_obj_compact_move *mv = gba_obj_compact_moves(&objs, &n);

	vs_spr_apply(&handles, &objs, OAM);
	for (i = 0; i < n; i++)
		VS_REC_MOVE(scene_id[mv[i].slot], OBJ_VRAM + mv[i].to * 32u);
}

/* Scene sprite k: a 64x64 sprite (4bpp, or 8bpp), drawn by OAM entry
 * DEMO_SCENE_OAM + k, id DEMO_SCENE_ID + k. */
static void scene_alloc(uint32_t k, uint32_t bpp)
{
	uint16_t tiles = (uint16_t)(bpp * 16u), h = gba_obj_compact_alloc(&objs, tiles, bpp == 8 ? 2 : 1), t;
	uint32_t id = DEMO_SCENE_ID + k, e = DEMO_SCENE_OAM + k;
	volatile uint16_t *o = OAM + 4 * e;

	scene_moves(); /* before the new sprite's data goes in */
	if (h == GBA_OBJ_COMPACT_NONE) {
		VS_REC_SPRITE(id, "moving", "slide", 64, 64, bpp, VS_REC_FAILED);
		return;
	}
	t = gba_obj_compact_start(&objs, h);
	scene_id[h] = id;
	scene_slot[k] = h;
	write_pattern(id, OBJ_VRAM + t * 32u, tiles * 32u);
	VS_REC_SPRITE(id, "moving", "slide", 64, 64, bpp, OBJ_VRAM + t * 32u);
	o[0] = (uint16_t)((k * 9u) % 96u | (bpp == 8 ? 0x2000u : 0u));
	o[1] = (uint16_t)((k * 13u) % 176u | 3u << 14);
	o[2] = (uint16_t)(t | 1u << 10);
	vs_spr_bind(&handles, e, h);
}

static void scene_free(uint32_t k)
{
	uint32_t e = DEMO_SCENE_OAM + k;

	gba_obj_compact_free(&objs, scene_slot[k]);
	VS_REC_FREE(DEMO_SCENE_ID + k);
	vs_spr_unbind(&handles, e);
	OAM[4 * e] = 0x0200; /* hidden */
}

/* At each frame marker: compact's frame-boundary slide. */
static void scene_frame(void)
{
	gba_obj_compact_frame(&objs);
	scene_moves();
}

static void scene_step(uint32_t step)
{
	uint32_t i;

	switch (step) {
	case 0: /* the map's sprites go; 16 of 64 tiles fill OBJ VRAM */
		for (i = 0; i < MAX_LIVE; i++)
			if (live[i].live) {
				gba_obj_map_free(&objmap, live[i].block);
				VS_REC_FREE(live[i].id);
				live[i].live = 0;
			}
		show_sprites();
		for (i = 0; i < 16; i++)
			scene_alloc(i, 4);
		break;
	case 1: /* three gaps of 64 tiles, then 128 tiles: a slide on need */
		scene_free(1);
		scene_free(5);
		scene_free(9);
		scene_alloc(16, 8);
		break;
	case 2: /* two more gaps: the next frame's slide closes them */
		scene_free(2);
		scene_free(12);
		break;
	default:
		break;
	}
}

/* ---- the scrolling BGs ------------------------------------------------- */

/* BG tile tables are 19 KiB: EWRAM, as a game would keep them. */
static gba_bg_tiles bgt __attribute__((section(".ewram_bss")));

typedef struct cell {
	uint32_t id;     /* trace id of this cell's tile reference */
	uint16_t block;  /* RAM block the manager gave */
} cell;

typedef struct layer {
	unsigned bpp, rows, speed; /* speed: frames per pixel */
	uint32_t sb;               /* map screenblock */
	uint32_t x;                /* scroll, pixels */
	uint32_t lo;               /* first world column loaded; lo .. lo+31 are */
	const char *tag, *map_tag; /* trace tags of its tiles and of its map */
	cell cells[DEMO_MAP_COLS][DEMO_BG0_ROWS];
} layer;

static layer bg0, bg1;

static uint32_t hash(uint32_t a, uint32_t b)
{
	uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;

	h ^= h >> 15;
	h *= 0xC2B2AE3Du;
	return h ^ (h >> 13);
}

/* The world: which ROM tile sits in a layer's cell (0: transparent). 4bpp
 * tiles are ROM indices 1-299, 8bpp 300-311: an index names one tile at one
 * depth. Sections of 16 columns draw from shifting ranges, so tiles load
 * and drop out as the world scrolls. */
static uint32_t world_tile(const layer *l, uint32_t col, uint32_t row)
{
	uint32_t section = col / 16u;

	if (l->bpp == 8)
		return hash(col, row + 100u) % 5u == 0 ? 300u + hash(col, row) % 12u : 0u;
	{
		uint32_t height = 12u + hash(col / 4u, 7u) % 6u;

		if (row == height)
			return 1u + section % 10u; /* grass */
		if (row > height)
			return 11u + (col * 3u + row * 7u + section * 13u) % 120u; /* earth */
		if (row + 1u == height && hash(col, 3u) % 7u == 0)
			return 200u + col % 5u; /* a bush */
		return 0;
	}
}

/* The ROM tile set: rom's graphics, 32 (4bpp) or 64 (8bpp) bytes. */
static void tile_pixels(uint32_t rom, unsigned bpp, uint8_t *out)
{
	uint32_t x, y;

	for (y = 0; y < 8; y++)
		for (x = 0; x < 8; x++) {
			uint32_t c;

			if (bpp == 8) {
				/* a cloud puff: a disc, shaded by the tile number */
				int dx = (int)x * 2 - 7, dy = (int)y * 2 - 7;

				c = dx * dx + dy * dy < 40 + (int)(rom % 5u) * 6 ? 16u + (rom * 11u + x + y) % 48u : 0u;
				out[y * 8 + x] = (uint8_t)c;
			} else {
				/* bricks, stripes and dots, varied by the tile number */
				switch (rom % 3u) {
				case 0: c = ((y + (rom >> 2)) % 4u == 0 || (x + (y / 4u) * 4u + rom) % 8u == 0) ? 1u : 2u + rom % 5u; break;
				case 1: c = 1u + (x + y + rom) % 7u; break;
				default: c = ((x * y + rom) % 5u == 0) ? 8u + rom % 8u : 1u + (rom >> 3) % 6u; break;
				}
				if (x & 1)
					out[y * 4 + x / 2] = (uint8_t)(out[y * 4 + x / 2] | c << 4);
				else
					out[y * 4 + x / 2] = (uint8_t)c;
			}
		}
}

/* VRAM takes 16- and 32-bit writes only. */
static void copy_words(uint32_t addr, const uint8_t *src, uint32_t bytes)
{
	volatile uint32_t *d = (volatile uint32_t *)addr;
	uint32_t i;

	for (i = 0; i < bytes / 4; i++)
		d[i] = (uint32_t)src[4 * i] | (uint32_t)src[4 * i + 1] << 8 | (uint32_t)src[4 * i + 2] << 16 |
			(uint32_t)src[4 * i + 3] << 24;
}

static volatile uint16_t *map_entry(const layer *l, uint32_t mcol, uint32_t row)
{
	return (volatile uint16_t *)(BG_VRAM + l->sb * 0x800u) + row * 32u + mcol;
}

/* References the tile of world column col, row; loads it when new. */
static void load_cell(layer *l, uint32_t col, uint32_t row)
{
	uint32_t rom = world_tile(l, col, row), addr;
	uint8_t px[64];
	cell *c = &l->cells[col % DEMO_MAP_COLS][row];
	int loaded;
	int32_t b = gba_bg_tiles_ref(&bgt, rom, l->bpp, &loaded);

	tile_pixels(rom, l->bpp, px);
	if (rom == 0) {
		uint32_t i;

		for (i = 0; i < sizeof px; i++)
			px[i] = 0; /* the reserved transparent tile */
	}
	if (b < 0) {
		/* no room: the trace says so, the cell shows tile 0 */
		VS_REC_TILE_DATA(next_id++, "bg", l->tag, rom, l->bpp, VS_REC_FAILED, px);
		c->id = 0;
		c->block = 0;
		*map_entry(l, col % DEMO_MAP_COLS, row) = 0;
		return;
	}
	addr = BG_VRAM + (uint32_t)b * 32u;
	if (loaded)
		copy_words(addr, px, l->bpp * 8u); /* data first, then the line */
	c->id = next_id++;
	c->block = (uint16_t)b;
	VS_REC_TILE_DATA(c->id, "bg", l->tag, rom, l->bpp, addr, px);
	*map_entry(l, col % DEMO_MAP_COLS, row) = (uint16_t)(l->bpp == 8 ? b / 2 : b);
}

static void drop_cell(layer *l, uint32_t col, uint32_t row)
{
	cell *c = &l->cells[col % DEMO_MAP_COLS][row];

	if (!c->id)
		return;
	gba_bg_tiles_release(&bgt, c->block);
	VS_REC_FREE(c->id);
	c->id = 0;
}

static void layer_init(layer *l, unsigned bpp, unsigned rows, unsigned speed, unsigned prio, const char *tag,
	const char *map_tag)
{
	uint32_t col, row, id = next_id++;
	int sb = gba_bg_tiles_map_alloc(&bgt, 1);
	volatile uint16_t *map;

	l->bpp = bpp;
	l->tag = tag;
	l->map_tag = map_tag;
	l->rows = rows;
	l->speed = speed;
	l->sb = (uint32_t)sb;
	l->x = 0;
	l->lo = 0;
	VS_REC_MAP(id, "bg", l->map_tag, 0, 256, 256, BG_VRAM + l->sb * 0x800u);
	map = (volatile uint16_t *)(BG_VRAM + l->sb * 0x800u);
	for (row = 0; row < 32; row++)
		for (col = 0; col < 32; col++)
			map[row * 32u + col] = 0;
	if (bpp == 8)
		REG_BG1CNT = (uint16_t)(0x80u | l->sb << 8 | prio);
	else
		REG_BG0CNT = (uint16_t)(l->sb << 8 | prio);
	for (col = 0; col < DEMO_MAP_COLS; col++)
		for (row = 0; row < rows; row++)
			load_cell(l, col, row);
}

/* Scrolls a pixel every `speed` frames; a column that leaves on the left
 * is released, the one that enters on the right loaded into its map column. */
static void layer_step(layer *l, uint32_t frame)
{
	uint32_t row;

	if (frame % l->speed)
		return;
	l->x++;
	if (l->x / 8u > l->lo) {
		for (row = 0; row < l->rows; row++) {
			drop_cell(l, l->lo, row);
			load_cell(l, l->lo + DEMO_MAP_COLS, row);
		}
		l->lo++;
	}
}

static void set_palettes(void)
{
	uint32_t i;

	BG_PAL[0] = 0x7EB5; /* sky */
	for (i = 1; i < 256; i++)
		BG_PAL[i] = (uint16_t)(((i * 3u) & 31u) | ((i * 5u) & 31u) << 5 | ((i * 2u) & 31u) << 10);
	for (i = 16; i < 64; i++)
		BG_PAL[i] = (uint16_t)(0x6318 + (i & 7u) * 0x421u); /* cloud greys */
	for (i = 0; i < 256; i++)
		OBJ_PAL[i] = (uint16_t)(i * 0x0421u);
}

static void wait_vblank(void)
{
	while (REG_VCOUNT >= 160)
		;
	while (REG_VCOUNT < 160)
		;
}

static const uint8_t transparent[64];

int main(void)
{
	volatile demo_status *st = STATUS;
	uint32_t frame;

	st->busy = 1;
	st->steps = 0;
	st->done = 0;
	st->magic = DEMO_MAGIC;
	/* Forced blank while the world loads, as games do: nothing half-made
	 * is shown (and `vramsim capture` infers nothing from it). */
	REG_DISPCNT = 0x0080;
	for (frame = 0; frame < 128; frame++)
		OAM[4 * frame] = 0x0200; /* every entry hidden, not an 8x8 sprite on tile 0 */
	set_palettes();
	/* The reserved transparent tile: blocks 0-1 (tile 0 of both depths). */
	copy_words(BG_VRAM, transparent, sizeof transparent);
	gba_obj_map_init(&objmap, 0);
	gba_bg_tiles_init(&bgt);
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "gba-obj", "strategy=gba-obj-map");
	VS_REC_ARENA("bg", "gba-bg", "strategy=gba-bg-tiles");
	VS_REC_ARENA("moving", "gba-obj", "strategy=gba-obj-compact options=budget:256");
	gba_obj_compact_init(&objs, 0, 256);
	vs_spr_init(&handles);
	layer_init(&bg0, 4, DEMO_BG0_ROWS, 1, 2, "ground", "bg0");
	layer_init(&bg1, 8, DEMO_BG1_ROWS, 2, 3, "clouds", "bg1");
	REG_DISPCNT = 0x1340; /* mode 0, BG0, BG1, OBJ on, 1D OBJ mapping */
	st->busy = 0;
	for (frame = 0; frame < DEMO_STEPS; frame++) {
		wait_vblank();
		st->busy = 1;
		/* OAM first, while VBlank lasts: the sprites the last step
		 * placed. The step's work may run into the visible lines. */
		show_sprites();
		VS_REC_FRAME();
		scene_frame();
		layer_step(&bg0, frame);
		layer_step(&bg1, frame);
		REG_BG0HOFS = (uint16_t)bg0.x;
		REG_BG1HOFS = (uint16_t)bg1.x;
		step_sprites();
		st->steps = frame + 1;
		st->busy = 0;
	}
	for (frame = 0; frame < DEMO_SCENE_STEPS; frame++) {
		wait_vblank();
		st->busy = 1;
		VS_REC_FRAME();
		scene_frame(); /* moves and OAM in VBlank */
		scene_step(frame);
		st->steps = DEMO_STEPS + frame + 1;
		st->busy = 0;
	}
	VS_REC_LINE("# end of the script");
	st->done = 1;
	for (;;)
		wait_vblank();
}
