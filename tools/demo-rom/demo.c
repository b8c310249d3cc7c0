/* demo.c - a scripted sprite scene that records its own allocation trace.
 *
 * Every frame (at the start of VBlank) it allocates and frees OBJ tile
 * memory with the seed's allocation map (src/alloc/gba_obj_map.c, the same
 * source vramsim simulates), writes each sprite's graphics into OBJ VRAM,
 * shows the live sprites through OAM, and reports every call with the
 * record.h macros. `vramsim record demo.gba --frames N -o demo.trace`
 * captures the trace; test_gba_emu_record replays it on the host and
 * compares the host's modelled VRAM with this program's real VRAM.
 *
 * The graphics are the bytes the simulator writes for an allocation without
 * a payload (its id pattern, see replay.c), so the two memories can be
 * compared byte for byte.
 */
#include <stdint.h>

#include "gba_hw.h"
#include "vramsim/alloc/gba_obj_map.h"
#include "vramsim/record.h"

#define OBJ_VRAM 0x06010000u
#define OAM ((volatile uint16_t *)0x07000000)
#define SCRIPT_FRAMES 600u
#define MAX_LIVE 40u

int main(void);

typedef struct sprite {
	uint32_t id;
	uint16_t block;
	uint8_t shape, size, bpp, live;
} sprite;

static gba_obj_map objmap;
static sprite live[MAX_LIVE];
static uint32_t rng_state = 12345u;

static uint32_t rng(uint32_t n)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (rng_state >> 16) % n;
}

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

static void wait_vblank(void)
{
	while (REG_VCOUNT >= 160)
		;
	while (REG_VCOUNT < 160)
		;
}

static void show(void)
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
		o[2] = s->block;
	}
}

static void step(uint32_t *next_id)
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
				VS_REC_SPRITE((*next_id)++, w, h, bpp, VS_REC_NO_AT);
				continue;
			}
			s->id = (*next_id)++;
			s->block = block;
			s->shape = (uint8_t)shape;
			s->size = (uint8_t)size;
			s->bpp = (uint8_t)bpp;
			s->live = 1;
			/* data first, then the line: a recorded allocation is complete */
			write_pattern(s->id, OBJ_VRAM + block * 32u, bytes);
			VS_REC_SPRITE(s->id, w, h, bpp, OBJ_VRAM + block * 32u);
		}
	}
}

int main(void)
{
	uint32_t frame, next_id = 1;

	REG_DISPCNT = 0x1040; /* mode 0, OBJ on, 1D OBJ mapping */
	gba_obj_map_init(&objmap, 0);
	VS_REC_BEGIN();
	VS_REC_ARENA("obj", "gba-obj", "strategy=gba-obj-map");
	for (frame = 0; frame < SCRIPT_FRAMES; frame++) {
		wait_vblank();
		VS_REC_FRAME();
		step(&next_id);
		show();
	}
	VS_REC_LINE("# end of the script");
	for (;;)
		wait_vblank();
}
