/* SPDX-License-Identifier: Zlib */
/* capture_cases.c - a GBA ROM that does, at known frames, each hard case
 * `vramsim capture` must handle (docs/capture.md, "How capture is tested").
 *
 * No allocator: the ROM writes tiles, OAM and the display registers
 * directly, following a fixed script. Frame k is the host's k-th VBlank
 * snapshot (frame 0: the machine as reset, nothing drawn yet); the ROM does
 * frame k's work in the VBlank after snapshot k-1: OAM and registers first
 * (from a shadow copy, within VBlank), then VRAM uploads, so that snapshot
 * k shows it. Every sprite has its own graphics (from its own seed, every
 * pixel non-zero), so the tags capture gives them differ. Frame numbers and
 * tile numbers are in capture_cases.h, which tests/test_gba_capture.c
 * asserts against.
 *
 * Throughout (frame 1 on): mode 0, 1D OBJ mapping, BG0 (text 256x256, 4bpp,
 * tiles 1-8 and tile 0 in charblock 0, map in screenblock 31) and OBJ on;
 * unused OAM entries disabled (attribute 0 = 0x0200).
 *
 * | frames  | case                 | what the ROM does (OBJ tile numbers)              | what capture must write        |
 * |---------|----------------------|---------------------------------------------------|--------------------------------|
 * | 10-19   | upload before use    | 10: upload A (32x32, 16) and C (16x16, 36); 11:    | A at 10, B at 11 (dated back), |
 * |         |                      | upload B (16x16, 32); 12-19: A, B shown;           | C at 16 (6 frames > lookback); |
 * |         |                      | 16-19: C shown                                     | all freed at 20                |
 * | 30-40   | nested ranges        | 30: 32x32 on 48 uploaded, shown to 36; 32-40: 8x8  | one allocation (48, 16 tiles)  |
 * |         |                      | on 52; 33-40: 16x16 on 56                          | 30-41, nested counted          |
 * | 50-60   | one-frame sprites    | 50: HUD A (32x16 on 64) uploaded, shown; HUD B (72)| A 50-51, B 50-52, flash 60-61  |
 * |         |                      | uploaded; 51: B shown alone; 60: flash 8x8 on 80   |                                |
 * | 70-90   | sprite sheet         | 70: 288 tiles uploaded at 512; 71-90: four 16x16   | sheet suspected; with --sheet  |
 * |         |                      | entries switch tiles inside it every frame         | one 9216-byte allocation at 70 |
 * | 100-104 | all-zero OAM entries | five entries of all zero (8x8 on tile 0)           | 8x8 on tile 0 100-105; at most |
 * |         |                      |                                                    | 5 all-zero entries             |
 * | 110-124 | parked off screen    | 32x32 on 96 shown at (100,60) 110-114, at          | one allocation 110-125         |
 * |         |                      | (240,160) 115-124, disabled at 125                 |                                |
 * | 130-139 | affine double-size   | affine 32x32 with bit 9 on 128 (16 tiles); 16x16   | sprite 32x32 on 128, 16x16 on  |
 * |         |                      | on 144; disabled entry on uploaded tiles 148       | 144, nothing on 148; 130-140   |
 * | 150-160 | changes mid-frame    | 16x16 on 160; at line 80 of 152 its entry moves    | 3 frames changed mid-frame;    |
 * |         |                      | down, of 155 DISPCNT turns window 0 on, of 158 the | 160 150-161, 164 158-159       |
 * |         |                      | entry moves and names 164 (multiplexing)           |                                |
 * | 170-185 | identical re-upload  | 16x16 on 176 uploaded at 170, shown 172-185 but    | one allocation 170-186         |
 * |         |                      | 178; its same bytes written again every frame      |                                |
 * | 200-206 | BG0 scrolls          | HOFS 8, 16, 24, 32 (200-203), 36, 40; VOFS 8 (206) | 20 cell refs in and out a      |
 * |         |                      |                                                    | frame; 204 +20; 205 -20;       |
 * |         |                      |                                                    | 206 30 in and out              |
 * | 220-229 | display mode change  | mode 1, BG2 affine 128x128 (charblock 1, screen-   | mode 0 -> 1 -> 0 noted; BG2    |
 * |         |                      | block 30) on; 230: mode 0 again                    | map and 256 cell refs 220-230  |
 *
 * The ROM's status block (CC_STATUS_ADDR) holds the last frame whose work
 * is done and the most CPU cycles one frame's work took, so a test driving
 * the emulator can check the script is in step with the host's frames.
 */
#include <stdint.h>

#include "capture_cases.h"
#include "gba_hw.h"

#define OAM16 ((volatile uint16_t *)0x07000000)
#define BG_PAL ((volatile uint16_t *)0x05000000)
#define OBJ_PAL ((volatile uint16_t *)0x05000200)
#define REG_BG0CNT VS_REG16(0x04000008)
#define REG_BG2CNT VS_REG16(0x0400000C)
#define REG_BG0HOFS VS_REG16(0x04000010)
#define REG_BG0VOFS VS_REG16(0x04000012)
#define REG_BG2PA VS_REG16(0x04000020)
#define REG_BG2PB VS_REG16(0x04000022)
#define REG_BG2PC VS_REG16(0x04000024)
#define REG_BG2PD VS_REG16(0x04000026)
#define REG_BG2X VS_REG32(0x04000028)
#define REG_BG2Y VS_REG32(0x0400002C)

#define DISP_1D 0x0040u
#define DISP_BG0 0x0100u
#define DISP_BG2 0x0400u
#define DISP_OBJ 0x1000u
#define DISP_WIN0 0x2000u
#define A0_AFFINE 0x0100u
#define A0_OFF 0x0200u /* disabled; with A0_AFFINE: double-size */
#define MATRIX 31u     /* affine group in entries 124-127 */

enum { SQUARE = 0, WIDE = 1 };

int main(void);

/* OAM and registers are prepared here and written at the start of VBlank,
 * so nothing the script does changes them while lines are drawn, except
 * the mid-frame case on purpose. */
static uint16_t oam[512];
static uint16_t dispcnt, bg0cnt, bg2cnt, hofs, vofs;

/* n tiles of graphics at addr, all from seed: every 4-bit pixel non-zero,
 * so no tile is the all-transparent one, and each seed's differ. One
 * multiply a word: the 9 KiB sheet must be written within its frame. VRAM
 * takes 16- and 32-bit writes only. */
static void gfx(uint32_t addr, uint32_t tiles, uint32_t seed)
{
	volatile uint32_t *d = (volatile uint32_t *)addr;
	uint32_t i, x = seed * 0x9E3779B9u;

	for (i = 0; i < tiles * 8u; i++) {
		x = x * 1664525u + 1013904223u;
		d[i] = x | 0x11111111u;
	}
}

static void obj_gfx(uint32_t tile, uint32_t tiles, uint32_t seed)
{
	gfx(CC_OBJ_ADDR(tile), tiles, seed);
}

static void put(uint32_t i, uint32_t a0, uint32_t a1, uint32_t a2)
{
	oam[4 * i] = (uint16_t)a0;
	oam[4 * i + 1] = (uint16_t)a1;
	oam[4 * i + 2] = (uint16_t)a2;
}

static void sprite(uint32_t i, uint32_t x, uint32_t y, uint32_t shape, uint32_t size, uint32_t tile)
{
	put(i, (y & 0xFFu) | shape << 14, (x & 0x1FFu) | size << 14, tile);
}

/* Attribute 3 (the affine parameters) is left alone. */
static void hide_all(void)
{
	uint32_t i;

	for (i = 0; i < 128; i++)
		put(i, A0_OFF, 0, 0);
}

static int in(uint32_t k, uint32_t lo, uint32_t end)
{
	return k >= lo && k < end;
}

/* ---- the script: OAM and registers of frame k -------------------------------- */

static void plan(uint32_t k)
{
	uint32_t i;

	hide_all();
	dispcnt = DISP_1D | DISP_BG0 | DISP_OBJ;
	bg0cnt = (uint16_t)(CC_BG0_SBB << 8);
	bg2cnt = (uint16_t)(CC_BG2_CB << 2 | CC_BG2_SBB << 8);
	/* 1. upload before use */
	if (in(k, CC_EARLY_SHOW, CC_EARLY_END)) {
		sprite(0, 10, 10, SQUARE, 2, CC_EARLY_TILE_A);
		sprite(1, 60, 10, SQUARE, 1, CC_EARLY_TILE_B);
	}
	if (in(k, CC_EARLY_SHOW_C, CC_EARLY_END))
		sprite(2, 90, 10, SQUARE, 1, CC_EARLY_TILE_C);
	/* 2. nested */
	if (in(k, CC_NEST_BIG, CC_NEST_BIG_OFF))
		sprite(0, 10, 40, SQUARE, 2, CC_NEST_TILE);
	if (in(k, CC_NEST_SMALL, CC_NEST_END))
		sprite(1, 50, 40, SQUARE, 0, CC_NEST_TILE + 4u);
	if (in(k, CC_NEST_MID, CC_NEST_END))
		sprite(2, 70, 40, SQUARE, 1, CC_NEST_TILE + 8u);
	/* 3. one frame each */
	if (k == CC_HUD_A)
		sprite(0, 0, 140, WIDE, 2, CC_HUD_TILE_A);
	if (k == CC_HUD_B)
		sprite(0, 0, 140, WIDE, 2, CC_HUD_TILE_B);
	if (k == CC_FLASH)
		sprite(1, 120, 80, SQUARE, 0, CC_FLASH_TILE);
	/* 4. animation by tile numbers inside the sheet */
	if (in(k, CC_SHEET_FIRST, CC_SHEET_END))
		for (i = 0; i < CC_SHEET_ENTRIES; i++)
			sprite(i, 20u + i * 40u, 100, SQUARE, 1, CC_SHEET_TILE + 4u * ((k * 3u + i * 7u) % (CC_SHEET_TILES / 4u)));
	/* 5. all-zero entries: 8x8 on tile 0 at (0, 0) */
	if (in(k, CC_ZERO_FIRST, CC_ZERO_END))
		for (i = 0; i < CC_ZERO_COUNT; i++)
			put(i, 0, 0, 0);
	/* 6. parked */
	if (in(k, CC_PARK_SHOW, CC_PARK_PARKED))
		sprite(0, 100, 60, SQUARE, 2, CC_PARK_TILE);
	if (in(k, CC_PARK_PARKED, CC_PARK_END))
		sprite(0, 240, 160, SQUARE, 2, CC_PARK_TILE);
	/* 7. affine double-size */
	if (in(k, CC_AFF_SHOW, CC_AFF_END)) {
		put(0, 40u | A0_AFFINE | A0_OFF, 80u | MATRIX << 9 | 2u << 14, CC_AFF_TILE);
		sprite(1, 160, 40, SQUARE, 1, CC_AFF_NEXT_TILE);
		put(2, 40u | A0_OFF, 200u | 1u << 14, CC_AFF_OFF_TILE);
	}
	/* 8. mid-frame: the VBlank state; midframe() changes it at line 80 */
	if (in(k, CC_MID_SHOW, CC_MID_END))
		sprite(0, 100, 20, SQUARE, 1, CC_MID_TILE);
	/* 9. identical re-upload */
	if (in(k, CC_RE_SHOW, CC_RE_END) && k != CC_RE_GAP)
		sprite(0, 180, 100, SQUARE, 1, CC_RE_TILE);
	/* 10. scrolling */
	hofs = 0;
	if (k >= CC_SCROLL)
		hofs = (uint16_t)(k < CC_SCROLL + 4u ? 8u * (k - CC_SCROLL + 1u) : k == CC_SCROLL + 4u ? 36u : 40u);
	vofs = k >= CC_SCROLL_V ? 8u : 0u;
	/* 11. display mode */
	if (in(k, CC_MODE1, CC_MODE0))
		dispcnt = 1u | DISP_1D | DISP_BG0 | DISP_BG2 | DISP_OBJ;
}

static void commit(void)
{
	uint32_t i;

	for (i = 0; i < 512; i++)
		OAM16[i] = oam[i];
	REG_BG0CNT = bg0cnt;
	REG_BG2CNT = bg2cnt;
	REG_BG0HOFS = hofs;
	REG_BG0VOFS = vofs;
	REG_DISPCNT = dispcnt;
}

/* ---- the script: VRAM of frame k ------------------------------------------- */

static void bg_init(void)
{
	volatile uint16_t *map = (volatile uint16_t *)(0x06000000u + CC_BG0_SBB * 0x800u);
	uint32_t i, x, y, row, v;

	for (i = 0; i < 256; i++) {
		BG_PAL[i] = (uint16_t)(i * 0x0843u);
		OBJ_PAL[i] = (uint16_t)(0x7FFFu - i * 0x0421u);
	}
	for (i = 1; i <= 8; i++)
		gfx(0x06000000u + i * 32u, 1, 1000u + i);
	/* cell (x, y) names tile (3x + 5y) mod 9: tile 0 (left all zero, the
	 * transparent tile) in every ninth. No division: Thumb has none, and
	 * the library's would make frame 1 longer than a frame. */
	for (y = 0, row = 0; y < 32; y++, row = row + 5u >= 9u ? row + 5u - 9u : row + 5u)
		for (x = 0, v = row; x < 32; x++, v = v + 3u >= 9u ? v + 3u - 9u : v + 3u)
			map[y * 32u + x] = (uint16_t)v;
	REG_BG2PA = 0x100;
	REG_BG2PB = 0;
	REG_BG2PC = 0;
	REG_BG2PD = 0x100;
	REG_BG2X = 0;
	REG_BG2Y = 0;
}

/* BG2: 8bpp tiles 1-4 in charblock 1, a 16x16 byte map naming them. */
static void bg2_upload(void)
{
	volatile uint16_t *map = (volatile uint16_t *)(0x06000000u + CC_BG2_SBB * 0x800u);
	uint32_t i;

	gfx(0x06000000u + CC_BG2_CB * 0x4000u + 64u, 8, 2000u);
	for (i = 0; i < 128; i++) {
		uint32_t c = 2 * i, x = c % 16u, y = c / 16u;
		map[i] = (uint16_t)((1u + (x + y) % 4u) | (1u + (x + 1u + y) % 4u) << 8);
	}
}

static void upload(uint32_t k)
{
	if (k == 1)
		bg_init();
	if (k == CC_EARLY_UP) {
		obj_gfx(CC_EARLY_TILE_A, 16, 1);
		obj_gfx(CC_EARLY_TILE_C, 4, 3);
	}
	if (k == CC_EARLY_UP_B)
		obj_gfx(CC_EARLY_TILE_B, 4, 2);
	if (k == CC_NEST_BIG)
		obj_gfx(CC_NEST_TILE, 16, 4);
	if (k == CC_HUD_A) {
		obj_gfx(CC_HUD_TILE_A, 8, 5);
		obj_gfx(CC_HUD_TILE_B, 8, 6); /* the back buffer, shown next frame */
	}
	if (k == CC_FLASH)
		obj_gfx(CC_FLASH_TILE, 1, 7);
	if (k == CC_SHEET_UP)
		obj_gfx(CC_SHEET_TILE, CC_SHEET_TILES, 8);
	if (k == CC_PARK_SHOW)
		obj_gfx(CC_PARK_TILE, 16, 9);
	if (k == CC_AFF_SHOW) {
		obj_gfx(CC_AFF_TILE, 16, 10);
		obj_gfx(CC_AFF_NEXT_TILE, 4, 11);
		obj_gfx(CC_AFF_OFF_TILE, 4, 12);
	}
	if (k == CC_MID_SHOW) {
		obj_gfx(CC_MID_TILE, 4, 13);
		obj_gfx(CC_MID_TILE2, 4, 14);
	}
	/* the same bytes every frame: capture must see no change */
	if (in(k, CC_RE_UP, CC_RE_END))
		obj_gfx(CC_RE_TILE, 4, 15);
	if (k == CC_MODE1)
		bg2_upload();
}

/* Waits for a visible line of the frame being drawn. */
static void wait_line(uint32_t line)
{
	while (REG_VCOUNT >= 160)
		;
	while (REG_VCOUNT < line)
		;
}

static void midframe(uint32_t k)
{
	if (k == CC_MID_OAM1 || k == CC_MID_OAM2) {
		wait_line(CC_MID_LINE);
		OAM16[0] = (uint16_t)(100u | SQUARE << 14);
		if (k == CC_MID_OAM2)
			OAM16[2] = CC_MID_TILE2;
	}
	if (k == CC_MID_DISP) {
		wait_line(CC_MID_LINE);
		REG_DISPCNT = (uint16_t)(dispcnt | DISP_WIN0);
	}
}

static void wait_vblank(void)
{
	while (REG_VCOUNT >= 160)
		;
	while (REG_VCOUNT < 160)
		;
}

int main(void)
{
	volatile uint32_t *st = (volatile uint32_t *)CC_STATUS_ADDR;
	uint32_t k;

	st[1] = 0;
	st[2] = 0;
	st[0] = CC_MAGIC;
	REG_TM0CNT_H = 0;
	REG_TM0CNT_L = 0;
	REG_TM0CNT_H = TM_ENABLE | 1u; /* 64 cycles a tick: a frame is 4389 */
	/* identity for the affine sprite (group 31: entries 124-127) */
	oam[4 * 124 + 3] = 0x100;
	oam[4 * 127 + 3] = 0x100;
	/* frame 0 is the machine as reset: nothing is written while it is drawn */
	wait_vblank();
	for (k = 1;; k++) {
		uint16_t t0 = REG_TM0CNT_L;
		uint32_t cycles;

		plan(k);
		commit();
		upload(k);
		midframe(k);
		/* a frame's work must end before the next VBlank, or every later
		 * frame would come one late: the test checks the count */
		cycles = (uint32_t)(uint16_t)(REG_TM0CNT_L - t0) * 64u;
		if (cycles > st[2])
			st[2] = cycles;
		st[1] = k;
		wait_vblank();
	}
}
