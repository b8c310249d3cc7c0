/* SPDX-License-Identifier: Zlib */
/* cycles_noop.h - empty functions with the allocators' signatures, built
 * and placed exactly like the allocator code, so that timing one measures
 * what the timer and the call itself cost (one per argument count). */
#ifndef VS_GBA_CYCLES_NOOP_H
#define VS_GBA_CYCLES_NOOP_H

#include <stdint.h>

uint16_t vs_noop_ptr_u16(void *state, uint16_t arg);
uint16_t vs_noop_ptr_u16_u16(void *state, uint16_t a, uint16_t b);
int32_t vs_noop_ptr_u32_u32_ptr(void *state, uint32_t a, uint32_t b, int *out);

#endif
