/* SPDX-License-Identifier: Zlib */
/* ds_demo.h - what the DS demo ROM and the tests that run it share. */
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
	uint32_t steps;  /* steps finished (one a frame) */
	uint32_t done;   /* 1 once the script has run out */
	uint32_t arm7;   /* unused by the ARM9: 0 */
} ds_demo_status;

#endif
