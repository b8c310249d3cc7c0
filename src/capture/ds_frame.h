/* SPDX-License-Identifier: Zlib */
/* ds_frame.h - the Nintendo DS video hardware at the end of one frame.
 *
 * The DS emulator (console/ds) fills one per frame from its savestate, and
 * DS capture (capture_ds*.c) infers allocations from a run of them, as the
 * GBA's do with vs_gba_frame. Only what a snapshot taken once a frame can
 * see is here: nothing inside a frame. Facts are GBATEK's; what the
 * emulator gives and how is docs/capture.md's DS part.
 */
#ifndef VRAMSIM_DS_FRAME_H
#define VRAMSIM_DS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define VS_DS_BANKS 9               /* A..I */
#define VS_DS_LCDC_BYTES 0xA4000u   /* banks A-I back to back, LCDC layout (656 KiB) */
#define VS_DS_OAM_BYTES 0x800u      /* engine A 0x000-0x3FF, engine B 0x400-0x7FF */
#define VS_DS_PALETTE_BYTES 0x800u  /* 0x05000000: A BG, A OBJ, B BG, B OBJ, 512 bytes each */
#define VS_DS_POLYS_MAX 8192u       /* more polygons than the hardware's 2048 are cut and counted */

/* Offsets of each bank in vs_ds_frame.lcdc: A B C D 128 KiB, E 64 KiB,
 * F G 16 KiB, H 32 KiB, I 16 KiB (0x06800000 + offset in LCDC mode). */
#define VS_DS_LCDC_A 0x00000u
#define VS_DS_LCDC_B 0x20000u
#define VS_DS_LCDC_C 0x40000u
#define VS_DS_LCDC_D 0x60000u
#define VS_DS_LCDC_E 0x80000u
#define VS_DS_LCDC_F 0x90000u
#define VS_DS_LCDC_G 0x94000u
#define VS_DS_LCDC_H 0x98000u
#define VS_DS_LCDC_I 0xA0000u

/* One polygon of the 3D list, with what names its texture. */
typedef struct vs_ds_poly {
	uint32_t tex_param;   /* TEXIMAGE_PARAM: offset/8 in bits 0-15, sizes 20-25, format 26-28 */
	uint32_t tex_palette; /* PLTT_BASE: in 16-byte units (8 for 4-colour) */
	uint32_t poly_attr;
	uint8_t vertices;     /* 3 or 4 */
} vs_ds_poly;

typedef struct vs_ds_frame {
	uint8_t vramcnt[VS_DS_BANKS];  /* VRAMCNT_A..I as written (bit 7 enable, MST, OFS) */
	uint32_t dispcnt[2];           /* DISPCNT of engine A (0x04000000), B (0x04001000) */
	uint16_t bgcnt[2][4];          /* BG0CNT..BG3CNT of each engine */
	uint16_t powcnt1;              /* POWCNT1 as the hardware numbers its bits */
	uint16_t disp3dcnt;
	uint32_t teximage_param;       /* the last TEXIMAGE_PARAM and PLTT_BASE given */
	uint32_t pltt_base;
	uint16_t keys;                 /* keys held this frame: VS_KEY_* (input_script.h) */
	uint16_t vcount;               /* where the frame ended: 262 while the program runs */
	uint8_t oam[VS_DS_OAM_BYTES];
	uint8_t palette[VS_DS_PALETTE_BYTES];
	uint8_t lcdc[VS_DS_LCDC_BYTES]; /* every bank's contents, mapped or not */
	/* The 3D list the emulator holds when the frame ends: the one being
	 * built for the next frame (complete for light scenes; empty on most
	 * frames of engines that draw below 60 fps). polys_total counts every
	 * polygon, polys holds the first VS_DS_POLYS_MAX. */
	uint32_t polys_n, polys_total;
	vs_ds_poly polys[VS_DS_POLYS_MAX];
} vs_ds_frame;

#endif
