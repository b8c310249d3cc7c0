/* SPDX-License-Identifier: Zlib */
/* capture_cases.h - the script of the capture-cases ROM, shared by the ROM
 * (capture_cases.c) and the test that captures it (tests/test_gba_capture.c).
 *
 * Frame k is the k-th VBlank snapshot the host takes (frame 0 is the first:
 * the machine as reset, before the ROM has drawn anything). The ROM does
 * frame k's work in the VBlank that follows snapshot k-1, so what it writes
 * there is what snapshot k shows. The table of scenes is in capture_cases.c.
 */
#ifndef VS_CAPTURE_CASES_H
#define VS_CAPTURE_CASES_H

/* A status block in EWRAM, three words: CC_MAGIC, the last frame whose
 * work the ROM has finished, and the most cycles one frame's work took
 * (the mid-frame waits included). */
#define CC_STATUS_ADDR 0x0203FF00u
#define CC_MAGIC 0x53455343u /* "CSES" */

/* OBJ tile numbers (1D mapping, 4bpp: 32 bytes a tile at 0x06010000). */
#define CC_OBJ_ADDR(tile) (0x06010000u + (tile) * 32u)

/* 1. Upload before use: A and C uploaded at CC_EARLY_UP, B one frame
 * later; A and B shown from CC_EARLY_SHOW, C only from CC_EARLY_SHOW_C
 * (beyond the lookback). */
#define CC_EARLY_UP 10u
#define CC_EARLY_UP_B 11u
#define CC_EARLY_SHOW 12u
#define CC_EARLY_SHOW_C 16u
#define CC_EARLY_END 20u
#define CC_EARLY_TILE_A 16u /* 32x32: 16 tiles */
#define CC_EARLY_TILE_B 32u /* 16x16: 4 tiles */
#define CC_EARLY_TILE_C 36u /* 16x16 */

/* 2. Nested: a 32x32 sprite, then an 8x8 and a 16x16 inside its tiles,
 * which outlive the big one's own entry. */
#define CC_NEST_BIG 30u      /* upload and show the 32x32 */
#define CC_NEST_SMALL 32u    /* the 8x8 on tile +4 */
#define CC_NEST_MID 33u      /* the 16x16 on tiles +8..+11 */
#define CC_NEST_BIG_OFF 37u  /* the 32x32's entry hidden */
#define CC_NEST_END 41u      /* all hidden */
#define CC_NEST_TILE 48u

/* 3. One frame: a double-buffered HUD (32x16 each). A is uploaded and shown
 * at CC_HUD_A; B uploaded then (the back buffer) and shown alone the next
 * frame; a flash 8x8 uploaded and shown at CC_FLASH only. */
#define CC_HUD_A 50u
#define CC_HUD_B 51u
#define CC_FLASH 60u
#define CC_HUD_TILE_A 64u
#define CC_HUD_TILE_B 72u
#define CC_FLASH_TILE 80u

/* 4. Sprite sheet: 288 tiles uploaded at once, then four 16x16 entries
 * switching tiles inside it every frame. */
#define CC_SHEET_UP 70u
#define CC_SHEET_FIRST 71u
#define CC_SHEET_END 91u /* hidden from here */
#define CC_SHEET_TILE 512u
#define CC_SHEET_TILES 288u
#define CC_SHEET_ENTRIES 4u

/* 5. All-zero OAM entries: CC_ZERO_COUNT entries of all zero (8x8 on tile 0). */
#define CC_ZERO_FIRST 100u
#define CC_ZERO_END 105u
#define CC_ZERO_COUNT 5u

/* 6. Parked: a 32x32 on screen, then parked off screen (x 240, y 160),
 * then disabled. */
#define CC_PARK_SHOW 110u
#define CC_PARK_PARKED 115u
#define CC_PARK_END 125u
#define CC_PARK_TILE 96u

/* 7. Affine double-size: a 32x32 affine entry with bit 9 (drawn 64x64,
 * 16 tiles), a 16x16 right after its tiles, and a disabled non-affine
 * entry (bit 9 too) on uploaded tiles. */
#define CC_AFF_SHOW 130u
#define CC_AFF_END 140u
#define CC_AFF_TILE 128u
#define CC_AFF_NEXT_TILE 144u
#define CC_AFF_OFF_TILE 148u

/* 8. Mid-frame: a 16x16 shown at the top; at line 80 of CC_MID_OAM1 and
 * CC_MID_OAM2 its entry moves down (and at CC_MID_OAM2 names another
 * sprite's tiles: multiplexing); at line 80 of CC_MID_DISP, DISPCNT turns
 * window 0 on. Each is undone at the next VBlank. */
#define CC_MID_SHOW 150u
#define CC_MID_OAM1 152u
#define CC_MID_DISP 155u
#define CC_MID_OAM2 158u
#define CC_MID_END 161u
#define CC_MID_TILE 160u
#define CC_MID_TILE2 164u
#define CC_MID_LINE 80u
#define CC_MID_FRAMES 3u

/* 9. Identical re-upload: a 16x16 uploaded at CC_RE_UP, shown from
 * CC_RE_SHOW, its same bytes written again every frame up to CC_RE_END,
 * hidden for one frame at CC_RE_GAP. */
#define CC_RE_UP 170u
#define CC_RE_SHOW 172u
#define CC_RE_GAP 178u
#define CC_RE_END 186u
#define CC_RE_TILE 176u

/* 10. BG0 scrolls: HOFS 8 more at each of CC_SCROLL..+3, then 4, 4,
 * then VOFS 8 at CC_SCROLL_V (CC_SCROLL + 6). */
#define CC_SCROLL 200u
#define CC_SCROLL_V 206u

/* 11. Display mode 0 -> 1 (BG2 affine 128x128 on) -> 0. */
#define CC_MODE1 220u
#define CC_MODE0 230u

#define CC_FRAMES 250u /* frames worth capturing: the script is over by then */

/* BG0: text 256x256, 4bpp, charblock 0, screenblock 31; tiles 1-8.
 * BG2 (mode 1 only): affine 128x128, charblock 1, screenblock 30; tiles 1-4. */
#define CC_BG0_SBB 31u
#define CC_BG2_SBB 30u
#define CC_BG2_CB 1u

#endif
