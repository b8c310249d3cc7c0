/* SPDX-License-Identifier: Zlib */
/* ds_hw.h - the Nintendo DS registers and memory vramsim's DS programs
 * touch, as GBATEK documents them ("DS Memory Map", "DS I/O Maps", "DS
 * Video", "DS 3D"). Both CPUs see their I/O at 0x04000000; the video
 * registers are the ARM9's. */
#ifndef VS_DS_HW_H
#define VS_DS_HW_H

#include <stdint.h>

#define VS_REG8(a) (*(volatile uint8_t *)(a))
#define VS_REG16(a) (*(volatile uint16_t *)(a))
#define VS_REG32(a) (*(volatile uint32_t *)(a))

/* ---- display (engine A at 0x04000000, engine B at 0x04001000) ---- */
#define REG_DISPCNT_A VS_REG32(0x04000000)
#define REG_DISPCNT_B VS_REG32(0x04001000)
#define REG_DISPSTAT VS_REG16(0x04000004)
#define REG_VCOUNT VS_REG16(0x04000006) /* 0-262; VBlank from 192 */
#define REG_BGCNT_A(n) VS_REG16(0x04000008 + 2 * (n))
#define REG_BGCNT_B(n) VS_REG16(0x04001008 + 2 * (n))
#define REG_BGHOFS_A(n) VS_REG16(0x04000010 + 4 * (n))
#define REG_BGHOFS_B(n) VS_REG16(0x04001010 + 4 * (n))
#define REG_BGVOFS_A(n) VS_REG16(0x04000012 + 4 * (n))
#define REG_BGVOFS_B(n) VS_REG16(0x04001012 + 4 * (n))
#define REG_DISP3DCNT VS_REG16(0x04000060)

#define DS_VBLANK_LINE 192u

/* DISPCNT bits (both engines; 3D and the mode above 5 engine A's only) */
#define DISPCNT_MODE(m) ((uint32_t)(m))
#define DISPCNT_BG0_3D (1u << 3)
#define DISPCNT_OBJ_1D (1u << 4)        /* tile OBJ mapping 1D */
#define DISPCNT_BG(n) (1u << (8 + (n)))
#define DISPCNT_OBJ (1u << 12)
#define DISPCNT_DISPLAY_2D (1u << 16)   /* display mode 1: graphics */
#define DISPCNT_OBJ_BOUNDARY(b) ((uint32_t)(b) << 20) /* 1D boundary 32 << b bytes */

/* ---- VRAM bank control (GBATEK "DS Memory Control - VRAM") ---- */
#define REG_VRAMCNT(bank) VS_REG8(0x04000240 + (bank) + ((bank) >= 7))
enum { BANK_A, BANK_B, BANK_C, BANK_D, BANK_E, BANK_F, BANK_G, BANK_H, BANK_I };
#define VRAM_ENABLE 0x80u
#define VRAM_MST(m) ((uint8_t)(m))
#define VRAM_OFS(o) ((uint8_t)((o) << 3))

/* POWCNT1: LCDs, 2D A, 3D render, 3D geometry, 2D B, A on the top screen */
#define REG_POWCNT1 VS_REG16(0x04000304)
#define POWCNT1_ALL 0x820Fu

/* ---- memory ---- */
#define VRAM_BG_A 0x06000000u
#define VRAM_BG_B 0x06200000u
#define VRAM_OBJ_A 0x06400000u
#define VRAM_OBJ_B 0x06600000u
#define VRAM_LCDC 0x06800000u /* banks A-I in LCDC mode, MST 0 */
#define PAL_BG_A ((volatile uint16_t *)0x05000000)
#define PAL_OBJ_A ((volatile uint16_t *)0x05000200)
#define PAL_BG_B ((volatile uint16_t *)0x05000400)
#define PAL_OBJ_B ((volatile uint16_t *)0x05000600)
#define OAM_A ((volatile uint16_t *)0x07000000)
#define OAM_B ((volatile uint16_t *)0x07000400)

/* ---- 3D geometry command ports (GBATEK "DS 3D Geometry Commands") ---- */
#define GFX_MTX_MODE VS_REG32(0x04000440)
#define GFX_MTX_PUSH VS_REG32(0x04000444)
#define GFX_MTX_POP VS_REG32(0x04000448)
#define GFX_MTX_IDENTITY VS_REG32(0x04000454)
#define GFX_MTX_SCALE VS_REG32(0x0400046C)
#define GFX_MTX_TRANS VS_REG32(0x04000470)
#define GFX_COLOR VS_REG32(0x04000480)
#define GFX_TEXCOORD VS_REG32(0x04000488)
#define GFX_VTX_16 VS_REG32(0x0400048C)
#define GFX_POLYGON_ATTR VS_REG32(0x040004A4)
#define GFX_TEXIMAGE_PARAM VS_REG32(0x040004A8)
#define GFX_PLTT_BASE VS_REG32(0x040004AC)
#define GFX_BEGIN_VTXS VS_REG32(0x04000500)
#define GFX_END_VTXS VS_REG32(0x04000504)
#define GFX_SWAP_BUFFERS VS_REG32(0x04000540)
#define GFX_VIEWPORT VS_REG32(0x04000580)
#define GFX_CLEAR_COLOR VS_REG32(0x04000350)
#define GFX_CLEAR_DEPTH VS_REG16(0x04000354)
#define GFX_STATUS VS_REG32(0x04000600)

#endif
