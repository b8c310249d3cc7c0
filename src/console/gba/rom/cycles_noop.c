/* SPDX-License-Identifier: Zlib */
/* cycles_noop.c - see cycles_noop.h. */
#include "cycles_noop.h"

uint16_t vs_noop_ptr_u16(void *state, uint16_t arg)
{
	(void)state;
	return arg;
}

uint16_t vs_noop_ptr_u16_u16(void *state, uint16_t a, uint16_t b)
{
	(void)state;
	(void)b;
	return a;
}

int32_t vs_noop_ptr_u32_u32_ptr(void *state, uint32_t a, uint32_t b, int *out)
{
	(void)state;
	(void)b;
	(void)out;
	return (int32_t)a;
}
