/* SPDX-License-Identifier: Zlib */
/* demo.h - what the demo ROM and the test that records it share. */
#ifndef VS_DEMO_H
#define VS_DEMO_H

#include <stdint.h>

/* A status block at a fixed place in EWRAM (clear of the tables). The
 * demo sets `busy` while it changes VRAM and the allocators in a frame's
 * step, so a reader that stops the emulator between frames can tell it
 * sees a finished step. */
#define DEMO_STATUS_ADDR 0x0203FF00u
#define DEMO_MAGIC 0x4F4D4544u /* "DEMO" */

typedef struct demo_status {
	uint32_t magic;
	uint32_t busy;   /* 1 while a step runs */
	uint32_t steps;  /* steps finished */
	uint32_t done;   /* 1 once the script has run out */
} demo_status;

/* Screen layout: BG0 (4bpp, rows 0-19) and BG1 (8bpp, rows 0-5) are text
 * BGs of 256x256 pixels with charblock 0; their maps are the screenblocks
 * the BG tile manager handed out. */
#define DEMO_BG0_ROWS 20u
#define DEMO_BG1_ROWS 6u
#define DEMO_MAP_COLS 32u
#define DEMO_STEPS 600u

/* The scene after the steps that moves sprites (arena "moving",
 * gba-obj-compact): its sprite k has trace id DEMO_SCENE_ID + k and is
 * drawn by OAM entry DEMO_SCENE_OAM + k. */
#define DEMO_SCENE_STEPS 4u
#define DEMO_SCENE_SPRITES 17u
#define DEMO_SCENE_ID 1000000u
#define DEMO_SCENE_OAM 64u

#endif
