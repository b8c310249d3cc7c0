/* SPDX-License-Identifier: Zlib */
/* gba_hw.h - the GBA registers vramsim's target programs touch. */
#ifndef VS_GBA_HW_H
#define VS_GBA_HW_H

#include <stdint.h>

#define VS_REG16(a) (*(volatile uint16_t *)(a))
#define VS_REG32(a) (*(volatile uint32_t *)(a))

#define REG_DISPCNT VS_REG16(0x04000000)
#define REG_VCOUNT VS_REG16(0x04000006)
#define REG_TM0CNT_L VS_REG16(0x04000100)
#define REG_TM0CNT_H VS_REG16(0x04000102)
#define REG_TM1CNT_L VS_REG16(0x04000104)
#define REG_TM1CNT_H VS_REG16(0x04000106)
#define REG_WAITCNT VS_REG16(0x04000204)
#define REG_IME VS_REG16(0x04000208)

#define TM_ENABLE 0x80u
#define TM_CASCADE 0x04u

#endif
