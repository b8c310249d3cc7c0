/* SPDX-License-Identifier: Zlib */
/* ds_demo.h - what the DS demo ROM and the tests that run it share: the
 * status block and the timeline (ds_demo.c's comment and docs/ds.md say
 * what happens at each of these frames). */
#ifndef VS_DS_DEMO_H
#define VS_DS_DEMO_H

#include <stdint.h>

/* A status block at a fixed place in main RAM (above the program, below
 * its stacks' top). The demo sets `busy` while a frame's step changes
 * VRAM and the allocators, so a reader that stops the emulator between
 * frames can tell it sees a finished step. */
#define DS_DEMO_STATUS_ADDR 0x023F8000u
#define DS_DEMO_MAGIC 0x534D4544u /* "DEMS" */

typedef struct ds_demo_status {
	uint32_t magic;
	uint32_t busy;   /* 1 while a step runs */
	uint32_t steps;  /* trace frames finished: the frame lines written */
	uint32_t done;   /* 1 once the script has run out */
} ds_demo_status;

/* The timeline, in trace frames: frame F is what follows the F-th `frame`
 * line (the set-up is frame 0). Step F runs right after the F-th VBlank
 * the ARM9 waits for. */
#define DS_DEMO_FRAMES 330u        /* the last frame with an event */
#define DS_DEMO_SPRITE_A_EVERY 4u  /* engine A sprite churn: every 4th frame, 4..296 */
#define DS_DEMO_SPRITE_B_EVERY 8u  /* engine B: every 8th frame, 8..320 but 176..184 */
#define DS_DEMO_SPRITE_B_LAST 320u /* the last frame of engine B's churn, and of any call */
#define DS_DEMO_BG_A_SWAP 60u      /* engine A BG: 4 of its 8 tiles replaced */
#define DS_DEMO_TEX_SWAP 120u      /* texture and palette 1 freed, a 64x64 256-colour pair in */
#define DS_DEMO_TEX_4C 150u        /* a 16x16 4-colour texture and its 4-colour palette */
#define DS_DEMO_REMAP 180u         /* engine B OBJ: every sprite freed, bank I to LCDC, bank D to OBJ */
#define DS_DEMO_TEX_SWAP2 210u     /* texture 0 and its palette freed, a 32x64 16-colour pair in */
#define DS_DEMO_BG_B_SWAP 240u     /* engine B BG: 4 of its 8 tiles replaced */
#define DS_DEMO_TEX_SWAP3 270u     /* texture 2 and its palette freed, two pairs in */
#define DS_DEMO_SPRITE_A_CLEAR 300u /* every engine A sprite freed */

/* Bank values (VRAMCNT) the demo runs with; the remap changes I and D. */
#define DS_DEMO_VRAMCNT_A 0x83u  /* texture slot 0 */
#define DS_DEMO_VRAMCNT_B 0x82u  /* engine A OBJ */
#define DS_DEMO_VRAMCNT_C 0x84u  /* engine B BG */
#define DS_DEMO_VRAMCNT_D0 0x80u /* LCDC (unused) until the remap */
#define DS_DEMO_VRAMCNT_D1 0x84u /* engine B OBJ from the remap */
#define DS_DEMO_VRAMCNT_E 0x83u  /* texture palette slots 0-3 */
#define DS_DEMO_VRAMCNT_F 0x81u  /* engine A BG, offset 0 */
#define DS_DEMO_VRAMCNT_I0 0x82u /* engine B OBJ until the remap */
#define DS_DEMO_VRAMCNT_I1 0x80u /* LCDC from the remap */

#endif
