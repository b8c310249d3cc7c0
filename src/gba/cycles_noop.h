/* cycles_noop.h - empty functions with the allocators' signatures, built
 * and placed exactly like the allocator code, so that timing one measures
 * what the timer and the call itself cost. */
#ifndef VS_GBA_CYCLES_NOOP_H
#define VS_GBA_CYCLES_NOOP_H

#include <stdint.h>

uint16_t vs_noop_ptr_u16(void *state, uint16_t arg);

#endif
